"""Stage 3's first step, the other players' discards (捨て牌 sutehai, each player's 河 kawa):
on a photo of the whole table they are reported as tiles, never as the hand's dora indicators.

A photo of an automatic table mid-game shows, beyond the player's own area, each seat's
discards in rows of six, turned towards that seat, often close to what is left of its wall. The
dora rule (``extras.py``) reads face-up tiles among face-down wall tiles as the dead wall's
indicators; left alone it takes a pond beside a wall for indicators. A pond is told from the
dead wall by its faces: discards lie side by side and row behind row, so a pond is a group of
at least ``pond_faces`` face-up tiles each touching another (centres within ``pond_touch`` ×
the larger long side of the two: a row's neighbour, the next row's, or diagonally), while the
dead wall's indicators lie on the wall's top layer, one beside the next only after kans (four
take three). Such a group's tiles stay in the group ``other`` and are left out of the dora
rule's clusters, so the wall beside them is weighed on its own. A face lying inside a wall's
row, backs on both sides (``walls.py``), is never a discard, however close a pond lies: it is
the dora rule's to weigh.

Only the tiles the player's area left (row, winning tile, melds, kita) are weighed. A photo of
a hand alone changes only where it holds such a group outside the player's area (other tiles
on the table): there too they are no indicators.
"""

from __future__ import annotations

import numpy as np

from sanma_lens.vision.layout.geometry import Frame, Geo
from sanma_lens.vision.layout.notation import readable
from sanma_lens.vision.layout.walls import in_wall_row
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection


def discard_ponds(tiles: list[TileDetection], geo: Geo, taken: set[int]) -> set[int]:
    """The tiles of ``tiles`` (outside ``taken``, the player's area) lying in a discard pond:
    a group of at least ``pond_faces`` face-up tiles, none inside a wall's row, each within
    ``pond_touch`` × the larger long side of the pair from another of the group."""
    faces = [k for k in range(len(tiles)) if k not in taken and readable(tiles[k])]
    if len(faces) < S.pond_faces:
        return set()
    backs = [k for k in range(len(tiles)) if k not in taken and tiles[k].face_down]
    on_walls = set(in_wall_row(faces, backs, geo, within=True, least=3))
    faces = [k for k in faces if k not in on_walls]  # indicators on a wall, by a pond or not
    if len(faces) < S.pond_faces:
        return set()
    idx = np.array(faces)
    long_side = np.maximum(geo.widths[idx], geo.heights[idx])
    reach = S.pond_touch * np.maximum(long_side[:, None], long_side[None, :])
    touching = geo.apart[np.ix_(idx, idx)] < reach
    out: set[int] = set()
    seen = np.zeros(len(faces), dtype=bool)
    for start in range(len(faces)):
        if seen[start]:
            continue
        group, todo = [], [start]
        seen[start] = True
        while todo:  # the faces touching one another, one group at a time
            i = todo.pop()
            group.append(i)
            for j in np.nonzero(touching[i] & ~seen)[0]:
                seen[j] = True
                todo.append(int(j))
        if len(group) >= S.pond_faces:
            out.update(faces[i] for i in group)
    return out


def row_in_pond(row: list[int], tiles: list[TileDetection], geo: Geo, frame: Frame) -> bool:
    """The row read as the hand is a pond's row: at most ``pond_row`` tiles (a hand without
    melds holds 13 or 14), and touching it, in front or beyond, at least ``pond_next_row``
    face-up tiles of the pond's next row over the same stretch (``pond_row_beyond``,
    ``pond_row_gap``). On a photo of the whole table whose player holds the hand standing,
    unreadable, the player's own pond shows the longest rows of faces in view; a hand is laid
    open in one row, no faces touching it from in front or beyond."""
    if len(row) > S.pond_row:
        return False
    along = [frame.coords(geo.centres[k])[0] for k in row]
    lo, hi = min(along) - S.pond_row_beyond * frame.a, max(along) + S.pond_row_beyond * frame.a
    near, far = S.pond_row_gap
    beside = 0
    for k, tile in enumerate(tiles):
        if k in row or not readable(tile):
            continue
        t, n = frame.coords(geo.centres[k])
        beside += lo < t < hi and near * frame.b < abs(n) < far * frame.b
    return beside >= S.pond_next_row
