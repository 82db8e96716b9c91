"""The standard proposal's options (docs/rules/standard.md "Options") as a four-player game's
``rules.hand_rules`` over HTTP, on each storage back-end: set at creation, applied to a hand
JSON win, stored and read back; refused where the preset's yaku table lacks the yaku."""

from __future__ import annotations

from tests.game.test_games_api import client, new_game, post_hand  # noqa: F401  (fixture)

FOUR = ["Aki", "Ben", "Chie", "Dai"]
OPTIONS = {"chiitoitsu_four_of_a_kind": True, "honroutou_han": 3, "kui_pinfu_han": 1}


def test_standard_options_in_a_games_hand_rules_score_its_hands(client, storage):  # noqa: F811
    game = new_game(client, players=FOUR, rules={"preset": "standard", "hand_rules": dict(OPTIONS)})
    assert game["rules"]["hand_rules"] == OPTIONS
    # chiitoitsu holding 1111m: 2 han 25 fu, 1,600 from the discarder
    hand = {"hand": "1111m22p33p44p55s6s", "win": "6s"}
    game = post_hand(
        client, game, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "hand": hand}]}
    )
    win = game["hands"][-1]["result"]["wins"][0]
    assert win["yaku"] == ["chiitoitsu"] and (win["han"], win["fu"]) == (2, 25)
    assert game["hands"][-1]["deltas"] == [0, 1_600, -1_600, 0]
    stored = storage.load(game["id"])
    assert stored.rules["hand_rules"] == OPTIONS
    assert client.get(f"/v1/games/{game['id']}").json() == game


def test_a_games_hand_rules_refuse_kui_pinfu_without_its_row(client):  # noqa: F811
    r = client.post(
        "/v1/games",
        json={"players": FOUR, "rules": {"preset": "ecip", "hand_rules": {"kui_pinfu_han": 1}}},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_rule_option"
    assert "kui_pinfu" in r.json()["error"]["message"]
