"""``TileClassifier.classify_boxes`` (vision/classify.py): the classifier cuts the crops
itself — each box with ``MARGIN``, turned upright when sideways, and an unsure tile again with
the looser margins — and reads exactly what the earlier crop-object path (``crop_tile`` crops
remembering their source, read by ``probabilities``) read, so the pipeline's readings did not
change when it moved to the new call."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_classify_wide import BOX_A, BOX_B, _photo, _RedShare
from vision.classify import CLASSES, MARGIN, TileClassifier, crop_tile, cut_tile

BOX_SIDE = (150.0, 30.0, 270.0, 90.0)  # a wide box read sideways


def _photo_with_sideways_tile() -> np.ndarray:
    img = _photo()
    img[30:90, 150:270] = 255  # a white tile lying sideways …
    img[30:90, 150:180] = (0, 0, 255)  # … with a red end, so turning it changes the crop
    return img


def test_cut_tile_is_the_crop_tile_pixels() -> None:
    img = _photo_with_sideways_tile()
    for box, sideways, scale, margin in ((BOX_A, False, 1.0, MARGIN), (BOX_SIDE, True, 0.5, 0.3),
                                         ((-20.0, -20.0, 30.0, 30.0), False, 1.0, MARGIN)):
        want = np.asarray(crop_tile(img, box, sideways, scale, margin))
        got = cut_tile(img, box, sideways, scale, margin)
        assert type(got) is np.ndarray and np.array_equal(got, want)
    # a sideways cut is the upright cut turned a quarter turn, then resized
    upright = cut_tile(img, BOX_SIDE, False)
    turned = cut_tile(img, BOX_SIDE, True)
    assert not np.array_equal(upright, turned)


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_classify_boxes_reads_what_the_crop_path_read(scale: float) -> None:
    """Sure tile, unsure tile (looser looks averaged in) and a sideways tile: the same
    probabilities as ``probabilities([crop_tile(...)])``, in the same two batched calls."""
    img = _photo_with_sideways_tile()
    if scale != 1.0:
        img = cv2_resize(img, scale)
    boxes, sideways = [BOX_A, BOX_B, BOX_SIDE], [False, False, True]
    old_session, new_session = _RedShare(), _RedShare()
    old = TileClassifier(old_session, turn=True, wide=(0.2, 0.3)).probabilities(
        [crop_tile(img, b, s, scale) for b, s in zip(boxes, sideways, strict=True)])
    new = TileClassifier(new_session, turn=True, wide=(0.2, 0.3)).classify_boxes(
        img, boxes, sideways, scale)
    assert new.shape == (3, len(CLASSES))
    assert np.array_equal(new, old)
    assert new_session.batches == old_session.batches
    # A was read unsure and looked at again (2 looks × 2 turns); B was sure
    plain = TileClassifier(_RedShare(), turn=True, wide=()).classify_boxes(
        img, boxes, sideways, scale)
    assert plain[0].max() < 0.9 <= plain[1].max()
    assert new_session.batches == [6, 4 * int((plain.max(axis=1) < 0.9).sum())]
    assert not np.allclose(new[0], plain[0]) and np.array_equal(new[1], plain[1])


def cv2_resize(img: np.ndarray, scale: float) -> np.ndarray:
    import cv2

    h, w = img.shape[:2]
    return cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)


def test_classify_boxes_without_wide_margins_reads_once() -> None:
    session = _RedShare()
    TileClassifier(session, turn=False, wide=()).classify_boxes(_photo(), [BOX_A, BOX_B],
                                                               [False, False])
    assert session.batches == [2]


def test_classify_boxes_empty_and_mismatched_input() -> None:
    clf = TileClassifier(_RedShare())
    assert clf.classify_boxes(_photo(), [], []).shape == (0, len(CLASSES))
    with pytest.raises(ValueError, match="sideways"):
        clf.classify_boxes(_photo(), [BOX_A, BOX_B], [False])


def test_the_pipeline_reads_hits_through_classify_boxes() -> None:
    """``Recognizer._name`` (the shipped models on a rendered scene's detector hits) gives the
    probabilities of the earlier crop-object path, hit for hit."""
    from vision.pipeline import CLASSIFIER, DETECTOR, MODELS, SIDEWAYS_PROB, Recognizer

    if not all((MODELS / n).is_file() for n in (CLASSIFIER, DETECTOR)):
        pytest.skip("models/*.onnx not present")
    from datasets.synth.scene import render_scene

    image = render_scene(np.random.default_rng(7_100_003)).image
    rec = Recognizer(threads=1)
    raw = rec.detector.detect(image, weak=rec.weak_heat)
    named = rec._name(image, raw)
    assert len(named) == len(raw) >= 10
    sideways = [r.sideways_prob >= SIDEWAYS_PROB and r.box[2] - r.box[0] > 0.9 * (
        r.box[3] - r.box[1]) for r in raw]
    assert any(sideways) and not all(sideways)
    old = rec.classifier.probabilities(
        [crop_tile(image, r.box, s) for r, s in zip(raw, sideways, strict=True)])
    assert [h[1] for h in named] == sideways
    assert np.array_equal(np.stack([h[2] for h in named]), old)
    first = rec.classifier._read([cut_tile(image, r.box, s) for r, s in zip(raw, sideways,
                                                                           strict=True)])
    assert (first.max(axis=1) < rec.classifier.wide_below).any()  # the looser looks ran
