"""Keeping a whole hanchan as an event-sourced fold (RULES.md "Seats, rounds, flow", "Points",
"Ryuukyoku and nagashi", "End of game", "Chombo", "Aka-5-man option, payments").

A game is ``new_game(...)`` folded over recorded :class:`HandResult` events with :func:`apply`;
``replay`` does the fold in one go. Every point that moves is a :class:`Transfer` with a reason,
kept in the hand's :class:`HandRecord`, so the table's score can always be explained.

Players are numbered 0, 1, 2 in seat order from the first dealer (起家): player 0 deals E1 and S1,
player 1 deals E2 and S2, player 2 deals E3 and S3. Turn order is 0 → 1 → 2 → 0, so a player's
shimocha (the player to the right, §17) is ``(p + 1) % 3``.

Hand values are not computed here: a :class:`Win` carries each payer's amount (hand value and
honba, §11–§13), resolved once when the hand is recorded: :func:`resolve_hand` turns han/fu, a
limit name or a hand JSON (scored by ``engine.service.score_json``) into a ``Win`` with
``engine.points``, and the resolved event is what is stored and replayed. The fold itself only
needs ``engine.points`` for the nagashi yakuman and manemann amounts.

**[interp]** choices where the original is silent (fields of :class:`GameRules` or named in the
docstring of the function that applies them):

- a double ron pays the honba to each winner (``double_ron_honba="first"`` for the other way);
- riichi needs 1,000 points; riichi sticks and mis-call penalties are put up before the hand's
  other exchanges; a chombo rewinds them;
- nagashi yakuman is paid without honba, on top of the no-ten payments, and is no win for §A8;
  manemann is paid like a ron of its limit, without honba or yakuman prize;
- deposits still on the table when the game ends go to the top player (as §R2 says for a
  chombo bust);
- busting both others earns 10 points, 5 from each; a bust through a mis-call has no receiver;
- the §A8 doubling covers hand value and honba, not deposits, prizes or manemann.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine import points
from engine.errors import InputError
from engine.rules import Rules, rules_from_json

PLAYERS = 3
ROUND_LABELS = ("E1", "E2", "E3", "S1", "S2", "S3")
SEAT_WINDS = ("E", "S", "W")
LAST_ROUND = len(ROUND_LABELS) - 1
NOTEN_PAYMENT = 1_000  # RULES.md Ryuukyoku: each no-ten player pays 1,000 to each tenpai player
MIS_CALL_PENALTY = 1_000  # §R3: mis-pon / mis-chi puts 1,000 into the deposits
BUST_LEVEL = 30_000  # §16.3: one more bust level for every started 30,000 below zero
MANEMANN_MIN_TURNS = 5  # §34.1: 5, 7, 9, … turns copied → mangan, haneman, baiman, …
MAX_TURNS = 40  # more discards than any hand can have


class Outcome(StrEnum):
    """How a hand ended."""

    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"  # exhaustive draw (流局), with tenpai, nagashi, no-ten riichi
    CHOMBO = "chombo"  # false win or other 錯和: rewind, mangan payment, replay (§R1)


@dataclass(frozen=True)
class GameRules:
    """Options of the game keeper (RULES.md; defaults are sanma-1.3).

    - ``aka_5man``: the 赤五萬 option (§A); enables the aka-5-man payments of §A8.
    - ``double_ron_honba``: ``"each"`` — every ron of a double ron adds the honba (§12 reads
      "on a ron, +1,000 per stick" and §14.1 singles out only the deposits) **[interp]**;
      ``"first"`` — only the first winner in turn order gets the honba.
    - ``riichi_min_points``: a player needs this many points to declare riichi **[interp]**
      (the common rule; the seed is silent).
    """

    aka_5man: bool = False
    start_points: int = 30_000  # §9
    return_points: int = 40_000  # §9 (丘)
    uma: int = 10  # §10: 10 points from 3rd to 1st
    bust_prize: int = 10  # §16: per level
    double_bust_bonus: int = 10  # §16.2
    yakuman_prize_tsumo: int = 10  # §32: from each other player
    yakuman_prize_ron: int = 20  # §32: from the discarder
    double_ron_honba: str = "each"
    riichi_min_points: int = 1_000

    def __post_init__(self) -> None:
        if self.double_ron_honba not in ("each", "first"):
            raise InputError("bad_rules", "double_ron_honba must be 'each' or 'first'")
        if self.start_points <= 0 or self.start_points % 1000:
            raise InputError("bad_rules", "start_points must be a positive multiple of 1,000")
        if self.return_points < self.start_points or self.return_points % 1000:
            raise InputError(
                "bad_rules", "return_points must be a multiple of 1,000, at least start_points"
            )

    @property
    def hand_rules(self) -> Rules:
        """The engine's rule value used for every amount (points, deposits, chombo payments)."""
        return rules_from_json({"aka_5man": self.aka_5man})

    @property
    def total_points(self) -> int:
        """Points on the table (scores + deposits) at every moment: 90,000 by default."""
        return PLAYERS * self.start_points

    @property
    def oka(self) -> int:
        """Oka in final points (§9): (return − start) × 3 / 1,000, all to first place."""
        return PLAYERS * (self.return_points - self.start_points) // 1000


@dataclass(frozen=True)
class Payment:
    """``payer`` owes ``amount`` (hand value + honba, before the §A8 doubling) to the winner."""

    payer: int
    amount: int


