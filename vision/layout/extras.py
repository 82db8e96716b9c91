"""Stages 2–3, tiles beside the hand: kita set aside beyond the melds (docs/rules.md §A4–§A5) and
dora indicators (face-up tiles among face-down dead-wall tiles, or else one small group of
face-up tiles just beyond the hand's left part, with a warning)."""

from __future__ import annotations

import numpy as np

from sanma_lens.vision.detect import iou
from sanma_lens.vision.layout.geometry import Frame, Geo, _unit
from sanma_lens.vision.layout.notation import north_like, readable
from sanma_lens.vision.layout.walls import in_wall_row
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def _kita_beside_melds(
    row: list[int],
    tiles: list[TileDetection],
    geo: Geo,
    frame: Frame,
    melds: list[tuple[str, list[int]]],
    kita: list[int],
    win: int | None,
    other: list[int],
    warnings: list[str] | None = None,
) -> list[int]:
    """Norths set aside beyond the melds (further from the player): kita too (§23–§24).

    Only lone norths count: a north touching non-north tiles in line with it, along the melds
    or across them, is in a discard row; a discard only diagonally off it leaves it a kita.
    A kita is laid close beyond the melds: its centre at most a tile's height (half a meld
    tile and half a kita) and ``kita_reach`` tile widths beyond the farthest meld tile's; a
    lone north further out (a discard, another player's) is no kita, said in ``warnings``.
    """
    if not melds:
        return []
    taken = set(row) | set(kita) | {k for _, idx in melds for k in idx} | set(other)
    if win is not None:
        taken.add(win)
    meld_t = [frame.coords(geo.centres[k])[0] for _, idx in melds for k in idx]
    farthest = min(frame.coords(geo.centres[k])[1] for _, idx in melds for k in idx)
    reach = farthest - (frame.b + S.kita_reach * frame.a)
    lo, hi = min(meld_t) - 2.0 * frame.a, max(meld_t) + 3.0 * frame.a
    found: list[int] = []
    for k, tile in enumerate(tiles):
        if k in taken or not north_like(tile, _kita_alt(tile)) or geo.cut[k]:
            continue
        t, n = frame.coords(geo.centres[k])
        if not (lo < t < hi and -(2 * frame.b + 2.5 * frame.a) < n < -0.5 * frame.b):
            continue
        near = [
            j
            for j in range(len(tiles))
            if j != k
            and j not in taken
            and not north_like(tiles[j], S.kita_alt)  # a kita beside it, read unsure
            and not tiles[j].face_down  # a wall's backs may lie close by
            and not _second_box(tiles[j], tile)
            and float(np.linalg.norm(geo.centres[j] - geo.centres[k])) < 1.25 * frame.b
            and _in_line(frame, geo.centres[j], geo.centres[k])
        ]
        if near:
            continue
        if n >= reach:
            found.append(k)
        elif warnings is not None:
            warnings.append(PhotoWarning("kita_too_far", tile=tile.tile))
    # Kita are laid in a line: a north next in line with a found one is a kita too (beside a
    # kita, a tile read unsure with a north among its readings is one, S.kita_alt).
    grew = True
    while found and grew:
        grew = False
        for k, tile in enumerate(tiles):
            if k in taken or k in found or not north_like(tile, S.kita_alt) or tile.face_down:
                continue
            if geo.cut[k]:
                continue  # half out of the photo: its north reading says little
            t, n = frame.coords(geo.centres[k])
            for f in found:
                tf, nf = frame.coords(geo.centres[f])
                if abs(n - nf) < 0.4 * frame.b and abs(t - tf) < 2.6 * frame.a:
                    found.append(k)
                    grew = True
                    break
    return found


def _in_line(frame: Frame, p: np.ndarray, q: np.ndarray) -> bool:
    """``p`` lies in one line with ``q``, along the melds' frame or across it (less than half
    a tile off that line): a discard row's neighbours lie so, the player's own rows or a side
    seat's; a discard only diagonally off (the next row's, shifted) says nothing about ``q``."""
    (tp, n_p), (tq, nq) = frame.coords(p), frame.coords(q)
    return abs(n_p - nq) < 0.5 * frame.b or abs(tp - tq) < 0.5 * frame.a


