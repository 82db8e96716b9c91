"""Layout reconstruction on synthetic detection lists (vision/layout/).

Scenes are built with :class:`Table`: tiles are laid left to right along a (possibly tilted)
row with real tile proportions, each turned into the axis-aligned box a detector would give.
Every test asserts the exact hand dict and the group of every tile.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanma_lens.vision.layout import Layout, kind, mpsz, reconstruct, walls
from sanma_lens.vision.types import GROUPS, TileDetection

A = 40.0  # tile width (short side) in pixels
B = A * 1.35  # tile height


@dataclass
class Table:
    """Places tiles along a row: ``u`` = row direction, ``v`` = across (towards the player)."""

    x: float = 100.0
    y: float = 600.0
    deg: float = 0.0
    scale: float = 1.0
    shrink: float = 1.0  # perspective: each tile is this factor the size of the previous one
    tiles: list[TileDetection] = field(default_factory=list)
    expect: list[str] = field(default_factory=list)
    _last: tuple[float, float, float, float] | None = None  # t, n, along half, across half

    def _uv(self) -> tuple[tuple[float, float], tuple[float, float]]:
        r = math.radians(self.deg)
        return (math.cos(r), math.sin(r)), (-math.sin(r), math.cos(r))

    def _box(self, t: float, n: float, along: float, across: float) -> tuple[float, ...]:
        (ux, uy), (vx, vy) = self._uv()
        cx, cy = self.x + t * ux + n * vx, self.y + t * uy + n * vy
        hw = abs(along * ux) + abs(across * vx)
        hh = abs(along * uy) + abs(across * vy)
        return (cx - hw, cy - hh, cx + hw, cy + hh)

    def cursor(self) -> float:
        if self._last is None:
            return 0.0
        return self._last[0] + self._last[2]

    def put(
        self,
        tile: str,
        group: str,
        *,
        gap: float = 0.0,
        sideways: bool = False,
        on_top: bool = False,
        confidence: float = 0.97,
        reported: int | None = None,
    ) -> TileDetection:
        """Lay ``tile`` after the previous one with ``gap`` (× tile width) between them.

        ``on_top``: a kakan's added tile, lying on the far side of the previous sideways tile.
        ``reported``: the angle the detector reports (default: the tile's true one).
        """
        a, b = A * self.scale, B * self.scale
        along, across = (b / 2, a / 2) if sideways else (a / 2, b / 2)
        if on_top:
            assert self._last is not None
            t, n0 = self._last[0], self._last[1]
            n = n0 - 2 * self._last[3]
        else:
            t = self.cursor() + gap * a + along
            n = (b / 2) - across  # bottom-aligned with the row
        angle = (90 if sideways else 0) if reported is None else reported
        det = TileDetection(tile, self._box(t, n, along, across), angle, confidence)
        self.tiles.append(det)
        self.expect.append(group)
        self._last = (t, n, along, across)
        self.scale *= self.shrink
        return det

    def row(self, tiles: str, group: str = "hand", gap: float = 0.0) -> None:
        for i, tile in enumerate(split(tiles)):
            self.put(tile, group, gap=gap if i == 0 else 0.0)

    def elsewhere(self, tiles: str, x: float, y: float, group: str, step: float = A) -> None:
        """Loose upright tiles somewhere else on the table (discards, another player's)."""
        for i, tile in enumerate(split(tiles)):
            cx = x + i * step
            box = (cx - A / 2, y - B / 2, cx + A / 2, y + B / 2)
            self.tiles.append(TileDetection(tile, box, 0, 0.95))
            self.expect.append(group)

    def read(self) -> Layout:
        return reconstruct(list(self.tiles), (1600, 1200))


def split(text: str) -> list[str]:
    """``"123p11z"`` → ``["1p", "2p", "3p", "1z", "1z"]``; ``"back"`` entries as ``b``."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit() or ch == "b":
            digits += ch
        else:
            out.extend("back" if d == "b" else d + ch for d in digits)
            digits = ""
    out.extend("back" for d in digits if d == "b")
    return out


def hand(hand: str, win: str | None, melds=(), kita=0, kita_aka=0, **extra) -> dict:
    out = {"hand": hand, "win": win, "melds": list(melds), "kita": kita, "kita_aka": kita_aka}
    out.update(extra)
    return out


def check(table: Table, expected: dict, warnings: int | None = 0) -> Layout:
    layout = table.read()
    assert layout.hand == expected, layout.warnings
    assert [t.group for t in layout.tiles] == table.expect
    assert all(t.group in GROUPS for t in layout.tiles)
    if warnings is not None:
        assert len(layout.warnings) == warnings, layout.warnings
    return layout


# ------------------------------------------------------------------------- helpers


def test_mpsz_sorts_suits_and_digits_with_red_after_plain_fives() -> None:
    assert mpsz(["1z", "3p", "0p", "5p", "1z", "2p", "9m", "1m"]) == "19m2350p11z"
    assert mpsz([]) == ""


def test_rule_tiles_reds_count_as_fives_and_aka5man_as_north() -> None:
    assert [kind(t) for t in ("0p", "0s", "0m", "5p", "7z")] == ["5p", "5s", "4z", "5p", "7z"]


# ------------------------------------------------------------------------- rows


def test_straight_row_with_win_tile_apart() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.6)
    check(t, hand("123456p789s1122z", "2z"))


def test_input_order_does_not_matter() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.6)
    order = [5, 13, 0, 2, 11, 7, 1, 3, 12, 4, 6, 8, 10, 9]
    t.tiles = [t.tiles[i] for i in order]
    t.expect = [t.expect[i] for i in order]
    check(t, hand("123456p789s1122z", "2z"))


def test_row_tilted_15_degrees() -> None:
    t = Table(deg=15.0, y=300.0)
    t.row("19m19p19s1234567z")
    t.put("1z", "win", gap=0.5)
    check(t, hand("19m19p19s1234567z", "1z"))


def test_row_tilted_minus_20_degrees_with_pon() -> None:
    t = Table(deg=-20.0, y=900.0)
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("7z", "meld", gap=0.8, sideways=True)
    t.row("77z", "meld")
    check(t, hand("234p5567899s", "9s", ["pon:777z"]))


def test_perspective_scaled_row() -> None:
    t = Table(scale=1.4, shrink=0.96)
    t.row("1112345678999p")
    t.put("5p", "win", gap=0.5)
    check(t, hand("1112345678999p", "5p"))


def test_perspective_and_tilt_together() -> None:
    t = Table(scale=0.8, shrink=1.03, deg=10.0, y=200.0)
    t.row("11m99m11p99p11s9s12z")
    t.put("9s", "win", gap=0.7)
    check(t, hand("1199m1199p119s12z", "9s"))


def test_tenpai_13_tiles_has_no_win() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    check(t, hand("123456p789s1122z", None))


def test_red_fives_stay_red_in_the_hand() -> None:
    t = Table()
    t.row("340p678s0s55s6677z")
    t.put("5p", "win", gap=0.5)
    check(t, hand("340p550678s6677z", "5p"))


# ------------------------------------------------------------------------- melds


@pytest.mark.parametrize("position", [0, 1, 2])
def test_pon_with_the_sideways_tile_in_each_position(position: int) -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    for i in range(3):
        t.put("7z", "meld", gap=0.7 if i == 0 else 0.0, sideways=i == position)
    check(t, hand("234p5567899s", "9s", ["pon:777z"]))


def test_two_pons_and_a_minkan() -> None:
    t = Table()
    t.row("1199p")
    t.put("1p", "win", gap=0.5)
    t.put("5z", "meld", gap=0.7, sideways=True)
    t.row("55z", "meld")
    t.row("66z", "meld", gap=0.4)
    t.put("6z", "meld", sideways=True)
    t.row("9s", "meld", gap=0.4)
    t.put("9s", "meld", sideways=True)
    t.row("99s", "meld")
    check(t, hand("1199p", "1p", ["pon:555z", "pon:666z", "minkan:9999s"]))


def test_ankan_of_all_red_fives_under_the_aka_5man_option() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.row("00p", "meld")
    t.put("back", "meld")
    check(t, hand("123p789s1122z", "2z", ["ankan:0000p"]))


def test_pon_of_norths_keeps_the_aka_5man() -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("4z", "meld", gap=0.7, sideways=True)
    t.put("0m", "meld")
    t.put("4z", "meld")
    check(t, hand("234p5567899s", "9s", ["pon:0m44z"]))


def test_minkan_with_red_five() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("1z", "win", gap=0.5)
    t.row("55p", "meld", gap=0.8)
    t.put("0p", "meld", sideways=True)
    t.put("5p", "meld")
    check(t, hand("123p789s1122z", "1z", ["minkan:0555p"]))


def test_meld_strings_come_back_as_the_hand_json_writes_them_and_score() -> None:
    """Melds in the hand JSON's form, a red five first (``minkan:0555p``, as a player types
    it; not ``5550p``): the recognized hand reads back into ``sanma score`` as it is."""
    from sanma_lens.engine.service import score_json

    t = Table()
    t.row("123p789s1z")
    t.put("1z", "win", gap=0.5)
    t.row("55p", "meld", gap=0.8)
    t.put("0p", "meld", sideways=True)
    t.put("5p", "meld")
    t.put("9s", "meld", gap=0.6, sideways=True)
    t.row("99s", "meld")
    layout = check(t, hand("123p789s1z", "1z", ["minkan:0555p", "pon:999s"]))
    result = score_json({**layout.hand, "tsumo": True})
    assert "error" not in result and result["dora"]["aka"] == 1


def test_kakan_added_tile_on_the_sideways_one() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("5p", "meld", gap=0.7)
    t.put("0p", "meld", sideways=True)
    t.put("5p", "meld", on_top=True, sideways=True)
    t.put("5p", "meld")
    check(t, hand("123p789s1122z", "2z", ["kakan:0555p"]))


def test_rule_23_kakan_whose_added_tile_shows_only_its_near_part() -> None:
    """The added tile beyond the called one is partly hidden (by the tile in front, or cut by
    the far edge of the view), so its box is small: about a third of a tile's area (dev render
    650008: √area 0.58 of the row's end tile) still joins its kakan."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("4s", "meld", gap=0.7)
    t.put("4s", "meld", sideways=True)
    added = t.put("4s", "meld", on_top=True, sideways=True)
    x1, y1, x2, y2 = added.box
    t.tiles[-1] = replace(added, box=(x1, y2 - 0.33 * (y2 - y1), x2, y2))  # the near third
    t.put("4s", "meld")
    check(t, hand("123p789s1122z", "2z", ["kakan:4444s"]))


def test_rule_23_kakan_whose_added_tile_is_reported_upright() -> None:
    """The tile beyond a called sideways tile, of its kind, is the kakan's added tile even when
    the detector reports it upright: no other tile lies there on a table."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("4s", "meld", gap=0.7)
    t.put("4s", "meld", sideways=True)
    t.put("4s", "meld", on_top=True, sideways=True, reported=0)
    t.put("4s", "meld")
    check(t, hand("123p789s1122z", "2z", ["kakan:4444s"]))


def test_rule_23_kakan_whose_called_tile_is_reported_upright() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("6p", "meld", gap=0.7)
    t.put("6p", "meld", sideways=True, reported=0)
    t.put("6p", "meld", on_top=True, sideways=True)
    t.put("6p", "meld")
    check(t, hand("123p789s1122z", "2z", ["kakan:6666p"]))


def hand_with_pon_of_7z(t: Table) -> None:
    """The hand 234p5567899s (winning tile 9s set a little apart) and a pon of 7z, called
    from the left, right of it: the scene of the kita tests."""
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("7z", "meld", gap=0.7, sideways=True)
    t.row("77z", "meld")


def one_box_kakan(t: Table, tile: str) -> None:
    """A kakan right of the hand whose called and added tiles the detector saw as one upright
    box twice a tile's height, between two upright tiles of the set."""
    t.put(tile, "meld", gap=0.7)
    side = t.put(tile, "meld", sideways=True, reported=0)
    x1, y1, x2, y2 = side.box
    t.tiles[-1] = TileDetection(tile, (x1, y1 - (y2 - y1) - 2, x2, y2), 0, 0.9)
    t.put(tile, "meld")


def test_rule_23_kakan_seen_as_one_box_over_the_called_and_added_tiles() -> None:
    """A box over a kakan's called tile and the added one beyond it (one detection, reported
    upright, as big as two tiles) makes the set a kakan, with a warning naming the tile."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    one_box_kakan(t, "6s")
    layout = check(t, hand("123p789s1122z", "2z", ["kakan:6666s"]), warnings=1)
    assert layout.warnings[0].code == "kakan_one_box" and layout.warnings[0].params["tile"] == "6s"


def test_a_slightly_bigger_tile_in_a_set_is_no_kakan() -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.row("77z", "meld", gap=0.7)
    t.scale = 1.15
    t.put("7z", "meld")
    layout = check(t, hand("234p5567899s", "9s", ["pon:777z"]), warnings=1)
    assert "no sideways tile" in layout.warnings[0]


def test_rule_23_minkan_tiles_side_by_side_are_no_kakan() -> None:
    """Four tiles of a called kan laid side by side, one a little off the line: a minkan."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("9p", "meld", gap=0.7)
    t.put("9p", "meld", sideways=True)
    t.put("9p", "meld")
    t.put("9p", "meld")
    x1, y1, x2, y2 = t.tiles[-1].box
    t.tiles[-1] = TileDetection("9p", (x1 - 4, y1 - 8, x2 - 4, y2 - 8), 0, 0.97)
    check(t, hand("123p789s1122z", "2z", ["minkan:9999p"]))


@pytest.mark.parametrize("where", [{}, {"x": 300.0, "deg": 30.0}, {"x": 300.0, "deg": -35.0}])
def test_rule_1_called_tile_with_one_alike_is_a_pon_when_the_count_needs_it(
    where: dict[str, float],
) -> None:
    """A sideways tile and one of its kind, the hand three tiles short (§1): a pon whose third
    tile the detector missed, with a warning naming it. On a row turned 30° a sideways tile's
    box is no wider for its height than an upright one's: the detector's turn alone makes it
    the called tile."""
    t = Table(**where)
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("1s", "meld", gap=0.7, sideways=True)
    t.put("1s", "meld")
    layout = check(t, hand("234p5567899s", "9s", ["pon:111s"]), warnings=1)
    assert layout.warnings[0].code == "pon_third_unseen"
    assert layout.warnings[0].params["tiles"] == ("1s", "1s")


def test_two_alike_beside_a_full_hand_are_no_pon() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("1s", "meld", gap=1.5, sideways=True)
    t.put("1s", "meld")
    layout = t.read()
    assert layout.hand["melds"] == [] and layout.hand["hand"] == "123456p789s1122z"
    assert not any(w.code.endswith("_unseen") for w in layout.warnings)
    assert any(
        w.code == "meld_size" and w.params == {"tiles": ("1s", "1s"), "count": 2}
        for w in layout.warnings
    )


def test_rule_1_lone_tile_touching_the_end_of_a_13_tile_hand_is_the_winning_tile() -> None:
    """A tile right after the row, nearer the camera (bigger) and too close to look set apart,
    with 13 tiles before it counting the melds (§1): the winning tile, with a warning."""
    t = Table()
    t.row("123p789s1122z")
    t.scale = 1.4
    t.put("2z", "win", gap=0.1)
    t.scale = 1.0
    t.put("1s", "meld", gap=1.5, sideways=True)
    t.row("11s", "meld")
    layout = check(t, hand("123p789s1122z", "2z", ["pon:111s"]), warnings=1)
    assert "(2z) is barely set apart" in layout.warnings[0]


def test_rule_23_called_tile_reported_upright_but_shaped_sideways_keeps_its_pon_together() -> None:
    """A tile right of the row whose box is shaped like a sideways tile lies sideways, whatever
    the detector reported: the pon's three tiles stay one group (an upright tile there would
    leave gaps that split them)."""
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("1m", "meld", gap=0.7)
    t.put("1m", "meld", gap=0.32, sideways=True, reported=0)
    t.put("1m", "meld", gap=0.32)
    layout = check(t, hand("234p5567899s", "9s", ["pon:111m"]), warnings=1)
    assert "no sideways tile" in layout.warnings[0]


def test_row_bent_by_30_degrees_in_the_middle_is_one_row() -> None:
    """A row whose second half turns by 30° (a crooked tile, the hand laid on a bend): the two
    chains share the tile at the bend and are read as one row."""
    hand_tiles = split("123p456p789s1122z")
    tiles = [
        TileDetection(t, (100 + i * A - A / 2, 600 - B / 2, 100 + i * A + A / 2, 600 + B / 2))
        for i, t in enumerate(hand_tiles[:7])
    ]
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    w, h = A * c + B * s, A * s + B * c
    x0 = 100 + 6 * A
    for k, t in enumerate([*hand_tiles[7:], "2z"], start=1):
        step = k * A + (0.6 * A if t == "2z" and k == 7 else 0.0)
        cx, cy = x0 + step * c, 600 - step * s
        tiles.append(TileDetection(t, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)))
    layout = reconstruct(tiles, (1600, 1200))
    assert layout.hand == hand("123456p789s1122z", "2z"), layout.warnings
    assert [t.group for t in layout.tiles] == ["hand"] * 13 + ["win"]