@dataclass(frozen=True)
class Win:
    """One winner's agari, resolved into amounts.

    ``payments``: ron — one entry, the discarder; tsumo — one entry per other player.
    ``yakuman_multiple`` ≥ 1 for any yakuman (counted ones included) earns the §32 prize.
    ``han``/``fu``/``limit``/``yaku`` are kept for the hand log only.
    """

    winner: int
    payments: tuple[Payment, ...]
    yakuman_multiple: int = 0
    han: int | None = None
    fu: int | None = None
    limit: str | None = None
    yaku: tuple[str, ...] = ()


@dataclass(frozen=True)
class Nagashi:
    """Nagashi yakuman at an exhaustive draw (§29–§31); by a double-riichi player double."""

    player: int
    double_riichi: bool = False


@dataclass(frozen=True)
class Manemann:
    """真似満 (§34): ``copier`` copied the upstream ``copied`` player's discards for ``turns``."""

    copier: int
    copied: int
    turns: int


@dataclass(frozen=True)
class HandResult:
    """What happened in one hand (one recorded event).

    - ron: ``discarder`` and one or two ``wins``; tsumo: one ``win``.
    - draw: ``tenpai`` players, ``nagashi`` claims, ``noten_riichi`` players (a no-ten riichi
      shown at the draw is a chombo, §18.1: the hand is then settled as a chombo by them).
    - chombo: ``offenders`` (usually one).
    - any hand: ``riichi`` (players who put up a 1,000 deposit this hand), ``mis_calls`` (each
      puts 1,000 into the deposits, §R3), ``manemann``, ``aka5man`` (the player who extracted
      the aka-5-man, §A8; needs the aka_5man option).
    """

    outcome: Outcome
    wins: tuple[Win, ...] = ()
    discarder: int | None = None
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[Nagashi, ...] = ()
    noten_riichi: tuple[int, ...] = ()
    offenders: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()
    mis_calls: tuple[int, ...] = ()
    manemann: tuple[Manemann, ...] = ()
    aka5man: int | None = None


@dataclass(frozen=True)
class Transfer:
    """Points moved: ``payer`` → ``receiver``; ``None`` is the table (the deposits)."""

    payer: int | None
    receiver: int | None
    amount: int
    reason: str


@dataclass(frozen=True)
class BustEvent:
    """``player`` went below zero (§15.1); ``by`` received the payment that did it (§16.1)."""

    player: int
    by: int | None


@dataclass(frozen=True)
class YakumanPrize:
    """A §32 prize in final points: each of ``payers`` pays ``points`` to ``winner``."""

    winner: int
    payers: tuple[int, ...]
    points: int
    reason: str


@dataclass(frozen=True)
class HandRecord:
    """One applied event: where it happened, what moved, and the table afterwards."""

    number: int
    round: str
    dealer: int
    honba: int
    result: HandResult
    transfers: tuple[Transfer, ...]
    scores_after: tuple[int, ...]
    deposits_after: int
    busts: tuple[BustEvent, ...] = ()


@dataclass(frozen=True)
class GameState:
    """The table between hands. Invariant: ``sum(scores) + deposits == rules.total_points``."""

    rules: GameRules
    names: tuple[str, ...]
    scores: tuple[int, ...]
    round_index: int = 0
    honba: int = 0
    deposits: int = 0
    finished: bool = False
    busts: tuple[BustEvent, ...] = ()
    prizes: tuple[YakumanPrize, ...] = ()
    log: tuple[HandRecord, ...] = field(default=())

    @property
    def dealer(self) -> int:
        """E1/S1 player 0, E2/S2 player 1, E3/S3 player 2 (§4, §6)."""
        return self.round_index % PLAYERS

    @property
    def round_label(self) -> str:
        return ROUND_LABELS[self.round_index]

    @property
    def round_wind(self) -> str:
        return "E" if self.round_index < PLAYERS else "S"

    def seat_wind(self, player: int) -> str:
        """Seat wind this hand: the dealer is East, then South, then West (§4)."""
        return SEAT_WINDS[(player - self.dealer) % PLAYERS]

    def is_dealer(self, player: int) -> bool:
        return player == self.dealer


def new_game(names: Iterable[str] | None = None, rules: GameRules | None = None) -> GameState:
    """A fresh hanchan: E1, no honba, no deposits, everyone at the start points (§9)."""
    rules = rules or GameRules()
    name_list = list(names) if names is not None else []
    if len(name_list) not in (0, PLAYERS):
        raise InputError("bad_players", f"give {PLAYERS} player names or none")
    if not name_list:
        name_list = ["A", "B", "C"]
    name_list = [str(n).strip() or default for n, default in zip(name_list, "ABC", strict=True)]
    return GameState(rules=rules, names=tuple(name_list), scores=(rules.start_points,) * PLAYERS)


def turn_order_from(start: int) -> tuple[int, ...]:
    """Players in turn order beginning with ``start`` (0 → 1 → 2 → 0)."""
    return tuple((start + k) % PLAYERS for k in range(PLAYERS))


def others_in_settlement_order(player: int) -> tuple[int, int]:
    """§17: settle with your shimocha (next in turn order) first, then the next one."""
    return ((player + 1) % PLAYERS, (player + 2) % PLAYERS)


