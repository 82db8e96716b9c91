"""Recognition on what real Japanese tables bring (prints numbers; asserts nothing).

    .venv/bin/python -m benchmarks.tables [--n 60] [--sets clutter,backs,angles,table]
        [--skip-real] [--latency 10] [--models DIR] [--threads 2] [--seed0 N]

Each set is rendered with datasets.synth's scene options (datasets/synth/extras.py) from fixed
seeds that no training run uses (training renders 1 000 000+, benchmarks.recognition
7 000 000+, these 8 000 000+; ``--seed0`` moves them on, for fresh scenes), and read by the
whole recognizer (``recognize_image``: the tiles and groups the product answers with). Per set:

- ``clutter``: hands among things that are not tiles (LED point displays, sticks, chips, coins,
  dice, phones, keyboards) and the usual other tiles: precision (reports that are a labelled
  tile), recall (labelled tiles found), false reports on the things by kind, and the share of
  photos whose player's tiles (hand, win, melds, kita) come out exactly right;
- ``backs``: sets with yellow, blue, green, purple, orange and black backs beside blank white
  dragons: a back read as a back, a haku (5z) read as 5z (sideways ones apart), each one read
  as the other;
- ``angles``: loose tiles at any angle (scatter) and hands at any angle (slant): found and
  named right, for tiles within 10° of a quarter turn and for tiles askew;
- ``table``: the whole automatic table: precision and recall of face-up tiles (all, the
  player's, the others'), and whether the player's hand stays apart from the others' discards:
  reports the layout puts in the hand JSON (hand, win, melds, kita, dora) that are another
  player's tiles, and the dora indicators turned up on the dead wall read as dora.

Real photos: hk-hands valid and jp-upright held out, as ``benchmarks.recognition`` scores them
(precision and recall printed there; odd and even halves of hk valid). Latency: a 4032×3024
JPEG → recognize JSON, as ``benchmarks.recognition``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from benchmarks.recognition import Tally, eval_real, latency, match, score_photo
from datasets.synth.extras import Extras
from datasets.synth.scene import Scene, render_scene
from sanma_lens.vision.limits import Limits
from sanma_lens.vision.pipeline import Recognizer
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import TileDetection

SEEDS = {
    "clutter": 8_000_000,
    "backs": 8_100_000,
    "scatter": 8_200_000,
    "slant": 8_300_000,
    "table": 8_400_000,
}
SETS = ("clutter", "backs", "angles", "table")
MINE = ("hand", "win", "meld", "kita")
# the groups whose tiles go into the hand JSON (a table's dora indicators lie on its wall)
HAND_GROUPS = ("hand", "win", "meld", "kita", "dora")
SQUARE = 10.0  # a tile within this many degrees of a quarter turn counts as square
UNTIMED_SECONDS = 3600.0  # the accuracy sets' limit per photo (the product's is 10 s)


@dataclass
class Counts:
    """Right / total pairs by name, printed as shares."""

    hits: Counter = field(default_factory=Counter)
    total: Counter = field(default_factory=Counter)

    def add(self, name: str, right: bool) -> None:
        self.hits[name] += int(right)
        self.total[name] += 1

    def line(self, names: list[str] | None = None) -> str:
        keys = names if names is not None else list(self.total)
        return " | ".join(
            f"{k} {self.hits[k] / max(self.total[k], 1):.2%} of {self.total[k]}" for k in keys
        )


def read(rec: Recognizer, scene: Scene) -> list[TileDetection]:
    """The recognizer's answer for a rendered photo, as detections with their groups."""
    h, w = scene.image.shape[:2]
    out = rec.recognize_image(scene.image, (w, h))
    return [
        TileDetection(t["tile"], tuple(t["box"]), t["angle"], t["confidence"], t["group"])
        for t in out["tiles"]
    ]