def test_rule_1_upright_triplet_touching_the_row_end_is_concealed_not_a_pon() -> None:
    """Three alike touching the row's end, nearer the camera (the chain stops at the size
    jump), none sideways: concealed tiles, not a called pon (a called set is laid apart)."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "hand")
    t.scale = 1.7
    t.row("77z", "hand", gap=0.05)
    t.put("7z", "win")
    layout = check(t, hand("123p789s1122277z", "7z"), warnings=1)
    assert (layout.warnings[0].code, layout.warnings[0].params) == ("win_rightmost", {"tile": "7z"})


def test_row_of_narrow_boxes_with_uneven_heights_is_one_row() -> None:
    """Boxes of a real photo's row (hk-hands valid): narrow, uneven heights, so a link's angle
    reads -11° where the row is level; the tilt correction must not shrink the tiles until
    neighbours look apart (the row split into three pieces)."""
    boxes = [
        (40, 320, 82, 388),
        (81, 321, 118, 389),
        (120, 322, 162, 388),
        (164, 312, 201, 380),
        (205, 308, 241, 379),
        (244, 302, 283, 379),
        (286, 302, 331, 377),
        (330, 298, 375, 377),
        (373, 299, 420, 377),
        (423, 298, 459, 371),
        (463, 284, 508, 368),
        (519, 286, 564, 371),
        (562, 290, 615, 375),
    ]
    names = split("5559478991s574z")
    layout = reconstruct(
        [TileDetection(t, b) for t, b in zip(names, boxes, strict=True)], (640, 640)
    )
    assert layout.hand == hand("1455578999s457z", None), layout.warnings
    assert [t.group for t in layout.tiles] == ["hand"] * 13


def test_rule_1_a_row_end_tile_whose_box_lies_nearer_than_a_pitch_is_in_the_row() -> None:
    """The detector's box of the row's first tile shifted towards its neighbour (cut short on
    its far side): its centre lies 0.65 pitch from the next one. It is still the hand's first
    tile (§1: 13 tiles and the winning tile), not a stray tile beside the row."""
    t = Table()
    t.row("123p789s1122233z")
    t.put("3z", "win", gap=0.5)
    x1, y1, x2, y2 = t.tiles[0].box
    shift = 0.35 * A
    t.tiles[0] = TileDetection("1p", (x1 + shift, y1, x2 + shift * 0.6, y2), 0, 0.97)
    check(t, hand("123p789s1122233z", "3z"))


def test_ankan_with_face_down_ends() -> None:
    t = Table()
    t.row("123p678s1122z")  # no 9s in the row: the kan holds all four
    t.put("2z", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.row("99s", "meld")
    t.put("back", "meld")
    check(t, hand("123p678s1122z", "2z", ["ankan:9999s"]))


def test_ankan_of_red_fives_keeps_the_visible_red() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.put("0s", "meld")
    t.put("5s", "meld")
    t.put("back", "meld")
    check(t, hand("123p789s1122z", "2z", ["ankan:0555s"]))


def test_rule_3_ankan_of_plain_fives_counts_the_hidden_red_with_a_warning() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.row("55p", "meld")
    t.put("back", "meld")
    layout = check(t, hand("123p789s1122z", "2z", ["ankan:0555p"]), warnings=1)
    assert "face-down" in layout.warnings[0] and "0p" in layout.warnings[0]


def test_ankan_next_to_the_row_end_without_win_is_tenpai() -> None:
    t = Table()
    t.row("123p789s1122z")
    t.put("back", "meld", gap=0.7)
    t.row("11s", "meld")
    t.put("back", "meld")
    check(t, hand("123p789s1122z", None, ["ankan:1111s"]))


# ------------------------------------------------------------------------- kita and dora


def test_kita_singles_including_aka_5man() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("4z", "kita", gap=1.0)
    t.put("0m", "kita", gap=0.6)
    t.put("4z", "kita", gap=0.6)
    check(t, hand("123456p789s1122z", "2z", kita=3, kita_aka=1))


def test_rule_a4_sideways_kita_laid_close_after_the_winning_tile() -> None:
    """Kita laid sideways right after the winning tile, closer than the gap between sets: the
    winning tile stands alone, the norths are kita."""
    t = Table()
    t.row("123p456p789s1122z")
    t.put("5p", "win", gap=0.5)
    t.put("4z", "kita", gap=0.25, sideways=True)
    t.put("4z", "kita", gap=0.25, sideways=True)
    check(t, hand("123456p789s1122z", "5p", kita=2))


def test_north_on_the_line_close_to_the_row_is_the_winning_tile() -> None:
    t = Table()
    t.row("123p456p789s1114z")  # waits on the north (a pair): it completes the hand
    t.put("4z", "win", gap=0.4)
    layout = check(t, hand("123456p789s1114z", "4z"), warnings=1)
    assert "north" in layout.warnings[0]


def test_rule_a4_north_set_apart_after_a_row_of_14_tiles_is_kita() -> None:
    """§1, §A4: the row holds 13 tiles and the winning tile laid without a gap; a north set
    apart after it would be a 15th tile: an extracted kita. The row's last tile is the
    winning tile."""
    t = Table()
    t.row("22344445p23s444z", "hand")
    t.put("4s", "win")
    t.put("4z", "kita", gap=0.5)  # set apart as a winning tile would be
    layout = check(t, hand("22344445p23s444z", "4s", kita=1), warnings=None)
    assert any("15th" in w and "kita" in w for w in layout.warnings)


def test_rule_1_a_tile_set_apart_after_a_row_of_14_tiles_is_left_out() -> None:
    """§1: the row holds 13 tiles and the winning tile laid without a gap; a tile set apart
    after it (a flower the classifier read as 1s, a stray tile) would be a 15th tile: none of
    the hand's. The row's last tile is the winning tile, and a warning says so."""
    t = Table()
    t.row("123p456p789s1122z", "hand")
    t.put("2z", "win")
    t.put("1s", "other", gap=0.5, confidence=0.36)  # set apart as a winning tile would be
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=None)
    assert any("(1s) would be a 15th tile" in w and "left out" in w for w in layout.warnings)


def test_rule_1_a_back_in_the_row_makes_no_14th_tile_against_the_winning_tile() -> None:
    """13 face-up tiles and a back in the row, the winning tile set apart: the row holds 14
    boxes but 13 tiles read face up, so the tile set apart is the winning tile (not a 15th);
    the back is named to add by hand."""
    t = Table()
    t.row("123p456p", "hand")
    t.put("back", "hand")
    t.row("789s1122z", "hand")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=None)
    assert any(w.code == "hand_tile_unreadable" for w in layout.warnings)
    assert not any(w.code.startswith("fifteenth") for w in layout.warnings)


def test_north_set_apart_off_the_line_is_kita_and_the_hand_is_tenpai() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    det = t.put("4z", "kita", gap=0.4)
    x1, y1, x2, y2 = det.box
    t.tiles[-1] = TileDetection("4z", (x1, y1 - 0.25 * B, x2, y2 - 0.25 * B), 0, 0.97)
    check(t, hand("123456p789s1122z", None, kita=1))


def test_kita_after_melds() -> None:
    t = Table()
    hand_with_pon_of_7z(t)
    t.put("0m", "kita", gap=0.8)
    check(t, hand("234p5567899s", "9s", ["pon:777z"], kita=1, kita_aka=1))


def test_kita_laid_in_a_line_beyond_the_melds() -> None:
    t = Table(y=900.0)
    hand_with_pon_of_7z(t)
    meld_x = t.tiles[-3].box[0]
    t.elsewhere("4z", meld_x - 2.8 * A, 900 - 2.0 * B, "kita")  # in line with the 0m
    t.elsewhere("0m", meld_x - 1.0 * A, 900 - 2.0 * B, "kita")
    check(t, hand("234p5567899s", "9s", ["pon:777z"], kita=2, kita_aka=1))


def test_rule_a4_kita_beside_an_unsure_aka_5man_beyond_the_melds() -> None:
    """Two kita laid side by side beyond the melds, the second (an aka-5-man) read unsure as
    1m with 0m next: it is no discard beside the north, and in the kita's line it is a kita,
    re-read as 0m with a warning."""
    t = Table(y=900.0)
    hand_with_pon_of_7z(t)
    meld_x = t.tiles[-3].box[0]
    t.elsewhere("4z", meld_x, 900 - 2.0 * B, "kita")
    x = meld_x + 1.1 * A
    box = (x - A / 2, 900 - 2.0 * B - B / 2, x + A / 2, 900 - 2.0 * B + B / 2)
    t.tiles.append(TileDetection("1m", box, 0, 0.34, alternatives=(("0m", 0.17), ("5z", 0.15))))
    t.expect.append("kita")
    layout = check(t, hand("234p5567899s", "9s", ["pon:777z"], kita=2, kita_aka=1), None)
    assert any("read as 0m" in w for w in layout.warnings)


def test_rule_a4_a_kita_read_twice_beyond_the_melds_is_one_kita() -> None:
    """A sideways aka-5-man kita beyond the pon, also seen as an upright box read unsure as 0s
    (IoU 0.48, under the duplicate bar of 0.6): the second box is that kita again, no discard beside
    it that would make it part of a discard row (dev 650021)."""
    t = Table(y=900.0)
    hand_with_pon_of_7z(t)
    meld_x = t.tiles[-3].box[0]
    y = 900 - 2.0 * B
    kita = (meld_x - B / 2, y - A / 2, meld_x + B / 2, y + A / 2)  # sideways
    t.tiles.append(TileDetection("0m", kita, 90, 0.92))
    t.expect.append("kita")
    twin = (meld_x - 0.15 * B, y - 0.6 * A, meld_x - 0.15 * B + A, y - 0.6 * A + B)
    t.tiles.append(TileDetection("0s", twin, 0, 0.55, alternatives=(("7z", 0.11),)))
    t.expect.append("other")
    check(t, hand("234p5567899s", "9s", ["pon:777z"], kita=1, kita_aka=1))


def test_rule_a4_lone_north_far_beyond_the_melds_is_no_kita_with_a_warning() -> None:
    """A kita is set aside close beyond the melds; a lone north three and a half tile heights
    beyond the row (two and a half beyond the pon, a discard's place) is no kita, said."""
    t = Table(y=900.0)
    hand_with_pon_of_7z(t)
    meld_x = t.tiles[-3].box[0]
    t.elsewhere("4z", meld_x + 1.0 * A, 900 - 3.5 * B, "other")
    layout = check(t, hand("234p5567899s", "9s", ["pon:777z"]), warnings=1)
    assert "further than kita are laid" in layout.warnings[0]


def test_rule_a4_a_kita_with_a_discard_only_diagonally_beyond_it_is_a_kita() -> None:
    """Renders 650008, 600013: a north laid just beyond the pon, the next discard row's tile
    touching it only diagonally (half a tile along, a tile's height beyond): it is in no row
    with that discard, so a kita."""
    t = Table(y=900.0)
    hand_with_pon_of_7z(t)
    meld_x = t.tiles[-3].box[0]
    t.elsewhere("4z", meld_x + 0.5 * A, 900 - 1.8 * B, "kita")
    t.elsewhere("9p", meld_x + 0.5 * A - 0.8 * A, 900 - 2.8 * B, "other")
    check(t, hand("234p5567899s", "9s", ["pon:777z"], kita=1))


def test_rule_a4_a_north_in_line_with_a_discard_beyond_the_melds_is_no_kita() -> None:
    """Render 660088: a north in a line of discards (touching one beside it, or one right
    beyond it, as a side seat's discards run across) is a discard, no kita."""
    for dx, dy in ((1.05 * A, 0.0), (0.0, -1.05 * B)):
        t = Table(y=900.0)
        hand_with_pon_of_7z(t)
        meld_x = t.tiles[-3].box[0]
        t.elsewhere("4z", meld_x + 0.5 * A, 900 - 1.8 * B, "other")
        t.elsewhere("9p", meld_x + 0.5 * A + dx, 900 - 1.8 * B + dy, "other")
        check(t, hand("234p5567899s", "9s", ["pon:777z"]))


def test_dora_indicators_among_the_wall() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    dead_wall(t, 300.0, 150.0, 2, ["3p"], 2)
    check(t, hand("123456p789s1122z", "2z", dora=["3p"]))


def dead_wall(
    t: Table,
    x: float,
    y: float,
    before: int,
    dora: list[str],
    after: int,
    *,
    scale: float = 1.0,
    deg: float = 0.0,
    group: str = "dora",
    confidence: float = 0.97,
) -> None:
    """A dead wall on the table at (x, y): ``before`` backs, the indicators ``dora`` face up
    (expected in ``group``), ``after`` backs (expected ``other``)."""
    wall = Table(x=x, y=y, scale=scale, deg=deg)
    wall.row("b" * before)
    for tile in dora:
        wall.put(tile, group, confidence=confidence)
    wall.row("b" * after)
    t.tiles.extend(wall.tiles)
    t.expect.extend(["other"] * before + [group] * len(dora) + ["other"] * after)


def whole_table_pond(t: Table, x: float, y: float) -> None:
    """Another player's five discards (a row of three, the next of two) right before what is
    left of that player's wall, on a photo of the whole table (seen smaller: farther away)."""
    pitch = 1.05 * 0.8 * B  # one row behind the other
    for k, tiles in enumerate(("19p5s", "46s", "b" * 8)):  # the wall last, just beyond
        part = Table(x=x, y=y - k * pitch, scale=0.8)
        part.row(tiles)
        t.tiles.extend(part.tiles)
        t.expect.extend(["other"] * len(part.tiles))


def hand_beside_a_pond() -> Table:
    """The player's hand with its winning tile, and another player's pond up the photo (a
    photo of the whole table)."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    whole_table_pond(t, 100.0, 300.0)
    return t


def test_another_players_discards_beside_a_wall_are_no_dora() -> None:
    """Whole-table render 8400033: a pond touching its seat's wall read as five dora
    indicators; discards lie side by side, row behind row (ponds.py), the dead wall's
    indicator alone among backs."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    whole_table_pond(t, 400.0, 300.0)
    check(t, hand("123456p789s1122z", "2z"))
    dead_wall(t, 900.0, 150.0, 2, ["3p"], 2)  # with its indicator, elsewhere on the table
    check(t, hand("123456p789s1122z", "2z", dora=["3p"]))


def test_dora_indicators_in_a_wall_along_the_photos_height() -> None:
    """A dead wall seen from the side (it runs along the photo's height): two indicators
    (a kan dora) in its row, backs above and below."""
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    dead_wall(t, 900.0, 100.0, 1, ["3p", "7z"], 2, deg=90.0)
    check(t, hand("123456p789s1122z", "2z", dora=["3p", "7z"]))


def test_a_discard_beside_a_wall_is_no_dora_indicator() -> None:
    """Whole-table render 8450000: a discard lying just beyond a wall's row, touching it,
    makes one cluster with the backs but is not in their row. (Another player's pond, found
    elsewhere, says the photo shows the whole table.)"""
    t = hand_beside_a_pond()
    wall = Table(x=700.0, y=300.0, scale=0.8)
    wall.row("bbbbbb")
    t.tiles.extend(wall.tiles)
    t.expect.extend(["other"] * 6)
    t.elsewhere("6s", 700.0 + 2.5 * 0.8 * A, 300.0 - 1.1 * 0.8 * B, "other")
    check(t, hand("123456p789s1122z", "2z"))


def test_a_felt_patch_read_as_a_back_among_discards_makes_no_dead_wall() -> None:
    """Whole-table render 8450000: one false back among a pond's tiles, two backs of a wall
    across the pond: the pond's tiles are in no row holding two backs (on a photo of the
    whole table: another player's pond is found)."""
    t = hand_beside_a_pond()
    pond = Table(x=700.0, y=300.0)
    pond.row("4s")
    pond.put("back", "other")
    pond.row("6s")
    t.tiles.extend(pond.tiles)
    t.expect.extend(["other"] * 3)
    t.elsewhere("bb", 700.0 + A, 300.0 + 1.1 * B, "other")
    check(t, hand("123456p789s1122z", "2z"))


def test_an_indicator_on_a_wall_right_behind_a_pond_is_a_dora_indicator() -> None:
    """Whole-table render 8460000: the dead wall right behind its seat's pond, touching it;
    the indicator on the wall touches the pond's last row too, but lies inside the wall's row
    (backs on both sides), so the pond does not take it for a discard."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    pitch = 1.05 * 0.8 * B
    for k, tiles in enumerate(("19p5s4z", "46s8m")):  # the pond, row behind row
        part = Table(x=400.0, y=300.0 - k * pitch, scale=0.8)
        part.row(tiles)
        t.tiles.extend(part.tiles)
        t.expect.extend(["other"] * len(part.tiles))
    dead_wall(t, 400.0, 300.0 - 2 * pitch, 2, ["3p"], 4, scale=0.8)
    check(t, hand("123456p789s1122z", "2z", dora=["3p"]))


def test_on_a_whole_table_a_face_read_unsure_in_a_wall_is_no_dora_indicator() -> None:
    """Whole-table render 8460003: a far wall's back seen on its edge (the back's colour
    over the ivory side) read as an 8p at p 0.29 in the wall's row; on a photo of the whole
    table an indicator is read surely (``table_dora_sure``), so this is no dora. The same
    face read surely is one."""
    for confidence, group in ((0.29, "other"), (0.9, "dora")):
        t = hand_beside_a_pond()
        dead_wall(t, 800.0, 300.0, 2, ["8p"], 3, scale=0.8, group=group, confidence=confidence)
        check(t, hand("123456p789s1122z", "2z", **({"dora": ["8p"]} if group == "dora" else {})))


def test_on_a_whole_table_a_called_set_in_line_with_standing_tiles_is_no_dora() -> None:
    """Whole-table renders 8460007, 8460022 and 8460023: another player's called set lies at
    the end of that player's standing tiles (backs), in their line; an indicator lies inside
    the dead wall, with backs on both sides, never at a row's end."""
    t = hand_beside_a_pond()
    seat = Table(x=900.0, y=150.0, scale=0.8, deg=90.0)
    seat.row("bbbbbb")
    seat.row("3s3s")
    t.tiles.extend(seat.tiles)
    t.expect.extend(["other"] * 8)
    check(t, hand("123456p789s1122z", "2z"))