class _Ledger:
    """Mutable scratch pad for one hand's transfers; records busts as they happen (§15.1)."""

    def __init__(self, state: GameState) -> None:
        self.scores = list(state.scores)
        self.deposits = state.deposits
        self.transfers: list[Transfer] = []
        self.busts: list[BustEvent] = []
        self._busted = {b.player for b in state.busts}

    def move(self, payer: int | None, receiver: int | None, amount: int, reason: str) -> None:
        if amount <= 0:
            return
        if payer is None:
            self.deposits -= amount
        else:
            self.scores[payer] -= amount
        if receiver is None:
            self.deposits += amount
        else:
            self.scores[receiver] += amount
        self.transfers.append(Transfer(payer, receiver, amount, reason))
        if payer is not None and self.scores[payer] < 0 and payer not in self._busted:
            self._busted.add(payer)
            self.busts.append(BustEvent(payer, receiver))

    def mangan_payment(self, payer: int, dealer: int, rules: Rules, reason: str) -> None:
        """§R1.3 / §A8 満貫払い: child 4,000 to each other, dealer 6,000 to each, §17 order."""
        amounts = dict(points.chombo_amounts(payer == dealer, rules))
        for other in others_in_settlement_order(payer):
            self.move(payer, other, amounts["dealer" if other == dealer else "child"], reason)

    def top_player(self) -> int:
        """Highest score; ties go to the earlier seat from the first dealer [interp]."""
        return min(range(PLAYERS), key=lambda p: (-self.scores[p], p))