def truth(scene: Scene, backs_neutral: bool = False) -> tuple[np.ndarray, list[str]]:
    """Boxes and labels to score against: a face-down tile is ``back``; a tile hidden under
    another, or mostly cut off by the border, is neutral (``partial``: a report on it is
    neither right nor wrong), and so is a back with ``backs_neutral``."""
    labels = []
    for t in scene.tiles:
        if t.occluded or t.face_visible < 0.3 or (t.truncated and t.visible < 0.5):
            labels.append("partial")
        elif t.face_down:
            labels.append("partial" if backs_neutral else "back")
        else:
            labels.append(t.tile)
    boxes = np.array([t.box for t in scene.tiles], np.float32).reshape(-1, 4)
    return boxes, labels


def mine_exact(scene: Scene, pred: list[TileDetection]) -> bool:
    """The player's tiles (hand, win, melds, kita) reported exactly: the same multiset of
    tiles in those groups as the labels'."""
    want = Counter("back" if t.face_down else t.tile for t in scene.tiles if t.group in MINE)
    return Counter(p.tile for p in pred if p.group in MINE) == want


def things_hit(scene: Scene, pred: list[TileDetection], matched: set[int]) -> Counter:
    """False reports lying on a thing that is not a tile, by the thing's kind."""
    out: Counter = Counter()
    for i, p in enumerate(pred):
        if i in matched:
            continue
        cx, cy = p.center
        for thing in scene.things:
            x0, y0, x1, y1 = thing.box
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                out[thing.kind] += 1
                break
    return out


def scenes(name: str, n: int, seed0: int = 0) -> list[tuple[str, Scene]]:
    """The set's ``n`` renders (``angles``: half scattered, half slanted), from its seeds
    moved on by ``seed0`` (fresh scenes to check settings chosen on the default ones)."""

    def seed(kind: str, k: int) -> np.random.Generator:
        return np.random.default_rng(SEEDS[kind] + seed0 + k)

    if name == "angles":
        half = n // 2
        return [
            ("scatter", render_scene(seed("scatter", k), extras=Extras(scatter=True)))
            for k in range(half)
        ] + [
            ("slant", render_scene(seed("slant", k), extras=Extras(slant=True)))
            for k in range(n - half)
        ]
    extras = {
        "clutter": Extras(clutter=True),
        "backs": Extras(backs=True),
        "table": Extras(table=True),
    }[name]
    return [(name, render_scene(seed(name, k), extras=extras)) for k in range(n)]


def eval_clutter(rec: Recognizer, n: int, seed0: int = 0) -> None:
    t, exact, on_things = Tally(), [0, 0], Counter()
    for _kind, sc in scenes("clutter", n, seed0):
        pred = read(rec, sc)
        boxes, labels = truth(sc)
        score_photo(t, pred, boxes, labels)
        on_things += things_hit(sc, pred, set(match(pred, boxes)))
        exact[0] += mine_exact(sc, pred)
        exact[1] += 1
    print(t.line(f"clutter renders (seeds {SEEDS['clutter'] + seed0}+)"))
    print(
        f"  precision {t.true_reports / max(t.reported, 1):.2%}, recall "
        f"{t.found / max(t.gt, 1):.2%}; false reports on things: "
        + (", ".join(f"{k} {v}" for k, v in on_things.most_common()) or "none")
        + f" ({sum(on_things.values())} in {n} photos)"
    )
    print(f"  player's tiles exactly right: {exact[0] / max(exact[1], 1):.2%} of {exact[1]}")
    print(
        "  top confusions (label→read):",
        ", ".join(f"{a}→{b}×{k}" for (a, b), k in t.confusions.most_common(8)),
    )


