"""Grouping right of the row (vision/layout/): hands whose shape the row stage alone cannot
see, built from hand-made detections (the ``Table`` of test_layout.py). Each test names the
rule of RULES.md it rests on."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection
from tests.vision.test_layout import A, B, Table, check, hand


def _four_pons(t: Table, gap: float) -> None:
    """Four called pons right of the hand, each with its sideways tile at another place."""
    t.put("1z", "meld", gap=gap, sideways=True)
    t.row("11z", "meld")
    t.row("22z", "meld", gap=0.5)
    t.put("2z", "meld", sideways=True)
    t.put("3z", "meld", gap=0.5)
    t.put("3z", "meld", sideways=True)
    t.put("3z", "meld")
    t.row("99s", "meld", gap=0.5)
    t.put("9s", "meld", sideways=True)


FOUR_PONS = ["pon:111z", "pon:222z", "pon:333z", "pon:999s"]


def test_rule_1_tanki_tenpai_one_concealed_tile_beside_four_melds() -> None:
    # 13 tiles at a draw: one concealed tile alone, no chain of side-by-side tiles to be the row
    t = Table()
    t.put("8p", "hand")
    _four_pons(t, gap=1.2)
    check(t, hand("8p", None, FOUR_PONS))


def test_rule_1_tanki_win_set_apart_beside_four_melds() -> None:
    t = Table()
    t.put("5p", "hand")
    t.put("5p", "win", gap=0.7)
    _four_pons(t, gap=1.0)
    check(t, hand("5p", "5p", FOUR_PONS))


def test_rule_1_tanki_winning_tile_laid_close_among_many_discard_rows() -> None:
    # the winning tile laid almost touching the tanki tile: a two-tile chain, but nine rows of
    # three discards outrank it among the candidate rows; the one-tile reading takes the
    # close tile as its winning tile (with a warning), not the winning tile as a lone row
    t = Table(y=900.0)
    t.put("5p", "hand")
    t.put("5p", "win", gap=0.1)
    _four_pons(t, gap=1.0)
    for i in range(9):
        t.elsewhere("147p", 100.0 + (i % 3) * 5 * A, 150.0 + (i // 3) * 2.5 * A, "other")
    layout = check(t, hand("5p", "5p", FOUR_PONS), warnings=1)
    assert "barely set apart" in layout.warnings[0]


def test_rule_1_tanki_in_a_tilted_photo() -> None:
    # the one tile gives no direction: the melds' upright tiles do (the image's x axis would
    # miss the first meld, 1.5 tile widths away on a row tilted by 18°)
    t = Table(deg=-18.0, y=900.0)
    t.put("8p", "hand")
    _four_pons(t, gap=1.5)
    check(t, hand("8p", None, FOUR_PONS))


def test_rule_1_tanki_tile_close_to_a_pon_is_no_row_with_its_tiles() -> None:
    # the lone tile and the first pon's upright tiles line up as a chain (the gap is within a
    # link's reach); read so, the hand would need the pon made up from two tiles
    t = Table()
    t.put("3s", "hand")
    t.put("6s", "meld", gap=0.5)
    t.put("6s", "meld")
    t.put("6s", "meld", sideways=True)
    t.put("4z", "meld", gap=0.5)
    t.put("4z", "meld")
    t.put("4z", "meld", sideways=True)
    t.row("44s", "meld", gap=0.5)
    t.put("4s", "meld", sideways=True)
    t.row("33z", "meld", gap=0.5)
    t.put("3z", "meld", sideways=True)
    check(t, hand("3s", None, ["pon:666s", "pon:444z", "pon:444s", "pon:333z"]))


def test_rule_1_row_end_tile_a_little_apart_and_the_winning_tile_further() -> None:
    # the row's last tile lies a little apart (uneven boxes cut the chain there), the winning
    # tile further: read with the last tile as the winning tile, the true one is left over
    t = Table()
    t.row("123p456s789s111z")
    t.put("2z", "hand", gap=0.4)
    t.put("2z", "win", gap=0.7)
    check(t, hand("123p456789s1112z", "2z"))


def test_rule_1_a_box_off_its_tile_cuts_no_row() -> None:
    # a detector box lying 0.4 tile widths right of its tile: the link before it looks like a
    # gap, but the short link after it makes up for it (two links, two pitches)
    t = Table()
    t.row("44p3306s7s")
    t.put("back", "meld", gap=1.0)
    t.row("99s", "meld")
    t.put("back", "meld")
    t.put("5p", "meld", gap=0.6)
    t.put("0p", "meld")
    t.put("5p", "meld", sideways=True)
    x1, y1, x2, y2 = t.tiles[3].box
    t.tiles[3] = replace(t.tiles[3], box=(x1 + 0.4 * A, y1, x2 + 0.4 * A, y2))
    check(t, hand("44p33067s", None, ["ankan:9999s", "pon:055p"]))


def test_rule_a4_sideways_aka_5man_kita_laid_close_after_a_pon() -> None:
    # §A4: a kita may be laid sideways; right after a called pon of another kind it is no
    # second called tile of that set (a pon shows one sideways tile)
    t = Table()
    t.row("067p340s2777z")
    t.put("2z", "win", gap=0.6)
    t.put("3s", "meld", gap=1.0)
    t.put("3s", "meld")
    t.put("3s", "meld", sideways=True)
    t.put("0m", "kita", gap=0.1, sideways=True)
    check(t, hand("067p340s2777z", "2z", ["pon:333s"], kita=1, kita_aka=1))


def _three_more(t: Table) -> None:
    t.put("4p", "meld", gap=0.8)
    t.put("4p", "meld", sideways=True)
    t.put("4p", "meld")
    t.row("99s", "meld", gap=0.6)
    t.put("9s", "meld", sideways=True)
    t.put("2s", "meld", gap=0.6, sideways=True)
    t.row("22s", "meld")


def test_rule_1_tanki_pair_touching_a_pon_is_no_row_with_its_tiles() -> None:
    # hand and winning tile side by side, a pon laid right after them: the chain of upright
    # tiles runs on into the pon's two upright tiles (its called tile sideways after them)
    t = Table()
    t.put("3s", "hand")
    t.put("3s", "win", gap=0.05)
    t.row("11s", "meld", gap=0.1)
    t.put("1s", "meld", sideways=True)
    _three_more(t)
    check(
        t,
        hand("3s", "3s", ["pon:111s", "pon:444p", "pon:999s", "pon:222s"]),
        warnings=None,
    )


def test_rule_23_tanki_pair_run_on_into_a_pon_whose_called_tile_was_reported_upright() -> None:
    # dev render 970219: tanki tile and winning tile side by side, a pon laid close after them
    # with its called tile (last) reported upright: the chain runs on through the pon, and
    # as a five-tile row beside three pons it counts 14 tiles too; but the called tile's box
    # is clearly wider for its height than its neighbours': it lies sideways, a meld's (§23)
    t = Table()
    t.put("1m", "hand")
    t.put("7z", "win", gap=0.1)
    t.row("11m", "meld", gap=0.1)
    t.put("1m", "meld", sideways=True, reported=0)
    _three_more(t)
    layout = check(
        t,
        hand("1m", "7z", ["pon:111m", "pon:444p", "pon:999s", "pon:222s"]),
        warnings=None,
    )
    assert any(w.code == "row_or_meld" for w in layout.warnings)


def test_rule_1_tanki_tile_in_tenpai_beside_a_minkan_is_no_row_with_its_first_tile() -> None:
    # dev render 970254: a tanki tile (13 tiles, no winning tile) and a minkan laid a little
    # apart after it, its first tile upright: the lone tile and that tile chain up as a row,
    # read with the 7z as the winning tile beside a pon; both readings count 13-14 tiles, but
    # only the one-tile row is in tenpai (§1), and a one-tile row is no chain rejoined
    t = Table()
    t.put("3s", "hand")
    t.put("7z", "meld", gap=0.45)
    t.put("7z", "meld", sideways=True)
    t.row("77z", "meld")
    _three_more(t)
    layout = check(
        t,
        hand("3s", None, ["minkan:7777z", "pon:444p", "pon:999s", "pon:222s"]),
        warnings=None,
    )
    assert any(w.code == "row_by_shape" for w in layout.warnings)


def test_rule_1_tanki_tile_stands_apart_from_what_follows_it() -> None:
    # first detections of a rendered tanki hand (1s + winning 1s set apart, four pons; the
    # 4p pon with a second box read 2p): the pon's first 4p, touching the next, is no lone
    # concealed tile although the rest of that pon and the three others make four sets
    def d(
        tile: str,
        box: tuple[int, ...],
        angle: int,
        conf: float,
        alts: tuple[tuple[str, float], ...],
    ) -> TileDetection:
        return TileDetection(tile, tuple(float(v) for v in box), angle, conf, "other", alts)

    tiles = [
        d("1p", (1105, 629, 1175, 711), 0, 0.9546, alts=()),
        d("0p", (888, 594, 964, 675), 0, 0.9704, alts=()),
        d("5p", (951, 603, 1022, 685), 0, 0.9343, alts=()),
        d("6z", (331, 299, 403, 384), 0, 0.9112, alts=(("1s", 0.0564),)),
        d("6z", (275, 289, 343, 377), 0, 0.9277, alts=()),
        d("2z", (547, 537, 615, 621), 0, 0.981, alts=()),
        d("2z", (605, 543, 679, 632), 0, 0.9405, alts=()),
        d("1p", (1041, 622, 1116, 703), 0, 0.9504, alts=()),
        d("1s", (94, 461, 177, 552), 0, 0.7696, alts=(("1z", 0.1467),)),
        d("3s", (602, 168, 684, 257), 0, 0.9625, alts=()),
        d("7z", (566, 82, 631, 164), 0, 0.8273, alts=(("1m", 0.0457),)),
        d("1s", (192, 478, 275, 564), 0, 0.9333, alts=()),
        d("5p", (815, 602, 901, 666), 90, 0.9752, alts=()),
        d("6z", (554, 162, 621, 246), 0, 0.9471, alts=(("1s", 0.0328),)),
        d("3s", (619, 89, 694, 174), 0, 0.9766, alts=()),
        d("4p", (331, 504, 402, 579), 0, 0.9346, alts=(("2p", 0.0306),)),
        d("1p", (1168, 661, 1245, 721), 90, 0.9683, alts=()),
        d("1s", (678, 99, 747, 181), 0, 0.9555, alts=()),
        d("4p", (388, 514, 455, 587), 0, 0.8426, alts=(("2p", 0.117),)),
        d("5s", (662, 175, 734, 263), 0, 0.9697, alts=()),
        d("2z", (669, 578, 746, 640), 90, 0.9724, alts=()),
        d("4p", (463, 544, 533, 602), 90, 0.9227, alts=(("2p", 0.0458),)),
        d("2p", (440, 537, 501, 599), 0, 0.8728, alts=(("4p", 0.0383),)),
    ]
    layout = reconstruct(tiles, (1280, 960))
    assert layout.hand == hand("1s", "1s", ["pon:222z", "pon:055p", "pon:111p", "pon:444p"])


def test_rule_a4_kita_touching_the_end_of_a_14_tile_row() -> None:
    # the winning tile not set apart and a kita laid right after it, in line: 15 tiles in one
    # chain, too many for a hand; without the north it is the 14 (§1), the north a kita
    t = Table()
    t.row("12356777899p55s")
    t.put("8p", "win")
    t.put("4z", "kita", gap=0.05)
    check(t, hand("12356777899p55s", "8p", kita=1), warnings=None)


def test_rule_23_a_tile_touching_a_pon_with_only_a_trace_of_its_kind_is_no_fourth_tile() -> None:
    """A pon of norths and, touching its end, an upright tile read unsure as 5z with a trace of
    a north next (0.09, under ADDED_ALT: a flower cut by the photo's edge, dev 650134). It is
    no fourth north (a minkan, its 5z re-read as a north at 0.09): the pon stays a pon and the
    tile is left out, named in a warning."""
    t = Table()
    t.row("4550p456s")
    t.put("6p", "win", gap=0.5)
    t.put("3z", "meld", gap=0.8)
    t.put("3z", "meld")
    t.put("3z", "meld", sideways=True)
    t.put("4z", "meld", gap=0.5, sideways=True)
    t.row("44z", "meld")
    stray = t.put("5z", "other")
    t.tiles[-1] = replace(stray, confidence=0.19, alternatives=(("4z", 0.09), ("7z", 0.07)))
    layout = check(t, hand("4550p456s", "6p", ["pon:333z", "pon:444z"]), warnings=None)
    assert any("5z further right" in w for w in layout.warnings), layout.warnings
    assert not any("read as 4z" in w for w in layout.warnings), layout.warnings


def test_rule_a4_a_north_touching_the_end_of_a_tenpai_hand_it_does_not_complete_is_a_kita() -> None:
    """13 tiles in tenpai (waiting on 9p/5s) and a kita laid touching the row's end, more kita
    set apart after it: 14 tiles in the chain, but the north makes no winning hand with the
    13 (§1), so it is a kita (§A4), not the winning tile (dev 960273); a north that completes
    the hand stays the winning tile."""
    t = Table()
    t.row("78999p55666789s")
    t.put("4z", "kita", gap=0.05)
    t.put("4z", "kita", gap=0.5)
    layout = check(t, hand("78999p55666789s", None, kita=2), warnings=None)
    assert any("read as a kita laid touching the hand" in w for w in layout.warnings)
    t = Table()
    t.row("78999p555666s44z")
    t.put("4z", "win", gap=0.05)
    layout = check(t, hand("78999p555666s44z", "4z"), warnings=None)
    assert any(w.code == "win_rightmost" and w.params == {"tile": "4z"} for w in layout.warnings)


def test_rule_23_a_minkan_with_one_tile_unseen_in_a_hole_between_its_tiles() -> None:
    """A minkan 0s 5s 5s 5s (its last tile sideways) whose second tile the detector missed: a
    lone 0s, a hole of one tile, then a 5s and the sideways 5s. Read as a pon with its third
    tile unseen, the 0s was left over (a second winning-tile candidate); the hole says the
    missing tile lies between: a minkan, with a warning (dev 650298, 660170)."""
    t = Table()
    t.row("78p67777889s")
    t.put("9p", "win", gap=0.5)
    t.put("0s", "meld", gap=0.8)
    t.put("5s", "meld", gap=1.0)  # the hole of the 5s not found
    t.put("5s", "meld", sideways=True)
    layout = check(t, hand("78p67777889s", "9p", ["minkan:0555s"]), warnings=None)
    assert any(w.code == "minkan_hole" for w in layout.warnings), layout.warnings
    assert not any(w.code == "win_two_candidates" for w in layout.warnings), layout.warnings


def test_rule_1_an_unsure_back_touching_the_winning_tile_is_no_tile_of_a_set() -> None:
    """The winning tile set apart, and touching it a box read face-down unsure (0.58: a
    shadow the detector took for a tile's back, dev 960215). Face-up tile and back make no set
    (an ankan shows two backs around two faces, §23): the back lies apart, and the lone tile
    is the winning tile (before, the pair was a group that read as no meld, and the winning
    tile was lost)."""
    t = Table()
    t.row("40000p33z")
    t.put("3p", "win", gap=0.7)
    back = t.put("back", "other", gap=-0.2)
    t.tiles[-1] = replace(back, confidence=0.58)
    t.row("77s", "meld", gap=1.0)
    t.put("7s", "meld", sideways=True)
    t.row("99p", "meld", gap=1.0)
    t.put("9p", "meld", sideways=True)
    layout = check(t, hand("40000p33z", "3p", ["pon:777s", "pon:999p"]), warnings=None)
    assert not any("lone tile" in w for w in layout.warnings), layout.warnings


def test_rule_23_a_concealed_kan_with_one_end_unseen_when_the_hand_needs_it() -> None:
    """An ankan laid back, 6p, 6p, back whose first back the detector missed: two faces and a
    back, no meld as seen (warned, the hand three tiles short). The hand needs the set (§1):
    a concealed kan with one face-down end not seen, with a warning (dev 960051)."""
    t = Table()
    t.row("11m123p333s33z")
    t.put("3z", "win", gap=0.6)
    t.row("66p", "meld", gap=2.0)  # its first back (a tile wide) not found
    t.put("back", "meld")
    layout = check(t, hand("11m123p333s33z", "3z", ["ankan:6666p"]), warnings=None)
    assert any("one face-down end not seen" in w for w in layout.warnings), layout.warnings
    assert not any("not two face-down ends" in w for w in layout.warnings), layout.warnings


def test_rule_23_a_called_tile_seen_as_an_upright_and_a_sideways_box_is_one_tile() -> None:
    """A pon 4p 4p 4p whose called (sideways) tile the detector also saw as an upright box,
    read 2p, in the same slot along the row and on the set's line (IoU under the duplicate
    bar): four boxes with a sideways one, but not a minkan (its four tiles lie side by side)
    nor a kakan (the added tile lies beyond the called one): one tile seen twice, a pon, with
    a warning (dev 970204 read minkan:4444p)."""
    t = Table()
    t.row("389p7s237z")
    t.put("4p", "meld", gap=1.0)
    t.put("4p", "meld")
    called = t.put("4p", "meld", sideways=True)
    x1, y1, x2, y2 = called.box
    box = (x1 - 0.3 * A, y2 - B, x1 - 0.3 * A + A, y2)  # upright, over the called tile's left
    t.tiles.append(TileDetection("2p", box, 0, 0.92))
    t.expect.append("meld")
    layout = check(t, hand("389p7s237z", None, ["pon:444p"]), warnings=None)
    assert any(w.code == "set_double_box" for w in layout.warnings)


def test_rule_23_a_kakan_with_its_fourth_tile_unseen_shows_its_called_and_added_tiles() -> None:
    """Three 9p right of the hand, two of them sideways one beyond the other (a kakan's called
    and added tiles) and the third reported sideways too (dev 650190: two touching upright
    tiles seen as one turned box): a pon shows one sideways tile, so this is the kakan, its
    fourth tile unseen, with a warning."""
    t = Table()
    t.row("12344p111s22z")
    t.put("7z", "win", gap=1.2)
    t.put("9p", "meld", gap=1.0, sideways=True)
    t.put("9p", "meld", sideways=True)
    t.put("9p", "meld", on_top=True, sideways=True)
    layout = check(t, hand("12344p111s22z", "7z", ["kakan:9999p"]), warnings=1)
    assert "fourth tile not seen" in layout.warnings[0]


def test_rule_23_two_sideways_tiles_side_by_side_in_a_loose_pon_make_no_kakan() -> None:
    """The same three 9p with the two sideways ones side by side on the set's line: no tile
    lies beyond another, so a pon (its turns misreported), not a kakan."""
    t = Table()
    t.row("12344p111s22z")
    t.put("7z", "win", gap=1.2)
    t.put("9p", "meld", gap=1.0)
    t.put("9p", "meld", sideways=True)
    t.put("9p", "meld", sideways=True)
    check(t, hand("12344p111s22z", "7z", ["pon:999p"]), warnings=1)


def _pon_with_a_1p_beyond(shift: float) -> Table:
    """A hand, its winning tile, pon:888s and three 1p whose called tile the detector reported
    upright (a tilted row, dev 950072), and one more 1p reported upright beyond that called
    tile, moved across the row by ``shift`` × the called tile's depth."""
    t = Table()
    t.row("6789p222s")
    t.put("9p", "win", gap=1.2)
    t.put("8s", "meld", gap=1.0)
    t.put("8s", "meld", sideways=True)
    t.put("8s", "meld")
    t.put("1p", "meld", gap=0.5)
    t.put("1p", "meld")
    x1, y1, x2, y2 = t.put("1p", "meld", sideways=True, reported=0).box
    depth = y2 - y1
    t.tiles.append(TileDetection("1p", (x1, y1 - shift * depth, x2, y2 - shift * depth), 0, 0.97))
    return t


def test_rule_23_a_kakan_whose_called_and_added_tiles_were_both_reported_upright() -> None:
    """The added 1p touches the called one from beyond (their boxes overlap, as a kakan's
    sideways tiles' bodies do): the kakan, though the detector saw neither turned."""
    t = _pon_with_a_1p_beyond(0.8)
    t.expect.append("meld")
    check(t, hand("6789p222s", "9p", ["pon:888s", "kakan:1111p"]), warnings=1)


def test_rule_23_a_tile_of_a_pons_kind_a_little_apart_beyond_it_is_no_added_tile() -> None:
    """The same 1p lying a little apart beyond the set (a dora indicator or a discard of the
    kind, dev 970048): no overlap, so no added tile; the set stays a pon."""
    t = _pon_with_a_1p_beyond(1.1)
    t.expect.append("other")
    check(t, hand("6789p222s", "9p", ["pon:888s", "pon:111p"]), warnings=1)
