"""vision/tile_check.py: face-up reports that the tile-or-not network calls no tile are set
aside (their reading kept as an alternative, never changed), sure readings only on a photo whose
surest faces it calls tiles, backs never; nothing happens without the network or with the
``tile_check`` setting off; the crop is a square around the box, edges repeated; the shipped
network tells a rendered LED point display from rendered faces."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sanma_lens.vision.models import PACKAGED
from sanma_lens.vision.pipeline import Detections, Recognizer
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.tile_check import (
    SIZE,
    TILE_CHECK_MODEL,
    TileCheck,
    cut_square,
    set_aside_non_tiles,
)
from sanma_lens.vision.types import TileDetection


class _Input:
    name = "input"


class BrightIsTile:
    """A stand-in session: the brighter a crop's centre, the likelier a tile (an ivory face
    about 0.6, a dark LED panel about 0)."""

    def get_inputs(self) -> list[_Input]:
        return [_Input()]

    def run(self, _names: None, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["input"]
        c = SIZE // 2
        return [((x[:, :, c - 4 : c + 4, c - 4 : c + 4].mean(axis=(1, 2, 3)) + 0.5) ** 4)[:, None]]


def _photo() -> tuple[np.ndarray, list[TileDetection]]:
    img = np.full((120, 300, 3), (60, 110, 40), np.uint8)  # felt
    img[20:76, 20:60] = (215, 235, 245)  # an ivory face
    img[20:76, 120:160] = (15, 15, 20)  # a dark LED panel
    tiles = [
        TileDetection("3p", (20, 20, 60, 76), 0, 0.95, alternatives=(("3s", 0.03),)),
        TileDetection("1m", (120, 20, 160, 76), 0, 0.4),
    ]  # the panel, read unsure
    return img, tiles


def test_a_report_the_network_calls_no_tile_is_set_aside_its_reading_kept() -> None:
    img, tiles = _photo()
    out = set_aside_non_tiles(
        Detections((), tiles=tuple(tiles)), img, TileCheck(BrightIsTile()), SETTINGS
    )
    assert out.tiles == (tiles[0],)  # the face stays, its reading untouched
    (aside,) = out.no_tiles
    assert aside.box == tiles[1].box and aside.tile == "none"
    assert aside.alternatives[0] == ("1m", 0.4)


def _sure_photo(face: tuple[int, int, int]) -> tuple[np.ndarray, list[TileDetection]]:
    """Two faces of colour ``face`` and a dark key between them, all read surely."""
    img = np.full((120, 300, 3), (60, 110, 40), np.uint8)  # felt
    tiles = []
    for x, name in ((20, "3p"), (120, "4z"), (220, "5s")):
        img[20:76, x : x + 40] = (15, 15, 20) if name == "4z" else face
        tiles.append(TileDetection(name, (x, 20, x + 40, 76), 0, 0.95))
    return img, tiles


def test_a_report_read_surely_is_set_aside_on_a_photo_whose_surest_faces_are_tiles() -> None:
    """A laptop key read surely as an honour, among faces the network calls tiles
    (``trusted``: their median tile probability at least ``tile_check_trust``)."""
    img, tiles = _sure_photo((250, 250, 250))  # tile probability 0.92 from the stand-in
    out = set_aside_non_tiles(
        Detections((), tiles=tuple(tiles)), img, TileCheck(BrightIsTile()), SETTINGS
    )
    assert out.tiles == (tiles[0], tiles[2])
    assert [(t.box, t.tile) for t in out.no_tiles] == [(tiles[1].box, "none")]


def test_a_report_read_surely_is_kept_on_a_photo_whose_surest_faces_the_network_doubts() -> None:
    """On real close-ups the network gives nearly every tile a tile probability near 0: there
    it speaks only on readings under ``tile_check_unsure``."""
    img, tiles = _sure_photo((215, 235, 245))  # tile probability 0.68 from the stand-in
    found = Detections((), tiles=tuple(tiles))
    assert set_aside_non_tiles(found, img, TileCheck(BrightIsTile()), SETTINGS) is found
    unsure = replace(tiles[1], confidence=SETTINGS.tile_check_unsure - 0.01)
    out = set_aside_non_tiles(
        Detections((), tiles=(tiles[0], unsure, tiles[2])), img, TileCheck(BrightIsTile()), SETTINGS
    )
    assert out.tiles == (tiles[0], tiles[2])


def test_on_a_photo_whose_surest_faces_are_tiles_the_bar_is_higher() -> None:
    """A grey key (tile probability 0.03 from the stand-in: above ``tile_check_below``, under
    ``tile_check_trusted_below``) is set aside among faces the network calls tiles, and kept
    on a photo whose surest faces it doubts."""
    for face, aside in (((250, 250, 250), True), ((215, 235, 245), False)):
        img, tiles = _sure_photo(face)
        img[20:76, 120:160] = 105
        key = replace(tiles[1], confidence=0.4)
        q = TileCheck(BrightIsTile()).probabilities(img, [key.box])[0]
        assert SETTINGS.tile_check_below < q < SETTINGS.tile_check_trusted_below
        out = set_aside_non_tiles(
            Detections((), tiles=(tiles[0], key, tiles[2])),
            img,
            TileCheck(BrightIsTile()),
            SETTINGS,
        )
        assert (key not in out.tiles) is aside


def test_a_report_read_as_a_back_is_not_asked() -> None:
    img, tiles = _photo()
    back = TileDetection("back", (120, 20, 160, 76), 0, 0.9)  # dark, as a black back is
    out = set_aside_non_tiles(
        Detections((), tiles=(tiles[0], back)), img, TileCheck(BrightIsTile()), SETTINGS
    )
    assert out.tiles == (tiles[0], back) and out.no_tiles == ()


def test_nothing_is_set_aside_without_the_network_or_with_the_setting_off() -> None:
    img, tiles = _photo()
    found = Detections((), tiles=tuple(tiles))
    assert set_aside_non_tiles(found, img, None, SETTINGS) is found
    off = replace(SETTINGS, tile_check=False)
    assert set_aside_non_tiles(found, img, TileCheck(BrightIsTile()), off) is found


def test_the_crop_is_a_square_around_the_box_with_its_edges_repeated() -> None:
    img, _tiles = _photo()
    crop = cut_square(img, (20, 20, 60, 76))
    assert crop.shape == (SIZE, SIZE, 3) and crop.dtype == np.uint8
    assert tuple(crop[SIZE // 2, SIZE // 2]) == (215, 235, 245)
    assert tuple(crop[SIZE // 2, 0]) == (60, 110, 40)  # the felt left of the face
    off_edge = cut_square(img, (-30, -30, 10, 10))  # cut by the photo's corner
    assert off_edge.shape == (SIZE, SIZE, 3)
    assert not cut_square(img, (900, 900, 950, 950)).any()  # wholly outside: nothing


def test_the_recognizer_loads_the_network_only_when_its_models_have_it(tmp_path: Path) -> None:
    for path in PACKAGED.glob("*.onnx"):
        if path.name != TILE_CHECK_MODEL:
            (tmp_path / path.name).symlink_to(path)
    assert Recognizer(tmp_path, threads=1).check is None
    if not (PACKAGED / TILE_CHECK_MODEL).is_file():
        pytest.skip("the package ships no tile check")
    assert Recognizer(PACKAGED, threads=1).check is not None


def test_the_shipped_network_calls_a_point_display_no_tile_and_faces_tiles() -> None:
    """Rendered clutter (seeds 123451 and 123452, never trained on): the automatic table's
    LED point display under the check's threshold, the hand's whole faces far above it."""
    if not (PACKAGED / TILE_CHECK_MODEL).is_file():
        pytest.skip("the package ships no tile check")
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
    if not (shared / "art/fluffystuff").is_dir():
        pytest.skip("the shared tile art is not here")
    from datasets.synth.extras import Extras
    from datasets.synth.faces import load_bank
    from datasets.synth.scene import render_scene
    from sanma_lens.vision.models import session

    bank = load_bank(str(shared))
    check = TileCheck(session(PACKAGED, TILE_CHECK_MODEL, 1))
    for seed in (123451, 123452):
        scene = render_scene(np.random.default_rng(seed), bank=bank, extras=Extras(clutter=True))
        panels = [t.box for t in scene.things if t.kind == "led"]
        faces = [
            t.box
            for t in scene.tiles
            if not t.face_down and t.face_visible > 0.9 and not t.truncated
        ]
        assert panels and faces
        assert check.probabilities(scene.image, panels).max() < SETTINGS.tile_check_below
        assert np.median(check.probabilities(scene.image, faces)) > 0.9
