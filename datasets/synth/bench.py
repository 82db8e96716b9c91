"""Render speed: ``python -m datasets.synth.bench [--n 40] [--size 1280x960]``.

Prints scenes per second in wall time and in CPU time of this one process (OpenCV limited to
one thread), i.e. the rate one worker core gives in ``generate --workers K``.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from datasets.synth.faces import load_bank
from datasets.synth.generate import _size
from datasets.synth.scene import render_scene


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--size", type=_size, default=(1280, 960))
    ap.add_argument("--shared", default=None)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    bank = load_bank(args.shared)
    render_scene(np.random.default_rng(0), bank=bank, size=args.size)  # warm-up
    tiles = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(args.n):
        tiles += len(render_scene(np.random.default_rng([1, i]), bank=bank, size=args.size).tiles)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    w, h = args.size
    print(
        f"{args.n} scenes {w}x{h}, {tiles / args.n:.1f} tiles each: "
        f"{args.n / wall:.1f} scenes/s wall, {args.n / cpu:.1f} scenes/s per core (CPU time)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
