"""The walls' rows (山 yama): which face-up tiles lie in a row of face-down wall tiles.

A wall is a straight row of evenly spaced stacks, face down. A face-up tile in that row is a
dora indicator (ドラ表示牌, turned up on the dead wall); a discard lies beside the row, in a
pond (河 kawa) along it, never in it. The dora rule (``extras.py``) takes its indicators from
here, and the ponds (``ponds.py``) leave such a face out, so that a pond next to the dead wall
does not swallow its indicator.
"""

from __future__ import annotations

import numpy as np

from sanma_lens.vision.layout.geometry import Geo
from sanma_lens.vision.settings import SETTINGS as S


def in_wall_row(
    faces: list[int], backs: list[int], geo: Geo, within: bool = False, least: int = 2
) -> list[int]:
    """The faces that lie in a wall's row: a line of evenly spaced tiles through the face, at
    whatever angle the photo shows it, holds at least ``least`` backs. A discard beside a
    wall (on a photo of the whole table, a pond along someone's wall) lies beside the row,
    and one felt patch read as a back among discards makes no row. ``within``: the face lies
    inside the row, backs on both sides of it, as an indicator lies on the dead wall (a
    pond's face at a row's end, next to a wall's corner, does not, nor a called set laid in
    line with a player's standing tiles)."""
    pool = np.array(sorted(set(faces) | set(backs)))
    if not faces or len(pool) < 3:
        return []
    centres, sizes = geo.centres[pool], geo.sizes[pool]
    is_back = np.isin(pool, backs)
    kept = []
    for k in faces:
        here = int(np.searchsorted(pool, k))
        # a row's next tile: a step of about one tile, to a tile of about its size
        dist = np.hypot(*(centres - centres[here]).T) / sizes[here]
        ratio = sizes / sizes[here]
        (step_lo, step_hi), (size_lo, size_hi) = S.wall_step, S.wall_sizes
        near = np.flatnonzero(
            (dist > step_lo) & (dist < step_hi) & (ratio > size_lo) & (ratio < size_hi)
        )
        for there in (int(j) for j in near):
            step = centres[there] - centres[here]
            taken = np.zeros(len(pool), dtype=bool)
            taken[here] = taken[there] = True
            ahead = [there, *_walk(centres, sizes, there, step, taken)]
            behind = _walk(centres, sizes, here, -step, taken)
            n_ahead, n_behind = int(is_back[ahead].sum()), int(is_back[behind].sum())
            if n_ahead + n_behind >= least and (not within or (n_ahead and n_behind)):
                kept.append(k)
                break
    return kept


def _walk(
    centres: np.ndarray,
    sizes: np.ndarray,
    start: int,
    step: np.ndarray,
    taken: np.ndarray,
    most: int = 6,
) -> list[int]:
    """The tiles (positions in ``centres``) that go on from ``start`` by ``step`` at a time,
    each within ``wall_straight`` × a tile of where the step points (a wall is straight, but
    its two-high stacks seen from the side are boxed at the upper tile or the lower, a little
    off the line) and of about the size of the one before, none of ``taken``; at most
    ``most`` of them (an indicator lies a few stacks from the dead wall's end, and a long wall
    must not cost a photo much)."""
    line: list[int] = []
    lo, hi = S.wall_sizes
    free = ~taken
    here = start
    while free.any() and len(line) < most:
        gaps = np.where(free, np.hypot(*(centres - (centres[here] + step)).T), np.inf)
        near = int(np.argmin(gaps))
        if gaps[near] > S.wall_straight * sizes[here] or not lo < sizes[near] / sizes[here] < hi:
            break
        line.append(near)
        free[near] = False
        here = near
    return line
