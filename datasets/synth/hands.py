"""Legal sanma hands for the renderer: :class:`HandSpec`, :func:`random_hand_spec`, checks.

Rules (docs/rules.md "Tiles" §1, §3, §A1–A2): 108 tiles, 2m–8m removed, four of each kind.
Base rule: one red 5p (``0p``) and one red 5s (``0s``). Option ``aka_5man``: all 5p and 5s are
red and one north is the aka-5-man (``0m``), which in a hand **is a north** (§A4). Red fives
count as fives. ``hand`` is the concealed part without the winning tile; melds are
``pon:XXX``, ``minkan:XXXX``, ``kakan:XXXX``, ``ankan:XXXX``; kita are extracted norths
(§23–24), ``kita_aka`` of them aka-5-man.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

KINDS: tuple[str, ...] = tuple(
    ["1m", "9m"]
    + [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
)
MELD_KINDS = ("pon", "minkan", "kakan", "ankan")


def base_kind(tile: str) -> str:
    """The kind a tile counts as: red fives are fives, the aka-5-man is a north (§A4)."""
    return {"0p": "5p", "0s": "5s", "0m": "4z"}.get(tile, tile)


def sort_key(tile: str) -> tuple[int, float]:
    n = int(tile[0])
    return ("mpsz".index(tile[1]), 5.5 if n == 0 else float(n))


def to_mpsz(tiles: list[str] | tuple[str, ...], *, sort: bool = True) -> str:
    """``["2p", "3p", "0p", "1z"]`` → ``"230p1z"`` (sorted by suit, then number)."""
    ts = sorted(tiles, key=sort_key) if sort else list(tiles)
    out, run, suit = [], "", ""
    for t in ts:
        if t[1] != suit and run:
            out.append(run + suit)
            run = ""
        run, suit = run + t[0], t[1]
    if run:
        out.append(run + suit)
    return "".join(out)


def parse_mpsz(text: str) -> list[str]:
    """``"230p1z"`` → ``["2p", "3p", "0p", "1z"]``."""
    tiles, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpsz":
            tiles += [d + ch for d in digits]
            digits = ""
        else:
            raise ValueError(f"bad MPSZ character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"MPSZ {text!r} ends without a suit")
    return tiles


@dataclass(frozen=True)
class Meld:
    """A called or concealed set as laid on the table.

    ``tiles`` in table order, left to right; for ``kakan`` the 4th tile is the added one.
    ``called`` is the index of the sideways tile (its position says whom it was called from:
    0 = the player on the left, the middle = across, the last = the right); -1 for ankan,
    whose two end tiles lie face-down. ``stacked``: a kakan's added tile lies on top of the
    sideways tile (else beside it, further from the player).
    """

    kind: str
    tiles: tuple[str, ...]
    called: int = -1
    stacked: bool = False

    def to_json(self) -> str:
        return f"{self.kind}:{to_mpsz(self.tiles)}"


@dataclass(frozen=True)
class HandSpec:
    """What lies on the table in front of the player (the ground truth of a scene)."""

    concealed: tuple[str, ...]  # in the order they are laid out
    win: str | None = None
    melds: tuple[Meld, ...] = ()
    kita: tuple[str, ...] = ()  # each "4z" or "0m"
    dora: tuple[str, ...] = ()  # dora indicators shown (face-up)
    aka_5man: bool = False
    plain: bool = False  # a plain row: the winning tile is not set apart
    extra: dict[str, object] = field(default_factory=dict)

    def all_tiles(self) -> list[str]:
        """Every tile of the player's hand: concealed, win, melds, kita."""
        ts = list(self.concealed) + ([self.win] if self.win else [])
        for m in self.melds:
            ts += list(m.tiles)
        return ts + list(self.kita)

    def to_hand(self) -> dict[str, object]:
        """The hand JSON of docs/api.md (``win`` left out for a 13-tile hand).

        A row of arbitrary classes (crop scenes: ``back``, ``flower``) is no hand; it gives
        ``{"hand": null, "row": [...]}``.
        """
        if not all(len(t) == 2 and t[0].isdigit() for t in self.concealed):
            return {"hand": None, "row": list(self.concealed)}
        d: dict[str, object] = {"hand": to_mpsz(self.concealed)}
        if self.win:
            d["win"] = self.win
        d["melds"] = [m.to_json() for m in self.melds]
        d["kita"] = len(self.kita)
        d["kita_aka"] = sum(1 for k in self.kita if k == "0m")
        if self.dora:
            d["dora"] = list(self.dora)
        d["rules"] = {"preset": "sanma-1.3", "aka_5man": self.aka_5man}
        return d


