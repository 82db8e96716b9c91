"""Ability mahjong at the table (docs/rules/ability.md, 能力麻雀 ver 1.1): the game keeper's part,
one test or more per clause and [interp], named after it. Players 0, 1, 2; player 0 deals E1.
Amounts worked by hand in the comments (child = non-dealer)."""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GameState,
    HandResult,
    Kanpa,
    Outcome,
    Payment,
    Win,
    apply,
    game_rules_from_json,
    new_game,
    resolve_hand,
    settle,
)
from sanma_lens.engine.game.ability import byakko_must_declare, kanpa_holding, seiryuu_deposits

# 123p 456p 789p 11z 78s: closed ittsu, waits 6s and 9s (tests/engine/test_ability.py)
ITTSU = "123p456p789p11z78s"


def game(*roles: str, **options: Any) -> GameState:
    return new_game(None, game_rules_from_json({"ability": True, "roles": list(roles), **options}))


def play(state: GameState, obj: dict[str, Any]) -> GameState:
    """Record a hand as the table enters it (resolve, then fold)."""
    return apply(state, resolve_hand(state, obj))


def moves(state: GameState) -> list[tuple[int | None, int | None, int, str]]:
    return [(t.payer, t.receiver, t.amount, t.reason) for t in state.log[-1].transfers]


DRAW = {"outcome": "draw"}


# ---- roles, start points, oka (¶1, ¶8, ¶11, ruling 1) ------------------------------------


def test_ability_8_11_genbu_starts_5000_lower_kouryuu_20000_lower() -> None:
    state = game("genbu", "kouryuu", "tenshi")
    assert state.scores == (25_000, 10_000, 30_000)
    assert state.rules.total_points == 65_000


def test_ability_ruling_1_oka_changes_with_the_starts() -> None:
    # (40 − 25) + (40 − 10) + (40 − 30) = 55 points of oka; all at 30,000: 30 as in docs/rules.md
    assert game("genbu", "kouryuu", "tenshi").rules.oka == 55
    assert game("tenshi", "seiryuu", "suzaku").rules.oka == 30


def test_ability_ruling_1_settlement_sums_to_zero_with_the_changed_oka() -> None:
    # the kouryuu deals into a yakuman: 10,000 − 32,000 = −22,000, bust (one level)
    state = game("genbu", "kouryuu", "tenshi")
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(2, (Payment(1, 32_000),)),), discarder=1)
    )
    final = {s.player: s for s in settle(state)}
    # player 2: 62,000 → +22, oka 55, uma 10, bust prize 10 = 97
    assert (final[2].base, final[2].oka, final[2].uma, final[2].bust) == (22, 55, 10, 10)
    assert final[2].total == 97
    assert final[0].total == (25_000 - 40_000) // 1000  # −15, second place
    assert final[1].total == -62 - 10 - 10  # −22,000: −62, uma −10, bust −10
    assert sum(s.total for s in final.values()) == 0


def test_ability_interp_oka_option_off_moves_each_return_point() -> None:
    state = game("genbu", "kouryuu", "tenshi", ability_oka_from_starts=False)
    assert state.rules.oka == 30
    assert [state.rules.return_of(p) for p in range(3)] == [35_000, 20_000, 40_000]
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(2, (Payment(1, 32_000),)),), discarder=1)
    )
    assert sum(s.total for s in settle(state)) == 0


def test_ability_1_roles_are_one_name_per_player() -> None:
    for roles in (["tenshi", "seiryuu"], ["tenshi", "seiryuu", "kirin"], []):
        with pytest.raises(InputError) as info:
            game(*roles)
        assert info.value.code == "bad_roles"
    with pytest.raises(InputError):
        new_game(None, game_rules_from_json({"roles": ["tenshi", "seiryuu", "suzaku"]}))


def test_ability_interp_two_players_may_hold_one_role() -> None:
    assert game("genbu", "genbu", "tenshi").scores == (25_000, 25_000, 30_000)
    with pytest.raises(InputError) as info:
        game("genbu", "genbu", "tenshi", roles_may_repeat=False)
    assert info.value.code == "bad_roles"


