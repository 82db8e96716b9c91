"""A tile at any angle (vision/axes.py): its face's own axes, the crop cut along them, and the
askew look that reads such tiles again."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sanma_lens.vision.axes import askew_edits, cut_along, face_rect, off_square
from sanma_lens.vision.classify import CLASSES, CROP_H, CROP_W
from sanma_lens.vision.decoder import Goal, Hypothesis, verdict
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection


def _tile_photo(angle: float, size: tuple[int, int] = (40, 54)) -> tuple[np.ndarray, tuple]:
    """A white face with a dark bar along its long side, turned ``angle`` degrees, on a
    dark green table; and its box."""
    img = np.full((200, 200, 3), (40, 90, 30), np.uint8)
    rect = ((100.0, 100.0), (float(size[0]), float(size[1])), angle)
    corners = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(img, corners, (235, 240, 240))
    # the symbol: a dark bar along the face's long side, through its centre
    along = cv2.boxPoints(((100.0, 100.0), (8.0, size[1] * 0.6), angle)).astype(np.int32)
    cv2.fillConvexPoly(img, along, (30, 30, 30))
    x, y, w, h = cv2.boundingRect(corners)
    return img, (float(x), float(y), float(x + w), float(y + h))


def test_off_square_is_the_distance_to_a_quarter_turn() -> None:
    assert off_square(0.0) == 0.0 and off_square(45.0) == 45.0
    assert off_square(100.0) == 10.0 and off_square(-30.0) == 30.0


@pytest.mark.parametrize("angle", [20.0, 35.0, 60.0, 125.0])
def test_face_rect_finds_the_faces_own_axes_around_its_dark_symbol(angle: float) -> None:
    img, box = _tile_photo(angle)
    rect = face_rect(img, box)
    assert rect is not None
    (cx, cy), (w, h), got = rect
    assert abs(cx - 100) < 3 and abs(cy - 100) < 3
    assert sorted((w, h)) == pytest.approx([40, 54], abs=3)
    assert off_square(got - angle) < 3  # the same axes, whichever side cv2 calls the width


def test_face_rect_refuses_what_is_no_tile() -> None:
    img = np.full((200, 200, 3), (40, 90, 30), np.uint8)
    assert face_rect(img, (50, 50, 150, 150)) is None  # nothing bright
    cv2.circle(img, (100, 100), 40, (240, 240, 240), -1)
    assert face_rect(img, (50, 50, 150, 150)) is None  # bright, but round
    assert face_rect(img, (0, 0, 5, 5)) is None  # too small to look at


@pytest.mark.parametrize("angle", [25.0, 70.0])
def test_cut_along_stands_the_face_upright(angle: float) -> None:
    img, box = _tile_photo(angle)
    rect = face_rect(img, box)
    assert rect is not None
    crop = cut_along(img, rect)
    assert crop.shape == (CROP_H, CROP_W, 3)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    # the bar stands along the crop's long side: dark in the middle column, not the middle row
    assert grey[8:-8, CROP_W // 2 - 2 : CROP_W // 2 + 2].mean() < 100
    assert grey[CROP_H // 2 - 2 : CROP_H // 2 + 2, 4:12].mean() > 180


def _reader(label: str, p: float):
    def read(crops: list[np.ndarray]) -> np.ndarray:
        out = np.full((len(crops), len(CLASSES)), (1 - p) / (len(CLASSES) - 1), np.float32)
        out[:, CLASSES.index(label)] = p
        return out

    return read


def test_the_askew_look_proposes_a_surer_reading_once_per_box() -> None:
    img, box = _tile_photo(30.0)
    tile = TileDetection("1z", box, 0, 0.4, alternatives=(("4z", 0.3),))
    now = Hypothesis((tile,), reconstruct([tile], image_size=(200, 200)))
    asked: dict = {}
    edits = askew_edits(now, img, 1.0, _reader("4z", 0.9), asked)
    assert len(edits) == 1 and edits[0].goal is Goal.REREAD
    (again,) = edits[0].tiles
    assert again.tile == "4z" and again.confidence == 0.9 and again.alternatives == (("1z", 0.4),)
    assert verdict(now, edits[0], reconstruct(list(edits[0].tiles), image_size=(200, 200)))
    calls = []
    askew_edits(
        now, img, 1.0, lambda crops: calls.append(crops) or _reader("4z", 0.9)(crops), asked
    )
    assert calls == []  # the box was read already
    # a reading not surer by axes_gain, or the same tile, changes nothing
    assert askew_edits(now, img, 1.0, _reader("4z", 0.45), {}) == []
    assert askew_edits(now, img, 1.0, _reader("1z", 0.99), {}) == []


def test_the_askew_look_leaves_square_tiles_to_the_first_reading() -> None:
    img, box = _tile_photo(3.0)
    tile = TileDetection("1z", box, 0, 0.4)
    now = Hypothesis((tile,), reconstruct([tile], image_size=(200, 200)))
    assert askew_edits(now, img, 1.0, _reader("4z", 0.99), {}) == []