def hand_problems(hand: dict[str, object], dora: bool = True) -> list[str]:
    """Why a ground-truth hand dict breaks the tile rules (§1, §3, §A1–A2); empty if legal."""
    probs: list[str] = []
    aka = bool((hand.get("rules") or {}).get("aka_5man", False))  # type: ignore[union-attr]
    concealed = parse_mpsz(str(hand.get("hand", "")))
    win = [str(hand["win"])] if hand.get("win") else []
    melds: list[tuple[str, list[str]]] = []
    for m in hand.get("melds", []) or []:  # type: ignore[union-attr]
        kind, _, tiles = str(m).partition(":")
        ts = parse_mpsz(tiles)
        melds.append((kind, ts))
        if kind not in MELD_KINDS:
            probs.append(f"unknown meld {m}")
        if len(ts) != (3 if kind == "pon" else 4) or len({base_kind(t) for t in ts}) != 1:
            probs.append(f"bad meld {m}")
    n_kita, n_aka = int(hand.get("kita", 0)), int(hand.get("kita_aka", 0))  # type: ignore[arg-type]
    kita = ["0m"] * n_aka + ["4z"] * (n_kita - n_aka)
    tiles = concealed + win + [t for _, ts in melds for t in ts] + kita
    if dora:
        tiles += [str(t) for t in hand.get("dora", []) or []]  # type: ignore[union-attr]
    for t in tiles:
        if t[1] == "m" and t[0] in "2345678":
            probs.append(f"{t} is not in the sanma set")
    for k, c in Counter(base_kind(t) for t in tiles).items():
        if c > 4:
            probs.append(f"{c} tiles of {k}")
    reds = Counter(t for t in tiles if t[0] == "0")
    if reds["0m"] > (1 if aka else 0):
        probs.append(f"{reds['0m']} aka-5-man")
    if not aka and (reds["0p"] > 1 or reds["0s"] > 1):
        probs.append("more than one red 5p/5s under the base rule")
    if aka and any(t in ("5p", "5s") for t in tiles):
        probs.append("a non-red 5p/5s under the aka-5-man option (all are red)")
    if n_aka > n_kita:
        probs.append("kita_aka > kita")
    n_kan = sum(1 for k, _ in melds if k != "pon")
    n = len(concealed) + len(win) + sum(len(ts) for _, ts in melds)
    if n - n_kan not in (13, 14) or len(concealed) + 3 * len(melds) != 13:
        probs.append(f"{n} tiles with {n_kan} kan")
    return probs


_RED_OF = {"5p": "0p", "5s": "0s", "4z": "0m"}


class Wall:
    """The physical tiles of a set; draws without replacement."""

    def __init__(self, aka_5man: bool) -> None:
        self.left: Counter[str] = Counter()
        for k in KINDS:
            self.left[k] = 4
        if aka_5man:
            self.left["5p"], self.left["0p"] = 0, 4
            self.left["5s"], self.left["0s"] = 0, 4
            self.left["4z"], self.left["0m"] = 3, 1
        else:
            self.left["5p"], self.left["0p"] = 3, 1
            self.left["5s"], self.left["0s"] = 3, 1

    def available(self, kind: str) -> int:
        n = self.left[kind]
        red = _RED_OF.get(kind)
        return n + self.left[red] if red else n

    def take(self, rng: np.random.Generator, kind: str, red_bias: float = 3.0) -> str:
        """One physical tile of ``kind``; red variants weigh ``red_bias`` times as much."""
        opts = [(t, c) for t, c in self.left.items() if c > 0 and base_kind(t) == kind]
        if not opts:
            raise LookupError(kind)
        w = np.array([c * (red_bias if t[0] == "0" and t != "0m" else 1.0) for t, c in opts])
        t = opts[int(rng.choice(len(opts), p=w / w.sum()))][0]
        self.left[t] -= 1
        return t

    def take_random(self, rng: np.random.Generator) -> str:
        kinds = [k for k in KINDS if self.available(k) > 0]
        return self.take(rng, kinds[int(rng.integers(len(kinds)))])


def _take_set(rng: np.random.Generator, wall: Wall) -> list[str] | None:
    for _ in range(20):
        if rng.random() < 0.55:
            suit = "ps"[int(rng.integers(2))]
            n = int(rng.integers(1, 8))
            kinds = [f"{n + i}{suit}" for i in range(3)]
            if all(wall.available(k) >= 1 for k in kinds):
                return [wall.take(rng, k) for k in kinds]
        else:
            k = KINDS[int(rng.integers(len(KINDS)))]
            if wall.available(k) >= 3:
                return [wall.take(rng, k) for _ in range(3)]
    return None


