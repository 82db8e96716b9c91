"""Pond look (vision/decoder.py): another player's discards that the sift stage dropped as
second hits on a tile are tiles of their own.

Seen far off on a photo of the whole table, discards are small and lie side by side and row
behind row (vision/layout/ponds.py); the detector's boxes on them are loose, so two neighbours'
boxes overlap as much as two hits on one tile do (``double_iou``), and the cooler one is
dropped as a double (two neighbours read alike always are). Beside a pond a double is a tile of
its own when its centre lies apart from every reported tile's, by at least ``pond_apart`` × the
smaller short side of the two (two hits on one tile share their centre, near enough), and it
lies within reach of the pond (``pond_touch``). The look proposes them all as one edit that
must leave the hand as it was and put them in no part of it (group ``other``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying
from sanma_lens.vision.layout.geometry import Geo
from sanma_lens.vision.layout.ponds import discard_ponds
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import PLAYER_GROUPS, TileDetection

HAND_FIELDS = frozenset({"hand", "win", "melds", "kita", "kita_aka", "dora"})


def pond_edits(now: Hypothesis, doubles: Sequence[TileDetection]) -> list[Edit]:
    """One edit adding the ``doubles`` that lie beside a discard pond of ``now``'s layout and
    apart from every reported tile (module docstring), the hand as it was; none when there are
    none."""
    tiles = list(now.layout.tiles)
    if not doubles or len(tiles) < S.pond_faces:
        return []
    taken = {k for k, t in enumerate(tiles) if t.group in PLAYER_GROUPS}
    geo = Geo.of(tiles)
    pond = sorted(discard_ponds(tiles, geo, taken))
    if not pond:
        return []
    centres, short = geo.centres, np.minimum(geo.widths, geo.heights)
    reach = S.pond_touch * np.maximum(geo.widths[pond], geo.heights[pond])
    added: list[TileDetection] = []
    for d in sorted(doubles, key=lambda t: -t.confidence):
        c = np.array(d.center)
        d_short = min(d.box[2] - d.box[0], d.box[3] - d.box[1])
        if not (np.hypot(*(centres[pond] - c).T) < reach).any():
            continue
        apart = np.hypot(*(centres - c).T) >= S.pond_apart * np.minimum(short, d_short)
        if not apart.all() or any(_too_close(d, a) for a in added):
            continue
        added.append(d)
    if not added:
        return []
    placed = tuple(added)
    return [
        Edit(
            "pond",
            Goal.REREAD,
            (*now.tiles, *placed),
            placed,
            saying(),
            lands=frozenset({"other"}),
            keeps=HAND_FIELDS,
            new_melds=False,
        )
    ]


def _too_close(d: TileDetection, other: TileDetection) -> bool:
    """Two doubles on one tile: their centres nearer than ``pond_apart`` × the smaller short
    side."""
    side = min(
        d.box[2] - d.box[0],
        d.box[3] - d.box[1],
        other.box[2] - other.box[0],
        other.box[3] - other.box[1],
    )
    (x, y), (u, v) = d.center, other.center
    return bool(np.hypot(x - u, y - v) < S.pond_apart * side)