def test_on_a_whole_table_a_short_dead_wall_gives_its_indicators() -> None:
    """Whole-table render 8460032: a dead wall of four stacks, a back at each end and two
    indicators between them; one back on each side is enough."""
    t = hand_beside_a_pond()
    dead_wall(t, 800.0, 300.0, 1, ["1m", "2s"], 1, scale=0.8)
    check(t, hand("123456p789s1122z", "2z", dora=["1m", "2s"]))


def test_on_a_whole_table_a_wall_whose_stacks_are_boxed_off_its_line_gives_its_indicator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whole-table render 8460000: the dead wall's two-high stacks seen from the side are
    boxed some at the upper tile, some at the lower, so that their centres step up and down
    off the wall's line (here by 0.08 of a tile's size each way). Every other stack then lies
    0.32 of a tile from where the step points: within ``wall_straight``, the indicator is in
    the wall's row; with the old bar of a quarter tile it was not (the wall taken for no
    wall, its indicator for a discard)."""
    t = hand_beside_a_pond()
    dead_wall(t, 800.0, 300.0, 3, ["3p"], 3, scale=0.8)
    off = 0.08 * math.sqrt(A * B) * 0.8
    for k in range(-7, 0):
        x1, y1, x2, y2 = t.tiles[k].box
        dy = off if k % 2 else -off
        t.tiles[k] = replace(t.tiles[k], box=(x1, y1 + dy, x2, y2 + dy))
    check(t, hand("123456p789s1122z", "2z", dora=["3p"]))
    monkeypatch.setattr(walls, "S", replace(walls.S, wall_straight=0.25))
    t.expect[-4] = "other"
    check(t, hand("123456p789s1122z", "2z"))


def test_on_a_whole_table_a_pond_row_is_no_hand() -> None:
    """Whole-table renders 8460022 and 8460038: the player holds the hand standing, seen
    from behind; the longest row of faces in view is the player's own pond (six, the next
    row touching it, in front or beyond), read as a six-tile hand. A pond's row is no hand:
    no hand is read, a warning says why, and the dead wall's indicator is still read."""
    for pitch in (1.05 * B, -1.05 * B):  # the pond's next row in front of the row, or beyond
        t = Table(x=400.0, y=700.0)
        t.row("19p4567s", "other")
        t.elsewhere("2z7z", 400.0 + 0.5 * A, 700.0 + pitch, "other")
        whole_table_pond(t, 100.0, 300.0)  # another player's pond: a whole table
        dead_wall(t, 900.0, 150.0, 2, ["3p"], 2, scale=0.8)
        layout = check(t, {**hand("", None), "dora": ["3p"]}, warnings=1)
        assert "discard pond" in layout.warnings[0]


