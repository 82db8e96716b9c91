"""The game keeper against docs/rules.md: flow, payments, busts, chombo, aka-5-man, settlement."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    BustEvent,
    GameRules,
    HandResult,
    Manemann,
    Nagashi,
    Outcome,
    Payment,
    Transfer,
    Win,
    YakumanPrize,
    apply,
    new_game,
    settle,
)
from tests.game.helpers import chombo, draw, ron, tsumo


def at(
    round_index: int = 0,
    honba: int = 0,
    scores=(30_000, 30_000, 30_000),
    deposits=0,
    aka: bool = False,
):
    state = new_game(["A", "B", "C"], GameRules(aka_5man=aka))
    return replace(
        state, round_index=round_index, honba=honba, scores=tuple(scores), deposits=deposits
    )


def finished(scores, busts=(), prizes=()):
    return replace(
        new_game(), scores=tuple(scores), finished=True, busts=tuple(busts), prizes=tuple(prizes)
    )


# ---------------------------------------------------------------- seats, rounds, flow (§4–§8)


def test_rule_9_new_game_starts_at_30000_in_east_1():
    state = new_game(["Aki", "Ben", "Chie"])
    assert state.scores == (30_000, 30_000, 30_000)
    assert (state.round_label, state.dealer, state.honba, state.deposits) == ("E1", 0, 0, 0)
    assert [state.seat_wind(p) for p in range(3)] == ["E", "S", "W"]


def test_rule_4_seat_winds_follow_the_dealer():
    state = at(round_index=4)  # S2: player 1 deals
    assert state.round_label == "S2"
    assert [state.seat_wind(p) for p in range(3)] == ["W", "E", "S"]


def test_rule_7_dealer_win_continues_with_one_more_honba():
    state = apply(at(), ron(1, (0, 12_000)))
    assert (state.round_label, state.honba) == ("E1", 1)
    state = apply(state, tsumo(state, 0, 0, 5_000))
    assert (state.round_label, state.honba) == ("E1", 2)


def test_rule_7_child_win_passes_the_deal_and_clears_honba():
    state = apply(at(honba=3), ron(0, (2, 8_000)))
    assert (state.round_label, state.dealer, state.honba) == ("E2", 1, 0)


def test_rule_7_east_draw_continues_only_if_dealer_tenpai():
    tenpai = apply(at(), draw(0))
    assert (tenpai.round_label, tenpai.honba) == ("E1", 1)
    noten = apply(at(), draw(1, 2))
    assert (noten.round_label, noten.honba) == ("E2", 1)


def test_rule_7_south_draw_always_continues():
    for tenpai in [(), (1,), (1, 2), (0, 1, 2)]:
        state = apply(at(round_index=3, honba=2), draw(*tenpai))
        assert (state.round_label, state.honba) == ("S1", 3), tenpai


def test_rule_6_game_ends_after_south_3_no_west_round():
    state = apply(at(round_index=5), ron(0, (1, 8_000)))
    assert state.finished
    with pytest.raises(InputError) as err:
        apply(state, draw())
    assert err.value.code == "game_over"


def test_rule_8_no_agari_yame_dealer_keeps_dealing_in_south_3():
    state = apply(at(round_index=5), tsumo(at(round_index=5), 2, 0, 17_000))
    assert not state.finished and (state.round_label, state.honba) == ("S3", 1)
    state = apply(state, draw())  # South: the dealer continues at any draw
    assert not state.finished and state.round_label == "S3"


def test_rule_6_full_hanchan_of_child_wins_is_six_hands():
    state = new_game()
    for n in range(6):
        assert not state.finished
        winner = (state.dealer + 1) % 3
        state = apply(state, ron(state.dealer, (winner, 2_000)))
        assert len(state.log) == n + 1
    assert state.finished


# ---------------------------------------------------------------- points (§11–§14)


def test_rule_13_tsumo_paid_by_each_other_player_and_deposits_to_winner():
    state = at(deposits=2_000, scores=(30_000, 29_000, 29_000))
    state = apply(state, tsumo(state, 1, 5_000, 3_000, riichi=(1,)))
    assert state.scores == (25_000, 29_000 - 1_000 + 8_000 + 3_000, 29_000 - 3_000)
    assert state.deposits == 0
    assert [t.reason for t in state.log[-1].transfers] == ["riichi", "tsumo", "tsumo", "deposits"]


def test_rule_13_tsumo_winner_settles_with_shimocha_first():
    state = at(round_index=1)  # E2, dealer 1
    state = apply(state, tsumo(state, 2, 5_000, 3_000))
    payers = [t.payer for t in state.log[-1].transfers]
    assert payers == [0, 1]  # player 2's shimocha is player 0


def test_rule_14_double_ron_settled_from_discarders_shimocha_deposits_to_first():
    # Player 1 discards; 2 is the shimocha, so 2 is the first winner even if listed second.
    state = at(deposits=1_000)
    state = apply(state, ron(1, (0, 12_000), (2, 8_000), riichi=(0,)))
    transfers = state.log[-1].transfers
    assert [(t.receiver, t.reason) for t in transfers[1:]] == [
        (2, "ron"),
        (2, "deposits"),
        (0, "ron"),
    ]
    assert state.scores == (30_000 - 1_000 + 12_000, 30_000 - 20_000, 30_000 + 8_000 + 2_000)
    assert (state.round_label, state.honba) == ("E1", 1)  # the dealer won too


def test_rule_14_double_ron_first_winner_is_shimocha_of_discarder():
    state = apply(at(deposits=3_000), ron(2, (1, 2_000), (0, 2_000)))
    assert state.log[-1].transfers[1] == Transfer(None, 0, 3_000, "deposits")


def test_rule_12_riichi_deposit_stays_on_table_after_a_draw():
    state = apply(at(), draw(0, riichi=(0, 1)))
    assert state.deposits == 2_000
    assert state.scores == (30_000 - 1_000 + 2_000, 30_000 - 1_000 - 1_000, 29_000)


def test_riichi_needs_1000_points():
    with pytest.raises(InputError) as err:
        apply(at(scores=(500, 59_500, 30_000)), draw(riichi=(0,)))
    assert err.value.code == "riichi_without_points"


# ---------------------------------------------------------------- draws, nagashi, manemann


def test_rule_17_noten_payment_one_tenpai_collects_from_shimocha_first():
    state = apply(at(), draw(2))
    assert [(t.payer, t.receiver, t.amount) for t in state.log[-1].transfers] == [
        (0, 2, 1_000),
        (1, 2, 1_000),
    ]


def test_rule_17_noten_payment_two_tenpai_noten_pays_shimocha_first():
    state = apply(at(), draw(0, 2))
    assert [(t.payer, t.receiver) for t in state.log[-1].transfers] == [(1, 2), (1, 0)]
    assert state.scores == (31_000, 28_000, 31_000)


def test_rule_17_settlement_order_decides_bust():
    # Player 1 is no-ten with 1,000: pays the shimocha (2) first and reaches 0, then player 0
    # takes them below zero, so player 0 busted them and gets the prize.
    state = apply(at(scores=(44_000, 1_000, 45_000)), draw(0, 2))
    assert state.finished
    assert state.busts == (BustEvent(1, 0),)
    final = settle(state)
    assert final[1].bust == -10 and final[0].bust == 10 and final[2].bust == 0


def test_rule_15_bust_even_if_recovered():
    # Player 2 is no-ten with 1,000 and pays below zero first; then their nagashi yakuman pays
    # them back above zero: still a bust (§15.1), and the game ends after the hand.
    state = apply(at(scores=(44_000, 45_000, 1_000)), draw(0, 1, nagashi=(Nagashi(2),)))
    assert state.busts == (BustEvent(2, 1),)
    assert state.scores[2] > 0 and state.finished


def test_rule_31_nagashi_yakuman_paid_as_yakuman_tsumo_without_honba():
    state = apply(at(honba=2), draw(nagashi=(Nagashi(1),)))
    nagashi = [t for t in state.log[-1].transfers if t.reason == "nagashi"]
    assert [(t.payer, t.amount) for t in nagashi] == [(2, 9_000), (0, 17_000)]
    assert state.prizes == (YakumanPrize(1, (2, 0), 10, "nagashi"),)
    assert (state.round_label, state.honba) == ("E2", 3)  # §30: a draw as far as the deal goes


def test_rule_31_3_nagashi_after_double_riichi_is_double_yakuman():
    state = apply(at(), draw(0, nagashi=(Nagashi(0, double_riichi=True),), riichi=(0,)))
    nagashi = [t.amount for t in state.log[-1].transfers if t.reason == "nagashi"]
    assert nagashi == [33_000, 33_000]
    assert state.prizes[0].points == 20


def test_rule_34_manemann_five_turns_is_a_mangan_from_the_copied_player():
    state = apply(at(), draw(manemann=(Manemann(copier=2, copied=1, turns=6),)))
    assert state.log[-1].transfers == (Transfer(1, 2, 8_000, "manemann"),)


def test_rule_34_manemann_only_copies_an_upstream_player():
    with pytest.raises(InputError) as err:
        apply(at(), draw(manemann=(Manemann(copier=0, copied=2, turns=5),)))
    assert err.value.code == "bad_manemann"


# ---------------------------------------------------------------- chombo (§R1–§R2, §18.1)


def test_rule_r1_chombo_rewinds_returns_deposits_and_replays_same_honba():
    # Player 1 declared riichi this hand; the rewind returns the stick before the payment,
    # so 8,000 is exactly enough and nobody busts (§R1.4: the order matters).
    state = at(round_index=1, honba=2, scores=(52_000, 1_000, 8_000), deposits=29_000)
    after = apply(state, chombo(2, riichi=(1, 2)))
    assert after.scores == (56_000, 5_000, 0)
    assert after.deposits == 29_000  # only this hand's sticks were returned (never taken)
    assert (after.round_label, after.honba, after.finished) == ("E2", 2, False)
    assert [t.receiver for t in after.log[-1].transfers] == [0, 1]  # shimocha first


def test_rule_r1_3_dealer_chombo_pays_6000_each():
    state = apply(at(), chombo(0))
    assert state.scores == (18_000, 36_000, 36_000)


def test_rule_r2_chombo_bust_gives_the_deposits_to_the_top_player():
    state = apply(at(scores=(3_000, 40_000, 45_000), deposits=2_000), chombo(0))
    assert state.finished and state.busts == (BustEvent(0, 1),)
    assert state.log[-1].transfers[-1] == Transfer(None, 2, 2_000, "deposits_to_top")
    assert state.scores == (3_000 - 12_000, 46_000, 53_000) and state.deposits == 0


def test_rule_18_1_noten_riichi_at_draw_is_chombo():
    state = apply(at(), draw(0, riichi=(1,), noten_riichi=(1,)))
    assert state.scores == (34_000, 22_000, 34_000)
    assert (state.round_label, state.honba, state.deposits) == ("E1", 0, 0)


# ---------------------------------------------------------------- aka-5-man (§A8)


def test_rule_a8_non_winner_who_extracted_aka5man_pays_mangan_after_everything():
    state = apply(at(aka=True), ron(1, (2, 8_000), aka5man=0))
    reasons = [(t.payer, t.receiver, t.amount, t.reason) for t in state.log[-1].transfers]
    assert reasons == [
        (1, 2, 8_000, "ron"),
        (0, 1, 6_000, "aka5man_mangan"),
        (0, 2, 6_000, "aka5man_mangan"),
    ]


def test_rule_a8_aka5man_payment_at_a_draw_too():
    state = apply(at(aka=True), draw(1, aka5man=1))
    assert [t.reason for t in state.log[-1].transfers] == [
        "noten",
        "noten",
        "aka5man_mangan",
        "aka5man_mangan",
    ]
    assert state.scores == (29_000 + 4_000, 32_000 - 8_000, 29_000 + 4_000)


def test_rule_a8_winner_who_extracted_aka5man_receives_double_but_not_deposits():
    state = at(aka=True, deposits=1_000)
    after = apply(state, tsumo(state, 1, 5_000, 3_000, aka5man=1))
    assert after.scores == (20_000, 47_000, 24_000)


def test_rule_a8_no_aka5man_payment_on_chombo():
    state = apply(at(aka=True), chombo(1, aka5man=0))
    assert state.scores == (34_000, 22_000, 34_000)


def test_aka5man_needs_the_option():
    with pytest.raises(InputError) as err:
        apply(at(), draw(aka5man=0))
    assert err.value.code == "aka5man_off"


# ---------------------------------------------------------------- end of game (§15–§16, §32)


def test_rule_16_worked_line_minus_1000_in_third_is_minus_61():
    final = settle(finished((61_000, 30_000, -1_000), busts=[BustEvent(2, 0)]))
    assert final[2].total == -61
    assert (final[2].base, final[2].uma, final[2].bust, final[2].bust_levels) == (-41, -10, -10, 1)
    assert final[0].total == 21 + 30 + 10 + 10
    assert sum(p.total for p in final) == 0


def test_rule_16_3_worked_line_minus_31000_in_third_is_minus_101():
    final = settle(finished((91_000, 30_000, -31_000), busts=[BustEvent(2, 0)]))
    assert final[2].total == -101 and final[2].bust_levels == 2
    assert sum(p.total for p in final) == 0


def test_rule_16_3_bust_levels_per_started_30000():
    from sanma_lens.engine.game import bust_levels

    assert [bust_levels(s) for s in (0, -1_000, -30_000, -30_001, -61_000)] == [1, 1, 1, 2, 3]


def test_rule_16_2_busting_both_at_once_earns_10_more():
    state = at(scores=(82_000, 4_000, 4_000))
    state = apply(state, tsumo(state, 0, 0, 6_000))
    assert state.finished and {b.player for b in state.busts} == {1, 2}
    final = settle(state)
    assert final[0].bust == 10 + 10 + 10
    assert final[1].bust == -15 and final[2].bust == -15
    assert sum(p.total for p in final) == 0


def test_rule_32_yakuman_prizes_ron_20_tsumo_10_each_doubled_for_double():
    state = apply(at(scores=(10_000, 10_000, 70_000)), ron(2, (1, 32_000), yakuman=1))
    state = apply(state, tsumo(state, 1, 0, 33_000, yakuman=2))  # player 1 now deals
    assert state.finished  # player 0 busted on the double yakuman
    final = settle(state)
    assert [p.yakuman for p in final] == [-20, 20 + 40, -20 - 20]


def test_rule_ties_rank_by_seat_from_first_dealer():
    final = settle(finished((30_000, 30_000, 30_000)))
    assert [p.rank for p in final] == [1, 2, 3]
    assert [p.total for p in final] == [-10 + 30 + 10, -10, -10 - 10]


def test_leftover_deposits_go_to_top_player_when_a_draw_ends_the_game():
    state = at(scores=(1_000, 44_000, 44_000), deposits=1_000)
    state = apply(state, draw(1, 2, riichi=(1,)))
    assert state.finished and state.deposits == 0
    assert state.log[-1].transfers[-1] == Transfer(None, 2, 2_000, "deposits_to_top")
    assert state.scores == (-1_000, 44_000, 47_000)


def test_rule_r3_mis_call_puts_1000_into_the_deposits():
    state = apply(at(), HandResult(Outcome.DRAW, tenpai=(0,), mis_calls=(1,)))
    assert state.deposits == 1_000
    assert state.scores == (32_000, 28_000, 29_000)
    assert state.log[-1].transfers[0] == Transfer(1, None, 1_000, "mis_call")


def test_rule_r3_bust_by_a_mis_call_has_no_prize_receiver():
    state = apply(at(scores=(0, 45_000, 45_000)), HandResult(Outcome.DRAW, mis_calls=(0,)))
    assert state.finished and state.busts == (BustEvent(0, None),)
    final = settle(state)
    assert [p.bust for p in final] == [0, 0, 0] and sum(p.total for p in final) == 0
    assert state.log[-1].transfers[-1] == Transfer(None, 1, 1_000, "deposits_to_top")


def test_rule_14_double_ron_with_the_dealer_among_the_winners_keeps_the_deal():
    state = apply(at(round_index=1), ron(0, (1, 3_000), (2, 2_000)))
    assert (state.round_label, state.honba) == ("E2", 1)
    state = apply(at(round_index=1), ron(1, (0, 2_000), (2, 2_000)))
    assert (state.round_label, state.honba) == ("E3", 0)


def test_rule_a8_aka5man_extracted_by_the_discarder_pays_both_ron_and_mangan():
    state = apply(at(aka=True), ron(2, (1, 8_000), aka5man=2))
    assert [t.reason for t in state.log[-1].transfers] == [
        "ron",
        "aka5man_mangan",
        "aka5man_mangan",
    ]
    assert state.scores == (34_000, 42_000, 14_000)


@pytest.mark.parametrize(
    "result",
    [
        HandResult(Outcome.DRAW, offenders=(1,)),
        HandResult(Outcome.CHOMBO, offenders=(1,), discarder=0),
        HandResult(Outcome.CHOMBO, offenders=(1,), tenpai=(0,)),
        HandResult(Outcome.TSUMO, wins=(Win(1, (Payment(0, 1000),)),)),
        HandResult(Outcome.TSUMO, wins=(Win(1, (Payment(0, 1500), Payment(2, 1000))),)),
        HandResult(Outcome.RON, discarder=0, wins=(Win(1, (Payment(2, 1000),)),)),
        HandResult(
            Outcome.RON,
            discarder=0,
            wins=(Win(1, (Payment(0, 1000),)), Win(1, (Payment(0, 1000),))),
        ),
        HandResult(Outcome.DRAW, riichi=(1, 1)),
        HandResult(Outcome.DRAW, manemann=(Manemann(2, 1, 4),)),
    ],
)
def test_impossible_results_are_refused(result):
    state = at()
    with pytest.raises(InputError):
        apply(state, result)


def test_rule_34_manemann_steps_every_two_turns():
    from sanma_lens.engine.game import manemann_limit_han

    rules = GameRules().hand_rules
    han = [manemann_limit_han(t, rules) for t in (5, 6, 7, 9, 11, 13, 15, 17)]
    assert han == [5, 5, 6, 8, 11, 15, 20, 25]
    state = apply(at(), draw(manemann=(Manemann(copier=1, copied=0, turns=13),)))
    assert state.log[-1].transfers == (Transfer(0, 1, 32_000, "manemann"),)


def test_rule_30_nagashi_does_not_move_the_dealer():
    # §30: nagashi is no yaku and no win: at a draw in the East round only the dealer's tenpai
    # decides the deal (§7), whoever claimed nagashi yakuman.
    child_nagashi = apply(at(), draw(0, nagashi=(Nagashi(1),)))  # dealer tenpai
    assert (child_nagashi.round_index, child_nagashi.dealer, child_nagashi.honba) == (0, 0, 1)
    dealer_nagashi = apply(at(), draw(nagashi=(Nagashi(0),)))  # dealer no-ten
    assert (dealer_nagashi.round_index, dealer_nagashi.dealer, dealer_nagashi.honba) == (1, 1, 1)


def test_rule_29_noten_payment_1000_each_is_a_named_option():
    # docs/rules.md Ryuukyoku [interp]: each no-ten player pays 1,000 to each tenpai player
    assert at().rules.noten_payment == 1_000
    state = new_game(["A", "B", "C"], GameRules(noten_payment=2_000))
    one = apply(state, draw(2))
    assert [(t.payer, t.receiver, t.amount) for t in one.log[-1].transfers] == [
        (0, 2, 2_000),
        (1, 2, 2_000),
    ]
    assert apply(state, draw(0, 2)).scores == (32_000, 26_000, 32_000)
    with pytest.raises(InputError):
        GameRules(noten_payment=500)


def test_rule_ties_split_is_a_named_option():
    # docs/rules.md End of game [interp]: ties rank by seat by default; "split" shares the places
    tied = (40_000, 40_000, 10_000)
    by_seat = settle(finished(tied))
    assert [(p.rank, p.oka, p.uma, p.total) for p in by_seat] == [
        (1, 30, 10, 40),
        (2, 0, 0, 0),
        (3, 0, -10, -40),
    ]
    split = replace(finished(tied), rules=GameRules(rank_ties="split"))
    assert [(p.rank, p.oka, p.uma, p.total) for p in settle(split)] == [
        (1, 15, 5, 20),
        (1, 15, 5, 20),
        (3, 0, -10, -40),
    ]
    all_tied = settle(replace(finished((30_000,) * 3), rules=GameRules(rank_ties="split")))
    assert [(p.rank, p.total) for p in all_tied] == [(1, 0)] * 3
    low = settle(replace(finished((50_000, 20_000, 20_000)), rules=GameRules(rank_ties="split")))
    assert [(p.rank, p.uma, p.total) for p in low] == [(1, 10, 50), (2, -5, -25), (2, -5, -25)]
    with pytest.raises(InputError):
        GameRules(rank_ties="split", uma=15)


def test_rule_a8_yakuman_prize_not_doubled_by_default_a_named_option():
    # docs/rules.md §A8: hand value and honba doubled; "deposits and prizes are not" [interp]
    state = at(aka=True)
    result = tsumo(state, 1, 17_000, 9_000, aka5man=1, yakuman=1)
    plain = apply(state, result)
    assert plain.prizes == (YakumanPrize(1, (2, 0), 10, "yakuman_tsumo"),)
    assert plain.scores == (30_000 - 34_000, 30_000 + 52_000, 30_000 - 18_000)
    doubled = replace(state, rules=GameRules(aka_5man=True, aka5man_doubles_prizes=True))
    assert apply(doubled, result).prizes == (YakumanPrize(1, (2, 0), 20, "yakuman_tsumo"),)
