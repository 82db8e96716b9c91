"""Tile kinds as integer indices and the few facts about them the rules use (§1,
docs/rules.md Tiles).

Index layout (34 kinds, the same as the ``mahjong`` library's 34-array):
``0–8`` = 1m–9m, ``9–17`` = 1p–9p, ``18–26`` = 1s–9s, ``27–33`` = E S W N haku hatsu chun.
Sanma uses only 1m and 9m of the manzu (``SANMA_KINDS``); which kinds exist is a field of
:class:`engine.rules.Rules`, never hard-coded elsewhere.

>>> name(0), name(8), name(13), name(30)
('1m', '9m', '5p', '4z')
>>> kind_of("7z")
33
"""

from __future__ import annotations

from functools import cache
from typing import Final

MAN: Final = 0
PIN: Final = 1
SOU: Final = 2
HONOR: Final = 3
SUIT_LETTERS: Final = "mpsz"

EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
HAKU: Final = 31
HATSU: Final = 32
CHUN: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (HAKU, HATSU, CHUN)
WIND_LETTERS: Final = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}

ALL_KINDS: Final = frozenset(range(34))
SANMA_KINDS: Final = frozenset([0, 8, *range(9, 34)])

TERMINALS: Final = frozenset([0, 8, 9, 17, 18, 26])
HONORS: Final = frozenset(range(27, 34))
TERMINALS_HONORS: Final = TERMINALS | HONORS
GREEN: Final = frozenset([19, 20, 21, 23, 25, HATSU])  # 2s 3s 4s 6s 8s hatsu (緑一色)
BENI: Final = frozenset([18, 22, 24, 26, CHUN])  # 1s 5s 7s 9s chun (紅孔雀, §39)
FIVE_P: Final = 13
FIVE_S: Final = 22
FIVE_M: Final = 4

# Per-kind flags as tuples: indexing a tuple is faster than set membership in hot loops.
IS_TH: Final = tuple(k in TERMINALS_HONORS for k in range(34))
IS_HONOR: Final = tuple(k >= 27 for k in range(34))
IS_TERMINAL: Final = tuple(k in TERMINALS for k in range(34))
SUIT: Final = tuple(k // 9 for k in range(34))
RANK: Final = tuple(k % 9 + 1 if k < 27 else 0 for k in range(34))


def name(kind: int) -> str:
    """MPSZ name of a kind index (``13`` → ``"5p"``); red fives are written by the caller."""
    if kind >= 27:
        return f"{kind - 26}z"
    return f"{kind % 9 + 1}{SUIT_LETTERS[kind // 9]}"


def kind_of(text: str) -> int:
    """Kind index of a two-character MPSZ name (``"0p"`` is 5p). Raises ValueError."""
    if len(text) != 2 or text[1] not in SUIT_LETTERS or not text[0].isdigit():
        raise ValueError(text)
    digit, suit = int(text[0]), SUIT_LETTERS.index(text[1])
    if suit == HONOR:
        if not 1 <= digit <= 7:
            raise ValueError(text)
        return 26 + digit
    return suit * 9 + (5 if digit == 0 else digit) - 1


NAMES: Final = tuple(name(k) for k in range(34))  # name(k) as a table, for output loops


@cache
def next_kind(kind: int, kinds: frozenset[int]) -> int:
    """The dora a kind indicates (§2): the next existing kind of its group, cyclically.

    Suits wrap 9→1; with only 1m and 9m in play (sanma) 1m→9m→1m; winds E→S→W→N→E;
    dragons haku→hatsu→chun→haku.
    """
    if kind < 27:
        group = [k for k in range(kind - kind % 9, kind - kind % 9 + 9) if k in kinds]
    elif kind <= NORTH:
        group = [k for k in WINDS if k in kinds]
    else:
        group = [k for k in DRAGONS if k in kinds]
    return group[(group.index(kind) + 1) % len(group)]
