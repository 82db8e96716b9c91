"""The shipped models on scenes the test renders itself, the pipeline's rules, the CLI shape."""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path

import cv2
import numpy as np
import pytest

from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, cut_tile
from sanma_lens.vision.detect import (
    OUT_CHANNELS,
    STACKED_CHANNEL,
    RawBox,
    decode,
    prepare,
    squash,
    unsquash,
)
from sanma_lens.vision.pipeline import MODELS, Recognizer

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"
HAS_MODELS = all((MODELS / n).is_file() for n in ("tile_detector.onnx", "tile_classifier.onnx"))
needs_models = pytest.mark.skipif(not HAS_MODELS, reason="models/*.onnx not present")
needs_shared = pytest.mark.skipif(
    not (SHARED / "art" / "fluffystuff").is_dir(), reason="../shared/datasets not present"
)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


# ------------------------------------------------------------------ pure stages
def test_prepare_pads_to_multiple_of_32_and_keeps_colour() -> None:
    img = np.zeros((300, 500, 3), np.uint8)
    img[..., 2] = 255  # red in BGR
    x, scale = prepare(img, 768)
    assert x.shape[2] % 32 == 0 and x.shape[3] % 32 == 0
    assert scale == pytest.approx(768 / 500)
    assert x[0, 0, 10, 10] == pytest.approx(1.0)  # channel 0 is R
    assert x[0, 2, 10, 10] == pytest.approx(0.0)


def test_decode_picks_heat_peaks_and_sizes() -> None:
    out = np.full((1, OUT_CHANNELS, 40, 40), -10.0, np.float32)
    out[0, 1:3] = 0.0  # no sub-cell offset
    out[0, 3:5] = np.log(32 / 16)  # 32-px boxes
    out[0, 0, 10, 12] = 5.0
    out[0, 0, 10, 13] = 2.0  # a shoulder, not a peak
    out[0, 0, 30, 30] = 3.0
    boxes = decode(out, scale=1.0)
    assert len(boxes) == 2
    best = max(boxes, key=lambda b: b.score)
    assert best.box == pytest.approx((48 - 16, 40 - 16, 48 + 16, 40 + 16))


def test_decode_reads_the_stacked_map_when_the_detector_has_one() -> None:
    """A seventh map (datasets/train_stack.py) says a tile lies on another; six maps: never."""
    out = np.full((1, OUT_CHANNELS + 1, 40, 40), -10.0, np.float32)
    out[0, 1:3] = 0.0
    out[0, 3:5] = np.log(32 / 16)
    out[0, 0, 10, 12] = out[0, 0, 30, 30] = 5.0
    out[0, STACKED_CHANNEL, 10, 12] = 4.0  # the first tile has another on it
    hits = sorted(decode(out, scale=1.0), key=lambda b: b.box[1])
    assert hits[0].stacked_prob > 0.98 and hits[1].stacked_prob < 0.01
    assert all(b.stacked_prob == 0.0 for b in decode(out[:, :OUT_CHANNELS], scale=1.0))


def test_crop_turns_sideways_boxes_upright() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    crop = cut_tile(img, (10, 10, 90, 50), sideways=True)
    assert crop.shape == (CROP_H, CROP_W, 3)
    crop = cut_tile(img, (-20, -20, 30, 30), sideways=False)  # off the edge: padded
    assert crop.shape == (CROP_H, CROP_W, 3)


class _Fixed:
    """A stand-in ONNX session that returns a fixed array."""

    def __init__(self, out: np.ndarray) -> None:
        self.out = out

    def get_inputs(self) -> list:
        return [type("I", (), {"name": "input"})()]

    def run(self, _names, feed):
        n = next(iter(feed.values())).shape[0]
        return [self.out[:n]]


def test_flowers_and_not_tiles_are_never_reported() -> None:
    """HK flower/season tiles are not riichi tiles: dropped, with a warning."""
    rec = Recognizer.__new__(Recognizer)
    heat = np.full((1, OUT_CHANNELS, 64, 64), -10.0, np.float32)
    heat[0, 1:3] = 0.0
    heat[0, 3:5] = np.log(40 / 16)
    for x in (10, 25, 40):
        heat[0, 0, 30, x] = 4.0
    logits = np.full((3, len(CLASSES)), -5.0, np.float32)
    logits[0, CLASSES.index("3p")] = 5
    logits[1, CLASSES.index("flower")] = 5
    logits[2, CLASSES.index("none")] = 5
    from sanma_lens.vision.classify import TileClassifier
    from sanma_lens.vision.detect import TileDetector

    rec.detector = TileDetector(_Fixed(heat), side=256, coarse_side=None)
    rec.classifier = TileClassifier(_Fixed(logits))
    img = np.zeros((256, 256, 3), np.uint8)
    tiles, flowers = rec.tiles(img)
    assert [t.tile for t in tiles] == ["3p"] and flowers == 1
    out = rec.recognize_image(img, (256, 256))
    assert [t["tile"] for t in out["tiles"]] == ["3p"]
    assert any("flower" in w for w in out["warnings"])


