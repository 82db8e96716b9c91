"""Size and CPU latency of each shipped ONNX model alone (prints numbers; asserts nothing).

    .venv/bin/python -m benchmarks.models [--runs 30] [--threads 2] [--batch 40]

Each model is loaded as the pipeline loads it (``vision.models.session``) and run on zero input
of its own shape: the detector on one image of the side the pipeline feeds it, the classifiers
and the tile check on ``--batch`` crops (a photo of a hand has about 40 tiles), the stack
classifier on 4 crops (the called tiles of a few pons).
Prints file size and p50/p95 wall time of one call; the whole photo's latency is
``benchmarks.recognition --latency``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from sanma_lens.vision.models import models_folder, session
from sanma_lens.vision.settings import SETTINGS

BATCH = {"tile_detector": 1, "stack_classifier": 4}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40, help="crops per classifier call")
    args = ap.parse_args(argv)
    folder = models_folder()
    for path in sorted(folder.glob("*.onnx")):
        sess = session(folder, path.name, args.threads)
        inp = sess.get_inputs()[0]  # type: ignore[attr-defined]
        n = BATCH.get(path.stem, args.batch)
        # a free height or width is the detector's: the side the pipeline scales a photo to
        side = SETTINGS.detect_side
        shape = [n] + [d if isinstance(d, int) else side for d in inp.shape[1:]]
        x = np.zeros(shape, np.float32)
        sess.run(None, {inp.name: x})  # type: ignore[attr-defined]
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            sess.run(None, {inp.name: x})  # type: ignore[attr-defined]
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{path.name:30s} {path.stat().st_size / 1e6:5.1f} MB  input {shape}  "
            f"p50 {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms  ({args.runs} calls, "
            f"{args.threads} threads)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
