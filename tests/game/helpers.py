"""Small builders for hand results with explicit amounts (the fold never computes hand values)."""

from __future__ import annotations

from sanma_lens.engine.game import (
    GameState,
    HandResult,
    Manemann,
    Nagashi,
    Outcome,
    Payment,
    Win,
    others_in_settlement_order,
)


def ron(
    discarder: int,
    *wins: tuple[int, int],
    riichi: tuple[int, ...] = (),
    aka5man: int | None = None,
    yakuman: int = 0,
    manemann: tuple[Manemann, ...] = (),
) -> HandResult:
    """``ron(2, (0, 8000))``: player 0 rons player 2 for 8,000 (honba included)."""
    return HandResult(
        Outcome.RON,
        wins=tuple(
            Win(w, (Payment(discarder, amount),), yakuman_multiple=yakuman) for w, amount in wins
        ),
        discarder=discarder,
        riichi=riichi,
        aka5man=aka5man,
        manemann=manemann,
    )


def tsumo(
    state: GameState,
    winner: int,
    dealer_pays: int,
    child_pays: int,
    riichi: tuple[int, ...] = (),
    aka5man: int | None = None,
    yakuman: int = 0,
) -> HandResult:
    """A tsumo where the dealer pays ``dealer_pays`` and a child ``child_pays``."""
    payments = tuple(
        Payment(p, dealer_pays if p == state.dealer else child_pays)
        for p in others_in_settlement_order(winner, state.players)
    )
    return HandResult(
        Outcome.TSUMO,
        wins=(Win(winner, payments, yakuman_multiple=yakuman),),
        riichi=riichi,
        aka5man=aka5man,
    )


def draw(
    *tenpai: int,
    riichi: tuple[int, ...] = (),
    nagashi: tuple[Nagashi, ...] = (),
    noten_riichi: tuple[int, ...] = (),
    aka5man: int | None = None,
    manemann: tuple[Manemann, ...] = (),
) -> HandResult:
    return HandResult(
        Outcome.DRAW,
        tenpai=tenpai,
        riichi=riichi,
        nagashi=nagashi,
        noten_riichi=noten_riichi,
        aka5man=aka5man,
        manemann=manemann,
    )


def chombo(*offenders: int, riichi: tuple[int, ...] = (), aka5man: int | None = None) -> HandResult:
    return HandResult(Outcome.CHOMBO, offenders=offenders, riichi=riichi, aka5man=aka5man)


def table_total(state: GameState) -> int:
    return sum(state.scores) + state.deposits
