"""Classifier-side inference rules: 180° turn averaging, double-hit suppression, ONNX import."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W, TileClassifier
from sanma_lens.vision.pipeline import MODELS, Hit, drop_double_hits
from sanma_lens.vision.settings import SETTINGS
from tests.vision.looking import sifted


class _TopHalf:
    """A stand-in session: logit 0 = mean red of the crop's top half, logit 1 = bottom half."""

    def get_inputs(self) -> list:
        return [type("I", (), {"name": "input"})()]

    def run(self, _names, feed):
        x = next(iter(feed.values()))
        out = np.zeros((x.shape[0], len(CLASSES)), np.float32)
        out[:, 0] = 10 * x[:, 0, : CROP_H // 2].mean(axis=(1, 2))
        out[:, 1] = 10 * x[:, 0, CROP_H // 2 :].mean(axis=(1, 2))
        return [out]


def _top_red() -> np.ndarray:
    crop = np.zeros((CROP_H, CROP_W, 3), np.uint8)
    crop[: CROP_H // 2, :, 2] = 255  # red (BGR) in the top half only
    return crop


def test_turn_averages_the_crop_and_the_crop_turned_180() -> None:
    crop = _top_red()
    plain = TileClassifier(_TopHalf()).probabilities([crop])[0]
    turned = TileClassifier(_TopHalf()).probabilities([crop[::-1, ::-1]])[0]
    both = TileClassifier(_TopHalf(), turn=True).probabilities([crop])[0]
    assert plain[0] > plain[1] and turned[1] > turned[0]
    assert both == pytest.approx((plain + turned) / 2, abs=1e-6)
    assert both[0] == pytest.approx(both[1], abs=1e-6)  # symmetric reading
    assert TileClassifier(_TopHalf(), turn=True).probabilities([]).shape == (0, len(CLASSES))


def _hit(box, label: str, p: float, score: float):
    probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    probs[CLASSES.index(label)] = p
    return Hit(box, False, probs, score)


def test_double_hits_on_one_tile_are_dropped_neighbours_kept() -> None:
    strong = _hit((0, 0, 40, 60), "5p", 0.99, 0.9)
    same = _hit((5, 5, 45, 65), "5p", 0.95, 0.5)  # the same tile again
    unsure = _hit((8, 0, 48, 60), "3p", 0.5, 0.4)  # a weak other reading on it
    sure_other = _hit((10, 0, 50, 60), "7s", 0.97, 0.45)  # confidently another tile: kept
    neighbour = _hit((42, 0, 82, 60), "5p", 0.99, 0.8)  # next tile in the row
    kept = drop_double_hits([unsure, same, strong, sure_other, neighbour], 0.3, 0.9)
    labels = sorted(CLASSES[int(np.argmax(h[2]))] for h in kept)
    assert labels == ["5p", "5p", "7s"]
    assert strong in kept and neighbour in kept


def test_a_not_tile_hit_never_suppresses_a_tile() -> None:
    none = _hit((0, 0, 40, 60), "none", 0.99, 0.9)
    tile = _hit((4, 0, 44, 60), "3m", 0.6, 0.5)
    assert len(drop_double_hits([none, tile], 0.3, 0.9)) == 2


def test_a_part_of_a_tile_inside_a_stronger_hit_is_dropped_when_unsure() -> None:
    """DOUBLE_INSIDE: two circles of a 4p, boxed apart and read 2p, lie inside the 4p's box."""
    whole = _hit((0, 0, 40, 60), "4p", 0.9, 0.9)
    half = _hit((0, 30, 40, 62), "2p", 0.7, 0.5)  # IoU 0.45 < 0.5 (limit), 94 % covered
    sure_half = _hit((0, 30, 40, 62), "2p", 0.8, 0.5)  # read surely: kept
    neighbour = _hit((30, 0, 70, 60), "2p", 0.6, 0.5)  # a quarter covered: kept
    assert len(drop_double_hits([whole, half, neighbour], 0.5, 0.6)) == 3  # rule off
    kept = drop_double_hits([whole, half, neighbour], 0.5, 0.6, inside=0.5, inside_sure=0.75)
    assert kept == [whole, neighbour]
    kept = drop_double_hits([whole, sure_half], 0.5, 0.6, inside=0.5, inside_sure=0.75)
    assert kept == [whole, sure_half]
    none = _hit((0, 0, 40, 60), "none", 0.99, 0.9)  # only a tile hit covers
    assert len(drop_double_hits([none, half], 0.5, 0.6, inside=0.5, inside_sure=0.75)) == 2


@pytest.mark.skipif(not (MODELS / "tile_classifier.onnx").is_file(), reason="no model")
def test_onnx_import_reproduces_the_shipped_classifier() -> None:
    """datasets/train_init.py: the fine-tune starts from exactly the shipped network."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from datasets.train_init import check_against_onnx, classifier_from_onnx

    path = MODELS / "tile_classifier.onnx"
    net = classifier_from_onnx(path, len(CLASSES))
    x = np.random.default_rng(3).random((16, 3, CROP_H, CROP_W)).astype(np.float32)
    x[:8] = np.repeat(x[:8].mean(axis=1, keepdims=True), 3, axis=1)  # some grey crops too
    assert check_against_onnx(net, path, x) < 1e-4


def test_weak_hits_are_reported_only_when_surely_a_tile() -> None:
    """Settings ``weak_heat``/``weak_sure``: a peak below the detector's threshold counts only
    when the classifier is sure it is a tile; hits above the threshold are untouched."""
    from sanma_lens.vision.pipeline import Recognizer

    rec = Recognizer.__new__(Recognizer)
    rec.settings = replace(rec.settings, double_iou=None, double_sure=0.0)
    rec.settings = replace(rec.settings, weak_heat=0.15, weak_sure=0.9)
    low = SETTINGS.heat_threshold - 0.05
    strong = _hit((0, 0, 40, 60), "3p", 0.5, 0.8)  # unsure but a real hit: kept
    weak_sure = _hit((50, 0, 90, 60), "5z", 0.95, low)  # kept
    weak_unsure = _hit((100, 0, 140, 60), "5z", 0.8, low)  # dropped
    weak_flower = _hit((150, 0, 190, 60), "flower", 0.99, low)  # dropped, not counted
    too_cold = _hit((200, 0, 240, 60), "5z", 0.99, 0.1)  # below weak_heat: dropped
    found = sifted(rec, [strong, weak_sure, weak_unsure, weak_flower, too_cold])
    assert [t.tile for t in found.tiles] == ["3p", "5z"] and found.flowers == 0
    assert found.notes == ()  # a flower too cold to weigh is no flower left out
    rec.settings = replace(rec.settings, weak_heat=None)  # off: only the detector's own hits
    tiles = sifted(rec, [strong, weak_sure, weak_unsure, weak_flower, too_cold]).tiles
    assert [t.tile for t in tiles] == ["3p"]


def test_weak_peaks_leave_the_strong_hits_alone_and_skip_overlaps() -> None:
    from sanma_lens.vision.detect import OUT_CHANNELS, TileDetector

    class _Fixed:
        def __init__(self, out: np.ndarray) -> None:
            self.out = out

        def get_inputs(self) -> list:
            return [type("I", (), {"name": "input"})()]

        def run(self, _names, _feed):
            return [self.out]

    heat = np.full((1, OUT_CHANNELS, 64, 64), -10.0, np.float32)
    heat[0, 1:3] = 0.0
    heat[0, 3:5] = np.log(40 / 16)
    heat[0, 0, 30, 10] = 3.0  # strong
    heat[0, 0, 30, 40] = -1.0  # weak (0.27), alone
    heat[0, 0, 30, 14] = -1.0  # weak, on top of the strong one (IoU > 0.2): not kept
    det = TileDetector(_Fixed(heat), side=256, coarse_side=None)
    img = np.zeros((256, 256, 3), np.uint8)
    plain = det.detect(img)
    with_weak = det.detect(img, weak=0.15)
    assert len(plain) == 1 and with_weak[: len(plain)] == plain
    assert len(with_weak) == 2 and with_weak[1].score < 0.3


def test_a_blank_white_dragon_counts_from_a_lower_heat() -> None:
    """Settings ``blank_heat``/``blank_sure``: the blank 5z heats the detector least; a weak
    peak read 5z counts from ``blank_heat`` with p ≥ ``blank_sure``, any other tile still needs
    ``weak_heat`` and
    WEAK_SURE; with weak peaks off (weak_heat None) neither counts."""
    from sanma_lens.vision.pipeline import Recognizer

    rec = Recognizer.__new__(Recognizer)
    rec.settings = replace(rec.settings, double_iou=None, double_sure=0.0)
    rec.settings = replace(rec.settings, weak_heat=SETTINGS.weak_heat, weak_sure=0.95)
    s = SETTINGS
    assert s.weak_heat is not None and s.blank_heat < s.weak_heat and s.blank_sure < 0.95
    cool = (s.blank_heat + s.weak_heat) / 2  # below the weak-peak heat, above the blank one
    blank = _hit((0, 0, 40, 60), "5z", SETTINGS.blank_sure + 0.01, cool)  # kept
    other = _hit((50, 0, 90, 60), "1m", 0.99, cool)  # too cold for a face with a symbol
    unsure = _hit((100, 0, 140, 60), "5z", SETTINGS.blank_sure - 0.05, cool)  # dropped
    colder = _hit((150, 0, 190, 60), "5z", 0.99, SETTINGS.blank_heat - 0.02)  # dropped
    warm = _hit((200, 0, 240, 60), "1m", 0.96, SETTINGS.weak_heat)  # an ordinary weak peak: kept
    hits = [blank, other, unsure, colder, warm]
    tiles = sifted(rec, hits).tiles
    assert [t.tile for t in tiles] == ["5z", "1m"]
    assert tiles[0].box == (0, 0, 40, 60)
    rec.settings = replace(rec.settings, weak_heat=None)
    assert sifted(rec, hits).tiles == ()


def test_detector_import_from_onnx_reproduces_onnxruntime() -> None:
    """datasets/train_init.py: a detector fine-tune starts from exactly the shipped network
    (its FPN runs convolutions in another order than it registers them, and its laterals and
    head carry their own biases, with no BatchNorm to fold)."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from datasets.train_init import check_against_onnx, detector_from_onnx

    path = MODELS / "tile_detector.onnx"
    net = detector_from_onnx(path)
    x = np.random.default_rng(5).random((1, 3, 160, 224)).astype(np.float32)
    assert check_against_onnx(net, path, x) < 1e-3
