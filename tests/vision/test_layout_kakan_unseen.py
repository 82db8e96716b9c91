"""§23 kakans with a tile unseen (vision/layout/melds.py, grouping.py): two sideways tiles, one
beyond the other, in a set of three boxes; a sideways tile lying beyond the line right after
two upright tiles of its kind (its called tile unseen); and the red fives of the aka-5-man
option padded red."""

from __future__ import annotations

from dataclasses import replace

from tests.vision.test_layout import Table, check, hand


def _hand(t: Table) -> None:
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)


def test_rule_23_two_sideways_one_beyond_the_other_in_three_boxes_are_a_kakan() -> None:
    t = Table()
    _hand(t)
    t.put("5s", "meld", gap=0.7)
    t.put("5s", "meld", sideways=True)
    t.put("5s", "meld", on_top=True, sideways=True)
    # the kakan's fourth tile, right of the called one, not found
    layout = check(t, hand("123p789s1122z", "2z", ["kakan:5555s"]), warnings=1)
    assert "fourth tile not seen" in layout.warnings[0]


def test_a_sideways_tile_seen_twice_in_place_stays_a_pon() -> None:
    t = Table()
    _hand(t)
    t.put("5s", "meld", gap=0.7)
    called = t.put("5s", "meld", sideways=True)
    x1, y1, x2, y2 = called.box
    # a second, smaller box on the called tile, in place (not beyond it); the set's third
    # tile not found
    t.tiles.append(replace(called, box=(x1 + 8, y1 + 3, x2 - 2, y2 - 1), confidence=0.6))
    t.expect.append("meld")
    layout = t.read()
    assert layout.hand["melds"] == ["pon:555s"]


def test_rule_23_an_added_tile_beyond_an_unseen_called_tile_makes_a_kakan() -> None:
    t = Table()
    _hand(t)
    t.row("66p", "meld", gap=0.7)
    t.put("6p", "meld", sideways=True)
    t.put("6p", "meld", on_top=True, sideways=True)
    t.tiles.pop(-2)  # the called tile under the added one: no box
    t.expect.pop(-2)
    layout = check(t, hand("123p789s1122z", "2z", ["kakan:6666p"]), warnings=1)
    assert "called tile under it not seen" in layout.warnings[0]


def test_a_sideways_discard_beyond_a_set_of_another_kind_is_no_added_tile() -> None:
    t = Table()
    _hand(t)
    t.row("66p", "meld", gap=0.7)
    t.put("6p", "meld", sideways=True)
    t.put("3s", "other", on_top=True, sideways=True)
    t.tiles.pop(-2)
    t.expect.pop(-2)
    assert "kakan" not in str(t.read().hand["melds"])


def test_aka_5man_option_two_red_fives_seen_pad_the_unseen_tile_red() -> None:
    """RULES.md Tiles: the base rule has one red 5s; two seen mean the aka-5-man option, under
    which all four 5s are red."""
    t = Table()
    _hand(t)
    t.put("0s", "meld", gap=0.7)
    t.put("0s", "meld", sideways=True)
    t.put("0s", "meld", on_top=True, sideways=True)
    layout = check(t, hand("123p789s1122z", "2z", ["kakan:0000s"]), warnings=1)
    assert "kakan:0000s" in layout.warnings[0]


def _across(left: str, right: str) -> Table:
    """A kakan called from across: upright, called (sideways, not found), its added tile lying
    beyond it (found), upright."""
    t = Table()
    _hand(t)
    t.put(left, "meld", gap=0.7)
    t.put("7z", "meld", sideways=True)
    t.put("7z", "meld", on_top=True, sideways=True)
    t.put(right, "meld")
    t.tiles.pop(-3)  # the called tile under the added one: no box
    t.expect.pop(-3)
    return t


def test_rule_23_an_added_tile_between_two_upright_tiles_of_its_kind_makes_a_kakan() -> None:
    layout = check(_across("7z", "7z"), hand("123p789s1122z", "2z", ["kakan:7777z"]), warnings=1)
    assert "called tile under it not seen" in layout.warnings[0]


def test_an_added_tile_between_tiles_of_other_kinds_joins_nothing() -> None:
    t = _across("7z", "3s")
    t.expect = [g if i < 14 else "other" for i, g in enumerate(t.expect)]
    assert "kakan" not in str(t.read().hand["melds"])
