"""A hand of four melds (docs/rules.md §1: 4 sets + a pair): its concealed part is one tile, the
tanki wait, standing alone left of the melds (the winning tile, if any, set a little apart
after it). No chain of side-by-side tiles holds it, so the row stage offers only the melds'
own upright tiles as rows; here every lone upright tile with melds on a line right of it is
read as a one-tile row too.

The row's direction cannot come from one tile: it is taken from the chains of upright tiles
lying right of it (the melds' upright tiles, all laid along the same table edge). A one-tile
reading counts only when it finds the four melds and makes 13 or 14 tiles (§1), and when the
tile stands apart from what follows it (a tile touching the next is a set's or a row's) or
the one tile touching it is its winning tile, laid close (the rows stage keeps only the
longest chains, so a two-tile row among discards may be missing there); a
tile that another one-tile reading takes as its winning tile is no concealed part (the tanki
tile lies left of its winning tile).
"""

from __future__ import annotations

import numpy as np

from sanma_lens.vision.layout.geometry import Geo, _unit
from sanma_lens.vision.layout.notation import readable
from sanma_lens.vision.layout.reading import _read_right, _Reading
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection

MELDS = 4  # a one-tile concealed part leaves room for exactly four melds (§1)


def tanki_readings(
    tiles: list[TileDetection], geo: Geo, rows: list[list[int]], readings: list[_Reading]
) -> list[_Reading]:
    """Readings of one-tile rows that find four melds right of the tile (§1), for the
    ranking of :func:`vision.layout.reading._score` beside the chains' readings."""
    if not any(len(r.melds) >= 2 for r in readings):
        return []  # four melds show in a chain's reading as at least two
    chains = [r for r in rows if len(r) >= 2]
    # a tile with a touching tile left of it in a chain is not alone
    inner = {k for chain in chains for k in chain[1:]}
    found: list[_Reading] = []
    for k, tile in enumerate(tiles):
        if tile.angle != 0 or not readable(tile) or k in inner:
            continue
        along = _direction_right_of(k, chains, geo)
        if along is None:
            continue
        reading = _read_right([k], tiles, geo, along)
        # a tile touching the next is a set's or a row's, unless that next tile alone is its
        # winning tile laid close (the reading took it so, with a warning, §1)
        apart = (
            reading.first_gap is None or reading.first_gap > S.win_gap or (reading.win is not None)
        )
        if apart and len(reading.melds) == MELDS and reading.units in (13, 14):
            found.append(reading)
    wins = {r.win for r in found if r.win is not None}
    return [r for r in found if r.row[0] not in wins]


def _direction_right_of(k: int, chains: list[list[int]], geo: Geo) -> np.ndarray | None:
    """The mean direction (weighted by length) of the chains starting right of tile ``k``
    along their own direction, within ``tanki_reach`` tile widths; None when there are none."""
    size = geo.scale(k)
    total = np.zeros(2)
    for chain in chains:
        d = _unit(geo.centres[chain[-1]] - geo.centres[chain[0]])
        ahead = float((geo.centres[chain[0]] - geo.centres[k]) @ d)
        if 0 < ahead < S.tanki_reach * size:
            total += len(chain) * d
    return _unit(total) if total.any() else None
