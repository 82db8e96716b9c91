"""Recognition accuracy and speed of the shipped models (prints numbers; asserts nothing).

    .venv/bin/python -m benchmarks.recognition [--renders 200] [--latency 20] [--raw-labels]
        [--no-added] [--skip-real] [--worst N] [--models DIR] [--turn on|off] [--halves]
        [--errors]
        # real sets only, fast: --renders 0 --latency 0; --turn overrides the pipeline's
        # classifier turn averaging (settings turn) for comparisons

Real held-out photos (never trained on): hk-hands ``valid`` (labels with the corrections in
datasets/manifests/hk_valid_corrections.json unless --raw-labels: relabelled boxes, dropped
duplicates and, unless --no-added, the audited tiles the labels leave out) and jp-upright's
held-out fifth (plus, likewise, the audited tiles of
datasets/manifests/jp_upright_corrections.json). Per labelled riichi tile: found (matched
one-to-one: IoU ≥ 0.5, or ≥ 0.3 with each box holding the other's centre), found and named right;
precision of the reported tiles; share of photos whose whole tile multiset is exactly right.
Flower tiles must not be reported (a report on a flower box counts as a false tile).
Rendered scenes (datasets.synth, seeds never used in training): red/not-red accuracy on fives,
sideways and face-down accuracy. Latency: JPEG bytes of a 4032×3024 photo → recognize JSON.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from sanma_lens.vision.detect import iou
from sanma_lens.vision.pipeline import Recognizer
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import TileDetection

RENDER_SEED = 7_000_000  # training renders use 1_000_000 + n, n < 100 000


@dataclass
class Tally:
    gt: int = 0
    found: int = 0
    named: int = 0
    reported: int = 0
    true_reports: int = 0
    flower_reports: int = 0
    photos: int = 0
    exact: int = 0
    confusions: Counter = field(default_factory=Counter)

    def line(self, name: str) -> str:
        r = self.found / max(self.gt, 1)
        n = self.named / max(self.gt, 1)
        p = self.true_reports / max(self.reported, 1)
        a = self.named / max(self.found, 1)
        e = self.exact / max(self.photos, 1)
        return (
            f"{name}: photos {self.photos}, labelled tiles {self.gt} | found {r:.2%} | "
            f"found+named right {n:.2%} | precision {p:.2%} | class accuracy {a:.2%} | "
            f"photos exactly right {e:.2%} | reports on flowers {self.flower_reports}"
        )


def _inside(pt: tuple[float, float], box: tuple[float, ...]) -> bool:
    return box[0] <= pt[0] <= box[2] and box[1] <= pt[1] <= box[3]


def same_tile(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """How well a detection covers a labelled box: its IoU when IoU ≥ 0.5, or when IoU ≥ 0.3
    and each box holds the other's centre (labels differ on whether a standing tile's top or
    a flat tile's side belongs to the box); 0 otherwise."""
    v = iou(a, b)
    if v >= 0.5:
        return v
    ca, cb = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2), ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    return v if v >= 0.3 and _inside(ca, b) and _inside(cb, a) else 0.0


def match(pred: list[TileDetection], boxes: np.ndarray) -> dict[int, int]:
    """Greedy one-to-one matching by :func:`same_tile`: prediction index → label index."""
    pairs = []
    for i, t in enumerate(pred):
        for j, b in enumerate(boxes):
            v = same_tile(t.box, tuple(b))
            if v > 0:
                pairs.append((v, i, j))
    used_p, used_g, out = set(), set(), {}
    for _v, i, j in sorted(pairs, reverse=True):
        if i not in used_p and j not in used_g:
            used_p.add(i)
            used_g.add(j)
            out[i] = j
    return out


# Labels a report may sit on without being right or wrong: a cut-off edge tile (jp-upright) and a
# real tile outside the labelled hand (hk valid's audited additions, datasets/manifests/).
NEUTRAL = ("partial", "unlabelled")


