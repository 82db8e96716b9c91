"""Looks at the concealed row and the pons (vision/decoder.py): holes, the winning tile's place, a
tile missed in the row, a kakan's added tile.

The detector sometimes reports no box for a tile of the hand (a weak or suppressed peak, a
crop the classifier could not name). §1 says how many concealed tiles the hand must hold
(13 − 3 per meld, plus the winning tile); when the reading holds fewer, the row's own geometry
says where the missing ones may lie: a hole of one or more tile pitches between two tiles of
the row (or of the row and tiles further along its line, where the hole cut the row in two), or
one pitch past either end of it (:func:`gap_boxes`). Each such place is cut out with its
neighbours' box size and read by the classifier; a reading it is sure of (a riichi tile, not
``none``/``flower``/``back``) that makes no fifth of its kind (:func:`accept`) is proposed as a
tile of the row (:func:`hole_edits`).

A hand of 13 tiles without a winning tile may be shown in tenpai, or its winning tile was
missed: a few places past the row's right end, where a winning tile is set a little apart, are
read, and a sure reading that makes a winning hand is proposed as the winning tile
(:func:`win_edits`); a concealed tile may also have been missed instead, the winning tile then
laid into the row: a sure reading in or beside the row that makes the 14 tiles a winning shape
is proposed too (:func:`missed_edits`). A pon whose kakan's added tile was dropped as a double,
or is seen only as lying on the called tile, is proposed as that kakan (:func:`kakan_edits`).

Geometry and proposals only here; the decoder lays each proposal out and chooses, and the
pipeline cuts the crops and runs the classifier.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from sanma_lens.vision.decoder import (
    Edit,
    Goal,
    Hypothesis,
    held,
    meld_kind,
    pon_to_kakan,
    saying,
    short_by,
)
from sanma_lens.vision.detect import aspect, iou
from sanma_lens.vision.layout import Layout
from sanma_lens.vision.layout.notation import as_sanma, is_face, kind, readable
from sanma_lens.vision.layout.rulefix import complete
from sanma_lens.vision.layout.sanity import kind_counts
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import Box, Reader, Reading, TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

GROUPS = ("hand", "win", "meld", "kita", "dora")  # the player's tiles, counted for §1's limit


@dataclass(frozen=True)
class Probe:
    """A place to look: a box (photo pixels) and the tiles either side of it (``spot``: the
    left one and the right one, None past an end of the row)."""

    box: tuple[float, float, float, float]
    spot: tuple[str | None, str | None]
    inside: bool = False  # in a hole between two tiles of the row's line (not past an end)
    angle: int = 0  # the row's tiles' reported turn: 90 in a photo turned by 90° (cut so)


def _centre(t: TileDetection) -> np.ndarray:
    return np.array(t.center, dtype=float)


def _scale(t: TileDetection) -> float:
    x1, y1, x2, y2 = t.box
    return math.sqrt(max(x2 - x1, 1e-6) * max(y2 - y1, 1e-6))


def _row(tiles: Sequence[TileDetection]) -> list[int]:
    """The concealed row's tiles (group ``hand``), ordered left to right along its line."""
    idx = [k for k, t in enumerate(tiles) if t.group == "hand"]
    if len(idx) < 2:
        return idx
    pts = np.array([tiles[k].center for k in idx])
    centred = pts - pts.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    u = vt[0] if vt[0][0] >= 0 else -vt[0]
    return [idx[i] for i in np.argsort(centred @ u)]


def _extend(
    chain: list[int], tiles: Sequence[TileDetection], pitch: float, forward: bool, angle: int
) -> list[int]:
    """Tiles further along the row's line past one end (turned as the row's tiles are reported,
    ``angle``; face up, of the size of the tiles at that end, not in a meld or kita): the rest
    of a row a hole cut in two."""
    chain = list(chain)
    free = [
        k
        for k, t in enumerate(tiles)
        if t.group in ("other", "win") and t.angle == angle and readable(t)
    ]
    while len(chain) < 14:
        end, prev = (chain[-1], chain[-2]) if forward else (chain[0], chain[1])
        # the size of the tiles at this end: perspective shrinks a row's far end
        size = float(np.median([_scale(tiles[k]) for k in (chain[-3:] if forward else chain[:3])]))
        u = _centre(tiles[end]) - _centre(tiles[prev])
        u = u / max(float(np.linalg.norm(u)), 1e-6)
        v = np.array([-u[1], u[0]])
        height = max(tiles[end].box[3] - tiles[end].box[1], pitch)
        best: tuple[float, int] | None = None
        for k in free:
            if k in chain:
                continue
            r = _centre(tiles[k]) - _centre(tiles[end])
            along, across = float(r @ u), float(r @ v)
            near = (
                S.line_along[0] * pitch < along < S.line_along[1] * pitch
                and abs(across) < S.line_across * height
            )
            near = near and 1 / S.line_size < _scale(tiles[k]) / size < S.line_size
            if near and (best is None or along < best[0]):
                best = (along, k)
        if best is None:
            break
        chain = [*chain, best[1]] if forward else [best[1], *chain]
    return chain


