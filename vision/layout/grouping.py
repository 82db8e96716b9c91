"""Stage 2, right of the row: the tiles on the row's line cut into groups at gaps, and
crowded groups into sets, in the row end's own frame, following the line of the melds as it
goes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from sanma_lens.vision.detect import iou
from sanma_lens.vision.layout.geometry import Frame, Geo, _line_at
from sanma_lens.vision.layout.notation import (
    AKA_MAN,
    NORTH,
    back_like,
    is_north,
    kind,
    north_like,
    readable,
)
from sanma_lens.vision.layout.rulefix import kind_prob, may_share_kind
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection


@dataclass(frozen=True)
class Placed:
    """A tile right of the row in the end frame: position and extent along the row."""

    index: int
    t: float
    n: float
    half: float  # half its extent along the row
    a: float  # its short side
    off: float = 0.0  # offset across the row's line, × a
    raised: bool = False  # lies beyond the line (where a kakan's added tile lies), not on it


def _right_groups(
    row: list[int], tiles: list[TileDetection], geo: Geo, frame: Frame
) -> list[tuple[float, list[Placed]]]:
    """Tiles on the row's line right of its end, cut into groups at gaps: ``(gap, group)``.

    The line is followed as it goes: each accepted tile refines a straight fit of the recent
    tile centres (upright tiles sit centred on it, sideways ones bottom-aligned with it), so
    a gentle curve or perspective does not drift away. A sideways tile lying beyond another
    tile of its kind, one of the two reported sideways (a kakan's added tile, §23: the only
    tile a table shows there; the detector may report either of the pair upright), joins that
    tile's group.
    """
    in_row = set(row)
    # A tile reported upright whose box is shaped like a sideways tile (clearly wider for its
    # height than the row's tiles) lies sideways: a called tile the detector did not turn.
    row_aspect = float(np.median([geo.widths[k] / geo.heights[k] for k in row]))
    sa = frame.b / S.aspect  # across extent of a sideways tile (foreshortened like the row)
    side_shift = (frame.b - sa) / 2  # a bottom-aligned sideways tile's centre vs the row line
    placed: list[tuple[Placed, bool]] = []
    for k, tile in enumerate(tiles):
        if k in in_row or not (readable(tile) or tile.face_down) or geo.cut[k]:
            continue  # a flower, junk or a tile half out of the photo: no set's tile
        t, n = frame.coords(geo.centres[k])
        # (a kita may lie either way: a north's box shape says nothing)
        shaped = geo.widths[k] / geo.heights[k] >= S.unturned * row_aspect
        level = abs(frame.theta) < S.unturned_tilt
        unturned = shaped and level and not north_like(tile, S.kita_alt)
        sideways = tile.angle == 90 or unturned
        # Size from the row's own pitch, scaled by box area (perspective): boxes include the
        # tiles' sides, so box edges would understate the gaps between 3D tiles.
        a = frame.a * geo.scale(k) / geo.scale(row[-1])
        half = (S.aspect * a if sideways else a) / 2
        if t - half < -0.2 * frame.a or not S.right_sizes[0] < a / frame.a < S.right_sizes[1]:
            continue
        placed.append((Placed(k, t, n, half, a), sideways))
    placed.sort(key=lambda ps: ps[0].t - ps[0].half)
    line_t = [float(geo.centres[k] @ frame.u - frame.origin @ frame.u) for k in row[-4:]]
    line_n = [float((geo.centres[k] - frame.origin) @ frame.v) for k in row[-4:]]
    groups: list[tuple[float, list[Placed]]] = []
    raised: list[Placed] = []
    edge, scale = frame.a / 2, frame.a
    for p, sideways in placed:
        ref = _line_at(line_t[-6:], line_n[-6:], p.t)
        dn = p.n - ref - (side_shift if sideways else 0.0)
        across = sa if sideways else frame.b
        if -1.7 * sa < dn < -0.5 * (sa if sideways else across):
            raised.append(replace(p, off=dn / p.a, raised=True))
            continue
        if abs(dn) > 0.5 * across:
            continue
        p = replace(p, off=dn / p.a)
        gap = (p.t - p.half) - edge
        local = (scale + p.a) / 2
        if groups and gap <= S.group_gap * local:
            groups[-1][1].append(p)
        else:
            if gap > S.band_gap * local:
                break
            groups.append((gap / local, [p]))
        edge = max(edge, p.t + p.half)
        scale = p.a
        line_t.append(p.t)
        line_n.append(p.n - (side_shift if sideways else 0.0))
    for p in raised:  # a kakan's added tile: attach to the called tile it lies beyond
        for _, group in groups:
            if any(_added_on(p, q, tiles) for q in group):
                group.append(p)
                break
        else:
            for _, group in groups:
                if _added_beside(p, group, tiles):
                    group.append(p)
                    break
            else:
                _join_across(p, groups, tiles)
    return _split_loose(groups, tiles)


def _join_across(
    p: Placed, groups: list[tuple[float, list[Placed]]], tiles: list[TileDetection]
) -> None:
    """``p``, a sideways tile lying beyond the line, fills the gap between two groups of
    upright tiles all of its kind, one tile each or more, whose ends it adjoins on either side:
    a kakan called from across, its called tile (under ``p``) unseen (§23). The two groups and
    ``p`` become one (in ``groups``, in place)."""
    for i in range(len(groups) - 1):
        (gap, left), (_, right) = groups[i], groups[i + 1]
        both = [*left, *right]
        if not _added_beside(p, left, tiles, least=1) or not _added_beside(
            p, right, tiles, least=1
        ):
            continue
        if len(both) > 3:
            continue  # a kakan shows two upright tiles beside its called one
        groups[i : i + 2] = [(gap, [*left, p, *right])]
        return


def _added_beside(
    p: Placed, group: list[Placed], tiles: list[TileDetection], least: int = 2
) -> bool:
    """``p``, a sideways tile lying beyond the line, is the added tile of a kakan whose called
    tile (under it) went unseen (§23): its slot adjoins an end of a group of upright tiles
    (at most ``group_gap`` × a apart along the row, as a set's tiles touch), at least ``least``
    of them and all read as its kind (a north may be a kita laid above the melds, §A5)."""
    det = tiles[p.index]
    if det.angle != 90 or not readable(det) or is_north(det.tile):
        return False
    dets = [tiles[q.index] for q in group]
    if len(group) < least or any(d.angle == 90 or not readable(d) for d in dets):
        return False
    if any(kind(d.tile) != kind(det.tile) for d in dets):
        return False
    start = min(q.t - q.half for q in group)
    end = max(q.t + q.half for q in group)
    gap = max(start - (p.t + p.half), (p.t - p.half) - end)
    return -S.group_gap * p.a < gap <= S.group_gap * p.a


def _added_on(p: Placed, q: Placed, tiles: list[TileDetection]) -> bool:
    """``p`` lies beyond ``q`` (overlapping it along the row) as a kakan's added tile lies
    beyond the called one: one of the two reported sideways, both of one kind by their
    readings (§23)."""
    a, b = tiles[p.index], tiles[q.index]
    if not share_slot(p, q) or not (readable(a) and readable(b)):
        return False
    if 90 not in (a.angle, b.angle):
        # neither reported sideways (on a tilted row the turn is easily missed): the same
        # kind, clearly beyond and touching it (a dora indicator or a discard of the kind
        # may lie near, a little apart), and no north (kita may lie above the melds, §A5)
        return (
            kind(a.tile) == kind(b.tile)
            and not is_north(a.tile)
            and abs(p.off - q.off) > S.beyond
            and iou(a.box, b.box) >= S.upright_added_iou
        )
    if kind(a.tile) == kind(b.tile):
        return True
    # one of the two misread: only on a real reading of the other's kind, not a trace (a
    # discard touching a called set must not join it)
    return kind_prob(a, kind(b.tile)) >= S.added_alt or kind_prob(b, kind(a.tile)) >= S.added_alt


def one_beyond(p: Placed, q: Placed, tiles: list[TileDetection]) -> bool:
    """Two tiles of a called set in one slot along the row: both reported sideways and
    overlapping along it, or one lying clearly beyond the other (a kakan's added tile, §23;
    a minkan's four tiles lie side by side on the row's line)."""
    if not share_slot(p, q):
        return False
    both = tiles[p.index].angle == 90 and tiles[q.index].angle == 90
    return both or abs(p.off - q.off) > S.beyond


def _norths(dets: list[TileDetection]) -> bool:
    """Tiles that may all be norths (each read as one, or with a north reading at least
    ``kita_alt`` likely, or a red five with an aka-5-man reading), at least one read as a
    north: kita, or a called set of norths."""
    return all(north_like(d, S.kita_alt) or _red_aka(d) for d in dets) and any(
        is_north(d.tile) for d in dets
    )


def _red_aka(det: TileDetection) -> bool:
    """A tile read as a red five of pinzu or souzu with the aka-5-man among its readings
    (at least ``swap_min_alt``): the classifier tells the three red fives apart by their
    suits' marks, not the red, so beside norths it may be the aka-5-man kita (§A5; dev
    660078, a 0p 0.29 with 0m 0.08 among kita)."""
    return det.tile in ("0p", "0s") and any(
        t == AKA_MAN and p >= S.swap_min_alt for t, p in det.alternatives
    )


def _split_loose(
    groups: list[tuple[float, list[Placed]]], tiles: list[TileDetection]
) -> list[tuple[float, list[Placed]]]:
    """Cut groups that hold more than one set (melds laid close together, or a winning tile
    and a kita) into runs: an ankan (face-down, two alike, face-down) or a run of one kind;
    a lone tile of another kind stands alone."""
    out: list[tuple[float, list[Placed]]] = []
    for gap, group in groups:
        kinds = Counter(kind(tiles[p.index].tile) for p in group if readable(tiles[p.index]))
        marked = any(tiles[p.index].angle == 90 or tiles[p.index].face_down for p in group)
        # A set with a misread tile: two alike, or an ankan's two faces alike by their readings.
        faces = [tiles[p.index] for p in group if readable(tiles[p.index])]
        one_set = marked and (
            max(kinds.values(), default=0) >= 2
            or (len(group) == 4 and len(faces) == 2 and may_share_kind(faces))
        )
        kita = _norths([tiles[p.index] for p in group])
        ordered = sorted(group, key=lambda p: p.t)
        head, rest = tiles[ordered[0].index], [tiles[p.index] for p in ordered[1:]]
        if (
            rest
            and head.angle == 0
            and readable(head)
            and not north_like(head, S.kita_alt)
            and all(north_like(d, S.kita_alt) and not d.face_down for d in rest)
        ):  # a winning tile with kita laid close after it (§A4)
            out += [(gap, ordered[:1]), (0.0, ordered[1:])]
            continue
        odd = _odd_end(group, tiles) or _stray_back(group, tiles)
        if odd is not None:  # a lone tile (a winning tile, a kita) laid close to a set
            others = [p for p in group if p is not odd]
            if odd is group[0]:
                out += [(gap, [odd]), (0.0, others)]
            else:
                out += [(gap, others), (0.0, [odd])]
            continue
        if len(group) <= 4 and (len(kinds) <= 1 or one_set or kita):
            out.append((gap, group))
            continue
        for i, run in enumerate(_runs(group, tiles)):
            out.append((gap if i == 0 else 0.0, run))
    return out


def end_splits(group: list[Placed]) -> tuple[tuple[Placed, list[Placed]], ...]:
    """The group's two ends along the row, each with the other tiles: (first, rest) and
    (last, rest)."""
    ordered = sorted(group, key=lambda p: p.t)
    return (ordered[0], ordered[1:]), (ordered[-1], ordered[:-1])


def _odd_end(group: list[Placed], tiles: list[TileDetection]) -> Placed | None:
    """Four tiles, three of one kind with no face-down tile, and an upright tile at an end with
    no real reading of that kind (below ``added_alt``: a flower or a stray read unsure lists
    traces of many kinds, dev 650134 a 5z 0.19 with a north at 0.09 after a pon of norths):
    that tile lies close to a set, not in it. A
    north (or the aka-5-man) there may lie sideways too, as kita are laid (§A4): read as a
    north, it is no called tile of a set of another kind."""
    if len(group) != 4 or any(tiles[p.index].face_down for p in group):
        return None
    for end, rest in end_splits(group):
        dets = [tiles[p.index] for p in rest]
        if not all(readable(d) for d in dets) or len({kind(d.tile) for d in dets}) != 1:
            continue
        det = tiles[end.index]
        main = kind(dets[0].tile)
        if (
            (det.angle == 0 or (is_north(det.tile) and main != NORTH))
            and readable(det)
            and kind(det.tile) != main
            and kind_prob(det, main) < S.added_alt
        ):
            return end
    return None


def _stray_back(group: list[Placed], tiles: list[TileDetection]) -> Placed | None:
    """Two or three tiles, face up but for a box at an end read face-down unsure (below
    ``low_confidence``): no concealed kan (two backs around two faces, §23) and no called set
    (it lies face up) has such a tile, so it lies apart from them: a shadow or a gap the
    detector took for a tile's back (dev 960215: a back 0.58 touching the winning tile)."""
    if len(group) not in (2, 3):
        return None
    for end, rest in end_splits(group):
        det = tiles[end.index]
        if (
            det.face_down
            and det.confidence < S.low_confidence
            and all(readable(tiles[p.index]) for p in rest)
        ):
            return end
    return None


