"""Tile ids and MPSZ strings: what a detection's label counts as, and canonical output.

Outputs are MPSZ, sorted canonically: suits in the order m p s z, digits ascending within a
suit, a red five (``0``) right after the plain fives (``"2345550p"``); a meld as the
hand JSON writes it, a red five first (``"minkan:0555p"``: :func:`meld_mpsz`).
"""

from __future__ import annotations

import math
from dataclasses import replace

from sanma_lens.vision.types import TileDetection

SUITS = "mpsz"
NORTH = "4z"
AKA_MAN = "0m"


def kind(tile: str) -> str:
    """The kind a tile counts as for the four-of-a-kind rule: reds are fives, ``0m`` a north.

    >>> kind("0p"), kind("0m"), kind("7z")
    ('5p', '4z', '7z')
    """
    if tile == AKA_MAN:
        return NORTH
    if tile[0] == "0":
        return "5" + tile[1]
    return tile


def as_sanma(tile: str) -> str:
    """A tile as sanma reads it: a ``5m`` (no plain 5-man in sanma) is the aka-5-man ``0m``.

    >>> as_sanma("5m"), as_sanma("5p")
    ('0m', '5p')
    """
    return AKA_MAN if tile == "5m" else tile


def readable(det: TileDetection) -> bool:
    """A face-up tile with a valid MPSZ id (not ``back``, not a flower or junk label).

    >>> readable(TileDetection("0p", (0, 0, 1, 1))), readable(TileDetection("flower", (0, 0, 1, 1)))
    (True, False)
    """
    return is_face(det.tile)


def is_face(t: str) -> bool:
    """A valid MPSZ tile id (the test :func:`readable` applies to a detection's label).

    >>> is_face("0p"), is_face("8z"), is_face("back")
    (True, False, False)
    """
    if len(t) != 2 or t[1] not in SUITS or not t[0].isdigit():
        return False
    return "1" <= t[0] <= "7" if t[1] == "z" else True


def _sort_key(tile: str) -> tuple[int, int, int]:
    """Canonical order: suits m p s z, digits up, a red five right after the plain fives; a
    label that is no tile (``back``) after every tile."""
    if not is_face(tile):
        return (len(SUITS), 0, 0)
    digit = int(tile[0])
    return (SUITS.index(tile[1]), 5 if digit == 0 else digit, 1 if digit == 0 else 0)


# Labels a detection may carry besides tile ids (vision/classify.py CLASSES).
NOT_FACES = ("back", "flower", "none")


def known(det: TileDetection) -> bool:
    """A detection the layout can weigh: a tile id or one of ``NOT_FACES`` as its label and a
    box of finite coordinates.

    >>> known(TileDetection("back", (0, 0, 1, 1))), known(TileDetection("", (0, 0, 1, 1)))
    (True, False)
    """
    return (is_face(det.tile) or det.tile in NOT_FACES) and all(math.isfinite(v) for v in det.box)


def cleaned(det: TileDetection) -> TileDetection:
    """A :func:`known` detection as the layout reads it: its box's corners in order, its turn
    0 or 90, its confidence within 0…1, and only known labels among its next-best readings."""
    x1, y1, x2, y2 = det.box
    return replace(
        det,
        box=(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)),
        angle=90 if det.angle == 90 else 0,
        confidence=_probability(det.confidence),
        alternatives=tuple(
            (t, p)
            for t, p in det.alternatives
            if (is_face(t) or t in NOT_FACES) and 0.0 <= p <= 1.0
        ),
    )


def _probability(p: float) -> float:
    """``p`` within 0…1 (not a number: 0)."""
    return min(max(float(p), 0.0), 1.0) if math.isfinite(p) else 0.0


def mpsz(tiles: list[str]) -> str:
    """Tiles as one canonical MPSZ string: digits grouped per suit, suits in m p s z order.

    >>> mpsz(["1z", "3p", "0p", "5p", "1z", "2p"])
    '2350p11z'
    """
    out: list[str] = []
    for suit in SUITS:
        digits = [t[0] for t in sorted(tiles, key=_sort_key) if t[1] == suit]
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


def meld_mpsz(tiles: list[str]) -> str:
    """A meld's tiles as the hand JSON writes them: digits ascending within a suit, so a red
    five (``0``) comes first (``"0555p"``; :func:`mpsz` writes a hand's red fives after its
    plain ones).

    >>> meld_mpsz(["5p", "0p", "5p", "5p"]), meld_mpsz(["4z", "0m", "4z"])
    ('0555p', '0m44z')
    """
    out: list[str] = []
    for suit in SUITS:
        digits = sorted(t[0] for t in tiles if is_face(t) and t[1] == suit)
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


def unpack(text: str) -> list[str]:
    """An MPSZ string as single tiles (the inverse of :func:`mpsz`, order kept).

    >>> unpack("230p1z")
    ['2p', '3p', '0p', '1z']
    """
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def is_north(tile: str) -> bool:
    return tile in (NORTH, AKA_MAN, "5m")


def north_like(det: TileDetection, min_alt: float) -> bool:
    """Read as a north (4z, 0m, or 5m — the aka-5-man), or with a north among its next-best
    readings at least ``min_alt`` likely: a kita candidate (docs/rules.md §A4) for the layout."""
    if is_north(det.tile):
        return True
    return any(is_north(t) and p >= min_alt for t, p in det.alternatives)


def back_like(det: TileDetection, min_alt: float) -> bool:
    """Read as a back, or with ``back`` among its next-best readings at least ``min_alt``
    likely (a back and a haku are both blank): maybe a face-down tile."""
    return det.face_down or any(t == "back" and p >= min_alt for t, p in det.alternatives)
