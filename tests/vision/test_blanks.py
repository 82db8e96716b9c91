"""vision/blanks.py: a blank face is the white dragon (haku, 5z) or a back, told apart by its
colour: a coloured back read as haku is read back, a haku (upright or sideways in a called
set) read as a back is read 5z; a photo that shows no sure back is left as read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sanma_lens.vision.blanks import blank_readings, read_blanks_by_colour
from sanma_lens.vision.pipeline import Detections
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import Box, TileDetection

FELT = (60, 110, 40)  # BGR: green table cloth
IVORY = (215, 235, 245)  # BGR: a tile's face
INK = (40, 40, 40)
PURPLE_BACK = (140, 50, 110)
ORANGE_BACK = (30, 120, 240)


def _paint(img: np.ndarray, box: Box, colour: tuple[int, int, int]) -> Box:
    x1, y1, x2, y2 = (int(v) for v in box)
    img[y1:y2, x1:x2] = colour
    return box


def _face(img: np.ndarray, x: int, y: int) -> Box:
    """An ivory 40×56 face with ink strokes (a character's worth)."""
    box = _paint(img, (x, y, x + 40, y + 56), IVORY)
    img[y + 12 : y + 16, x + 8 : x + 32] = INK
    img[y + 26 : y + 30, x + 8 : x + 32] = INK
    img[y + 20 : y + 46, x + 18 : x + 22] = INK
    return box


def _photo(back: tuple[int, int, int]) -> tuple[np.ndarray, list[TileDetection]]:
    """Four faces read surely; a wall of two backs read surely; a back read as haku; a called
    haku set (two upright, one sideways) read as backs, with 5z their next reading; a haku
    read as haku."""
    img = np.zeros((240, 640, 3), np.uint8)
    img[:] = FELT
    tiles = [
        TileDetection(t, _face(img, 10 + 42 * k, 20), 0, 0.97)
        for k, t in enumerate(("1m", "9p", "4z", "7s"))
    ]
    tiles += [
        TileDetection(
            "back",
            _paint(img, (200 + 42 * k, 20, 240 + 42 * k, 76), back),
            0,
            0.93,
            alternatives=(("5z", 0.05),),
        )
        for k in range(2)
    ]
    tiles.append(
        TileDetection(
            "5z", _paint(img, (300, 20, 340, 76), back), 0, 0.62, alternatives=(("back", 0.35),)
        )
    )
    haku = (
        ("back", (10, 120, 50, 176), 0),
        ("back", (52, 120, 92, 176), 0),
        ("back", (94, 136, 150, 176), 90),
    )  # the called tile lies sideways
    tiles += [
        TileDetection(t, _paint(img, box, IVORY), angle, 0.55, alternatives=(("5z", 0.4),))
        for t, box, angle in haku
    ]
    tiles.append(
        TileDetection(
            "5z", _paint(img, (400, 120, 440, 176), IVORY), 0, 0.9, alternatives=(("back", 0.05),)
        )
    )
    return img, tiles


def test_a_coloured_back_read_haku_is_a_back_and_a_haku_read_back_is_haku() -> None:
    for back in (PURPLE_BACK, ORANGE_BACK):
        img, tiles = _photo(back)
        read = blank_readings(tuple(tiles), img, 1.0, SETTINGS)
        assert [t.tile for t in read] == [
            "1m",
            "9p",
            "4z",
            "7s",
            "back",
            "back",
            "back",
            "5z",
            "5z",
            "5z",
            "5z",
        ]
        assert read[6].alternatives[0] == ("5z", 0.62)  # the old reading first
        assert read[9].angle == 90 and read[9].confidence == 0.55


def test_a_photo_with_no_sure_back_is_left_as_read() -> None:
    img, tiles = _photo(PURPLE_BACK)
    unsure = tuple(replace(t, confidence=0.3) if t.tile == "back" else t for t in tiles)
    assert blank_readings(unsure, img, 1.0, SETTINGS) == unsure


def test_the_blank_check_off_and_on_through_the_detections() -> None:
    img, tiles = _photo(ORANGE_BACK)
    found = Detections((), tiles=tuple(tiles))
    off = read_blanks_by_colour(found, img, replace(SETTINGS, blank_check=False))
    assert off == found
    on = read_blanks_by_colour(found, img, SETTINGS)
    assert [t.tile for t in on.tiles][6:] == ["back", "5z", "5z", "5z", "5z"]


def test_boxes_in_photo_pixels_are_measured_on_the_scaled_image() -> None:
    """Boxes are photo pixels; the image is the photo shrunk by ``scale``."""
    img, tiles = _photo(PURPLE_BACK)
    big = tuple(replace(t, box=tuple(v * 2 for v in t.box)) for t in tiles)
    read = blank_readings(big, img, 0.5, SETTINGS)
    assert [t.tile for t in read][6:] == ["back", "5z", "5z", "5z", "5z"]


def test_a_black_haku_read_back_with_5z_a_little_likely_is_haku_when_its_colour_says_face() -> None:
    """A set with black faces and orange backs (seen in render 16,260,030): its haku are read
    back, 5z only 0.17 likely, under ``blank_alt``. Their colour is the faces' and far from the
    backs': that is enough with 5z at least ``blank_alt_weak`` likely. A brown report, nearer the
    faces' colour than the backs' but not by far (a back in shadow), needs 5z ``blank_alt``
    likely, as before."""
    black, chalk, brown = (25, 25, 25), (225, 225, 225), (30, 60, 120)
    img = np.zeros((240, 640, 3), np.uint8)
    img[:] = FELT
    tiles = []
    for k, t in enumerate(("1m", "9p", "4z", "7s")):
        box = _paint(img, (10 + 42 * k, 20, 50 + 42 * k, 76), black)
        img[32:36, 18 + 42 * k : 42 + 42 * k] = chalk
        tiles.append(TileDetection(t, box, 0, 0.97))
    tiles += [
        TileDetection(
            "back", _paint(img, (200 + 42 * k, 20, 240 + 42 * k, 76), ORANGE_BACK), 0, 0.93
        )
        for k in range(2)
    ]
    weak = (("5z", 0.17),)
    tiles += [
        TileDetection(
            "back",
            _paint(img, (10 + 42 * k, 120, 50 + 42 * k, 176), black),
            0,
            0.48,
            alternatives=weak,
        )
        for k in range(3)
    ]
    tiles.append(
        TileDetection("back", _paint(img, (300, 120, 340, 176), brown), 0, 0.48, alternatives=weak)
    )
    assert SETTINGS.blank_alt_weak <= 0.17 < SETTINGS.blank_alt
    read = blank_readings(tuple(tiles), img, 1.0, SETTINGS)
    assert [t.tile for t in read[6:]] == ["5z", "5z", "5z", "back"]
    strict = replace(SETTINGS, blank_alt_weak=SETTINGS.blank_alt)
    assert [t.tile for t in blank_readings(tuple(tiles), img, 1.0, strict)[6:]] == ["back"] * 4