def test_ability_games_without_roles_refuse_role_facts() -> None:
    state = new_game()
    with pytest.raises(InputError) as info:
        play(state, {**DRAW, "byakko_declared": [0]})
    assert info.value.code == "ability_off"


# ---- 青龍 seiryuu (¶2.1–2.3, ruling 2) -------------------------------------------------


def test_ability_2_1_seiryuu_deposit_at_the_hands_start_goes_to_the_winner() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    assert seiryuu_deposits(state) == ((0, 2000),)
    # 1 rons 2: 2 han 30 fu, 1,920 → 2,000; and takes the seiryuu's 2,000 from the table
    state = play(
        state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 2, "fu": 30}]}
    )
    assert moves(state) == [
        (0, None, 2000, "seiryuu_deposit"),
        (2, 1, 2000, "ron"),
        (None, 1, 2000, "deposits"),
    ]
    assert state.scores == (28_000, 34_000, 28_000) and state.deposits == 0


def test_ability_2_1_the_deposit_stays_on_the_table_through_a_draw() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    state = play(state, DRAW)
    state = play(state, DRAW)
    assert state.scores == (26_000, 30_000, 30_000) and state.deposits == 4000


def test_ability_2_3_deposit_is_4000_after_a_seiryuu_win_its_indicators_added_nothing() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    # the dealer seiryuu rons 1: 2 han 30 fu, 2,880 → 3,000; its role-only indicators: 0 han
    win = {"winner": 0, "han": 2, "fu": 30, "seiryuu_han": 0}
    state = play(state, {"outcome": "ron", "discarder": 1, "wins": [win]})
    assert seiryuu_deposits(state) == ((0, 4000),)
    state = play(state, DRAW)  # the dealer was not tenpai: E2
    assert moves(state)[0] == (0, None, 4000, "seiryuu_deposit")
    assert seiryuu_deposits(state) == ((0, 2000),)  # no seiryuu win in the hand before


def test_ability_2_3_deposit_stays_2000_when_the_indicators_added_han() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    win = {"winner": 0, "han": 3, "fu": 30, "seiryuu_han": 1}
    state = play(state, {"outcome": "ron", "discarder": 1, "wins": [win]})
    assert seiryuu_deposits(state) == ((0, 2000),)


def test_ability_2_3_a_seiryuu_win_as_han_fu_says_its_role_han() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    with pytest.raises(InputError) as info:
        play(state, {"outcome": "ron", "discarder": 1, "wins": [{"winner": 0, "han": 2, "fu": 30}]})
    assert info.value.code == "seiryuu_han_needed"
    with pytest.raises(InputError):  # another player's win has no seiryuu_han
        win = {"winner": 1, "han": 2, "fu": 30, "seiryuu_han": 0}
        play(state, {"outcome": "ron", "discarder": 2, "wins": [win]})


def test_ability_2_3_a_seiryuu_hand_json_gives_its_role_han() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    # closed, no riichi: ura 2z → 3z and next kan dora 2z → 3z add nothing: 4,000 next
    hand = {"hand": ITTSU, "win": "9s", "ura": ["2z"], "extra_dora": ["2z"]}
    state = play(state, {"outcome": "ron", "discarder": 1, "wins": [{"winner": 0, "hand": hand}]})
    assert state.log[-1].result.wins[0].seiryuu_han == 0
    assert seiryuu_deposits(state) == ((0, 4000),)
    hand = {**hand, "ura": ["8s"]}  # ura 8s → 9s: one han, counted only for the seiryuu
    state = play(state, {"outcome": "ron", "discarder": 1, "wins": [{"winner": 0, "hand": hand}]})
    assert state.log[-1].result.wins[0].seiryuu_han == 1
    assert seiryuu_deposits(state) == ((0, 2000),)


