"""Stage 1, the row: candidate rows for the player's concealed tiles.

The player's concealed tiles are the longest chain of upright, similar-size, side-by-side
tiles. Chains are grown tile by tile from every close pair, following the row's own direction
and pitch as they drift (tilted rows, perspective, gentle curves); no image axis is assumed
beyond "the row runs left to right, within 75°". The row's pitch is the yardstick for gaps
(boxes may hug the face or include the tile's body). Mostly face-down chains (walls, other
players' standing tiles) are never the row; a chain too long for a hand is cut at its
relatively widest link (steep perspective closes gaps).
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from sanma_lens.vision.layout.geometry import Geo, _unit, true_dims
from sanma_lens.vision.layout.notation import is_north, kind, readable
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection


class _Links:
    """Which links between tiles among ``allowed`` a row may take (:func:`_touching`, and not
    :func:`_skips`), each worked out once: the chains grown from every pair of a row meet the
    row's links again and again."""

    def __init__(self, geo: Geo, allowed: np.ndarray) -> None:
        self.geo = geo
        self.allowed = allowed
        self.tried: dict[tuple[int, int], bool] = {}

    def joins(self, i: int, j: int) -> bool:
        """Tiles ``i`` and ``j`` touch side by side, and no tile lies between them."""
        key = (i, j)
        if key not in self.tried:
            link = self.geo.centres[j] - self.geo.centres[i]
            self.tried[key] = _touching(self.geo, i, j, link) and not _skips(
                self.geo, i, j, self.allowed
            )
        return self.tried[key]


def _grow(
    geo: Geo, start: int, d: np.ndarray, step: float, free: np.ndarray, links: _Links
) -> list[int]:
    """Follow touching tiles from ``start`` in direction ``d``; returns the tiles added (at most
    ``max_grow``: longer than any row on a table, so a grid of rectangles costs no more).
    ``free``: the tiles the chain may still take (allowed, not in it yet); those added are
    taken from it."""
    added: list[int] = []
    cur = start
    cos_turn = math.cos(math.radians(S.max_turn_deg))
    while len(added) < S.max_grow:
        pred = geo.centres[cur] + d * step
        r = geo.centres - pred
        along = r @ d
        across = r @ np.array([-d[1], d[0]])
        ok = (
            free
            & geo.alike[cur]
            & (along < S.along_tol * step)
            & (along > -S.along_short * step)
            & (np.abs(across) < S.across_tol * step)
        )
        cands = ok.nonzero()[0]  # np.flatnonzero without its wrapper: called at every step
        if cands.size == 0:
            return added
        if cands.size == 1:
            j = int(cands[0])  # one candidate: no distances to weigh
        else:
            j = int(cands[np.argmin(np.hypot(along[cands], across[cands]))])
        link = geo.centres[j] - geo.centres[cur]
        new_d = _unit(link)
        if float(new_d @ d) < cos_turn or not links.joins(cur, j):
            return added
        added.append(j)
        free[j] = False
        if along[j] < -S.along_tol * step:
            return added  # a tile nearer than a pitch ends the row: no pitch to go on from
        step = 0.5 * step + 0.5 * math.hypot(link[0], link[1])
        d = _unit(d + new_d)
        cur = j
    return added


def _touching(geo: Geo, i: int, j: int, link: np.ndarray) -> bool:
    """Upright tiles ``i`` and ``j`` touch side by side: the link is about one tile width."""
    theta = math.atan2(float(link[1]), float(link[0]))
    wi, hi = geo.sides[i]
    wj, hj = geo.sides[j]
    ai, _ = true_dims(wi, hi, theta, False)
    aj, _ = true_dims(wj, hj, theta, False)
    # The link's angle is noisy where boxes differ in height (centres shift): do not let the
    # tilt correction shrink a tile below most of its box's short side.
    ai = max(ai, S.min_short * min(wi, hi))
    aj = max(aj, S.min_short * min(wj, hj))
    ratio = math.hypot(link[0], link[1]) / ((ai + aj) / 2)
    return S.touch[0] < ratio < S.touch[1]


def _skips(geo: Geo, i: int, j: int, allowed: np.ndarray) -> bool:
    """The link ``i``→``j`` jumps over another tile lying between them."""
    length = float(geo.apart[i, j])
    mid = (geo.centres[i] + geo.centres[j]) / 2
    dist = np.hypot(*(geo.centres - mid).T)
    # A near-duplicate box of either end (a tile read twice) is no tile in between.
    to_i, to_j = geo.apart[i], geo.apart[j]
    near = allowed & (dist < 0.3 * length) & (to_i > 0.35 * length) & (to_j > 0.35 * length)
    near[[i, j]] = False
    return bool(near.any())


def _trim(chain: list[int], tiles: list[TileDetection]) -> list[int]:
    """Drop flowers and junk labels from the ends of a chain: set aside, not in the hand.
    (Inside the row such a tile stays, as an unreadable hand tile with a warning.)"""

    def junk(k: int) -> bool:
        return not readable(tiles[k]) and not tiles[k].face_down

    lo, hi = 0, len(chain)
    while lo < hi and junk(chain[lo]):
        lo += 1
    while hi > lo and junk(chain[hi - 1]):
        hi -= 1
    return chain[lo:hi]