def _local_pitch(links: np.ndarray, i: int, pitch: float) -> float:
    """The pitch around link ``i``: the median of the links up to three away on either side
    that are no hole themselves (perspective changes the pitch along the row)."""
    near = [float(v) for v in (*links[max(0, i - 3) : max(0, i)], *links[i + 1 : i + 4])]
    near = [v for v in near if v < S.hole_pitches * pitch]
    return float(np.median(near)) if near else pitch


def _box_at(p: np.ndarray, like: Sequence[TileDetection]) -> tuple[float, float, float, float]:
    w = float(np.mean([t.box[2] - t.box[0] for t in like]))
    h = float(np.mean([t.box[3] - t.box[1] for t in like]))
    return (float(p[0]) - w / 2, float(p[1]) - h / 2, float(p[0]) + w / 2, float(p[1]) + h / 2)


@dataclass(frozen=True)
class _Place:
    """A place to look before the overlap checks: its centre, the tiles whose box size it
    takes, the tiles either side of it, whether in a hole, and the row's local pitch there."""

    p: np.ndarray
    like: tuple[TileDetection, ...]
    spot: tuple[str | None, str | None]
    inside: bool
    step: float


def gap_boxes(
    tiles: Sequence[TileDetection], image_size: tuple[int, int], need: int = 1
) -> list[Probe]:
    """Places in and beside the concealed row where a tile may lie unreported.

    ``tiles`` are a layout's tiles (``group`` set). The row (group ``hand``), continued along
    its line by tiles of its size and turn past either end (the rest of a row cut in two by a
    hole, or the winning tile), is walked link by link: a link ``hole_pitches`` local pitches
    long or more leaves room for ``round(link / pitch) − 1`` tiles, evenly spaced
    (:func:`_holes`); one pitch past each end is a place too (:func:`_ends`). A place
    overlapping a reported tile, or outside the photo, is dropped (:func:`_free`). None when
    the concealed part, ``need`` tiles short (§1), stays more than ``max_need`` short with the
    tiles further along the line counted.
    """
    row = _row(tiles)
    if len(row) < 2:
        return []
    pts = np.array([tiles[k].center for k in row])
    pitch = float(np.median(np.hypot(*np.diff(pts, axis=0).T)))
    if pitch <= 0:
        return []
    # A photo turned by 90° shows the row's tiles sideways: the places are cut and read so.
    angle = 90 if 2 * sum(tiles[k].angle == 90 for k in row) > len(row) else 0
    chain = _extend(_extend(row, tiles, pitch, True, angle), tiles, pitch, False, angle)
    if need - sum(tiles[k].group == "other" for k in chain) > S.max_need:
        return []  # too few tiles along the row's line for a hand with a tile or two missed
    places = [*_holes(chain, tiles, pitch), *_ends(chain, tiles, pitch)]
    return _free(places, tiles, row, image_size, angle)


def _holes(chain: list[int], tiles: Sequence[TileDetection], pitch: float) -> list[_Place]:
    """The places in the holes between the chain's tiles (links ``hole_pitches`` local pitches
    long)."""
    cp = np.array([tiles[k].center for k in chain])
    links = np.hypot(*np.diff(cp, axis=0).T)
    out: list[_Place] = []
    for i, (a, b) in enumerate(zip(chain, chain[1:], strict=False)):
        step = _local_pitch(links, i, pitch)
        if links[i] < S.hole_pitches * step:
            continue
        # The winning tile is set apart on purpose: a gap beside it may be no hole (a crop
        # there straddles a neighbour), so it takes the bar of a place past the row's end.
        inside = "win" not in (tiles[a].group, tiles[b].group)
        m = min(S.max_hole, round(links[i] / step) - 1)
        for j in range(1, m + 1):
            p = cp[i] + (cp[i + 1] - cp[i]) * j / (m + 1)
            spot = (tiles[a].tile, tiles[b].tile)
            out.append(_Place(p, (tiles[a], tiles[b]), spot, inside, step))
    return out


