"""``TileClassifier.classify_boxes`` (vision/classify.py): the classifier cuts the crops
itself — each box with ``MARGIN``, turned upright when sideways, and an unsure tile again with
the looser margins — in two batched calls; the pipeline reads every detector hit through it."""

from __future__ import annotations

import numpy as np
import pytest

from sanma_lens.vision.classify import CLASSES, TileClassifier, cut_tile
from sanma_lens.vision.settings import SETTINGS
from tests.vision.test_classify_wide import BOX_A, BOX_B, _photo, _RedShare

BOX_SIDE = (150.0, 30.0, 270.0, 90.0)  # a wide box read sideways


def _photo_with_sideways_tile() -> np.ndarray:
    img = _photo()
    img[30:90, 150:270] = 255  # a white tile lying sideways …
    img[30:90, 150:180] = (0, 0, 255)  # … with a red end, so turning it changes the crop
    return img


def test_a_sideways_cut_is_turned_upright() -> None:
    img = _photo_with_sideways_tile()
    upright = cut_tile(img, BOX_SIDE, False)
    turned = cut_tile(img, BOX_SIDE, True)
    assert type(turned) is np.ndarray and not np.array_equal(upright, turned)
    # the red end (left in the photo) comes to the top, a quarter turn clockwise
    assert turned[:8, :, 1].mean() < turned[-8:, :, 1].mean() - 50  # red: no green


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_classify_boxes_reads_its_cuts_and_looks_again_at_unsure_ones(scale: float) -> None:
    """Sure tile, unsure tile (looser looks averaged in) and a sideways tile, boxes in photo
    pixels of an image ``scale`` × the photo: the first reading is that of the crops
    ``cut_tile`` cuts, in one batched call, the looser looks a second one."""
    img = _photo_with_sideways_tile()
    if scale != 1.0:
        img = cv2_resize(img, scale)
    boxes, sideways = [BOX_A, BOX_B, BOX_SIDE], [False, False, True]
    new_session = _RedShare()
    new = TileClassifier(new_session, turn=True, wide=(0.2, 0.3)).classify_boxes(
        img, boxes, sideways, scale
    )
    assert new.shape == (3, len(CLASSES))
    cuts = [cut_tile(img, b, s, scale) for b, s in zip(boxes, sideways, strict=True)]
    first = TileClassifier(_RedShare(), turn=True, wide=()).probabilities(cuts)
    sure = first.max(axis=1) >= 0.9
    assert np.array_equal(new[sure], first[sure])
    # A was read unsure and looked at again (2 looks × 2 turns); B was sure
    plain = TileClassifier(_RedShare(), turn=True, wide=()).classify_boxes(
        img, boxes, sideways, scale
    )
    assert plain[0].max() < 0.9 <= plain[1].max()
    assert new_session.batches == [6, 4 * int((plain.max(axis=1) < 0.9).sum())]
    assert not np.allclose(new[0], plain[0]) and np.array_equal(new[1], plain[1])


def cv2_resize(img: np.ndarray, scale: float) -> np.ndarray:
    import cv2

    h, w = img.shape[:2]
    return cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)


def test_classify_boxes_without_wide_margins_reads_once() -> None:
    session = _RedShare()
    TileClassifier(session, turn=False, wide=()).classify_boxes(
        _photo(), [BOX_A, BOX_B], [False, False]
    )
    assert session.batches == [2]


def test_classify_boxes_empty_and_mismatched_input() -> None:
    clf = TileClassifier(_RedShare())
    assert clf.classify_boxes(_photo(), [], []).shape == (0, len(CLASSES))
    with pytest.raises(ValueError, match="sideways"):
        clf.classify_boxes(_photo(), [BOX_A, BOX_B], [False])


def test_the_pipeline_reads_hits_through_classify_boxes() -> None:
    """``Recognizer._name`` (the shipped models on a rendered scene's detector hits): each
    hit's probabilities are ``classify_boxes``' for its box and sideways flag."""
    from sanma_lens.vision.pipeline import CLASSIFIER, DETECTOR, MODELS, Recognizer

    if not all((MODELS / n).is_file() for n in (CLASSIFIER, DETECTOR)):
        pytest.skip("models/*.onnx not present")
    from datasets.synth.scene import render_scene

    image = render_scene(np.random.default_rng(7_100_003)).image
    rec = Recognizer(threads=1)
    raw = rec.detector.detect(image, weak=rec.settings.weak_heat)
    named = rec._name(image, raw)
    assert len(named) == len(raw) >= 10
    sideways = [
        r.sideways_prob >= SETTINGS.sideways_prob
        and r.box[2] - r.box[0] > 0.9 * (r.box[3] - r.box[1])
        for r in raw
    ]
    assert any(sideways) and not all(sideways)
    want = rec.classifier.classify_boxes(image, [r.box for r in raw], sideways)
    assert [h[1] for h in named] == sideways
    assert np.array_equal(np.stack([h[2] for h in named]), want)
    first = rec.classifier._read(
        [cut_tile(image, r.box, s) for r, s in zip(raw, sideways, strict=True)]
    )
    assert (first.max(axis=1) < rec.classifier.wide_below).any()  # the looser looks ran