def test_ability_interp_a_seiryuu_who_cannot_pay_its_deposit_busts() -> None:
    state = game("seiryuu", "tenshi", "tenshi")
    # the seiryuu puts up 2,000 and deals 27,000 to player 1: 1,000 left
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(1, (Payment(0, 27_000),)),), discarder=0)
    )
    assert state.scores[0] == 1000 and not state.finished
    state = play(state, DRAW)  # owes 2,000 with 1,000: −1,000, busted by the table
    assert moves(state)[0] == (0, None, 2000, "seiryuu_deposit")
    assert state.scores[0] == -1000 and state.finished
    assert [(b.player, b.by) for b in state.busts] == [(0, None)]
    assert all(s.bust == 0 for s in settle(state) if s.player != 0)  # nobody earns a prize


def test_ability_interp_seiryuu_deposit_option_puts_up_what_it_has() -> None:
    state = game("seiryuu", "tenshi", "tenshi", seiryuu_deposit_below_zero=False)
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(1, (Payment(0, 27_000),)),), discarder=0)
    )
    state = play(state, DRAW)
    assert moves(state)[0] == (0, None, 1000, "seiryuu_deposit")
    assert state.scores[0] == 0 and not state.finished


def test_ability_interp_two_seiryuu_each_put_up_a_deposit() -> None:
    state = game("tenshi", "seiryuu", "seiryuu")
    state = play(state, DRAW)
    assert moves(state)[:2] == [
        (1, None, 2000, "seiryuu_deposit"),
        (2, None, 2000, "seiryuu_deposit"),
    ]


def test_ability_2_1_riichi_comes_after_the_seiryuu_deposit() -> None:
    state = game("seiryuu", "tenshi", "tenshi", riichi_min_points=29_000)
    with pytest.raises(InputError) as info:  # 28,000 after the deposit
        play(state, {**DRAW, "riichi": [0]})
    assert info.value.code == "riichi_without_points"


# ---- 白虎 byakko (¶2.7, ver 1.1) -------------------------------------------------------


def test_ability_2_7_iii_a_declared_byakko_without_a_win_pays_mangan() -> None:
    state = game("tenshi", "byakko", "tenshi")
    state = play(state, {**DRAW, "byakko_declared": [1]})
    # a child: 4,000 to each other player, its shimocha (2) first
    assert moves(state) == [(1, 2, 4000, "byakko_mangan"), (1, 0, 4000, "byakko_mangan")]
    assert state.scores == (34_000, 22_000, 34_000)


def test_ability_2_7_iii_a_dealer_byakko_pays_6000_to_each() -> None:
    state = game("byakko", "tenshi", "tenshi")
    state = play(state, {**DRAW, "byakko_declared": [0]})
    assert state.scores == (18_000, 36_000, 36_000)


def test_ability_2_7_ii_a_declared_byakko_5_han_win_is_paid_then_pays_mangan() -> None:
    state = game("tenshi", "byakko", "tenshi")
    # child tsumo mangan: 2 pays 2,000+1,000, the dealer 4,000+1,000; then 4,000 to each
    win = {"winner": 1, "limit": "mangan"}
    state = play(state, {"outcome": "tsumo", "wins": [win], "byakko_declared": [1]})
    assert moves(state) == [
        (2, 1, 3000, "tsumo"),
        (0, 1, 5000, "tsumo"),
        (1, 2, 4000, "byakko_mangan"),
        (1, 0, 4000, "byakko_mangan"),
    ]
    assert state.scores == (29_000, 30_000, 31_000)


def test_ability_2_7_i_a_declared_byakko_haneman_counts_as_baiman() -> None:
    state = game("tenshi", "byakko", "tenshi")
    # 6 han: haneman 12,000 from the discarder, counted as baiman: 16,000; no mangan payment
    for win in ({"winner": 1, "han": 6}, {"winner": 1, "limit": "haneman"}):
        after = play(
            state, {"outcome": "ron", "discarder": 2, "wins": [win], "byakko_declared": [1]}
        )
        assert moves(after) == [(2, 1, 16_000, "ron")]
        recorded = after.log[-1].result.wins[0]
        assert (recorded.limit, recorded.upgraded_from, recorded.han) == ("baiman", "haneman", 6)


