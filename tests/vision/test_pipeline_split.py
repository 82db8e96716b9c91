"""The split probe (vision/split.py): one detector box over two tiles is cut in two, its
halves read, and the cut kept only when the layout comes out better (§1 counts, §23 kakan)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying, verdict
from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.split import cut_boxes
from sanma_lens.vision.types import TileDetection
from tests.vision.looking import look_for_splits
from tests.vision.test_layout import Table

SIZE = (1600, 1200)
Box = tuple[float, float, float, float]


def _merge(t: Table, first: int, tile: str, confidence: float = 0.5) -> TileDetection:
    """Tiles ``first`` and ``first + 1`` of the table reported as one box read ``tile``."""
    a, b = t.tiles[first], t.tiles[first + 1]
    box = (
        min(a.box[0], b.box[0]),
        min(a.box[1], b.box[1]),
        max(a.box[2], b.box[2]),
        max(a.box[3], b.box[3]),
    )
    merged = TileDetection(tile, box, a.angle, confidence)
    t.tiles[first : first + 2] = [merged]
    return merged


def _stacked_kakan(tile: str, read_as: str) -> tuple[Table, list[TileDetection]]:
    """A hand with a kakan of ``tile`` right of it whose called tile and the added one lying
    on it are one sideways box read ``read_as``; returns the table and the true tiles."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put(tile, "meld", gap=0.7)
    t.put(tile, "meld", sideways=True)
    t.put(tile, "meld", on_top=True, sideways=True)
    truth = list(t.tiles)
    x1, y1, x2, y2 = t.tiles[-2].box
    t.tiles[-2:] = [TileDetection(read_as, (x1, t.tiles[-1].box[1], x2, y2), 90, 0.5)]
    t.put(tile, "meld")
    return t, [*truth, t.tiles[-1]]


def _reader(truth: Sequence[TileDetection], p: float = 0.9, sideways_only: bool = False):
    """A classifier stand-in: a crop reads the true tile whose box holds the crop's centre
    nearest its own centre (``none`` where no tile lies, or for upright crops when
    ``sideways_only``); records what it was asked."""
    asked: list[tuple[Box, bool]] = []

    def read(cuts: list[tuple[Box, bool]]) -> list[tuple[str, float, tuple]]:
        asked.extend(cuts)
        out = []
        for box, sideways in cuts:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            under = [d for d in truth if d.box[0] < cx < d.box[2] and d.box[1] < cy < d.box[3]]
            if not under or (sideways_only and not sideways):
                out.append(("none", 0.9, ()))
                continue
            best = min(under, key=lambda d: abs(d.center[0] - cx) + abs(d.center[1] - cy))
            out.append((best.tile, p, ()))
        return out

    read.asked = asked  # type: ignore[attr-defined]
    return read


def test_rule_23_a_kakan_seen_as_one_box_read_as_another_tile_is_cut_in_two() -> None:
    t, truth = _stacked_kakan("6s", read_as="9s")
    first = reconstruct(t.tiles, SIZE)
    assert first.hand["melds"] == ["pon:666s"]  # the big box read 9s: a pon with a misread
    read = _reader(truth)
    dets, lay = look_for_splits(t.tiles, first, SIZE, read)
    assert lay.hand["melds"] == ["kakan:6666s"]
    assert lay.hand["hand"] == first.hand["hand"] and lay.hand["win"] == "2z"
    assert "two tiles" in lay.warnings[0] and "one on the other" in lay.warnings[0]
    assert "check them" in lay.warnings[0]
    assert len(dets) == len(t.tiles) + 1 and sum(d.angle == 90 for d in dets) == 2


def test_a_box_over_two_touching_tiles_of_the_row_is_cut_and_the_hand_counts_right() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    truth = list(t.tiles)
    _merge(t, 3, "7s")
    first = reconstruct(t.tiles, SIZE)
    assert first.hand["hand"] != "123p789s1122z"
    dets, lay = look_for_splits(t.tiles, first, SIZE, _reader(truth))
    assert lay.hand["hand"] == "123p789s1122z" and lay.hand["win"] == "2z"
    assert "side by side" in lay.warnings[0] and "7s" in lay.warnings[0]
    assert "8s" in lay.warnings[0]
    assert len(dets) == len(truth)


def test_no_cut_where_every_box_is_one_tile() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    t.put("6s", "meld", sideways=True)
    t.put("6s", "meld")
    lay = reconstruct(t.tiles, SIZE)
    assert cut_boxes(lay.tiles) == []
    read = _reader(t.tiles)
    assert look_for_splits(t.tiles, lay, SIZE, read) == (t.tiles, lay)
    assert read.asked == []  # type: ignore[attr-defined]


def test_halves_read_unsure_or_as_no_tile_change_nothing() -> None:
    t, truth = _stacked_kakan("6s", read_as="9s")
    first = reconstruct(t.tiles, SIZE)
    assert look_for_splits(t.tiles, first, SIZE, _reader(truth, p=0.3)) == (t.tiles, first)
    assert look_for_splits(t.tiles, first, SIZE, _reader([])) == (t.tiles, first)