def score_photo(t: Tally, pred: list[TileDetection], boxes: np.ndarray, labels: list[str]) -> None:
    m = match(pred, boxes)
    riichi = [j for j, lab in enumerate(labels) if lab != "flower" and lab not in NEUTRAL]
    t.photos += 1
    t.gt += len(riichi)
    t.reported += len(pred)
    for i, j in m.items():
        lab = labels[j]
        if lab == "flower":
            t.flower_reports += 1
        elif lab in NEUTRAL:
            t.reported -= 1  # a cut-off edge tile or an unlabelled one: neither right nor wrong
        else:
            t.found += 1
            t.true_reports += 1
            if pred[i].tile == lab:
                t.named += 1
            else:
                t.confusions[(lab, pred[i].tile)] += 1
    partial_hits = {i for i, j in m.items() if labels[j] in NEUTRAL}
    got = Counter(p.tile for i, p in enumerate(pred) if i not in partial_hits)
    if got == Counter(labels[j] for j in riichi):
        t.exact += 1


def photo_errors(pred: list[TileDetection], boxes: np.ndarray, labels: list[str]) -> list[str]:
    """What keeps one photo from being exactly right, one line per error, in the matching of
    :func:`score_photo`: ``MISS`` a labelled riichi tile no report matches, ``NAME`` a matched
    report read as another tile (with its confidence), ``EXTRA`` a report matching no label or a
    flower's. Reports on ``NEUTRAL`` labels are no error."""
    m = match(pred, boxes)
    inv = {j: i for i, j in m.items()}

    def where(box: tuple[float, ...]) -> str:
        return "[" + ", ".join(f"{v:.0f}" for v in box) + "]"

    out = []
    for j, lab in enumerate(labels):
        if lab == "flower" or lab in NEUTRAL:
            continue
        if j not in inv:
            out.append(f"MISS {lab} {where(tuple(boxes[j]))}")
        elif pred[inv[j]].tile != lab:
            t = pred[inv[j]]
            out.append(f"NAME {lab}→{t.tile} p {t.confidence:.2f} {where(t.box)}")
    for i, t in enumerate(pred):
        if i not in m or labels[m[i]] == "flower":
            on = " on a flower" if i in m else ""
            out.append(f"EXTRA {t.tile} p {t.confidence:.2f} {where(t.box)}{on}")
    return out


def _error_summary(errors: list[list[str]]) -> str:
    """Counts of each kind of error over photos, and of photos by the kinds they have."""
    kinds: Counter = Counter()
    photos: Counter = Counter()
    for errs in errors:
        got = sorted({e.split()[0] for e in errs})
        kinds.update(e.split()[0] for e in errs)
        if got:
            photos["+".join(got)] += 1
    return (
        ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        + " | photos with: "
        + ", ".join(f"{k} {n}" for k, n in sorted(photos.items()))
    )


def eval_real(
    rec: Recognizer,
    corrected: bool,
    worst: int = 0,
    added: bool = True,
    halves: bool = False,
    errors: bool = False,
) -> list[Tally]:
    """Both real held-out sets; ``worst`` > 0 also lists the photos losing most tiles;
    ``halves`` also scores hk valid's odd- and even-indexed photos apart (settings are chosen
    on the odd half and checked on the even one, models/README.md); ``errors`` lists each
    photo that is not exactly right with its errors (:func:`photo_errors`), and tallies them."""
    from datasets import train_data as td

    out = []
    labels = (
        "raw labels"
        if not corrected
        else "corrected labels" + (" + audited additions" if added else "")
    )
    hk = td.hk_photos("valid", corrected=corrected, added=added)
    jp = td.jp_photos(heldout=True, added=added and corrected)
    jp_name = "jp-upright held-out" + (" (+ audited additions)" if added and corrected else "")
    for name, photos in ((f"hk-hands valid ({labels})", hk), (jp_name, jp)):
        t = Tally()
        half = (Tally(), Tally())  # even-, odd-indexed photos
        losses = []
        found: tuple[list[list[str]], list[list[str]]] = ([], [])  # errors, even/odd photos
        for k, p in enumerate(photos):
            pred, _ = rec.tiles(p.load())
            p.image = None  # keep memory flat
            before = (t.gt, t.named, t.reported, t.true_reports, t.exact)
            score_photo(t, pred, p.boxes, p.labels)
            score_photo(half[k % 2], pred, p.boxes, p.labels)
            if errors and t.exact == before[4]:
                errs = photo_errors(pred, p.boxes, p.labels)
                found[k % 2].append(errs)
                half_name = ("even", "odd")[k % 2] if photos is hk else ""
                print(f"  not exact: {half_name} #{k} {Path(p.path).name[:48]}: " + "; ".join(errs))
            lost = (t.gt - before[0]) - (t.named - before[1])
            wrong = (t.reported - before[2]) - (t.true_reports - before[3])
            losses.append((lost + wrong, lost, wrong, Path(p.path).name))
        print(t.line(name), flush=True)
        if halves and photos is hk:
            print("  " + half[1].line("odd-indexed photos (choose on)"))
            print("  " + half[0].line("even-indexed photos (check on)"))
        if errors:
            if photos is hk:
                print("  errors, odd half: " + _error_summary(found[1]))
                print("  errors, even half: " + _error_summary(found[0]))
            else:
                print("  errors: " + _error_summary(found[0] + found[1]))
        print(
            "  top confusions (label→read):",
            ", ".join(f"{a}→{b}×{n}" for (a, b), n in t.confusions.most_common(8)),
        )
        for _s, lost, wrong, fname in sorted(losses, reverse=True)[:worst]:
            print(f"  {fname[:48]}: {lost} labelled tiles not named right, {wrong} false reports")
        out.append(t)
    return out


