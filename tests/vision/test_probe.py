"""The gap probe (vision/probe.py): where a short hand's row is looked at again, which
readings are taken, and the pipeline's second look on a photo the test renders itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from sanma_lens.vision.decoder import makes_a_fifth, pon_to_kakan, short_by
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.probe import Probe, accept, added_tiles, gap_boxes, stacked_tiles
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import Box, Reading, TileDetection
from tests.vision.looking import look_for_holes, look_for_kakans, looked
from tests.vision.test_layout import Table

W, H = 40.0, 54.0  # an upright tile's box
PITCH = 42.0
SIZE = (1000, 600)


def _tile(i: float, tile: str = "1p", group: str = "hand", angle: int = 0) -> TileDetection:
    x = 100 + PITCH * i
    return TileDetection(tile, (x, 300, x + W, 300 + H), angle, 0.9, group)


def _row(n: int, skip: tuple[int, ...] = ()) -> list[TileDetection]:
    kinds = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s"]
    return [_tile(i, kinds[i]) for i in range(n) if i not in skip]


def _centre_x(p: Probe) -> float:
    return (p.box[0] + p.box[2]) / 2


# ------------------------------------------------------------------ §1 counts
def test_rule_1_short_by_counts_concealed_tiles_against_the_melds() -> None:
    assert short_by({"hand": "123p456s", "win": "1p", "melds": ["pon:111z"]}) == 4
    assert short_by({"hand": "11123456789999p", "win": None, "melds": []}) == 0  # 14
    assert short_by({"hand": "1112345678999p", "win": None, "melds": []}) == 0  # tenpai 13
    assert short_by({"hand": "112345678999p", "win": "1p", "melds": []}) == 1
    assert short_by({"hand": "", "win": None, "melds": []}) == 13
    assert short_by({"hand": "1p", "melds": ["pon:111z"] * 4}) == 0


# ------------------------------------------------------------------ where to look
def test_a_hole_of_one_tile_inside_the_row_is_probed_at_its_place() -> None:
    tiles = _row(13, skip=(5,))
    probes = gap_boxes(tiles, SIZE)
    inside = [p for p in probes if p.inside]
    assert len(inside) == 1
    assert _centre_x(inside[0]) == pytest.approx(100 + PITCH * 5 + W / 2, abs=1.0)
    assert inside[0].box[2] - inside[0].box[0] == pytest.approx(W)
    assert inside[0].spot == ("5p", "7p")


def test_a_hole_of_two_tiles_gets_two_places() -> None:
    tiles = _row(13, skip=(5, 6))
    xs = sorted(_centre_x(p) for p in gap_boxes(tiles, SIZE) if p.inside)
    assert xs == pytest.approx([100 + PITCH * i + W / 2 for i in (5, 6)], abs=1.0)


def test_a_whole_row_is_probed_only_past_its_ends() -> None:
    probes = gap_boxes(_row(12), SIZE)
    assert not any(p.inside for p in probes)
    xs = sorted(_centre_x(p) for p in probes)
    assert xs == pytest.approx([100 - PITCH + W / 2, 100 + PITCH * 12 + W / 2], abs=1.0)


def test_the_rest_of_a_row_cut_in_two_by_a_hole_is_followed() -> None:
    # The layout took six tiles as the row; the six past the hole came back as "other".
    tiles = _row(13, skip=(6,))
    tiles = [t if k < 6 else replace(t, group="other") for k, t in enumerate(tiles)]
    inside = [p for p in gap_boxes(tiles, SIZE) if p.inside]
    assert [round(_centre_x(p)) for p in inside] == [round(100 + PITCH * 6 + W / 2)]
    assert inside[0].spot == ("6p", "8p")  # the 8p beyond the row: the row's line goes on


def test_no_place_where_a_tile_is_reported_or_outside_the_photo() -> None:
    tiles = _row(13, skip=(5,))
    # a called tile (sideways, another group) lying in the hole: not a hole
    tiles.append(replace(_tile(5, "9s", "meld", 90)))
    assert not any(p.inside for p in gap_boxes(tiles, SIZE))
    # the row starts at the photo's left edge: no place left of it
    left = [replace(t, box=(t.box[0] - 100, t.box[1], t.box[2] - 100, t.box[3])) for t in _row(8)]
    xs = [_centre_x(p) for p in gap_boxes(left, SIZE)]
    assert all(x > 0 for x in xs) and len(xs) == 1


def test_a_tilted_row_in_perspective_is_probed_along_its_own_line() -> None:
    # pitch grows along the row (nearer the camera) and the row rises 20°
    tiles, x, pitch = [], 100.0, 36.0
    angle = np.radians(-20)
    for i in range(13):
        pitch *= 1.03
        x += pitch
        if i == 7:
            continue
        cx, cy = 100 + (x - 100) * np.cos(angle), 400 + (x - 100) * np.sin(angle)
        s = pitch / PITCH
        tiles.append(
            TileDetection(
                "2s", (cx - 20 * s, cy - 27 * s, cx + 20 * s, cy + 27 * s), 0, 0.9, "hand"
            )
        )
    inside = [p for p in gap_boxes(tiles, SIZE) if p.inside]
    assert len(inside) == 1
    a, b = tiles[6].center, tiles[7].center
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    got = ((inside[0].box[0] + inside[0].box[2]) / 2, (inside[0].box[1] + inside[0].box[3]) / 2)
    assert got == pytest.approx(mid, abs=1.0)


def test_a_hole_at_the_far_end_of_a_steep_row_is_measured_by_the_pitch_there() -> None:
    """Steep perspective: the far tiles' pitch is half the near ones'. A hole of one far tile
    is a hole by the pitch there, and its place lies far enough from its neighbours by that
    pitch (by the row's median pitch it would seem to touch them)."""
    tiles, x = [], 100.0
    for i in range(13):
        s = 0.5 if i < 5 else 1.0  # the far part half the size
        if i == 2:
            x += 0.5 * PITCH  # the far tile the detector missed
        tiles.append(TileDetection("3s", (x, 300, x + W * s, 300 + H * s), 0, 0.9, "hand"))
        x += PITCH * s
    inside = [p for p in gap_boxes(tiles, SIZE) if p.inside]
    assert len(inside) == 1
    a, b = tiles[1].box, tiles[2].box
    assert a[2] < _centre_x(inside[0]) < b[0] + W * 0.5


def test_too_short_a_row_is_not_probed() -> None:
    assert gap_boxes([_tile(0)], SIZE) == []
    assert gap_boxes([], SIZE) == []


# ------------------------------------------------------------------ what is taken
def _probes() -> list[Probe]:
    return [Probe((0, 0, 40, 54), ("1z", "2z"), True), Probe((50, 0, 90, 54), (None, "1z"), False)]


def test_a_sure_reading_is_taken_with_a_warning_naming_it() -> None:
    found = accept(_probes(), [("7z", 0.9, (("6z", 0.05),)), ("none", 0.9, ())], [], need=2)
    assert len(found) == 1
    det, note = found[0]
    assert det.tile == "7z" and det.angle == 0 and det.confidence == pytest.approx(0.9)
    assert det.alternatives == (("6z", 0.05),)
    assert note.code == "tile_found_in_gap"
    assert note.params == {"left": "1z", "right": "2z", "tile": "7z", "confidence": 0.9}
    assert "No tile was found between 1z and 2z" in note and note.endswith("check it")


def test_holes_inside_the_row_take_less_sure_readings_than_places_past_its_ends() -> None:
    p = (SETTINGS.probe_sure_inside + SETTINGS.probe_sure) / 2
    found = accept(_probes(), [("3p", p, ()), ("4p", p, ())], [], need=2)
    assert [d.tile for d, _ in found] == ["3p"]
    below = SETTINGS.probe_sure_inside - 0.01
    assert accept(_probes(), [("3p", below, ()), ("4p", 0.1, ())], [], 2) == []


def test_never_back_flower_or_none() -> None:
    for label in ("back", "flower", "none"):
        assert accept(_probes()[:1], [(label, 0.99, ())], [], need=1) == []


def test_rule_1_a_hole_in_the_row_read_as_a_flower_first_holds_its_likeliest_riichi_tile() -> None:
    # a hole between two of the row's tiles holds a tile of the hand, never a flower (it would
    # have a box of its own): the crop's likeliest riichi reading stands in, named in the note
    reading = ("flower", 0.48, (("5p", 0.31), ("0p", 0.03)))
    found = accept(_probes()[:1], [reading], [], need=1)
    assert [d.tile for d, _ in found] == ["5p"]
    assert found[0][0].confidence == pytest.approx(0.31)
    assert found[0][1].code == "tile_found_over_flower"
    assert "5p (0.31; first read as a flower, 0.48)" in found[0][1]
    # past the row's ends, or with no riichi reading likely enough, nothing is taken
    assert accept(_probes()[1:], [("flower", 0.48, (("5p", 0.6),))], [], need=1) == []
    low = ("flower", 0.9, (("5p", SETTINGS.probe_sure_inside - 0.01),))
    assert accept(_probes()[:1], [low], [], need=1) == []


def test_at_most_the_missing_count_surest_first() -> None:
    found = accept(_probes(), [("3p", 0.6, ()), ("4p", 0.95, ())], [], need=1)
    assert [d.tile for d, _ in found] == ["4p"]


def test_rule_1_never_a_fifth_tile_of_a_kind() -> None:
    seen = [_tile(i, t) for i, t in enumerate(["5p", "5p", "0p"])] + [_tile(3, "5p", "meld")]
    assert accept(_probes()[:1], [("5p", 0.99, ())], seen, need=1) == []
    assert accept(_probes()[:1], [("0p", 0.99, ())], seen, need=1) == []  # a red five is a five
    # tiles that are not the player's (discards) do not count
    others = [replace(t, group="other") for t in seen]
    assert len(accept(_probes()[:1], [("5p", 0.99, ())], others, need=1)) == 1
    # two probes of one kind: the second would be the fifth
    two = accept(_probes(), [("5p", 0.99, ()), ("5p", 0.98, ())], seen[:3], need=2)
    assert len(two) == 1


# ------------------------------------------------------------------ the probe on a layout
def test_gap_probe_adds_the_tile_read_in_the_hole_and_lays_out_again() -> None:
    t = Table()
    t.row("123p789s1122233z")
    t.put("3z", "win", gap=0.5)
    gone = t.tiles.pop(4)  # the 8s: no box for it; the layout reads only the row past the hole
    first = reconstruct(t.tiles, (1600, 1200))
    assert short_by(first.hand) > 0
    looked: list[list[tuple[tuple[float, float, float, float], bool]]] = []

    def read(
        cuts: list[tuple[tuple[float, float, float, float], bool]],
    ) -> list[tuple[str, float, tuple]]:
        looked.append(cuts)
        return [
            ("8s", 0.8, (("9s", 0.1),)) if _hits(b, gone) else ("none", 0.9, ()) for b, _ in cuts
        ]

    dets, lay = look_for_holes(t.tiles, first, (1600, 1200), read)
    assert dets[:-1] == t.tiles and dets[-1].tile == "8s"  # the detections, the probed one added
    assert lay.hand["hand"] == "123p789s1122233z" and lay.hand["win"] == "3z"
    assert lay.warnings[0].code == "tile_found_in_gap" and lay.warnings[0].params["tile"] == "8s"
    assert [d.group for d in lay.tiles].count("hand") == 13
    # a whole hand is not probed
    assert look_for_holes(dets, lay, (1600, 1200), read) == (dets, lay) and len(looked) == 1
    assert not any(sideways for _, sideways in looked[0])  # upright crops


def _turned(d: TileDetection, height: float) -> TileDetection:
    """A detection in the photo turned by 90° clockwise (``height``: the photo's height)."""
    x1, y1, x2, y2 = d.box
    return replace(d, box=(height - y2, x1, height - y1, x2), angle=90 - d.angle)


def test_in_a_photo_turned_by_90_degrees_the_hole_is_read_and_added_sideways() -> None:
    """The row's tiles are reported sideways there: a probed place is cut turned upright
    (sideways crop) and its tile added as the row's tiles are (angle 90), so the layout turns
    it upright with them."""
    t = Table()
    t.row("123p789s1122233z")
    t.put("3z", "win", gap=0.5)
    gone = _turned(t.tiles.pop(4), 1200)
    tiles = [_turned(d, 1200) for d in t.tiles]
    first = reconstruct(tiles, (1200, 1600))
    assert short_by(first.hand) > 0
    asked: list[bool] = []

    def read(
        cuts: list[tuple[tuple[float, float, float, float], bool]],
    ) -> list[tuple[str, float, tuple]]:
        asked.extend(sideways for _, sideways in cuts)
        return [("8s", 0.8, ()) if _hits(b, gone) else ("none", 0.9, ()) for b, _ in cuts]

    dets, lay = look_for_holes(tiles, first, (1200, 1600), read)
    assert asked and all(asked)
    assert dets[-1].tile == "8s" and dets[-1].angle == 90
    assert lay.hand["hand"] == "123p789s1122233z" and lay.hand["win"] == "3z"


def test_the_winning_tiles_gap_takes_the_end_bar_and_nothing_is_probed_past_it() -> None:
    """§1: the winning tile is set apart at the row's end on purpose; a crop in its gap may
    straddle a neighbour, so it needs the sure bar of a place past the row's end."""
    row = _row(12)
    win = TileDetection("3z", (100 + PITCH * 13.6, 300, 100 + PITCH * 13.6 + W, 354), 0, 0.9, "win")
    probes = gap_boxes([*row, win], SIZE)
    assert probes and not any(p.inside for p in probes)
    assert all(_centre_x(p) < win.box[0] for p in probes)  # nothing right of the winning tile


def test_rule_1_gap_probe_refuses_a_fifth_made_with_the_tiles_beyond_the_hole() -> None:
    """The tiles past a hole join the row only in the second layout: a probed tile that makes
    a fifth of a kind with them is not taken (the first layout kept)."""
    t = Table()
    t.row("555p7p123s456s11z")
    gone = t.tiles.pop(4)  # the 7p
    t.tiles.insert(4, replace(gone, tile="5p"))  # ... read 5p beyond the hole: four 5p
    t.tiles.pop(3)  # and the fourth tile of the row missed: the hole
    first = reconstruct(t.tiles, (1600, 1200))
    _, lay = look_for_holes(t.tiles, first, (1600, 1200), lambda bs: [("5p", 0.95, ())] * len(bs))
    assert lay is first


def test_rule_1_a_fifth_of_a_kind_counts_hand_win_melds_and_kita() -> None:
    assert makes_a_fifth({}, {"hand": "555557p123456s1z", "win": "1z"})
    assert makes_a_fifth({}, {"hand": "55p", "win": "0p", "melds": ["pon:555p"]})
    assert makes_a_fifth({}, {"hand": "4444z", "kita": 1, "kita_aka": 0})
    # a fifth already read before a change is not the change's
    assert not makes_a_fifth({"hand": "55555p"}, {"hand": "55555p", "win": "1z"})
    assert not makes_a_fifth(
        {}, {"hand": "123p", "win": "1p", "melds": ["kakan:5555p"], "kita": 1, "kita_aka": 1}
    )


def test_gap_probe_keeps_the_first_layout_when_nothing_sure_is_seen() -> None:
    t = Table()
    t.row("123p789s1122233z")
    t.tiles.pop(4)
    first = reconstruct(t.tiles, (1600, 1200))
    _, lay = look_for_holes(t.tiles, first, (1600, 1200), lambda bs: [("8s", 0.1, ())] * len(bs))
    assert lay is first


def test_rule_1_a_winning_tile_the_detector_missed_is_looked_for_past_the_row() -> None:
    """13 tiles and no winning tile: past the row's right end a tile read surely that makes a
    winning hand (§1) is the winning tile the detector missed, added with a warning; one that
    makes none, or an unsure one, is no winning tile (the hand may be shown in tenpai)."""
    t = Table()
    t.row("123p789s1122233z")
    t.put("3z", "win", gap=0.5)
    gone = t.tiles.pop()  # the winning 3z: no box for it
    first = reconstruct(t.tiles, (1600, 1200))
    assert first.hand["win"] is None and short_by(first.hand) == 0

    def reads(tile: str, p: float) -> Callable[[list[tuple[Box, bool]]], list[Reading]]:
        return lambda cuts: [
            (tile, p, ()) if _hits(b, gone) else ("none", 0.9, ()) for b, _ in cuts
        ]

    dets, lay = look_for_holes(t.tiles, first, (1600, 1200), reads("3z", 0.8))
    assert dets[:-1] == t.tiles and dets[-1].tile == "3z"
    assert lay.hand["hand"] == "123p789s1122233z" and lay.hand["win"] == "3z"
    assert lay.warnings[0].code == "win_from_probe" and lay.warnings[0].params["tile"] == "3z"
    assert look_for_holes(t.tiles, first, (1600, 1200), reads("5s", 0.9))[1] is first  # no win
    unsure = reads("3z", SETTINGS.win_sure - 0.01)
    assert look_for_holes(t.tiles, first, (1600, 1200), unsure)[1] is first
    # the winning shape is the strong test: a less sure reading than past the row's ends
    # elsewhere (SETTINGS.probe_sure) is taken when it makes one
    assert SETTINGS.win_sure < 0.3 < SETTINGS.probe_sure
    assert look_for_holes(t.tiles, first, (1600, 1200), reads("3z", 0.3))[1].hand["win"] == "3z"


def test_a_hand_short_of_many_tiles_is_not_probed() -> None:
    """Part of a hand, a heap or discards: more than ``max_need`` tiles missing is no hand with a
    tile the detector missed, and nothing is looked at."""
    t = Table()
    t.row("123p7899s")  # 9 tiles, no melds: 4 short
    t.tiles.pop(4)  # and a hole: 5 short
    first = reconstruct(t.tiles, (1600, 1200))
    assert short_by(first.hand) > SETTINGS.max_need + 3  # more than max_need with the line's rest

    def read(cuts: list[tuple[tuple[float, float, float, float], bool]]) -> list[tuple]:
        raise AssertionError("probed a hand short of more than SETTINGS.max_need tiles")

    assert look_for_holes(t.tiles, first, (1600, 1200), read)[1] is first


def _hits(box: tuple[float, ...], det: TileDetection) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return det.box[0] < cx < det.box[2] and det.box[1] < cy < det.box[3]


def _pon_with_added(tile: str = "6s", added: str | None = None) -> tuple[Table, TileDetection]:
    """A hand with a pon of ``tile`` whose added tile (``added``, default ``tile``) lies on the
    called one: the table without it, and the added tile as a dropped second box (a box over
    the added tile and the called one's far half: it overlapped the called tile's box)."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    return t, _pon(t, tile, added or tile)


def _pon(t: Table, tile: str, added: str) -> TileDetection:
    t.put(tile, "meld", gap=0.7)
    called = t.put(tile, "meld", sideways=True)
    x1, y1, x2, y2 = called.box
    shift = 0.6 * (y2 - y1)
    extra = TileDetection(added, (x1, y1 - shift, x2, y2 - shift), 90, 0.8)
    t.put(tile, "meld")
    return extra


def test_rule_23_a_dropped_second_box_on_a_pon_makes_it_a_kakan() -> None:
    t, extra = _pon_with_added()
    first = reconstruct(t.tiles, (1600, 1200))
    assert first.hand["melds"] == ["pon:666s"]
    lay = look_for_kakans(t.tiles, first, [extra], (1600, 1200))
    assert lay.hand["melds"] == ["kakan:6666s"]
    assert lay.hand["hand"] == first.hand["hand"] and lay.hand["win"] == "2z"
    assert lay.warnings[0].code == "kakan_second_box"
    assert (lay.warnings[0].params["was"], lay.warnings[0].params["meld"]) == (
        "pon:666s",
        "kakan:6666s",
    )


def test_rule_23_a_second_box_of_another_kind_or_elsewhere_changes_nothing() -> None:
    t, extra = _pon_with_added(added="9s")
    first = reconstruct(t.tiles, (1600, 1200))
    assert look_for_kakans(t.tiles, first, [extra], (1600, 1200)) is first
    t, extra = _pon_with_added()
    far = replace(extra, box=tuple(v + 400 for v in extra.box))
    first = reconstruct(t.tiles, (1600, 1200))
    assert look_for_kakans(t.tiles, first, [far], (1600, 1200)) is first
    unsure = replace(extra, confidence=0.3)
    assert look_for_kakans(t.tiles, first, [unsure], (1600, 1200)) is first


def test_rule_23_a_second_box_between_two_tiles_of_the_pon_is_no_added_tile() -> None:
    """A second box of the pon's kind straddling two touching tiles of the set lies between
    them along the pon's line, not beyond the called tile across it: no kakan."""
    t, extra = _pon_with_added()
    first = reconstruct(t.tiles, (1600, 1200))
    called = next(d for d in first.tiles if d.group == "meld" and d.angle == 90)
    x1, y1, x2, y2 = called.box
    shift = 0.5 * (x2 - x1)
    between = replace(extra, box=(x1 + shift, y1, x2 + shift, y2))
    assert added_tiles(first.tiles, list(first.hand["melds"]), [extra]) == [extra]
    assert added_tiles(first.tiles, list(first.hand["melds"]), [between]) == []
    assert look_for_kakans(t.tiles, first, [between], (1600, 1200)) is first


def test_rule_1_no_added_tile_that_would_be_a_fifth() -> None:
    t = Table()
    t.row("123p789s1126s")  # a 6s in the hand: with the pon's three, the added one is a fifth
    t.put("2z", "win", gap=0.5)
    extra = _pon(t, "6s", "6s")
    first = reconstruct(t.tiles, (1600, 1200))
    assert added_tiles(first.tiles, list(first.hand["melds"]), [extra]) == []


def test_rule_23_a_pon_whose_called_tile_the_detector_calls_stacked_is_a_kakan() -> None:
    """The detector's stacked map (vision/detect.py): the added tile lies right on the called
    one and shows as one box with it; a stacked hit on the pon's sideways tile adds it."""
    t, _extra = _pon_with_added()
    first = reconstruct(t.tiles, (1600, 1200))
    called = next(d for d in first.tiles if d.group == "meld" and d.angle == 90)
    lay = look_for_kakans(t.tiles, first, [], (1600, 1200), [(called.box, 0.9)], sure=0.8)
    assert lay.hand["melds"] == ["kakan:6666s"]
    assert lay.hand["hand"] == first.hand["hand"] and lay.hand["win"] == "2z"
    assert lay.warnings[0].code == "kakan_stacked"
    assert lay.warnings[0].params["meld"] == "kakan:6666s"
    added = [d for d in lay.tiles if d.group == "meld" and d.angle == 90 and d.box != called.box]
    assert len(added) == 1 and added[0].confidence == round(0.9 * called.confidence, 4)
    assert added[0].box[1] < called.box[1]  # beyond the called tile, up the photo


def test_rule_23_a_less_sure_stacked_hit_only_warns() -> None:
    """Below ``sure`` the stacked map is not trusted to change a pon (pons are far more common
    than stacked kakans), but the player is told which pon to check."""
    t, _extra = _pon_with_added()
    first = reconstruct(t.tiles, (1600, 1200))
    called = next(d for d in first.tiles if d.group == "meld" and d.angle == 90)
    lay = look_for_kakans(t.tiles, first, [], (1600, 1200), [(called.box, 0.6)], sure=0.8)
    assert lay.hand == first.hand
    assert lay.warnings[-1].startswith("The called 6s of pon:666s may carry an added tile")
    assert lay.warnings[-1].code == "kakan_maybe"
    assert lay.warnings[-1].params["meld"] == "kakan:6666s"


def test_rule_23_a_stacked_hit_off_the_called_tile_or_a_fifth_changes_nothing() -> None:
    t, _extra = _pon_with_added()
    first = reconstruct(t.tiles, (1600, 1200))
    called = next(d for d in first.tiles if d.group == "meld" and d.angle == 90)
    upright = next(d for d in first.tiles if d.group == "meld" and d.angle == 0)
    assert look_for_kakans(t.tiles, first, [], (1600, 1200), [(upright.box, 0.9)]) is first
    far = tuple(v + 400 for v in called.box)
    assert look_for_kakans(t.tiles, first, [], (1600, 1200), [(far, 0.9)]) is first
    t = Table()
    t.row("123p789s1126s")  # with the pon's three 6s, an added 6s would be a fifth
    t.put("2z", "win", gap=0.5)
    _pon(t, "6s", "6s")
    first = reconstruct(t.tiles, (1600, 1200))
    called = next(d for d in first.tiles if d.group == "meld" and d.angle == 90)
    assert stacked_tiles(first.tiles, list(first.hand["melds"]), [(called.box, 0.9)]) == []
    assert look_for_kakans(t.tiles, first, [], (1600, 1200), [(called.box, 0.6)]) is first


def test_pon_to_kakan_only_when_nothing_else_changed() -> None:
    was = {"hand": "123p", "win": "1p", "melds": ["pon:666s", "pon:111z"], "kita": 0}
    now = {**was, "melds": ["kakan:6666s", "pon:111z"]}
    assert pon_to_kakan(was, now) == ("pon:666s", "kakan:6666s")
    assert pon_to_kakan(was, {**now, "win": "2p"}) is None
    assert pon_to_kakan(was, {**now, "melds": ["kakan:7777s", "pon:111z"]}) is None
    assert pon_to_kakan(was, {**now, "melds": ["kakan:6666s"]}) is None
    assert pon_to_kakan(was, {**now, "melds": ["minkan:6666s", "pon:111z"]}) is None
    assert pon_to_kakan(was, was) is None


# ------------------------------------------------------------------ the pipeline, rendered
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"


@pytest.mark.slow
def test_pipeline_finds_a_hand_tile_the_detector_did_not_report() -> None:
    scene_mod = pytest.importorskip("datasets.synth.scene")
    if not (SHARED / "art").is_dir():
        pytest.skip("shared datasets absent: no face bank to render with")
    from benchmarks.layout import normalise
    from sanma_lens.vision.decode import decode
    from sanma_lens.vision.pipeline import MODELS, Detections, Recognizer

    if not all((MODELS / n).is_file() for n in ("tile_detector.onnx", "tile_classifier.onnx")):
        pytest.skip("models/*.onnx not present")
    rec = Recognizer(threads=1)
    tried = 0
    for seed in range(900200, 900240):
        scene = scene_mod.render_scene(np.random.default_rng(seed), hands="winning")
        ok, buf = cv2.imencode(".jpg", scene.image)
        dec = decode(buf.tobytes())
        tiles, _ = rec.tiles(dec.image, dec.scale)
        size = dec.original_size
        first = reconstruct(tiles, size)
        if normalise(first.hand) != normalise(scene.hand) or len(str(first.hand["hand"])) < 8:
            continue  # a hand read exactly, with a row long enough to have an inside
        row = sorted((t for t in first.tiles if t.group == "hand"), key=lambda t: t.center[0])
        gone = row[len(row) // 2]  # a tile well inside the row: the detector "missed" it
        kept = [t for t in tiles if t.box != gone.box]
        short = reconstruct(kept, size)
        if short_by(short.hand) != 1:
            continue
        tried += 1
        read = rec.reader(dec.image, dec.scale)
        _, again = looked(
            kept, short, size, rec.looks(dec.image, Detections((), dec.scale), size, read)
        )
        assert again.hand == first.hand, f"seed {seed}: {again.hand} vs {first.hand}"
        note = again.warnings[0]
        assert note.code == "tile_found_in_gap" and note.params["tile"] == gone.tile, again.warnings
        rec.settings = replace(rec.settings, probe=False)
        assert rec.looks(dec.image, Detections((), dec.scale), size, read) == []
        rec.settings = SETTINGS  # back to the defaults
        if tried == 2:
            return
    pytest.fail("no rendered hand read exactly to test the probe on")


def test_pipeline_doubles_are_the_hits_dropped_as_a_second_hit_on_a_tile() -> None:
    """The sift stage's doubles: what drop_double_hits dropped (read as a riichi tile), for the
    kakan probe; nothing when the double rule is off."""
    from sanma_lens.vision.classify import CLASSES
    from sanma_lens.vision.pipeline import Hit, Recognizer
    from tests.vision.looking import sifted

    def hit(box: tuple[float, ...], label: str, p: float, score: float) -> Hit:
        probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
        probs[CLASSES.index(label)] = p
        return Hit(box, True, probs, score)

    rec = Recognizer.__new__(Recognizer)  # no models needed: only the hit bookkeeping
    rec.settings = replace(rec.settings, double_iou=0.3, double_sure=0.6)
    rec.settings = replace(rec.settings, weak_heat=None, weak_sure=0.95)
    called = hit((0, 20, 60, 60), "6s", 0.9, 0.8)
    added = hit((0, 0, 60, 40), "6s", 0.8, 0.5)  # on the called tile, same reading: a double
    apart = hit((100, 20, 160, 60), "7s", 0.9, 0.7)
    found = sifted(rec, [called, added, apart], scale=2.0)
    assert sorted(t.tile for t in found.tiles) == ["6s", "7s"]
    doubles = found.doubles
    assert [(d.tile, d.box, d.angle) for d in doubles] == [("6s", (0, 0, 30, 20), 90)]
    rec.settings = replace(rec.settings, double_iou=None)
    assert sifted(rec, [called, added, apart]).doubles == ()
