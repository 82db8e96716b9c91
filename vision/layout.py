"""Layout reconstruction: from tile detections to the hand JSON (shared/CONTRACT.md).

Pure geometry and rules, no model. The stages, each a small function below:

1. **Row.** The player's concealed tiles are the longest chain of upright, similar-size,
   side-by-side tiles. Chains are grown tile by tile from every close pair, following the
   row's own direction and pitch as they drift (tilted rows, perspective, gentle curves); no
   image axis is assumed beyond "the row runs left to right, within 75°". The row's pitch is
   the yardstick for gaps (boxes may hug the face or include the tile's body). Mostly
   face-down chains (walls, other players' standing tiles) are never the row; a chain too
   long for a hand is cut at its relatively widest link (steep perspective closes gaps).
2. **Right of the row**, in the row end's own frame, following the line of the melds as it
   goes: tiles are cut into groups at gaps, and crowded groups into sets. The first lone
   upright tile set a little apart is the winning tile (a north only when on the row's line,
   close by); a group with a sideways tile is a pon (3), minkan (4) or kakan (4, the added
   tile on or beyond the called one); two face-down ends around two face-up tiles are an
   ankan; norths (``4z``) and the aka-5-man (``0m``) set aside, beside or beyond the melds,
   are kita (RULES.md §A4–§A5).
3. **Dora indicators**: face-up tiles among face-down dead-wall tiles, or else one small
   group of face-up tiles just beyond the hand's left part (with a warning).
4. **Sanity** (RULES.md "Tiles"): at most four of a kind (red fives count as fives, ``0m`` as a
   north), no 2m–8m in sanma, 14 tiles plus one per kan for a win (13 for tenpai). Candidate
   rows are ranked by how well their reading makes a hand. Every doubt becomes a concrete
   warning; the best reading is returned, never a silent guess.

Detector slips are absorbed where the geometry allows: one tile read twice (kept once),
a called tile reported upright, a set with one misread tile, a whole photo turned by 90°.

Outputs are MPSZ, sorted canonically: suits in the order m p s z, digits ascending within a
suit, a red five (``0``) right after the plain fives (``"2345550p"``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from vision.types import TileDetection

# Geometry tolerances, in units of the local tile width ``a`` (the short side of an upright
# tile) or of the pitch (centre-to-centre distance of touching tiles in the row).
ALONG_TOL = 0.25  # growing the row: along-row miss allowed, × pitch
ACROSS_TOL = 0.35  # growing the row: across-row miss allowed, × pitch
MAX_TURN_DEG = 25.0  # growing the row: largest bend between two links
SIZE_RATIO = 1.6  # neighbours in the row differ in size by at most this factor
MAX_ROW_SLOPE_DEG = 75.0  # a row runs left to right within this angle
TOUCH = (0.3, 1.6)  # side-by-side tiles: centre distance within this × the tile width
LINK_JUMP = 1.3  # a link this much longer than its neighbours' is a gap: the row ends there
GROUP_GAP = 0.4  # a gap wider than this × a separates two groups right of the row
WIN_GAP = 0.18  # the winning tile stands apart by more than this × a
MAX_WIN_GAP = 2.5  # ... and by at most this × a
BAND_GAP = 3.5  # right of the row, a gap wider than this × a ends the player's area
NORTH_OFF = 0.08  # a north this far (× a) off the row's line is a kita, not the winning tile
NORTH_GAP = 0.95  # ... and so is one set further apart than this × a
MAX_ROWS = 8  # candidate rows read in full: the longest chains
LOW_CONFIDENCE = 0.6  # below this a tile gets a "check it" warning
ASPECT = 1.35  # long side / short side of a tile, used when it cannot be measured

SUITS = "mpsz"
NORTH = "4z"
AKA_MAN = "0m"


@dataclass(frozen=True)
class Layout:
    """A reconstructed photo: tiles with ``group`` set, the hand JSON, and what to check."""

    tiles: list[TileDetection]
    hand: dict[str, object]
    warnings: list[str]


# ----------------------------------------------------------------------------- tiles


def kind(tile: str) -> str:
    """The kind a tile counts as for the four-of-a-kind rule: reds are fives, ``0m`` a north.

    >>> kind("0p"), kind("0m"), kind("7z")
    ('5p', '4z', '7z')
    """
    if tile == AKA_MAN:
        return NORTH
    if tile[0] == "0":
        return "5" + tile[1]
    return tile


def readable(det: TileDetection) -> bool:
    """A face-up tile with a valid MPSZ id (not ``back``, not a flower or junk label).

    >>> readable(TileDetection("0p", (0, 0, 1, 1))), readable(TileDetection("flower", (0, 0, 1, 1)))
    (True, False)
    """
    t = det.tile
    if len(t) != 2 or t[1] not in SUITS or not t[0].isdigit():
        return False
    return "1" <= t[0] <= "7" if t[1] == "z" else True


def _sort_key(tile: str) -> tuple[int, int, int]:
    digit = int(tile[0])
    return (SUITS.index(tile[1]), 5 if digit == 0 else digit, 1 if digit == 0 else 0)


def mpsz(tiles: list[str]) -> str:
    """Tiles as one canonical MPSZ string: digits grouped per suit, suits in m p s z order.

    >>> mpsz(["1z", "3p", "0p", "5p", "1z", "2p"])
    '2350p11z'
    """
    out: list[str] = []
    for suit in SUITS:
        digits = [t[0] for t in sorted(tiles, key=_sort_key) if t[1] == suit]
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


# ----------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class _Geo:
    """Centres and box sizes of all detections as arrays."""

    centres: np.ndarray  # (n, 2)
    widths: np.ndarray  # (n,)
    heights: np.ndarray  # (n,)

    @staticmethod
    def of(tiles: list[TileDetection]) -> _Geo:
        boxes = np.array([t.box for t in tiles], dtype=float).reshape(-1, 4)
        centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], 1)
        widths = np.abs(boxes[:, 2] - boxes[:, 0])
        heights = np.abs(boxes[:, 3] - boxes[:, 1])
        return _Geo(centres, np.maximum(widths, 1e-6), np.maximum(heights, 1e-6))

    def scale(self, i: int) -> float:
        return float(math.sqrt(self.widths[i] * self.heights[i]))


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else np.array([1.0, 0.0])


def _true_dims(w: float, h: float, theta: float, sideways: bool) -> tuple[float, float]:
    """Short and long side of a tile whose axis-aligned box is ``w``×``h``, turned by ``theta``.

    An upright tile ``a``×``b`` turned by θ fills a box ``w = a·c + b·s``, ``h = a·s + b·c``;
    solving the 2×2 system undoes the inflation that tilt gives axis-aligned boxes.
    """
    c, s = abs(math.cos(theta)), abs(math.sin(theta))
    if sideways:
        w, h = h, w
    den = c * c - s * s
    if den < 0.5:  # beyond ~30° the system is ill-conditioned: fall back to the box
        return 0.75 * min(w, h), max(w, h)
    a = (w * c - h * s) / den
    b = (h * c - w * s) / den
    a = max(a, 0.4 * min(w, h))
    b = max(b, a)
    return a, b


# ----------------------------------------------------------------------------- the row


def _grow(
    geo: _Geo, start: int, d: np.ndarray, step: float, allowed: np.ndarray, used: set[int]
) -> list[int]:
    """Follow touching tiles from ``start`` in direction ``d``; returns the tiles added."""
    added: list[int] = []
    cur = start
    cos_turn = math.cos(math.radians(MAX_TURN_DEG))
    while True:
        pred = geo.centres[cur] + d * step
        r = geo.centres - pred
        along = r @ d
        across = r @ np.array([-d[1], d[0]])
        ratio = np.sqrt(geo.widths * geo.heights) / geo.scale(cur)
        ok = (
            allowed
            & (np.abs(along) < ALONG_TOL * step)
            & (np.abs(across) < ACROSS_TOL * step)
            & (ratio < SIZE_RATIO)
            & (ratio > 1 / SIZE_RATIO)
        )
        for i in used:
            ok[i] = False
        cands = np.flatnonzero(ok)
        if cands.size == 0:
            return added
        j = int(cands[np.argmin(np.hypot(along[cands], across[cands]))])
        link = geo.centres[j] - geo.centres[cur]
        new_d = _unit(link)
        if (
            float(new_d @ d) < cos_turn
            or not _touching(geo, cur, j, link)
            or _skips(geo, cur, j, allowed)
        ):
            return added
        step = 0.5 * step + 0.5 * float(np.linalg.norm(link))
        d = _unit(d + new_d)
        added.append(j)
        used.add(j)
        cur = j


def _touching(geo: _Geo, i: int, j: int, link: np.ndarray) -> bool:
    """Upright tiles ``i`` and ``j`` touch side by side: the link is about one tile width."""
    theta = math.atan2(float(link[1]), float(link[0]))
    ai, _ = _true_dims(float(geo.widths[i]), float(geo.heights[i]), theta, False)
    aj, _ = _true_dims(float(geo.widths[j]), float(geo.heights[j]), theta, False)
    ratio = float(np.linalg.norm(link)) / ((ai + aj) / 2)
    return TOUCH[0] < ratio < TOUCH[1]


def _skips(geo: _Geo, i: int, j: int, allowed: np.ndarray) -> bool:
    """The link ``i``→``j`` jumps over another tile lying between them."""
    length = float(np.linalg.norm(geo.centres[j] - geo.centres[i]))
    mid = (geo.centres[i] + geo.centres[j]) / 2
    dist = np.hypot(*(geo.centres - mid).T)
    # A near-duplicate box of either end (a tile read twice) is no tile in between.
    to_i = np.hypot(*(geo.centres - geo.centres[i]).T)
    to_j = np.hypot(*(geo.centres - geo.centres[j]).T)
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


def _cuts(chain: list[int], geo: _Geo) -> list[list[int]]:
    """A chain too long for one hand: the hand ends at one of its relatively widest links
    (under steep perspective a set-apart winning tile or kita can close up to the row)."""
    links = np.hypot(*np.diff(geo.centres[chain], axis=0).T)
    jump = []
    for k in range(1, len(links) - 1):
        expected = math.sqrt(float(links[k - 1]) * float(links[k + 1]))  # smooth perspective
        jump.append((float(links[k]) / expected, k))
    return [chain[: k + 1] for ratio, k in sorted(jump, reverse=True)[:3] if ratio > 1.08]


def _split_at_gaps(chain: list[int], geo: _Geo) -> list[list[int]]:
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
        if float(link) > LINK_JUMP * float(np.median(around)):
            pieces.append([])
        pieces[-1].append(chain[k + 1])
    return pieces


def _candidate_rows(tiles: list[TileDetection], geo: _Geo) -> list[list[int]]:
    """Every maximal chain of upright touching tiles, longest (most face-up tiles) first."""
    upright = np.array([t.angle == 0 for t in tiles], dtype=bool)
    max_slope = math.cos(math.radians(MAX_ROW_SLOPE_DEG))
    chains: dict[frozenset[int], list[int]] = {}
    for i in (int(k) for k in np.flatnonzero(upright)):
        dist = np.hypot(*(geo.centres - geo.centres[i]).T)
        short = min(geo.widths[i], geo.heights[i])
        near = [
            int(j)
            for j in np.argsort(dist)
            if j != i and upright[j] and 0.45 * short < dist[j] < 1.6 * short
        ][:3]
        for j in near:
            d = _unit(geo.centres[j] - geo.centres[i])
            if abs(d[0]) < max_slope:
                continue
            if d[0] < 0:
                continue  # the pair (j, i) covers this direction
            if not _touching(geo, i, j, geo.centres[j] - geo.centres[i]):
                continue
            if _skips(geo, i, j, upright):
                continue
            step = float(dist[j])
            used: set[int] = {i, j}
            right = _grow(geo, j, d, step, upright, used)
            left = _grow(geo, i, -d, step, upright, used)
            for chain in _split_at_gaps([*reversed(left), i, j, *right], geo):
                chain = _trim(chain, tiles)
                if chain:
                    chains.setdefault(frozenset(chain), chain)

    def face_up(chain: list[int]) -> int:
        return sum(readable(tiles[k]) for k in chain)

    ordered = sorted(chains.values(), key=lambda c: (-face_up(c), -len(c)))
    # Keep only chains not contained in an earlier one.
    kept: list[list[int]] = []
    for c in ordered:
        if 2 * face_up(c) <= len(c):
            continue  # mostly face-down: a wall or another player's standing hand
        if not any(set(c) <= set(k) for k in kept):
            kept.append(c)
    kept = kept[:MAX_ROWS]  # the longest chains: the hand row is among them
    kept += [cut for c in kept if len(c) > 14 for cut in _cuts(c, geo)]
    if not kept:  # no two tiles side by side: the largest upright face-up tile stands alone
        faces = [int(i) for i in np.flatnonzero(upright) if readable(tiles[int(i)])]
        return [[max(faces, key=geo.scale)]] if faces else []
    return kept


@dataclass(frozen=True)
class _Frame:
    """The row's end frame: origin at the last row tile, ``u`` along the row, ``v`` across."""

    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray
    a: float  # local tile width (short side) at the row's end
    b: float  # local tile height (long side)
    theta: float  # angle of ``u`` to the image x axis

    def coords(self, p: np.ndarray) -> tuple[float, float]:
        r = p - self.origin
        return float(r @ self.u), float(r @ self.v)


