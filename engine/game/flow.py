"""Between hands: dealer continuation, rounds, honba and the end of the game (§6–§8, §R2;
ECIP §場の流れ, §西入; standard §進行)."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.engine.game.deposits import leftover_receiver
from sanma_lens.engine.game.events import HandResult, Outcome
from sanma_lens.engine.game.state import GameState, HandRecord, YakumanPrize
from sanma_lens.engine.game.transfers import Ledger

#: rounds played like the South round at a draw (ECIP: North is like South, West like East)
SOUTH_LIKE = ("S", "N")
#: an extension goes on to the West and then the North round, no further (ECIP §西入 [interp])
LAST_EXTENSION_ROUND = 4


def next_hand(
    state: GameState, result: HandResult, winners: tuple[int, ...], scores: tuple[int, ...]
) -> tuple[int, int, bool]:
    """The hand after ``result`` (``scores``: the table after it): ``(round index, honba,
    finished)``.

    §7: the dealer continues on a dealer win; at a draw in the East round only if tenpai, in
    the South round always (``south_draw_keeps_dealer``; otherwise only if tenpai there too).
    An abortive draw and a chombo that is not rewound are draws with no one tenpai (ECIP).
    Honba +1 on a continuation or a draw, else back to 0. The game ends when the dealer of the
    last hand gives up the deal (§6, §8: no agari-yame) — unless ``extension_target`` sends it
    on into the West and then the North round (ECIP §西入), where it ends after any hand that
    leaves the top player with the target (sudden death), and after North 4 at the latest.
    """
    rules = state.rules
    dealer = state.dealer
    if not winners and result.outcome is not Outcome.RON and result.outcome is not Outcome.TSUMO:
        renchan = (
            state.round_wind in SOUTH_LIKE and rules.south_draw_keeps_dealer
        ) or dealer in result.tenpai
        honba = state.honba + 1
    else:
        renchan = dealer in winners
        honba = state.honba + 1 if renchan else 0
    target = rules.extension_target
    top = max(scores)
    if target and state.round_wind == "N" and top >= target:
        return state.round_index, honba, True  # sudden death in the North round
    if renchan:
        return state.round_index, honba, False
    following = state.round_index + 1
    if following % state.players:
        return following, honba, False
    rounds_done = following // state.players
    if rounds_done < rules.rounds_played:
        return following, honba, False
    if not target or top >= target or rounds_done >= LAST_EXTENSION_ROUND:
        return state.round_index, honba, True
    return following, honba, False


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
    player (§R2 for a chombo bust; the same at any other end **[interp]**), or under ECIP's
    last-hand rule to a winner of the last hand (:func:`leftover_receiver`)."""
    if finished and ledger.deposits:
        receiver = leftover_receiver(state, result, tuple(ledger.scores))
        reason = "deposits_to_top" if receiver == ledger.top_player() else "deposits"
        ledger.move(None, receiver, ledger.deposits, reason)
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
