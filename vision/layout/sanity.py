"""Stage 4, sanity (RULES.md "Tiles"): at most four of a kind (red fives count as fives,
``0m`` as a north), no 2m–8m in sanma, the hand's tile count; every doubt becomes a concrete
warning."""

from __future__ import annotations

from collections import Counter

from vision.layout.notation import NORTH, _sort_key, kind, readable, unpack
from vision.layout.reading import _Reading
from vision.layout.tolerances import LOW_CONFIDENCE
from vision.types import TileDetection


def _sanity(groups: dict[str, list[int]], tiles: list[TileDetection], warnings: list[str]) -> None:
    """RULES.md Tiles: four of a kind at most, no 2m–8m; low-confidence tiles to check."""
    shown = [k for name in ("hand", "win", "meld", "kita", "dora") for k in groups[name]]
    counts = Counter(kind(tiles[k].tile) for k in shown if readable(tiles[k]))
    for name, count in sorted(counts.items(), key=lambda kv: _sort_key(kv[0])):
        if count > 4:
            warnings.append(
                f"{count} tiles of {name} seen (at most 4 exist; red fives count as fives, "
                "0m as a north): one is misread, check them"
            )
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


def _made_up_fifth(
    hand: str, win: str | None, melds: list[str], kita: int, warnings: list[str]
) -> None:
    """§1 on the hand as read: a set completed with a tile no box showed (a kakan seen as one
    box, a pon with a tile missed) may make a fifth of a kind that the boxes alone do not."""
    tiles = unpack(hand) + [t for m in melds for t in unpack(m.split(":")[1])]
    tiles += [win] if win else []
    counts = Counter(kind(t) for t in tiles)
    counts[NORTH] += kita  # each extracted north, 4z or 0m
    for name, count in sorted(counts.items(), key=lambda kv: _sort_key(kv[0])):
        already = f"{count} tiles of {name} seen"
        if count > 4 and not any(w.startswith(already) for w in warnings):
            warnings.append(
                f"the hand as read holds {count} {name} (at most 4 exist): a set was made up "
                "with a tile no box showed, or a tile is misread; check it"
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
