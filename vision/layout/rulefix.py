"""Rule-aware reading: misread tiles corrected by what the rules allow (docs/rules.md "Tiles", §1).

The classifier gives each tile its best reading and a few next-best ones
(:attr:`TileDetection.alternatives`). Once the photo's layout is known (which tiles are the
concealed row, the winning tile, each meld, the kita), the rules say more than any one tile:

1. **The concealed row is face up** (the hand is laid open): a ``back`` reading in it with a
   face reading among its alternatives takes that reading (a haku is blank, like a back).
   Conversely **a concealed kan's ends lie face down** (§23): an ankan end read as a face with
   a ``back`` reading among its alternatives is a back; and **a called set lies face up**: a
   pon/kan tile read as a back with the set's kind among its alternatives is that face.
2. **No 2m–8m in sanma** (§1): a middle-manzu reading takes the likeliest sanma alternative; a
   5m is the aka-5-man (``0m``) unless a sanma reading is likelier, or, in the hand, a 1m/9m
   reading is listed (a plain 5-man read where the red aka-5-man would be read ``0m``); with
   none, it stays, and :mod:`sanity` warns (a four-player set).
3. **A pon/kan is one kind** (§23): the kind is chosen by a vote over every tile's readings
   (the product of their probabilities); a tile read as another kind takes the voted kind
   (its red five when that reading is likelier). An ankan's two face-up tiles alike.
4. **Kita are norths** (§A4–§A5): a kita is ``4z`` or the aka-5-man ``0m``, whichever its
   readings favour.
5. **Red fives** (§3, §A1): under the base rule one 0p and one 0s exist; under the aka-5-man
   option every 5p/5s is red. A plain five beside two or more reds of its suit fits neither:
   the extra reds are read plain. At most one ``0m`` exists.
6. **Four of a kind at most** (§1): a fifth tile of a kind takes its likeliest alternative
   (the tile whose alternative is closest to its top reading is changed).
7. **A win has a winning shape** (§1): a 14-tile hand (plus kans) whose reading forms none
   takes the likeliest combination of at most two of the unsure tiles' alternatives that does,
   if one is likely enough; else a warning names the likeliest one to check.

Every change becomes a warning naming the tile, what it was read as and what it is now; tiles
are never invented (a change only picks among the classifier's readings, or, in a meld, the
kind its other tiles agree on), and the top reading stays when nothing is clearly better.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations

from sanma_lens.engine.decompose import (
    is_chiitoitsu,
    is_kokushi,
    is_shiisan_puutaa,
    shape_waits,
    standard_decomps,
)
from sanma_lens.engine.tiles import ALL_KINDS, SANMA_KINDS, kind_of
from sanma_lens.vision.layout.notation import (
    AKA_MAN,
    NORTH,
    as_sanma,
    is_face,
    is_north,
    kind,
    readable,
)
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

MIDDLE_MAN = frozenset(f"{d}m" for d in "2345678")


@dataclass(frozen=True)
class Places:
    """Where the player's tiles are: detection indices per part of the layout."""

    row: tuple[int, ...]
    win: int | None
    melds: tuple[tuple[str, tuple[int, ...]], ...]  # ("pon", indices) — the meld's type
    kita: tuple[int, ...]
    dora: tuple[int, ...]

    def shown(self) -> list[int]:
        """Every tile the four-of-a-kind rule counts: hand, win, melds, kita, dora."""
        out = [*self.row, *([self.win] if self.win is not None else []), *self.kita, *self.dora]
        return out + [k for _, idx in self.melds for k in idx]


def readings(det: TileDetection) -> dict[str, float]:
    """A tile's readings with their probabilities: the chosen one (its confidence, a lower
    bound of its probability) and the classifier's alternatives."""
    out = {det.tile: det.confidence}
    for tile, p in det.alternatives:
        out.setdefault(tile, p)
    return out


def _sanma(tile: str) -> bool:
    """A face reading that exists in sanma (§1: 2m–8m removed; 0m the aka-5-man)."""
    return is_face(tile) and tile not in MIDDLE_MAN