def _runs(group: list[Placed], tiles: list[TileDetection]) -> list[list[Placed]]:
    """Split one group, left to right, into ankan patterns and same-kind runs."""
    base = sorted([p for p in group], key=lambda p: p.t)
    slots: list[list[Placed]] = []
    for p in base:  # a tile lying on/beyond a sideways tile shares its slot
        if (
            slots
            and tiles[p.index].angle == 90
            and any(tiles[q.index].angle == 90 and share_slot(p, q) for q in slots[-1])
        ):
            slots[-1].append(p)
        else:
            slots.append([p])

    def slot_kind(slot: list[Placed]) -> str | None:
        t = tiles[slot[0].index]
        return kind(t.tile) if readable(t) else None

    def is_back(slot: list[Placed]) -> bool:  # an ankan's end: face-down, or maybe (§23)
        return back_like(tiles[slot[0].index], S.swap_min_alt)

    runs: list[list[Placed]] = []
    i = 0
    while i < len(slots):
        if (
            is_back(slots[i])
            and i + 3 < len(slots)
            and is_back(slots[i + 3])
            and slot_kind(slots[i + 1]) is not None
            and slot_kind(slots[i + 2]) is not None
            and may_share_kind([tiles[slots[i + 1][0].index], tiles[slots[i + 2][0].index]])
        ):
            runs.append([p for s in slots[i : i + 4] for p in s])
            i += 4
            continue
        k, j = slot_kind(slots[i]), i + 1
        while k is not None and j < len(slots) and slot_kind(slots[j]) == k and j - i < 4:
            j += 1
        runs.append([p for s in slots[i:j] for p in s])
        i = j
    return runs


def share_slot(a: Placed, b: Placed) -> bool:
    """Two tiles overlapping along the row by more than half: one lies on/next to the other."""
    overlap = min(a.t + a.half, b.t + b.half) - max(a.t - a.half, b.t - b.half)
    return overlap > 0.5 * min(a.half, b.half) * 2
