"""Bounded work per photo (vision/limits.py): a tile cap checked before classifying, a deadline
checked between the stages, the classifier reading in chunks of fixed size, and a layout whose
work grows at most with the square of the detections."""

from __future__ import annotations

import importlib
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import sanma_lens.vision.layout.geometry as geometry
from benchmarks.bounds import grid_jpeg
from sanma_lens.engine.errors import InputError
from sanma_lens.vision.classify import CLASSES, TileClassifier
from sanma_lens.vision.detect import OUT_CHANNELS, RawBox
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.limits import Deadline, Limits
from sanma_lens.vision.pipeline import MODELS, Recognizer
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import TileDetection
from tests.vision.test_classify_wide import _photo, _RedShare

HAS_MODELS = all((MODELS / n).is_file() for n in ("tile_detector.onnx", "tile_classifier.onnx"))
needs_models = pytest.mark.skipif(not HAS_MODELS, reason="models/*.onnx not present")


class _Ticking:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SANMA_MAX_TILES", raising=False)
    monkeypatch.delenv("SANMA_PHOTO_SECONDS", raising=False)
    assert Limits.from_env() == Limits()
    monkeypatch.setenv("SANMA_MAX_TILES", "150")
    monkeypatch.setenv("SANMA_PHOTO_SECONDS", "2.5")
    assert Limits.from_env() == Limits(max_tiles=150, seconds=2.5)


@pytest.mark.parametrize("value", ["0", "-3", "many", "nan", "inf"])
def test_a_limit_that_is_not_a_positive_number_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("SANMA_MAX_TILES", value)
    with pytest.raises(ValueError, match="SANMA_MAX_TILES"):
        Limits.from_env()


def test_deadline_raises_photo_timeout_once_its_seconds_are_past() -> None:
    clock = _Ticking(1.0)
    deadline = Deadline(2.5, clock)  # set at t = 1: until 3.5
    deadline.check()  # t = 2
    deadline.check()  # t = 3
    with pytest.raises(InputError) as err:
        deadline.check()  # t = 4
    assert err.value.code == "photo_timeout"
    assert "2.5 s" in err.value.message