def test_on_a_whole_table_with_no_hand_laid_open_an_indicator_is_checked_as_any() -> None:
    """With no hand read (a pond's row), an indicator read as a middle manzu still gets the
    warning any indicator gets (sanity.py: no 2m–8m in sanma)."""
    t = Table(x=400.0, y=700.0)
    t.row("19p4567s", "other")
    t.elsewhere("2z7z", 400.0 + 0.5 * A, 700.0 + 1.05 * B, "other")
    whole_table_pond(t, 100.0, 300.0)
    dead_wall(t, 900.0, 150.0, 2, ["3m"], 2, scale=0.8)
    layout = check(t, {**hand("", None), "dora": ["3m"]}, warnings=2)
    assert "discard pond" in layout.warnings[0]
    assert layout.warnings[1].code == "read_2m_8m" and layout.warnings[1].params["place"] == "dora"


def test_a_short_row_with_no_faces_beside_it_is_still_read_as_the_hand() -> None:
    """A whole table's row of six faces with nothing touching it in front or beyond is read
    as the hand (short, with the count's warning), not set aside as a pond."""
    t = Table(x=400.0, y=700.0)
    t.row("19p4567s")
    whole_table_pond(t, 100.0, 300.0)
    layout = check(t, hand("19p4567s", None), warnings=None)
    assert not any("discard pond" in w for w in layout.warnings)


