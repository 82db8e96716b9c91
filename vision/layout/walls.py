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


def in_wall_row(faces: list[int], backs: list[int], geo: Geo, within: bool = False
                ) -> list[int]:
    """The faces that lie in a wall's row: a line of evenly spaced tiles through the face, at
    whatever angle the photo shows it, holds at least two backs. A discard beside a wall (on
    a photo of the whole table, a pond along someone's wall) lies beside the row, and one felt
    patch read as a back among discards makes no row. ``within``: the face lies inside the
    row, backs on both sides of it and three in all, as an indicator lies on the dead wall
    (a pond's face at a row's end, next to a wall's corner, does not)."""
    members = set(faces) | set(backs)
    if not faces or len(members) < 3:
        return []
    back = set(backs)
    pool = np.array(sorted(members))
    kept = []
    for k in faces:
        # a row's next tile: a step of about one tile, to a tile of about its size
        dist = np.hypot(*(geo.centres[pool] - geo.centres[k]).T) / geo.sizes[k]
        ratio = geo.sizes[pool] / geo.sizes[k]
        near = pool[(dist > 0.4) & (dist < 1.6) & (ratio > 0.6) & (ratio < 1.6)]
        for j in (int(j) for j in near):
            step = geo.centres[j] - geo.centres[k]
            rest = members - {k, j}
            ahead = [j, *_walk(geo, j, step, rest)]
            behind = _walk(geo, k, -step, rest)
            n_ahead, n_behind = sum(t in back for t in ahead), sum(t in back for t in behind)
            if within and n_ahead and n_behind and n_ahead + n_behind >= 3 or \
                    not within and n_ahead + n_behind >= 2:
                kept.append(k)
                break
    return kept


def _alike(geo: Geo, j: int, k: int) -> bool:
    return bool(0.6 < geo.sizes[j] / geo.sizes[k] < 1.6)


def _walk(geo: Geo, start: int, step: np.ndarray, members: set[int], most: int = 6) -> list[int]:
    """The tiles that go on from ``start`` by ``step`` at a time (each within a quarter of a
    tile of where the step points: a wall is straight), one after the other, among
    ``members``; at most ``most`` of them (an indicator lies a few stacks from the dead wall's
    end, and a long wall must not cost a photo much)."""
    line: list[int] = []
    here = start
    left = sorted(members)
    while left and len(line) < most:
        gaps = np.hypot(*(geo.centres[left] - (geo.centres[here] + step)).T)
        near = left[int(np.argmin(gaps))]
        if float(gaps.min()) > 0.25 * geo.sizes[here] or not _alike(geo, near, here):
            break
        line.append(near)
        left.remove(near)
        here = near
    return line
