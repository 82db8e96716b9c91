"""vision/join.py ``halves_edits``: a called tile seen as two halves (a sideways 4p as two
upright 2p boxes) is read again turned, as one tile, when the layout comes out better."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.vision.decoder import short_by
from sanma_lens.vision.join import halves_pairs
from sanma_lens.vision.types import Box, Reading, TileDetection
from tests.vision.looking import look_for_splits
from tests.vision.test_layout import Table

SIZE = (1600, 1200)


def _won_hand_without_its_called_tile(t: Table) -> TileDetection:
    """Lays on ``t`` a won hand of 10 concealed tiles, its winning tile and a pon of 4p, then
    takes the pon's sideways tile off again (the caller puts its halves there): that tile."""
    t.row("123p456s789s1z")
    t.put("1z", "win", gap=0.5)
    t.put("4p", "meld", gap=1.5)
    t.put("4p", "meld")
    called = t.put("4p", "meld", sideways=True)
    t.tiles.pop()
    return called


def _pon_with_split_called_tile() -> tuple[Table, TileDetection]:
    """A won hand of 10 concealed tiles, its winning tile and a pon of 4p whose sideways tile
    the detector reported as its two halves, upright boxes each read 2p surely."""
    t = Table()
    called = _won_hand_without_its_called_tile(t)
    x1, y1, x2, y2 = called.box
    mid = (x1 + x2) / 2
    t.tiles += [
        TileDetection("2p", (x1, y1, mid + 2, y2), 0, 0.95),
        TileDetection("2p", (mid - 2, y1, x2, y2), 0, 0.94),
    ]
    return t, called


def _reader(called: TileDetection, tile: str, p: float) -> object:
    def read(cuts: list[tuple[Box, bool]]) -> list[Reading]:
        out: list[Reading] = []
        for box, sideways in cuts:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            on = called.box[0] < cx < called.box[2] and called.box[1] < cy < called.box[3]
            out.append((tile, p, ()) if on and sideways else ("none", 0.9, ()))
        return out

    return read


def test_a_called_tile_seen_as_two_halves_is_read_turned_as_one() -> None:
    t, called = _pon_with_split_called_tile()
    first = t.read()
    assert first.hand["melds"] == [] and short_by(first.hand) == 3
    assert len(halves_pairs(first.tiles)) == 1
    dets, lay = look_for_splits(t.tiles, first, SIZE, _reader(called, "4p", 0.97))  # type: ignore[arg-type]
    assert lay.hand["melds"] == ["pon:444p"] and lay.hand["hand"] == "123p456789s1z"
    assert dets[-1].tile == "4p" and dets[-1].angle == 90 and len(dets) == len(t.tiles) - 1
    assert "2p" in lay.warnings[0] and "4p" in lay.warnings[0]
    # the split probe looks for it too (the pipeline's second looks)
    assert look_for_splits(t.tiles, first, SIZE, _reader(called, "4p", 0.97))[1].hand == lay.hand  # type: ignore[arg-type]


def test_halves_read_unsure_turned_or_making_no_better_hand_stay() -> None:
    t, called = _pon_with_split_called_tile()
    first = t.read()
    unsure = look_for_splits(t.tiles, first, SIZE, _reader(called, "4p", 0.6))  # type: ignore[arg-type]
    assert unsure == (t.tiles, first)
    # read as a tile of another kind: no pon, the hand no nearer its count
    other = look_for_splits(t.tiles, first, SIZE, _reader(called, "7s", 0.97))  # type: ignore[arg-type]
    assert other == (t.tiles, first)


def test_two_upright_tiles_of_the_row_are_no_halves() -> None:
    t, _ = _pon_with_split_called_tile()
    first = t.read()
    row = [replace(d, group="hand") for d in first.tiles]
    assert halves_pairs(row) == []


def test_rule_23_halves_of_a_kakans_called_tile_make_the_pon_its_kakan() -> None:
    """The called 4p of a kakan seen as two halves (2p, and 4p unsure), its added 4p lying
    beyond it: first read as a pon guessed from two 4p (§1 counts), then, joined, as the
    kakan, the hand as near its count as before; taken even when the kakan reading has more
    to check than the first (dev 950050: its added tile read 2p 0.46, the vote said)."""
    t, called = _pon_with_split_called_tile()
    x1, y1, x2, y2 = called.box
    depth = y2 - y1
    t.tiles[-1] = replace(t.tiles[-1], tile="4p", confidence=0.55)  # one half read 4p, unsure
    t.tiles.append(TileDetection("4p", (x1, y1 - depth, x2, y2 - depth), 90, 0.9))
    first = t.read()
    assert first.hand["melds"] == ["pon:444p"]
    quiet = replace(first, warnings=[])  # nothing to check in the first reading
    _, lay = look_for_splits(t.tiles, quiet, SIZE, _reader(called, "4p", 0.97))  # type: ignore[arg-type]
    assert lay.hand["melds"] == ["kakan:4444p"] and lay.hand["hand"] == first.hand["hand"]


def test_halves_of_a_called_tile_on_a_slanted_row_are_read_turned_as_one() -> None:
    # render 600011: on a row 25° off the image's axis, image-axis boxes are rounder; the two
    # halves' joint box is shaped less like a sideways tile and bigger than the tile's own box
    t = Table(deg=25.0)
    called = _won_hand_without_its_called_tile(t)
    assert t._last is not None
    along_at, across_at, along, across = t._last
    t.tiles += [
        TileDetection("2p", t._box(along_at - along / 2, across_at, along / 2, across), 0, 0.95),
        TileDetection("2p", t._box(along_at + along / 2, across_at, along / 2, across), 0, 0.94),
    ]
    first = t.read()
    assert first.hand["melds"] == [] and len(halves_pairs(first.tiles)) == 1
    _, lay = look_for_splits(t.tiles, first, SIZE, _reader(called, "4p", 0.97))  # type: ignore[arg-type]
    assert lay.hand["melds"] == ["pon:444p"]