def test_lone_dora_indicator_beyond_the_hand_with_a_warning() -> None:
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.elsewhere("7z", 180, 900 - 2.2 * B, "dora")
    layout = check(t, hand("123456p789s1122z", "2z", dora=["7z"]), warnings=1)
    assert "dora" in layout.warnings[0]


def test_a_face_read_unsure_apart_from_any_wall_is_no_dora_indicator() -> None:
    """Clutter dev render 8,260,025: a red LED point display above the hand, read as a 0p at
    p 0.38, was taken for a lone indicator. With no wall's row to vouch for it, a group apart
    is an indicator only read at least ``loose_dora_sure``; the same face read surely is one."""
    for confidence, group in ((0.38, "other"), (0.9, "dora")):
        t = Table(y=900.0)
        t.row("123p456p789s1122z")
        t.put("2z", "win", gap=0.5)
        t.elsewhere("0p", 180, 900 - 2.2 * B, group)
        t.tiles[-1] = replace(t.tiles[-1], confidence=confidence)
        dora = {"dora": ["0p"]} if group == "dora" else {}
        check(t, hand("123456p789s1122z", "2z", **dora), warnings=None)


def test_distractors_discards_and_other_hands_are_other() -> None:
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.elsewhere("19p5s3z", 400, 500, "other")
    t.elsewhere("46s4z", 400, 560, "other")
    t.elsewhere("2s8p1z7z6z4s", 300, 120, "other")
    check(t, hand("123456p789s1122z", "2z"))