def _end_frame(row: list[int], tiles: list[TileDetection], geo: _Geo) -> _Frame:
    pts = geo.centres[row]
    if len(row) >= 2:
        tail = pts[-min(len(row), 4) :]
        u = _unit(tail[-1] - tail[0])
        links = np.hypot(*np.diff(pts[-min(len(row), 4) :], axis=0).T)
        pitch = float(np.median(links))
    else:
        u = np.array([1.0, 0.0])
        pitch = 0.0
    theta = math.atan2(u[1], u[0])
    last = row[-1]
    a, b = _true_dims(float(geo.widths[last]), float(geo.heights[last]), theta, False)
    if pitch > 0:
        b = b * pitch / a if a > 0 else b
        a = pitch
    b = max(b, a * 1.05)
    v = np.array([-u[1], u[0]])
    return _Frame(pts[-1], u, v, a, b, theta)


# ----------------------------------------------------------------------------- right of the row


@dataclass(frozen=True)
class _Placed:
    """A tile right of the row in the end frame: position and extent along the row."""

    index: int
    t: float
    n: float
    half: float  # half its extent along the row
    a: float  # its short side
    off: float = 0.0  # offset across the row's line, × a


def _right_groups(
    row: list[int], tiles: list[TileDetection], geo: _Geo, frame: _Frame
) -> list[tuple[float, list[_Placed]]]:
    """Tiles on the row's line right of its end, cut into groups at gaps: ``(gap, group)``.

    The line is followed as it goes: each accepted tile refines a straight fit of the recent
    tile centres (upright tiles sit centred on it, sideways ones bottom-aligned with it), so
    a gentle curve or perspective does not drift away. A sideways tile lying beyond another
    sideways tile (a kakan's added tile) joins that tile's group.
    """
    in_row = set(row)
    sa = frame.b / ASPECT  # across extent of a sideways tile (foreshortened like the row)
    side_shift = (frame.b - sa) / 2  # a bottom-aligned sideways tile's centre vs the row line
    placed: list[tuple[_Placed, bool]] = []
    for k, tile in enumerate(tiles):
        if k in in_row or not (readable(tile) or tile.face_down):
            continue  # a flower or junk label is never part of the player's sets
        t, n = frame.coords(geo.centres[k])
        sideways = tile.angle == 90
        # Size from the row's own pitch, scaled by box area (perspective): boxes include the
        # tiles' sides, so box edges would understate the gaps between 3D tiles.
        a = frame.a * geo.scale(k) / geo.scale(row[-1])
        half = (ASPECT * a if sideways else a) / 2
        if t - half < -0.2 * frame.a or not 0.6 < a / frame.a < 1.7:
            continue
        placed.append((_Placed(k, t, n, half, a), sideways))
    placed.sort(key=lambda ps: ps[0].t - ps[0].half)
    line_t = [float(geo.centres[k] @ frame.u - frame.origin @ frame.u) for k in row[-4:]]
    line_n = [float((geo.centres[k] - frame.origin) @ frame.v) for k in row[-4:]]
    groups: list[tuple[float, list[_Placed]]] = []
    raised: list[_Placed] = []
    edge, scale = frame.a / 2, frame.a
    for p, sideways in placed:
        ref = _line_at(line_t[-6:], line_n[-6:], p.t)
        dn = p.n - ref - (side_shift if sideways else 0.0)
        across = sa if sideways else frame.b
        if sideways and -1.7 * sa < dn < -0.5 * sa:
            raised.append(p)
            continue
        if abs(dn) > 0.5 * across:
            continue
        p = replace(p, off=dn / p.a)
        gap = (p.t - p.half) - edge
        local = (scale + p.a) / 2
        if groups and gap <= GROUP_GAP * local:
            groups[-1][1].append(p)
        else:
            if gap > BAND_GAP * local:
                break
            groups.append((gap / local, [p]))
        edge = max(edge, p.t + p.half)
        scale = p.a
        line_t.append(p.t)
        line_n.append(p.n - (side_shift if sideways else 0.0))
    for p in raised:  # a kakan's added tile: attach to the sideways tile it lies beyond
        same = kind(tiles[p.index].tile)
        for _, group in groups:
            if any(
                tiles[q.index].angle == 90 and _stacked(p, q) and kind(tiles[q.index].tile) == same
                for q in group
            ):
                group.append(p)
                break
    return _split_loose(groups, tiles)


