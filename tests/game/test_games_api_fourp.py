"""Four-player games through the HTTP endpoints (``"players"``: four names, ``rules.preset``
ecip or standard), on each storage back-end: created, played with han/fu and hand JSON wins,
undone, stored, exported and imported, and settled."""

from __future__ import annotations

import pytest

from tests.game.test_games_api import client, new_game, post_hand  # noqa: F401  (fixture)

FOUR = ["Aki", "Ben", "Chie", "Dai"]


@pytest.mark.parametrize(("preset", "start"), [("ecip", 27_000), ("standard", 25_000)])
def test_a_four_player_game_is_created_with_its_preset(client, preset, start):  # noqa: F811
    game = new_game(client, players=FOUR, rules={"preset": preset})
    assert [p["name"] for p in game["players"]] == FOUR
    assert [p["seat"] for p in game["players"]] == ["E", "S", "W", "N"]
    assert [p["score"] for p in game["players"]] == [start] * 4
    assert game["rules"]["preset"] == preset and game["round"] == "E1"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["A", "B", "C"], "rules": {"preset": "ecip"}}, "bad_players"),
        ({"players": FOUR}, "bad_players"),  # sanma seats three
        ({"rules": {"preset": "riichi-4p"}}, "unknown_preset"),
        ({"rules": {"preset": "ecip-3p"}}, "preset_not_kept"),
        ({"rules": {"preset": "ecip", "aka_5man": True}}, "bad_rules"),
        ({"rules": {"preset": "ecip", "hand_rules": {"preset": "standard"}}}, "bad_rules"),
        ({"rules": {"preset": "standard", "settle_rounding": "exact"}}, "bad_rules"),
    ],
)
def test_four_player_games_refuse_what_cannot_be(client, body, code):  # noqa: F811
    r = client.post("/v1/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["message"]


def test_an_ecip_game_is_played_stored_undone_and_exported(client, storage):  # noqa: F811
    game = new_game(client, players=FOUR, rules={"preset": "ecip"})
    game = post_hand(client, game, {"outcome": "draw", "tenpai": [0], "riichi": [0]})
    assert [p["score"] for p in game["players"]] == [29_000, 26_000, 26_000, 26_000]
    assert (game["round"], game["honba"], game["deposits"]) == ("E1", 1, 1_000)
    # a hand JSON win at this table: seat, round and honba come from the game; ECIP's rules
    hand = {"hand": "123m456p789s23p55s", "win": "4p", "riichi": "riichi"}
    game = post_hand(
        client,
        game,
        {"outcome": "ron", "discarder": 2, "riichi": [3], "wins": [{"winner": 3, "hand": hand}]},
    )
    last = game["hands"][-1]
    assert last["result"]["wins"][0]["closed"] is True
    assert last["result"]["wins"][0]["yaku"] == ["riichi", "pinfu"]
    # riichi + pinfu 30 fu 2 han = 2,000, + 300 honba; the closed winner takes 2,000 deposits
    assert last["deltas"] == [0, 0, -2_300, -1_000 + 2_300 + 2_000]
    assert game["round"] == "E2" and game["honba"] == 0
    stored = storage.load(game["id"])
    assert stored.players == FOUR and stored.rules["preset"] == "ecip"
    undone = client.post(f"/v1/games/{game['id']}/undo", json={}).json()
    assert undone["hand_count"] == 1 and undone["deposits"] == 1_000
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    copy = client.post("/v1/games/import", json=exported)
    assert copy.status_code == 201, copy.text
    assert copy.json()["players"] == undone["players"]


def test_an_ecip_hand_needs_closed_with_deposits_and_players_0_to_3(client):  # noqa: F811
    game = new_game(client, players=FOUR, rules={"preset": "ecip"})
    body = {
        "outcome": "ron",
        "discarder": 3,
        "riichi": [0],
        "wins": [{"winner": 1, "han": 2, "fu": 30}],
    }
    r = client.post(f"/v1/games/{game['id']}/hands", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "closed_needed"
    r = client.post(f"/v1/games/{game['id']}/hands", json={**body, "discarder": 4})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_player"
    assert "0, 1, 2 or 3" in r.json()["error"]["message"]


def test_a_standard_game_ends_and_settles(client):  # noqa: F811
    game = new_game(client, players=FOUR, rules={"preset": "standard", "rounds_played": 1})
    for _ in range(4):  # a child wins every East hand: four hands, then the end
        dealer = game["dealer"]
        body = {
            "outcome": "ron",
            "discarder": dealer,
            "wins": [{"winner": (dealer + 1) % 4, "han": 3, "fu": 30}],
        }
        game = post_hand(client, game, body)
    assert game["finished"] and len(game["settlement"]) == 4
    assert sum(s["total"] for s in game["settlement"]) == 0
    assert [p["score"] for p in game["players"]] == [25_000] * 4  # 3,900 around the table
    top = [s for s in game["settlement"] if s["rank"] == 1][0]
    assert top["oka"] == 20
