"""§1: a row of 15 faces (no melds) holds one tile too many; an unsure end tile whose removal
leaves a winning hand is left out (vision/layout/reading.py ``_one_too_many``)."""

from __future__ import annotations

from tests.vision.test_layout import Table, check, hand


def _won_row_and(extra_confidence: float) -> Table:
    t = Table()
    t.row("123p456p789s11122z")  # 14 tiles, the winning 2z laid touching the row
    t.expect[-1] = "win"
    t.put("5z", "other", confidence=extra_confidence)  # a stray box touching its end
    return t


def test_rule_1_an_unsure_15th_tile_at_the_rows_end_is_left_out() -> None:
    t = _won_row_and(0.3)
    layout = check(t, hand("123456p789s1112z", "2z"), warnings=None)
    assert any("one tile too many" in w and "5z" in w for w in layout.warnings)


def test_a_15th_tile_read_surely_stays_for_the_player_to_check() -> None:
    t = _won_row_and(0.95)
    assert len(t.read().hand["hand"]) > len("123456p789s1112z")
