"""The stages of Recognizer.recognize_image (vision/pipeline.py): one Detections value flows
through them, and each warning comes from the stage that chose."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sanma_lens.vision.classify import CLASSES
from sanma_lens.vision.pipeline import Detections, Hit, Recognizer, lay_out, report
from tests.vision.looking import sifted
from tests.vision.test_layout import Table


def _hit(box: tuple[float, float, float, float], label: str, p: float, score: float) -> Hit:
    probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    probs[CLASSES.index(label)] = p
    return Hit(box, False, probs, score)


def _rec() -> Recognizer:
    rec = Recognizer.__new__(Recognizer)  # no models needed: only the hit bookkeeping
    rec.settings = replace(rec.settings, weak_heat=None)
    return rec


def test_sift_leaves_flowers_out_with_its_own_warning_and_keeps_the_rest_as_evidence() -> None:
    hits = [
        _hit((0, 0, 40, 60), "3p", 0.9, 0.8),  # reported
        _hit((50, 0, 90, 60), "flower", 0.9, 0.8),  # left out, said
        _hit((100, 0, 140, 60), "flower", 0.9, 0.8),  # left out, said
        _hit((150, 0, 190, 60), "none", 0.9, 0.8),  # a maybe-back
        _hit((200, 0, 240, 60), "7s", 0.1, 0.8),  # unsure
    ]
    found = sifted(_rec(), hits, scale=2.0)
    assert found.hits == tuple(hits) and found.scale == 2.0  # what find gave stays
    assert [(t.tile, t.box) for t in found.tiles] == [("3p", (0, 0, 20, 30))]
    assert found.flowers == 2
    assert [(n.code, dict(n.params)) for n in found.notes] == [("flowers_ignored", {"count": 2})]
    assert [t.box[0] for t in found.no_tiles] == [75] and [t.tile for t in found.unsure] == ["7s"]
    assert sifted(_rec(), hits[:1]).notes == ()  # no flower, no warning


def test_the_stages_warnings_lead_the_layouts_in_the_report() -> None:
    t = Table()
    t.row("123p789s1122z")  # 13 tiles, no winning tile: the layout says so
    found = sifted(_rec(), [_hit((0, 0, 1, 1), "flower", 0.9, 0.8)])
    found = replace(found, tiles=tuple(t.tiles))
    first = lay_out(found, (1600, 1200))
    assert first.tiles == found.tiles and first.notes == found.notes
    out = report(first, (1600, 1200))
    codes = [d["code"] for d in out["warning_details"]]
    assert codes[0] == "flowers_ignored" and len(codes) == 1 + len(first.layout.warnings)
    assert out["hand"]["hand"] == "123p789s1122z"


def test_a_detections_value_is_not_changed_by_a_stage() -> None:
    hits = (_hit((0, 0, 40, 60), "3p", 0.9, 0.8),)
    found = Detections(hits)
    _rec().sift(found)
    assert found.tiles == () and found.notes == ()