def eval_renders(rec: Recognizer, n: int) -> None:
    from datasets.synth.scene import render_scene

    t = Tally()
    own = Tally()  # the player's tiles only (hand, win, melds, kita, dora): no distractors
    red = [0, 0]
    red_own = [0, 0]  # the player's fives only (distractor heaps lie at steeper angles)
    side = [0, 0]
    down = [0, 0]
    for k in range(n):
        sc = render_scene(np.random.default_rng(RENDER_SEED + k))
        pred, _ = rec.tiles(sc.image)
        boxes = np.array([lab.box for lab in sc.tiles], np.float32)
        labels = [
            "partial" if lab.occluded else ("back" if lab.face_down else lab.tile)
            for lab in sc.tiles
        ]
        score_photo(t, pred, boxes, labels)
        mine = [j for j, lab in enumerate(sc.tiles) if lab.group != "other"]
        hits = match(pred, boxes)
        keep = [i for i, j in hits.items() if sc.tiles[j].group != "other"]
        score_photo(own, [pred[i] for i in keep], boxes[mine], [labels[j] for j in mine])
        for i, j in hits.items():
            g = sc.tiles[j]
            if g.occluded:
                continue
            if not g.face_down and g.tile[0] in "05" and g.tile[1] in "mps":
                right = (pred[i].tile in ("0m", "0p", "0s")) == g.red
                red[0] += right
                red[1] += 1
                if g.group != "other":
                    red_own[0] += right
                    red_own[1] += 1
            side[0] += pred[i].angle == g.angle
            side[1] += 1
            down[0] += (pred[i].tile == "back") == g.face_down
            down[1] += 1
    print(t.line(f"renders (seeds {RENDER_SEED}+), all tiles incl. distractors"))
    print(own.line("renders, the player's tiles (hand/win/meld/kita/dora)"))
    print(
        "  top confusions (label→read):",
        ", ".join(f"{a}→{b}×{n}" for (a, b), n in t.confusions.most_common(8)),
    )
    print(
        f"  red-or-not on found fives: {red[0] / max(red[1], 1):.2%} of {red[1]} "
        f"(the player's: {red_own[0] / max(red_own[1], 1):.2%} of {red_own[1]}) | "
        f"sideways right: {side[0] / max(side[1], 1):.2%} of {side[1]} | "
        f"face-down right: {down[0] / max(down[1], 1):.2%} of {down[1]}"
    )


