"""Stage 4, sanity (docs/rules.md "Tiles"): at most four of a kind (red fives count as fives,
``0m`` as a north), no 2m–8m in sanma, the hand's tile count; every doubt becomes a concrete
warning."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from sanma_lens.vision.layout.notation import NORTH, _sort_key, kind, unpack
from sanma_lens.vision.layout.reading import _Reading
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def _sanity(
    groups: dict[str, list[int]],
    tiles: list[TileDetection],
    where: Mapping[int, tuple[str, int | None]],
    warnings: list[str],
) -> None:
    """docs/rules.md Tiles: no 2m–8m; low-confidence tiles to check (four of a kind at most:
    :func:`fifth_warnings`, on the hand as read). ``where``: each placed tile's group and
    position, as the warnings say it (``rulefix.where_map``)."""
    for group in ("hand", "win", "meld", "kita", "dora"):
        for pos, k in enumerate(groups[group], start=1):
            tile = tiles[k]
            place, position = where.get(k, (group, pos))
            if tile.tile[1] == "m" and tile.tile[0] in "2345678":
                if tile.tile == "5m":
                    warnings.append(PhotoWarning("read_5m", place=place, position=position))
                else:
                    warnings.append(
                        PhotoWarning("read_2m_8m", place=place, position=position, tile=tile.tile)
                    )
            if tile.confidence < S.low_confidence:
                warnings.append(
                    PhotoWarning(
                        "low_confidence",
                        place=place,
                        position=position,
                        tile=tile.tile,
                        confidence=round(tile.confidence, 4),
                    )
                )


def kind_counts(hand: Mapping[str, object], dora: Sequence[str] = ()) -> Counter[str]:
    """How many tiles of each kind a hand JSON holds (hand, winning tile, melds as written,
    each kita a north) with the dora indicators ``dora``; red fives count as fives, ``0m``
    as a north (docs/rules.md Tiles).

    >>> kind_counts({"hand": "50p", "melds": ["pon:555p"], "kita": 1})["5p"]
    5
    """
    melds = [str(m) for m in hand.get("melds") or []]  # type: ignore[attr-defined]
    shown = unpack(str(hand.get("hand") or ""))
    shown += [t for m in melds for t in unpack(m.split(":")[1])]
    shown += [str(hand["win"])] if hand.get("win") else []
    counts = Counter(kind(t) for t in [*shown, *dora])
    counts[NORTH] += int(hand.get("kita") or 0)  # type: ignore[call-overload]
    return counts


def fifth_warnings(hand: Mapping[str, object], dora: Sequence[str], warnings: list[str]) -> None:
    """§1, docs/rules.md Tiles: at most four tiles of a kind, counted on the hand as read and the
    dora indicators (:func:`kind_counts`). A set completed with a tile no box showed (a kakan
    seen as one box, a pon with a tile missed) counts too: it may make a fifth the boxes alone
    do not. One warning per kind."""
    counts = kind_counts(hand, dora)
    for name, count in sorted(counts.items(), key=lambda kv: _sort_key(kv[0])):
        if count > 4:
            warnings.append(PhotoWarning("fifth_tile", kind=name, count=count))


def _count_warnings(reading: _Reading, hand_size: int, warnings: list[str]) -> None:
    """§1 counts: the concealed part holds 13 − 3·melds tiles, plus the winning tile."""
    expected = 13 - 3 * len(reading.melds)
    if hand_size == expected:
        return
    code = "hand_short" if hand_size < expected else "hand_long"
    warnings.append(
        PhotoWarning(code, count=hand_size, expected=expected, melds=len(reading.melds))
    )