def _ends(chain: list[int], tiles: Sequence[TileDetection], pitch: float) -> list[_Place]:
    """One local pitch past either end of the chain; nothing of the hand lies past the
    winning tile (§1: it is set apart at the row's end)."""
    cp = np.array([tiles[k].center for k in chain])
    links = np.hypot(*np.diff(cp, axis=0).T)
    out: list[_Place] = []
    for end, nxt, i, side in ((0, 1, -1, "left"), (-1, -2, len(links), "right")):
        k = chain[end]
        if tiles[k].group == "win":
            continue
        step = _local_pitch(links, i, pitch)
        u = cp[end] - cp[nxt]
        p = cp[end] + u * step / max(float(np.linalg.norm(u)), 1e-6)
        spot = (None, tiles[k].tile) if side == "left" else (tiles[k].tile, None)
        out.append(_Place(p, (tiles[k],), spot, False, step))
    return out


def _free(
    places: Sequence[_Place],
    tiles: Sequence[TileDetection],
    row: list[int],
    image_size: tuple[int, int],
    angle: int,
) -> list[Probe]:
    """The places inside the photo whose box overlaps no reported tile: its centre at least
    ``probe_near`` local pitches from every tile's (the local pitch: perspective shrinks the
    row's far end), its IoU with every box below ``probe_iou`` more than the row's touching
    neighbours overlap each other (boxes hold the tiles' bodies)."""
    touching = [iou(tiles[a].box, tiles[b].box) for a, b in zip(row, row[1:], strict=False)]
    limit = S.probe_iou + float(np.median(touching))
    w, h = image_size
    centres = [_centre(t) for t in tiles]
    out: list[Probe] = []
    for place in places:
        box = _box_at(place.p, place.like)
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            continue
        if any(float(np.linalg.norm(place.p - c)) < S.probe_near * place.step for c in centres):
            continue
        if any(iou(box, t.box) >= limit for t in tiles):
            continue
        out.append(Probe(box, place.spot, place.inside, angle))
    return out


def accept(
    probes: Sequence[Probe],
    readings: Sequence[Reading],
    tiles: Sequence[TileDetection],
    need: int,
) -> list[tuple[TileDetection, PhotoWarning]]:
    """The probed places taken as tiles, with a warning each: the crop's best reading
    (``readings[i]``: tile, probability, next-best readings) is a riichi tile at least
    ``probe_sure`` likely, makes no fifth of its kind among the player's tiles (§1), and at
    most ``need`` places are taken, surest first. In a hole inside the row a crop read as a
    flower first is read as its likeliest riichi tile (:func:`_in_hole`)."""
    counts = Counter(kind(t.tile) for t in tiles if t.group in GROUPS and readable(t))
    given = readings
    readings = [_in_hole(r) if pr.inside else r for pr, r in zip(probes, readings, strict=True)]
    order = sorted(range(len(probes)), key=lambda i: -readings[i][1])
    out: list[tuple[TileDetection, PhotoWarning]] = []
    for i in order:
        tile, p, alts = readings[i]
        if len(out) == need:
            break
        sure = S.probe_sure_inside if probes[i].inside else S.probe_sure
        if p < sure or not is_face(tile) or counts[kind(tile)] >= 4:
            continue
        counts[kind(tile)] += 1
        det = TileDetection(tile, probes[i].box, probes[i].angle, round(p, 4), "other", alts)
        left, right = probes[i].spot
        if given[i] == readings[i]:
            note = PhotoWarning(
                "tile_found_in_gap", left=left, right=right, tile=tile, confidence=round(p, 4)
            )
        else:  # _in_hole read a flower as its likeliest riichi tile
            note = PhotoWarning(
                "tile_found_over_flower",
                left=left,
                right=right,
                tile=tile,
                confidence=round(p, 4),
                flower_confidence=round(given[i][1], 4),
            )
        out.append((det, note))
    return out


