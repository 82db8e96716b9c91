"""The game endpoints on a bare FastAPI app (the router alone), on each storage back-end."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import games


@pytest.fixture
def client(storage):
    app = FastAPI()
    app.include_router(games.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    with TestClient(app) as c:
        yield c


def new_game(client, **body):
    r = client.post("/v1/games", json=body or None)
    assert r.status_code == 201, r.text
    return r.json()


def post_hand(client, game, body, status=200):
    r = client.post(f"/v1/games/{game['id']}/hands", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_new_game_defaults(client):
    game = new_game(client)
    assert [p["name"] for p in game["players"]] == ["A", "B", "C"]
    assert [p["score"] for p in game["players"]] == [30000] * 3
    assert (game["round"], game["dealer"], game["honba"], game["deposits"]) == ("E1", 0, 0, 0)
    assert game["finished"] is False and game["settlement"] is None and game["seq"] == 0
    assert client.get(f"/v1/games/{game['id']}").json() == game


def test_new_game_with_names_and_rules(client):
    game = new_game(client, players=["あき", "ben", "ちえ"], rules={"aka_5man": True})
    assert [p["seat"] for p in game["players"]] == ["E", "S", "W"]
    assert game["rules"]["aka_5man"] is True and game["rules"]["double_ron_honba"] == "each"
    assert game["rules"]["hand_rules"] == {}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["A", "B"]}, "bad_players"),
        ({"rules": {"kiriage": True}}, "unknown_rule_option"),
        ({"rules": {"aka_5man": "yes"}}, "bad_rule_option"),
        ({"rules": {"double_ron_honba": "both"}}, "bad_rules"),
        ({"colour": 1}, "bad_request"),
    ],
)
def test_new_game_bad_input_is_422(client, body, code):
    r = client.post("/v1/games", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == code


def test_record_hands_and_see_points_dealer_honba_deposits(client):
    game = new_game(client)
    game = post_hand(client, game, {"outcome": "draw", "tenpai": [0], "riichi": [0], "seq": 0})
    assert [p["score"] for p in game["players"]] == [31000, 29000, 29000]
    assert (game["round"], game["honba"], game["deposits"], game["seq"]) == ("E1", 1, 1000, 1)
    game = post_hand(
        client,
        game,
        {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 3, "fu": 40}]},
    )
    # 3 han 40 fu child ron: 5,120 → 6,000, +1,000 honba, + the 1,000 deposit
    assert [p["score"] for p in game["players"]] == [24000, 37000, 29000]
    assert (game["round"], game["dealer"], game["honba"], game["deposits"]) == ("E2", 1, 0, 0)
    last = game["hands"][-1]
    assert last["deltas"] == [-7000, 8000, 0]
    assert [t["reason"] for t in last["transfers"]] == ["ron", "deposits"]
    assert last["input"]["wins"][0]["han"] == 3


def test_stale_seq_is_409_and_records_nothing(client):
    game = new_game(client)
    post_hand(client, game, {"outcome": "draw", "seq": 0})
    r = client.post(f"/v1/games/{game['id']}/hands", json={"outcome": "draw", "seq": 0})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seq_conflict" and r.json()["error"]["seq"] == 1
    assert client.get(f"/v1/games/{game['id']}").json()["hand_count"] == 1


def test_undo_restores_the_previous_state(client):
    game = new_game(client)
    before = post_hand(client, game, {"outcome": "draw", "tenpai": [1, 2]})
    post_hand(client, game, {"outcome": "tsumo", "wins": [{"winner": 2, "limit": "mangan"}]})
    r = client.post(f"/v1/games/{game['id']}/undo", json={"seq": 2})
    assert r.status_code == 200
    after = r.json()
    strip = ("seq",)
    assert {k: v for k, v in after.items() if k not in strip} == {
        k: v for k, v in before.items() if k not in strip
    }
    assert after["seq"] == 3
    client.post(f"/v1/games/{game['id']}/undo")
    r = client.post(f"/v1/games/{game['id']}/undo")
    assert r.status_code == 409 and r.json()["error"]["code"] == "nothing_to_undo"


def test_full_game_ends_with_settlement_and_refuses_more_hands(client):
    game = new_game(client, players=["Aki", "Ben", "Chie"])
    for _ in range(6):
        winner = (game["dealer"] + 1) % 3
        game = post_hand(
            client,
            game,
            {
                "outcome": "ron",
                "discarder": game["dealer"],
                "wins": [{"winner": winner, "han": 2, "fu": 30}],
            },
        )
    assert game["finished"] is True
    totals = {s["name"]: s["total"] for s in game["settlement"]}
    assert sum(totals.values()) == 0
    assert [s["rank"] for s in game["settlement"]] == [1, 2, 3]  # equal scores: seat order
    r = client.post(f"/v1/games/{game['id']}/hands", json={"outcome": "draw"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    # the hand that ended the game can still be corrected
    r = client.post(f"/v1/games/{game['id']}/undo")
    assert r.status_code == 200
    assert r.json()["finished"] is False and r.json()["round"] == "S3"
    assert r.json()["settlement"] is None


def test_bust_worked_line_through_the_api(client):
    # Player 2 deals into the dealer's haneman twice (18,000, then 18,000 + 1 honba): −7,000.
    game = new_game(client)
    for _ in range(2):
        game = post_hand(
            client,
            game,
            {"outcome": "ron", "discarder": 2, "wins": [{"winner": 0, "limit": "haneman"}]},
        )
    assert [p["score"] for p in game["players"]] == [30000 + 18000 + 19000, 30000, -7000]
    assert game["finished"] and game["busts"] == [{"player": 2, "by": 0}]
    line = {s["player"]: s for s in game["settlement"]}[2]
    assert (line["base"], line["uma"], line["bust"], line["total"]) == (-47, -10, -10, -67)


def test_bad_hand_inputs_are_4xx_with_error_body(client):
    game = new_game(client)
    url = f"/v1/games/{game['id']}/hands"
    r = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = client.post(url, json={"outcome": "ron", "discarder": 0, "wins": [{"winner": 0}]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_ron"
    r = client.post(url, json={"outcome": "draw", "seq": "x"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_seq"
    r = client.post(url, json=[1, 2])
    assert r.status_code == 422
    r = client.post(url)
    assert r.status_code == 400


def test_unknown_game_is_404(client):
    for r in (
        client.get("/v1/games/" + "0" * 32),
        client.get("/v1/games/nope"),
        client.post("/v1/games/" + "0" * 32 + "/hands", json={"outcome": "draw"}),
        client.post("/v1/games/" + "0" * 32 + "/undo"),
        client.get("/v1/games/" + "0" * 32 + "/export"),
    ):
        assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found"


def test_export_lists_every_event_and_replays(client):
    game = new_game(client)
    post_hand(client, game, {"outcome": "draw", "tenpai": [0]})
    post_hand(client, game, {"outcome": "chombo", "offenders": [1]})
    client.post(f"/v1/games/{game['id']}/undo")
    r = client.get(f"/v1/games/{game['id']}/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["format"] == "sanma-lens-game"
    assert [e["kind"] for e in data["events"]] == ["hand", "hand", "undo"]
    assert data["events"][2]["undoes"] == 2
    assert data["state"]["hand_count"] == 1

    from sanma_lens.engine.game import game_rules_from_json, replay, result_from_json

    hands = [result_from_json(e["result"]) for e in data["events"][:1]]
    state = replay(hands, data["game"]["players"], game_rules_from_json(data["game"]["rules"]))
    assert list(state.scores) == [p["score"] for p in data["state"]["players"]]


def test_scoreboard_page_is_served(client):
    r = client.get("/game.html")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "game.js" in r.text
    # the same page headers as the phone page: no framing, no third-party scripts
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert client.get("/game.js").status_code == 200
    assert client.get("/game.css").status_code == 200


def test_hand_json_win_is_scored_by_the_engine(client):
    pytest.importorskip("sanma_lens.engine.service")
    game = new_game(client)
    hand = {"hand": "234p456p789s1122z", "win": "2z", "riichi": "riichi"}
    game = post_hand(client, game, {"outcome": "tsumo", "wins": [{"winner": 1, "hand": hand}]})
    win = game["hands"][0]["result"]["wins"][0]
    assert (win["han"], win["fu"]) == (3, 40) and "riichi" in win["yaku"]
    assert game["hands"][0]["deltas"] == [-4000, 7000 - 1000 + 1000, -3000]
    r = client.post(
        f"/v1/games/{game['id']}/hands",
        json={"outcome": "ron", "discarder": 0, "wins": [{"winner": 2, "hand": {"hand": "234p"}}]},
    )
    assert r.status_code == 422 and "error" in r.json()


def test_export_then_import_recreates_the_game(client):
    game = new_game(client, players=["Aki", "Ben", "Chie"], rules={"aka_5man": True})
    post_hand(client, game, {"outcome": "draw", "tenpai": [0], "riichi": [0]})
    post_hand(
        client,
        game,
        {
            "outcome": "ron",
            "discarder": 2,
            "aka5man": 1,
            "wins": [{"winner": 0, "limit": "mangan"}],
        },
    )
    post_hand(client, game, {"outcome": "chombo", "offenders": [1]})
    client.post(f"/v1/games/{game['id']}/undo")
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    r = client.post("/v1/games/import", json=exported)
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["id"] != game["id"]
    original = exported["state"]
    for key in ("players", "round", "honba", "deposits", "hand_count", "rules", "seq"):
        assert copy[key] == original[key], key
    assert [h["transfers"] for h in copy["hands"]] == [h["transfers"] for h in original["hands"]]


def test_import_refuses_a_tampered_export(client):
    game = new_game(client)
    post_hand(
        client,
        game,
        {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 2, "fu": 30}]},
    )
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    exported["events"][0]["result"]["wins"][0]["payments"][0]["payer"] = 1  # own discard
    r = client.post("/v1/games/import", json=exported)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_ron"
    for bad in (
        {},
        {"format": "sanma-lens-game", "version": 9},
        {**exported, "events": [{"kind": "undo"}]},
    ):
        r = client.post("/v1/games/import", json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_import"


# ---------------------------------------------------------------- a game's rule options

RULES = {
    "aka_5man": False,
    "start_points": 30_000,
    "return_points": 40_000,
    "uma": 20,
    "bust_prize": 10,
    "double_bust_bonus": 10,
    "yakuman_prize_tsumo": 10,
    "yakuman_prize_ron": 20,
    "double_ron_honba": "first",
    "riichi_min_points": 2_000,
    "noten_payment": 2_000,
    "rank_ties": "split",
    "aka5man_doubles_prizes": False,
    "preset": "sanma-1.3",
    "point_unit": 1_000,
    "uma_second": 0,
    "noten_pool": False,
    "bust_ends_game": True,
    "rounds_played": 2,
    "extension_target": 0,
    "south_draw_keeps_dealer": True,
    "max_ron_winners": 2,
    "deposits_need_closed_win": False,
    "last_hand_deposits": "top",
    "pao": False,
    "chombo_rewinds": True,
    "abortive_draws": False,
    "nagashi": "yakuman",
    "noten_riichi_is_chombo": True,
    "manemann": True,
    "settle_rounding": "exact",
    "hand_rules": {"riichi_deposit": 2_000, "kiriage_mangan": True},
}


def test_every_rule_option_is_set_stored_and_shown(client, storage):
    game = new_game(client, rules=RULES)
    assert game["rules"] == RULES
    assert storage.load(game["id"]).rules == RULES  # stored whole, read back by the fold
    game = post_hand(client, game, {"outcome": "draw", "tenpai": [0], "riichi": [0]})
    # riichi puts up 2,000; each no-ten player pays the tenpai dealer 2,000
    assert [p["score"] for p in game["players"]] == [32_000, 28_000, 28_000]
    assert game["deposits"] == 2_000
    again = client.get(f"/v1/games/{game['id']}").json()
    assert again == game and again["rules"] == RULES


def test_rule_options_decide_the_settlement_through_the_api(client):
    rules = {"uma": 20, "return_points": 36_000, "rank_ties": "split"}
    game = new_game(client, players=["Aki", "Ben", "Chie"], rules=rules)
    # player 1 rons player 2 for a child yakuman, 32,000: player 2 busts and the game ends
    game = post_hand(
        client,
        game,
        {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "limit": "yakuman"}]},
    )
    assert game["finished"] is True
    totals = {s["player"]: (s["oka"], s["uma"], s["total"]) for s in game["settlement"]}
    # oka 3 × 6 = 18 and uma ±20 (not the default 30 and ±10)
    assert totals[1][:2] == (18, 20) and totals[2][1] == -20
    assert sum(t for _, _, t in totals.values()) == 0


def test_an_old_stored_game_folds_with_todays_defaults(client, storage):
    # a game stored before the other options existed: only these two keys
    game_id = storage.create_game(["A", "B", "C"], {"aka_5man": True, "double_ron_honba": "each"})
    storage.append(game_id, 0, "hand", {"result": {"outcome": "draw", "tenpai": [1]}})
    game = client.get(f"/v1/games/{game_id}").json()
    assert game["rules"]["aka_5man"] is True and game["rules"]["uma"] == 10
    assert game["rules"]["noten_payment"] == 1_000 and game["rules"]["hand_rules"] == {}
    assert [p["score"] for p in game["players"]] == [29_000, 32_000, 29_000]
    exported = client.get(f"/v1/games/{game_id}/export").json()
    assert exported["game"]["rules"] == game["rules"]


def test_stored_rules_that_no_longer_apply_are_a_500_corrupt_game(client, storage):
    game_id = storage.create_game(["A", "B", "C"], {"uma": "ten"})
    r = client.get(f"/v1/games/{game_id}")
    assert r.status_code == 500 and r.json()["error"]["code"] == "corrupt_game"


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ({"uma": "20"}, "bad_rule_option"),
        ({"start_points": 30_000.5}, "bad_rule_option"),
        ({"rank_ties": "split", "uma": 15}, "bad_rules"),
        ({"noten_payment": 1_500}, "bad_rules"),
        ({"riichi_deposit": 2_000}, "unknown_rule_option"),
        ({"hand_rules": {"riichi_deposit": 2_000}}, "bad_rules"),  # riichi_min_points 1,000
        ({"hand_rules": {"rounding_unit": 100}}, "bad_rules"),
        ({"hand_rules": {"kiriage": True}}, "unknown_rule_option"),
        ({"hand_rules": {"preset": "riichi-4p"}}, "bad_rules"),
        ({"hand_rules": "sanma-1.3"}, "bad_rules"),
    ],
)
def test_bad_rule_options_are_422_with_a_message(client, rules, code):
    r = client.post("/v1/games", json={"rules": rules})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == code and error["message"]


def test_export_and_import_keep_the_rule_options(client):
    game = new_game(client, rules=RULES)
    post_hand(client, game, {"outcome": "draw", "tenpai": [1], "riichi": [1]})
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    assert exported["game"]["rules"] == RULES
    r = client.post("/v1/games/import", json=exported)
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["rules"] == RULES
    assert copy["players"] == exported["state"]["players"]


def test_a_hand_json_cannot_change_the_games_rules(client):
    pytest.importorskip("sanma_lens.engine.service")
    game = new_game(client, rules={"hand_rules": {"kiriage_mangan": True}})
    hand = {"hand": "234p456p789s1122z", "win": "2z", "rules": {"kiriage_mangan": False}}
    r = client.post(
        f"/v1/games/{game['id']}/hands",
        json={"outcome": "tsumo", "wins": [{"winner": 1, "hand": hand}]},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "rules_mismatch"


def test_openapi_lists_every_rule_option(client):
    from sanma_lens.engine.game import GAME_OPTION_TYPES

    schema = games.NEW_GAME_SCHEMA["properties"]["rules"]["properties"]
    assert set(schema) == {*GAME_OPTION_TYPES, "hand_rules", "roles", "byakko_silent_before"}
    assert schema["rank_ties"]["enum"] == ["seat", "split"]
    assert schema["uma"]["type"] == "integer" and schema["aka_5man"]["type"] == "boolean"