def latency(rec: Recognizer, runs: int) -> None:
    from datasets.synth.scene import render_scene

    sc = render_scene(np.random.default_rng(RENDER_SEED - 1), size=(1344, 1008))
    big = cv2.resize(sc.image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    rec.recognize_bytes(data)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        rec.recognize_bytes(data)
        times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    print(
        f"latency 4032×3024 JPEG ({len(data) / 1e6:.1f} MB) → JSON: "
        f"p50 {np.percentile(ms, 50):.0f} ms, p95 {np.percentile(ms, 95):.0f} ms ({runs} runs)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=None, help="folder with the ONNX models")
    ap.add_argument("--renders", type=int, default=200)
    ap.add_argument("--latency", type=int, default=20)
    ap.add_argument("--raw-labels", action="store_true", help="hk valid without corrections")
    ap.add_argument(
        "--no-added",
        action="store_true",
        help="without the audited added tiles (hk valid, jp held-out)",
    )
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument(
        "--worst",
        type=int,
        default=0,
        help="list the N real photos losing most tiles (fast check: "
        "--renders 0 --latency 0 --worst 10)",
    )
    ap.add_argument(
        "--halves",
        action="store_true",
        help="also score hk valid's odd- and even-indexed photos apart",
    )
    ap.add_argument(
        "--errors",
        action="store_true",
        help="list each real photo not exactly right with its errors (MISS a "
        "labelled tile not found, NAME found but misread, EXTRA a report on "
        "no label) and tally them per set (hk: per half)",
    )
    ap.add_argument(
        "--turn",
        choices=["on", "off"],
        default=None,
        help="classifier test-time augmentation (crop + crop turned 180°); "
        "default: the pipeline's setting",
    )
    ap.add_argument(
        "--wide",
        choices=["on", "off"],
        default=None,
        help="classifier's looser second looks at unsure crops "
        "(settings wide_margins); default: on",
    )
    ap.add_argument(
        "--weak-sure",
        type=float,
        default=None,
        help="classifier probability a weak detector peak needs "
        "(settings weak_sure); default: the pipeline's setting",
    )
    ap.add_argument(
        "--join",
        choices=["on", "off"],
        default=None,
        help="read two part-of-a-tile reports again as one tile (vision/join.py); "
        "default: the pipeline's setting",
    )
    ap.add_argument(
        "--blank-heat",
        type=float,
        default=None,
        help="heat from which a weak peak read as the white dragon 5z may count "
        "(settings blank_heat); default: the pipeline's setting",
    )
    ap.add_argument(
        "--blank-sure",
        type=float,
        default=None,
        help="... when read 5z with at least this probability (blank_sure)",
    )
    ap.add_argument(
        "--threads",
        type=int,
        default=None,
        help="onnxruntime intra-op threads per model; default: the Recognizer's",
    )
    ap.add_argument(
        "--double-inside",
        type=float,
        default=None,
        help="drop a hit this much covered by a stronger tile hit "
        "(settings double_inside); default: the pipeline's setting",
    )
    ap.add_argument(
        "--double-inside-sure",
        type=float,
        default=None,
        help="... when read below this probability (double_inside_sure)",
    )
    ap.add_argument(
        "--face-check",
        choices=["on", "off"],
        default=None,
        help="set aside face-up reports showing too little tile face "
        "(vision/faces.py, settings face_check); default: on",
    )
    args = ap.parse_args(argv)
    tried = {
        k: v
        for k, v in {
            "weak_sure": args.weak_sure,
            "blank_heat": args.blank_heat,
            "blank_sure": args.blank_sure,
            "double_inside": args.double_inside,
            "double_inside_sure": args.double_inside_sure,
            "join": None if args.join is None else args.join == "on",
            "face_check": None if args.face_check is None else args.face_check == "on",
        }.items()
        if v is not None
    }
    kw = {"threads": args.threads} if args.threads else {}
    settings = replace(SETTINGS, **tried)
    rec = (
        Recognizer(args.models, settings=settings, **kw)
        if args.models
        else Recognizer(settings=settings, **kw)
    )
    if args.turn:
        rec.classifier.turn = args.turn == "on"
    if args.wide == "off":
        rec.classifier.wide = ()
    s = rec.settings
    print(
        f"weak peaks kept at p >= {s.weak_sure} (a 5z from heat {s.blank_heat} at p >= "
        f"{s.blank_sure}); hits covered >= {s.double_inside} by a "
        f"stronger one dropped below p {s.double_inside_sure}"
    )
    print(f"parts of one tile joined: {'on' if s.join else 'off'}")
    print(
        f"classifier turn-averaging: {'on' if rec.classifier.turn else 'off'}; looser second "
        f"looks: {rec.classifier.wide or 'off'} below p {rec.classifier.wide_below}; "
        f"second opinion: "
        + (f"below p {rec.classifier.second_below}" if rec.classifier.second else "off")
    )
    for name in (
        "tile_detector.onnx",
        "tile_classifier.onnx",
        "tile_classifier_second.onnx",
        "stack_classifier.onnx",
    ):
        p = Path(args.models or "models") / name
        if p.exists():
            print(f"{name}: {p.stat().st_size / 1e6:.1f} MB")
    if not args.skip_real:
        eval_real(
            rec,
            corrected=not args.raw_labels,
            worst=args.worst,
            added=not args.no_added,
            halves=args.halves,
            errors=args.errors,
        )
    if args.renders:
        eval_renders(rec, args.renders)
    if args.latency:
        latency(rec, args.latency)
    return 0


if __name__ == "__main__":
    sys.exit(main())