FLOWER = "flower"  # the classifier's label for flower and season tiles (no riichi tiles)


def _in_hole(reading: Reading) -> Reading:
    """A hole between two tiles of the concealed row holds one of the hand's tiles (§1), and a
    flower is none (not a riichi tile; a flower lying there would have a box of its own): a
    crop there read as a flower first is read as its likeliest riichi tile (dev renders: a
    probed crop cut a little off its tile reads ``flower`` 0.48–0.55 with the true tile next,
    0.27–0.36). Other readings stay as they are (``none``/``back``: the hole may be empty)."""
    tile, p, alts = reading
    faces = [(t, q) for t, q in alts if is_face(t)]
    if tile != FLOWER or not faces:
        return reading
    best, q = max(faces, key=lambda tq: tq[1])
    return best, q, tuple((t, r) for t, r in alts if t != best)


def added_tiles(
    tiles: Sequence[TileDetection],
    melds: Sequence[str],
    doubles: Sequence[TileDetection],
) -> list[TileDetection]:
    """Second boxes (hits the pipeline dropped as a double of a tile it reported) that may be
    a kakan's added tile (§23): read as the kind of a pon the layout found, at least
    ``kakan_sure`` likely, overlapping one of the pon's tiles and lying beyond it across the
    pon's line (:func:`_beyond`), and no fifth of that kind (§1). The pipeline lays the photo
    out again with one of them added and keeps the reading only when the pon became that
    kakan and nothing else changed."""
    pons = {meld_kind(m) for m in melds if m.startswith("pon:")}
    counts = Counter(kind(t.tile) for t in tiles if t.group in GROUPS and readable(t))
    out: list[TileDetection] = []
    for d in doubles:
        k = kind(d.tile) if is_face(d.tile) else ""
        if k not in pons or d.confidence < S.kakan_sure or counts[k] >= 4:
            continue
        pon = [t for t in tiles if t.group == "meld" and kind(t.tile) == k]
        if any(iou(d.box, t.box) >= S.kakan_iou and _beyond(d, t, pon) for t in pon):
            out.append(d)
    return out


def _beyond(d: TileDetection, t: TileDetection, pon: Sequence[TileDetection]) -> bool:
    """Whether box ``d`` lies off tile ``t`` across the line of the pon's tiles ``pon`` more
    than along it: a kakan's added tile lies on (beyond) its called tile, while a second box
    straddling two touching tiles of the set lies between them along the line (dev renders:
    added tiles about 0.35 of a tile across and 0.1 along, straddling boxes the reverse)."""
    pts = np.array([p.center for p in pon], dtype=float)
    if len(pts) < 2:
        return True  # no line to measure against: the layout's pon decides
    _, _, vt = np.linalg.svd(pts - pts.mean(axis=0), full_matrices=False)
    r = _centre(d) - _centre(t)
    return abs(float(r @ vt[1])) > abs(float(r @ vt[0]))


def hole_edits(now: Hypothesis, size: tuple[int, int], read: Reader) -> list[Edit]:
    """A hand read short of tiles (§1): the places :func:`gap_boxes` finds are read by
    ``read`` (the classifier on crops cut there: box, sideways), and the tiles :func:`accept`
    takes are proposed, together, as the concealed row's (the hand nearer its count)."""
    need = short_by(now.layout.hand)
    places = gap_boxes(now.layout.tiles, size, need) if need else []
    if not places:
        return []
    found = accept(places, read([(p.box, p.angle == 90) for p in places]), now.layout.tiles, need)
    if not found:
        return []
    added = tuple(det for det, _ in found)
    return [
        Edit(
            "hole",
            Goal.FILL,
            (*now.tiles, *added),
            added,
            saying(*(note for _, note in found)),
            math.prod(d.confidence for d in added),
            lands=frozenset({"hand"}),
        )
    ]


def win_boxes(tiles: Sequence[TileDetection], image_size: tuple[int, int]) -> list[Probe]:
    """Places past the concealed row's right end (``win_steps`` local pitches along its last
    tiles' line) where a winning tile may lie unreported; none when the layout has one, or its
    row is turned (a photo turned by 90°: the gap probe's business)."""
    row = _row(tiles)
    if len(row) < 3 or any(t.group == "win" for t in tiles):
        return []
    if any(tiles[k].angle == 90 for k in row):
        return []
    cp = np.array([tiles[k].center for k in row], dtype=float)
    links = np.hypot(*np.diff(cp, axis=0).T)
    step = _local_pitch(links, len(links), float(np.median(links)))
    u = cp[-1] - cp[-min(4, len(row))]
    u = u / max(float(np.linalg.norm(u)), 1e-6)
    end = tiles[row[-1]]
    places = [
        _Place(cp[-1] + u * step * f, (end,), (end.tile, None), False, step) for f in S.win_steps
    ]
    return _free(places, tiles, row, image_size, 0)