def _split_loose(
    groups: list[tuple[float, list[_Placed]]], tiles: list[TileDetection]
) -> list[tuple[float, list[_Placed]]]:
    """Cut groups that hold more than one set (melds laid close together, or a winning tile
    and a kita) into runs: an ankan (face-down, two alike, face-down) or a run of one kind;
    a lone tile of another kind stands alone."""
    out: list[tuple[float, list[_Placed]]] = []
    for gap, group in groups:
        kinds = Counter(kind(tiles[p.index].tile) for p in group if readable(tiles[p.index]))
        marked = any(tiles[p.index].angle == 90 or tiles[p.index].face_down for p in group)
        one_set = marked and max(kinds.values(), default=0) >= 2  # a set with a misread tile
        if len(group) <= 4 and (len(kinds) <= 1 or one_set):
            out.append((gap, group))
            continue
        for i, run in enumerate(_runs(group, tiles)):
            out.append((gap if i == 0 else 0.0, run))
    return out


def _runs(group: list[_Placed], tiles: list[TileDetection]) -> list[list[_Placed]]:
    """Split one group, left to right, into ankan patterns and same-kind runs."""
    base = sorted([p for p in group], key=lambda p: p.t)
    slots: list[list[_Placed]] = []
    for p in base:  # a tile lying on/beyond a sideways tile shares its slot
        if (
            slots
            and tiles[p.index].angle == 90
            and any(tiles[q.index].angle == 90 and _stacked(p, q) for q in slots[-1])
        ):
            slots[-1].append(p)
        else:
            slots.append([p])

    def slot_kind(slot: list[_Placed]) -> str | None:
        t = tiles[slot[0].index]
        return kind(t.tile) if readable(t) else None

    def is_back(slot: list[_Placed]) -> bool:
        return tiles[slot[0].index].face_down

    runs: list[list[_Placed]] = []
    i = 0
    while i < len(slots):
        if (
            is_back(slots[i])
            and i + 3 < len(slots)
            and is_back(slots[i + 3])
            and slot_kind(slots[i + 1]) is not None
            and slot_kind(slots[i + 1]) == slot_kind(slots[i + 2])
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


def _line_at(ts: list[float], ns: list[float], t: float) -> float:
    """The across position of the line through the recent tile centres, at ``t``."""
    if len(ts) < 2 or max(ts) - min(ts) < 1e-6:
        return float(np.mean(ns)) if ns else 0.0
    slope, icpt = np.polyfit(ts, ns, 1)
    return float(slope * t + icpt)


@dataclass(frozen=True)
class _Reading:
    """One interpretation of the photo around a candidate row."""

    row: list[int]
    win: int | None
    melds: list[tuple[str, list[int]]]  # ("pon:777z", tile indices)
    kita: list[int]
    other_right: list[int]
    warnings: list[str]

    @property
    def units(self) -> int:
        """Tiles toward 14 (§1): concealed + winning tile + 3 per meld (a kan's 4th is extra)."""
        return len(self.row) + (self.win is not None) + 3 * len(self.melds)


def _is_north(tile: str) -> bool:
    return tile in (NORTH, AKA_MAN, "5m")


def _stacked(a: _Placed, b: _Placed) -> bool:
    """Two tiles overlapping along the row by more than half: one lies on/next to the other."""
    overlap = min(a.t + a.half, b.t + b.half) - max(a.t - a.half, b.t - b.half)
    return overlap > 0.5 * min(a.half, b.half) * 2


def _meld_string(kind_name: str, faces: list[str], size: int) -> str:
    """``kind:XXXX`` from the tiles seen (red fives and the aka-5-man kept as read), padded
    with the plain kind where a tile is unseen."""
    seen = [AKA_MAN if f == "5m" else f for f in faces][:size]
    tiles = seen + [kind(faces[0])] * (size - len(seen))
    return f"{kind_name}:{mpsz(tiles)}"


def _ankan_string(main: str, faces: list[str], warnings: list[str]) -> str:
    """An ankan from its two face-up tiles (RULES.md Tiles §3, §A1).

    An ankan holds all four tiles of its kind, so for fives the set's red ones are in it:
    under the base rule exactly one red (if both visible fives are plain, the red lies
    face-down), under the aka-5-man option all four (both visible fives red).
    """
    plain = [kind(f) for f in faces]
    if main == NORTH:  # an aka-5-man seen face-up is kept (it is a north, §A4)
        seen = [AKA_MAN for f in faces if f in (AKA_MAN, "5m")][:1]
        return f"ankan:{mpsz(seen + [NORTH] * (4 - len(seen)))}"
    if main not in ("5p", "5s"):
        return f"ankan:{mpsz(plain[:1] * 4)}"
    red = "0" + main[1]
    reds = sum(f == red for f in faces)
    if reds == 2:
        return f"ankan:{mpsz([red] * 4)}"
    if reds == 0:
        warnings.append(
            f"concealed kan of {main}: both visible fives are plain, so the base rule's red "
            f"{main} ({red}) is one of the face-down tiles and was counted; check it"
        )
    return f"ankan:{mpsz([main] * 3 + [red])}"


def _read_meld(group: list[_Placed], tiles: list[TileDetection], warnings: list[str]) -> str | None:
    """A called or concealed kan group → meld string, or None when it is no meld.

    A tile of another kind lying on a tile of the set's kind is the same tile read twice
    (a detector duplicate): it is left out, with a warning.
    """
    kinds = Counter(kind(tiles[p.index].tile) for p in group if readable(tiles[p.index]))
    main = kinds.most_common(1)[0][0] if kinds else None
    notes: list[str] = []
    if main is not None and len(kinds) > 1:
        ours = [p for p in group if readable(tiles[p.index]) and kind(tiles[p.index].tile) == main]
        doubles = [
            p
            for p in group
            if readable(tiles[p.index])
            and kind(tiles[p.index].tile) != main
            and any(_iou(tiles[p.index].box, tiles[q.index].box) > 0.45 for q in ours)
        ]
        for p in doubles:
            notes.append(
                f"{tiles[p.index].tile} lies on a {main} of a meld: read as one {main}, check it"
            )
        group = [p for p in group if p not in doubles]
    meld = _read_group(group, tiles, notes)
    if meld is None:  # what a group that is no meld mixes does not matter
        notes = [n for n in notes if "mixes kinds" not in n and " lies on a " not in n]
    warnings.extend(notes)
    return meld


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _read_group(
    group: list[_Placed], tiles: list[TileDetection], warnings: list[str]
) -> str | None:
    """:func:`_read_meld` on a group without duplicate readings."""
    ids = [tiles[p.index].tile for p in group]
    backs = [p for p in group if tiles[p.index].face_down]
    faces = [tiles[p.index].tile for p in group if readable(tiles[p.index])]
    sideways = [p for p in group if tiles[p.index].angle == 90]
    kinds = Counter(kind(f) for f in faces)
    main = kinds.most_common(1)[0][0] if kinds else None
    if main is not None and len(kinds) > 1:
        warnings.append(f"meld {' '.join(ids)} mixes kinds: read as {main}, check the odd tile(s)")
    faces_main = [f for f in faces if kind(f) == main] or faces
    if backs:
        if main is not None and len(group) == 4 and len(backs) == 2 and len(faces) == 2:
            return _ankan_string(main, faces_main, warnings)
        if len(group) == 4 and not faces:
            warnings.append("a concealed kan shows four face-down tiles: add its kind by hand")
            return None
        warnings.append(
            f"group {' '.join(ids)} right of the hand has face-down tiles but is not "
            "two face-down ends around two face-up tiles: check it"
        )
        return None
    if main is None:
        return None
    if sideways:
        if len(sideways) > 2 or (len(sideways) == 2 and not _stacked(sideways[0], sideways[1])):
            return None  # a called meld shows one sideways tile (two stacked for a kakan)
        if kinds[main] < 2:
            return None  # no two tiles of one kind: someone else's discards, not a set
        if len(group) == 3:
            return _meld_string("pon", faces_main, 3)
        if len(group) == 4:
            stacked = len(sideways) == 2 and _stacked(sideways[0], sideways[1])
            return _meld_string("kakan" if stacked else "minkan", faces_main, 4)
        warnings.append(
            f"called meld {' '.join(ids)} has {len(group)} tiles (3 or 4 expected): check it"
        )
        return None
    stacked = any(_stacked(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
    if len(group) in (3, 4) and len(kinds) == 1 and (main != NORTH or stacked):
        # A called set whose sideways tile was not seen as such (a common detector slip):
        # three alike → pon; four → kakan when two lie one beyond the other, else minkan.
        name = "pon" if len(group) == 3 else ("kakan" if stacked else "minkan")
        warnings.append(
            f"{len(group)} {main} right of the hand show no sideways tile: read as {name}, check it"
        )
        return _meld_string(name, faces_main, len(group))
    return None


def _read_right(row: list[int], tiles: list[TileDetection], geo: _Geo) -> _Reading:
    """Interpret everything right of a candidate row: winning tile, melds, kita."""
    warnings: list[str] = []
    frame = _end_frame(row, tiles, geo)
    groups = _right_groups(row, tiles, geo, frame)
    win: int | None = None
    melds: list[tuple[str, list[int]]] = []
    kita: list[int] = []
    other: list[int] = []
    lone_candidates: list[int] = []
    if groups and len(groups[0][1]) > 1:  # a winning north with kita close beside it
        gap0, first = groups[0]
        if (
            all(_is_north(tiles[p.index].tile) and tiles[p.index].angle == 0 for p in first)
            and WIN_GAP < gap0 < MAX_WIN_GAP
            and _north_wins(gap0, first[0])
            and not _north_wins(gap0, first[1])
        ):
            groups = [(gap0, first[:1]), (0.0, first[1:]), *groups[1:]]
    for gi, (gap, group) in enumerate(groups):
        indices = [p.index for p in group]
        single = len(group) == 1
        tile = tiles[group[0].index]
        lone_upright = single and tile.angle == 0 and readable(tile)
        north = _is_north(tile.tile)
        if (
            gi == 0
            and lone_upright
            and WIN_GAP < gap < MAX_WIN_GAP
            and (not north or _north_wins(gap, group[0]))
        ):
            win = group[0].index
            if north:
                warnings.append(
                    f"the tile set apart after the hand is a north ({tile.tile}): read as "
                    "the winning tile; if it is an extracted kita, move it to kita"
                )
            continue
        if all(_is_north(tiles[k].tile) for k in indices):
            # Norths: a called pon/kan of norths shows exactly one sideways tile (two stacked
            # for a kakan); otherwise they are kita, upright or laid sideways (§23–§24).
            sideways = sum(tiles[k].angle == 90 for k in indices)
            stacked = any(_stacked(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
            called = len(group) in (3, 4) and (sideways in (1, 2) or stacked)
            meld = _read_meld(group, tiles, warnings) if called else None
            if meld is not None:
                melds.append((meld, indices))
            else:
                kita.extend(indices)
            continue
        meld = _read_meld(group, tiles, warnings)
        if meld is not None:
            melds.append((meld, indices))
            continue
        if lone_upright:
            lone_candidates.append(group[0].index)
        other.extend(indices)
    if win is not None and lone_candidates:
        extra = ", ".join(tiles[k].tile for k in lone_candidates)
        warnings.append(
            f"two candidates for the winning tile: {tiles[win].tile} (taken) and {extra} "
            "further right: check which one it is"
        )
    elif win is None and lone_candidates:
        extra = ", ".join(tiles[k].tile for k in lone_candidates)
        warnings.append(f"lone tile(s) {extra} right of the melds were left out: check them")
    kita += _kita_beside_melds(row, tiles, geo, frame, melds, kita, win, other)
    return _Reading(row, win, melds, kita, other, warnings)


def _kita_beside_melds(
    row: list[int],
    tiles: list[TileDetection],
    geo: _Geo,
    frame: _Frame,
    melds: list[tuple[str, list[int]]],
    kita: list[int],
    win: int | None,
    other: list[int],
) -> list[int]:
    """Norths set aside beyond the melds (further from the player): kita too (§23–§24).

    Only lone norths count: a north touching non-north tiles is in a discard row.
    """
    if not melds:
        return []
    taken = set(row) | set(kita) | {k for _, idx in melds for k in idx} | set(other)
    if win is not None:
        taken.add(win)
    meld_t = [frame.coords(geo.centres[k])[0] for _, idx in melds for k in idx]
    lo, hi = min(meld_t) - 2.0 * frame.a, max(meld_t) + 3.0 * frame.a
    found: list[int] = []
    for k, tile in enumerate(tiles):
        if k in taken or not _is_north(tile.tile):
            continue
        t, n = frame.coords(geo.centres[k])
        if not (lo < t < hi and -(2 * frame.b + 2.5 * frame.a) < n < -0.5 * frame.b):
            continue
        near = [
            j
            for j in range(len(tiles))
            if j != k
            and j not in taken
            and not _is_north(tiles[j].tile)
            and not tiles[j].face_down  # a wall's backs may lie close by
            and float(np.linalg.norm(geo.centres[j] - geo.centres[k])) < 1.25 * frame.b
        ]
        if not near:
            found.append(k)
    # Kita are laid in a line: a north next in line with a found one is a kita too.
    grew = True
    while found and grew:
        grew = False
        for k, tile in enumerate(tiles):
            if k in taken or k in found or not _is_north(tile.tile) or tile.face_down:
                continue
            t, n = frame.coords(geo.centres[k])
            for f in found:
                tf, nf = frame.coords(geo.centres[f])
                if abs(n - nf) < 0.4 * frame.b and abs(t - tf) < 2.6 * frame.a:
                    found.append(k)
                    grew = True
                    break
    return found


def _north_wins(gap: float, p: _Placed) -> bool:
    """A north set apart right after the row: the winning tile lies on the row's line at a
    small gap; a kita is set aside (off the line, or further away)."""
    return abs(p.off) < NORTH_OFF and gap < NORTH_GAP


def _dora_groups(
    tiles: list[TileDetection],
    geo: _Geo,
    taken: set[int],
    row: list[int],
    frame: _Frame,
    warnings: list[str],
) -> list[int]:
    """Dora indicators: face-up tiles in a separate cluster among face-down (dead wall) tiles,
    or else one small group of face-up tiles lying just beyond the hand's left part."""
    rest = [k for k in range(len(tiles)) if k not in taken]
    if not rest:
        return []
    parent = {k: k for k in rest}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i in rest:
        for j in rest:
            if i < j:
                dist = float(np.linalg.norm(geo.centres[i] - geo.centres[j]))
                reach = 0.75 * (
                    max(geo.widths[i], geo.heights[i]) + max(geo.widths[j], geo.heights[j])
                )
                if dist < reach:
                    parent[find(i)] = find(j)
    clusters: dict[int, list[int]] = {}
    for k in rest:
        clusters.setdefault(find(k), []).append(k)
    out: list[int] = []
    loose: list[list[int]] = []
    for members in clusters.values():
        backs = [k for k in members if tiles[k].face_down]
        faces = [k for k in members if readable(tiles[k])]
        if len(backs) >= 2 and 1 <= len(faces) <= 5 and len(faces) < len(backs) + 2:
            out.extend(sorted(faces, key=lambda k: geo.centres[k][0]))
        elif (
            not backs
            and len(faces) == len(members) <= 3
            and all(tiles[k].angle == 0 for k in members)
            and _above_row_start(members, row, geo, frame)
        ):
            loose.append(sorted(faces, key=lambda k: geo.centres[k][0]))
    if not out and len(loose) == 1:  # one small group just beyond the hand's left part
        out = loose[0]
        warnings.append(
            f"{' '.join(tiles[k].tile for k in out)} lying apart beyond the hand read as dora "
            "indicator(s): check them"
        )
    return out


def _above_row_start(members: list[int], row: list[int], geo: _Geo, frame: _Frame) -> bool:
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


# ----------------------------------------------------------------------------- sanity


def _sanity(groups: dict[str, list[int]], tiles: list[TileDetection], warnings: list[str]) -> None:
    """RULES.md Tiles: four of a kind at most, no 2m–8m; low-confidence tiles to check."""
    shown = [k for name in ("hand", "win", "meld", "kita", "dora") for k in groups[name]]
    counts = Counter(kind(tiles[k].tile) for k in shown if readable(tiles[k]))
    for name, count in sorted(counts.items(), key=lambda kv: _sort_key(kv[0])):
        if count > 4:
            warnings.append(
                f"{count} tiles of {name} seen (at most 4 exist; red fives count as fives, "
                "0m as a north): one is misread, check them"
            )
    for place in ("hand", "win", "meld", "kita", "dora"):
        for pos, k in enumerate(groups[place], start=1):
            tile = tiles[k]
            where = _where(place, pos)
            if tile.tile[1] == "m" and tile.tile[0] in "2345678":
                if tile.tile == "5m":
                    warnings.append(
                        f"{where} was read as 5m, which sanma does not use: it is most likely "
                        "the aka-5-man (0m) and was read as such; check it"
                    )
                else:
                    warnings.append(
                        f"{where} was read as {tile.tile}, which sanma does not use (2m–8m are "
                        "removed): a misread or a four-player set, check it"
                    )
            if tile.confidence < LOW_CONFIDENCE:
                label = tile.tile if not tile.face_down else "face-down"
                warnings.append(
                    f"{where} ({label}) has low confidence {tile.confidence:.2f}: check it"
                )


def _where(place: str, pos: int) -> str:
    return {
        "hand": f"tile {pos} in the hand",
        "win": "the winning tile",
        "meld": f"meld tile {pos}",
        "kita": f"kita tile {pos}",
        "dora": f"dora indicator {pos}",
    }[place]


def _count_warnings(reading: _Reading, hand_size: int, warnings: list[str]) -> None:
    """§1 counts: the concealed part holds 13 − 3·melds tiles, plus the winning tile."""
    expected = 13 - 3 * len(reading.melds)
    if hand_size == expected:
        return
    if hand_size < expected:
        warnings.append(
            f"the hand has {hand_size} concealed tiles, {expected} expected with "
            f"{len(reading.melds)} meld(s): a tile may be missing or hidden, check the row"
        )
    else:
        warnings.append(
            f"the hand has {hand_size} concealed tiles, {expected} expected with "
            f"{len(reading.melds)} meld(s): an extra tile may have been detected, check the row"
        )


# ----------------------------------------------------------------------------- main


def _score(reading: _Reading, geo: _Geo) -> tuple[float, ...]:
    """Rank candidate readings: a 13/14-tile hand first (§1), then the nearest to it, then the
    longer row, then the larger tiles (nearer the camera: the player's own)."""
    units = reading.units
    plausible = 1.0 if units in (13, 14) else 0.0
    size = float(np.mean([geo.scale(k) for k in reading.row]))
    return (plausible, -abs(units - 13.5), float(len(reading.row)), size)


def _finish_row(reading: _Reading, tiles: list[TileDetection], warnings: list[str]) -> _Reading:
    """No tile set apart but one tile too many in the row: the rightmost is the winning tile."""
    if reading.win is not None:
        return reading
    faces = [k for k in reading.row if readable(tiles[k])]
    if len(faces) == 14 - 3 * len(reading.melds):
        last = reading.row[-1]
        warnings.append(
            f"no winning tile set apart from the hand: took the rightmost tile "
            f"({tiles[last].tile}) as the winning tile; if the hand is in tenpai it has one "
            "tile too many"
        )
        return replace(reading, row=reading.row[:-1], win=last)
    return reading


def reconstruct(tiles: list[TileDetection], image_size: tuple[int, int]) -> Layout:
    """Rebuild the player's hand from the detections of one photo.

    ``image_size`` is ``(width, height)`` of the photo. Returns every detection with its
    ``group`` set (hand, win, meld, kita, dora or other), the hand JSON fields
    (``hand``, ``win`` — ``None`` for a 13-tile tenpai hand —, ``melds``, ``kita``,
    ``kita_aka`` and ``dora`` when indicators are found), and warnings that say what to check.
    """
    given = list(tiles)
    if not given:
        return Layout([], _empty_hand(), ["no tiles found in the photo"])
    kept, dup_warnings = _dedupe(given)
    chosen = [given[k] for k in kept]
    layout = _reconstruct(chosen, dup_warnings)
    sideways = sum(t.angle == 90 for t in chosen)
    if sideways > len(chosen) / 2 and sideways >= 5:
        # Most tiles lie sideways: the photo is turned by 90°. Read it turned both ways and
        # keep the reading that finds more of a hand (melds and the winning tile sit right).
        w, h = image_size
        turned = [_reconstruct([_turn(t, w, h, cw) for t in chosen], dup_warnings) for cw in (1, 0)]
        best = max(turned, key=_plausibility)
        if _plausibility(best) > _plausibility(layout):
            layout = replace(
                best,
                warnings=[
                    "the photo seems turned by 90°: it was read turned upright; check which "
                    "end of the hand is the winning tile's",
                    *best.warnings,
                ],
            )
    groups = {k: layout.tiles[i].group for i, k in enumerate(kept)}
    out = [replace(t, group=groups.get(k, "other")) for k, t in enumerate(given)]
    return Layout(out, layout.hand, layout.warnings)


def _turn(t: TileDetection, w: float, h: float, clockwise: int) -> TileDetection:
    """The detection in the photo turned by 90° (clockwise or not); sideways ↔ upright."""
    x1, y1, x2, y2 = t.box
    box = (h - y2, x1, h - y1, x2) if clockwise else (y1, w - x2, y2, w - x1)
    return replace(t, box=box, angle=0 if t.angle == 90 else 90)


def _plausibility(layout: Layout) -> tuple[int, int, int]:
    """How much of a hand a reading found: a 13/14-tile hand first, then more tiles placed."""
    hand = layout.hand
    units = sum(ch.isdigit() for ch in str(hand["hand"]))
    units += (hand["win"] is not None) + 3 * len(hand["melds"])  # type: ignore[arg-type]
    return (int(units in (13, 14)), units, -len(layout.warnings))


def _dedupe(tiles: list[TileDetection]) -> tuple[list[int], list[str]]:
    """Two upright detections on one spot are one tile read twice: keep the surer reading.

    Sideways pairs are left alone: a kakan's added tile may lie right on the called one.
    """
    boxes = np.array([t.box for t in tiles], dtype=float)
    area = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-6)
    order = sorted(range(len(tiles)), key=lambda k: -tiles[k].confidence)
    kept: list[int] = []
    warnings: list[str] = []
    for k in order:
        clash = None
        for j in kept:
            if tiles[j].angle == 90 and tiles[k].angle == 90:
                continue
            iw = min(boxes[j, 2], boxes[k, 2]) - max(boxes[j, 0], boxes[k, 0])
            ih = min(boxes[j, 3], boxes[k, 3]) - max(boxes[j, 1], boxes[k, 1])
            inter = max(iw, 0.0) * max(ih, 0.0)
            if inter > 0.6 * (area[j] + area[k] - inter):  # IoU: one spot, not one behind
                clash = j
                break
        if clash is None:
            kept.append(k)
        elif tiles[clash].tile != tiles[k].tile:
            warnings.append(
                f"two readings on one tile: {tiles[clash].tile} "
                f"({tiles[clash].confidence:.2f}, kept) and {tiles[k].tile} "
                f"({tiles[k].confidence:.2f}): check it"
            )
    return sorted(kept), warnings


def _reconstruct(tiles: list[TileDetection], warnings_in: list[str]) -> Layout:
    """:func:`reconstruct` on detections without duplicates."""
    if not tiles:
        return Layout([], _empty_hand(), ["no tiles found in the photo"])
    geo = _Geo.of(tiles)
    rows = _candidate_rows(tiles, geo)
    if not rows:
        return Layout(
            [replace(t, group="other") for t in tiles],
            _empty_hand(),
            [*warnings_in, "no upright face-up tiles found: no hand row to read"],
        )
    readings = [_read_right(row, tiles, geo) for row in rows]
    best = max(readings, key=lambda r: _score(r, geo))
    warnings = list(warnings_in) + list(best.warnings)
    best = _finish_row(best, tiles, warnings)

    # The concealed row: face-down tiles in it cannot be read.
    hand_idx: list[int] = []
    for pos, k in enumerate(best.row, start=1):
        if not readable(tiles[k]):
            warnings.append(f"tile {pos} in the hand is face-down or unreadable: add it by hand")
        else:
            hand_idx.append(k)
    meld_idx = [k for _, idx in best.melds for k in idx]
    taken = set(best.row) | set(meld_idx) | set(best.kita)
    if best.win is not None:
        taken.add(best.win)
    frame = _end_frame(best.row if best.row else hand_idx, tiles, geo)
    dora_idx = _dora_groups(tiles, geo, taken, best.row, frame, warnings)

    groups = {
        "hand": list(best.row),  # unreadable row tiles too: they sit in the hand
        "win": [best.win] if best.win is not None else [],
        "meld": meld_idx,
        "kita": best.kita,
        "dora": dora_idx,
    }
    _count_warnings(best, len(hand_idx), warnings)
    _sanity(groups, tiles, warnings)

    def read(k: int) -> str:
        return AKA_MAN if tiles[k].tile == "5m" else tiles[k].tile

    kita_tiles = [read(k) for k in best.kita]
    hand: dict[str, object] = {
        "hand": mpsz([read(k) for k in hand_idx]),
        "win": read(best.win) if best.win is not None else None,
        "melds": [m for m, _ in best.melds],
        "kita": len(kita_tiles),
        "kita_aka": sum(t == AKA_MAN for t in kita_tiles),
    }
    if dora_idx:
        hand["dora"] = [read(k) for k in dora_idx]

    group_of = {k: name for name, idx in groups.items() for k in idx}
    out = [replace(t, group=group_of.get(k, "other")) for k, t in enumerate(tiles)]
    return Layout(out, hand, warnings)


def _empty_hand() -> dict[str, object]:
    return {"hand": "", "win": None, "melds": [], "kita": 0, "kita_aka": 0}
