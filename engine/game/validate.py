"""Refusing a hand result that cannot have happened at this table (InputError)."""

from __future__ import annotations

from collections.abc import Iterable

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.events import (
    MANEMANN_MIN_TURNS,
    MAX_TURNS,
    HandResult,
    Manemann,
    Outcome,
    Win,
)
from sanma_lens.engine.game.seats import others_in_settlement_order, turn_order_from
from sanma_lens.engine.game.state import GameState


def check_player(value: object, what: str, players: int) -> int:
    """A player number at a table of ``players`` (0 … players − 1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        numbers = ", ".join(str(p) for p in range(players - 1)) + f" or {players - 1}"
        raise InputError("bad_player", f"{what} must be a player number {numbers}, got {value!r}")
    return value


def check_distinct(players: Iterable[int], what: str, count: int) -> tuple[int, ...]:
    out = tuple(check_player(p, what, count) for p in players)
    if len(set(out)) != len(out):
        raise InputError("bad_player", f"{what} lists a player twice")
    return out


def _check_amount(amount: object) -> int:
    """§11: every payment is a whole number of 1,000s."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0 or amount % 1000:
        raise InputError(
            "bad_amount", f"a payment must be a positive multiple of 1,000: {amount!r}"
        )
    return amount


def validate(state: GameState, result: HandResult) -> None:
    """Refuse a hand result that cannot have happened at this table (InputError)."""
    if state.finished:
        raise InputError("game_over", "the game is over; no more hands can be recorded")
    n = state.players
    check_distinct(result.riichi, "riichi", n)
    for p in result.mis_calls:
        check_player(p, "mis_calls", n)
    if result.aka5man is not None:
        if not state.rules.aka_5man:
            raise InputError("aka5man_off", "this game is played without the aka-5-man option")
        check_player(result.aka5man, "aka5man", n)
    for m in result.manemann:
        _check_manemann(state, m)
    kind = result.outcome
    if kind is Outcome.RON:
        _validate_ron(state, result)
    elif kind is Outcome.TSUMO:
        _validate_tsumo(state, result)
    elif kind is Outcome.DRAW:
        check_distinct(result.tenpai, "tenpai", n)
        check_distinct([c.player for c in result.nagashi], "nagashi", n)
        check_distinct(result.noten_riichi, "noten_riichi", n)
        if set(result.noten_riichi) - set(result.riichi):
            raise InputError("bad_noten_riichi", "a no-ten riichi player must be in riichi")
    elif kind is Outcome.CHOMBO and not check_distinct(result.offenders, "offenders", n):
        raise InputError("bad_chombo", "a chombo needs the offending player")
    if kind is not Outcome.DRAW and (result.tenpai or result.nagashi or result.noten_riichi):
        raise InputError("bad_result", "tenpai, nagashi and noten_riichi belong to a draw")
    if kind is not Outcome.CHOMBO and result.offenders:
        raise InputError("bad_result", "offenders belong to a chombo")
    if kind in (Outcome.DRAW, Outcome.CHOMBO) and (result.wins or result.discarder is not None):
        raise InputError("bad_result", "wins and a discarder belong to a ron or a tsumo")


def _validate_ron(state: GameState, result: HandResult) -> None:
    if result.discarder is None:
        raise InputError("bad_ron", "a ron needs the discarder")
    discarder = check_player(result.discarder, "discarder", state.players)
    if not 1 <= len(result.wins) <= state.players - 1:
        raise InputError("bad_ron", "a ron has one winner, or two on a double ron (§14)")
    winners = check_distinct([w.winner for w in result.wins], "winner", state.players)
    if discarder in winners:
        raise InputError("bad_ron", "the discarder cannot ron their own discard")
    for win in result.wins:
        _check_multiple(win)
        if len(win.payments) != 1 or win.payments[0].payer != discarder:
            raise InputError("bad_ron", "a ron is paid by the discarder alone")
        _check_amount(win.payments[0].amount)


def _validate_tsumo(state: GameState, result: HandResult) -> None:
    if len(result.wins) != 1:
        raise InputError("bad_tsumo", "a tsumo has exactly one winner")
    if result.discarder is not None:
        raise InputError("bad_tsumo", "a tsumo has no discarder")
    win = result.wins[0]
    check_player(win.winner, "winner", state.players)
    _check_multiple(win)
    payers = sorted(p.payer for p in win.payments)
    if payers != sorted(others_in_settlement_order(win.winner, state.players)):
        raise InputError("bad_tsumo", "a tsumo is paid by each of the other players")
    for p in win.payments:
        _check_amount(p.amount)


def _check_multiple(win: Win) -> None:
    multiple = win.yakuman_multiple
    if isinstance(multiple, bool) or not isinstance(multiple, int) or not 0 <= multiple <= 40:
        raise InputError("bad_win", f"yakuman_multiple must be 0 or more, got {multiple!r}")


def _check_manemann(state: GameState, m: Manemann) -> None:
    check_player(m.copier, "manemann copier", state.players)
    check_player(m.copied, "manemann copied", state.players)
    turns = m.turns
    if (
        isinstance(turns, bool)
        or not isinstance(turns, int)
        or not MANEMANN_MIN_TURNS <= turns <= MAX_TURNS
    ):
        raise InputError(
            "bad_manemann", f"manemann turns must be from {MANEMANN_MIN_TURNS} to {MAX_TURNS}"
        )
    order = turn_order_from(state.dealer, state.players)
    if order.index(m.copied) >= order.index(m.copier):
        raise InputError(
            "bad_manemann", "manemann copies an upstream player (one who discards earlier)"
        )