def _north_tail(chain: list[int], tiles: list[TileDetection]) -> int:
    """How many tiles at the chain's right end read as norths (kita, §A4)."""
    m = 0
    while m < len(chain) and is_north(tiles[chain[-1 - m]].tile):
        m += 1
    return m


def _cuts(chain: list[int], geo: Geo) -> list[list[int]]:
    """A chain too long for one hand: the hand ends at one of its relatively widest links
    (under steep perspective a set-apart winning tile or kita can close up to the row)."""
    links = np.hypot(*np.diff(geo.centres[chain], axis=0).T)
    jump = []
    for k in range(1, len(links) - 1):
        expected = math.sqrt(float(links[k - 1]) * float(links[k + 1]))  # smooth perspective
        jump.append((float(links[k]) / expected, k))
    return [chain[: k + 1] for ratio, k in sorted(jump, reverse=True)[:3] if ratio > 1.08]


def _split_at_gaps(chain: list[int], geo: Geo) -> list[list[int]]:
    """Cut a chain where a link is clearly longer than the links around it (a set-apart tile).

    The row's own pitch is the yardstick, not box sizes: labelled or detected boxes may hug
    the face or the body, and racks leave small even gaps; a set-apart tile still stands out.
    """
    if len(chain) < 4:
        return [chain]
    pts = geo.centres[chain]
    links = np.hypot(*np.diff(pts, axis=0).T)
    pieces: list[list[int]] = [[chain[0]]]
    for k, link in enumerate(links):
        around = np.concatenate([links[max(0, k - 3) : k], links[k + 1 : k + 4]])
        pitch = statistics.median(around.tolist())
        if float(link) > S.link_jump * pitch and not _shifted_box(links, k, pitch):
            pieces.append([])
        pieces[-1].append(chain[k + 1])
    return pieces


def _shifted_box(links: np.ndarray, k: int, pitch: float) -> bool:
    """Link ``k`` is long only because a box beside it lies off its tile's centre: with a
    neighbouring link it spans two pitches (one short link makes up for the long one), where a
    tile set apart would add its gap to the two."""
    pairs = [float(links[j]) for j in (k - 1, k + 1) if 0 <= j < len(links)]
    return any(float(links[k]) + other < (1 + S.link_jump) * pitch for other in pairs)


def _chains(
    tiles: list[TileDetection], geo: Geo, upright: np.ndarray
) -> tuple[dict[frozenset[int], list[int]], dict[frozenset[int], list[int]]]:
    """Chains of touching tiles among ``upright``, grown from every close pair: the pieces
    (cut at gaps) and the chains that were cut, whole."""
    max_slope = math.cos(math.radians(S.max_row_slope_deg))
    chains: dict[frozenset[int], list[int]] = {}
    joined: dict[frozenset[int], list[int]] = {}
    links = _Links(geo, upright)
    grown: set[tuple[int, ...]] = set()
    for i in (int(k) for k in np.flatnonzero(upright)):
        dist = geo.apart[i]
        short = min(geo.widths[i], geo.heights[i])
        close = upright & (0.45 * short < dist) & (dist < 1.6 * short)
        close[i] = False
        order = np.argsort(dist)
        near = [int(j) for j in order[close[order]][:3]]  # the three nearest close ones
        for j in near:
            d = _unit(geo.centres[j] - geo.centres[i])
            if abs(d[0]) < max_slope:
                continue
            if d[0] < 0:
                continue  # the pair (j, i) covers this direction
            if not links.joins(i, j):
                continue
            step = float(dist[j])
            free = upright.copy()
            free[i] = free[j] = False
            right = _grow(geo, j, d, step, free, links)
            left = _grow(geo, i, -d, step, free, links)
            whole = [*reversed(left), i, j, *right]
            if tuple(whole) in grown:
                continue  # grown from another pair of the row: kept already, cut and whole
            grown.add(tuple(whole))
            pieces = _split_at_gaps(whole, geo)
            for chain in pieces:
                chain = _trim(chain, tiles)
                if chain:
                    chains.setdefault(frozenset(chain), chain)
            if len(pieces) > 1:  # the gap may be a detector's uneven boxes, not a tile set apart
                whole = _trim(whole, tiles)
                joined.setdefault(frozenset(whole), whole)
    return chains, joined


