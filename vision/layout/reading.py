"""Stage 2, one reading per candidate row: the winning tile, melds and kita right of it,
and how the readings rank (docs/rules.md §1: 13 tiles plus the winning tile).

The first lone upright tile set a little apart is the winning tile (a north only when on the
row's line, close by); a group with a sideways tile is a meld; norths (``4z``) and the
aka-5-man (``0m``) set aside, beside or beyond the melds, are kita (docs/rules.md §A4–§A5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from sanma_lens.vision.layout.extras import _kita_beside_melds
from sanma_lens.vision.layout.geometry import Geo, end_frame
from sanma_lens.vision.layout.grouping import Placed, _norths, _right_groups, share_slot
from sanma_lens.vision.layout.melds import _ankan_string, _meld_string, read_meld
from sanma_lens.vision.layout.notation import (
    NORTH,
    as_sanma,
    is_face,
    is_north,
    kind,
    meld_mpsz,
    north_like,
    readable,
)
from sanma_lens.vision.layout.rulefix import complete, tenpai, vote_kind
from sanma_lens.vision.layout.shortfall import apart_pair, loose_pon, short_ankan, short_pon
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


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
    along: np.ndarray | None = None  # the row's direction, given for a one-tile row (tanki.py)
    first_gap: float | None = None  # the gap before the first group right of the row, × a

    @property
    def loose(self) -> int:
        """Tiles on the row's line right of it left out (no winning tile, set or kita)."""
        return len(self.other_right)

    @property
    def units(self) -> int:
        """Tiles toward 14 (§1): concealed + winning tile + 3 per meld (a kan's 4th is extra)."""
        return len(self.row) + (self.win is not None) + 3 * len(self.melds)


@dataclass
class _Right:
    """What :func:`_read_right` has placed right of one candidate row so far (a working
    record, filled step by step)."""

    row: list[int]
    tiles: list[TileDetection]
    groups: list[tuple[float, list[Placed]]]  # the groups right of the row, with their gaps
    warnings: list[str] = field(default_factory=list)
    win: int | None = None
    melds: list[tuple[str, list[int]]] = field(default_factory=list)
    kita: list[int] = field(default_factory=list)
    other: list[int] = field(default_factory=list)
    lone_candidates: list[int] = field(default_factory=list)
    touching: int | None = None  # a lone tile right after the row, too close to be the win
    turned: int | None = None  # a lone tile reported sideways set a little apart after the row
    near_north: int | None = None  # a lone north after the row, too far or off line to be the win
    north_sets: list[list[int]] = field(default_factory=list)  # 3–4 upright norths in line
    guesses: int = 0
    short_sets: list[list[int]] = field(default_factory=list)  # a sideways tile and one alike
    short_ankans: list[list[int]] = field(default_factory=list)  # a back and two faces alike
    held: dict[tuple[int, ...], list[str]] = field(default_factory=dict)  # their meld notes
    pairs: list[list[int]] = field(default_factory=list)  # two alike set apart

    def units(self) -> int:
        """Tiles toward 14 (§1): concealed + winning tile + 3 per meld."""
        return len(self.row) + (self.win is not None) + 3 * len(self.melds)

    def add_meld(self, meld: str, indices: list[int]) -> None:
        """A meld read from tiles counted as other or kita before (§1 counts)."""
        self.melds.append((meld, indices))
        self.other = [k for k in self.other if k not in indices]
        self.kita = [k for k in self.kita if k not in indices]


def _read_right(
    row: list[int], tiles: list[TileDetection], geo: Geo, along: np.ndarray | None = None
) -> _Reading:
    """Interpret everything right of a candidate row: winning tile, melds, kita. Each group
    right of the row is placed in turn (:func:`_place`), then the winning tile is settled
    (:func:`_settle_win`), the hand's count completed from damaged sets (:func:`_fill_count`),
    the winning tile settled again when that changed the count, and the lone tiles left out
    named. ``along``: the direction of a one-tile row."""
    frame = end_frame(row, tiles, geo, along)
    groups = _winning_north_apart(_right_groups(row, tiles, geo, frame), tiles)
    acc = _Right(row, tiles, groups)
    for gi, (gap, group) in enumerate(groups):
        _place(acc, gi, gap, group, geo, frame.theta)
    _settle_win(acc)
    counted = acc.units()
    _fill_count(acc)
    if acc.win is None and acc.units() != counted:
        _settle_win_again(acc)
    _name_lone_tiles(acc)
    acc.kita += _kita_beside_melds(
        row, tiles, geo, frame, acc.melds, acc.kita, acc.win, acc.other, acc.warnings
    )
    return _Reading(
        row,
        acc.win,
        acc.melds,
        acc.kita,
        acc.other,
        acc.warnings,
        acc.guesses,
        along,
        groups[0][0] if groups else None,
    )