class _Fixer:
    """The tiles being corrected, and the warnings said so far."""

    def __init__(self, tiles: list[TileDetection], places: Places) -> None:
        self.tiles = list(tiles)
        self.places = places
        self.warnings: list[str] = []
        self.where = where_map(places)
        self.rejected: set[tuple[int, str]] = set()  # readings a rule ruled out

    def set(self, k: int, tile: str, why: str, p: float | None = None, **params: str) -> None:
        """Read tile ``k`` as ``tile``: its probability (``p``, or the classifier's) becomes
        its confidence, and the old reading joins its alternatives; a warning ``why`` (a code
        of vision/warning_catalogue.py, with ``params``) says so."""
        det = self.tiles[k]
        if det.tile == tile:
            return
        probs = readings(det)
        p = probs.get(tile, 0.0) if p is None else p
        self.rejected.add((k, det.tile))
        alts = tuple((t, q) for t, q in sorted(probs.items(), key=lambda kv: -kv[1]) if t != tile)
        self.tiles[k] = replace(det, tile=tile, confidence=round(p, 4), alternatives=alts[:3])
        place, position = self.where.get(k, ("other", None))
        self.warnings.append(
            PhotoWarning(
                why,
                place=place,
                position=position,
                was=det.tile,
                confidence=round(det.confidence, 4),
                tile=tile,
                **params,
            )
        )


def where_map(places: Places) -> dict[int, tuple[str, int | None]]:
    """Where each placed tile sits, as the warnings say it (vision/warning_catalogue.py): its
    group and its position in it from the left (a meld's tiles: the meld's number)."""
    out: dict[int, tuple[str, int | None]] = {}
    for pos, k in enumerate(places.row, start=1):
        out[k] = ("hand", pos)
    if places.win is not None:
        out[places.win] = ("win", None)
    for m, (_name, idx) in enumerate(places.melds, start=1):
        for k in idx:
            out[k] = ("meld", m)
    for pos, k in enumerate(places.kita, start=1):
        out[k] = ("kita", pos)
    for pos, k in enumerate(places.dora, start=1):
        out[k] = ("dora", pos)
    return out


def correct(tiles: list[TileDetection], places: Places) -> tuple[list[TileDetection], list[str]]:
    """The detections with misreads corrected by the rules (module docstring, steps 1–7), and
    one warning per change. Only tiles in ``places`` are touched."""
    fx = _Fixer(tiles, places)
    _row_faces_up(fx)
    _ankan_ends_down(fx)
    _called_faces_up(fx)
    _no_middle_manzu(fx)
    _melds_one_kind(fx)
    _kita_are_norths(fx)
    _red_fives(fx)
    _four_of_a_kind(fx)
    _winning_shape(fx)
    return fx.tiles, fx.warnings


# ----------------------------------------------------------------------------- steps 1–2


def faces_up(tiles: list[TileDetection], row: list[int]) -> tuple[list[TileDetection], list[str]]:
    """Step 1 alone, before the winning tile is taken from the row's end: the concealed row is
    laid face up, so a back in it with a face reading among its alternatives is that face (a
    haku is blank, like a back)."""
    fx = _Fixer(tiles, Places(tuple(row), None, (), (), ()))
    _row_faces_up(fx)
    return fx.tiles, fx.warnings


def _row_faces_up(fx: _Fixer) -> None:
    """The concealed row is laid face up: a back in it is a misread face (often a haku)."""
    for k in fx.places.row:
        det = fx.tiles[k]
        if not det.face_down:
            continue
        full = {t for t, n in _counts(fx).items() if n >= 4}
        faces = [
            (t, p)
            for t, p in det.alternatives
            if _sanma(t) and p >= S.swap_min_alt and kind(t) not in full
        ]
        if faces:
            fx.set(k, faces[0][0], "reread_face_up")


def _ankan_ends_down(fx: _Fixer) -> None:
    """§23: a concealed kan is laid with its two end tiles face down: an end read as a face
    (a back and a haku are both blank) with a ``back`` reading among its alternatives is a
    back. The meld's indices run left to right."""
    for name, idx in fx.places.melds:
        if name != "ankan" or len(idx) != 4:
            continue
        for k in (idx[0], idx[-1]):
            det = fx.tiles[k]
            p = dict(det.alternatives).get("back", 0.0)
            if not det.face_down and p >= S.swap_min_alt:
                fx.set(k, "back", "reread_ankan_end")


def _called_faces_up(fx: _Fixer) -> None:
    """§23: a called set (pon, minkan, kakan) lies face up: a tile of it read as a back with
    the set's kind among its readings is that face (a haku is blank, like a back)."""
    for name, idx in fx.places.melds:
        if name == "ankan":
            continue
        main = vote_kind([fx.tiles[k] for k in idx if readable(fx.tiles[k])])
        for k in idx:
            det = fx.tiles[k]
            face = [(t, p) for t, p in det.alternatives if is_face(t) and kind(t) == main]
            if det.face_down and face and face[0][1] >= S.swap_min_alt:
                fx.set(k, face[0][0], "reread_called_face_up")