def test_ability_2_7_i_the_upgrade_from_a_hand_json() -> None:
    state = game("tenshi", "byakko", "tenshi")
    # riichi tsumo ittsu 4 yaku han + 2 dora (4z → the 1z pair): haneman, counted as baiman
    hand = {"hand": ITTSU, "win": "9s", "riichi": "riichi", "dora": ["4z"]}
    state = play(
        state,
        {
            "outcome": "tsumo",
            "wins": [{"winner": 1, "hand": hand}],
            "byakko_declared": [1],
            "riichi": [1],
        },
    )
    # child tsumo baiman: 2 pays 4,000+1,000, the dealer 8,000+1,000; then the riichi stick
    assert moves(state) == [
        (1, None, 1000, "riichi"),
        (2, 1, 5000, "tsumo"),
        (0, 1, 9000, "tsumo"),
        (None, 1, 1000, "deposits"),
    ]
    assert state.log[-1].result.wins[0].upgraded_from == "haneman"


def test_ability_2_7_i_yakuman_counts_as_double_yakuman_with_its_prize() -> None:
    state = game("tenshi", "byakko", "tenshi")
    win = {"winner": 1, "limit": "yakuman"}
    after = play(state, {"outcome": "ron", "discarder": 2, "wins": [win], "byakko_declared": [1]})
    assert moves(after) == [(2, 1, 64_000, "ron")]
    assert [p.points for p in after.prizes] == [40]  # §32: 20 × 2 from the discarder
    no_prize = game("tenshi", "byakko", "tenshi", byakko_upgrade_earns_prize=False)
    after = play(
        no_prize, {"outcome": "ron", "discarder": 2, "wins": [win], "byakko_declared": [1]}
    )
    assert [p.points for p in after.prizes] == [20]


def test_ability_2_7_an_undeclared_byakko_changes_nothing() -> None:
    state = game("tenshi", "byakko", "tenshi")
    after = play(state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 6}]})
    assert moves(after) == [(2, 1, 12_000, "ron")]


def test_ability_2_7_only_a_byakko_declares() -> None:
    with pytest.raises(InputError) as info:
        play(game("tenshi", "byakko", "tenshi"), {**DRAW, "byakko_declared": [0]})
    assert info.value.code == "bad_byakko"


def test_ability_ver_1_1_a_byakko_silent_for_two_hands_must_declare() -> None:
    state = game("byakko", "tenshi", "tenshi")
    state = play(state, DRAW)
    state = play(state, DRAW)
    assert byakko_must_declare(state) == (0,)
    with pytest.raises(InputError) as info:
        play(state, DRAW)
    assert info.value.code == "byakko_must_declare"
    state = play(state, {**DRAW, "byakko_declared": [0]})
    assert byakko_must_declare(state) == ()
    state = play(play(state, DRAW), DRAW)  # two silent hands again are allowed
    assert byakko_must_declare(state) == (0,)


def test_ability_interp_a_chombo_hand_is_not_counted_again_for_the_three_hands() -> None:
    state = game("byakko", "tenshi", "tenshi")
    state = play(state, DRAW)
    state = play(state, {"outcome": "chombo", "offenders": [2]})  # replayed: the same hand
    state = play(state, DRAW)  # the replay: the second silent hand
    assert byakko_must_declare(state) == (0,)
    counted = game("byakko", "tenshi", "tenshi", byakko_chombo_hand_counts=True)
    counted = play(counted, DRAW)
    counted = play(counted, {"outcome": "chombo", "offenders": [2]})
    with pytest.raises(InputError):
        play(counted, DRAW)


