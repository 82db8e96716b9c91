"""Who takes the deposits (供託: riichi sticks and mis-call penalties) when a hand ends, and
when the game ends with some still on the table (docs/rules.md §14.1, §R2; ECIP §供託受取)."""

from __future__ import annotations

from sanma_lens.engine.game.events import HandResult, Outcome, Win
from sanma_lens.engine.game.seats import ranking, turn_order_from
from sanma_lens.engine.game.state import GameState


def takes_deposits(state: GameState, win: Win) -> bool:
    """Whether this win (a tsumo, or the first ron from the discarder) takes the deposits:
    always, or under ``deposits_need_closed_win`` (ECIP) only a closed one."""
    return not state.rules.deposits_need_closed_win or bool(win.closed)


def leftover_receiver(state: GameState, result: HandResult, scores: tuple[int, ...]) -> int:
    """Who takes the deposits still on the table when the game ends after ``result``.

    ``last_hand_deposits == "top"``: the top player (§R2 for a chombo bust; the same at any
    other end **[interp]**). ``"winners"`` (ECIP §供託受取, the last hand): the single winner,
    open or not; with two winners the closed one if only one is, else the first from the
    discarder; with no winner the top player.
    """
    top = ranking(scores)[0]
    wins = result.wins if result.outcome in (Outcome.RON, Outcome.TSUMO) else ()
    if state.rules.last_hand_deposits == "top" or not wins:
        return top
    if len(wins) == 1:
        return wins[0].winner
    closed = [w.winner for w in wins if w.closed]
    if len(closed) == 1:
        return closed[0]
    start = result.discarder if result.discarder is not None else state.dealer
    order = turn_order_from(start, state.players)
    return min((w.winner for w in wins), key=order.index)