def _take_pair(rng: np.random.Generator, wall: Wall) -> list[str]:
    kinds = [k for k in KINDS if wall.available(k) >= 2]
    k = kinds[int(rng.integers(len(kinds)))]
    return [wall.take(rng, k), wall.take(rng, k)]


def _meld(
    rng: np.random.Generator, wall: Wall, kind: str, stacked_p: float = 0.35, of: str | None = None
) -> Meld | None:
    """A meld of ``kind`` from the wall, of the tile kind ``of`` (default: any it can give)."""
    n = 3 if kind == "pon" else 4
    kinds = [k for k in KINDS if wall.available(k) >= n and (of is None or k == of)]
    if not kinds:
        return None
    k = kinds[int(rng.integers(len(kinds)))]
    tiles = tuple(wall.take(rng, k) for _ in range(n))
    if kind == "ankan":
        return Meld(kind, tiles, -1)
    side = int(rng.choice(3, p=[0.45, 0.1, 0.45]))  # left, across, right
    if kind == "minkan":
        called = [0, 1 + int(rng.integers(2)), 3][side]
        return Meld(kind, tiles, called)
    called = [0, 1, 2][side]
    return Meld(kind, tiles, called, stacked=kind == "kakan" and rng.random() < stacked_p)


# How many melds a hand has, and of which kind (MELD_KINDS), at realistic rates.
MELD_COUNT_P = (0.45, 0.3, 0.16, 0.07, 0.02)
MELD_KIND_P = (0.6, 0.12, 0.1, 0.18)
# For training the detector's stacked map (datasets/train_stack.py): 1–3 melds, kakans common
# and mostly with the added tile on the called one, pons beside them to tell them from.
KAKAN_COUNT_P = (0.0, 0.4, 0.4, 0.2, 0.0)
KAKAN_KIND_P = (0.4, 0.1, 0.4, 0.1)
KAKAN_STACKED_P = 0.7


def _table_parts(
    rng: np.random.Generator,
    wall: Wall,
    plain: bool,
    count_p: tuple[float, ...] = MELD_COUNT_P,
    kind_p: tuple[float, ...] = MELD_KIND_P,
    stacked_p: float = 0.35,
) -> tuple[list[Meld], list[str]]:
    """Called melds / ankan and kita at realistic rates (none for a plain row)."""
    melds: list[Meld] = []
    if not plain:
        n_melds = int(rng.choice(5, p=list(count_p)))
        for _ in range(n_melds):
            kind = str(rng.choice(MELD_KINDS, p=list(kind_p)))
            m = _meld(rng, wall, kind, stacked_p)
            if m is not None:
                melds.append(m)
    kita: list[str] = []
    if not plain:
        n_kita = int(rng.choice(5, p=[0.5, 0.24, 0.14, 0.08, 0.04]))
        for _ in range(min(n_kita, wall.available("4z"))):
            kita.append(wall.take(rng, "4z", red_bias=1.0))
    return melds, kita


def _laid_out(rng: np.random.Generator, tiles: list[str]) -> list[str]:
    """The concealed row as laid: sorted, or (some players do not sort) shuffled."""
    concealed = sorted(tiles, key=sort_key)
    if rng.random() < 0.12:
        concealed = [concealed[i] for i in rng.permutation(len(concealed))]
    return concealed


def _dora(rng: np.random.Generator, wall: Wall, plain: bool) -> list[str]:
    dora: list[str] = []
    if not plain and rng.random() < 0.4:
        for _ in range(int(rng.choice(3, p=[0.75, 0.2, 0.05])) + 1):
            dora.append(wall.take_random(rng))
    return dora


def random_hand_spec(
    rng: np.random.Generator,
    *,
    plain: bool | None = None,
    aka_5man: bool | None = None,
    kakans: bool = False,
) -> HandSpec:
    """A legal sanma hand with melds/ankan/kita at realistic rates and red fives often.

    The concealed tiles are random (often, not always, sets and a pair): about a quarter of
    the 14-tile hands are no winning shape. :func:`winning_hand_spec` draws hands a player
    photographs. ``kakans``: never plain, and 1–3 melds with many kakans, most of them stacked
    (``KAKAN_*``: training data for the detector's stacked map).
    """
    aka = bool(rng.random() < 0.3) if aka_5man is None else aka_5man
    plain = bool(rng.random() < 0.15) if plain is None else plain
    wall = Wall(aka)
    if kakans:
        plain = False
        melds, kita = _table_parts(rng, wall, plain, KAKAN_COUNT_P, KAKAN_KIND_P, KAKAN_STACKED_P)
    else:
        melds, kita = _table_parts(rng, wall, plain)
    n_conc = 13 - 3 * len(melds)
    with_win = bool(rng.random() < 0.8)
    tiles: list[str] = []
    style = rng.random()
    if style < 0.65:
        for _ in range(len(tiles), n_conc + 1 - 2, 3):
            s = _take_set(rng, wall)
            if s is None:
                break
            tiles += s
        tiles += _take_pair(rng, wall)
    elif style < 0.72 and not melds:
        while len(tiles) < 14:
            tiles += _take_pair(rng, wall)
    while len(tiles) < n_conc + 1:
        tiles.append(wall.take_random(rng))
    tiles = tiles[: n_conc + 1]
    win_i = int(rng.integers(len(tiles)))
    win = tiles.pop(win_i)
    if not with_win:
        win = None
    concealed = _laid_out(rng, tiles)
    dora = _dora(rng, wall, plain)
    return HandSpec(tuple(concealed), win, tuple(melds), tuple(kita), tuple(dora), aka, plain)