def _candidate_rows(tiles: list[TileDetection], geo: Geo) -> tuple[list[list[int]], int]:
    """Every maximal chain of upright touching tiles, longest (most face-up tiles) first; then,
    for the reading to weigh, chains cut at a gap (:func:`_split_at_gaps`) taken whole, and
    chains that also take squarish tiles reported sideways (in a steeply slanted row an upright
    tile's box is square, and the detector may call it sideways). Returns the rows and the
    index of the first of these second-choice chains."""
    upright = np.array([t.angle == 0 for t in tiles], dtype=bool)
    chains, joined = _chains(tiles, geo, upright)
    squarish = np.array(
        [
            t.angle == 90 and geo.widths[k] <= S.squarish * geo.heights[k]
            for k, t in enumerate(tiles)
        ],
        dtype=bool,
    )
    if squarish.any() and upright.any():
        relaxed, relaxed_joined = _chains(tiles, geo, upright | squarish)
        for key, c in [*relaxed.items(), *relaxed_joined.items()]:
            if key not in chains and any(squarish[k] for k in c):
                joined.setdefault(key, c)

    def face_up(chain: list[int]) -> int:
        return sum(readable(tiles[k]) for k in chain)

    ordered = sorted(chains.values(), key=lambda c: (-face_up(c), -len(c)))
    # Keep only chains not contained in an earlier one.
    kept: list[list[int]] = []
    for c in ordered:
        if len(kept) == S.max_rows:
            break  # the longest chains: the hand row is among them
        if 2 * face_up(c) <= len(c):
            continue  # mostly face-down: a wall or another player's standing hand
        if not any(set(c) <= set(k) for k in kept):
            kept.append(c)
    kept += [cut for c in kept if len(c) > 14 for cut in _cuts(c, geo)]
    # ... or the kita laid touching its end (§A4): read without its trailing norths too
    for c in [c for c in kept if len(c) > 14]:
        m = _north_tail(c, tiles)
        if 0 < m < len(c):
            kept.append(c[:-m])
    # Chains cut at a gap, whole again: read too, ranked after the pieces when both make a hand.
    first_joined = len(kept)
    kept += [c for key, c in joined.items() if key not in chains and 2 * face_up(c) > len(c)][
        : S.max_rows
    ]
    # Two chains that share their end tiles (the row bends there, or the growth turned away at
    # a crooked tile or a misplaced box): one row, read too, after the others; and once more,
    # over those too, so that a row bent twice is whole — when no link in it is a gap.
    seen = {frozenset(c) for c in kept}
    pieces = kept[:first_joined]  # not the chains joined across a gap
    for again in (False, True):
        for c in bent_rows(pieces if not again else kept, geo):
            # a row bent twice, or over chains joined across a gap, has no gap in it
            whole = not again or (len(c) <= S.max_bent and len(_split_at_gaps(c, geo)) == 1)
            if frozenset(c) not in seen and 2 * face_up(c) > len(c) and whole:
                seen.add(frozenset(c))
                kept.append(c)
    # A row run on into a called set laid close after it: read without the set's tiles too.
    for c in overrun_rows(kept, tiles, geo):
        if frozenset(c) not in seen:
            seen.add(frozenset(c))
            kept.append(c)
    if not kept:  # no two tiles side by side: the largest upright face-up tile stands alone
        faces = [int(i) for i in np.flatnonzero(upright) if readable(tiles[int(i)])]
        return ([[max(faces, key=geo.scale)]] if faces else []), 1
    return kept, first_joined


def overrun_rows(chains: list[list[int]], tiles: list[TileDetection], geo: Geo) -> list[list[int]]:
    """Chains without their last one or two tiles when those are alike and a sideways tile of
    their kind touches the chain's end: a called set's upright tiles (its called tile sideways
    after them, §23) that the chain ran on into, where the set lies close to the hand (a
    tanki's pair of hand and winning tile, docs/rules.md §1, is often laid so)."""
    out: list[list[int]] = []
    for chain in chains:
        end = geo.centres[chain[-1]]
        reach = S.touch[1] * min(geo.widths[chain[-1]], geo.heights[chain[-1]]) * S.aspect
        for m in (1, 2):
            if len(chain) <= m:
                break
            tail = {kind(tiles[k].tile) for k in chain[-m:]}
            if len(tail) != 1 or not all(readable(tiles[k]) for k in chain[-m:]):
                break
            called = [
                j
                for j, t in enumerate(tiles)
                if t.angle == 90
                and readable(t)
                and kind(t.tile) in tail
                and float(np.linalg.norm(geo.centres[j] - end)) < reach
                and float((geo.centres[j] - end) @ _unit(end - geo.centres[chain[0]])) > 0
            ]
            if called:
                out.append(chain[:-m])
    return out


def bent_rows(chains: list[list[int]], geo: Geo) -> list[list[int]]:
    """``a + b`` (the shared tiles once) for chains ``a``, ``b`` where the last one to three
    tiles of ``a`` are the first of ``b``, no other tile is shared, and the row bends there by
    at most ``max_bend_deg`` (``a``'s and ``b``'s end-to-end directions)."""
    out: list[list[int]] = []
    cos_bend = math.cos(math.radians(S.max_bend_deg))

    def direction(c: list[int]) -> np.ndarray:
        return _unit(geo.centres[c[-1]] - geo.centres[c[0]])

    for a in chains:
        for b in chains:
            if a is b:
                continue
            for m in (1, 2, 3):
                if len(a) > m and len(b) > m and a[-m:] == b[:m]:
                    bend = float(direction(a) @ direction(b))
                    if not set(a[:-m]) & set(b[m:]) and bend >= cos_bend:
                        out.append(a + b[m:])
                    break
    return out