def test_ability_interp_no_byakko_payment_after_a_chombo() -> None:
    state = game("tenshi", "byakko", "tenshi")
    state = play(state, {"outcome": "chombo", "offenders": [2], "byakko_declared": [1]})
    assert [m[3] for m in moves(state)] == ["chombo", "chombo"]
    paying = game("tenshi", "byakko", "tenshi", byakko_pays_after_chombo=True)
    paying = play(paying, {"outcome": "chombo", "offenders": [2], "byakko_declared": [1]})
    assert [m[3] for m in moves(paying)] == ["chombo"] * 2 + ["byakko_mangan"] * 2


# ---- 朱雀 suzaku (¶2.4–2.6) -------------------------------------------------------------


def test_ability_2_6_the_suzaku_receives_half_rounded_up_to_1000() -> None:
    state = game("tenshi", "suzaku", "tenshi")
    # 2 han 40 fu, a child's ron: 2,560 → 3,000; half 1,500 → 2,000
    state = play(
        state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 2, "fu": 40}]}
    )
    assert moves(state) == [(2, 1, 2000, "ron")]
    assert state.log[-1].result.wins[0].payments[0].amount == 3000  # stored whole


def test_ability_2_6_suzaku_tsumo_each_payer_halved_with_bonus_and_honba() -> None:
    state = play(game("tenshi", "suzaku", "tenshi"), DRAW)  # E2, the suzaku deals, 1 honba
    # dealer tsumo 3 han 30 fu: each 1,920 → 2,000 + 1,000 + 1,000 = 4,000; half: 2,000
    state = play(state, {"outcome": "tsumo", "wins": [{"winner": 1, "han": 3, "fu": 30}]})
    assert moves(state)[:2] == [(2, 1, 2000, "tsumo"), (0, 1, 2000, "tsumo")]
    whole = play(
        game("tenshi", "suzaku", "tenshi", hand_rules={"suzaku_halves_honba": False}), DRAW
    )
    whole = play(whole, {"outcome": "tsumo", "wins": [{"winner": 1, "han": 3, "fu": 30}]})
    # the honba kept whole: (4,000 − 1,000) / 2 → 2,000, + 1,000
    assert moves(whole)[:2] == [(2, 1, 3000, "tsumo"), (0, 1, 3000, "tsumo")]


def test_ability_interp_the_suzaku_receives_the_deposits_in_full() -> None:
    state = game("tenshi", "suzaku", "tenshi")
    win = {"winner": 1, "han": 2, "fu": 40}
    state = play(state, {"outcome": "ron", "discarder": 2, "wins": [win], "riichi": [0, 2]})
    assert moves(state)[-1] == (None, 1, 2000, "deposits")


def test_ability_interp_the_suzaku_halves_the_aka5man_doubled_amount() -> None:
    # 3,000 doubled by §A8 to 6,000, half: 3,000 (option off: half of 3,000 is 2,000, doubled)
    for options, got in (
        ({}, 3000),
        ({"hand_rules": {"suzaku_halves_after_aka5man": False}}, 4000),
    ):
        state = game("tenshi", "suzaku", "tenshi", aka_5man=True, **options)
        win = {"winner": 1, "han": 2, "fu": 40}
        state = play(state, {"outcome": "ron", "discarder": 2, "wins": [win], "aka5man": 1})
        assert moves(state) == [(2, 1, got, "ron")]


def test_ability_interp_a_suzaku_chombo_is_paid_in_full() -> None:
    state = play(game("tenshi", "suzaku", "tenshi"), {"outcome": "chombo", "offenders": [1]})
    assert moves(state) == [(1, 2, 4000, "chombo"), (1, 0, 4000, "chombo")]
    halved = game("tenshi", "suzaku", "tenshi", hand_rules={"suzaku_halves_chombo": True})
    halved = play(halved, {"outcome": "chombo", "offenders": [1]})
    assert moves(halved) == [(1, 2, 2000, "chombo"), (1, 0, 2000, "chombo")]


