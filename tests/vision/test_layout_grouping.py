"""Grouping right of the row (vision/layout/): hands whose shape the row stage alone cannot
see, built from hand-made detections (the ``Table`` of test_layout.py). Each test names the
rule of RULES.md it rests on."""

from __future__ import annotations

from dataclasses import replace

from tests.vision.test_layout import A, Table, check, hand


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
    check(t, hand("44p33067s", None, ["ankan:9999s", "pon:550p"]))


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
