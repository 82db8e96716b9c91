"""Blocks of ability mahjong (ABILITY.md ¶1): four hanchan with fixed roles, over HTTP on each
storage back-end (POST /v1/blocks, GET /v1/blocks/{id}, POST /v1/blocks/{id}/games)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import blocks, games
from sanma_lens.engine.game.blocks import BlockGame, choosing_order, next_choosing_order, standings

PLAYERS = ["Aki", "Ben", "Chie"]
ROLES = ["seiryuu", "byakko", "kouryuu"]


@pytest.fixture
def client(storage):
    app = FastAPI()
    app.include_router(games.router)
    app.include_router(blocks.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    with TestClient(app) as c:
        yield c


def new_block(client, **body):
    r = client.post("/v1/blocks", json={"players": PLAYERS, "roles": ROLES, **body})
    assert r.status_code == 201, r.text
    return r.json()


def finish(client, game_id: str, loser: int) -> None:
    """End the game at once: ``loser`` deals a double yakuman (a bust)."""
    game = client.get(f"/v1/games/{game_id}").json()
    winner = (loser + 1) % 3
    body = {
        "outcome": "ron",
        "discarder": loser,
        "wins": [{"winner": winner, "limit": "yakuman", "yakuman_multiple": 2}],
    }
    roles = [p.get("role") for p in game["players"]]
    if "byakko" in roles and game["ability"]["byakko"][0]["must_declare"]:
        body["byakko_declared"] = [roles.index("byakko")]
    if roles[winner] == "seiryuu":
        body["wins"][0]["seiryuu_han"] = 0
    r = client.post(f"/v1/games/{game_id}/hands", json=body)
    assert r.status_code == 200 and r.json()["finished"], r.text


def test_ability_1_a_block_starts_with_its_first_game_and_fixed_roles(client):
    block = new_block(client)
    assert block["players"] == [{"name": n, "role": r} for n, r in zip(PLAYERS, ROLES, strict=True)]
    assert [g["number"] for g in block["games"]] == [1]
    game = client.get(f"/v1/games/{block['games'][0]['id']}").json()
    assert [p["name"] for p in game["players"]] == PLAYERS
    assert [p["role"] for p in game["players"]] == ROLES
    # the first block: the first dealer chooses first [interp], then in turn order
    assert block["choosing_order"] == PLAYERS
    assert block["next_choosing_order"] is None and not block["finished"]


def test_ability_1_roles_hold_whatever_the_seats(client):
    block = new_block(client)
    finish(client, block["games"][0]["id"], loser=2)
    r = client.post(f"/v1/blocks/{block['id']}/games", json={"players": ["Chie", "Aki", "Ben"]})
    assert r.status_code == 201, r.text
    block = r.json()
    game = client.get(f"/v1/games/{block['games'][1]['id']}").json()
    assert [(p["name"], p["role"]) for p in game["players"]] == [
        ("Chie", "kouryuu"),
        ("Aki", "seiryuu"),
        ("Ben", "byakko"),
    ]
    assert [p["score"] for p in game["players"]] == [10_000, 30_000, 30_000]


def test_ability_1_standings_are_the_sum_of_the_settlements(client):
    block = new_block(client)
    totals = []
    for number in range(4):
        game_id = block["games"][-1]["id"]
        finish(client, game_id, loser=number % 3)
        game = client.get(f"/v1/games/{game_id}").json()
        totals.append({s["name"]: s["total"] for s in game["settlement"]})
        if number < 3:
            block = client.post(f"/v1/blocks/{block['id']}/games").json()
    block = client.get(f"/v1/blocks/{block['id']}").json()
    assert block["finished"] and len(block["games"]) == 4
    by_name = {row["name"]: row for row in block["standings"]}
    for name in PLAYERS:
        assert by_name[name]["games"] == [t[name] for t in totals]
        assert by_name[name]["total"] == sum(t[name] for t in totals)
    assert sum(row["total"] for row in block["standings"]) == 0
    ranked = [row["total"] for row in block["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    # the next block: the top of the last hanchan chooses first, then in turn order
    last = block["games"][-1]
    top = last["next_chooser"]
    seats = last["players"]
    start = seats.index(top)
    assert block["next_choosing_order"] == [seats[(start + k) % 3] for k in range(3)]
    r = client.post(f"/v1/blocks/{block['id']}/games")
    assert r.status_code == 409 and r.json()["error"]["code"] == "block_over"


def test_ability_1_each_game_says_who_would_choose_first_next(client):
    block = new_block(client)
    finish(client, block["games"][0]["id"], loser=0)  # Aki deals into Ben's double yakuman
    block = client.get(f"/v1/blocks/{block['id']}").json()
    assert block["games"][0]["next_chooser"] == "Ben"
    assert block["next_choosing_order"] == ["Ben", "Chie", "Aki"]


def test_ability_1_the_next_game_waits_for_the_last_one(client):
    block = new_block(client)
    r = client.post(f"/v1/blocks/{block['id']}/games")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_running"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Aki", "Aki", "Ben"], "roles": ROLES}, "bad_players"),
        ({"players": PLAYERS, "roles": ["seiryuu", "byakko"]}, "bad_roles"),
        ({"players": PLAYERS}, "bad_roles"),
        ({"players": PLAYERS, "roles": ROLES, "chooses_first": "Dan"}, "bad_block"),
        ({"players": PLAYERS, "roles": ROLES, "rules": {"roles": ROLES}}, "bad_rules"),
    ],
)
def test_ability_bad_blocks_are_422(client, body, code):
    r = client.post("/v1/blocks", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text


def test_ability_a_block_seats_its_own_players(client):
    block = new_block(client)
    finish(client, block["games"][0]["id"], loser=1)
    r = client.post(f"/v1/blocks/{block['id']}/games", json={"players": ["Aki", "Ben", "Dan"]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_players"


def test_ability_unknown_block_is_404(client):
    r = client.get("/v1/blocks/" + "0" * 32)
    assert r.status_code == 404 and r.json()["error"]["code"] == "block_not_found"


def test_ability_block_rules_and_chooser_are_kept(client):
    block = new_block(client, rules={"uma": 20}, chooses_first="Chie")
    assert block["choosing_order"] == ["Chie", "Aki", "Ben"]
    game = client.get(f"/v1/games/{block['games'][0]['id']}").json()
    assert game["rules"]["uma"] == 20 and game["rules"]["ability"] is True


def _silent_two_hands_then_finish(client, block) -> None:
    """Game 1: a draw and then the last hand, the byakko (Ben) declaring in neither: two hands
    without a declaration when the hanchan ends."""
    game_id = block["games"][-1]["id"]
    r = client.post(f"/v1/games/{game_id}/hands", json={"outcome": "draw"})
    assert r.status_code == 200, r.text
    assert r.json()["ability"]["byakko"] == [
        {"player": 1, "silent_hands": 1, "must_declare": False}
    ]
    finish(client, game_id, loser=2)  # Chie (the kouryuu) deals into Aki's double yakuman
    game = client.get(f"/v1/games/{game_id}").json()
    assert game["ability"]["byakko"][0]["silent_hands"] == 2


def _next_game(client, block, seats):
    r = client.post(f"/v1/blocks/{block['id']}/games", json={"players": seats})
    assert r.status_code == 201, r.text
    return client.get(f"/v1/games/{r.json()['games'][-1]['id']}").json()


def test_ability_2_7_byakko_count_runs_on_into_the_blocks_next_hanchan(client):
    """ver 1.1: at least one declaration in every three consecutive hands. Roles hold for the
    block, so the last two hands of hanchan 1 and the first of hanchan 2 are three consecutive
    hands: silent in the first two, the byakko must declare in the third
    (``byakko_count_across_hanchan``, default true [interp])."""
    block = new_block(client)
    assert block["rules"]["byakko_count_across_hanchan"] is True
    _silent_two_hands_then_finish(client, block)
    game = _next_game(client, block, ["Ben", "Chie", "Aki"])  # Ben, the byakko, now deals
    assert game["rules"]["byakko_silent_before"] == [2, 0, 0]
    assert game["ability"]["byakko"] == [{"player": 0, "silent_hands": 2, "must_declare": True}]
    r = client.post(f"/v1/games/{game['id']}/hands", json={"outcome": "draw"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "byakko_must_declare", r.text
    r = client.post(
        f"/v1/games/{game['id']}/hands", json={"outcome": "draw", "byakko_declared": [0]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["ability"]["byakko"][0]["silent_hands"] == 0
    # undone, the count carried in stands again; an exported game keeps it
    r = client.post(f"/v1/games/{game['id']}/undo", json={})
    assert r.status_code == 200 and r.json()["ability"]["byakko"][0]["must_declare"], r.text
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    r = client.post("/v1/games/import", json=exported)
    assert r.status_code == 201, r.text
    assert r.json()["ability"]["byakko"][0] == {
        "player": 0,
        "silent_hands": 2,
        "must_declare": True,
    }


def test_ability_2_7_byakko_count_restarts_with_each_hanchan_when_chosen(client):
    """``byakko_count_across_hanchan: false``: each hanchan counts from its own first hand."""
    block = new_block(client, rules={"byakko_count_across_hanchan": False})
    assert block["rules"]["byakko_count_across_hanchan"] is False
    _silent_two_hands_then_finish(client, block)
    game = _next_game(client, block, ["Ben", "Chie", "Aki"])
    assert game["rules"]["byakko_count_across_hanchan"] is False
    assert "byakko_silent_before" not in game["rules"]
    assert game["ability"]["byakko"] == [{"player": 0, "silent_hands": 0, "must_declare": False}]
    r = client.post(f"/v1/games/{game['id']}/hands", json={"outcome": "draw"})
    assert r.status_code == 200, r.text


def test_ability_block_options_hold_for_every_game_of_the_block(client):
    """The block's ability options (not only its plain ones) are its later games' too."""
    block = new_block(client, rules={"byakko_declare_within": 5, "seiryuu_deposit": 1_000})
    finish(client, block["games"][0]["id"], loser=2)
    game = _next_game(client, block, PLAYERS)
    assert game["rules"]["byakko_declare_within"] == 5
    assert game["rules"]["seiryuu_deposit"] == 1_000
    assert "roles" not in block["rules"] and "ability" not in block["rules"]


def test_ability_byakko_silent_before_is_checked():
    from sanma_lens.engine.errors import InputError
    from sanma_lens.engine.game import game_rules_from_json

    base = {"ability": True, "roles": ROLES}
    assert game_rules_from_json({**base, "byakko_silent_before": [0, 2, 0]}).byakko_silent_before
    for bad in ([0, 2], [0, -1, 0], [0, True, 0], "2", [0, 1.5, 0]):
        with pytest.raises(InputError) as caught:
            game_rules_from_json({**base, "byakko_silent_before": bad})
        assert caught.value.code == "bad_rules", bad
    with pytest.raises(InputError):
        game_rules_from_json({"byakko_silent_before": [0, 0, 0]})  # no roles


def test_ability_block_functions() -> None:
    assert choosing_order(["A", "B", "C"], "C") == ("C", "A", "B")
    games = [
        BlockGame(1, ("A", "B", "C"), True, (30, 0, -30), "A"),
        BlockGame(2, ("B", "C", "A"), True, (20, 10, -30), "B"),
        BlockGame(3, ("A", "B", "C"), False, None, None),
    ]
    assert standings(["A", "B", "C"], games) == [
        ("B", 20, [0, 20]),
        ("A", 0, [30, -30]),
        ("C", -20, [-30, 10]),
    ]
    assert next_choosing_order(games) == ("B", "C", "A")
    assert next_choosing_order(games[2:]) is None


def test_a_game_names_its_block_and_its_number_there_so_a_page_can_continue_it(client):
    block = new_block(client)
    first = block["games"][0]["id"]
    assert client.get(f"/v1/games/{first}").json()["block"] == {"id": block["id"], "number": 1}
    finish(client, first, 0)
    block = client.post(f"/v1/blocks/{block['id']}/games").json()
    second = block["games"][1]["id"]
    # every answer that shows the game carries it: a read, a hand, an undo
    assert client.get(f"/v1/games/{second}").json()["block"] == {"id": block["id"], "number": 2}
    r = client.post(f"/v1/games/{second}/hands", json={"outcome": "draw", "tenpai": []})
    assert r.status_code == 200 and r.json()["block"]["number"] == 2, r.text
    assert client.post(f"/v1/games/{second}/undo").json()["block"]["number"] == 2
    # a game outside any block, and its export's copy re-imported, belong to none
    alone = client.post("/v1/games", json={}).json()
    assert alone["block"] is None
    export = client.get(f"/v1/games/{first}/export").json()
    assert client.post("/v1/games/import", json=export).json()["block"] is None
    # and the service says so in its OpenAPI description
    described = client.get("/openapi.json").json()["paths"]["/v1/games/{game_id}"]["get"]
    assert "``block``" in described["description"]