def test_ability_2_4_a_suzaku_hand_json_with_chi_is_scored_for_the_suzaku() -> None:
    state = game("tenshi", "suzaku", "tenshi")
    # chi 234s, tanyao on 6s (1 han 30 fu, a child's ron: 1,000): the suzaku's minimum
    hand = {"hand": "345p678p55p78s", "melds": ["chi:234s"], "win": "6s"}
    state = play(state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "hand": hand}]})
    assert moves(state) == [(2, 1, 1000, "ron")]
    with pytest.raises(InputError) as info:  # another role may not chi
        play(state, {"outcome": "ron", "discarder": 1, "wins": [{"winner": 2, "hand": hand}]})
    assert info.value.code == "chi_not_allowed"


# ---- 黄龍 kouryuu (¶12, ver 1.1) --------------------------------------------------------


def test_ability_12_the_kouryuu_collects_1000_from_each_at_every_hands_end() -> None:
    state = game("kouryuu", "tenshi", "tenshi")
    state = play(state, DRAW)
    assert moves(state) == [(1, 0, 1000, "kouryuu"), (2, 0, 1000, "kouryuu")]
    assert state.scores == (12_000, 29_000, 29_000)


def test_ability_12_kouryuu_players_collect_one_at_a_time_from_the_dealer() -> None:
    state = play(game("tenshi", "kouryuu", "kouryuu"), DRAW)
    assert moves(state) == [
        (2, 1, 1000, "kouryuu"),
        (0, 1, 1000, "kouryuu"),
        (0, 2, 1000, "kouryuu"),
        (1, 2, 1000, "kouryuu"),
    ]
    assert state.scores == (28_000, 11_000, 11_000)


def test_ability_interp_a_kouryuu_collection_that_busts_is_a_bust_by_the_kouryuu() -> None:
    state = game("kouryuu", "tenshi", "tenshi")
    # 2 deals 30,000 to 1 and is left at 0; the kouryuu's 1,000 takes it to −1,000
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(1, (Payment(2, 30_000),)),), discarder=2)
    )
    assert moves(state)[-1] == (2, 0, 1000, "kouryuu")
    assert [(b.player, b.by) for b in state.busts] == [(2, 0)] and state.finished
    final = {s.player: s for s in settle(state)}
    assert final[0].bust == 10 and final[2].bust == -10
    off = game("kouryuu", "tenshi", "tenshi", kouryuu_bust_prize=False)
    off = apply(off, HandResult(Outcome.RON, wins=(Win(1, (Payment(2, 30_000),)),), discarder=2))
    assert [(b.player, b.by) for b in off.busts] == [(2, None)]


def test_ability_12_1_a_busted_player_still_pays_the_kouryuu() -> None:
    state = game("kouryuu", "tenshi", "tenshi")
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(1, (Payment(2, 31_000),)),), discarder=2)
    )
    assert [(b.player, b.by) for b in state.busts] == [(2, 1)]  # busted by the ron
    assert moves(state)[-1] == (2, 0, 1000, "kouryuu")
    assert state.scores == (12_000, 60_000, -2_000)


def test_ability_12_1_a_busted_kouryuu_receives_nothing() -> None:
    state = game("kouryuu", "kouryuu", "tenshi")
    # kouryuu 0 (10,000) deals 11,000 to 2: busted; it still pays kouryuu 1
    state = apply(
        state, HandResult(Outcome.RON, wins=(Win(2, (Payment(0, 11_000),)),), discarder=0)
    )
    assert moves(state)[1:] == [(2, 1, 1000, "kouryuu"), (0, 1, 1000, "kouryuu")]
    assert state.scores == (-2_000, 12_000, 40_000)


def test_ability_interp_no_kouryuu_collection_after_a_chombo() -> None:
    state = play(game("kouryuu", "tenshi", "tenshi"), {"outcome": "chombo", "offenders": [1]})
    assert [m[3] for m in moves(state)] == ["chombo", "chombo"]
    option = game("kouryuu", "tenshi", "tenshi", kouryuu_collects_after_chombo=True)
    option = play(option, {"outcome": "chombo", "offenders": [1]})
    assert [m[3] for m in moves(option)] == ["chombo"] * 2 + ["kouryuu"] * 2


