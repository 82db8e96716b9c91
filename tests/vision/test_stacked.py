"""The stacked-tile crop classifier (vision/stacked.py) and how the pipeline asks it (§23)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.pipeline import Recognizer
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.stacked import MARGIN, SIZE, StackClassifier, as_input, cut_stack
from tests.vision.looking import kakans_by
from tests.vision.test_layout import Table


class _Input:
    name = "crops"


class FakeSession:
    """An onnxruntime-like session: remembers its inputs, answers ``answer(x)``."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.calls: list[np.ndarray] = []

    def get_inputs(self) -> list[_Input]:
        return [_Input()]

    def run(self, _outputs: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        x = feeds["crops"]
        self.calls.append(x)
        return [self.answer(x)]


def test_the_crop_holds_the_box_and_a_margin_around_it_unturned() -> None:
    image = np.zeros((300, 400, 3), np.uint8)
    image[100:200, 100:200] = (0, 0, 255)  # the box: red
    image[200:240, 100:200] = (0, 255, 0)  # below it (the near side): green
    crop = cut_stack(image, (100, 100, 200, 200))
    assert crop.shape == (SIZE, SIZE, 3) and crop.dtype == np.uint8
    inner = round(SIZE * MARGIN / (1 + 2 * MARGIN))  # where the box starts in the crop
    mid = SIZE // 2
    assert tuple(crop[mid, mid]) == (0, 0, 255)
    assert tuple(crop[SIZE - inner // 2, mid]) == (0, 255, 0)  # below stays below
    assert tuple(crop[inner // 2, mid]) == (0, 0, 0)


def test_the_crop_of_a_box_at_the_photo_edge_repeats_the_border_and_scales() -> None:
    image = np.full((100, 100, 3), 7, np.uint8)
    crop = cut_stack(image, (0, 0, 50, 50), scale=2.0)  # photo box × 2 = the whole image
    assert crop.shape == (SIZE, SIZE, 3) and (crop == 7).all()


def test_the_network_input_is_centred_channels_first() -> None:
    x = as_input([np.full((SIZE, SIZE, 3), 255, np.uint8), np.zeros((SIZE, SIZE, 3), np.uint8)])
    assert x.shape == (2, 3, SIZE, SIZE) and x.dtype == np.float32
    assert x[0].min() == pytest.approx(0.5) and x[1].max() == pytest.approx(-0.5)


def test_one_batched_call_per_photo_and_none_without_boxes() -> None:
    session = FakeSession(lambda x: np.full((len(x), 1), 0.25, np.float32))
    stack = StackClassifier(session)
    image = np.zeros((200, 200, 3), np.uint8)
    assert stack.probabilities(image, []) == []
    assert session.calls == []
    assert stack.probabilities(image, [(10, 10, 50, 50), (60, 60, 90, 90)]) == [0.25, 0.25]
    assert len(session.calls) == 1 and session.calls[0].shape == (2, 3, SIZE, SIZE)


def _table() -> Table:
    """A hand with a pon of 6s, a minkan of 3p and a concealed row."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    t.put("6s", "meld", sideways=True)
    t.put("6s", "meld")
    t.put("3p", "meld", gap=0.7)
    t.put("3p", "meld", sideways=True)
    t.put("3p", "meld")
    t.put("3p", "meld")
    return t


def _recognizer(answer: Any) -> tuple[Recognizer, FakeSession]:
    rec = Recognizer.__new__(Recognizer)  # no models: only the stacked-tile network is asked
    session = FakeSession(answer)
    rec.stack = StackClassifier(session)
    return rec, session


def test_rule_23_only_the_called_tiles_of_pons_are_asked() -> None:
    layout = reconstruct(_table().tiles, (1600, 1200))
    assert sorted(layout.hand["melds"]) == ["minkan:3333p", "pon:666s"]
    rec, session = _recognizer(lambda x: np.full((len(x), 1), 0.99, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, _table().tiles, layout, (1600, 1200), []
    )
    assert sorted(again.hand["melds"]) == ["kakan:6666s", "minkan:3333p"]
    assert session.calls[0].shape[0] == 1  # the minkan's called tile was not asked


def test_rule_23_an_unlikely_stack_changes_nothing_and_says_nothing() -> None:
    layout = reconstruct(_table().tiles, (1600, 1200))
    low = SETTINGS.stack_warn / 2
    rec, _ = _recognizer(lambda x: np.full((len(x), 1), low, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, _table().tiles, layout, (1600, 1200), []
    )
    assert again is layout


def test_rule_23_two_pons_with_added_tiles_on_them_are_both_kakans() -> None:
    """Every pon whose called tile carries an added tile becomes its kakan, each with its
    warning; the network is asked once for all of them."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    for tile in ("6s", "4p"):
        t.put(tile, "meld", gap=0.7)
        t.put(tile, "meld", sideways=True)
        t.put(tile, "meld")
    layout = reconstruct(t.tiles, (1600, 1200))
    assert sorted(layout.hand["melds"]) == ["pon:444p", "pon:666s"]
    rec, session = _recognizer(lambda x: np.full((len(x), 1), 0.99, np.float32))
    image = np.zeros((1200, 1600, 3), np.uint8)
    again = kakans_by(rec, image, 1.0, t.tiles, layout, (1600, 1200), [])
    assert sorted(again.hand["melds"]) == ["kakan:4444p", "kakan:6666s"]
    assert again.hand["hand"] == layout.hand["hand"] and again.hand["win"] == "2z"
    notes = [w for w in again.warnings if w.code in ("kakan_second_box", "kakan_stacked")]
    assert len(notes) == 2 and len(session.calls) == 1
    assert session.calls[0].shape[0] == 2


def test_rule_23_an_unsure_stack_leaves_the_pon_and_says_which_to_check() -> None:
    layout = reconstruct(_table().tiles, (1600, 1200))
    between = (SETTINGS.stack_warn + SETTINGS.stack_sure) / 2
    rec, _ = _recognizer(lambda x: np.full((len(x), 1), between, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, _table().tiles, layout, (1600, 1200), []
    )
    assert again.hand == layout.hand
    assert any(w.code == "kakan_maybe" and w.params["was"] == "pon:666s" for w in again.warnings)


def test_rule_23_a_stacked_pon_with_a_tile_unseen_is_its_kakan() -> None:
    """Render 600137: a kakan whose added tile lies on the called 4s and one of whose upright
    tiles the detector missed shows two boxes, read as a pon with its third tile unseen. The
    added tile put back must lie clearly beyond the called one (the layout's ``BEYOND``), or
    the two read as one slot seen twice and the pon stays."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    t.put("6s", "meld", sideways=True)  # its two upright 6s: one missed
    layout = reconstruct(t.tiles, (1600, 1200))
    assert layout.hand["melds"] == ["pon:666s"]
    rec, _ = _recognizer(lambda x: np.full((len(x), 1), 0.99, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, t.tiles, layout, (1600, 1200), []
    )
    assert again.hand["melds"] == ["kakan:6666s"]
    assert again.hand["hand"] == layout.hand["hand"] and again.hand["win"] == "2z"


def test_rule_23_a_pon_with_no_sideways_tile_offers_its_widest_tile_as_the_called_one() -> None:
    """Renders 670146, 900032, 710003: a kakan's called tile with the added one lying on it,
    reported upright, the set read as a pon with no sideways tile. Its tile shaped most like a
    sideways one (widest for its height) is the one the stacked-tile network is asked about,
    and a sure stack makes the pon its kakan."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    called = t.put("6s", "meld", sideways=True, reported=0)
    t.put("6s", "meld")
    layout = reconstruct(t.tiles, (1600, 1200))
    assert layout.hand["melds"] == ["pon:666s"]
    assert not any(d.angle == 90 for d in layout.tiles)
    rec, session = _recognizer(lambda x: np.full((len(x), 1), 0.99, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, t.tiles, layout, (1600, 1200), []
    )
    assert session.calls[0].shape[0] == 1  # only the widest tile was asked
    assert again.hand["melds"] == ["kakan:6666s"]
    assert again.hand["hand"] == layout.hand["hand"] and again.hand["win"] == "2z"
    assert called.box in [d.box for d in again.tiles if d.group == "meld"]


def test_rule_23_a_pon_read_from_two_upright_tiles_offers_none_of_them() -> None:
    """Render 670082: a pon read from two alike set apart (its called tile unseen) has no
    called tile among them; neither is asked about (a sideways tile seen as an upright box
    beside them reads stacked)."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    t.put("6s", "meld")
    layout = reconstruct(t.tiles, (1600, 1200))
    assert layout.hand["melds"] == ["pon:666s"]
    rec, session = _recognizer(lambda x: np.full((len(x), 1), 0.99, np.float32))
    again = kakans_by(
        rec, np.zeros((1200, 1600, 3), np.uint8), 1.0, t.tiles, layout, (1600, 1200), []
    )
    assert session.calls == [] and again.hand == layout.hand
