"""Ability mahjong games over HTTP (/v1/games with ``"rules": {"ability": true}`` and
``"roles"``), on each storage back-end: roles shown, facts recorded and checked, undo and
export/import keep working."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import games
from sanma_lens.engine.game import game_rules_from_json, game_rules_to_json
from sanma_lens.engine.game.state import ABILITY_OPTIONS

ROLES = ["seiryuu", "byakko", "kouryuu"]


@pytest.fixture
def client(storage):
    app = FastAPI()
    app.include_router(games.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    with TestClient(app) as c:
        yield c


def new_game(client, **body):
    r = client.post("/v1/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def post_hand(client, game, body, status=200):
    r = client.post(f"/v1/games/{game['id']}/hands", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_ability_game_shows_roles_start_points_and_the_seiryuu_deposit(client):
    game = new_game(client, rules={"ability": True}, roles=ROLES)
    assert [p["role"] for p in game["players"]] == ROLES
    assert [p["score"] for p in game["players"]] == [30_000, 30_000, 10_000]
    assert game["rules"]["ability"] is True and game["rules"]["roles"] == ROLES
    assert game["ability"] == {
        "roles": ROLES,
        "seiryuu_deposits": [{"player": 0, "amount": 2000}],
        "byakko": [{"player": 1, "silent_hands": 0, "must_declare": False}],
        "start_points": [30_000, 30_000, 10_000],
        "oka": 50,
    }


def test_a_game_without_roles_looks_as_it_always_did(client):
    game = new_game(client)
    assert "ability" not in game and "role" not in game["players"][0]
    assert "ability" not in game["rules"] and "roles" not in game["rules"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"rules": {"ability": True}, "roles": ["seiryuu", "byakko"]}, "bad_roles"),
        ({"rules": {"ability": True}, "roles": ["seiryuu", "byakko", "kirin"]}, "bad_roles"),
        ({"rules": {"ability": True}}, "bad_roles"),
        ({"roles": ROLES}, "bad_rules"),
        ({"rules": {"ability": True}, "roles": "seiryuu"}, "bad_roles"),
    ],
)
def test_ability_game_bad_roles_are_422(client, body, code):
    r = client.post("/v1/games", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text


def test_ability_hands_over_http_and_the_three_hand_rule(client):
    game = new_game(client, rules={"ability": True}, roles=ROLES)
    # E1: the byakko declares and 2 rons 1 for mangan (8,000): the byakko's win of 5 han is
    # paid, then it pays 4,000 to each; the seiryuu's 2,000 goes to the winner; the kouryuu
    # collects 1,000 from each
    game = post_hand(
        client,
        game,
        {
            "outcome": "ron",
            "discarder": 2,
            "wins": [{"winner": 1, "limit": "mangan"}],
            "byakko_declared": [1],
        },
    )
    # 0: 30,000 − 2,000 + 4,000 − 1,000; 1: 30,000 + 8,000 + 2,000 − 8,000 − 1,000;
    # 2: 10,000 − 8,000 + 4,000 + 2,000
    assert [p["score"] for p in game["players"]] == [31_000, 31_000, 8_000]
    reasons = [t["reason"] for t in game["hands"][-1]["transfers"]]
    assert (
        reasons == ["seiryuu_deposit", "ron", "deposits"] + ["byakko_mangan"] * 2 + ["kouryuu"] * 2
    )
    game = post_hand(client, game, {"outcome": "draw"})
    game = post_hand(client, game, {"outcome": "draw"})
    assert game["ability"]["byakko"] == [{"player": 1, "silent_hands": 2, "must_declare": True}]
    r = client.post(f"/v1/games/{game['id']}/hands", json={"outcome": "draw"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "byakko_must_declare"
    assert set(r.json()["error"]) == {"code", "message"}
    game = post_hand(client, game, {"outcome": "draw", "byakko_declared": [1]})
    assert game["ability"]["byakko"][0]["silent_hands"] == 0


def test_ability_seiryuu_win_and_kanpa_over_http(client):
    game = new_game(client, rules={"ability": True}, roles=["seiryuu", "tenshi", "genbu"])
    r = client.post(
        f"/v1/games/{game['id']}/hands",
        json={"outcome": "ron", "discarder": 1, "wins": [{"winner": 0, "han": 2, "fu": 30}]},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "seiryuu_han_needed"
    win = {"winner": 0, "han": 2, "fu": 30, "seiryuu_han": 0}
    game = post_hand(client, game, {"outcome": "ron", "discarder": 1, "wins": [win]})
    assert game["ability"]["seiryuu_deposits"] == [{"player": 0, "amount": 4000}]
    assert game["hands"][-1]["result"]["wins"][0]["seiryuu_han"] == 0
    # the genbu names 9s against player 1; 1 tsumo on 9s is refused
    hand = {"hand": "123p456p789p11z78s", "win": "9s"}
    body = {
        "outcome": "tsumo",
        "wins": [{"winner": 1, "hand": hand}],
        "kanpa": [{"by": 2, "target": 1, "tile": "9s"}],
    }
    r = client.post(f"/v1/games/{game['id']}/hands", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_win"
    body["kanpa"][0]["tile"] = "6s"
    game = post_hand(client, game, body)
    assert game["hands"][-1]["result"]["kanpa"] == [{"by": 2, "target": 1, "tile": "6s"}]


def test_ability_undo_export_and_import_keep_the_roles(client):
    game = new_game(client, rules={"ability": True}, roles=ROLES)
    game = post_hand(client, game, {"outcome": "draw", "byakko_declared": [1]})
    before = post_hand(client, game, {"outcome": "draw"})
    after = post_hand(client, before, {"outcome": "draw", "byakko_declared": [1]})
    undone = client.post(f"/v1/games/{game['id']}/undo").json()
    assert undone["players"] == before["players"] and undone["ability"] == before["ability"]
    export = client.get(f"/v1/games/{game['id']}/export").json()
    r = client.post("/v1/games/import", json=export)
    assert r.status_code == 201, r.text
    imported = r.json()
    for key in ("players", "ability", "deposits", "hands", "rules"):
        assert imported[key] == undone[key], key
    assert after["hand_count"] == 3 and imported["hand_count"] == 2
    # an export whose event names a declaration no byakko made is refused
    export["events"][0]["result"]["byakko_declared"] = [0]
    r = client.post("/v1/games/import", json=export)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_byakko"


ABILITY_CUSTOM = {
    "ability": True,
    "roles": ["genbu", "genbu", "kouryuu"],
    "genbu_start_offset": 4_000,
    "kouryuu_start_offset": 15_000,
    "ability_oka_from_starts": False,
    "roles_may_repeat": True,
    "seiryuu_deposit": 1_000,
    "seiryuu_deposit_after_blank": 3_000,
    "seiryuu_deposit_below_zero": False,
    "byakko_declare_within": 4,
    "byakko_chombo_hand_counts": True,
    "byakko_pays_after_chombo": True,
    "byakko_upgrade_earns_prize": False,
    "byakko_count_across_hanchan": False,
    "kouryuu_collection": 2_000,
    "kouryuu_collects_after_chombo": True,
    "kouryuu_bust_prize": False,
    "kouryuu_before_byakko": True,
    "kanpa_at_once": "farther",
}


def test_every_ability_option_is_an_option_stored_and_shown(client, storage):
    assert set(ABILITY_CUSTOM) == {*ABILITY_OPTIONS, "roles"}
    rules = game_rules_from_json(ABILITY_CUSTOM)
    shown = game_rules_to_json(rules)
    assert {k: shown[k] for k in ABILITY_CUSTOM} == ABILITY_CUSTOM
    game = new_game(client, rules=ABILITY_CUSTOM)
    assert {k: game["rules"][k] for k in ABILITY_CUSTOM} == ABILITY_CUSTOM
    assert storage.load(game["id"]).rules == game["rules"]
    assert [p["score"] for p in game["players"]] == [26_000, 26_000, 15_000]
    game = post_hand(client, game, {"outcome": "draw"})
    assert [p["score"] for p in game["players"]] == [24_000, 24_000, 19_000]  # 2,000 from each


def test_ability_game_settles_to_zero_through_the_api(client):
    game = new_game(client, rules={"ability": True}, roles=["genbu", "kouryuu", "tenshi"])
    game = post_hand(
        client, game, {"outcome": "ron", "discarder": 1, "wins": [{"winner": 2, "limit": "baiman"}]}
    )
    assert game["finished"]  # the kouryuu (10,000) paid 16,000
    assert sum(s["total"] for s in game["settlement"]) == 0
    assert [s["oka"] for s in game["settlement"]] == [0, 0, 55]


def test_openapi_lists_the_ability_fields():
    new = games.NEW_GAME_SCHEMA["properties"]
    assert "roles" in new and "ability" in new["rules"]["properties"]
    hand = games.HAND_SCHEMA["properties"]
    assert {"byakko_declared", "kanpa"} <= set(hand)
    assert "seiryuu_han" in hand["wins"]["items"]["properties"]
