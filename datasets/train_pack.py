"""Pack the training data into one folder small enough to carry to a GPU machine (≤ 64 MiB).

    .venv/bin/python -m datasets.train_pack .dev/carry/ds

Copies from ../shared/datasets only what ``datasets/train.py`` reads — hk-hands *train*
(images re-encoded to WebP quality 75, same 640×640 pixels), jp-upright (both parts: the
split is by name, the trainer skips the held-out fifth), camerash crops, FluffyStuff PNG
exports — and never hk-hands valid. Then ``SANMA_DATA=<folder>`` points the trainer at it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import cv2
from tqdm import tqdm

from datasets.train_data import SHARED


def pack(dest: Path) -> None:
    s, d = SHARED, dest
    (d / "real/hk-hands/train/images").mkdir(parents=True, exist_ok=True)
    shutil.copy(s / "real/hk-hands/classes.json", d / "real/hk-hands/classes.json")
    shutil.copytree(
        s / "real/hk-hands/train/labels", d / "real/hk-hands/train/labels", dirs_exist_ok=True
    )
    shutil.copytree(s / "real/jp-upright", d / "real/jp-upright", dirs_exist_ok=True)
    (d / "crops/camerash/tiles-data").mkdir(parents=True, exist_ok=True)
    shutil.copy(s / "crops/camerash/tiles-data/data.csv", d / "crops/camerash/tiles-data/")
    shutil.copytree(
        s / "crops/camerash/tiles-resized", d / "crops/camerash/tiles-resized", dirs_exist_ok=True
    )
    for style in ("Regular", "Black"):
        shutil.copytree(
            s / "art/fluffystuff/Export" / style,
            d / "art/fluffystuff/Export" / style,
            dirs_exist_ok=True,
        )
    src = s / "real/hk-hands/train/images"
    for p in tqdm(sorted(src.iterdir()), desc="hk-hands train → webp", file=sys.stdout):
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        cv2.imwrite(
            str(d / "real/hk-hands/train/images" / (p.stem + ".webp")),
            img,
            [cv2.IMWRITE_WEBP_QUALITY, 75],
        )


if __name__ == "__main__":
    pack(Path(sys.argv[1] if len(sys.argv) > 1 else ".dev/carry/ds"))