# ------------------------------------------------------------------ shipped model
@needs_models
@needs_shared
def test_shipped_model_reads_rendered_scenes(recognizer: Recognizer) -> None:
    from benchmarks.recognition import match
    from datasets.synth.scene import render_scene

    found = named = total = 0
    red_right = red_total = 0
    for seed in (910_001, 910_002, 910_003):
        sc = render_scene(np.random.default_rng(seed))
        pred, _ = recognizer.tiles(sc.image)
        gt = [t for t in sc.tiles if not t.occluded and t.group != "other"]  # the player's
        boxes = np.array([t.box for t in gt], np.float32)
        m = match(pred, boxes)
        total += len(gt)
        for i, j in m.items():
            g = gt[j]
            want = "back" if g.face_down else g.tile
            found += 1
            named += pred[i].tile == want
            if not g.face_down and g.tile[0] in "05" and g.tile[1] in "mps":
                red_total += 1
                red_right += pred[i].red == g.red
        assert all(t.tile in CLASSES for t in pred)
    assert found >= 0.9 * total
    assert named >= 0.9 * found
    assert red_right >= red_total - 1


@needs_models
@needs_shared
def test_stretched_photo_is_read_squashed_back(recognizer: Recognizer) -> None:
    """A photo stretched 4× in height (tiles become slivers) is read via the squash pass."""
    from benchmarks.recognition import match
    from datasets.synth.scene import render_scene

    sc = render_scene(np.random.default_rng(910_001))
    h, w = sc.image.shape[:2]
    tall = cv2.resize(sc.image, (w, h * 4), interpolation=cv2.INTER_LINEAR)
    gt = [t for t in sc.tiles if not t.occluded and t.group != "other"]
    boxes = np.array([(t.box[0], t.box[1] * 4, t.box[2], t.box[3] * 4) for t in gt], np.float32)
    pred, _ = recognizer.tiles(tall)
    m = match(pred, boxes)
    assert len(m) >= 0.8 * len(gt)
    named = sum(pred[i].tile == ("back" if gt[j].face_down else gt[j].tile) for i, j in m.items())
    assert named >= 0.8 * len(gt)


def test_squash_and_unsquash_are_inverse() -> None:
    img = np.zeros((400, 300, 3), np.uint8)
    small = squash(img, 1.0, 0.25)
    assert small.shape[:2] == (100, 300)
    assert unsquash((10.0, 5.0, 40.0, 25.0), 1.0, 0.25) == pytest.approx((10, 20, 40, 100))


@needs_models
def test_shipped_model_on_a_blank_table_finds_nothing(recognizer: Recognizer) -> None:
    img = np.full((600, 800, 3), (40, 110, 40), np.uint8)  # plain green felt
    tiles, _ = recognizer.tiles(img)
    assert len(tiles) <= 1


# ------------------------------------------------------------------ CLI
def _cli(args: list[str]) -> tuple[int, str]:
    from sanma_lens.api.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(args)
    return code, buf.getvalue()


@needs_models
def test_cli_recognize_json_shape(tmp_path: Path) -> None:
    img = np.full((480, 640, 3), (40, 110, 40), np.uint8)
    if (SHARED / "art" / "fluffystuff").is_dir():
        from datasets.synth.scene import render_scene

        img = render_scene(np.random.default_rng(910_010)).image
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), img)
    code, out = _cli(["recognize", str(path), "--json"])
    assert code == 0
    obj = json.loads(out)
    assert set(obj) >= {"tiles", "hand", "warnings"}
    assert set(obj["hand"]) >= {"hand", "win", "melds", "kita", "kita_aka"}
    for t in obj["tiles"]:
        assert set(t) >= {"tile", "red", "box", "angle", "confidence", "face_down", "group"}
        assert t["tile"] in CLASSES and t["tile"] not in ("flower", "none")
        assert t["red"] == (t["tile"] in ("0m", "0p", "0s"))
        assert t["face_down"] == (t["tile"] == "back")
        assert t["angle"] in (0, 90) and len(t["box"]) == 4
        assert t["group"] in ("hand", "win", "meld", "kita", "dora", "other")
    groups = Counter(t["group"] for t in obj["tiles"])
    assert sum(groups.values()) == len(obj["tiles"])


@needs_models
def test_cli_recognize_several_photos_and_a_bad_one(tmp_path: Path) -> None:
    good = tmp_path / "a.png"
    cv2.imwrite(str(good), np.full((200, 300, 3), 90, np.uint8))
    bad = tmp_path / "b.jpg"
    bad.write_bytes(b"not a photo at all")
    code, out = _cli(["recognize", str(good), str(bad), "--json"])
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2
    assert [x["image"] for x in lines] == [str(good), str(bad)]
    assert "tiles" in lines[0]
    assert lines[1]["error"]["code"] == "not_an_image"


def test_raw_box_is_a_value() -> None:
    b = RawBox((0, 0, 1, 1), 0.9, 0.1)
    with pytest.raises(AttributeError):
        b.score = 0.5  # type: ignore[misc]
