"""vision/faces.py: a report read as a face-up tile whose box shows too little tile face (an LED
point display, a chip) is set aside as no tile; tile faces, faces in shade and coloured backs
stay."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sanma_lens.vision.faces import face_shares, set_aside_non_faces
from sanma_lens.vision.pipeline import Detections
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import Box, TileDetection

FELT = (60, 110, 40)  # BGR: green table cloth
IVORY = (215, 235, 245)  # BGR: a tile's face
INK = (40, 40, 40)
RED = (30, 30, 230)
BLUE_BACK = (170, 90, 30)
YELLOW_BACK = (40, 200, 230)


def _tile_face(img: np.ndarray, x: int, y: int, shade: float = 1.0) -> Box:
    """An ivory 40×56 face with ink strokes (a few characters' worth), dimmed by ``shade``."""
    img[y : y + 56, x : x + 40] = np.array(IVORY) * shade
    img[y + 10 : y + 14, x + 8 : x + 32] = INK
    img[y + 24 : y + 28, x + 8 : x + 32] = INK
    img[y + 36 : y + 48, x + 18 : x + 22] = RED
    return (x, y, x + 40, y + 56)


def _led_panel(img: np.ndarray, x: int, y: int) -> Box:
    """A dark 40×56 panel with two red 7-segment digits lit."""
    img[y : y + 56, x : x + 40] = (15, 15, 20)
    for dx in (4, 22):
        img[y + 8 : y + 11, x + dx : x + dx + 14] = RED  # top segment
        img[y + 8 : y + 48, x + dx + 11 : x + dx + 14] = RED  # right segments
        img[y + 26 : y + 29, x + dx : x + dx + 14] = RED  # middle segment
    return (x, y, x + 40, y + 56)


def _back(img: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> Box:
    img[y : y + 56, x : x + 40] = colour
    return (x, y, x + 40, y + 56)


def _photo() -> tuple[np.ndarray, list[TileDetection]]:
    """Five faces in a row (one in shade), an LED panel read 1m, a blue back read back and a
    yellow back read as the blank white dragon beside them."""
    img = np.zeros((200, 520, 3), np.uint8)
    img[:] = FELT
    tiles = [
        TileDetection("1m", _tile_face(img, 10 + 42 * k, 20, 0.6 if k == 4 else 1.0))
        for k in range(5)
    ]
    tiles.append(TileDetection("1m", _led_panel(img, 300, 120), 0, 0.9))
    tiles.append(TileDetection("back", _back(img, 360, 20, BLUE_BACK), 0, 0.9))
    tiles.append(TileDetection("5z", _back(img, 420, 20, YELLOW_BACK), 0, 0.9))
    return img, tiles


def test_the_face_share_of_a_tile_is_large_and_of_an_led_panel_or_a_back_small() -> None:
    img, tiles = _photo()
    shares = face_shares(img, [t.box for t in tiles], SETTINGS)
    assert all(s > 0.5 for s in shares[:5])  # the faces, the shaded one included
    assert shares[5] < SETTINGS.face_min_share  # the LED panel
    assert shares[6] < SETTINGS.face_min_share  # the blue back (never checked: see below)


def test_an_led_panel_read_as_a_tile_is_set_aside_as_no_tile() -> None:
    img, tiles = _photo()
    led = tiles[5]
    out = set_aside_non_faces(Detections((), tiles=tuple(tiles[:7])), img, SETTINGS)
    assert led not in out.tiles
    assert [t.box for t in out.no_tiles] == [led.box]
    aside = out.no_tiles[0]
    assert aside.tile == "none" and aside.alternatives[0] == ("1m", 0.9)


def test_tile_faces_and_coloured_backs_stay() -> None:
    img, tiles = _photo()
    out = set_aside_non_faces(Detections((), tiles=tuple(tiles[:7])), img, SETTINGS)
    assert out.tiles == tuple(tiles[:5]) + (tiles[6],)  # the faces, the shaded one, the back


def test_a_coloured_face_down_tile_read_as_haku_is_set_aside() -> None:
    # a yellow back read 5z is no blank face: it has no ivory (issue: purple or yellow backs
    # read as haku); read as a back it would stay (above)
    img, tiles = _photo()
    out = set_aside_non_faces(Detections((), tiles=tuple(tiles)), img, SETTINGS)
    assert tiles[7] not in out.tiles


def test_with_the_check_off_or_too_few_faces_nothing_is_set_aside() -> None:
    img, tiles = _photo()
    found = Detections((), tiles=tuple(tiles))
    assert set_aside_non_faces(found, img, replace(SETTINGS, face_check=False)) == found
    few = Detections((), tiles=(tiles[0], tiles[5]))
    assert set_aside_non_faces(few, img, SETTINGS) == few


def test_boxes_are_measured_in_image_pixels_by_the_photos_scale() -> None:
    img, tiles = _photo()
    half = [replace(t, box=tuple(v / 2 for v in t.box)) for t in tiles[:7]]
    out = set_aside_non_faces(Detections((), scale=2.0, tiles=tuple(half)), img, SETTINGS)
    assert [t.box for t in out.no_tiles] == [half[5].box]
