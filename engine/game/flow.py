"""Between hands: dealer continuation, rounds, honba and the end of the game (§6–§8, §R2)."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.engine.game.events import HandResult, Outcome
from sanma_lens.engine.game.state import GameState, HandRecord, YakumanPrize
from sanma_lens.engine.game.transfers import Ledger

#: the winds of the rounds of a hanchan (§6: East–South, no west round)
HANCHAN_ROUNDS = ("E", "S")


def next_hand(
    state: GameState, result: HandResult, winners: tuple[int, ...]
) -> tuple[int, int, bool]:
    """§7: the dealer continues on a dealer win; at a draw in the East round only if tenpai,
    in the South round always. Honba +1 on a continuation or a draw, else back to 0. The game
    ends when the S3 dealer gives up the deal (§6, §8: no agari-yame, no west round)."""
    dealer = state.dealer
    if result.outcome is Outcome.DRAW:
        in_south = state.round_wind != "E"
        renchan = in_south or dealer in result.tenpai
        honba = state.honba + 1
    else:
        renchan = dealer in winners
        honba = state.honba + 1 if renchan else 0
    if renchan:
        return state.round_index, honba, False
    if state.round_index == last_round(state.players):
        return state.round_index, honba, True
    return state.round_index + 1, honba, False


def last_round(players: int) -> int:
    """The index of the last hand of an East–South hanchan: S3, or S4 at four players (§6)."""
    return len(HANCHAN_ROUNDS) * players - 1


def finish_hand(
    state: GameState,
    result: HandResult,
    ledger: Ledger,
    prizes: list[YakumanPrize],
    round_index: int,
    honba: int,
    finished: bool,
) -> GameState:
    """Close the hand; at the end of the game the deposits left on the table go to the top
    player (§R2 for a chombo bust; the same at any other end **[interp]**)."""
    if finished and ledger.deposits:
        ledger.move(None, ledger.top_player(), ledger.deposits, "deposits_to_top")
    record = HandRecord(
        number=len(state.log) + 1,
        round=state.round_label,
        dealer=state.dealer,
        honba=state.honba,
        result=result,
        transfers=tuple(ledger.transfers),
        scores_after=tuple(ledger.scores),
        deposits_after=ledger.deposits,
        busts=tuple(ledger.busts),
    )
    return replace(
        state,
        scores=tuple(ledger.scores),
        deposits=ledger.deposits,
        round_index=round_index,
        honba=honba,
        finished=finished,
        busts=state.busts + tuple(ledger.busts),
        prizes=state.prizes + tuple(prizes),
        log=state.log + (record,),
    )