def eval_backs(rec: Recognizer, n: int, seed0: int = 0) -> None:
    t, c, exact = Tally(), Counts(), [0, 0]
    colours: Counter = Counter()
    for _kind, sc in scenes("backs", n, seed0):
        pred = read(rec, sc)
        boxes, labels = truth(sc)
        score_photo(t, pred, boxes, labels)
        hits = {j: i for i, j in match(pred, boxes).items()}
        for j, lab in enumerate(sc.tiles):
            if labels[j] == "partial" or labels[j] not in ("back", "5z"):
                continue
            got = pred[hits[j]].tile if j in hits else None
            if labels[j] == "back":
                c.add("back found, read back", got == "back")
                c.add("back read 5z", got == "5z")
            else:
                name = "haku sideways" if lab.angle == 90 else "haku upright"
                c.add(f"{name} found, read 5z", got == "5z")
                c.add("haku read back", got == "back")
        colours[tuple(sc.meta["back"])] += 1
        exact[0] += mine_exact(sc, pred)
        exact[1] += 1
    print(t.line(f"coloured-back renders (seeds {SEEDS['backs'] + seed0}+)"))
    print("  " + c.line())
    print(f"  player's tiles exactly right: {exact[0] / max(exact[1], 1):.2%} of {exact[1]}")


def eval_angles(rec: Recognizer, n: int, seed0: int = 0) -> None:
    tallies = {"scatter": Tally(), "slant": Tally()}
    c = Counts()
    exact = [0, 0]
    for kind, sc in scenes("angles", n, seed0):
        pred = read(rec, sc)
        boxes, labels = truth(sc)
        score_photo(tallies[kind], pred, boxes, labels)
        hits = {j: i for i, j in match(pred, boxes).items()}
        for j, lab in enumerate(sc.tiles):
            if labels[j] in ("partial", "back"):
                continue
            off = min(lab.turn % 90, 90 - lab.turn % 90)
            name = f"{kind} {'square' if off <= SQUARE else 'askew'}"
            c.add(f"{name} found", j in hits)
            c.add(f"{name} found+named", j in hits and pred[hits[j]].tile == labels[j])
        if kind == "slant":
            exact[0] += mine_exact(sc, pred)
            exact[1] += 1
    print(tallies["scatter"].line(f"loose tiles at any angle (seeds {SEEDS['scatter'] + seed0}+)"))
    print(tallies["slant"].line(f"hands at any angle (seeds {SEEDS['slant'] + seed0}+)"))
    print("  " + c.line(sorted(c.total)))
    print(
        f"  slanted: player's tiles exactly right {exact[0] / max(exact[1], 1):.2%} of {exact[1]}"
    )
    both = Tally()
    for tl in tallies.values():
        for f in ("gt", "found", "named", "reported", "true_reports"):
            setattr(both, f, getattr(both, f) + getattr(tl, f))
    print(
        f"  rotated tiles, found and named right: {both.named / max(both.gt, 1):.2%} of {both.gt}"
    )


