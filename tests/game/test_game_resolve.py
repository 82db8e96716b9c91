"""Resolving a hand as entered at the table (han/fu, limit, hand JSON) into a stored event."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import GameRules, Payment, apply, new_game, resolve_hand


def at(round_index=0, honba=0, aka=False, double_ron_honba="each"):
    state = new_game(None, GameRules(aka_5man=aka, double_ron_honba=double_ron_honba))
    return replace(state, round_index=round_index, honba=honba)


def payments(result):
    return [[(p.payer, p.amount) for p in w.payments] for w in result.wins]


# docs/rules.md "Points", worked examples (child = non-dealer; E1: player 0 deals).


def test_rule_11_child_30fu_2han_ron_rounds_up_to_2000():
    result = resolve_hand(
        at(), {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 2, "fu": 30}]}
    )
    assert payments(result) == [[(0, 2000)]]


def test_rule_13_child_30fu_2han_tsumo_2000_from_each():
    result = resolve_hand(at(), {"outcome": "tsumo", "wins": [{"winner": 2, "han": 2, "fu": 30}]})
    assert sorted(payments(result)[0]) == [(0, 2000), (1, 2000)]


def test_rule_13_child_mangan_tsumo_dealer_5000_child_3000():
    result = resolve_hand(at(), {"outcome": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]})
    assert payments(result) == [[(2, 3000), (0, 5000)]]  # shimocha first (§17)
    ron = resolve_hand(at(), {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 5}]})
    assert payments(ron) == [[(2, 8000)]]


def test_rule_13_dealer_30fu_2han_ron_3000_tsumo_2000_each():
    ron = resolve_hand(
        at(), {"outcome": "ron", "discarder": 1, "wins": [{"winner": 0, "han": 2, "fu": 30}]}
    )
    assert payments(ron) == [[(1, 3000)]]
    tsumo = resolve_hand(at(), {"outcome": "tsumo", "wins": [{"winner": 0, "han": 2, "fu": 30}]})
    assert payments(tsumo) == [[(1, 2000), (2, 2000)]]


def test_rule_33_child_yakuman_ron_32000_tsumo_17000_9000_and_prize_multiple():
    ron = resolve_hand(
        at(), {"outcome": "ron", "discarder": 0, "wins": [{"winner": 2, "limit": "yakuman"}]}
    )
    assert payments(ron) == [[(0, 32000)]] and ron.wins[0].yakuman_multiple == 1
    tsumo = resolve_hand(at(), {"outcome": "tsumo", "wins": [{"winner": 2, "han": 20}]})
    assert tsumo.wins[0].yakuman_multiple == 2
    assert sorted(payments(tsumo)[0]) == [(0, 33000), (1, 17000)]


def test_rule_12_honba_1000_per_stick_on_ron_and_from_each_on_tsumo():
    ron = resolve_hand(
        at(honba=2), {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "limit": "mangan"}]}
    )
    assert payments(ron) == [[(0, 10000)]]
    tsumo = resolve_hand(
        at(honba=2), {"outcome": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]}
    )
    assert sorted(payments(tsumo)[0]) == [(0, 7000), (2, 5000)]


def test_rule_14_double_ron_honba_each_by_default_first_only_as_option():
    body = {
        "outcome": "ron",
        "discarder": 1,
        "wins": [{"winner": 0, "han": 2, "fu": 30}, {"winner": 2, "han": 2, "fu": 30}],
    }
    assert payments(resolve_hand(at(honba=1), body)) == [[(1, 4000)], [(1, 3000)]]
    first_only = resolve_hand(at(honba=1, double_ron_honba="first"), body)
    # player 2 is the discarder's shimocha, so the first winner
    assert payments(first_only) == [[(1, 3000)], [(1, 3000)]]


def test_resolved_event_applies_and_keeps_han_fu_for_the_log():
    state = at()
    result = resolve_hand(
        state,
        {
            "outcome": "ron",
            "discarder": 0,
            "riichi": [1],
            "wins": [{"winner": 1, "han": 3, "fu": 40}],
        },
    )
    assert (result.wins[0].han, result.wins[0].fu, result.wins[0].limit) == (3, 40, None)
    after = apply(state, result)
    assert after.scores == (30000 - 6000, 30000 + 6000, 30000)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([], "bad_hand_result"),
        ({"outcome": "agari"}, "bad_outcome"),
        (
            {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 0, "fu": 30}]},
            "bad_han",
        ),
        ({"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 2, "fu": 35}]}, "bad_fu"),
        ({"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 2}]}, "bad_fu"),
        ({"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "limit": "big"}]}, "bad_limit"),
        (
            {
                "outcome": "ron",
                "discarder": 0,
                "wins": [{"winner": 1, "limit": "mangan", "han": 5}],
            },
            "bad_win",
        ),
        ({"outcome": "ron", "discarder": 1, "wins": [{"winner": 1, "han": 5}]}, "bad_ron"),
        ({"outcome": "ron", "wins": [{"winner": 1, "han": 5}]}, "bad_ron"),
        ({"outcome": "ron", "discarder": 0, "wins": [{"winner": 3, "han": 5}]}, "bad_player"),
        ({"outcome": "tsumo", "wins": []}, "bad_hand_result"),
        ({"outcome": "draw", "wins": [{"winner": 1, "han": 5}]}, "bad_hand_result"),
        ({"outcome": "draw", "colour": "red"}, "bad_hand_result"),
        ({"outcome": "draw", "tenpai": [0, 0]}, "bad_player"),
        ({"outcome": "draw", "tenpai": "0"}, "bad_event"),
        ({"outcome": "chombo"}, "bad_chombo"),
        ({"outcome": "draw", "aka5man": 1}, "aka5man_off"),
        ({"outcome": "draw", "noten_riichi": [1]}, "bad_noten_riichi"),
    ],
)
def test_bad_hand_results_are_input_errors(body, code):
    with pytest.raises(InputError) as err:
        resolve_hand(at(), body)
    assert err.value.code == code


def test_payment_objects_are_per_payer():
    result = resolve_hand(
        at(), {"outcome": "ron", "discarder": 2, "wins": [{"winner": 0, "limit": "haneman"}]}
    )
    assert result.wins[0].payments == (Payment(2, 18000),)


# ---------------------------------------------------------------- wins given as a hand JSON

service = pytest.importorskip("sanma_lens.engine.service")

# 234p 456p 789s, triplet of S (2z), pair of E (1z); riichi + yakuhai (+ menzen tsumo).
HAND = {"hand": "234p456p789s1122z", "win": "2z", "riichi": "riichi"}


def test_hand_json_scored_with_the_games_seat_round_and_honba():
    # E1 with 1 honba: player 1 sits South, so the S triplet is a seat-wind yakuhai whatever
    # the hand JSON says about seat; tsumo 40 fu 3 han = 1,280 base.
    state = at(honba=1)
    result = resolve_hand(
        state,
        {"outcome": "tsumo", "riichi": [1], "wins": [{"winner": 1, "hand": {**HAND, "seat": "E"}}]},
    )
    win = result.wins[0]
    assert (win.han, win.fu) == (3, 40)
    assert "yakuhai" in win.yaku
    # dealer 2,560 → 3,000, child 1,280 → 2,000; +1,000 tsumo bonus; +1,000 honba
    assert sorted((p.payer, p.amount) for p in win.payments) == [(0, 5000), (2, 4000)]


def test_hand_json_win_adds_the_winner_to_riichi_and_settles():
    state = at()
    result = resolve_hand(
        state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "hand": HAND}]}
    )
    assert result.riichi == (1,)
    after = apply(state, result)
    assert sum(after.scores) + after.deposits == 90000
    assert after.scores[2] == 30000 - result.wins[0].payments[0].amount


def test_rule_a8_hand_json_with_aka5man_doubled_exactly_once():
    state = at(aka=True)
    body = {"outcome": "tsumo", "wins": [{"winner": 1, "hand": {**HAND, "kita": 1, "kita_aka": 1}}]}
    result = resolve_hand(state, body)
    assert result.aka5man == 1
    win = result.wins[0]
    # riichi + tsumo + South yakuhai + 1 kita = 4 han 40 fu: a child mangan tsumo, stored
    # undoubled (dealer 4,000 + 1,000, child 2,000 + 1,000); the fold doubles it (§A8).
    assert sorted(p.amount for p in win.payments) == [3000, 5000]
    after = apply(state, result)
    received = after.scores[1] - (30000 - 1000)  # the winner's riichi stick came back
    assert received == 2 * sum(p.amount for p in win.payments) + 1000


def test_hand_json_that_is_no_legal_win_is_refused_as_invalid_win():
    with pytest.raises(InputError) as err:
        resolve_hand(
            at(),
            {
                "outcome": "ron",
                "discarder": 0,
                "wins": [{"winner": 1, "hand": {"hand": "234p456p789s1122z", "win": "3z"}}],
            },
        )
    assert err.value.code == "invalid_win"


def test_hand_json_riichi_none_for_a_riichi_player_is_refused():
    with pytest.raises(InputError) as err:
        resolve_hand(
            at(),
            {
                "outcome": "ron",
                "discarder": 0,
                "riichi": [1],
                "wins": [{"winner": 1, "hand": {**HAND, "riichi": "none"}}],
            },
        )
    assert err.value.code == "riichi_mismatch"


# riichi + chun (or + the east-round triplet on the other wait): 2 han from yaku for anyone
CHUN = {"hand": "234p456p789s1177z", "win": "7z", "riichi": "riichi"}


def test_rule_14_double_ron_first_only_honba_with_hand_json_keeps_the_real_honba_count():
    # With 1 honba and honba for the first winner only, the second winner's hand is still scored
    # at 1 honba (§18.4 and paarenchan look at it) but pays no honba.
    body = {
        "outcome": "ron",
        "discarder": 1,
        "riichi": [0, 2],
        "wins": [{"winner": 0, "hand": CHUN}, {"winner": 2, "hand": CHUN}],
    }
    each = resolve_hand(at(honba=1), body)
    first = resolve_hand(at(honba=1, double_ron_honba="first"), body)
    by_winner = {w.winner: w.payments[0].amount for w in each.wins}
    by_winner_first = {w.winner: w.payments[0].amount for w in first.wins}
    assert by_winner_first == {2: by_winner[2], 0: by_winner[0] - 1000}


def test_rule_18_4_second_winner_of_a_double_ron_needs_3_han_with_5_honba_in_first_mode():
    body = {
        "outcome": "ron",
        "discarder": 1,
        "riichi": [0, 2],
        "wins": [{"winner": 2, "han": 3, "fu": 40}, {"winner": 0, "hand": CHUN}],
    }
    with pytest.raises(InputError) as err:
        resolve_hand(at(honba=5, double_ron_honba="first"), body)
    assert err.value.code == "invalid_win"


def test_rule_16_worked_line_minus_61_from_a_played_game():
    # E1: the dealer (0) rons player 2 twice for mangan and once for 2 han 30 fu, then at a
    # draw only the dealer is tenpai: 2 pays its last 1,000 after 1 has paid, ending at −1,000.
    from sanma_lens.engine.game import settle

    state = at()
    for value in ({"limit": "mangan"}, {"limit": "mangan"}, {"han": 2, "fu": 30}):
        body = {"outcome": "ron", "discarder": 2, "wins": [{"winner": 0, **value}]}
        state = apply(state, resolve_hand(state, body))
    assert state.scores == (60_000, 30_000, 0) and state.honba == 3 and not state.finished
    state = apply(state, resolve_hand(state, {"outcome": "draw", "tenpai": [0]}))
    assert state.finished and state.scores == (62_000, 29_000, -1_000)
    final = settle(state)
    assert [p.total for p in final] == [22 + 30 + 10 + 10, -11, -61]


def _engine_results(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """Every Result JSON the engine gives ``resolve_hand`` for a hand JSON win."""
    seen: list[dict] = []
    score_json = service.score_json

    def spy(obj: dict) -> dict:
        seen.append(score_json(obj))
        return seen[-1]

    monkeypatch.setattr(service, "score_json", spy)
    return seen


def test_rule_14_1_hand_json_total_counts_the_table_deposits_in_points(monkeypatch):
    # 2,000 already on the table, player 1's riichi stick and player 0's §R3 mis-call: the
    # winner collects 4,000 of deposits, and the engine's total says the same as the fold
    # (docs/api.md: total = payments + deposits received). Passing the table's points as the
    # engine's stick count made the total 4,000,000 more.
    seen = _engine_results(monkeypatch)
    state = replace(at(), scores=(30000, 30000, 28000), deposits=2000)
    body = {"outcome": "ron", "discarder": 2, "riichi": [1], "mis_calls": [0]}
    result = resolve_hand(state, {**body, "wins": [{"winner": 1, "hand": HAND}]})
    (scored,) = seen
    paid = result.wins[0].payments[0].amount
    assert scored["deposits"] == 4000 and scored["total"] == paid + 4000
    after = apply(state, result)
    assert after.scores[1] - (30000 - 1000) == scored["total"]


def test_rule_14_1_hand_json_second_winner_of_a_double_ron_collects_no_deposits(monkeypatch):
    seen = _engine_results(monkeypatch)
    body = {
        "outcome": "ron",
        "discarder": 1,
        "riichi": [0, 2],
        "wins": [{"winner": 2, "hand": CHUN}, {"winner": 0, "hand": CHUN}],
    }
    resolve_hand(replace(at(), scores=(30000, 29000, 30000), deposits=1000), body)
    # player 2, the discarder's shimocha, wins first and takes the 1,000 and both sticks
    assert [r["deposits"] for r in seen] == [3000, 0]


def test_rule_14_1_hand_json_deposits_exact_when_a_stick_is_not_1000(monkeypatch):
    # a 2,000 riichi stick plus a 1,000 mis-call penalty: 3,000 is no whole number of sticks
    seen = _engine_results(monkeypatch)
    rules = GameRules(riichi_min_points=2000, hand_options=(("riichi_deposit", 2000),))
    state = new_game(None, rules)
    body = {"outcome": "tsumo", "riichi": [1], "mis_calls": [2]}
    resolve_hand(state, {**body, "wins": [{"winner": 1, "hand": HAND}]})
    assert seen[0]["deposits"] == 3000
