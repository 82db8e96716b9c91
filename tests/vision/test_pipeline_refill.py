"""The refill (vision/refill.py): a hit read too unsure to report is put back where the hand
is short (§1), only when it fills the concealed row; and Recognizer.unsure, the hits it gets."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, over_full, saying, verdict
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import TileDetection
from tests.vision.looking import look_for_unsure
from tests.vision.test_layout import Table

SIZE = (1600, 1200)


def _short_hand() -> tuple[Table, TileDetection]:
    """A 13-tile hand with its winning tile; its 8s taken out (the detector's hit on it read
    too unsure to report): returns the table without it and the unsure hit, read 1m (0.18)
    with 8s among its next-best readings."""
    t = Table()
    t.row("123p789s1122233z")
    t.put("3z", "win", gap=0.5)
    gone = t.tiles.pop(4)
    return t, replace(gone, tile="1m", confidence=0.18, alternatives=(("8s", 0.15),))


def test_rule_1_an_unsure_hit_in_the_hole_of_a_short_hand_is_put_back() -> None:
    t, hit = _short_hand()
    first = reconstruct(t.tiles, SIZE)
    dets, lay = look_for_unsure(t.tiles, first, [hit], SIZE)
    assert dets == [*t.tiles, hit]
    # the rule-aware reading takes its next-best reading: the 14 tiles then win (§1)
    assert lay.hand["hand"] == "123p789s1122233z" and lay.hand["win"] == "3z"
    assert "1m (0.18)" in lay.warnings[0] and "check it" in lay.warnings[0]


def test_an_unsure_hit_is_not_put_back_in_a_whole_hand_or_away_from_the_row() -> None:
    t, hit = _short_hand()
    whole = [*t.tiles, replace(hit, tile="8s", confidence=0.9)]
    lay = reconstruct(whole, SIZE)
    assert look_for_unsure(whole, lay, [hit], SIZE) == (whole, lay)  # nothing short
    first = reconstruct(t.tiles, SIZE)
    far = replace(hit, box=tuple(v + 500 for v in hit.box))
    assert look_for_unsure(t.tiles, first, [far], SIZE) == (t.tiles, first)
    back = replace(hit, tile="back")
    assert look_for_unsure(t.tiles, first, [back], SIZE) == (t.tiles, first)


def test_rule_1_a_put_back_tile_must_fill_the_row_without_a_new_meld_or_overfilling() -> None:
    box = (0.0, 0.0, 40.0, 54.0)
    added = TileDetection("5z", box, 0, 0.15)
    first = reconstruct([], SIZE)
    short = replace(first, hand={"hand": "123p789s1122z", "win": "2z", "melds": []})
    filled = replace(
        first,
        tiles=[replace(added, group="hand")],
        hand={"hand": "123p789s11225z", "win": "2z", "melds": []},
    )
    # as refill_edits proposes it
    put_back = Edit(
        "refill",
        Goal.FILL,
        (added,),
        (added,),
        saying(),
        lands=frozenset({"hand", "win"}),
        keeps=frozenset({"melds"}),
    )
    assert verdict(Hypothesis((), short), put_back, filled)
    as_meld = replace(filled, hand={**filled.hand, "melds": ["pon:555z"]})
    assert not verdict(Hypothesis((), short), put_back, as_meld)
    elsewhere = replace(filled, tiles=[replace(added, group="other")])
    assert not verdict(Hypothesis((), short), put_back, elsewhere)
    assert over_full({"hand": "11122233344455p", "win": "5p", "melds": []})
    assert not over_full({"hand": "1112223334445p", "win": "5p", "melds": []})
    assert over_full({"hand": "11122233p", "win": "5p", "melds": ["pon:777z", "pon:666z"]})


def test_pipeline_unsure_are_the_hits_dropped_for_a_reading_below_min_tile_prob() -> None:
    """The sift stage's unsure hits: hot hits whose best reading, a riichi tile, is below
    ``min_tile_prob`` (never not-tiles, never hits reported or dropped as doubles), with their
    next readings."""
    from sanma_lens.vision.classify import CLASSES
    from sanma_lens.vision.pipeline import Hit, Recognizer
    from tests.vision.looking import sifted

    def hit(box: tuple[float, ...], probs: dict[str, float], score: float) -> Hit:
        p = np.full(len(CLASSES), 0.001, np.float32)
        for label, v in probs.items():
            p[CLASSES.index(label)] = v
        return Hit(box, False, p, score)

    rec = Recognizer.__new__(Recognizer)  # no models needed: only the hit bookkeeping
    rec.settings = replace(rec.settings, double_iou=0.3, double_sure=0.6)
    rec.settings = replace(rec.settings, weak_heat=None, weak_sure=0.95)
    low = SETTINGS.min_tile_prob - 0.02
    unsure = hit((0, 0, 40, 54), {"1m": low, "2z": low - 0.05}, 0.8)
    sure = hit((100, 0, 140, 54), {"7s": 0.9}, 0.8)
    junk = hit((200, 0, 240, 54), {"none": low}, 0.8)
    cold = hit((300, 0, 340, 54), {"3p": low}, 0.1)
    found = sifted(rec, [unsure, sure, junk, cold], scale=2.0)
    assert [t.tile for t in found.tiles] == ["7s"]
    assert [t.tile for t in found.no_tiles] == ["none"]  # the junk, kept as a maybe-back
    got = found.unsure
    assert [(d.tile, d.box) for d in got] == [("1m", (0, 0, 20, 27))]
    assert got[0].alternatives[0][0] == "2z"