def test_longest_row_wins_over_a_discard_row() -> None:
    t = Table(y=900.0)
    t.elsewhere("1p2p3p4p5p6p", 300, 400, "other")
    t.row("2345678p99s1122z")
    t.put("2z", "win", gap=0.5)
    check(t, hand("2345678p99s1122z", "2z"))


def test_melded_short_row_beats_a_longer_discard_row() -> None:
    t = Table(y=900.0)
    t.elsewhere("1p2p3p4p5p6p", 300, 400, "other")
    t.row("2299s")
    t.put("2s", "win", gap=0.5)
    for tile in ("5z", "6z", "7z"):
        t.put(tile, "meld", gap=0.7, sideways=True)
        t.row(f"{tile[0]}{tile[0]}z", "meld")
    check(t, hand("2299s", "2s", ["pon:555z", "pon:666z", "pon:777z"]))


# ------------------------------------------------------------------------- warnings


def test_missing_tile_warns() -> None:
    t = Table()
    t.row("123p456p789s122z")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("123456p789s122z", "2z"), warnings=1)
    assert "12 concealed tiles, 13 expected" in layout.warnings[0]


def test_2m_warns_as_four_player_or_misread() -> None:
    t = Table()
    t.row("2m23p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("2m23456p789s1122z", "2z"), warnings=1)
    assert layout.warnings[0].code == "read_2m_8m"
    assert layout.warnings[0].params == {"place": "hand", "position": 1, "tile": "2m"}


def test_5m_is_read_as_aka_5man_with_a_warning() -> None:
    t = Table()
    t.row("123p456p789s112z")
    t.put("5m", "hand")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("0m123456p789s112z", "2z"), warnings=1)
    assert "aka-5-man" in layout.warnings[0]