def _check_player(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < PLAYERS:
        raise InputError("bad_player", f"{what} must be a player number 0, 1 or 2, got {value!r}")
    return value


def _check_distinct(players: Iterable[int], what: str) -> tuple[int, ...]:
    out = tuple(_check_player(p, what) for p in players)
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
    _check_distinct(result.riichi, "riichi")
    for p in result.mis_calls:
        _check_player(p, "mis_calls")
    if result.aka5man is not None:
        if not state.rules.aka_5man:
            raise InputError("aka5man_off", "this game is played without the aka-5-man option")
        _check_player(result.aka5man, "aka5man")
    for m in result.manemann:
        _check_manemann(state, m)
    kind = result.outcome
    if kind is Outcome.RON:
        _validate_ron(state, result)
    elif kind is Outcome.TSUMO:
        _validate_tsumo(result)
    elif kind is Outcome.DRAW:
        _check_distinct(result.tenpai, "tenpai")
        _check_distinct([n.player for n in result.nagashi], "nagashi")
        _check_distinct(result.noten_riichi, "noten_riichi")
        if set(result.noten_riichi) - set(result.riichi):
            raise InputError("bad_noten_riichi", "a no-ten riichi player must be in riichi")
    elif kind is Outcome.CHOMBO and not _check_distinct(result.offenders, "offenders"):
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
    discarder = _check_player(result.discarder, "discarder")
    if not 1 <= len(result.wins) <= PLAYERS - 1:
        raise InputError("bad_ron", "a ron has one winner, or two on a double ron (§14)")
    winners = _check_distinct([w.winner for w in result.wins], "winner")
    if discarder in winners:
        raise InputError("bad_ron", "the discarder cannot ron their own discard")
    for win in result.wins:
        _check_multiple(win)
        if len(win.payments) != 1 or win.payments[0].payer != discarder:
            raise InputError("bad_ron", "a ron is paid by the discarder alone")
        _check_amount(win.payments[0].amount)


def _validate_tsumo(result: HandResult) -> None:
    if len(result.wins) != 1:
        raise InputError("bad_tsumo", "a tsumo has exactly one winner")
    if result.discarder is not None:
        raise InputError("bad_tsumo", "a tsumo has no discarder")
    win = result.wins[0]
    _check_player(win.winner, "winner")
    _check_multiple(win)
    payers = sorted(p.payer for p in win.payments)
    if payers != sorted(others_in_settlement_order(win.winner)):
        raise InputError("bad_tsumo", "a tsumo is paid by each of the two other players")
    for p in win.payments:
        _check_amount(p.amount)


def _check_multiple(win: Win) -> None:
    multiple = win.yakuman_multiple
    if isinstance(multiple, bool) or not isinstance(multiple, int) or not 0 <= multiple <= 40:
        raise InputError("bad_win", f"yakuman_multiple must be 0 or more, got {multiple!r}")


def _check_manemann(state: GameState, m: Manemann) -> None:
    _check_player(m.copier, "manemann copier")
    _check_player(m.copied, "manemann copied")
    turns = m.turns
    if (
        isinstance(turns, bool)
        or not isinstance(turns, int)
        or not MANEMANN_MIN_TURNS <= turns <= MAX_TURNS
    ):
        raise InputError(
            "bad_manemann", f"manemann turns must be from {MANEMANN_MIN_TURNS} to {MAX_TURNS}"
        )
    order = turn_order_from(state.dealer)
    if order.index(m.copied) >= order.index(m.copier):
        raise InputError(
            "bad_manemann", "manemann copies an upstream player (one who discards earlier)"
        )


def apply(state: GameState, result: HandResult) -> GameState:
    """Fold one hand result into the table (the event-sourcing step; pure)."""
    validate(state, result)
    if result.outcome is Outcome.CHOMBO or result.noten_riichi:
        return _apply_chombo(state, result)
    ledger = _Ledger(state)
    _put_up_deposits(state, result, ledger)
    prizes: list[YakumanPrize] = []
    winners: tuple[int, ...] = ()
    if result.outcome is Outcome.RON:
        winners = _settle_ron(state, result, ledger, prizes)
    elif result.outcome is Outcome.TSUMO:
        winners = _settle_tsumo(state, result, ledger, prizes)
    else:
        _settle_draw(state, result, ledger, prizes)
    _settle_manemann(state, result, ledger)
    if result.aka5man is not None and result.aka5man not in winners:
        # §A8: after all other exchanges, a non-winner who extracted the aka-5-man pays mangan.
        ledger.mangan_payment(
            result.aka5man, state.dealer, state.rules.hand_rules, "aka5man_mangan"
        )
    round_index, honba, finished = _next_hand(state, result, winners)
    finished = finished or bool(ledger.busts)
    return _finish(state, result, ledger, prizes, round_index, honba, finished)


def _put_up_deposits(state: GameState, result: HandResult, ledger: _Ledger) -> None:
    """Riichi deposits (1,000 each [interp]) and §R3 mis-call penalties go to the table."""
    for p in turn_order_from(state.dealer):
        if p in result.riichi:
            if ledger.scores[p] < state.rules.riichi_min_points:
                raise InputError(
                    "riichi_without_points",
                    f"{state.names[p]} has {ledger.scores[p]} points, fewer than the "
                    f"{state.rules.riichi_min_points} needed to declare riichi",
                )
            ledger.move(p, None, state.rules.hand_rules.riichi_deposit, "riichi")
    for p in result.mis_calls:
        ledger.move(p, None, MIS_CALL_PENALTY, "mis_call")


def _received(win: Win, payment: Payment, result: HandResult, rules: Rules) -> int:
    """§A8: a winner who extracted the aka-5-man receives every amount doubled (honba too)."""
    if result.aka5man != win.winner:
        return payment.amount
    return payment.amount * rules.aka5man_payment_multiplier


def _settle_ron(
    state: GameState, result: HandResult, ledger: _Ledger, prizes: list[YakumanPrize]
) -> tuple[int, ...]:
    """§14: winners one by one in turn order from the discarder's shimocha; deposits to the
    first winner (§14.1); §32 ron prize 20 × multiple from the discarder."""
    assert result.discarder is not None
    order = turn_order_from(result.discarder)
    wins = sorted(result.wins, key=lambda w: order.index(w.winner))
    for n, win in enumerate(wins):
        amount = _received(win, win.payments[0], result, state.rules.hand_rules)
        ledger.move(result.discarder, win.winner, amount, "ron")
        if n == 0:
            ledger.move(None, win.winner, ledger.deposits, "deposits")
        if win.yakuman_multiple > 0:
            prize = state.rules.yakuman_prize_ron * win.yakuman_multiple
            prizes.append(YakumanPrize(win.winner, (result.discarder,), prize, "yakuman_ron"))
    return tuple(w.winner for w in wins)


def _settle_tsumo(
    state: GameState, result: HandResult, ledger: _Ledger, prizes: list[YakumanPrize]
) -> tuple[int, ...]:
    """§13, §17: the winner collects from the shimocha first, then the next; then deposits."""
    win = result.wins[0]
    by_payer = {p.payer: p for p in win.payments}
    for payer in others_in_settlement_order(win.winner):
        amount = _received(win, by_payer[payer], result, state.rules.hand_rules)
        ledger.move(payer, win.winner, amount, "tsumo")
    ledger.move(None, win.winner, ledger.deposits, "deposits")
    if win.yakuman_multiple > 0:
        prize = state.rules.yakuman_prize_tsumo * win.yakuman_multiple
        payers = others_in_settlement_order(win.winner)
        prizes.append(YakumanPrize(win.winner, payers, prize, "yakuman_tsumo"))
    return (win.winner,)


def _settle_draw(
    state: GameState, result: HandResult, ledger: _Ledger, prizes: list[YakumanPrize]
) -> None:
    """Exhaustive draw: no-ten payments (§17 order), then nagashi yakuman claims.

    No-ten: each no-ten player pays 1,000 to each tenpai player [interp]. With one tenpai player
    they collect from their shimocha first; with two, the no-ten player pays their shimocha first.
    Nagashi yakuman (§29–§31) is paid as a yakuman tsumo (double yakuman after double riichi)
    without honba — it is not a win, and the honba stays for the next hand **[interp]**;
    several claims are settled in turn order from the dealer **[interp]**; deposits stay.
    """
    tenpai = set(result.tenpai)
    if len(tenpai) == 1:
        (t,) = tenpai
        for other in others_in_settlement_order(t):
            ledger.move(other, t, NOTEN_PAYMENT, "noten")
    elif len(tenpai) == PLAYERS - 1:
        (n,) = set(range(PLAYERS)) - tenpai
        for other in others_in_settlement_order(n):
            ledger.move(n, other, NOTEN_PAYMENT, "noten")
    order = turn_order_from(state.dealer)
    for claim in sorted(result.nagashi, key=lambda c: order.index(c.player)):
        multiple = 2 if claim.double_riichi else 1
        amounts = _yakuman_tsumo_amounts(state, claim.player, multiple)
        for payer in others_in_settlement_order(claim.player):
            ledger.move(payer, claim.player, amounts[payer], "nagashi")
        payers = others_in_settlement_order(claim.player)
        prizes.append(
            YakumanPrize(
                claim.player, payers, state.rules.yakuman_prize_tsumo * multiple, "nagashi"
            )
        )


def _yakuman_tsumo_amounts(state: GameState, winner: int, multiple: int) -> dict[int, int]:
    """Each payer's share of a yakuman tsumo (§13, §33) without honba, from engine.points."""
    rules = state.rules.hand_rules
    base, _, _ = points.hand_base(
        rules.yakuman_han + rules.yakuman_step_han * (multiple - 1), 30, rules
    )
    shares = dict(points.tsumo_amounts(base, winner == state.dealer, 0, rules))
    return {
        payer: shares["dealer" if payer == state.dealer else "child"]
        for payer in others_in_settlement_order(winner)
    }


def manemann_limit_han(turns: int, rules: Rules) -> int:
    """§34.1: 5/7/9/11/13/… turns → mangan/haneman/baiman/sanbaiman/yakuman/…, as the
    smallest han of that limit (§33); every 2 more turns one more yakuman multiple."""
    steps = (turns - MANEMANN_MIN_TURNS) // 2
    table = tuple(step.min_han for step in rules.limits) + (rules.yakuman_han,)
    if steps < len(table):
        return table[steps]
    return rules.yakuman_han + rules.yakuman_step_han * (steps - len(table) + 1)


def _settle_manemann(state: GameState, result: HandResult, ledger: _Ledger) -> None:
    """§34: the copier receives the limit's value from the copied player at the end of the hand,
    as a ron of that limit by the copier (dealer 6 × base) without honba **[interp]**; no §32
    prize **[interp]**. Settled in turn order of the copiers from the dealer."""
    rules = state.rules.hand_rules
    order = turn_order_from(state.dealer)
    for m in sorted(result.manemann, key=lambda m: (order.index(m.copier), order.index(m.copied))):
        base, _, _ = points.hand_base(manemann_limit_han(m.turns, rules), 30, rules)
        amount = points.ron_amount(base, m.copier == state.dealer, 0, rules)
        ledger.move(m.copied, m.copier, amount, "manemann")


def _next_hand(
    state: GameState, result: HandResult, winners: tuple[int, ...]
) -> tuple[int, int, bool]:
    """§7: the dealer continues on a dealer win; at a draw in the East round only if tenpai,
    in the South round always. Honba +1 on a continuation or a draw, else back to 0. The game
    ends when the S3 dealer gives up the deal (§6, §8: no agari-yame, no west round)."""
    dealer = state.dealer
    if result.outcome is Outcome.DRAW:
        in_south = state.round_index >= PLAYERS
        renchan = in_south or dealer in result.tenpai
        honba = state.honba + 1
    else:
        renchan = dealer in winners
        honba = state.honba + 1 if renchan else 0
    if renchan:
        return state.round_index, honba, False
    if state.round_index == LAST_ROUND:
        return state.round_index, honba, True
    return state.round_index + 1, honba, False


def _apply_chombo(state: GameState, result: HandResult) -> GameState:
    """§R1: rewind the hand to its start (this hand's riichi sticks, mis-call penalties and every
    other exchange undone), each offender makes a mangan payment in §17 order (offenders in turn
    order from the dealer), the same hand is replayed with the same honba. §R2: if that busts
    anyone the game ends and the deposits go to the top player. No §A8 payment (§A8.2)."""
    ledger = _Ledger(state)
    offenders = result.offenders or result.noten_riichi
    order = turn_order_from(state.dealer)
    for p in sorted(offenders, key=order.index):
        ledger.mangan_payment(p, state.dealer, state.rules.hand_rules, "chombo")
    finished = bool(ledger.busts)
    return _finish(state, result, ledger, [], state.round_index, state.honba, finished)


def _finish(
    state: GameState,
    result: HandResult,
    ledger: _Ledger,
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


def replay(
    results: Iterable[HandResult],
    names: Iterable[str] | None = None,
    rules: GameRules | None = None,
) -> GameState:
    """State = fold of the events: ``apply`` each recorded hand to a new game, in order."""
    state = new_game(names, rules)
    for result in results:
        state = apply(state, result)
    return state


# ---------------------------------------------------------------- final settlement (§9–§16, §32)


@dataclass(frozen=True)
class PlayerSettlement:
    """One player's final points, broken down (all in points of 1,000)."""

    player: int
    name: str
    rank: int
    score: int
    base: int  # (score − return points) / 1,000
    oka: int
    uma: int
    bust: int  # bust prizes and the double-bust bonus, paid (−) or received (+)
    bust_levels: int
    yakuman: int  # §32 prizes, paid (−) or received (+)
    total: int


def bust_levels(score: int) -> int:
    """§16.3: one level for each started 30,000 below zero (−1,000 → 1, −31,000 → 2); a player
    who went below zero during a hand but ended it at 0 or more still busted once (§15.1)."""
    return max(1, math.ceil(-score / BUST_LEVEL)) if score < 0 else 1


def ranking(scores: tuple[int, ...]) -> tuple[int, ...]:
    """Players from first to last; ties by seat order from the first dealer [interp]."""
    return tuple(sorted(range(PLAYERS), key=lambda p: (-scores[p], p)))


def settle(state: GameState) -> tuple[PlayerSettlement, ...]:
    """Final settlement in points (§9, §10, §16, §32), by player number.

    (score − 40,000)/1,000, oka to first, uma +10 to first / −10 to third; each busted player
    pays 10 × levels to whoever busted them (no prize when the table took them below zero
    through a mis-call [interp]); busting both others in one hand earns 10 more, 5 from each
    of them **[interp]**; yakuman prizes as recorded. The points sum to zero.
    """
    if not state.finished:
        raise InputError("game_not_over", "the game is not over yet")
    rules = state.rules
    order = ranking(state.scores)
    bust = [0] * PLAYERS
    levels = [0] * PLAYERS
    for b in state.busts:
        levels[b.player] = bust_levels(state.scores[b.player])
        if b.by is not None:
            owed = rules.bust_prize * levels[b.player]
            bust[b.player] -= owed
            bust[b.by] += owed
    for buster in range(PLAYERS):
        # The game ends with the hand of the first bust, so all busts happened "at once".
        victims = [b for b in state.busts if b.by == buster]
        if len(victims) == PLAYERS - 1:
            for b in victims:
                bust[b.player] -= rules.double_bust_bonus // 2
            bust[buster] += rules.double_bust_bonus // 2 * 2
    yakuman = [0] * PLAYERS
    for prize in state.prizes:
        for payer in prize.payers:
            yakuman[payer] -= prize.points
            yakuman[prize.winner] += prize.points
    out = []
    for p in range(PLAYERS):
        rank = order.index(p) + 1
        base = (state.scores[p] - rules.return_points) // 1000
        oka = rules.oka if rank == 1 else 0
        uma = rules.uma if rank == 1 else -rules.uma if rank == PLAYERS else 0
        total = base + oka + uma + bust[p] + yakuman[p]
        out.append(
            PlayerSettlement(
                p,
                state.names[p],
                rank,
                state.scores[p],
                base,
                oka,
                uma,
                bust[p],
                levels[p],
                yakuman[p],
                total,
            )
        )
    return tuple(out)


# ---------------------------------------------------------------- the stored event (JSON)


def result_to_json(result: HandResult) -> dict[str, Any]:
    """The stored form of a resolved hand result (the event), plain JSON types only."""
    return {
        "outcome": result.outcome.value,
        "discarder": result.discarder,
        "wins": [
            {
                "winner": w.winner,
                "payments": [{"payer": p.payer, "amount": p.amount} for p in w.payments],
                "yakuman_multiple": w.yakuman_multiple,
                "han": w.han,
                "fu": w.fu,
                "limit": w.limit,
                "yaku": list(w.yaku),
            }
            for w in result.wins
        ],
        "tenpai": list(result.tenpai),
        "nagashi": [{"player": n.player, "double_riichi": n.double_riichi} for n in result.nagashi],
        "noten_riichi": list(result.noten_riichi),
        "offenders": list(result.offenders),
        "riichi": list(result.riichi),
        "mis_calls": list(result.mis_calls),
        "manemann": [
            {"copier": m.copier, "copied": m.copied, "turns": m.turns} for m in result.manemann
        ],
        "aka5man": result.aka5man,
    }


def result_from_json(obj: Any) -> HandResult:
    """Read a stored event back (InputError ``bad_event`` on anything malformed)."""
    try:
        return HandResult(
            outcome=Outcome(obj["outcome"]),
            discarder=_opt_int(obj.get("discarder")),
            wins=tuple(
                Win(
                    winner=_int(w["winner"]),
                    payments=tuple(
                        Payment(_int(p["payer"]), _int(p["amount"])) for p in w["payments"]
                    ),
                    yakuman_multiple=_int(w.get("yakuman_multiple", 0)),
                    han=_opt_int(w.get("han")),
                    fu=_opt_int(w.get("fu")),
                    limit=w.get("limit"),
                    yaku=tuple(str(y) for y in w.get("yaku", ())),
                )
                for w in obj.get("wins", ())
            ),
            tenpai=_ints(obj.get("tenpai", ())),
            nagashi=tuple(
                Nagashi(_int(n["player"]), _bool(n.get("double_riichi", False)))
                for n in obj.get("nagashi", ())
            ),
            noten_riichi=_ints(obj.get("noten_riichi", ())),
            offenders=_ints(obj.get("offenders", ())),
            riichi=_ints(obj.get("riichi", ())),
            mis_calls=_ints(obj.get("mis_calls", ())),
            manemann=tuple(
                Manemann(_int(m["copier"]), _int(m["copied"]), _int(m["turns"]))
                for m in obj.get("manemann", ())
            ),
            aka5man=_opt_int(obj.get("aka5man")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError("bad_event", f"malformed hand event: {exc!r}") from exc


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _ints(values: Any) -> tuple[int, ...]:
    if not isinstance(values, list | tuple):
        raise TypeError(f"expected a list of integers, got {values!r}")
    return tuple(_int(v) for v in values)


# ---------------------------------------------------------------- resolving what the table says

LIMIT_NAMES = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
_RESULT_FIELDS = {
    "outcome",
    "discarder",
    "wins",
    "tenpai",
    "nagashi",
    "noten_riichi",
    "offenders",
    "riichi",
    "mis_calls",
    "manemann",
    "aka5man",
}
_WIN_FIELDS = {"winner", "han", "fu", "limit", "yakuman_multiple", "hand"}


def resolve_hand(state: GameState, obj: Any) -> HandResult:
    """Turn a hand result as entered at the table into the event to store (InputError if bad).

    Each win gives its value as ``han`` (+ ``fu`` below 5 han), a ``limit`` name (``yakuman``
    with an optional ``yakuman_multiple``) or a ``hand`` JSON (CONTRACT.md) that
    ``engine.service.score_json`` scores with this hand's seat, round and honba. Amounts come
    from ``engine.points`` / the score result; the returned event carries them, so replaying it
    never scores again. The result is validated against the table (:func:`validate`).
    """
    if not isinstance(obj, dict):
        raise InputError("bad_hand_result", "a hand result must be a JSON object")
    unknown = set(obj) - _RESULT_FIELDS
    if unknown:
        raise InputError("bad_hand_result", f"unknown field(s) {sorted(unknown)}")
    if obj.get("outcome") not in [o.value for o in Outcome]:
        raise InputError("bad_outcome", f"outcome must be one of {[o.value for o in Outcome]}")
    raw = dict(obj)
    wins_in = raw.pop("wins", [])
    if not isinstance(wins_in, list):
        raise InputError("bad_hand_result", "wins must be a list")
    base = result_from_json({**raw, "wins": []})
    if base.outcome in (Outcome.RON, Outcome.TSUMO) and not wins_in:
        raise InputError("bad_hand_result", f"a {base.outcome.value} needs its wins")
    if base.outcome not in (Outcome.RON, Outcome.TSUMO) and wins_in:
        raise InputError("bad_hand_result", "only a ron or a tsumo has wins")
    validate(state, base if not wins_in else _placeholder(base, wins_in))
    riichi = list(base.riichi)
    aka5man = base.aka5man
    wins: list[Win] = []
    order = turn_order_from(base.discarder if base.discarder is not None else 0)
    first = min((_win_player(w) for w in wins_in), key=order.index, default=None)
    for spec in wins_in:
        winner = _win_player(spec)
        honba = state.honba
        if state.rules.double_ron_honba == "first" and winner != first:
            honba = 0
        if "hand" in spec:
            win, riichi_declared, extracted_aka = _win_from_hand(
                state, base, spec, winner, honba, riichi
            )
            if riichi_declared and winner not in riichi:
                riichi.append(winner)
            if extracted_aka:
                if aka5man not in (None, winner):
                    raise InputError(
                        "aka5man_mismatch",
                        "the winner's hand shows an extracted aka-5-man but aka5man names "
                        "another player",
                    )
                aka5man = winner
            elif aka5man == winner:
                raise InputError(
                    "aka5man_mismatch", "aka5man names the winner but their hand has kita_aka 0"
                )
        else:
            win = _win_from_value(state, base, spec, winner, honba)
        wins.append(win)
    result = replace(base, wins=tuple(wins), riichi=tuple(riichi), aka5man=aka5man)
    validate(state, result)
    return result


def _placeholder(base: HandResult, wins_in: list[Any]) -> HandResult:
    """The result with dummy amounts, to validate players before anything is scored."""
    wins = []
    for spec in wins_in:
        winner = _win_player(spec)
        payers = (
            (base.discarder,)
            if base.outcome is Outcome.RON and base.discarder is not None
            else others_in_settlement_order(winner)
        )
        wins.append(Win(winner, tuple(Payment(p, 1000) for p in payers)))
    return replace(base, wins=tuple(wins))


def _win_player(spec: Any) -> int:
    if not isinstance(spec, dict):
        raise InputError("bad_win", "each win must be an object with a winner")
    unknown = set(spec) - _WIN_FIELDS
    if unknown:
        raise InputError("bad_win", f"unknown win field(s) {sorted(unknown)}")
    return _check_player(spec.get("winner"), "winner")


def _win_from_value(
    state: GameState, result: HandResult, spec: dict[str, Any], winner: int, honba: int
) -> Win:
    """han/fu or a limit name → amounts with engine.points (§11–§13, §33)."""
    rules = state.rules.hand_rules
    if "hand" in spec:
        raise InputError("bad_win", "give a win's value as han/fu, a limit or a hand, not two")
    if "limit" in spec:
        if "han" in spec or "fu" in spec:
            raise InputError("bad_win", "give either a limit or han/fu, not both")
        han = _limit_han(spec["limit"], spec.get("yakuman_multiple", 1), rules)
        fu = 30
    else:
        given_han: Any = spec.get("han")
        if (
            isinstance(given_han, bool)
            or not isinstance(given_han, int)
            or not 1 <= given_han <= 200
        ):
            raise InputError("bad_han", f"han must be an integer from 1 to 200, got {given_han!r}")
        han = given_han
        if "yakuman_multiple" in spec:
            raise InputError("bad_win", "yakuman_multiple goes with limit 'yakuman'")
        given_fu: Any = spec.get("fu")
        if given_fu is None and han >= 5:
            given_fu = 30
        if isinstance(given_fu, bool) or not isinstance(given_fu, int) or not _valid_fu(given_fu):
            raise InputError(
                "bad_fu", f"fu must be 20, 25 or a multiple of 10 up to 140, got {given_fu!r}"
            )
        fu = given_fu
    base, limit, multiple = points.hand_base(han, fu, rules)
    dealer = winner == state.dealer
    if result.outcome is Outcome.RON:
        assert result.discarder is not None
        payments: tuple[Payment, ...] = (
            Payment(result.discarder, points.ron_amount(base, dealer, honba, rules)),
        )
    else:
        shares = dict(points.tsumo_amounts(base, dealer, honba, rules))
        payments = tuple(
            Payment(p, shares["dealer" if p == state.dealer else "child"])
            for p in others_in_settlement_order(winner)
        )
    return Win(winner, payments, multiple, han, fu if han < 5 else None, limit)


def _valid_fu(fu: int) -> bool:
    return fu in (20, 25) or (fu % 10 == 0 and 30 <= fu <= 140)


def _limit_han(name: Any, multiple: Any, rules: Rules) -> int:
    """The smallest han of a limit (§33): mangan 5 … sanbaiman 11, yakuman 15 (+5 per multiple)."""
    if name == "yakuman":
        if isinstance(multiple, bool) or not isinstance(multiple, int) or not 1 <= multiple <= 8:
            raise InputError("bad_limit", "yakuman_multiple must be an integer from 1 to 8")
        return rules.yakuman_han + rules.yakuman_step_han * (multiple - 1)
    for step in rules.limits:
        if step.name == name:
            return step.min_han
    raise InputError("bad_limit", f"limit must be one of {list(LIMIT_NAMES)}, got {name!r}")


def _win_from_hand(
    state: GameState,
    result: HandResult,
    spec: dict[str, Any],
    winner: int,
    honba: int,
    riichi: list[int],
) -> tuple[Win, bool, bool]:
    """Score a hand JSON at this table: seat, round, honba and tsumo/ron come from the game.

    Returns the win, whether the hand was in riichi and whether it extracted the aka-5-man.
    A hand that is not a legal win is refused (``invalid_win``): if it was claimed at the
    table, record a chombo instead (§18.1).
    """
    from engine.service import score_json

    rules = state.rules.hand_rules
    if set(spec) - {"winner", "hand"}:
        raise InputError("bad_win", "give a win's value as han/fu, a limit or a hand, not two")
    hand = spec["hand"]
    if not isinstance(hand, dict):
        raise InputError("bad_hand", "hand must be a hand JSON object (CONTRACT.md)")
    hand = dict(hand)
    hand_rules = hand.get("rules") or {}
    if not isinstance(hand_rules, dict) or hand_rules.get("preset", "sanma-1.3") != "sanma-1.3":
        raise InputError("bad_rules", "a game hand is scored under the sanma-1.3 preset")
    hand["rules"] = {**hand_rules, "aka_5man": state.rules.aka_5man}
    tsumo = result.outcome is Outcome.TSUMO
    hand.update(
        seat=state.seat_wind(winner),
        round=state.round_wind,
        honba=state.honba,  # the real count: it also decides §18.4 and paarenchan (§35)
        tsumo=tsumo,
        deposits=state.deposits + rules.riichi_deposit * len(set(riichi)),
    )
    declared = hand.get("riichi", "none")
    if "riichi" not in hand and winner in riichi:
        hand["riichi"] = declared = "riichi"
    elif declared == "none" and winner in riichi:
        raise InputError(
            "riichi_mismatch", "the winner is listed in riichi but the hand says riichi 'none'"
        )
    if not tsumo and "discarder_riichi" not in hand:
        hand["discarder_riichi"] = result.discarder in riichi
    scored = score_json(hand)
    if not scored.get("valid"):
        raise InputError(
            "invalid_win",
            f"the hand is not a legal win ({scored.get('reason')}); if it was claimed at the "
            "table, record a chombo",
        )
    extracted_aka = bool(hand.get("kita_aka", 0))
    by_role = _payments_by_role(scored)
    dealer = winner == state.dealer
    seats = [e.get("seat") for e in scored.get("payments", ()) if isinstance(e, dict)]
    if tsumo and seats and all(w in SEAT_WINDS for w in seats):
        # the score result names each payer's seat: map it to the player sitting there
        by_seat = {state.seat_wind(p): p for p in range(PLAYERS)}
        payments = tuple(
            sorted(
                (
                    Payment(by_seat[str(w)], amount)
                    for w, (_, amount) in zip(seats, by_role, strict=True)
                ),
                key=lambda p: others_in_settlement_order(winner).index(p.payer),
            )
        )
        if sorted(p.payer for p in payments) != sorted(others_in_settlement_order(winner)):
            raise InputError("engine_mismatch", f"unexpected tsumo payments {by_role}")
    elif tsumo:
        payers = others_in_settlement_order(winner)
        roles = ["dealer" if p == state.dealer else "child" for p in payers]
        if sorted(roles) != sorted(r for r, _ in by_role):
            raise InputError("engine_mismatch", f"unexpected tsumo payments {by_role}")
        amounts = dict(by_role)
        payments = tuple(Payment(p, amounts[r]) for p, r in zip(payers, roles, strict=True))
    else:
        if [r for r, _ in by_role] != ["discarder"]:
            raise InputError("engine_mismatch", f"unexpected ron payments {by_role}")
        assert result.discarder is not None
        payments = (Payment(result.discarder, by_role[0][1]),)
    han, fu = int(scored["han"]), scored.get("fu")
    if extracted_aka:
        payments = _without_engine_doubling(payments, scored, dealer, tsumo, state.honba, state)
    if honba != state.honba:
        # double_ron_honba="first": a later winner's ron carries no honba
        (ron,) = payments
        payments = (Payment(ron.payer, ron.amount - (state.honba - honba) * rules.honba_ron),)
    win = Win(
        winner,
        payments,
        int(scored.get("yakuman_multiple") or 0),
        han,
        fu,
        scored.get("limit"),
        tuple(str(y.get("id")) for y in scored.get("yaku", ()) if isinstance(y, dict)),
    )
    return win, declared != "none", extracted_aka


def _payments_by_role(scored: dict[str, Any]) -> list[tuple[str, int]]:
    out = []
    for entry in scored.get("payments", ()):
        out.append((str(entry.get("from")), int(entry.get("amount"))))
    return out


def _without_engine_doubling(
    payments: tuple[Payment, ...],
    scored: dict[str, Any],
    dealer: bool,
    tsumo: bool,
    honba: int,
    state: GameState,
) -> tuple[Payment, ...]:
    """The fold applies the §A8 doubling itself; if the score result already doubled the
    amounts of a winner with an extracted aka-5-man, store them undoubled."""
    rules = state.rules.hand_rules
    base = scored.get("base")
    if isinstance(base, bool) or not isinstance(base, int):
        base, _, _ = points.hand_base(int(scored["han"]), int(scored.get("fu") or 30), rules)
    if tsumo:
        plain = sorted(a for _, a in points.tsumo_amounts(base, dealer, honba, rules))
    else:
        plain = [points.ron_amount(base, dealer, honba, rules)]
    got = sorted(p.amount for p in payments)
    factor = rules.aka5man_payment_multiplier
    if got == [a * factor for a in plain]:
        return tuple(Payment(p.payer, p.amount // factor) for p in payments)
    return payments
