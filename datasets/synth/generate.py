"""Bulk rendering CLI.

Scenes::

    python -m datasets.synth.generate --out DIR --n N --workers K --seed S \
        [--size 1280x960] [--shared PATH] [--start I] [--extras clutter,backs,...]

writes ``DIR/images/NNNNNN.jpg`` and ``DIR/labels/NNNNNN.json`` (``Scene.to_json``: width,
height, tiles, hand, meta, things) and ``DIR/classes.json``. Scene ``i`` is rendered from
``np.random.default_rng([S, i])``, so output depends only on the seed, not on ``K``.
``--extras`` adds what real Japanese tables bring (datasets/synth/extras.py: ``clutter``,
``backs``, ``scatter``, ``slant``, ``table``, comma-separated).

Classifier crops::

    python -m datasets.synth.generate --crops --out DIR --n N --workers K --seed S

renders N crop scenes and writes ``DIR/crops_NNNNNN.npz`` shards (``images`` uint8
(n, 64, 48, 3) BGR, ``labels`` int16 indices into ``classes.json``); ``--jpg`` also writes
``DIR/jpg/<class>/NNNNNN_K.jpg``. With ``--extras clutter`` (or ``table``) the shards also hold
``none`` crops: tile-sized windows on the things that are not tiles.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.synth import faces
from datasets.synth.crops import crop_scene, crops_from_scene, none_crops
from datasets.synth.extras import parse_extras
from datasets.synth.faces import CLASS_INDEX, CLASSES, FaceBank
from datasets.synth.scene import render_scene

# The crops' classes: the renderer's, and "none" (not a tile) last.
CROP_CLASSES = (*CLASSES, "none")
_BANK: FaceBank | None = None
_ARGS: argparse.Namespace | None = None


def _init_worker() -> None:
    cv2.setNumThreads(1)


def _scene_job(i: int) -> int:
    assert _BANK is not None and _ARGS is not None
    rng = np.random.default_rng([_ARGS.seed, i])
    closeup = bool(np.random.default_rng([_ARGS.seed, i, 1]).random() < _ARGS.closeups)
    scene = render_scene(
        rng, size=_ARGS.size, bank=_BANK, closeup=closeup, hands=_ARGS.hands, extras=_ARGS.extras
    )
    out = Path(_ARGS.out)
    cv2.imwrite(str(out / "images" / f"{i:06d}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    data = scene.to_json()
    data["image"] = f"images/{i:06d}.jpg"
    (out / "labels" / f"{i:06d}.json").write_text(json.dumps(data))
    return len(scene.tiles)


def _crop_job(chunk: tuple[int, int]) -> int:
    assert _BANK is not None and _ARGS is not None
    start, stop = chunk
    images, labels = [], []
    out = Path(_ARGS.out)
    for i in range(start, stop):
        rng = np.random.default_rng([_ARGS.seed, i])
        scene = crop_scene(rng, _BANK, size=(960, 720), extras=_ARGS.extras)
        crops = crops_from_scene(scene, rng)
        if _ARGS.extras.any:
            crops += none_crops(scene, rng)
        for k, (cls, crop) in enumerate(crops):
            images.append(crop)
            labels.append(CLASS_INDEX[cls] if cls != "none" else len(CLASSES))
            if _ARGS.jpg:
                d = out / "jpg" / cls
                d.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(d / f"{i:06d}_{k}.jpg"), crop)
    arr = np.stack(images) if images else np.zeros((0, 64, 48, 3), np.uint8)
    np.savez(out / f"crops_{start:06d}.npz", images=arr, labels=np.array(labels, np.int16))
    return len(labels)


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    global _BANK, _ARGS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="index of the first scene")
    ap.add_argument("--size", type=_size, default=(1280, 960))
    ap.add_argument("--shared", default=None, help="datasets folder (default ../shared/datasets)")
    ap.add_argument(
        "--closeups",
        type=float,
        default=0.15,
        help="share of close-up scenes (hand may be cut; meta.closeup true)",
    )
    ap.add_argument(
        "--hands",
        choices=("random", "winning"),
        default="random",
        help="hands drawn: random (default) or winning/tenpai (what players shoot)",
    )
    ap.add_argument(
        "--extras",
        type=parse_extras,
        default=parse_extras(""),
        help="what real tables add, comma-separated: clutter, backs, scatter, "
        "slant, table (default: none)",
    )
    ap.add_argument("--crops", action="store_true", help="write classifier crops instead")
    ap.add_argument("--jpg", action="store_true", help="with --crops: also write JPEG files")
    ap.add_argument(
        "--placeholder-faces",
        action="store_true",
        help="drawn stand-in faces (smoke/speed runs without the datasets)",
    )
    args = ap.parse_args(argv)
    _ARGS = args
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    cv2.setNumThreads(1)  # no OpenCV thread pool in the parent: forked workers would hang
    _BANK = faces.placeholder_bank() if args.placeholder_faces else faces.load_bank(args.shared)
    print(f"face bank: {sum(_BANK.count().values())} faces in {time.time() - t0:.1f}s", flush=True)
    classes = CROP_CLASSES if args.crops else CLASSES
    (out / "classes.json").write_text(json.dumps({"classes": list(classes)}, indent=1))
    if args.crops:
        step = 50
        jobs: list = [
            (s, min(s + step, args.start + args.n))
            for s in range(args.start, args.start + args.n, step)
        ]
        fn, unit = _crop_job, "crop scenes"
    else:
        (out / "images").mkdir(exist_ok=True)
        (out / "labels").mkdir(exist_ok=True)
        jobs = list(range(args.start, args.start + args.n))
        fn, unit = _scene_job, "scenes"
    t0 = time.time()
    done, items = 0, 0
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else methods[0])
    if args.workers > 1:
        with ctx.Pool(args.workers, initializer=_init_worker) as pool:
            for r in pool.imap_unordered(fn, jobs, chunksize=1 if args.crops else 4):
                done, items = _progress(done, items, r, args, jobs, t0, unit)
    else:
        _init_worker()
        for j in jobs:
            done, items = _progress(done, items, fn(j), args, jobs, t0, unit)
    dt = time.time() - t0
    n = args.n
    print(
        f"\n{n} {unit} ({items} tiles/crops) in {dt:.1f}s: {n / dt:.1f} {unit}/s, "
        f"{n / dt / max(args.workers, 1):.1f} per worker",
        flush=True,
    )
    return 0


def _progress(
    done: int, items: int, r: int, args: argparse.Namespace, jobs: list, t0: float, unit: str
) -> tuple[int, int]:
    done += 1
    items += r
    if done % max(1, len(jobs) // 100) == 0 or done == len(jobs):
        rate = done / max(time.time() - t0, 1e-6)
        sys.stdout.write(f"\r{done}/{len(jobs)} jobs ({unit}), {rate:.1f} jobs/s")
        sys.stdout.flush()
    return done, items


if __name__ == "__main__":
    raise SystemExit(main())
