"""Training data and network of the tile check (datasets/tile_check_crops.py,
datasets/train_tile_check.py): tiles are 1 and only what lies on no tile is 0."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import train_data as td
from datasets.tile_check_crops import (
    AWAY,
    Crops,
    add_pipeline,
    add_renders,
    covered,
    texture_boxes,
)
from sanma_lens.vision.pipeline import Detections
from sanma_lens.vision.tile_check import MARGIN, SIZE
from sanma_lens.vision.types import TileDetection


def _photo(path: str = "real.jpg") -> td.Photo:
    img = np.full((400, 600, 3), (60, 110, 40), np.uint8)
    boxes = np.array([[100 + 45 * k, 150, 140 + 45 * k, 206] for k in range(6)], np.float32)
    for b in boxes.astype(int):
        img[b[1] : b[3], b[0] : b[2]] = (215, 235, 245)
    return td.Photo(path, boxes, ["1m"] * 5 + ["partial"], [False] * 6, img)


def test_texture_windows_and_the_squares_cut_around_them_lie_away_from_every_tile() -> None:
    p = _photo()
    boxes = texture_boxes(p, np.random.default_rng(0), 20)
    assert len(boxes) >= 10
    for x1, y1, x2, y2 in boxes:
        r = max(x2 - x1, y2 - y1) * (0.5 + MARGIN)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        assert covered((cx - r, cy - r, cx + r, cy + r), p.boxes) <= AWAY


def test_rendered_tiles_are_tiles_distractor_windows_not_and_hidden_tiles_neither() -> None:
    p = _photo("render:1")
    p.labels = ["1m", "back", "partial", "none", "5z", "0s"]
    c = Crops()
    add_renders(c, [p], check_from=1, per_tile=2, rng=np.random.default_rng(0))
    assert c.y == [1, 1, 1, 1, 0, 1, 1, 1, 1]  # each tile twice, the window once, no "partial"
    assert all(x.shape == (SIZE, SIZE, 3) for x in c.x)


class _Reports:
    """A stand-in recognizer whose find and sift report the given tiles."""

    def __init__(self, tiles: list[TileDetection]) -> None:
        self.tiles = tiles

    def find(self, _img: np.ndarray) -> Detections:
        return Detections(())

    def sift(self, found: Detections) -> Detections:
        return Detections((), tiles=tuple(self.tiles))


def test_pipeline_reports_on_a_tile_are_tiles_and_on_nothing_are_hard_negatives() -> None:
    reports = [
        TileDetection("1m", (102, 152, 140, 205)),  # on the first tile
        TileDetection("7z", (420, 300, 460, 356)),  # on the felt, far from any tile
        TileDetection("2m", (120, 150, 165, 206)),
    ]  # half on two tiles: neither
    for path, want in (("render:2", [(1, "found"), (0, "hard")]), ("real.jpg", [(1, "found")])):
        c = Crops()
        add_pipeline(
            c,
            _Reports(reports),
            [_photo(path)],
            ["train"],
            path.startswith("render"),
            lambda _m: None,
        )
        assert list(zip(c.y, c.src, strict=True)) == want  # a real photo's off-label: unknown


def test_the_augmented_crop_keeps_its_shape_and_the_network_gives_one_probability() -> None:
    torch = pytest.importorskip("torch")
    from datasets.train_binary import WithSigmoid
    from datasets.train_tile_check import TileCheckNet, augment, sampling

    rng = np.random.default_rng(0)
    crop = np.full((SIZE, SIZE, 3), 200, np.uint8)
    assert all(augment(crop, rng).shape == (SIZE, SIZE, 3) for _ in range(20))
    p = WithSigmoid(TileCheckNet()).eval()(torch.zeros(5, 3, SIZE, SIZE))
    assert p.shape == (5, 1) and bool(((p > 0) & (p < 1)).all())
    y = np.array([1, 1, 0, 0], np.float32)
    _pos, pp, _neg, pn = sampling(y, np.array(["real", "render", "texture", "hard"]), 3.0)
    assert np.allclose(pp, [0.5, 0.5]) and np.allclose(pn, [0.25, 0.75])
