"""benchmarks/tables.py's scoring: what counts as a label, the player's tiles, false reports on
things that are not tiles (the benchmark prints numbers; these pin how it counts them)."""

from __future__ import annotations

import numpy as np

from benchmarks.tables import mine_exact, things_hit, truth
from datasets.synth.scene import Scene, ThingLabel, TileLabel
from sanma_lens.vision.types import TileDetection

QUAD = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def _label(tile, box, group="hand", **kw):
    return TileLabel(tile, box, QUAD, 0, tile == "back", group, **kw)


def _scene():
    tiles = [
        _label("1p", (0, 0, 10, 14)),
        _label("back", (10, 0, 20, 14), "meld", hidden="7z"),
        _label("2z", (40, 0, 50, 14), "other", occluded=True),
        _label("3s", (60, 0, 70, 14), "other", truncated=True, visible=0.3),
        _label("4s", (80, 0, 90, 14), "other", face_visible=0.1),
    ]
    things = [ThingLabel("led", (100, 0, 160, 20), QUAD, 1.0)]
    return Scene(np.zeros((20, 200, 3), np.uint8), tiles, {}, {}, things)


def test_hidden_and_cut_off_tiles_are_neutral_backs_optionally():
    _boxes, labels = truth(_scene())
    assert labels == ["1p", "back", "partial", "partial", "partial"]
    assert truth(_scene(), backs_neutral=True)[1][1] == "partial"


def test_the_players_tiles_count_backs_as_backs():
    sc = _scene()
    right = [
        TileDetection("1p", (0, 0, 10, 14), group="hand"),
        TileDetection("back", (10, 0, 20, 14), group="meld"),
        TileDetection("2z", (40, 0, 50, 14), group="other"),
    ]
    assert mine_exact(sc, right)
    assert not mine_exact(sc, right[:1])
    assert not mine_exact(sc, [*right, TileDetection("5z", (110, 0, 120, 14), group="hand")])


def test_false_reports_are_counted_on_the_thing_they_lie_on():
    sc = _scene()
    pred = [
        TileDetection("1p", (0, 0, 10, 14)),
        TileDetection("0s", (110, 2, 120, 16)),
        TileDetection("1m", (180, 2, 190, 16)),
    ]
    assert things_hit(sc, pred, matched={0}) == {"led": 1}