def accept_win(
    probes: Sequence[Probe],
    readings: Sequence[Reading],
    hand: Mapping[str, object],
) -> tuple[TileDetection, PhotoWarning] | None:
    """The surest probed place whose best reading is a riichi tile at least ``win_sure``
    likely that completes the concealed tiles of ``hand`` (§1: a winning tile makes a winning
    shape; a tile that does not may be anything lying there), makes no fifth of its kind, with
    a warning; None when there is none."""
    kinds = held(hand)
    counts = kind_counts(hand)
    for i in sorted(range(len(probes)), key=lambda j: -readings[j][1]):
        tile, p, alts = readings[i]
        if p < S.win_sure or not is_face(tile) or counts.get(kind(tile), 0) >= 4:
            continue
        if not complete([*kinds, kind(as_sanma(tile))]):
            continue
        det = TileDetection(tile, probes[i].box, 0, round(p, 4), "other", alts)
        left, right = probes[i].spot
        return det, PhotoWarning(
            "win_from_probe", left=left, right=right, tile=tile, confidence=round(p, 4)
        )
    return None


def win_edits(now: Hypothesis, size: tuple[int, int], read: Reader) -> list[Edit]:
    """A hand read complete but for its winning tile (13 tiles, §1): the places of
    :func:`win_boxes` are read, and the tile :func:`accept_win` takes is proposed as the
    winning tile, the rest of the hand as it was."""
    hand = now.layout.hand
    if short_by(hand) or hand.get("win") is not None:
        return []
    places = win_boxes(now.layout.tiles, size)
    found = accept_win(places, read([(p.box, False) for p in places]), hand) if places else None
    if found is None:
        return []
    det, note = found
    return [
        Edit(
            "win",
            Goal.WIN,
            (*now.tiles, det),
            (det,),
            saying(note),
            det.confidence,
            lands=frozenset({"win"}),
            keeps=frozenset({"hand", "melds", "kita", "kita_aka", "dora"}),
        )
    ]


def missed_edits(now: Hypothesis, size: tuple[int, int], read: Reader) -> list[Edit]:
    """A hand of 13 tiles read without a winning tile: a concealed tile may have been missed
    instead, its winning tile then taken into the row (laid touching it, or barely apart).
    The places in and beside the row (:func:`gap_boxes`) are read, and a tile read surely
    there (:func:`accept`) that makes the 14 tiles a winning shape is proposed as the row's
    (§1: a photo of 14 tiles shows a won hand; a hand in tenpai at a draw has no tile there,
    and a tile that completes it by chance is unlikely), its melds and kita as they were."""
    hand = now.layout.hand
    if short_by(hand) or hand.get("win") is not None:
        return []
    kinds = held(hand)
    places = gap_boxes(now.layout.tiles, size, 1)
    if not places:
        return []
    readings = read([(p.box, p.angle == 90) for p in places])
    fits = [
        i
        for i, (tile, _, _) in enumerate(readings)
        if is_face(tile) and complete([*kinds, kind(as_sanma(tile))])
    ]
    found = accept([places[i] for i in fits], [readings[i] for i in fits], now.layout.tiles, 1)
    return [
        Edit(
            "missed",
            Goal.COMPLETE,
            (*now.tiles, det),
            (det,),
            saying(note),
            det.confidence,
            lands=frozenset({"hand"}),
            keeps=frozenset({"melds", "kita", "kita_aka"}),
        )
        for det, note in found
    ]