def test_fifth_tile_warns() -> None:
    t = Table()
    t.row("1111p456p789s112z")
    t.put("1p", "win", gap=0.5)
    layout = check(t, hand("1111456p789s112z", "1p"), warnings=1)
    assert layout.warnings[0].code == "fifth_tile"
    assert layout.warnings[0].params == {"kind": "1p", "count": 5}
    assert layout.warnings[0].startswith("5 1p read, but only four exist: check the 1p tiles")


def test_low_confidence_tile_is_named() -> None:
    t = Table()
    t.row("12p")
    t.put("3p", "hand", confidence=0.41)
    t.row("456p789s1122z")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=1)
    assert layout.warnings[0] == "Tile 3 of the hand (3p) was read unsure (0.41): check it"
    assert layout.warnings[0].to_json() == {
        "code": "low_confidence",
        "params": {"place": "hand", "position": 3, "tile": "3p", "confidence": 0.41},
        "message": "Tile 3 of the hand (3p) was read unsure (0.41): check it",
    }


def test_two_candidates_for_the_win_tile_warn() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("9p", "other", gap=0.6)
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=1)
    assert layout.warnings[0].code == "win_two_candidates"


def test_14_touching_tiles_take_the_rightmost_as_win_with_warning() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win")
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=1)
    assert layout.warnings[0].code == "win_rightmost"


def test_empty_input() -> None:
    layout = reconstruct([], (640, 480))
    assert layout.hand == hand("", None)
    assert layout.warnings


def test_two_readings_on_one_tile_keep_the_surer_with_a_warning() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    x1, y1, x2, y2 = t.tiles[4].box  # the 5p
    t.tiles.append(TileDetection("6p", (x1 + 2, y1 + 1, x2 - 1, y2 - 2), 0, 0.55))
    t.expect.append("other")
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=1)
    assert layout.warnings[0].code == "two_readings" and layout.warnings[0].params["tile"] == "5p"


def test_unknown_labels_are_never_read_into_the_hand() -> None:
    t = Table()
    t.row("123p456p789s11z")
    t.put("flower", "hand")
    t.put("2z", "hand")
    t.put("2z", "win", gap=0.5)
    layout = check(t, hand("123456p789s112z", "2z"), warnings=2)
    assert layout.warnings[0].code == "hand_tile_unreadable"
    assert layout.warnings[0].params == {"position": 12}


def test_reconstructed_hands_are_accepted_by_the_engine() -> None:
    """The hand dict is ready for `sanma score` / `sanma tenpai` (CONTRACT hand JSON)."""
    service = pytest.importorskip("sanma_lens.engine.service")
    t = Table()
    t.row("234p678s1199s")
    t.put("9s", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.row("00p", "meld")
    t.put("back", "meld")
    t.put("0m", "kita", gap=0.8)
    layout = check(t, hand("234p1167899s", "9s", ["ankan:0000p"], kita=1, kita_aka=1))
    result = service.score_json({**layout.hand, "rules": {"aka_5man": True}})
    assert result["dora"]["kita"] >= 1 and result["dora"]["aka"] >= 4

    t = Table()
    t.row("123p456p789s1122z")
    tenpai = service.tenpai_json(t.read().hand)
    assert tenpai["tenpai"] and {w["tile"] for w in tenpai["waits"]} == {"1z", "2z"}


@pytest.mark.parametrize("clockwise", [0, 1])
def test_photo_turned_by_90_degrees_is_read_upright(clockwise: int) -> None:
    from sanma_lens.vision.layout import turn_tile

    t = Table()
    hand_with_pon_of_7z(t)
    t.put("0m", "kita", gap=0.8)
    w, h = 1600, 1200
    t.tiles = [turn_tile(d, w, h, clockwise) for d in t.tiles]
    layout = reconstruct(t.tiles, (h, w))
    assert layout.hand == hand("234p5567899s", "9s", ["pon:777z"], kita=1, kita_aka=1)
    assert [d.group for d in layout.tiles] == t.expect
    assert "turned by 90" in layout.warnings[0]


def test_hand_photographed_from_across_the_table_is_read_upside_down() -> None:
    """Slanted render 8360005: the photo taken from the far side of the hand (turned by
    180°) shows its winning tile, pon and kita left of the row; read upside down they lie
    right of it again, and a warning says so."""
    from sanma_lens.vision.layout.turn import turn_half

    t = Table()
    hand_with_pon_of_7z(t)
    t.put("4z", "kita", gap=0.8)
    t.put("4z", "kita", gap=0.3)
    w, h = 1600, 1200
    t.tiles = [turn_half(d, w, h) for d in t.tiles]
    layout = reconstruct(t.tiles, (w, h))
    assert layout.hand == hand("234p5567899s", "9s", ["pon:777z"], kita=2)
    assert [d.group for d in layout.tiles] == t.expect
    assert "across the table" in layout.warnings[0]
    assert [d.box for d in layout.tiles] == [d.box for d in t.tiles]  # the photo's own frame


def test_one_north_more_upside_down_leaves_the_photo_as_taken() -> None:
    """Clutter render 8050051: upside down, a stray tile beyond the row's far end reads as
    the winning tile and a lone north past it as a kita, one more tile taken and one set
    aside; most photos are taken from the player's seat, so that is no sign, and the north
    stays another tile."""
    t = Table()
    t.elsewhere("1m", 100.0 - 1.1 * A, 600.0, "other")
    t.elsewhere("4z", 100.0 - 3.0 * A, 600.0 - 0.3 * B, "other")
    t.row("123p456p789s1122z")
    t.put("3z", "win", gap=0.5)
    check(t, hand("123456p789s1122z", "3z"), warnings=None)


def test_upside_down_only_called_tiles_and_kita_count_as_set_aside() -> None:
    """Renders 900024 and 900102: read upside down, a row's triplets of upright tiles beside
    its melds were read as more pons, one tile more taken; upright sets alike are no sign of
    the hand's right end. The same sets with their called tiles sideways are."""
    from sanma_lens.vision.layout.turn import more_of_a_hand

    def reading(groups: list[str], called: bool, melds: int) -> Layout:
        """Tiles in ``groups``; each meld's first tile sideways when ``called``."""
        tiles = [
            TileDetection(
                "1p",
                (0.0, 0.0, 10.0, 14.0),
                90 if called and g == "meld" and groups[:k].count("meld") % 3 == 0 else 0,
                0.9,
                g,
            )
            for k, g in enumerate(groups)
        ]
        hand: dict[str, object] = {
            "hand": "1" * groups.count("hand") + "p",
            "win": None,
            "melds": ["pon:111p"] * melds,
            "kita": 0,
            "kita_aka": 0,
        }
        return Layout(tiles, hand, [])

    as_taken = reading(["hand"] * 13 + ["other"], False, 0)
    for called in (False, True):
        turned = reading(["hand"] * 8 + ["meld"] * 6, called, 2)
        assert more_of_a_hand(turned, as_taken, upside_down=True) is called


def test_pon_with_one_misread_tile_is_still_a_pon_with_a_warning() -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("6z", "meld", gap=0.7)  # a 2z misread as 6z
    t.put("2z", "meld")
    t.put("2z", "meld", sideways=True)
    layout = check(t, hand("234p5567899s", "9s", ["pon:222z"]), warnings=1)
    assert "mixes kinds" in layout.warnings[0]


def test_two_sideways_discards_of_other_kinds_are_no_meld() -> None:
    t = Table()
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("5p", "other", gap=1.5, sideways=True)
    t.put("3s", "other", on_top=True, sideways=True)
    check(t, hand("123456p789s1122z", "2z"), warnings=None)


def test_pon_whose_sideways_tile_was_read_upright_is_a_pon_with_a_warning() -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.row("777z", "meld", gap=0.7)
    layout = check(t, hand("234p5567899s", "9s", ["pon:777z"]), warnings=1)
    assert "no sideways tile" in layout.warnings[0]


def test_a_meld_tile_read_twice_counts_once() -> None:
    t = Table()
    t.row("234p678s5599s")
    t.put("9s", "win", gap=0.5)
    t.put("6p", "meld", gap=0.7)
    t.put("6p", "meld")
    side = t.put("6p", "meld", sideways=True)
    x1, y1, x2, y2 = side.box
    t.tiles.append(TileDetection("2p", (x1 - 14, y1, x2 - 14, y2), 0, 0.8))  # IoU 0.59
    t.expect.append("meld")
    layout = check(t, hand("234p5567899s", "9s", ["pon:666p"]), warnings=1)
    assert "2p lies on a 6p" in layout.warnings[0]


@pytest.mark.parametrize("deg", [0.0, -20.0])
def test_a_box_over_the_halves_of_two_row_tiles_is_no_tile(deg: float) -> None:
    """The detector saw the join of two touching row tiles as a third tile (a box midway
    between them, read unsure): no tile fits there, so it is left out with a warning, and the
    row keeps its 13 tiles and the winning tile (not 14 and the last as the winning tile)."""
    t = Table(deg=deg, y=900.0)
    t.row("123p456p789s11z", "hand")
    left, right = t.tiles[4].box, t.tiles[5].box
    box = tuple((a + b) / 2 for a, b in zip(left, right, strict=True))
    t.row("22z", "hand")
    t.put("2z", "win", gap=0.6)
    t.tiles.append(TileDetection("6p", box, 0, 0.22, alternatives=(("4p", 0.2),)))
    t.expect.append("other")
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=None)
    assert any(w.code == "straddling_box" for w in layout.warnings)


