"""Work per photo under attack: time and memory of adversarial photos (prints numbers; asserts
nothing).

    .venv/bin/python -m benchmarks.bounds [--grids 21x25 20x40] [--timeout 300] [--many 200]

Two measurements:

- **one photo, fresh process**: each adversarial photo is recognized in a process of its own,
  so its peak resident memory (``ru_maxrss``) is its own; the wall time of
  ``recognize_bytes``, the outcome (tiles reported, or the error code) and the peak are printed.
  A photo still running after ``--timeout`` seconds is stopped and reported as slower than that.
  The photos: grids of R × C white tile-like rectangles with coloured dots on felt (the same
  pictures as ``shared/tools/make_adversarial.py``: 21x25 is 525 rectangles, 20x40 is 800), and a
  640×480 JPEG whose scan data is garbage (refused as ``corrupt_image`` since 2026-11-28;
  before, it decoded to noise that the detector read as about a hundred tiles).
- **many photos, one process**: the resident memory (``VmRSS``) of one recognizer after each
  tenth of ``--many`` photos, which cycle through the garbage JPEG, a 10x10 grid, a rendered
  12-megapixel table scene and, when ``../shared/datasets`` is there, real hk valid photos.
  Memory that grows along the run is memory never given back.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HK_VALID = ROOT.parent / "shared" / "datasets" / "real" / "hk-hands" / "valid" / "images"


def grid_jpeg(rows: int, cols: int) -> bytes:
    """``rows`` × ``cols`` white tile-like rectangles, three random dots each, on green felt."""
    rng = np.random.default_rng(1)
    img = np.zeros((max(20 + rows * 70, 300), max(20 + cols * 52, 400), 3), np.uint8)
    img[:] = (60, 110, 30)
    for i in range(rows):
        for j in range(cols):
            x, y = 10 + j * 52, 10 + i * 70
            cv2.rectangle(img, (x, y), (x + 46, y + 62), (235, 245, 245), -1)
            cv2.rectangle(img, (x, y), (x + 46, y + 62), (80, 80, 80), 1)
            for _ in range(3):
                centre = (int(x + 10 + rng.integers(0, 26)), int(y + 10 + rng.integers(0, 40)))
                colour = tuple(int(v) for v in rng.integers(0, 200, 3))
                cv2.circle(img, centre, 5, colour, -1)
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def garbage_jpeg() -> bytes:
    """A 640×480 JPEG whose entropy-coded data is junk (no 0xFF): it decodes to noise."""
    base = cv2.imencode(".jpg", np.full((480, 640, 3), 128, np.uint8))[1].tobytes()
    sos = base.find(b"\xff\xda")
    junk = bytes(range(256)).replace(b"\xff", b"\x00") * 400
    return base[: sos + 14] + junk + b"\xff\xd9"


def render_jpeg() -> bytes:
    """A rendered table scene enlarged to 4032×3024 (a phone photo's size)."""
    from datasets.synth.scene import render_scene

    sc = render_scene(np.random.default_rng(6_999_999), size=(1344, 1008))
    big = cv2.resize(sc.image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    return cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def photo(name: str) -> bytes:
    if name == "garbage":
        return garbage_jpeg()
    if name == "render":
        return render_jpeg()
    rows, cols = (int(v) for v in name.split("x"))
    return grid_jpeg(rows, cols)


def rss_mb() -> float:
    """This process's resident memory now, MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def recognize(rec: object, data: bytes) -> str:
    """The outcome of one photo: tiles reported, or the error code."""
    from sanma_lens.engine.errors import InputError

    try:
        out = rec.recognize_bytes(data)  # type: ignore[attr-defined]
    except InputError as exc:
        return f"error {exc.code}"
    return f"{len(out['tiles'])} tiles"


def one(name: str) -> None:
    """Recognize one photo in this process; print a JSON line of its numbers."""
    from sanma_lens.vision.pipeline import Recognizer

    data = photo(name)
    rec = Recognizer()
    loaded = rss_mb()
    t0 = time.perf_counter()
    outcome = recognize(rec, data)
    seconds = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "photo": name,
                "seconds": round(seconds, 2),
                "outcome": outcome,
                "rss_loaded_mb": round(loaded),
                "peak_mb": round(peak_mb()),
            }
        )
    )


def fresh(name: str, timeout: float) -> str:
    """One photo in a fresh process, as a printed line."""
    cmd = [sys.executable, "-m", "benchmarks.bounds", "--one", name]
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"{name:>9}: slower than {timeout:.0f} s (stopped)"
    if done.returncode != 0:
        return f"{name:>9}: failed: {done.stderr.strip().splitlines()[-1:]}"
    r = json.loads(done.stdout.strip().splitlines()[-1])
    return (
        f"{name:>9}: {r['seconds']:7.2f} s, {r['outcome']}, peak RSS {r['peak_mb']} MB "
        f"(models loaded: {r['rss_loaded_mb']} MB)"
    )


def many(n: int) -> None:
    """RSS of one recognizer along ``n`` photos."""
    from sanma_lens.vision.pipeline import Recognizer

    photos = [("garbage", garbage_jpeg()), ("10x10", grid_jpeg(10, 10)), ("render", render_jpeg())]
    photos += [(p.name[:12], p.read_bytes()) for p in sorted(HK_VALID.glob("*.jpg"))[:20]]
    rec = Recognizer()
    print(
        f"many photos: {len(photos)} distinct, cycled; RSS after loading the models "
        f"{rss_mb():.0f} MB"
    )
    step = max(1, n // 10)
    t0 = time.perf_counter()
    for k in range(n):
        recognize(rec, photos[k % len(photos)][1])
        if (k + 1) % step == 0 or k + 1 == n:
            print(
                f"  after {k + 1:4d} photos: RSS {rss_mb():6.0f} MB, peak {peak_mb():6.0f} MB, "
                f"{time.perf_counter() - t0:6.1f} s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--grids", nargs="*", default=["21x25", "20x40"], help="grids of rectangles, ROWSxCOLS"
    )
    ap.add_argument("--timeout", type=float, default=300, help="seconds before a photo is stopped")
    ap.add_argument("--many", type=int, default=200, help="photos through one recognizer (0: skip)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(args.one)
        return 0
    print("one photo each, in a fresh process:")
    for name in [*args.grids, "garbage"]:
        print(fresh(name, args.timeout), flush=True)
    if args.many:
        many(args.many)
    return 0


if __name__ == "__main__":
    sys.exit(main())