def _winning_north_apart(
    groups: list[tuple[float, list[Placed]]], tiles: list[TileDetection]
) -> list[tuple[float, list[Placed]]]:
    """A first group of norths whose first, upright, lies as a winning tile does and the next
    as a kita (upright off the line or too far, or laid sideways, §A4): the winning north with
    kita close beside it, cut in two."""
    if not groups or len(groups[0][1]) < 2:
        return groups
    gap0, first = groups[0]
    rest = first[1:]

    def upright(p: Placed) -> bool:
        return tiles[p.index].angle == 0

    kita_after = (all(map(upright, rest)) and not _north_wins(gap0, rest[0])) or not any(
        map(upright, rest)
    )
    if (
        all(is_north(tiles[p.index].tile) for p in first)
        and upright(first[0])
        and S.win_gap < gap0 < S.max_win_gap
        and _north_wins(gap0, first[0])
        and kita_after
    ):
        return [(gap0, first[:1]), (0.0, rest), *groups[1:]]
    return groups


def _place(acc: _Right, gi: int, gap: float, group: list[Placed], geo: Geo, theta: float) -> None:
    """Place group ``gi`` right of the row (``gap``: its gap before it, × tile width): the
    winning tile, the row's continuation, norths, a meld, or tiles to weigh later."""
    tiles = acc.tiles
    indices = [p.index for p in group]
    tile = tiles[group[0].index]
    lone_upright = len(group) == 1 and tile.angle == 0 and readable(tile)
    if (
        gi == 0
        and lone_upright
        and S.win_gap < gap < S.max_win_gap
        and (not is_north(tile.tile) or _north_wins(gap, group[0]))
    ):
        acc.win = group[0].index
        return
    if gi == 0 and lone_upright and S.win_gap < gap < S.max_win_gap:
        acc.near_north = group[0].index  # a north: read as a kita below, the win not ruled out
    dets = [tiles[k] for k in indices]
    if (
        gi == 0
        and gap <= S.win_gap
        and len(group) > 1
        and all(d.angle == 0 for d in dets)
        and not (_norths(dets))
    ):
        # §1: upright tiles touching the row's end, none sideways, continue the concealed
        # tiles (a row the chain stage cut); a called set is laid apart (kita may not be).
        acc.other.extend(indices)
        return
    if _norths(dets):
        _place_norths(acc, group, indices)
        return
    notes: list[str] = []  # what reading the group as a meld found to check
    meld = read_meld(group, tiles, notes)
    if meld is not None:
        acc.warnings.extend(notes)
        acc.melds.append((meld, indices))
        return
    _place_rest(acc, gi, gap, group, geo, theta, notes)


