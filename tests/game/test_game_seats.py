"""Seats, rounds and turn order at tables of three and four players (docs/rules.md §4, §6, §17)."""

from __future__ import annotations

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import GameRules, new_game, others_in_settlement_order, turn_order_from
from sanma_lens.engine.game.seats import dealer_of, ranking, round_label, round_wind, seat_winds


def test_rule_4_sanma_seats_are_east_south_west():
    assert seat_winds(3) == ("E", "S", "W")
    assert GameRules().players == 3


def test_four_player_seats_add_north():
    assert seat_winds(4) == ("E", "S", "W", "N")


def test_rule_6_rounds_have_one_hand_per_player():
    assert [round_label(i, 3) for i in range(7)] == ["E1", "E2", "E3", "S1", "S2", "S3", "W1"]
    labels = [round_label(i, 4) for i in range(16)]
    assert labels[:8] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert labels[8:] == ["W1", "W2", "W3", "W4", "N1", "N2", "N3", "N4"]


def test_rule_6_round_wind_and_dealer_at_four_players():
    assert [round_wind(i, 4) for i in (0, 3, 4, 7, 8, 12)] == ["E", "E", "S", "S", "W", "N"]
    assert [dealer_of(i, 4) for i in range(9)] == [0, 1, 2, 3, 0, 1, 2, 3, 0]


def test_rule_17_settlement_order_starts_with_the_shimocha():
    assert others_in_settlement_order(0, 3) == (1, 2)
    assert others_in_settlement_order(2, 3) == (0, 1)
    assert others_in_settlement_order(2, 4) == (3, 0, 1)
    assert others_in_settlement_order(3, 4) == (0, 1, 2)


def test_turn_order_wraps_around_the_table():
    assert turn_order_from(1, 3) == (1, 2, 0)
    assert turn_order_from(3, 4) == (3, 0, 1, 2)


def test_ranking_ties_go_to_the_earlier_seat():
    assert ranking((25_000, 35_000, 25_000)) == (1, 0, 2)
    assert ranking((20_000, 30_000, 30_000, 20_000)) == (1, 2, 0, 3)


def test_new_sanma_game_wants_three_names():
    assert new_game().names == ("A", "B", "C")
    with pytest.raises(InputError) as err:
        new_game(["A", "B", "C", "D"])
    assert err.value.code == "bad_players"
