"""The gap probe's reach along a row in perspective and the missed-tile look at a 13-tile hand
read without a winning tile (vision/probe.py ``_extend``, ``missed_probe``)."""

from __future__ import annotations

from sanma_lens.vision.decoder import short_by
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.probe import gap_boxes
from sanma_lens.vision.types import Reading, TileDetection
from tests.vision.looking import look_for_holes
from tests.vision.test_layout import Table

W, H, PITCH = 40.0, 54.0, 42.0
SIZE = (1000, 600)


def test_tiles_beyond_a_hole_are_measured_by_the_size_at_the_rows_far_end() -> None:
    """Steep perspective: each tile 0.92 × the next one's size. The row's far part, cut off by a
    hole, is three tiles much smaller than the row's median tile but like the row's end
    tile there: they continue the row, so the hand is short by the hole only and it is
    probed (measured by the row's median size they were no part of it, and a hand four
    tiles short along its line is not probed, MAX_NEED)."""
    tiles, x = [], 100.0
    for i in range(13):
        s = 0.92 ** (12 - i)
        if i != 3:  # the tile the detector missed
            group = "hand" if i > 3 else "other"
            tiles.append(TileDetection("3s", (x, 300 - H * s, x + W * s, 300), 0, 0.9, group))
        x += PITCH * s
    inside = [p for p in gap_boxes(tiles, SIZE, need=4) if p.inside]
    assert len(inside) == 1
    assert tiles[2].box[2] < (inside[0].box[0] + inside[0].box[2]) / 2 < tiles[3].box[0]


def _hits(box: tuple[float, ...], det: TileDetection) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return det.box[0] < cx < det.box[2] and det.box[1] < cy < det.box[3]


def _won_hand_missing_first() -> tuple[Table, TileDetection]:
    """A won hand laid as one row of 14 (its winning tile touching it), its first tile, 1p,
    not found: 13 tiles in tenpai (waiting on 1p-4p) and no winning tile set apart."""
    t = Table()
    t.row("123p456p789s11122z")
    return t, t.tiles.pop(0)


def _reader(gone: TileDetection, tile: str) -> object:
    def read(cuts: list[tuple[tuple[float, float, float, float], bool]]) -> list[Reading]:
        return [(tile, 0.8, ()) if _hits(b, gone) else ("none", 0.9, ()) for b, _ in cuts]

    return read


def test_rule_1_a_missed_tile_that_makes_the_14_a_won_hand_is_added() -> None:
    t, gone = _won_hand_missing_first()
    first = reconstruct(t.tiles, (1600, 1200))
    assert first.hand["hand"] == "23456p789s11122z" and first.hand["win"] is None
    dets, lay = look_for_holes(t.tiles, first, (1600, 1200), _reader(gone, "1p"))  # type: ignore[arg-type]
    assert dets[-1].tile == "1p" and len(dets) == len(t.tiles) + 1
    # 14 in the row: the rightmost is the winning tile (§1)
    assert lay.hand["hand"] == "123456p789s1112z" and lay.hand["win"] == "2z"
    assert "1p" in lay.warnings[0] and "check it" in lay.warnings[0]


def test_rule_1_a_tile_read_there_that_makes_no_won_hand_is_left_out() -> None:
    """A hand in tenpai at a draw: a tile seen beside it that does not complete it (a discard,
    another player's tile) is no tile of the hand."""
    t, gone = _won_hand_missing_first()
    first = reconstruct(t.tiles, (1600, 1200))
    dets, lay = look_for_holes(t.tiles, first, (1600, 1200), _reader(gone, "9p"))  # type: ignore[arg-type]
    assert dets == t.tiles and lay is first


def test_rule_1_a_hand_still_short_after_a_look_is_looked_at_again() -> None:
    """The row's first two tiles missed: a look finds the one a pitch past the row's end, and
    only the layout it kept puts the next place a pitch further. The probe looks again while
    the hand is short, each look bringing it nearer its count (§1)."""
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    gone = [t.tiles.pop(0), t.tiles.pop(0)]  # the 1p and the 2p: no boxes
    first = reconstruct(t.tiles, (1600, 1200))
    assert short_by(first.hand) == 2
    looks: list[int] = []

    def read(cuts: list[tuple[tuple[float, float, float, float], bool]]) -> list[Reading]:
        looks.append(len(cuts))
        out: list[Reading] = []
        for box, _ in cuts:
            hit = [g for g in gone if _hits(box, g)]
            out.append((hit[0].tile, 0.9, ()) if hit else ("none", 0.9, ()))
        return out

    dets, lay = look_for_holes(t.tiles, first, (1600, 1200), read)  # type: ignore[arg-type]
    assert len(looks) == 2 and len(dets) == len(t.tiles) + 2
    assert lay.hand["hand"] == "123456p789s1122z" and lay.hand["win"] == "2z"
