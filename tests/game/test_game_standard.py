"""The game keeper under the standard proposal (docs/rules/standard.md; seed 003), clause by
clause: points, tenpai renchan, no agari-yame, head bump, riichi, draws, chombo, settlement."""

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
from sanma_lens.engine.game.presets import STANDARD_GAME
from tests.game.helpers import table_total

NAMES = ["Aki", "Ben", "Chie", "Dai"]


def at(round_index: int = 0, honba: int = 0, scores=None, rules=STANDARD_GAME) -> GameState:
    state = new_game(NAMES, rules)
    return replace(
        state,
        round_index=round_index,
        honba=honba,
        scores=tuple(scores) if scores is not None else state.scores,
    )


def play(state: GameState, obj: dict[str, Any]) -> GameState:
    after = apply(state, resolve_hand(state, obj))
    assert table_total(after) == table_total(state)
    return after


def ron(discarder: int, winner: int, han: int = 1, fu: int = 30) -> dict[str, Any]:
    return {
        "outcome": "ron",
        "discarder": discarder,
        "wins": [{"winner": winner, "han": han, "fu": fu}],
    }


def test_standard_genten_25000_each_30000_return_oka_20_interp() -> None:
    state = new_game(NAMES, game_rules_from_json({"preset": "standard"}))
    assert state.players == 4 and state.scores == (25_000,) * 4
    assert state.rules.oka == 20 and state.rules.uma == 0


# ---- §進行 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("round_index", [0, 4])
def test_standard_shinkou_tenpai_renchan_in_every_round(round_index: int) -> None:
    kept = play(at(round_index), {"outcome": "draw", "tenpai": [round_index % 4]})
    assert kept.round_index == round_index and kept.honba == 1
    passed = play(at(round_index), {"outcome": "draw", "tenpai": [1, 2]})
    assert passed.round_index == round_index + 1 and passed.honba == 1


def test_standard_shinkou_no_agari_yame_in_the_last_hand() -> None:
    s4 = at(7, scores=(20_000, 25_000, 25_000, 30_000))  # player 3 deals S4 and leads
    state = play(s4, ron(0, 3, han=2))
    assert not state.finished and (state.round_label, state.honba) == ("S4", 1)
    assert play(s4, ron(3, 1)).finished  # the deal leaves S4: the end


def test_standard_shinkou_head_bump_one_winner_per_discard() -> None:
    wins = [{"winner": 1, "han": 1, "fu": 30}, {"winner": 2, "han": 1, "fu": 30}]
    with pytest.raises(InputError) as e:
        play(at(), {"outcome": "ron", "discarder": 0, "wins": wins})
    assert e.value.code == "bad_ron" and "head bump" in e.value.message


def test_standard_kihon_east_only_game_as_an_option() -> None:
    rules = game_rules_from_json({"preset": "standard", "rounds_played": 1})
    state = play(at(3, rules=rules), ron(3, 0))
    assert state.finished


# ---- §立直 ----------------------------------------------------------------------------------


def test_standard_riichi_sticks_go_to_any_winner_open_or_not() -> None:
    state = play(at(), {**ron(2, 1), "riichi": [0]})
    assert state.deposits == 0 and state.scores[1] == 25_000 + 1_000 + 1_000


def test_standard_riichi_no_ten_riichi_is_no_chombo_only_no_ten() -> None:
    state = play(at(), {"outcome": "draw", "tenpai": [1], "riichi": [2], "noten_riichi": [2]})
    assert state.scores == (24_000, 28_000, 25_000 - 1_000 - 1_000, 24_000)
    assert state.deposits == 1_000


# ---- §流局 ----------------------------------------------------------------------------------


def test_standard_ryuukyoku_no_abortive_draw() -> None:
    with pytest.raises(InputError) as e:
        play(at(), {"outcome": "abortive"})
    assert e.value.code == "bad_outcome"


def test_standard_ryuukyoku_no_nagashi_mangan() -> None:
    with pytest.raises(InputError):
        play(at(), {"outcome": "draw", "nagashi": [{"player": 1}]})


def test_standard_ryuukyoku_noten_payments_3000_in_all() -> None:
    state = play(at(), {"outcome": "draw", "tenpai": [0, 3]})
    assert state.scores == (26_500, 23_500, 23_500, 26_500)


# ---- §副露と槓: no pao ------------------------------------------------------------------------


def test_standard_furo_no_pao() -> None:
    with pytest.raises(InputError) as e:
        play(at(), {"outcome": "tsumo", "wins": [{"winner": 1, "limit": "yakuman", "pao": 2}]})
    assert e.value.code == "bad_pao"


# ---- §点数計算 in the game --------------------------------------------------------------------


def test_standard_tensuu_counted_13_han_is_sanbaiman_yakuman_is_one() -> None:
    assert play(at(), ron(0, 1, han=13)).scores[1] == 25_000 + 24_000
    state = play(
        at(),
        {
            "outcome": "ron",
            "discarder": 0,
            "wins": [{"winner": 1, "limit": "yakuman", "yakuman_multiple": 2}],
        },
    )
    assert state.scores[1] == 25_000 + 32_000


# ---- the table's own choices [interp] ---------------------------------------------------------


def test_standard_interp_a_bust_ends_the_game() -> None:
    state = play(at(scores=(25_000, 25_000, 5_000, 45_000)), ron(2, 1, han=4, fu=40))
    assert state.finished and state.busts


def test_standard_interp_chombo_rewinds_and_pays_a_mangan_as_a_tsumo() -> None:
    state = play(at(), {"outcome": "chombo", "offenders": [2], "riichi": [1]})
    assert state.scores == (29_000, 27_000, 17_000, 27_000)
    assert state.deposits == 0 and (state.round_label, state.honba) == ("E1", 0)


def test_standard_interp_settlement_rounded_toward_the_origin_top_balances() -> None:
    state = replace(at(), scores=(41_300, 28_700, 20_600, 9_400), finished=True)
    rows = {r.player: r for r in settle(state)}
    assert (rows[1].total, rows[2].total, rows[3].total) == (-1, -9, -20)
    assert rows[0].oka == 20 and rows[0].total == 30 and sum(r.total for r in rows.values()) == 0
