"""What happened in one hand: the recorded event and its parts (docs/rules.md "Points",
"Ryuukyoku and nagashi", "Chombo", "Aka-5-man option, payments").

A :class:`Win` carries each payer's amount (hand value and honba, §11–§13), resolved once when
the hand is recorded (``engine.game.resolve``); the event is what is stored and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MANEMANN_MIN_TURNS = 5  # §34.1: 5, 7, 9, … turns copied → mangan, haneman, baiman, …
MAX_TURNS = 40  # more discards than any hand can have


class Outcome(StrEnum):
    """How a hand ended."""

    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"  # exhaustive draw (流局), with tenpai, nagashi, no-ten riichi
    CHOMBO = "chombo"  # false win or other 錯和: rewind, mangan payment, replay (§R1)
    #: an abortive draw (途中流局: 九種九牌, 四風子連打, 四開槓, 四家立直, 三家和) where the
    #: rules have them (ECIP): nothing is paid, riichi sticks stay
    ABORTIVE = "abortive"


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
    ``closed``: whether the winning hand was closed (門前), where the rules give the deposits
    to a closed win only (ECIP); None when not said. ``pao``: the player who fed the call that
    fixed a daisangen / daisuushii (包, ECIP); on a tsumo they pay it all.

    Ability mahjong (docs/rules/ability.md): ``seiryuu_han``, for a seiryuu winner, the han its
    role-only indicators added (0 makes the next hand's deposit 4,000, ¶2.3); ``upgraded_from``,
    for a declared byakko's win of 6+ han, the limit before it was counted one higher (¶2.7
    (i)); ``han`` then stays the hand's own, and ``payments`` and ``limit`` are the upgraded
    ones.
    """

    winner: int
    payments: tuple[Payment, ...]
    yakuman_multiple: int = 0
    han: int | None = None
    fu: int | None = None
    limit: str | None = None
    yaku: tuple[str, ...] = ()
    seiryuu_han: int | None = None
    upgraded_from: str | None = None
    closed: bool | None = None
    pao: int | None = None


@dataclass(frozen=True)
class Nagashi:
    """Nagashi yakuman at an exhaustive draw (§29–§31); by a double-riichi player double.
    Under ECIP rules the nagashi mangan instead (``GameRules.nagashi``)."""

    player: int
    double_riichi: bool = False


@dataclass(frozen=True)
class Manemann:
    """真似満 (§34): ``copier`` copied the upstream ``copied`` player's discards for ``turns``."""

    copier: int
    copied: int
    turns: int


@dataclass(frozen=True)
class Kanpa:
    """看破 (docs/rules/ability.md ¶10): genbu ``by`` named ``tile`` (MPSZ) against ``target``.

    ``discarder``: whose discard it was declared on; ``at_once``: declared at the same discard
    as the entry before it (then only one of them holds, ¶10.2.1).
    """

    by: int
    target: int
    tile: str
    discarder: int | None = None
    at_once: bool = False


@dataclass(frozen=True)
class HandResult:
    """What happened in one hand (one recorded event).

    - ron: ``discarder`` and one or two ``wins``; tsumo: one ``win``; abortive: nothing but
      ``riichi`` and ``mis_calls``.
    - draw: ``tenpai`` players, ``nagashi`` claims, ``noten_riichi`` players (a no-ten riichi
      shown at the draw is a chombo, §18.1: the hand is then settled as a chombo by them).
    - chombo: ``offenders`` (usually one).
    - any hand: ``riichi`` (players who put up a 1,000 deposit this hand), ``mis_calls`` (each
      puts 1,000 into the deposits, §R3), ``manemann``, ``aka5man`` (the player who extracted
      the aka-5-man, §A8; needs the aka_5man option).
    - ability mahjong (docs/rules/ability.md): ``byakko_declared`` (the byakko players who
      declared before the deal, ¶2.7), ``kanpa`` (the genbu's declarations in the order they
      were made, ¶10).
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
    byakko_declared: tuple[int, ...] = ()
    kanpa: tuple[Kanpa, ...] = ()