def test_ability_interp_end_of_hand_order_aka5man_byakko_kouryuu() -> None:
    state = game("byakko", "kouryuu", "tenshi", aka_5man=True)
    state = play(state, {**DRAW, "byakko_declared": [0], "aka5man": 2})
    assert [m[3] for m in moves(state)] == ["aka5man_mangan"] * 2 + ["byakko_mangan"] * 2 + [
        "kouryuu"
    ] * 2
    swapped = game("byakko", "kouryuu", "tenshi", kouryuu_before_byakko=True)
    swapped = play(swapped, {**DRAW, "byakko_declared": [0]})
    assert [m[3] for m in moves(swapped)] == ["kouryuu"] * 2 + ["byakko_mangan"] * 2


# ---- 玄武 genbu: kanpa (¶9–¶10, ver 1.1) ------------------------------------------------


def kanpa(by: int, target: int, tile: str, **kw: Any) -> dict[str, Any]:
    return {"by": by, "target": target, "tile": tile, **kw}


@pytest.mark.parametrize(
    "declarations",
    [
        [kanpa(1, 2, "9s")],  # player 1 is no genbu
        [kanpa(0, 0, "9s")],  # against oneself
        [kanpa(0, 1, "9s"), kanpa(0, 1, "6s")],  # twice against one player in a hand
        [kanpa(0, 1, "5m")],  # no 5m in sanma
        [kanpa(0, 1, "9s"), kanpa(2, 1, "6s", at_once=True)],  # at once: name the discard
        [kanpa(0, 1, "9s", discarder=0)],  # at one's own discard
    ],
)
def test_ability_10_kanpa_declarations_that_cannot_be(declarations: list[Any]) -> None:
    state = game("genbu", "tenshi", "genbu")
    with pytest.raises(InputError):
        play(state, {**DRAW, "kanpa": declarations})


def test_ability_10_a_genbu_declares_against_each_other_player_once() -> None:
    state = game("genbu", "tenshi", "tenshi")
    state = play(state, {**DRAW, "kanpa": [kanpa(0, 1, "9s"), kanpa(0, 2, "1p")]})
    assert len(state.log[-1].result.kanpa) == 2


def test_ability_10_no_tsumo_on_the_kanpa_tile_from_a_hand_json() -> None:
    state = game("genbu", "tenshi", "tenshi")
    win = [{"winner": 1, "hand": {"hand": ITTSU, "win": "9s"}}]
    with pytest.raises(InputError) as info:
        play(state, {"outcome": "tsumo", "wins": win, "kanpa": [kanpa(0, 1, "9s")]})
    assert info.value.code == "invalid_win" and "kanpa" in info.value.message
    assert play(state, {"outcome": "tsumo", "wins": win, "kanpa": [kanpa(0, 1, "6s")]})


def test_ability_10_no_ron_on_the_kanpa_tile_discarded_by_a_genbu() -> None:
    state = game("genbu", "tenshi", "tenshi")
    win = [{"winner": 1, "hand": {"hand": ITTSU, "win": "9s"}}]
    with pytest.raises(InputError) as info:
        play(state, {"outcome": "ron", "discarder": 0, "wins": win, "kanpa": [kanpa(0, 1, "9s")]})
    assert info.value.code == "invalid_win"
    # the same tile from a player who is no genbu: the ron stands (2 han 40 fu: 3,000)
    state = play(
        state, {"outcome": "ron", "discarder": 2, "wins": win, "kanpa": [kanpa(0, 1, "9s")]}
    )
    assert moves(state) == [(2, 1, 3000, "ron")]


