"""Stage 4, sanity (RULES.md "Tiles"): at most four of a kind (red fives count as fives,
``0m`` as a north), no 2m–8m in sanma, the hand's tile count; every doubt becomes a concrete
warning."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from sanma_lens.vision.layout.notation import NORTH, _sort_key, kind, unpack
from sanma_lens.vision.layout.reading import _Reading
from sanma_lens.vision.layout.tolerances import LOW_CONFIDENCE
from sanma_lens.vision.types import TileDetection


def _sanity(groups: dict[str, list[int]], tiles: list[TileDetection], warnings: list[str]) -> None:
    """RULES.md Tiles: no 2m–8m; low-confidence tiles to check (four of a kind at most:
    :func:`fifth_warnings`, on the hand as read)."""
    for place in ("hand", "win", "meld", "kita", "dora"):
        for pos, k in enumerate(groups[place], start=1):
            tile = tiles[k]
            where = _where(place, pos)
            if tile.tile[1] == "m" and tile.tile[0] in "2345678":
                if tile.tile == "5m":
                    warnings.append(
                        f"{where} was read as 5m, which sanma does not use: it is most likely "
                        "the aka-5-man (0m) and was read as such; check it"
                    )
                else:
                    warnings.append(
                        f"{where} was read as {tile.tile}, which sanma does not use (2m–8m are "
                        "removed): a misread or a four-player set, check it"
                    )
            if tile.confidence < LOW_CONFIDENCE:
                label = tile.tile if not tile.face_down else "face-down"
                warnings.append(
                    f"{where} ({label}) has low confidence {tile.confidence:.2f}: check it"
                )


def kind_counts(hand: Mapping[str, object], dora: Sequence[str] = ()) -> Counter[str]:
    """How many tiles of each kind a hand JSON holds (hand, winning tile, melds as written,
    each kita a north) with the dora indicators ``dora``; red fives count as fives, ``0m``
    as a north (RULES.md Tiles).

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
    """§1, RULES.md Tiles: at most four tiles of a kind, counted on the hand as read and the
    dora indicators (:func:`kind_counts`). A set completed with a tile no box showed (a kakan
    seen as one box, a pon with a tile missed) counts too: it may make a fifth the boxes alone
    do not. One warning per kind."""
    counts = kind_counts(hand, dora)
    for name, count in sorted(counts.items(), key=lambda kv: _sort_key(kv[0])):
        if count > 4:
            warnings.append(
                f"{count} tiles of {name} seen in the hand as read (at most 4 exist; red fives "
                "count as fives, 0m as a north): one is misread, or a set was made up with a "
                "tile no box showed; check them"
            )


def _where(place: str, pos: int) -> str:
    return {
        "hand": f"tile {pos} in the hand",
        "win": "the winning tile",
        "meld": f"meld tile {pos}",
        "kita": f"kita tile {pos}",
        "dora": f"dora indicator {pos}",
    }[place]


def _count_warnings(reading: _Reading, hand_size: int, warnings: list[str]) -> None:
    """§1 counts: the concealed part holds 13 − 3·melds tiles, plus the winning tile."""
    expected = 13 - 3 * len(reading.melds)
    if hand_size == expected:
        return
    if hand_size < expected:
        warnings.append(
            f"the hand has {hand_size} concealed tiles, {expected} expected with "
            f"{len(reading.melds)} meld(s): a tile may be missing or hidden, check the row"
        )
    else:
        warnings.append(
            f"the hand has {hand_size} concealed tiles, {expected} expected with "
            f"{len(reading.melds)} meld(s): an extra tile may have been detected, check the row"
        )