def _no_middle_manzu(fx: _Fixer) -> None:
    """§1: sanma has no 2m–8m. 5m → the aka-5-man unless a sanma reading is likelier or, in
    the concealed hand or as the winning tile, a 1m/9m reading is listed. Two or
    more 2m–8m readings besides 5m mean a four-player set: those are left as read (and
    :mod:`sanity` warns)."""
    shown = fx.places.shown()
    if sum(fx.tiles[k].tile in MIDDLE_MAN - {"5m"} for k in shown) >= 2:
        return
    hand = {*fx.places.row, *([fx.places.win] if fx.places.win is not None else [])}
    for k in shown:
        det = fx.tiles[k]
        if det.tile not in MIDDLE_MAN:
            continue
        probs = readings(det)
        full = {t for t, n in _counts(fx).items() if n >= 4}
        sanma = [(t, p) for t, p in probs.items() if _sanma(t) and kind(t) not in full]
        best = max(sanma, key=lambda tp: tp[1], default=None)
        if det.tile == "5m":
            aka = probs.get("5m", 0.0) + probs.get(AKA_MAN, 0.0)
            terminal = _terminal_man(probs, full) if k in hand else None
            if best is not None and best[0] != AKA_MAN and best[1] > aka:
                fx.set(k, best[0], "reread_5m_likelier")
            elif terminal is not None:
                # a plain 5-man read in the hand (no red seen, as the aka-5-man has) is
                # likelier a misread 1m/9m
                fx.set(k, terminal, "reread_5m_terminal")
            else:
                fx.set(k, AKA_MAN, "reread_5m_aka", aka)
        elif best is not None and best[1] >= S.swap_min_alt:
            fx.set(k, best[0], "reread_2m_8m")


def _terminal_man(probs: dict[str, float], full: set[str]) -> str | None:
    """The likelier of 1m and 9m among a tile's readings, at least ``swap_min_alt`` likely, at
    least as likely as the aka-5-man's own reading ``0m``, and not held four times already;
    None when neither is. (The aka-5-man is red: the classifier
    reads it 0m when it sees the red; a plain 5m read in the hand was, on the dev renders,
    a misread 9m each time: 950000, 950107, 950195, 970211, no true 0m read so.)"""
    terminals = [(t, probs.get(t, 0.0)) for t in ("1m", "9m") if t not in full]
    best = max(terminals, key=lambda tp: tp[1], default=None)
    if best is None or best[1] < max(S.swap_min_alt, probs.get(AKA_MAN, 0.0)):
        return None  # the red seen as likely as the terminal: the aka-5-man, read dimly
    return best[0]


# ----------------------------------------------------------------------------- steps 3–4


def kind_probs(det: TileDetection) -> dict[str, float]:
    """Probability per kind (red fives are fives, 0m and 5m norths)."""
    out: dict[str, float] = {}
    for t, p in readings(det).items():
        if is_face(t):
            k = kind(as_sanma(t))
            out[k] = out.get(k, 0.0) + p
    return out


def kind_prob(det: TileDetection, target: str) -> float:
    """How likely ``det`` shows a tile of kind ``target`` (red fives are fives, 0m a north)."""
    return kind_probs(det).get(target, 0.0)


def vote_kind(dets: list[TileDetection]) -> str | None:
    """The kind all these tiles most likely share: the product of each tile's probability of
    it (a floor for readings the classifier did not list), largest first."""
    probs = [kind_probs(d) for d in dets if readable(d)]
    kinds = {k for p in probs for k in p}
    if not kinds:
        return None

    def score(k: str) -> tuple[float, int]:
        return (
            sum(math.log(max(p.get(k, 0.0), S.vote_floor)) for p in probs),
            sum(k in p for p in probs),
        )

    return max(sorted(kinds), key=score)


def may_share_kind(dets: list[TileDetection]) -> bool:
    """Face-up tiles that can be one kind by their readings (a set with a misread tile)."""
    shared = set.intersection(*(set(kind_probs(d)) for d in dets)) if dets else set()
    return bool(shared) and all(readable(d) for d in dets)


def _as_kind(det: TileDetection, target: str) -> str:
    """The reading of ``det`` of kind ``target`` it favours (red five or plain)."""
    probs = readings(det)
    options = [(t, p) for t, p in probs.items() if is_face(t) and kind(t) == target]
    if target == NORTH:
        options = [(as_sanma(t), p) for t, p in probs.items() if is_north(t)]
    return max(options, key=lambda tp: tp[1])[0] if options else target


