"""vision/discards.py, the pond look: on a photo of the whole table, another player's discard
that the sift stage dropped as a double of its neighbour is a tile of its own, reported in no
part of the hand; a second hit on one tile stays dropped, and a hand alone gets no edit."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.vision.decoder import Goal, Hypothesis, Look, decode_hand, verdict
from sanma_lens.vision.discards import pond_edits
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection
from tests.vision.test_layout import B, Table, whole_table_pond

SIZE = (1600, 1200)


def _table() -> tuple[Table, list[TileDetection]]:
    """A hand with its winning tile, another player's pond before its wall, and two doubles:
    the pond's next discard (its box overlapping its neighbour's as far-off boxes do) and a
    second hit on one of the pond's tiles."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    whole_table_pond(t, 400.0, 300.0)
    last = t.tiles[-11]  # the pond's first row ends 1p 9p 5s: the 5s
    assert last.tile == "5s"
    x1, y1, x2, y2 = last.box
    w = x2 - x1
    beside = TileDetection("7z", (x2 - 0.2 * w, y1, x2 + 0.8 * w, y2), 0, 0.8)
    again = TileDetection("5s", (x1 + 0.1 * w, y1 + 0.05 * B, x2 + 0.1 * w, y2), 0, 0.6)
    return t, [beside, again]


def test_a_discard_dropped_as_a_double_beside_a_pond_is_reported_as_other() -> None:
    t, doubles = _table()
    now = Hypothesis(tuple(t.tiles), reconstruct(t.tiles, SIZE))
    edits = pond_edits(now, doubles)
    assert [e.placed for e in edits] == [(doubles[0],)]  # the second hit on the 5s stays out
    edit = edits[0]
    assert edit.goal is Goal.REREAD
    again = reconstruct(list(edit.tiles), SIZE)
    assert verdict(now, edit, again)
    assert again.hand == now.layout.hand
    assert [x.group for x in again.tiles if x.box == doubles[0].box] == ["other"]


def test_the_decoder_takes_the_pond_edit_and_the_hand_stays() -> None:
    t, doubles = _table()
    start = Hypothesis(tuple(t.tiles), reconstruct(t.tiles, SIZE))
    chosen = decode_hand(start, [Look("pond", lambda now: pond_edits(now, doubles))], SIZE)
    assert doubles[0] in chosen.tiles and doubles[1] not in chosen.tiles
    assert chosen.layout.hand == start.layout.hand
    assert chosen.warnings == start.warnings


def test_a_hand_alone_gets_no_pond_edit() -> None:
    """No pond outside the player's area: a double is no discard (a kakan's added tile is
    weighed by its own look)."""
    t = Table(y=900.0)
    t.row("123p456p789s1122z")
    t.put("2z", "win", gap=0.5)
    near = replace(
        t.tiles[3],
        tile="4p",
        confidence=0.7,
        box=tuple(
            v + 0.7 * (t.tiles[3].box[2] - t.tiles[3].box[0]) * (k % 2 == 0)
            for k, v in enumerate(t.tiles[3].box)
        ),
    )
    now = Hypothesis(tuple(t.tiles), reconstruct(t.tiles, SIZE))
    assert pond_edits(now, [near]) == []
