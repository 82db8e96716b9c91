"""Stage 2, one reading per candidate row: the winning tile, melds and kita right of it,
and how the readings rank (RULES.md §1: 13 tiles plus the winning tile).

The first lone upright tile set a little apart is the winning tile (a north only when on the
row's line, close by); a group with a sideways tile is a meld; norths (``4z``) and the
aka-5-man (``0m``) set aside, beside or beyond the melds, are kita (RULES.md §A4–§A5).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.layout.extras import _kita_beside_melds
from vision.layout.geometry import Geo, _end_frame
from vision.layout.grouping import Placed, _norths, _right_groups, share_slot
from vision.layout.melds import _meld_string, _read_meld
from vision.layout.notation import NORTH, as_sanma, is_north, kind, mpsz, north_like, readable
from vision.layout.rulefix import complete, tenpai
from vision.layout.shortfall import apart_pair, loose_pon, short_pon
from vision.layout.tolerances import (
    KITA_ALT,
    LONE_KITA_ALT,
    MAX_WIN_GAP,
    NORTH_GAP,
    NORTH_OFF,
    SQUARISH,
    UPRIGHT_KITA_ALT,
    WIN_GAP,
)
from vision.types import TileDetection


@dataclass(frozen=True)
class _Reading:
    """One interpretation of the photo around a candidate row."""

    row: list[int]
    win: int | None
    melds: list[tuple[str, list[int]]]  # ("pon:777z", tile indices)
    kita: list[int]
    other_right: list[int]
    warnings: list[str]
    guesses: int = 0  # sets the hand's count made up from damaged tiles (shortfall.py)

    @property
    def units(self) -> int:
        """Tiles toward 14 (§1): concealed + winning tile + 3 per meld (a kan's 4th is extra)."""
        return len(self.row) + (self.win is not None) + 3 * len(self.melds)


def _read_right(row: list[int], tiles: list[TileDetection], geo: Geo) -> _Reading:
    """Interpret everything right of a candidate row: winning tile, melds, kita."""
    warnings: list[str] = []
    frame = _end_frame(row, tiles, geo)
    groups = _right_groups(row, tiles, geo, frame)
    win: int | None = None
    melds: list[tuple[str, list[int]]] = []
    kita: list[int] = []
    other: list[int] = []
    lone_candidates: list[int] = []
    touching: int | None = None  # a lone tile right after the row, too close to be the win
    turned: int | None = None  # a lone tile reported sideways set a little apart after the row
    north_sets: list[list[int]] = []  # 3–4 upright norths in line: kita, or a called set
    guesses = 0
    short_sets: list[list[int]] = []  # a sideways tile and one alike: a pon with a tile unseen
    held: dict[tuple[int, ...], list[str]] = {}  # warnings on the short sets' meld reading
    pairs: list[list[int]] = []  # two alike set apart: maybe a pon with its called tile unseen
    if groups and len(groups[0][1]) > 1:  # a winning north with kita close beside it
        gap0, first = groups[0]
        if (
            all(is_north(tiles[p.index].tile) and tiles[p.index].angle == 0 for p in first)
            and WIN_GAP < gap0 < MAX_WIN_GAP
            and _north_wins(gap0, first[0])
            and not _north_wins(gap0, first[1])
        ):
            groups = [(gap0, first[:1]), (0.0, first[1:]), *groups[1:]]
    for gi, (gap, group) in enumerate(groups):
        indices = [p.index for p in group]
        single = len(group) == 1
        tile = tiles[group[0].index]
        lone_upright = single and tile.angle == 0 and readable(tile)
        north = is_north(tile.tile)
        if (
            gi == 0
            and lone_upright
            and WIN_GAP < gap < MAX_WIN_GAP
            and (not north or _north_wins(gap, group[0]))
        ):
            win = group[0].index
            continue
        dets = [tiles[k] for k in indices]
        if (
            gi == 0
            and gap <= WIN_GAP
            and len(group) > 1
            and all(d.angle == 0 for d in dets)
            and not _norths(dets)
        ):
            # §1: upright tiles touching the row's end, none sideways, continue the concealed
            # tiles (a row the chain stage cut); a called set is laid apart (kita may not be).
            other.extend(indices)
            continue
        if _norths([tiles[k] for k in indices]):
            # Norths: a called pon/kan of norths shows exactly one sideways tile (two stacked
            # for a kakan); otherwise they are kita, upright or laid sideways (§23–§24).
            sideways = sum(tiles[k].angle == 90 for k in indices)
            stacked = any(share_slot(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
            called = len(group) in (3, 4) and (sideways in (1, 2) or stacked)
            meld = _read_meld(group, tiles, warnings) if called else None
            if meld is not None:
                melds.append((meld, indices))
            else:
                kita.extend(indices)
                if len(group) in (3, 4) and sideways == 0:
                    north_sets.append(indices)
            continue
        notes: list[str] = []  # what reading the group as a meld found to check
        meld = _read_meld(group, tiles, notes)
        if meld is not None:
            warnings.extend(notes)
            melds.append((meld, indices))
            continue
        short = short_pon(group, tiles, frame.theta)
        if short:  # said below unless the group is read as a pon with its third tile unseen
            held[tuple(indices)] = notes
        else:
            warnings.extend(notes)
        lone_kita = LONE_KITA_ALT if tile.angle == 90 else UPRIGHT_KITA_ALT
        if single and (gi > 0 or win is not None) and north_like(tile, lone_kita):
            # §A4: beyond the winning tile or the melds, a lone tile set aside on their line
            # (sideways: as kita are laid, never another set's tile) that may be a north is a
            # kita (the hand has one winning tile); the rule-aware reading names it.
            kita.append(group[0].index)
            continue
        if short:
            short_sets.append(indices)
        elif (gi > 0 or gap > WIN_GAP) and apart_pair(group, tiles):
            pairs.append(indices)
        lone_turned = gi == 0 and single and tile.angle == 90 and WIN_GAP < gap < MAX_WIN_GAP
        if lone_turned and readable(tile) and not north_like(tile, KITA_ALT):
            turned = group[0].index if _squarish(tile, geo, row) else None
        if lone_upright:
            lone_candidates.append(group[0].index)
            if gi == 0 and gap < MAX_WIN_GAP:
                touching = group[0].index
        other.extend(indices)
    if win is None and touching is not None and len(row) + 3 * len(melds) == 13:
        # §1: 13 tiles with the melds, and one lone tile right at the row's end (too close to
        # look set apart): it is the winning tile.
        win = touching
        lone_candidates.remove(touching)
        other.remove(touching)
        warnings.append(
            f"the tile right after the hand ({tiles[touching].tile}) is barely set apart: read "
            "as the winning tile (the hand has 13 tiles without it); check it"
        )
    if win is None and turned is not None and len(row) + 3 * len(melds) == 13:
        # §1: 13 tiles with the melds, and set a little apart after the row one tile reported
        # sideways whose box may be an upright tile's, no north (a kita) and no set (a called
        # tile lies in a meld): the winning tile, its turn misreported.
        win = turned
        other.remove(turned)
        warnings.append(
            f"the tile set apart after the hand ({tiles[turned].tile}) was reported lying "
            "sideways, but a lone tile there is the winning tile (the hand has 13 tiles "
            "without it): read as the winning tile; check it"
        )
    if win is not None and is_north(tiles[win].tile) and len(row) + 3 * len(melds) == 14:
        # §1, §A4: the row already holds the 14 tiles (its winning tile laid without a gap):
        # the north set apart after it is an extracted kita, not a fifteenth tile.
        warnings.append(
            f"the north set apart after the hand ({tiles[win].tile}) would be a 15th tile: "
            "the hand's 14 are in the row (its winning tile not set apart), so it is read as "
            "a kita; check it"
        )
        kita.append(win)
        win = None
    if win is not None and is_north(tiles[win].tile):
        if len(row) + 3 * len(melds) == 13 and _north_is_kita(row, tiles):
            # §1, §A4: the 13 tiles wait (tenpai) and with the north make no winning shape:
            # the north set apart is an extracted kita of a hand shown at a draw.
            warnings.append(
                f"the north set apart after the hand ({tiles[win].tile}) makes no winning "
                "hand with it, which waits without it: read as a kita (the hand in tenpai); "
                "if it is the winning tile, move it"
            )
            kita.append(win)
            win = None
        else:
            warnings.append(
                f"the tile set apart after the hand is a north ({tiles[win].tile}): read as "
                "the winning tile; if it is an extracted kita, move it to kita"
            )
    units = len(row) + (win is not None) + 3 * len(melds)
    for indices in north_sets:
        # §1 counts: norths on the melds' line that the hand needs to make 13/14 tiles are a
        # called pon/kan whose sideways tile was not seen as such, not kita.
        if units not in (13, 14) and units + 3 in (13, 14):
            name = "pon" if len(indices) == 3 else "minkan"
            faces = [tiles[k].tile for k in indices if readable(tiles[k])]
            melds.append((_meld_string(name, faces, len(indices)), indices))
            kita = [k for k in kita if k not in indices]
            units += 3
            warnings.append(
                f"{len(indices)} norths in line right of the hand make the hand's 14 tiles: "
                f"read as a {name} (its sideways tile not seen), not kita; check it"
            )
    def room(indices: list[int]) -> bool:
        """§1: a set padded with one unseen tile of its kind makes no fifth of that kind."""
        main = kind(tiles[indices[0]].tile)
        seen = [*row, *([win] if win is not None else []), *(k for _, i in melds for k in i)]
        return sum(kind(tiles[k].tile) == main for k in {*seen, *indices}) < 4

    if (
        len(short_sets) == 1
        and units not in (13, 14)
        and units + 3 in (13, 14)
        and room(short_sets[0])
    ):
        # §1 counts: the hand needs three more tiles, and a called tile (§23) with one of its
        # kind beside it is a pon whose third tile the detector did not find.
        indices = short_sets[0]
        faces = [tiles[k].tile for k in indices]
        meld = _meld_string("pon", faces, 3)
        melds.append((meld, indices))
        other = [k for k in other if k not in indices]
        units += 3
        guesses += 1
        seen = " ".join(faces)
        del held[tuple(indices)]  # "has 2 tiles": answered by the reading below
        warnings.append(
            f"called set {seen} shows 2 tiles and the hand needs 3 more (§1): read as {meld}, "
            f"its third {kind(faces[0])} not seen; check it"
        )
    for notes in held.values():
        warnings.extend(notes)
    taken = {k for _, idx in melds for k in idx} | ({win} if win is not None else set())
    loose = loose_pon(groups, tiles, taken) if units + 3 in (13, 14) else None
    if loose is not None and units not in (13, 14) and _pon_fits(loose, row, win, melds, tiles):
        # §1 counts: the hand needs three more tiles, and three side by side right of it,
        # two alike and the third possibly alike (or sideways), are a pon with a misread tile.
        indices, main = loose
        melds.append((f"pon:{mpsz([main] * 3)}", indices))
        other = [k for k in other if k not in indices]
        kita = [k for k in kita if k not in indices]
        lone_candidates = [k for k in lone_candidates if k not in indices]
        units += 3
        guesses += 1
        seen = " ".join(tiles[k].tile for k in indices)
        warnings.append(
            f"{seen} right of the hand: the hand needs 3 more tiles (§1) and two are {main}: "
            f"read as pon:{mpsz([main] * 3)}, check the odd tile"
        )
    if len(pairs) == 1 and units not in (13, 14) and units + 3 in (13, 14) and room(pairs[0]):
        # §1 counts, the weakest evidence: two alike set apart on the melds' line, nothing else
        # to make up the three missing tiles: a pon whose called tile was not found.
        indices = pairs[0]
        guesses += 1
        meld = _meld_string("pon", [tiles[k].tile for k in indices], 3)
        melds.append((meld, indices))
        other = [k for k in other if k not in indices]
        units += 3
        warnings.append(
            f"two {kind(tiles[indices[0]].tile)} set apart right of the hand and the hand needs "
            f"3 more tiles (§1): read as {meld}, its called tile not seen; check it"
        )
    if win is not None and lone_candidates:
        extra = ", ".join(tiles[k].tile for k in lone_candidates)
        warnings.append(
            f"two candidates for the winning tile: {tiles[win].tile} (taken) and {extra} "
            "further right: check which one it is"
        )
    elif win is None and lone_candidates:
        extra = ", ".join(tiles[k].tile for k in lone_candidates)
        warnings.append(f"lone tile(s) {extra} right of the melds were left out: check them")
    kita += _kita_beside_melds(row, tiles, geo, frame, melds, kita, win, other)
    return _Reading(row, win, melds, kita, other, warnings, guesses)


def _north_is_kita(row: list[int], tiles: list[TileDetection]) -> bool:
    """The row's tiles (all face up) are in tenpai and make no winning shape with a north."""
    held = [kind(as_sanma(tiles[k].tile)) for k in row if readable(tiles[k])]
    return len(held) == len(row) and tenpai(held) and not complete([*held, NORTH])


def _squarish(tile: TileDetection, geo: Geo, row: list[int]) -> bool:
    """A tile reported sideways whose box is no wider for its height than ``SQUARISH`` × the
    row's upright tiles' boxes (tilted alike): it may stand upright."""
    x1, y1, x2, y2 = tile.box
    row_aspect = float(np.median([geo.widths[k] / geo.heights[k] for k in row]))
    return (x2 - x1) / max(y2 - y1, 1e-6) <= SQUARISH * row_aspect


def _north_wins(gap: float, p: Placed) -> bool:
    """A north set apart right after the row: the winning tile lies on the row's line at a
    small gap; a kita is set aside (off the line, or further away)."""
    return abs(p.off) < NORTH_OFF and gap < NORTH_GAP


def _score(reading: _Reading, geo: Geo, joined: bool = False) -> tuple[float, ...]:
    """Rank candidate readings: a 13/14-tile hand first (§1), then the nearest to it, then the
    one that made up fewer sets from damaged tiles, then a row as found before one rejoined
    across a gap, then the longer row, then the larger tiles (nearer the camera: the player's
    own)."""
    units = reading.units
    plausible = 1.0 if units in (13, 14) else 0.0
    size = float(np.mean([geo.scale(k) for k in reading.row]))
    return (
        plausible,
        -abs(units - 13.5),
        -float(reading.guesses),
        float(not joined),
        float(len(reading.row)),
        size,
    )


def _finish_row(reading: _Reading, tiles: list[TileDetection], warnings: list[str]) -> _Reading:
    """No tile set apart but one tile too many in the row: the rightmost is the winning tile."""
    if reading.win is not None:
        return reading
    faces = [k for k in reading.row if readable(tiles[k])]
    if len(faces) == 14 - 3 * len(reading.melds):
        last = reading.row[-1]
        warnings.append(
            f"no winning tile set apart from the hand: took the rightmost tile "
            f"({tiles[last].tile}) as the winning tile; if the hand is in tenpai it has one "
            "tile too many"
        )
        return replace(reading, row=reading.row[:-1], win=last)
    return reading


def _pon_fits(
    loose: tuple[list[int], str],
    row: list[int],
    win: int | None,
    melds: list[tuple[str, list[int]]],
    tiles: list[TileDetection],
) -> bool:
    """§1: a pon read over three tiles (one re-read to its kind) makes no fifth of that kind
    with the tiles already placed."""
    indices, main = loose
    placed = {*row, *([win] if win is not None else []), *(k for _, i in melds for k in i)}
    return sum(kind(tiles[k].tile) == main for k in placed - set(indices)) + 3 <= 4