def _melds_one_kind(fx: _Fixer) -> None:
    """§23: a pon/kan's tiles are one kind (an ankan's two face-up tiles alike)."""
    for _name, idx in fx.places.melds:
        dets = [fx.tiles[k] for k in idx if readable(fx.tiles[k])]
        if len({kind(d.tile) for d in dets}) <= 1:
            continue
        target = vote_kind(dets)
        if target is None:
            continue
        for k in idx:
            det = fx.tiles[k]
            if readable(det) and kind(det.tile) != target and target in kind_probs(det):
                fx.set(k, _as_kind(det, target), "reread_meld_kind", kind=target)


def _kita_are_norths(fx: _Fixer) -> None:
    """§A4–§A5: a kita is a north (4z) or the aka-5-man (0m)."""
    for k in fx.places.kita:
        det = fx.tiles[k]
        if det.tile in (NORTH, AKA_MAN):
            continue
        probs = readings(det)
        north = probs.get(NORTH, 0.0)
        aka = probs.get(AKA_MAN, 0.0) + probs.get("5m", 0.0)
        if max(north, aka) > 0:
            fx.set(k, NORTH if north >= aka else AKA_MAN, "reread_kita")


# ----------------------------------------------------------------------------- steps 5–6


def _red_fives(fx: _Fixer) -> None:
    """§3, §A1: a plain five beside two or more reds of its suit fits neither rule set (the
    base rule has one red per suit, the aka-5-man option only reds): the surest red stays.
    At most one aka-5-man exists (§A1)."""
    dora = set(fx.places.dora)  # indicators found apart may be someone else's discards
    shown = [k for k in fx.places.shown() if k not in dora]
    for suit in "ps":
        red, plain = "0" + suit, "5" + suit
        reds = [k for k in shown if fx.tiles[k].tile == red]
        if len(reds) < 2 or not any(fx.tiles[k].tile == plain for k in shown):
            continue
        margin = {k: readings(fx.tiles[k]).get(plain, 0.0) - fx.tiles[k].confidence for k in reds}
        for k in sorted(reds, key=lambda k: margin[k], reverse=True)[: len(reds) - 1]:
            if plain in readings(fx.tiles[k]):
                fx.set(k, plain, "reread_one_red")
    akas = [k for k in shown if fx.tiles[k].tile == AKA_MAN]
    if len(akas) > 1:
        for k in sorted(akas, key=lambda k: fx.tiles[k].confidence)[:-1]:
            others = [
                (t, p)
                for t, p in fx.tiles[k].alternatives
                if _sanma(t) and t != AKA_MAN and p >= S.swap_min_alt
            ]
            if others:
                fx.set(k, others[0][0], "reread_one_aka")


def _counts(fx: _Fixer) -> Counter[str]:
    return Counter(kind(fx.tiles[k].tile) for k in fx.places.shown() if readable(fx.tiles[k]))


def _four_of_a_kind(fx: _Fixer) -> None:
    """§1: four tiles of a kind exist; a fifth reading is changed where it costs least (its
    alternative closest to its top reading), to a kind not yet full — first where the change
    leaves the hand in its shape (a win's winning shape, a tenpai hand's tenpai): a hand that
    wins as read and a dora indicator or a kita read as its fifth tile is likelier a misread
    indicator than a misread hand."""
    melded = {k for _, idx in fx.places.melds for k in idx}
    shaped = _shape_check(fx)
    for _ in range(4):
        counts = _counts(fx)
        over = [t for t, c in counts.items() if c > 4]
        if not over:
            return
        best: tuple[tuple[bool, float], int, str] | None = None
        for k in fx.places.shown():
            det = fx.tiles[k]
            if k in melded or not readable(det) or kind(det.tile) not in over:
                continue
            for t, p in det.alternatives:
                if _sanma(t) and counts[kind(t)] < 4 and p >= S.swap_min_alt:
                    cost = math.log(max(det.confidence, 1e-6) / p)
                    rank = (not shaped(k, t), cost)
                    if best is None or rank < best[0]:
                        best = (rank, k, t)
                    break
        if best is None:
            return
        _, k, t = best
        fx.set(k, t, "reread_fifth", kind=kind(fx.tiles[k].tile))


def _shape_check(fx: _Fixer) -> Callable[[int, str], bool]:
    """Whether the concealed tiles (the row and the winning tile) have their shape — a
    winning shape with the winning tile, tenpai without — once tile ``k`` reads ``t``; always
    true when the count is off (no shape to keep)."""
    places = fx.places
    concealed = [*places.row, *([places.win] if places.win is not None else [])]
    goal: Callable[[list[str]], bool] | None = None
    if places.win is not None and len(concealed) == 14 - 3 * len(places.melds):
        goal = complete
    elif places.win is None and len(concealed) == 13 - 3 * len(places.melds):
        goal = tenpai
    if goal is None or not all(readable(fx.tiles[k]) for k in concealed):
        return lambda k, t: True
    check = goal

    def shaped(k: int, t: str) -> bool:
        return check([kind(t) if j == k else kind(fx.tiles[j].tile) for j in concealed])

    return shaped