class _Detector:
    """A stand-in detector: the given hits, whatever the image."""

    def __init__(self, raw: list[RawBox]) -> None:
        self.raw_boxes = raw

    def detect(self, image: np.ndarray, weak: float | None = None) -> list[RawBox]:
        return list(self.raw_boxes)

    def raw(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The squashed looks' maps: no heat anywhere."""
        return np.full((1, OUT_CHANNELS, 4, 4), -10.0, np.float32), 1.0


class _NoClassifier:
    def classify_boxes(self, *args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("a refused photo is not classified")


def _hits(n: int, heat: float) -> list[RawBox]:
    return [RawBox((10.0 * k, 0.0, 10.0 * k + 8, 12.0), heat, 0.0) for k in range(n)]


def _recognizer(raw: list[RawBox], classifier: object, limits: Limits) -> Recognizer:
    rec = Recognizer.__new__(Recognizer)
    rec.detector = _Detector(raw)  # type: ignore[assignment]
    rec.classifier = classifier  # type: ignore[assignment]
    rec.limits = limits
    return rec


def test_a_photo_with_more_tile_hits_than_the_cap_is_refused_before_classifying() -> None:
    rec = _recognizer(_hits(6, 0.9), _NoClassifier(), Limits(max_tiles=5))
    with pytest.raises(InputError) as err:
        rec.hits(np.zeros((64, 64, 3), np.uint8))
    assert err.value.code == "too_many_tiles"
    assert "6 tile-like shapes" in err.value.message and "limit of 5" in err.value.message


class _Boxes:
    """A classifier stand-in that records the boxes of each call."""

    def __init__(self) -> None:
        self.calls: list[list[tuple[float, ...]]] = []

    def classify_boxes(self, image, boxes, sideways, scale=1.0, check=None):  # type: ignore[no-untyped-def]
        self.calls.append([tuple(b) for b in boxes])
        out = np.zeros((len(boxes), len(CLASSES)), np.float32)
        out[:, CLASSES.index("1p")] = 1.0
        return out


def test_weak_peaks_beyond_the_cap_keep_only_the_hottest() -> None:
    """The cap counts hits at tile heat; of the weaker peaks (kept only when read surely) the
    hottest ``max_tiles`` are read, in the detector's order."""
    hot = _hits(3, 0.9)
    weak = [
        RawBox((0.0, 50.0 + 20 * k, 8.0, 62.0 + 20 * k), h, 0.0)
        for k, h in enumerate([0.21, 0.25, 0.22, 0.28, 0.2])
    ]
    reader = _Boxes()
    rec = _recognizer(hot + weak, reader, Limits(max_tiles=3))
    rec.hits(np.zeros((200, 64, 3), np.uint8))
    assert reader.calls[0] == [r.box for r in hot] + [weak[k].box for k in (1, 2, 3)]
    assert all(r.score < SETTINGS.heat_threshold for r in weak)


def test_the_classifier_reads_in_chunks_of_fixed_size_with_the_same_answers() -> None:
    """Memory per network call stays flat: 11 crops read 4 at a time (8 with the turned
    copies), the readings those of one big batch."""
    img = _photo()
    boxes = [
        (20.0 + 20 * k, 20.0 + 10 * (k % 5), 60.0 + 20 * k, 80.0 + 10 * (k % 5)) for k in range(11)
    ]
    sideways = [k % 3 == 0 for k in range(11)]
    chunked = _RedShare()
    small = TileClassifier(chunked, turn=True, wide=(0.2, 0.3), chunk=4).classify_boxes(
        img, boxes, sideways
    )
    whole = _RedShare()
    big = TileClassifier(whole, turn=True, wide=(0.2, 0.3), chunk=1000).classify_boxes(
        img, boxes, sideways
    )
    assert max(chunked.batches) == 8 and chunked.batches[:3] == [8, 8, 6]
    assert whole.batches[0] == 22
    np.testing.assert_allclose(small, big, rtol=1e-6, atol=1e-7)


def test_the_deadline_is_checked_before_each_classifier_call() -> None:
    """A photo past its deadline stops at the next network call, not at the end."""
    session = _RedShare()
    classifier = TileClassifier(session, turn=True, chunk=2)
    boxes = [(20.0 + 20 * k, 20.0, 60.0 + 20 * k, 80.0) for k in range(6)]
    deadline = Deadline(2.5, _Ticking(1.0))
    with pytest.raises(InputError) as err:
        classifier.classify_boxes(_photo(), boxes, [False] * 6, check=deadline.check)
    assert err.value.code == "photo_timeout"
    assert session.batches == [4, 4]  # two chunks read, the third not started


def _grid(rows: int, cols: int) -> list[TileDetection]:
    """Upright tiles side by side in rows, each read unsure and some less surely than their
    neighbours (every one weighed as a box over two others by the layout's first step)."""
    faces = [c for c in CLASSES if c[1] in "psz"]
    return [
        TileDetection(
            faces[(r * cols + c) % len(faces)],
            (10.0 + 52 * c, 10.0 + 70 * r, 56.0 + 52 * c, 72.0 + 70 * r),
            0,
            0.3 + 0.04 * ((r * cols + c) % 7),
        )
        for r in range(rows)
        for c in range(cols)
    ]


def test_the_layout_work_grows_at_most_with_the_square_of_the_detections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted, not timed: the tile-geometry calls of a 256-tile grid are at most 16 × (with
    some slack) those of a 64-tile grid (4 × the tiles). The layout's straddle check paired
    every box with every two faces (on e5d99ae: 36 → 144 tiles, 10.5k → 726k calls; a grid
    of 525 rectangles took 51 s)."""
    calls = {"n": 0}
    true_dims = geometry.true_dims

    def counted(*args: object) -> tuple[float, float]:
        calls["n"] += 1
        return true_dims(*args)  # type: ignore[arg-type]

    work = []
    for side in (8, 16):
        calls["n"] = 0
        for module in ("geometry", "dedupe", "rows", "reading", "grouping", "melds", "extras"):
            mod = importlib.import_module(f"sanma_lens.vision.layout.{module}")
            if hasattr(mod, "true_dims"):
                monkeypatch.setattr(mod, "true_dims", counted)
        reconstruct(_grid(side, side), (1200, 1500))
        work.append(calls["n"])
    assert work[0] > 0
    assert work[1] <= 16 * 1.25 * work[0], work


@needs_models
def test_the_shipped_models_refuse_a_grid_of_525_rectangles() -> None:
    """The photo that took 51 s: refused as soon as the detector has counted its hits."""
    with pytest.raises(InputError) as err:
        Recognizer().recognize_bytes(grid_jpeg(21, 25))
    assert err.value.code == "too_many_tiles"


@needs_models
def test_cli_recognize_of_too_many_tiles_exits_2_with_the_code(tmp_path: Path) -> None:
    from sanma_lens.api.cli import main

    path = tmp_path / "grid.jpg"
    path.write_bytes(grid_jpeg(21, 25))
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(["recognize", str(path), "--json"])
    assert code == 2
    assert json.loads(buf.getvalue())["error"]["code"] == "too_many_tiles"