def test_ability_10_two_genbu_players_any_genbu_discard_forbids_the_ron() -> None:
    # genbu 0 named 9s against 1; genbu 2 discards the 9s: no ron for 1
    state = game("genbu", "tenshi", "genbu")
    win = [{"winner": 1, "hand": {"hand": ITTSU, "win": "9s"}}]
    with pytest.raises(InputError):
        play(state, {"outcome": "ron", "discarder": 2, "wins": win, "kanpa": [kanpa(0, 1, "9s")]})


def test_ability_10_1_a_kanpa_replaced_by_a_later_one() -> None:
    state = game("genbu", "tenshi", "genbu")
    # genbu 0 names 9s against 1, later genbu 2 names 6s: only 6s holds
    later = [kanpa(0, 1, "9s"), kanpa(2, 1, "6s")]
    on_9s = [{"winner": 1, "hand": {"hand": ITTSU, "win": "9s"}}]
    on_6s = [{"winner": 1, "hand": {"hand": ITTSU, "win": "6s"}}]
    assert play(state, {"outcome": "tsumo", "wins": on_9s, "kanpa": later})
    with pytest.raises(InputError):
        play(state, {"outcome": "tsumo", "wins": on_6s, "kanpa": later})


def test_ability_10_2_1_of_two_genbu_at_once_the_upstream_one_holds() -> None:
    state = game("genbu", "tenshi", "genbu")
    # at 1's discard genbu 0 names 9s against 1 and genbu 2 names 1p against 0: from the
    # discarder the turn goes to 2 first, so 2's holds and 0's is not made
    at_once = (
        Kanpa(0, 1, "9s", discarder=1),
        Kanpa(2, 0, "1p", discarder=1, at_once=True),
    )
    assert kanpa_holding(state, at_once) == (at_once[1],)
    win = [{"winner": 1, "hand": {"hand": ITTSU, "win": "9s"}}]
    declarations = [kanpa(0, 1, "9s", discarder=1), kanpa(2, 0, "1p", discarder=1, at_once=True)]
    assert play(state, {"outcome": "tsumo", "wins": win, "kanpa": declarations})
    # 0's declaration did not hold: it may declare against 1 again in the hand
    again = [*declarations, kanpa(0, 1, "6s")]
    assert play(state, {"outcome": "tsumo", "wins": win, "kanpa": again})
    farther = game("genbu", "tenshi", "genbu", kanpa_at_once="farther")
    assert kanpa_holding(farther, at_once) == (at_once[0],)


def test_ability_10_a_hand_that_names_another_kanpa_tile_is_refused() -> None:
    state = game("genbu", "tenshi", "tenshi")
    hand = {"hand": ITTSU, "win": "6s", "kanpa": "1p"}
    with pytest.raises(InputError) as info:
        play(
            state,
            {
                "outcome": "tsumo",
                "wins": [{"winner": 1, "hand": hand}],
                "kanpa": [kanpa(0, 1, "9s")],
            },
        )
    assert info.value.code == "role_mismatch"
    # a kanpa the table did not record may come with the hand
    hand = {"hand": ITTSU, "win": "9s", "kanpa": "9s"}
    with pytest.raises(InputError):
        play(state, {"outcome": "tsumo", "wins": [{"winner": 1, "hand": hand}]})


# ---- chombo in an ability game (docs/rules.md Chombo) -----------------------------


def test_ability_chombo_no_byakko_or_kouryuu_payment_the_hand_replayed() -> None:
    state = game("seiryuu", "byakko", "kouryuu")
    before = state
    state = play(state, {"outcome": "chombo", "offenders": [2], "byakko_declared": [1]})
    # the kouryuu's chombo (a child): 4,000 to its shimocha (0, the dealer) and to 1; the
    # seiryuu's deposit, the byakko's payment and the kouryuu's collection all undone
    assert moves(state) == [(2, 0, 4000, "chombo"), (2, 1, 4000, "chombo")]
    assert (state.round_index, state.honba) == (before.round_index, before.honba)
    assert state.scores == (34_000, 34_000, 2_000) and state.deposits == 0
    assert seiryuu_deposits(state) == ((0, 2000),)  # the replay starts with the deposit