def test_a_box_over_the_gap_before_the_winning_tile_is_no_tile() -> None:
    """A box read unsure as a back over the small gap between the row's last tile and the
    winning tile set apart, half on each: no tile fits in that gap, so it is none (read as a
    face-up row tile, it would make the hand 14 tiles and no winning tile)."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z", "hand")
    last = t.tiles[-1].box
    win = t.put("2z", "win", gap=0.5).box
    box = tuple((a + b) / 2 for a, b in zip(last, win, strict=True))
    t.tiles.append(TileDetection("back", box, 0, 0.48, alternatives=(("5z", 0.08),)))
    t.expect.append("other")
    layout = check(t, hand("123456p789s1122z", "2z"), warnings=None)
    assert any(
        w.code == "straddling_box" and w.params["tile"] == "back" and w.params["confidence"] == 0.48
        for w in layout.warnings
    )


def test_steep_perspective_closes_the_gaps_and_the_count_cuts_the_row() -> None:
    """Under steep perspective the winning tile and kita nearly touch the row: the chain is
    too long for a hand, so it is cut where a link is widest against its neighbours."""
    t = Table(scale=1.6, shrink=0.95)
    t.row("66788p113899s12z")
    t.put("6s", "win", gap=0.1)
    t.put("0m", "kita", gap=0.28)
    t.put("4z", "kita", gap=0.15)
    t.put("4z", "kita", gap=0.15)
    layout = check(t, hand("66788p113899s12z", "6s", kita=3, kita_aka=1), warnings=None)
    assert any(w.code == "win_rightmost" for w in layout.warnings)


@settings(max_examples=30, deadline=None)
@given(
    deg=st.floats(-25, 25),
    scale=st.floats(0.6, 1.6),
    shrink=st.floats(0.97, 1.03),
    x=st.floats(20, 200),
    order=st.randoms(use_true_random=False),
)
def test_property_reading_is_invariant_to_tilt_scale_perspective_and_order(
    deg: float, scale: float, shrink: float, x: float, order: random.Random
) -> None:
    """The same table read at any tilt, size, perspective and detection order: same hand."""
    t = Table(x=x, y=700.0, deg=deg, scale=scale, shrink=shrink)
    t.row("234p678s1199s")
    t.put("9s", "win", gap=0.5)
    t.put("5z", "meld", gap=0.8, sideways=True)
    t.row("55z", "meld")
    t.put("back", "meld", gap=0.5)
    t.row("00p", "meld")
    t.put("back", "meld")
    t.put("4z", "kita", gap=0.8)
    pairs = list(zip(t.tiles, t.expect, strict=True))
    order.shuffle(pairs)
    t.tiles, t.expect = [p[0] for p in pairs], [p[1] for p in pairs]
    check(t, hand("234p1167899s", "9s", ["pon:555z", "ankan:0000p"], kita=1), warnings=None)


def test_rule_1_north_just_beyond_a_winning_tiles_gap_that_completes_the_hand_is_the_win() -> None:
    """§1: a lone north on the row's line set apart just further than a winning north lies
    (1.05 a, NORTH_GAP 0.95), after 13 tiles that it completes: the winning tile, with a
    warning (dev 660120 read it as a kita and the hand as tenpai); further out (1.3 a, the
    test below) the photo says kita."""
    t = Table()
    t.row("123p456p789s1114z")
    t.put("4z", "win", gap=1.05)
    layout = check(t, hand("123456p789s1114z", "4z"), warnings=1)
    assert layout.warnings[0].code == "north_far_win"


def test_mpsz_and_unpack_are_inverse() -> None:
    from sanma_lens.vision.layout.notation import unpack

    assert unpack("230p1z") == ["2p", "3p", "0p", "1z"]
    for text in ("19m1234506789p55s1234567z", "", "11z"):
        assert mpsz(unpack(text)) == text


def test_rule_a4_north_a_little_far_after_a_hand_it_may_complete_is_kita_with_a_warning() -> None:
    """§1, §A4: a lone north set apart a little further than a winning tile lies, after 13
    tiles that it completes (a north pair wait): the photo says kita, the hand says it may be
    the winning tile, so the kita reading carries a warning to check it."""
    t = Table()
    t.row("123p456p789s1114z")
    t.put("4z", "kita", gap=1.3)
    layout = check(t, hand("123456p789s1114z", None, kita=1), warnings=1)
    assert "north" in layout.warnings[0] and "winning tile" in layout.warnings[0]