def _place_norths(acc: _Right, group: list[Placed], indices: list[int]) -> None:
    """Norths: a called pon/kan of norths shows exactly one sideways tile (two stacked for a
    kakan); otherwise they are kita, upright or laid sideways (§23–§24)."""
    tiles = acc.tiles
    sideways = sum(tiles[k].angle == 90 for k in indices)
    stacked = any(share_slot(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
    called = len(group) in (3, 4) and (sideways in (1, 2) or stacked)
    # §1: a called set takes three of the hand's 14 tiles; with the row (and the winning
    # tile) already holding them, norths are kita, one reported sideways or not (dev 670009)
    room = acc.units() + 3 <= 14
    meld = read_meld(group, tiles, acc.warnings) if called and room else None
    if meld is not None:
        acc.melds.append((meld, indices))
        return
    acc.kita.extend(indices)
    if len(group) in (3, 4) and sideways == 0:
        acc.north_sets.append(indices)


def _place_rest(
    acc: _Right,
    gi: int,
    gap: float,
    group: list[Placed],
    geo: Geo,
    theta: float,
    notes: list[str],
) -> None:
    """A group that reads as no meld: a lone kita, or tiles kept as other and remembered as
    what the count may still make a set or the winning tile of (:func:`_fill_count`,
    :func:`_settle_win`)."""
    tiles = acc.tiles
    indices = [p.index for p in group]
    single = len(group) == 1
    tile = tiles[group[0].index]
    ankan = short_ankan(group, tiles)
    short = short_pon(group, tiles, theta) or ankan
    if short:  # said below unless the group is read as a set with a tile unseen
        acc.held[tuple(indices)] = notes
    else:
        acc.warnings.extend(notes)
    lone_kita = S.lone_kita_alt if tile.angle == 90 else S.upright_kita_alt
    if single and (gi > 0 or acc.win is not None) and north_like(tile, lone_kita):
        # §A4: beyond the winning tile or the melds, a lone tile set aside on their line
        # (sideways: as kita are laid, never another set's tile) that may be a north is a
        # kita (the hand has one winning tile); the rule-aware reading names it.
        acc.kita.append(group[0].index)
        return
    if ankan:
        acc.short_ankans.append(indices)
    elif short:
        acc.short_sets.append(indices)
    elif (gi > 0 or gap > S.win_gap) and apart_pair(group, tiles):
        acc.pairs.append(indices)
    # (no least gap: measured as a sideways tile's, an upright tile's gap looks narrower)
    lone_turned = gi == 0 and single and tile.angle == 90 and gap < S.max_win_gap
    if lone_turned and readable(tile) and not is_north(tile.tile):
        acc.turned = group[0].index if _squarish(tile, geo, acc.row) else None
    if single and tile.angle == 0 and readable(tile):
        acc.lone_candidates.append(group[0].index)
        if gi == 0 and gap < S.max_win_gap:
            acc.touching = group[0].index
    acc.other.extend(indices)


def _settle_win(acc: _Right) -> None:
    """The winning tile when none lies plainly set apart, and a north taken as it (§1, §A4):
    a lone tile touching the row's end or one reported sideways after a 13-tile hand is it;
    a north after a row already holding 14 tiles, or after a 13-tile hand in tenpai that it
    does not complete, is a kita; another tile after 14 is none of the hand's."""
    tiles, row = acc.tiles, acc.row
    thirteen = len(row) + 3 * len(acc.melds) == 13
    if acc.win is None and acc.touching is not None and thirteen:
        # §1: 13 tiles with the melds, and one lone tile right at the row's end (too close to
        # look set apart): it is the winning tile.
        acc.win = acc.touching
        acc.lone_candidates.remove(acc.touching)
        acc.other.remove(acc.touching)
        acc.warnings.append(PhotoWarning("win_touching", tile=tiles[acc.touching].tile))
    if acc.win is None and acc.turned is not None and thirteen:
        # §1: 13 tiles with the melds, and set a little apart after the row one tile reported
        # sideways whose box may be an upright tile's, not read as a north (a kita) and no set
        # (a called tile lies in a meld): the winning tile, its turn misreported. One that may
        # be a north by its next readings may be a kita laid sideways: said.
        turned = tiles[acc.turned]
        acc.win = acc.turned
        acc.other.remove(acc.turned)
        acc.warnings.append(PhotoWarning("win_reported_sideways", tile=turned.tile))
        norths = [(t, p) for t, p in turned.alternatives if is_north(t)]
        if norths and north_like(turned, S.kita_alt):
            acc.warnings.append(
                PhotoWarning(
                    "win_may_be_kita",
                    tile=turned.tile,
                    north=norths[0][0],
                    north_confidence=round(norths[0][1], 4),
                )
            )
    if acc.win is not None and is_north(tiles[acc.win].tile):
        _settle_north_win(acc, acc.win)
    elif acc.win is not None and _faces(row, tiles) + 3 * len(acc.melds) == 14:
        _fifteenth(acc, acc.win)
    near = acc.near_north
    if (
        acc.win is None
        and near is not None
        and near in acc.kita
        and acc.units() == 13
        and _north_on_line(acc, near)
        and _completes(acc.row, tiles, NORTH)
    ):
        # §1: a 13-tile hand and a lone north after it on the row's line, just further apart
        # than a winning north lies, that completes the hand: the winning tile (dev 660120,
        # 0.95 a apart), with a warning. (Further still, the photo wins: a kita, warned.)
        acc.kita.remove(near)
        acc.win = near
        acc.warnings.append(PhotoWarning("north_far_win", tile=tiles[near].tile))
    elif (
        acc.win is None
        and near is not None
        and near in acc.kita
        and acc.units() == 13
        and not _north_is_kita(acc.row, tiles)
    ):
        # §1/§A4: a 13-tile hand and a lone north set apart after it, a little further or
        # off its line than a winning tile lies: a kita by the photo, but the hand does not
        # say so (no tenpai that the north leaves incomplete), so it may be the winning tile.
        acc.warnings.append(PhotoWarning("north_far_kita", tile=tiles[near].tile))


def _settle_win_again(acc: _Right) -> None:
    """§1: a set made up from damaged tiles (:func:`_fill_count`) may bring the hand to 13,
    the count at which a lone tile touching the row or reported sideways after it is the
    winning tile (:func:`_settle_win`); one the made-up set took is no candidate."""
    taken = {k for _, idx in acc.melds for k in idx}
    if acc.touching in taken:
        acc.touching = None
    if acc.turned in taken:
        acc.turned = None
    _settle_win(acc)


def _faces(row: list[int], tiles: list[TileDetection]) -> int:
    """How many of the row's tiles are read face up (a back there may be no tile of it)."""
    return sum(readable(tiles[k]) for k in row)


def _fifteenth(acc: _Right, win: int) -> None:
    """§1: the row with the melds already holds the hand's 14 tiles read face up (its winning
    tile laid without a gap): a lone tile set apart after it would be a 15th. It is no tile of
    the hand (a flower or a stray tile set aside; a north there is a kita,
    :func:`_settle_north_win`); the row's last tile becomes the winning tile (``_finish_row``)."""
    tiles = acc.tiles
    acc.warnings.append(PhotoWarning("fifteenth_left_out", tile=tiles[win].tile))
    acc.other.append(win)
    acc.win = None


def _settle_north_win(acc: _Right, win: int) -> None:
    """A north taken as the winning tile (§1, §A4): after a row that already holds the 14
    tiles (its winning tile laid without a gap) it is an extracted kita, not a 15th tile;
    after 13 tiles in tenpai that it does not complete, a kita of a hand shown at a draw;
    else the winning tile, with a warning."""
    tiles = acc.tiles
    held = len(acc.row) + 3 * len(acc.melds)
    if held == 14:
        acc.warnings.append(PhotoWarning("fifteenth_north_kita", tile=tiles[win].tile))
    elif held == 13 and _north_is_kita(acc.row, tiles) and not _misread_win(acc.row, tiles, win):
        acc.warnings.append(PhotoWarning("north_no_win_kita", tile=tiles[win].tile))
    else:
        acc.warnings.append(PhotoWarning("north_win", tile=tiles[win].tile))
        return
    acc.kita.append(win)
    acc.win = None


def _short(acc: _Right) -> bool:
    """§1 counts: the hand is three tiles short of 13/14, and a set would make it."""
    units = acc.units()
    return units not in (13, 14) and units + 3 in (13, 14)


def _fill_count(acc: _Right) -> None:
    """§1 counts: a hand three tiles short takes one damaged set as a meld, strongest
    evidence first: norths in line (a called set of norths, not kita), a called tile with one
    alike (a pon with its third tile unseen), three side by side two alike (a pon with a
    misread tile), two alike set apart (a pon with its called tile unseen)."""
    tiles = acc.tiles
    for indices in acc.north_sets:
        if _short(acc):
            name = "pon" if len(indices) == 3 else "minkan"
            faces = [tiles[k].tile for k in indices if readable(tiles[k])]
            acc.melds.append((_meld_string(name, faces, len(indices)), indices))
            acc.kita = [k for k in acc.kita if k not in indices]
            acc.warnings.append(
                PhotoWarning("norths_as_meld", count=len(indices), meld=acc.melds[-1][0])
            )
    if len(acc.short_sets) == 1 and _short(acc):
        indices = acc.short_sets[0]
        # a minkan with one tile unseen in a hole between its tiles (§23), else a pon
        if not _hole_kan(acc, indices) and _room(acc, indices):
            faces = [tiles[k].tile for k in indices]
            meld = _meld_string("pon", faces, 3)
            acc.add_meld(meld, indices)
            acc.guesses += 1
            del acc.held[tuple(indices)]  # "has 2 tiles": answered by the reading below
            acc.warnings.append(PhotoWarning("pon_third_unseen", tiles=tuple(faces), meld=meld))
    if len(acc.short_ankans) == 1 and _short(acc) and _room(acc, acc.short_ankans[0]):
        # §23: a concealed kan laid as back, face, face, back with one end not found
        indices = acc.short_ankans[0]
        faces = [tiles[k].tile for k in indices if readable(tiles[k])]
        meld = _ankan_string(
            vote_kind([tiles[k] for k in indices]) or kind(faces[0]), faces, acc.warnings
        )
        acc.add_meld(meld, indices)
        acc.guesses += 1
        del acc.held[tuple(indices)]  # "not two face-down ends": answered below
        acc.warnings.append(
            PhotoWarning("ankan_end_unseen", tiles=tuple(tiles[k].tile for k in indices), meld=meld)
        )
    for notes in acc.held.values():
        acc.warnings.extend(notes)
    _fill_with_loose_pon(acc)
    if len(acc.pairs) == 1 and _short(acc) and _room(acc, acc.pairs[0]):
        indices = acc.pairs[0]
        acc.guesses += 1
        meld = _meld_string("pon", [tiles[k].tile for k in indices], 3)
        acc.add_meld(meld, indices)
        acc.warnings.append(
            PhotoWarning("pon_called_unseen", kind=kind(tiles[indices[0]].tile), meld=meld)
        )


def _hole_kan(acc: _Right, indices: list[int]) -> bool:
    """§23: a called tile with one alike (a short set) and, in the group next to it along the
    row, a lone upright tile of their kind a hole of about one tile apart (``hole_gap``): a
    minkan's four tiles, the one in the hole not found (a pon lies without a hole; read as a
    pon with its third tile unseen, the lone tile was left over). Read so, with a warning;
    False (nothing read) when there is no such tile or a fifth of the kind would be made."""
    tiles = acc.tiles
    at = [i for i, (_, g) in enumerate(acc.groups) if {p.index for p in g} == set(indices)]
    if len(at) != 1:
        return False
    gi = at[0]
    main = kind(tiles[indices[0]].tile)
    # (gap before the set, the group before it) and (gap after it, the group after it)
    sides = []
    if gi > 0:
        sides.append((acc.groups[gi][0], acc.groups[gi - 1][1]))
    if gi + 1 < len(acc.groups):
        sides.append(acc.groups[gi + 1])
    for gap, group in sides:
        if len(group) != 1 or not S.hole_gap[0] < gap < S.hole_gap[1]:
            continue
        lone = group[0].index
        if lone not in acc.lone_candidates or kind(tiles[lone].tile) != main:
            continue
        kan = sorted([*indices, lone], key=lambda k: tiles[k].box[0])
        if not _room(acc, kan):
            continue
        meld = _meld_string("minkan", [tiles[k].tile for k in kan], 4)
        acc.add_meld(meld, kan)
        acc.lone_candidates.remove(lone)
        acc.guesses += 1
        del acc.held[tuple(indices)]  # "has 2 tiles": answered by the reading below
        acc.warnings.append(
            PhotoWarning(
                "minkan_hole",
                tiles=tuple(tiles[k].tile for k in indices),
                tile=tiles[lone].tile,
                meld=meld,
            )
        )
        return True
    return False


def _room(acc: _Right, indices: list[int]) -> bool:
    """§1: a set padded with one unseen tile of its kind makes no fifth of that kind."""
    tiles = acc.tiles
    main = kind(tiles[indices[0]].tile)
    seen = [*acc.row, *([acc.win] if acc.win is not None else [])]
    seen += [k for _, i in acc.melds for k in i]
    return sum(kind(tiles[k].tile) == main for k in {*seen, *indices}) < 4


def _fill_with_loose_pon(acc: _Right) -> None:
    """§1 counts: the hand needs three more tiles, and three side by side right of it, all
    alike (their turns misreported: two sideways, or none), or two alike and the third
    possibly alike (or sideways), are a pon."""
    tiles = acc.tiles
    taken = {k for _, idx in acc.melds for k in idx} | ({acc.win} if acc.win is not None else set())
    loose = loose_pon(acc.groups, tiles, taken) if acc.units() + 3 in (13, 14) else None
    if loose is None or acc.units() in (13, 14):
        return
    if not _pon_fits(loose, acc.row, acc.win, acc.melds, tiles):
        return
    indices, main = loose
    seen = tuple(tiles[k].tile for k in indices)
    if _called_and_added(acc, indices, main):
        meld = _meld_string("kakan", [tiles[k].tile for k in indices], 4)
        acc.add_meld(meld, indices)
        acc.lone_candidates = [k for k in acc.lone_candidates if k not in indices]
        acc.guesses += 1
        acc.warnings.append(PhotoWarning("kakan_fourth_unseen", tiles=seen, meld=meld))
        return
    acc.add_meld(f"pon:{meld_mpsz([main] * 3)}", indices)
    acc.lone_candidates = [k for k in acc.lone_candidates if k not in indices]
    acc.guesses += 1
    alike = sum(kind(tiles[k].tile) == main for k in indices)
    acc.warnings.append(
        PhotoWarning(
            "pon_turns_misread" if alike == 3 else "pon_odd_tile",
            tiles=seen,
            kind=main,
            meld=f"pon:{meld_mpsz([main] * 3)}",
        )
    )


def _called_and_added(acc: _Right, indices: list[int], main: str) -> bool:
    """Of a loose pon's three tiles, all read as ``main``, two reported sideways lie in one
    slot along the row, one clearly beyond the other (the third may be reported sideways
    too: two touching upright tiles seen as one turned box): a kakan's called tile and its added
    tile (§23; a pon shows one sideways tile), whose fourth tile the detector merged into
    another box. Only when a fourth tile of the kind leaves no fifth (§1)."""
    tiles = acc.tiles
    if main == NORTH or any(kind(tiles[k].tile) != main for k in indices):
        return False
    placed = {p.index: p for _, group in acc.groups for p in group}
    side = [placed[k] for k in indices if k in placed and tiles[k].angle == 90]
    stacked = any(
        share_slot(p, q) and abs(p.off - q.off) > S.beyond
        for i, p in enumerate(side)
        for q in side[i + 1 :]
    )
    return stacked and _room(acc, indices)


def _name_lone_tiles(acc: _Right) -> None:
    """Lone upright tiles right of the row that are not the winning tile: named to check."""
    if not acc.lone_candidates:
        return
    extra = tuple(acc.tiles[k].tile for k in acc.lone_candidates)
    if acc.win is not None:
        acc.warnings.append(
            PhotoWarning("win_two_candidates", tile=acc.tiles[acc.win].tile, others=extra)
        )
    else:
        acc.warnings.append(PhotoWarning("lone_tiles_left_out", tiles=extra))


def _misread_win(row: list[int], tiles: list[TileDetection], win: int) -> bool:
    """A north read unsure (below ``low_confidence``) whose next reading, a real one
    (``kita_alt``), completes the row's tiles: the winning tile misread (the rule-aware reading
    then re-reads it; dev 970115, a winning 1z read 4z 0.49, 1z 0.33)."""
    tile = tiles[win]
    if tile.confidence >= S.low_confidence:
        return False
    return any(
        p >= S.kita_alt and is_face(t) and not is_north(t) and _completes(row, tiles, kind(t))
        for t, p in tile.alternatives
    )


def _north_on_line(acc: _Right, k: int) -> bool:
    """The first group right of the row is the lone tile ``k``, on the row's line and at most
    ``north_win_gap`` apart (a little further than a winning north lies, ``north_gap``)."""
    if not acc.groups:
        return False
    gap, first = acc.groups[0]
    return (
        len(first) == 1
        and first[0].index == k
        and abs(first[0].off) < S.north_off
        and gap < S.north_win_gap
    )


def _row_kinds(row: list[int], tiles: list[TileDetection]) -> list[str] | None:
    """The kinds of the row's tiles (the aka-5-man a north), None unless all are face up."""
    held = [kind(as_sanma(tiles[k].tile)) for k in row if readable(tiles[k])]
    return held if len(held) == len(row) else None


def _completes(row: list[int], tiles: list[TileDetection], last: str) -> bool:
    """The row's tiles (all face up) make a winning shape with a tile of kind ``last``."""
    held = _row_kinds(row, tiles)
    return held is not None and complete([*held, last])


def _north_is_kita(row: list[int], tiles: list[TileDetection]) -> bool:
    """The row's tiles (all face up) are in tenpai and make no winning shape with a north."""
    held = _row_kinds(row, tiles)
    return held is not None and tenpai(held) and not complete([*held, NORTH])


def _squarish(tile: TileDetection, geo: Geo, row: list[int]) -> bool:
    """A tile reported sideways whose box is no wider for its height than ``squarish`` × the
    row's upright tiles' boxes (tilted alike): it may stand upright."""
    x1, y1, x2, y2 = tile.box
    row_aspect = float(np.median([geo.widths[k] / geo.heights[k] for k in row]))
    return (x2 - x1) / max(y2 - y1, 1e-6) <= S.squarish * row_aspect


def _north_wins(gap: float, p: Placed) -> bool:
    """A north set apart right after the row: the winning tile lies on the row's line at a
    small gap; a kita is set aside (off the line, or further away)."""
    return abs(p.off) < S.north_off and gap < S.north_gap


def _score(
    reading: _Reading, geo: Geo, joined: bool = False, tiles: list[TileDetection] | None = None
) -> tuple[float, ...]:
    """Rank candidate readings: a 13/14-tile hand first (§1), then the nearest to it, then the
    one that made up fewer sets from damaged tiles, then the one leaving fewer tiles on the
    row's line right of it unexplained (a row cut one tile short, its last tile taken as the
    winning tile, leaves the true one over; a row run on into a set leaves its called tile
    over), then the one whose row holds fewer tiles shaped like sideways ones (a row run on
    into a set whose called tile was reported upright, :func:`_turned_in_row`), then a row as
    found before one rejoined across a gap, then the one whose concealed tiles make a winning
    or tenpai shape (:func:`_in_shape`, with ``tiles``: a photo shows a won hand or one in
    tenpai; a tanki reading beside a two-tile row, dev 970254), then the longer row, then
    the larger tiles (nearer the camera: the player's own)."""
    units = reading.units
    plausible = 1.0 if units in (13, 14) else 0.0
    size = float(np.mean([geo.scale(k) for k in reading.row]))
    return (
        plausible,
        -abs(units - 13.5),
        -float(reading.guesses),
        -float(reading.loose),
        -float(len(_turned_in_row(reading.row, geo))),
        float(not joined),
        float(tiles is not None and _in_shape(reading, tiles)),
        float(len(reading.row)),
        size,
    )


def _in_shape(reading: _Reading, tiles: list[TileDetection]) -> bool:
    """The reading's concealed tiles (all face up) make a winning shape with its winning tile,
    or, without one, as 14 tiles (the last the winning tile, :func:`_finish_row`), or are in
    tenpai as 13 (§1: a photo shows a won hand, or one in tenpai at a draw)."""
    held = _row_kinds(reading.row, tiles)
    if held is None:
        return False
    if reading.win is not None:
        return complete([*held, kind(as_sanma(tiles[reading.win].tile))])
    if len(held) % 3 == 2:
        return complete(held)
    return len(held) % 3 == 1 and tenpai(held)


def _turned_in_row(row: list[int], geo: Geo) -> list[int]:
    """The tiles of a level row whose box is clearly wider for its height than their
    neighbours' in the row (``turned_in_row``): a called tile the detector did not turn, the
    row run on into a meld (§23: concealed tiles stand upright). Neighbours only: perspective
    widens the boxes gradually along a row (dev renders: up to 1.2 × from end to end)."""
    if len(row) < 3:
        return []
    d = geo.centres[row[-1]] - geo.centres[row[0]]
    if abs(math.atan2(float(d[1]), float(d[0]))) >= S.unturned_tilt:
        return []  # a steep row's boxes are shaped by the view as much as by the tiles
    aspects = geo.widths[row] / geo.heights[row]
    turned = []
    for i, aspect in enumerate(aspects):
        near = [*aspects[max(0, i - 2) : i], *aspects[i + 1 : i + 3]]
        if aspect >= S.turned_in_row * float(np.median(near)):
            turned.append(row[i])
    return turned


TURN_RANK = 4  # where :func:`_score` weighs the row's turned tiles
SHAPE_RANK = 6  # ... and whether the concealed tiles make a winning or tenpai shape


def turned_rival_notes(
    readings: list[_Reading],
    scores: list[tuple[float, ...]],
    best: int,
    tiles: list[TileDetection],
    geo: Geo,
) -> list[str]:
    """A warning when the best reading won only because a rival's row holds a tile shaped like
    a sideways one (:func:`_turned_in_row`): the rival ranked equal before it and higher
    after it (a longer row). Names the tiles to check."""
    lost = {
        k
        for i in _rivals(scores, best, TURN_RANK)
        for k in _turned_in_row(readings[i].row, geo)
        if k not in readings[best].row
    }
    if not lost:
        return []
    return [PhotoWarning("row_or_meld", tiles=tuple(tiles[k].tile for k in sorted(lost)))]


def _rivals(scores: list[tuple[float, ...]], best: int, rank: int) -> list[int]:
    """The readings that ranked equal to the best one before score key ``rank`` and higher
    after it: the best won on that key alone."""
    top = scores[best]
    return [
        i
        for i, s in enumerate(scores)
        if s[:rank] == top[:rank] and s[rank + 1 :] > top[rank + 1 :]
    ]


def shape_rival_notes(
    readings: list[_Reading],
    scores: list[tuple[float, ...]],
    best: int,
    tiles: list[TileDetection],
) -> list[str]:
    """A warning when the best reading won only because its concealed tiles make a winning or
    tenpai shape and a rival's, ranked equal before that and higher after it (a longer row),
    do not (:func:`_in_shape`). Names the tiles the two rows disagree on."""
    row = set(readings[best].row)
    differ = {k for i in _rivals(scores, best, SHAPE_RANK) for k in set(readings[i].row) ^ row}
    if not differ:
        return []
    return [PhotoWarning("row_by_shape", tiles=tuple(tiles[k].tile for k in sorted(differ)))]


def _finish_row(reading: _Reading, tiles: list[TileDetection], warnings: list[str]) -> _Reading:
    """No tile set apart but one tile too many in the row: the rightmost is the winning tile
    (when it is a face: a face-down end stays an unreadable hand tile)."""
    if reading.win is not None:
        return reading
    reading = _one_too_many(reading, tiles, warnings)
    faces = [k for k in reading.row if readable(tiles[k])]
    if len(faces) == 14 - 3 * len(reading.melds) and readable(tiles[reading.row[-1]]):
        last = reading.row[-1]
        north = is_north(tiles[last].tile) and tiles[last].confidence >= S.low_confidence
        if north and _north_is_kita(reading.row[:-1], tiles):
            # §A4: a kita laid touching the hand's end, after 13 tiles in tenpai that it
            # does not complete (as one set apart, _settle_north_win). (A north read unsure
            # may be a misread winning tile, which the rule-aware reading may re-read.)
            warnings.append(PhotoWarning("north_touching_kita", tile=tiles[last].tile))
            return replace(reading, row=reading.row[:-1], kita=[last, *reading.kita])
        warnings.append(PhotoWarning("win_rightmost", tile=tiles[last].tile))
        return replace(reading, row=reading.row[:-1], win=last)
    return reading


def _one_too_many(reading: _Reading, tiles: list[TileDetection], warnings: list[str]) -> _Reading:
    """§1: a hand holds at most 14 tiles (less three per meld). A row of faces one more than
    that, no winning tile set apart, whose tile at one end is read unsure (below
    ``low_confidence``) and whose other 14 make a winning shape: that end tile is none of the
    hand's (a neighbour's tile or a stray box touching it), left out with a warning."""
    row = reading.row
    if len(row) < 3 or not all(readable(tiles[k]) for k in row):
        return reading
    if len(row) != 15 - 3 * len(reading.melds):
        return reading
    for end in (row[0], row[-1]):
        if tiles[end].confidence >= S.low_confidence:
            continue
        rest = [k for k in row if k != end]
        if not complete(_row_kinds(rest, tiles) or []):
            continue
        warnings.append(
            PhotoWarning(
                "one_too_many", tile=tiles[end].tile, end="start" if end == row[0] else "end"
            )
        )
        return replace(reading, row=rest, other_right=[*reading.other_right, end])
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