def _complete_tiles(
    rng: np.random.Generator, wall: Wall, n_sets: int, pairs: bool
) -> list[str] | None:
    """``n_sets`` sets and a pair (or, ``pairs``, seven pairs of seven kinds) from the wall;
    None when the wall runs out of a needed kind."""
    tiles: list[str] = []
    if pairs:
        kinds = [k for k in KINDS if wall.available(k) >= 2]
        if len(kinds) < 7:
            return None
        for i in rng.choice(len(kinds), 7, replace=False):
            tiles += [wall.take(rng, kinds[int(i)]) for _ in range(2)]
        return tiles
    for _ in range(n_sets):
        s = _take_set(rng, wall)
        if s is None:
            return None
        tiles += s
    return tiles + _take_pair(rng, wall)


def winning_hand_spec(
    rng: np.random.Generator,
    *,
    tenpai: bool | None = None,
    plain: bool | None = None,
    aka_5man: bool | None = None,
) -> HandSpec:
    """A hand as a player photographs it (§1): a complete winning shape — four sets and a
    pair (melds and ankan among the sets), or seven pairs — of 14 tiles plus one per kan,
    the winning tile any of its concealed tiles; or (``tenpai``, one hand in five when None)
    the 13 tiles of a tenpai hand at an exhaustive draw: a complete shape less one tile, so
    it waits at least on that tile. Melds, ankan, kita, red fives and dora at the rates of
    :func:`random_hand_spec`. Only the shape is drawn: an open hand may lack a yaku.
    """
    aka = bool(rng.random() < 0.3) if aka_5man is None else aka_5man
    plain = bool(rng.random() < 0.15) if plain is None else plain
    tenpai = bool(rng.random() < 0.2) if tenpai is None else tenpai
    while True:
        wall = Wall(aka)
        melds, kita = _table_parts(rng, wall, plain)
        pairs = not melds and rng.random() < 0.08
        tiles = _complete_tiles(rng, wall, 4 - len(melds), pairs)
        if tiles is not None:
            break
    win = tiles.pop(int(rng.integers(len(tiles))))
    concealed = _laid_out(rng, tiles)
    dora = _dora(rng, wall, plain)
    return HandSpec(
        tuple(concealed),
        None if tenpai else win,
        tuple(melds),
        tuple(kita),
        tuple(dora),
        aka,
        plain,
    )


def backs_hand_spec(rng: np.random.Generator) -> HandSpec:
    """A hand that lays backs and blank white dragons (haku, 5z) side by side (§1, §23): a
    called set of haku (a pon, or a kan) with its sideways tile, most often an ankan whose
    face-down ends lie beside its faces, and a complete rest; dora shown (the renderer lays
    them with the wall's backs half the time), sometimes kita."""
    aka = bool(rng.random() < 0.3)
    while True:
        wall = Wall(aka)
        kind = str(rng.choice(["pon", "minkan", "kakan"], p=[0.7, 0.1, 0.2]))
        haku = _meld(rng, wall, kind, of="5z")
        melds = [haku] if haku is not None else []
        if rng.random() < 0.7:
            ankan = _meld(rng, wall, "ankan")
            if ankan is not None:
                melds.append(ankan)
        kita = [
            wall.take(rng, "4z", red_bias=1.0)
            for _ in range(min(int(rng.integers(0, 3)), wall.available("4z")))
        ]
        tiles = _complete_tiles(rng, wall, 4 - len(melds), False)
        if tiles is not None:
            break
    win = tiles.pop(int(rng.integers(len(tiles))))
    concealed = _laid_out(rng, tiles)
    dora = [wall.take_random(rng) for _ in range(1 + int(rng.random() < 0.3))]
    return HandSpec(tuple(concealed), win, tuple(melds), tuple(kita), tuple(dora), aka, False)