# ----------------------------------------------------------------------------- step 7


def _kind_counts(kinds: list[str]) -> list[int]:
    """How many of each of the engine's 34 kinds (``engine.tiles.kind_of``) ``kinds`` hold."""
    counts = [0] * 34
    for t in kinds:
        counts[kind_of(t)] += 1
    return counts


def complete(kinds: list[str]) -> bool:
    """A winning shape of the concealed tiles (§1): four sets and a pair, seven pairs,
    kokushi or shiisan puutaa (the engine's shape helpers)."""
    c = tuple(_kind_counts(kinds))
    if len(kinds) % 3 != 2 or max(c) > 4:  # a fifth tile of a kind is no hand (§1)
        return False
    if standard_decomps(c):
        return True
    return len(kinds) == 14 and (
        is_chiitoitsu(c) or is_kokushi(c, ALL_KINDS) or is_shiisan_puutaa(c)
    )


def tenpai(kinds: list[str]) -> bool:
    """13 tiles (less three per meld) one tile from a winning shape (§1), on a sanma kind the
    player does not hold all four of."""
    counts = _kind_counts(kinds)
    if max(counts) > 4:  # a fifth tile of a kind is no hand (§1)
        return False
    waits = shape_waits(tuple(counts), SANMA_KINDS)
    return any(counts[w] < 4 for w in waits)


def _winning_shape(fx: _Fixer) -> None:
    """§1: a win of 14 tiles (plus one per kan) has a winning shape, and a hand shown without a
    winning tile (13, at an exhaustive draw) is usually in tenpai. When the reading is neither,
    the likeliest change of at most two unsure tiles to an alternative that makes it so is taken
    if it is likely enough, or else named in a warning."""
    places = fx.places
    concealed = [*places.row, *([places.win] if places.win is not None else [])]
    if places.win is not None and len(concealed) == 14 - 3 * len(places.melds):
        _reshape(
            fx, concealed, complete, S.shape_fix_max_cost, ("reread_win_shape", "suggest_win_shape")
        )
    elif places.win is None and len(concealed) == 13 - 3 * len(places.melds):
        _reshape(
            fx,
            concealed,
            tenpai,
            S.tenpai_fix_max_cost,
            ("reread_tenpai_shape", "suggest_tenpai_shape"),
        )


def _reshape(
    fx: _Fixer,
    concealed: list[int],
    goal: Callable[[list[str]], bool],
    max_cost: float,
    codes: tuple[str, str],
) -> None:
    """Make the concealed tiles reach ``goal`` by re-reading at most two unsure tiles; the
    warning codes of a re-reading taken and of one only suggested."""
    if not all(readable(fx.tiles[k]) for k in concealed):
        return
    read = {k: kind(fx.tiles[k].tile) for k in concealed}
    if goal(list(read.values())):
        return
    counts = _counts(fx)
    options: list[tuple[float, int, str]] = []
    for k in concealed:
        det = fx.tiles[k]
        for t, p in det.alternatives:
            if (
                _sanma(t)
                and p >= S.shape_fix_min_alt
                and kind(t) != read[k]
                and (k, t) not in fx.rejected
            ):
                options.append((math.log(max(det.confidence, 1e-6) / p), k, t))
    found: tuple[float, tuple[tuple[float, int, str], ...]] | None = None
    for size in (1, 2):
        for combo in combinations(options, size):
            if len({k for _, k, _ in combo}) < size:
                continue
            cost = sum(c for c, _, _ in combo)
            if found is not None and cost >= found[0]:
                continue
            trial = dict(read)
            change = Counter[str]()
            for _, k, t in combo:
                trial[k] = kind(t)
                change[kind(t)] += 1
                change[read[k]] -= 1
            if any(counts[t] + d > 4 for t, d in change.items()):
                continue
            if goal(list(trial.values())):
                found = (cost, combo)
    if found is None:  # nothing to suggest: scoring it says no_win_shape
        return
    cost, combo = found
    if cost <= max_cost:
        for _, k, t in combo:
            fx.set(k, t, codes[0])
        return
    changes = tuple(
        {
            "place": fx.where.get(k, ("other", None))[0],
            "position": fx.where.get(k, ("other", None))[1],
            "was": fx.tiles[k].tile,
            "tile": t,
        }
        for _, k, t in combo
    )
    fx.warnings.append(PhotoWarning(codes[1], changes=changes))
