"""The game keeper under ECIP (docs/rules/ecip.md; seed 004), clause by clause: points, flow,
西入 and sudden death, draws, deposits, double ron, pao, chombo, nagashi mangan, settlement."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GameState,
    apply,
    game_rules_from_json,
    new_game,
    resolve_hand,
    settle,
)
from sanma_lens.engine.game.presets import ECIP_GAME
from tests.game.helpers import table_total

NAMES = ["Aki", "Ben", "Chie", "Dai"]


def at(round_index: int = 0, honba: int = 0, scores=None, deposits: int = 0) -> GameState:
    state = new_game(NAMES, ECIP_GAME)
    return replace(
        state,
        round_index=round_index,
        honba=honba,
        scores=tuple(scores) if scores is not None else state.scores,
        deposits=deposits,
    )


def play(state: GameState, obj: dict[str, Any]) -> GameState:
    after = apply(state, resolve_hand(state, obj))
    assert table_total(after) == table_total(state)  # points only move
    return after


def ron(discarder: int, winner: int, han: int = 1, fu: int = 30, **kw: Any) -> dict[str, Any]:
    win = {"winner": winner, "han": han, "fu": fu, **kw.pop("win", {})}
    return {"outcome": "ron", "discarder": discarder, "wins": [win], **kw}


def moved(state: GameState) -> list[tuple[int | None, int | None, int, str]]:
    return [(t.payer, t.receiver, t.amount, t.reason) for t in state.log[-1].transfers]


# ---- §持ち点 ----------------------------------------------------------------------------------


def test_ecip_mochiten_four_players_27000_each() -> None:
    state = new_game(NAMES, game_rules_from_json({"preset": "ecip"}))
    assert state.players == 4 and state.scores == (27_000,) * 4
    assert [state.seat_wind(p) for p in range(4)] == ["E", "S", "W", "N"]
    assert state.rules.total_points == 108_000 and state.rules.oka == 12


def test_ecip_mochiten_a_game_wants_four_names() -> None:
    with pytest.raises(InputError) as e:
        new_game(NAMES[:3], ECIP_GAME)
    assert e.value.code == "bad_players"


def test_ecip_mochiten_settlement_uma_12_to_the_top_only_rounded_toward_the_origin() -> None:
    state = replace(at(), scores=(34_500, 33_200, 20_200, 20_100), finished=True)
    rows = {r.player: r for r in settle(state)}
    # 33,200 → +3 (down), 20,200 → −9 (up: 20,200 → 21,000), 20,100 → −9
    assert (rows[1].base, rows[2].base, rows[3].base) == (3, -9, -9)
    assert (rows[1].total, rows[2].total, rows[3].total) == (3, -9, -9)
    assert rows[0].oka == 12 and rows[0].uma == 0 and rows[1].oka == 0
    # the top balances the table: 4 + 12 = 16, less the 1 lost to rounding
    assert rows[0].total == 15 and sum(r.total for r in rows.values()) == 0


# ---- §場の流れ ------------------------------------------------------------------------------


def test_ecip_nagare_east_draw_passes_the_deal_unless_the_dealer_is_tenpai() -> None:
    assert play(at(), {"outcome": "draw", "tenpai": [1]}).round_label == "E2"
    kept = play(at(), {"outcome": "draw", "tenpai": [0]})
    assert (kept.round_label, kept.honba) == ("E1", 1)


def test_ecip_nagare_south_dealer_stays_unless_a_child_wins() -> None:
    south = at(round_index=4)  # S1, player 0 deals
    assert play(south, {"outcome": "draw", "tenpai": []}).round_label == "S1"
    assert play(south, ron(1, 0, han=2)).round_label == "S1"  # the dealer wins
    child = play(south, ron(0, 2, han=2))
    assert (child.round_label, child.honba) == ("S2", 0)


def test_ecip_nagare_no_agari_yame_in_south_4() -> None:
    state = play(at(round_index=7, scores=(40_000, 27_000, 20_000, 21_000)), ron(0, 3, han=2))
    assert not state.finished and state.round_label == "S4"


def test_ecip_nagare_a_player_below_zero_plays_on() -> None:
    state = play(at(scores=(27_000, 27_000, 2_000, 52_000)), ron(2, 1, han=4, fu=40))
    assert state.scores[2] < 0 and state.busts and not state.finished


# ---- §西入 --------------------------------------------------------------------------------


def test_ecip_shanyuu_game_ends_after_south_4_when_the_top_has_33100() -> None:
    state = play(at(round_index=7, scores=(33_100, 25_000, 25_000, 24_900)), ron(2, 1))
    assert state.finished


def test_ecip_shanyuu_west_round_when_the_top_is_under_33100() -> None:
    state = play(at(round_index=7, scores=(33_000, 25_000, 25_000, 25_000)), ron(2, 1))
    assert not state.finished and state.round_label == "W1" and state.round_wind == "W"


def test_ecip_shanyuu_west_is_like_east_its_last_hand_passes_the_deal_too() -> None:
    w4 = at(round_index=11, scores=(40_000, 25_000, 22_000, 21_000))  # W4, player 3 deals
    assert play(w4, {"outcome": "draw", "tenpai": [0]}).finished  # a no-ten dealer ends it
    w1 = at(round_index=8, scores=(30_000, 26_000, 26_000, 26_000))
    assert play(w1, {"outcome": "draw", "tenpai": []}).round_label == "W2"


def test_ecip_shanyuu_north_round_after_west_when_still_under_33100() -> None:
    w4 = at(round_index=11, scores=(33_000, 25_000, 25_000, 25_000))
    state = play(w4, {"outcome": "draw", "tenpai": [1]})
    assert not state.finished and state.round_label == "N1"


def test_ecip_shanyuu_north_sudden_death_after_any_hand() -> None:
    n1 = at(round_index=12, scores=(32_000, 26_000, 25_000, 25_000))
    # the dealer (player 0) wins and keeps the deal, but now has 33,100 or more: the end
    state = play(n1, ron(1, 0, han=1, fu=30))
    assert state.scores[0] >= 33_100 and state.finished
    calm = play(n1, {"outcome": "draw", "tenpai": []})  # North is like South: dealer stays
    assert not calm.finished and calm.round_label == "N1"


def test_ecip_shanyuu_the_game_ends_after_north_4() -> None:
    n4 = at(round_index=15, scores=(30_000, 26_000, 26_000, 26_000))
    assert play(n4, ron(1, 2)).finished


# ---- §流局, §流局時の罰符 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tenpai", "deltas"),
    [
        ([0], [3_000, -1_000, -1_000, -1_000]),
        ([0, 1], [1_500, 1_500, -1_500, -1_500]),
        ([0, 1, 2], [1_000, 1_000, 1_000, -3_000]),
        ([], [0, 0, 0, 0]),
        ([0, 1, 2, 3], [0, 0, 0, 0]),
    ],
)
def test_ecip_bappu_noten_payments_3000_in_all(tenpai: list[int], deltas: list[int]) -> None:
    state = play(at(), {"outcome": "draw", "tenpai": tenpai})
    assert [s - 27_000 for s in state.scores] == deltas


def test_ecip_ryuukyoku_abortive_draw_keeps_the_deposits_and_adds_a_honba() -> None:
    state = play(at(), {"outcome": "abortive", "riichi": [0, 1, 2, 3]})  # 四家立直
    assert state.deposits == 4_000 and state.honba == 1
    assert state.round_label == "E2"  # East: the dealer passes [interp]
    south = play(at(round_index=4), {"outcome": "abortive"})
    assert south.round_label == "S1"


def test_ecip_ryuukyoku_three_rons_are_an_abortive_draw_not_a_ron() -> None:
    wins = [{"winner": w, "han": 1, "fu": 30} for w in (1, 2, 3)]
    with pytest.raises(InputError):
        play(at(), {"outcome": "ron", "discarder": 0, "wins": wins})


# ---- §二家和, §積み芝 ------------------------------------------------------------------------


def test_ecip_daburon_both_are_paid_honba_to_each() -> None:
    state = at(honba=2)
    wins = [{"winner": 2, "han": 2, "fu": 30}, {"winner": 3, "han": 1, "fu": 30}]
    after = play(state, {"outcome": "ron", "discarder": 1, "wins": wins})
    assert moved(after) == [(1, 2, 2_000 + 600, "ron"), (1, 3, 1_000 + 600, "ron")]


def test_ecip_tsumishiba_a_child_win_clears_the_honba() -> None:
    assert play(at(honba=3), ron(0, 2)).honba == 0


# ---- §供託受取 ----------------------------------------------------------------------------


def test_ecip_kyoutaku_a_closed_win_takes_the_deposits() -> None:
    state = play(at(deposits=2_000), ron(0, 2, win={"closed": True}))
    assert state.deposits == 0 and moved(state)[-1] == (None, 2, 2_000, "deposits")


def test_ecip_kyoutaku_an_open_win_leaves_them_on_the_table() -> None:
    state = play(at(deposits=2_000), ron(0, 2, win={"closed": False}, riichi=[1]))
    assert state.deposits == 3_000


def test_ecip_kyoutaku_a_win_must_say_closed_when_deposits_are_on_the_table() -> None:
    with pytest.raises(InputError) as e:
        play(at(deposits=1_000), ron(0, 2))
    assert e.value.code == "closed_needed"
    assert play(at(), ron(0, 2)).deposits == 0  # nothing on the table: no need to say


def test_ecip_kyoutaku_double_ron_first_from_the_discarder_if_closed() -> None:
    wins = [
        {"winner": 3, "han": 1, "fu": 30, "closed": True},
        {"winner": 2, "han": 1, "fu": 30, "closed": False},
    ]
    state = play(at(deposits=1_000), {"outcome": "ron", "discarder": 1, "wins": wins})
    assert state.deposits == 1_000  # player 2 comes first from 1, and is open


def last_hand(round_index: int = 7) -> GameState:
    """South 4 (or West 4) with the top far ahead: the game ends when the deal passes."""
    return at(round_index=round_index, scores=(45_000, 22_000, 20_000, 19_000), deposits=2_000)


def test_ecip_kyoutaku_last_hand_a_single_open_winner_takes_them() -> None:
    state = play(last_hand(), ron(0, 1, win={"closed": False}))
    assert state.finished and state.deposits == 0 and moved(state)[-1][1:3] == (1, 2_000)


def test_ecip_kyoutaku_last_hand_no_winner_the_top_takes_them() -> None:
    state = play(last_hand(round_index=11), {"outcome": "draw", "tenpai": [0]})  # West 4
    assert state.finished and moved(state)[-1][1:] == (0, 2_000, "deposits_to_top")


def test_ecip_kyoutaku_last_hand_two_winners_the_closed_one() -> None:
    wins = [
        {"winner": 1, "han": 1, "fu": 30, "closed": False},
        {"winner": 2, "han": 1, "fu": 30, "closed": True},
    ]
    state = play(last_hand(), {"outcome": "ron", "discarder": 0, "wins": wins})
    assert state.finished and state.scores[2] == 20_000 + 1_000 + 2_000


def test_ecip_kyoutaku_last_hand_two_open_winners_the_first_from_the_discarder() -> None:
    wins = [
        {"winner": 2, "han": 1, "fu": 30, "closed": False},
        {"winner": 1, "han": 1, "fu": 30, "closed": False},
    ]
    state = play(last_hand(), {"outcome": "ron", "discarder": 0, "wins": wins})
    assert state.finished and state.scores[1] == 22_000 + 1_000 + 2_000


def test_ecip_kyoutaku_a_last_hand_that_goes_on_keeps_the_usual_rule() -> None:
    close = at(round_index=7, scores=(30_000, 27_000, 25_000, 24_000), deposits=2_000)
    state = play(close, ron(0, 1, win={"closed": False}))
    assert not state.finished and state.deposits == 2_000  # 西入: the open winner leaves them


# ---- §包 ----------------------------------------------------------------------------------


def test_ecip_pao_a_fed_daisangen_tsumo_is_paid_by_the_feeder_alone() -> None:
    win = {"winner": 1, "limit": "yakuman", "pao": 3}
    state = play(at(honba=1), {"outcome": "tsumo", "wins": [win]})
    assert moved(state) == [(3, 1, 16_000 + 8_000 + 8_000 + 300, "pao")]


def test_ecip_pao_on_a_ron_the_discarder_pays() -> None:
    with pytest.raises(InputError) as e:
        play(at(), ron(0, 1, win={"pao": 3}))
    assert e.value.code == "bad_pao"


def test_ecip_pao_needs_a_yakuman() -> None:
    with pytest.raises(InputError) as e:
        play(at(), {"outcome": "tsumo", "wins": [{"winner": 1, "han": 3, "fu": 30, "pao": 2}]})
    assert e.value.code == "bad_pao"


# ---- §冲和 --------------------------------------------------------------------------------


def test_ecip_chombo_a_mangan_to_each_and_the_hand_is_a_draw() -> None:
    state = play(at(deposits=1_000), {"outcome": "chombo", "offenders": [2], "riichi": [1]})
    assert state.scores == (35_000, 26_000 + 8_000, 27_000 - 24_000, 35_000)
    assert state.deposits == 2_000  # the riichi stick stays: the hand is not rewound
    assert (state.round_label, state.honba) == ("E2", 1)


def test_ecip_chombo_by_the_dealer_is_12000_to_each() -> None:
    state = play(at(), {"outcome": "chombo", "offenders": [0]})
    assert state.scores == (27_000 - 36_000, 39_000, 39_000, 39_000)


def test_ecip_chombo_a_noten_riichi_at_the_draw() -> None:
    state = play(at(), {"outcome": "draw", "tenpai": [0], "riichi": [1], "noten_riichi": [1]})
    assert state.scores[1] == 27_000 - 1_000 - 24_000


# ---- §流し満貫 ----------------------------------------------------------------------------


def test_ecip_nagashi_mangan_paid_as_a_mangan_tsumo_and_counted_as_a_win() -> None:
    state = play(at(honba=1, deposits=1_000), {"outcome": "draw", "nagashi": [{"player": 2}]})
    assert moved(state) == [
        (3, 2, 2_100, "nagashi"),
        (0, 2, 4_100, "nagashi"),
        (1, 2, 2_100, "nagashi"),
    ]
    assert state.deposits == 1_000  # no deposits for a nagashi mangan
    assert (state.round_label, state.honba) == ("E2", 0)  # a child's win


# ---- what ECIP does not have --------------------------------------------------------------


def test_ecip_yaku_sentaachou_is_worth_baiman_given_by_name() -> None:
    # センター長, 倍満相当役: no han count reaches baiman under the mangan cap, the name does
    state = play(at(), ron(2, 1) | {"wins": [{"winner": 1, "limit": "baiman"}]})
    assert moved(state) == [(2, 1, 16_000, "ron")]
    dealer = play(at(), {"outcome": "tsumo", "wins": [{"winner": 0, "limit": "baiman"}]})
    assert dealer.scores[0] == 27_000 + 3 * 8_000


def test_ecip_no_manemann_and_limits_are_mangan_or_yakuman() -> None:
    with pytest.raises(InputError) as e:
        play(at(), ron(0, 1) | {"wins": [{"winner": 1, "limit": "haneman"}]})
    assert e.value.code == "bad_limit" and "mangan" in e.value.message
    assert play(at(), ron(0, 1, han=7)).scores[1] == 27_000 + 8_000  # tenpane cap


# ---- three players (§懸賞牌: "慣習的に三人打ちの場合のみ, 北を常時ドラと扱う") ------------------


@pytest.mark.parametrize("players", [None, ["Aki", "Ben", "Chie"], ["Aki", "Ben", "Chie", "Dai"]])
def test_ecip_three_players_is_scored_but_not_kept_the_seed_gives_no_three_player_table(players):
    """§懸賞牌 names three players only to make every north a dora; §持ち点 (27,000 / 30,000, +12
    to the top), §流局時の罰符 (3,000 from the no-ten) and §場の流れ are written for four. The
    keeper refuses ``ecip-3p`` with the reason rather than invent a three-player table."""
    with pytest.raises(InputError) as refused:
        rules = game_rules_from_json({"preset": "ecip-3p"})
        new_game(players, rules)
    assert refused.value.code == "preset_not_kept"
    message = str(refused.value)
    assert "three-player" in message and "'ecip'" in message and "'ecip-3p'" in message
    assert "Traceback" not in message and ".py" not in message


def test_ecip_three_players_stays_a_hand_preset():
    """The same name still scores a hand: a north held is a dora, not a kita (§懸賞牌)."""
    from sanma_lens.engine.rules import rules_from_json

    assert rules_from_json({"preset": "ecip-3p"}).preset == "ecip-3p"