def kakan_edits(
    now: Hypothesis,
    doubles: Sequence[TileDetection],
    stacked: Sequence[tuple[Box, float]],
    sure: float,
) -> list[Edit]:
    """Kakans' added tiles the pipeline dropped as doubles, or saw only as stacked on a called
    tile (§23): each of :func:`added_tiles`, and each of :func:`stacked_tiles` at least
    ``sure`` likely, is proposed as the tile that turns its pon into the kakan of its kind,
    the rest of the hand unchanged (a hand may hold several kakans: one a round). A less
    likely stacked tile is proposed *tentative*: it changes nothing, and its warning says
    which pon to check when it would make that kakan. ``stacked``: boxes (photo pixels) that
    the detector's stacked map or the stacked-tile network calls a tile with another on it,
    with that probability."""
    layout = now.layout
    melds = layout.melds
    edits = [
        Edit(
            "kakan",
            Goal.KAKAN,
            (*now.tiles, extra),
            (extra,),
            _kakan_note("kakan_second_box", extra, extra.confidence),
            extra.confidence,
        )
        for extra in added_tiles(layout.tiles, melds, doubles)
    ]
    for extra, p in stacked_tiles(layout.tiles, melds, stacked):
        code = "kakan_stacked" if p >= sure else "kakan_maybe"
        edits.append(
            Edit(
                "kakan",
                Goal.KAKAN,
                (*now.tiles, extra),
                (extra,),
                _kakan_note(code, extra, extra.confidence if p >= sure else p),
                extra.confidence,
                tentative=p < sure,
            )
        )
    return edits


def _kakan_note(
    code: str, extra: TileDetection, p: float
) -> Callable[[Layout, Layout], tuple[PhotoWarning, ...]]:
    """The warning naming the pon that ``extra`` turns into its kakan (known once laid out)."""

    def say(was: Layout, now: Layout) -> tuple[PhotoWarning, ...]:
        change = pon_to_kakan(was.hand, now.hand)
        assert change is not None  # the edit was taken (or tentative) because it made one
        return (
            PhotoWarning(
                code, was=change[0], tile=extra.tile, confidence=round(p, 4), meld=change[1]
            ),
        )

    return say


def pons_called(tiles: Sequence[TileDetection], melds: Sequence[str]) -> list[TileDetection]:
    """The sideways (called) tiles of the layout's pons that could carry a kakan's added tile:
    laid out in a meld, of a pon's kind, and that kind seen fewer than four times (§1: an added
    tile would be a fifth). A pon of three tiles seen, none reported sideways (§23: a called
    set shows one; a called tile with the added one lying on it is a box the detector may not
    turn), offers its widest tile for its height, the one shaped most like a sideways tile (a
    pon read from two tiles may have lost its called tile: the two seen are not asked)."""
    pons = {meld_kind(m) for m in melds if m.startswith("pon:")}
    counts = Counter(kind(t.tile) for t in tiles if t.group in GROUPS and readable(t))
    out = []
    for main in pons:
        if counts[main] >= 4:
            continue
        own = [t for t in tiles if t.group == "meld" and is_face(t.tile) and kind(t.tile) == main]
        sideways = [t for t in own if t.angle == 90]
        if sideways or len(own) != 3:
            out += sideways
        else:
            out.append(max(own, key=lambda t: aspect(t.box)))
    return sorted(out, key=tiles.index)


def stacked_tiles(
    tiles: Sequence[TileDetection],
    melds: Sequence[str],
    stacked: Sequence[tuple[Box, float]],
) -> list[tuple[TileDetection, float]]:
    """The added tile of each pon whose sideways (called) tile (:func:`pons_called`) is called
    stacked, with the stacked probability:
    ``stacked`` holds the boxes (photo pixels) of tiles the detector's stacked map or the
    stacked-tile network (vision/stacked.py) says another tile lies on, with that probability.
    An added tile lies on its called tile and shows as one box with it, so it is that tile's
    reading, sideways, with its box moved a little up the photo (beyond it, as the player sees
    it) and the stacked probability times the called tile's confidence. The pipeline keeps it
    only when the layout then reads that pon as its kakan and nothing else changed
    (:func:`kakan_edits`)."""
    out: list[tuple[TileDetection, float]] = []
    for t in pons_called(tiles, melds):
        p = max((q for box, q in stacked if iou(box, t.box) >= S.stacked_match_iou), default=0.0)
        if p <= 0:
            continue
        x1, y1, x2, y2 = t.box
        dy = S.stacked_shift * (y2 - y1)
        out.append(
            (
                TileDetection(
                    t.tile, (x1, y1 - dy, x2, y2 - dy), 90, round(p * t.confidence, 4), "other"
                ),
                p,
            )
        )
    return out
