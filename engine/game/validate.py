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


def _check_amount(amount: object, unit: int) -> int:
    """§11: every payment is a whole number of the table's unit (1,000 at sanma, 100 at four)."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0 or amount % unit:
        raise InputError(
            "bad_amount", f"a payment must be a positive multiple of {unit:,}: {amount!r}"
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
    rules = state.rules
    if result.manemann and not rules.manemann:
        raise InputError("bad_result", "manemann is not played under these rules")
    for m in result.manemann:
        _check_manemann(state, m)
    kind = result.outcome
    if kind is Outcome.ABORTIVE and not rules.abortive_draws:
        raise InputError("bad_outcome", "these rules have no abortive draw")
    if result.nagashi and rules.nagashi == "none":
        raise InputError("bad_result", "nagashi is not played under these rules")
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
    if kind in (Outcome.DRAW, Outcome.CHOMBO, Outcome.ABORTIVE) and (
        result.wins or result.discarder is not None
    ):
        raise InputError("bad_result", "wins and a discarder belong to a ron or a tsumo")
    if kind in (Outcome.RON, Outcome.TSUMO):
        _check_deposit_claims(state, result)


def _validate_ron(state: GameState, result: HandResult) -> None:
    if result.discarder is None:
        raise InputError("bad_ron", "a ron needs the discarder")
    discarder = check_player(result.discarder, "discarder", state.players)
    if not 1 <= len(result.wins) <= state.rules.max_ron_winners:
        if state.rules.max_ron_winners == 1:
            raise InputError(
                "bad_ron",
                "a ron has one winner here (head bump): the first from the discarder in turn",
            )
        raise InputError("bad_ron", "a ron has one winner, or two on a double ron (§14)")
    winners = check_distinct([w.winner for w in result.wins], "winner", state.players)
    if discarder in winners:
        raise InputError("bad_ron", "the discarder cannot ron their own discard")
    for win in result.wins:
        _check_multiple(win)
        if len(win.payments) != 1 or win.payments[0].payer != discarder:
            raise InputError("bad_ron", "a ron is paid by the discarder alone")
        _check_amount(win.payments[0].amount, state.rules.point_unit)
        if win.pao is not None:
            raise InputError(
                "bad_pao", "pao applies to a tsumo; on a ron the discarder pays (ECIP §包)"
            )


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
        _check_amount(p.amount, state.rules.point_unit)
    if win.pao is not None:
        if not state.rules.pao:
            raise InputError("bad_pao", "these rules have no pao")
        pao = check_player(win.pao, "pao", state.players)
        if pao == win.winner or win.yakuman_multiple < 1:
            raise InputError(
                "bad_pao",
                "pao names another player who fed the call fixing a daisangen or daisuushii, "
                "on a yakuman",
            )


def _check_deposit_claims(state: GameState, result: HandResult) -> None:
    """Where only a closed win takes the deposits (ECIP), each win of a hand with deposits on
    the table says whether it was closed."""
    if not state.rules.deposits_need_closed_win:
        return
    if state.deposits or result.riichi or result.mis_calls:
        for win in result.wins:
            if win.closed is None:
                raise InputError(
                    "closed_needed",
                    'say whether the winning hand was closed ("closed": true or false): '
                    "only a closed win takes the deposits",
                )


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