def _second_box(other: TileDetection, tile: TileDetection) -> bool:
    """``other`` is a second, less sure box on ``tile`` (the one tile read twice, once each
    way: the pair's IoU stays under the duplicate bar of dedupe.py), no tile beside it."""
    return iou(other.box, tile.box) > S.second_box_iou and other.confidence < tile.confidence


def _kita_alt(tile: TileDetection) -> float:
    """How likely a north reading must be for a tile set aside alone to be a kita (§A4)."""
    return S.kita_alt if tile.angle == 90 else S.upright_kita_alt


def _dora_groups(
    tiles: list[TileDetection],
    geo: Geo,
    taken: set[int],
    row: list[int],
    frame: Frame,
    warnings: list[str],
    whole_table: bool = False,
) -> list[int]:
    """Dora indicators: face-up tiles in a separate cluster among face-down (dead wall) tiles,
    or else one small group of face-up tiles lying just beyond the hand's left part.

    In a cluster, the faces in the wall's own row (:func:`walls.in_wall_row`) are the
    indicators. Where none is, a close-up of the hand still takes the cluster's faces (a dead
    wall seen askew, or indicators laid beside it), but a photo of the whole table
    (``whole_table``: other players' ponds were found) does not: there, faces by a wall are
    mostly discards along it, and a face at a row's end is mostly a called set laid in line
    with its player's standing tiles, so an indicator must lie inside the row, backs on both
    sides of it. On a whole table the walls are small and far, and a back seen on
    its edge (the back's colour over the ivory side) is read as an unsure face: there only
    faces read at least ``table_dora_sure`` are indicators, in a wall's row or in a group
    apart. A group apart, with no wall to vouch for it, is read at least ``loose_dora_sure`` on
    any photo (clutter dev render 8,260,025: a red LED point display by the hand, read as a
    0p at p 0.38, was taken for an indicator).
    """
    rest = [k for k in range(len(tiles)) if k not in taken]
    if not rest:
        return []
    loose_bar = max(S.loose_dora_sure, S.table_dora_sure) if whole_table else S.loose_dora_sure
    parent = {k: k for k in rest}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    # tiles closer than three quarters of their two long sides are one cluster
    idx = np.array(rest)
    centres = geo.centres[idx]
    long_side = np.maximum(geo.widths[idx], geo.heights[idx])
    dist = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    close = np.triu(dist < 0.75 * (long_side[:, None] + long_side[None, :]), 1)
    for a, b in zip(*np.nonzero(close), strict=True):
        parent[find(rest[int(a)])] = find(rest[int(b)])
    clusters: dict[int, list[int]] = {}
    for k in rest:
        clusters.setdefault(find(k), []).append(k)
    out: list[int] = []
    loose: list[list[int]] = []
    for members in clusters.values():
        backs = [k for k in members if tiles[k].face_down]
        faces = [k for k in members if readable(tiles[k])]
        if len(backs) >= 2 and 1 <= len(faces) <= 5 and len(faces) < len(backs) + 2:
            wall = in_wall_row(faces, backs, geo, within=whole_table)
            if not wall and not whole_table:
                wall = faces
            if whole_table:
                wall = [k for k in wall if tiles[k].confidence >= S.table_dora_sure]
            out.extend(sorted(wall, key=lambda k: geo.centres[k][0]))
        elif (
            not backs
            and len(faces) == len(members) <= 3
            and all(tiles[k].angle == 0 for k in members)
            and all(tiles[k].confidence >= loose_bar for k in members)
            and _above_row_start(members, row, geo, frame)
        ):
            loose.append(sorted(faces, key=lambda k: geo.centres[k][0]))
    if not out and len(loose) == 1:  # one small group just beyond the hand's left part
        out = loose[0]
        warnings.append(PhotoWarning("dora_apart", tiles=tuple(tiles[k].tile for k in out)))
    return out


def _above_row_start(members: list[int], row: list[int], geo: Geo, frame: Frame) -> bool:
    """The cluster lies where dora indicators go: beyond the row (away from the player),
    within a few tiles of its left end."""
    if len(row) < 2:
        return False
    origin = geo.centres[row[0]]
    u = _unit(geo.centres[row[-1]] - origin)
    v = np.array([-u[1], u[0]])
    for k in members:
        r = geo.centres[k] - origin
        t, n = float(r @ u) / frame.a, float(r @ v) / frame.b
        if not (-3.0 < t < 6.0 and -3.8 < n < -1.2):
            return False
    return True