def eval_table(rec: Recognizer, n: int, seed0: int = 0) -> None:
    t = Tally()
    groups: Counter = Counter()
    where = Counter()  # face-up tiles found (and named right), the player's and the others'
    exact = [0, 0]
    for _kind, sc in scenes("table", n, seed0):
        pred = read(rec, sc)
        boxes, labels = truth(sc, backs_neutral=True)
        score_photo(t, pred, boxes, labels)
        hits = match(pred, boxes)
        for i, p in enumerate(pred):
            if p.group not in HAND_GROUPS:
                continue
            j = hits.get(i)
            whose = "none" if j is None else ("other" if sc.tiles[j].group == "other" else "mine")
            groups[p.group, whose] += 1
        found = {j: i for i, j in hits.items()}
        for j, lab in enumerate(sc.tiles):
            if lab.group == "dora":
                where["dora"] += 1
                where["dora", "read"] += (
                    j in found
                    and pred[found[j]].group == "dora"
                    and pred[found[j]].tile == lab.tile
                )
        for j, lab in enumerate(sc.tiles):
            if labels[j] in ("partial", "back"):
                continue
            whose = "player's" if lab.group in MINE else "others'"
            where[whose] += 1
            where[whose, "found"] += j in found
            where[whose, "named"] += j in found and pred[found[j]].tile == labels[j]
        exact[0] += mine_exact(sc, pred)
        exact[1] += 1
    print(t.line(f"whole tables (seeds {SEEDS['table'] + seed0}+), face-up tiles (backs neutral)"))
    for whose in ("player's", "others'"):
        k = max(where[whose], 1)
        print(
            f"  {whose} face-up tiles {where[whose]}: found {where[whose, 'found'] / k:.2%}, "
            f"found+named right {where[whose, 'named'] / k:.2%}"
        )
    for name in ("hand", "win"):  # the concealed tiles and the winning tile
        total = sum(v for (g, _), v in groups.items() if g == name)
        print(
            f"  reports grouped {name}: {total}: the player's tiles "
            f"{groups[name, 'mine'] / max(total, 1):.2%}, another player's "
            f"{groups[name, 'other'] / max(total, 1):.2%}, no tile "
            f"{groups[name, 'none'] / max(total, 1):.2%}"
        )
    spilled = sum(v for (_, whose), v in groups.items() if whose == "other")
    print(
        f"  another player's tiles in the hand JSON: {spilled} in {n} photos ("
        + ", ".join(f"{g} {groups[g, 'other']}" for g in HAND_GROUPS)
        + "); no tile there: "
        + str(sum(v for (_, whose), v in groups.items() if whose == "none"))
    )
    print(
        f"  dora indicators on the dead wall: {where['dora']}, read as dora and named right "
        f"{where['dora', 'read']}"
    )
    print(f"  player's tiles exactly right: {exact[0] / max(exact[1], 1):.2%} of {exact[1]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=None, help="folder with the ONNX models")
    ap.add_argument("--n", type=int, default=60, help="renders per set")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    ap.add_argument("--skip-real", action="store_true", help="no hk valid / jp held-out")
    ap.add_argument("--latency", type=int, default=10, help="runs of the 12 MP latency check")
    ap.add_argument(
        "--threads",
        type=int,
        default=None,
        help="onnxruntime intra-op threads per model; default: the Recognizer's",
    )
    ap.add_argument(
        "--seed0",
        type=int,
        default=0,
        help="move every set's seeds on by this many (fresh scenes; under 100 000)",
    )
    ap.add_argument(
        "--face-check",
        choices=["on", "off"],
        default="on",
        help="set aside face-up reports showing too little tile face "
        "(vision/faces.py, settings face_check)",
    )
    ap.add_argument(
        "--tile-check",
        choices=["on", "off"],
        default="on",
        help="set aside reports the tile-or-not network calls no tile "
        "(vision/tile_check.py, settings tile_check)",
    )
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error(f"unknown sets {unknown}; known: {', '.join(SETS)}")
    # an accuracy measure, not a latency one: on a loaded machine a slow photo must not turn
    # into a crash (photo_timeout); latency is measured apart (--latency)
    kw: dict = {
        "limits": Limits(seconds=UNTIMED_SECONDS),
        "settings": replace(
            SETTINGS, face_check=args.face_check == "on", tile_check=args.tile_check == "on"
        ),
    }
    if args.threads:
        kw["threads"] = args.threads
    rec = Recognizer(args.models, **kw) if args.models else Recognizer(**kw)
    print(
        f"models: {args.models or 'models/ (shipped)'}; face check {args.face_check}; "
        f"tile check {args.tile_check}"
    )
    t0 = time.perf_counter()
    if not args.skip_real:
        eval_real(rec, corrected=True, halves=True)
    runs = {
        "clutter": eval_clutter,
        "backs": eval_backs,
        "angles": eval_angles,
        "table": eval_table,
    }
    for name in sets:
        runs[name](rec, args.n, args.seed0)
    if args.latency:
        latency(rec, args.latency)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
