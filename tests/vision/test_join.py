"""vision/join.py: two reports on parts of one tile are read again as one box and joined when
the joint box reads surely; two whole tiles side by side are never joined."""

from __future__ import annotations

from sanma_lens.vision.join import join_parts, joint_box, part_pairs
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.types import Box, Reading, TileDetection


def _t(tile: str, box: Box, conf: float = 0.6) -> TileDetection:
    return TileDetection(tile, box, 0, conf)


def _row_with_a_split_4p() -> list[TileDetection]:
    """Five 40×60 tiles in a row; the fourth, a 4p, reported as its top and bottom halves."""
    row = [
        _t(t, (x, 0, x + 40, 60), 0.95) for t, x in (("1m", 0), ("2m", 42), ("3m", 84), ("9s", 168))
    ]
    return row + [_t("2p", (126, 0, 166, 29)), _t("2p", (126, 31, 166, 60))]


def test_two_halves_of_a_tile_that_read_surely_as_one_are_joined() -> None:
    tiles = _row_with_a_split_4p()
    assert [(i, j) for i, j, _ in part_pairs(tiles)] == [(4, 5)]
    seen: list[list[tuple[Box, bool]]] = []

    def read(cuts: list[tuple[Box, bool]]) -> list[Reading]:
        seen.append(cuts)
        return [("4p", 0.97, (("2p", 0.02),)) for _ in cuts]

    out, joined = join_parts(tiles, read)
    assert seen == [[((126, 0, 166, 60), False)]]
    assert [t.tile for t in out] == ["1m", "2m", "3m", "9s", "4p"]
    assert joined == [out[-1]] and out[-1].box == (126, 0, 166, 60)
    assert out[-1].alternatives == (("2p", 0.02),)


def test_an_unsure_or_not_a_tile_joint_reading_keeps_the_parts() -> None:
    tiles = _row_with_a_split_4p()
    unsure = SETTINGS.join_sure - 0.05
    for reading in (("4p", unsure, ()), ("none", 0.99, ()), ("flower", 0.99, ())):
        out, joined = join_parts(tiles, lambda cuts, r=reading: [r for _ in cuts])
        assert out == tiles and joined == []
    # a joint reading no surer than a part: the part stands
    sure_part = tiles[:4] + [_t("2p", (126, 0, 166, 29), 0.98), tiles[5]]
    out, joined = join_parts(sure_part, lambda cuts: [("4p", 0.95, ()) for _ in cuts])
    assert joined == []


def test_two_parts_read_alike_and_joined_alike_stay_two_tiles() -> None:
    """A pair (§1) of small tiles in a slanted row can pass for two parts of one tile, and the
    network reads their joint crop as that kind: never joined."""
    tiles = _row_with_a_split_4p()[:4] + [_t("4p", (126, 0, 166, 29)), _t("4p", (126, 31, 166, 60))]
    assert len(part_pairs(tiles)) == 1
    out, joined = join_parts(tiles, lambda cuts: [("4p", 0.99, ()) for _ in cuts])
    assert out == tiles and joined == []
    # parts read alike whose joint box reads another tile are parts: two 2p halves of a 4p
    halves = _row_with_a_split_4p()
    out, joined = join_parts(halves, lambda cuts: [("4p", 0.99, ()) for _ in cuts])
    assert [t.tile for t in joined] == ["4p"]


def test_parts_of_two_suits_are_two_tiles() -> None:
    """A part shows its tile's symbols: reports of two suits (or another suit than the joint
    reading) are two tiles, however the joint crop reads."""
    tiles = _row_with_a_split_4p()[:4] + [_t("6s", (126, 0, 166, 29)), _t("7z", (126, 31, 166, 60))]
    for joint in ("7s", "7z", "4p"):
        out, joined = join_parts(tiles, lambda cuts, j=joint: [(j, 0.99, ()) for _ in cuts])
        assert joined == [], joint
    halves = _row_with_a_split_4p()  # two 2p halves read as a 4s: not parts of a 4s
    assert join_parts(halves, lambda cuts: [("4s", 0.99, ()) for _ in cuts])[1] == []


def test_two_sure_readings_are_two_tiles() -> None:
    tiles = _row_with_a_split_4p()[:4] + [
        _t("6s", (126, 0, 166, 29), 0.93),
        _t("7s", (126, 31, 166, 60), 0.85),
    ]
    assert join_parts(tiles, lambda cuts: [("7s", 0.99, ()) for _ in cuts])[1] == []
    one_unsure = tiles[:5] + [_t("7s", (126, 31, 166, 60), 0.6)]
    assert len(join_parts(one_unsure, lambda cuts: [("7s", 0.99, ()) for _ in cuts])[1]) == 1


def test_whole_tiles_side_by_side_are_never_pairs() -> None:
    row = [_t("5p", (x, 0, x + 40, 60), 0.95) for x in range(0, 400, 42)]
    assert part_pairs(row) == []
    # two halves overlapping a lot are one tile seen twice (the doubles rule's case), not parts
    tiles = _row_with_a_split_4p()[:4] + [_t("2p", (126, 0, 166, 40)), _t("2p", (126, 15, 166, 60))]
    assert part_pairs(tiles) == []


def test_a_joint_box_holding_a_third_report_is_no_pair() -> None:
    tiles = _row_with_a_split_4p() + [_t("1p", (136, 20, 156, 40))]
    assert all({i, j} != {4, 5} for i, j, _ in part_pairs(tiles))
    assert joint_box((0, 0, 10, 10), (5, 20, 30, 25)) == (0, 0, 30, 25)