def test_rule_1_no_cut_that_makes_a_fifth_tile_of_a_kind() -> None:
    t = Table()
    t.row("123p789s1126s")  # a 6s in the hand: the kakan's four would make five
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    t.put("6s", "meld", sideways=True)
    t.put("6s", "meld", on_top=True, sideways=True)
    truth = list(t.tiles)
    x1, y1, x2, y2 = t.tiles[-2].box
    t.tiles[-2:] = [TileDetection("9s", (x1, t.tiles[-1].box[1], x2, y2), 90, 0.5)]
    t.put("6s", "meld")
    first = reconstruct(t.tiles, SIZE)
    assert look_for_splits(t.tiles, first, SIZE, _reader([*truth, t.tiles[-1]]))[1] is first


def test_rule_23_a_called_tile_a_little_deep_never_makes_a_kakan() -> None:
    """A called tile's box a little deeper across the row than a tile's width (perspective,
    the tile's body) may be cut, but its halves reading the pon's kind make no kakan: only a
    box ``SETTINGS.kakan_across`` deep holds two tiles one on the other."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6s", "meld", gap=0.7)
    called = t.put("6s", "meld", sideways=True)
    t.put("6s", "meld")
    x1, y1, x2, y2 = called.box
    deep = (SETTINGS.kakan_across - 0.05) * (y2 - y1)  # the sideways tile's depth is a tile's width
    long = 0.3 * (x2 - x1)  # and the box long along the row: as big as two tiles by its area
    t.tiles[-2] = TileDetection("6s", (x1 - long / 2, y2 - deep, x2 + long / 2, y2), 90, 0.9)
    first = reconstruct(t.tiles, SIZE)
    assert first.hand["melds"] == ["pon:666s"]
    assert any(c.how == "across" for c in cut_boxes(first.tiles))
    read = _reader(list(t.tiles), p=0.95)  # both halves lie on the called tile: 6s, 6s
    assert look_for_splits(t.tiles, first, SIZE, read)[1] is first


def test_rule_1_halves_that_make_a_new_meld_do_not_fill_the_count() -> None:
    """A new meld lowers the concealed count §1 asks for; it does not fill a short hand: a
    layout whose halves made a pon is no better, one whose halves filled the row is."""
    box = (0.0, 0.0, 40.0, 54.0)
    halves = (TileDetection("5z", box, 0, 0.9), TileDetection("5z", (40.0, 0, 80, 54), 0, 0.9))
    cut = Edit(
        "split",
        Goal.FILL,
        halves,
        halves,
        saying(),
        lands=frozenset({"hand", "win"}),
        new_melds=False,
    )  # as split_edits proposes a cut along the row
    first = Layout(
        [TileDetection("5z", (0, 0, 80, 54), 0, 0.5, "other")],
        {"hand": "123p789s1122z", "win": None, "melds": []},
        [],
    )
    as_meld = Layout(
        [replace(h, group="meld") for h in halves],
        {"hand": "123p789s1122z", "win": None, "melds": ["pon:555z"]},
        [],
    )
    assert not verdict(Hypothesis((), first), cut, as_meld)
    in_row = Layout(
        [replace(h, group="hand") for h in halves],
        {"hand": "123p789s112255z", "win": None, "melds": []},
        [],
    )
    assert verdict(Hypothesis((), first), cut, in_row)


def test_cuts_along_the_row_are_upright_and_across_it_sideways() -> None:
    """Two tiles side by side along the row stand as the row's tiles do; two one on the other
    across it (a kakan's called and added tiles) lie sideways (§23)."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    merged = _merge(t, 3, "7s")
    cuts = cut_boxes(reconstruct(t.tiles, SIZE).tiles)
    assert {(c.how, c.angle) for c in cuts} == {("along", 0), ("across", 90)}
    along = next(c for c in cuts if c.how == "along")
    assert along.halves[0][0] == merged.box[0] and along.halves[1][2] == merged.box[2]
    assert along.halves[0][2] < along.halves[1][2] and along.halves[0][1] == merged.box[1]


def test_rule_23_a_cut_that_leaves_the_kakans_fourth_tile_unseen_is_no_kakan() -> None:
    """A box cut across the row whose halves read the pon's kind lie one beyond the other; the
    layout may then read the set as a kakan with its fourth tile unseen. That proves nothing
    (dev 660020: two touching upright tiles of a pon seen as one box, cut across): the cut is
    kept only when all four of the kakan's tiles are boxes."""
    called = TileDetection("3z", (100.0, 40.0, 154.0, 80.0), 90, 0.9, "meld")
    halves = (
        TileDetection("3z", (160.0, 0, 214, 40), 90, 0.7, "meld"),
        TileDetection("3z", (160.0, 30, 214, 70), 90, 0.7, "meld"),
    )
    # as split_edits proposes a box cut across the row, SETTINGS.kakan_across deep: a pon's kakan
    cut = Edit(
        "split", Goal.KAKAN, halves, halves, saying(), lands=frozenset({"meld"}), all_seen=True
    )
    assert SETTINGS.kakan_across > 1
    rest = {"hand": "123p789s1122z", "win": "2z"}
    first = Layout(
        [called, TileDetection("3z", (160.0, 0, 214, 70), 0, 0.6, "meld")],
        {**rest, "melds": ["pon:333z"]},
        [],
    )
    three = Layout([called, *halves], {**rest, "melds": ["kakan:3333z"]}, [])
    assert not verdict(Hypothesis((), first), cut, three)
    fourth = TileDetection("3z", (40.0, 30.0, 94.0, 80.0), 0, 0.9, "meld")
    four = Layout([fourth, called, *halves], {**rest, "melds": ["kakan:3333z"]}, [])
    assert verdict(Hypothesis((), first), cut, four)
