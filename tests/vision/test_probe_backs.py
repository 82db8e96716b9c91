"""The ankan probe (vision/backs.py): hits read as no tile that may be backs are tried as a
concealed kan's face-down ends when the hand is exactly a set short (§1, §23)."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.vision.backs import maybe_backs
from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying, verdict
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection
from tests.vision.looking import look_for_ankan_ends
from tests.vision.test_layout import Table

SIZE = (1600, 1200)


def _ankan_ends_read_as_no_tile() -> tuple[Table, list[TileDetection]]:
    """A hand with its winning tile and an ankan of norths right of it (dev render 600098),
    whose two backs the classifier read ``none`` with ``back`` next: returns the table without
    the backs and the two dropped hits."""
    t = Table()
    t.row("123p678s1122z")
    t.put("2z", "win", gap=0.5)
    t.put("back", "meld", gap=0.7)
    t.row("44z", "meld")
    t.put("back", "meld")
    ends = [t.tiles.pop(-1), t.tiles.pop(-3)]
    dropped = [replace(d, tile="none", confidence=0.3, alternatives=(("back", 0.2),)) for d in ends]
    return t, dropped


def test_rule_23_two_ends_read_as_no_tile_around_two_alike_make_the_short_hand_an_ankan() -> None:
    t, dropped = _ankan_ends_read_as_no_tile()
    first = reconstruct(t.tiles, SIZE)
    # the two norths alone read as kita: the hand three tiles short
    assert first.hand["melds"] == [] and first.hand["kita"] == 2
    dets, lay = look_for_ankan_ends(t.tiles, first, maybe_backs(dropped), SIZE)
    assert lay.hand["melds"] == ["ankan:4444z"] and lay.hand["kita"] == 0
    assert lay.hand["hand"] == "123p678s1122z" and lay.hand["win"] == "2z"
    assert len(dets) == len(t.tiles) + 2
    assert sum("may be a face-down tile" in w for w in lay.warnings) == 2


def test_a_hit_read_as_no_tile_is_tried_as_a_back_only_when_back_is_likely() -> None:
    hit = TileDetection("none", (0.0, 0.0, 40.0, 54.0), 0, 0.3, "other", (("5z", 0.25),))
    assert maybe_backs([hit]) == []
    likely = replace(hit, alternatives=(("5z", 0.25), ("back", 0.19)))
    assert [(b.tile, b.confidence) for b in maybe_backs([likely])] == [("back", 0.19)]


def test_no_ankan_is_read_where_the_hand_is_whole_or_the_backs_make_no_kan() -> None:
    t, dropped = _ankan_ends_read_as_no_tile()
    whole = [*t.tiles, *(replace(d, tile="back", confidence=0.9) for d in dropped)]
    lay = reconstruct(whole, SIZE)
    assert look_for_ankan_ends(whole, lay, maybe_backs(dropped), SIZE) == (whole, lay)
    first = reconstruct(t.tiles, SIZE)
    far = [replace(d, box=tuple(v + 400 for v in d.box)) for d in dropped]
    assert look_for_ankan_ends(t.tiles, first, maybe_backs(far), SIZE) == (t.tiles, first)


def test_an_ankan_must_keep_the_concealed_tiles_and_the_winning_tile() -> None:
    first = reconstruct([], SIZE)
    back = TileDetection("back", (0.0, 0.0, 40.0, 54.0), 0, 0.2)
    short = replace(first, hand={"hand": "123p678s1122z99s", "win": "2z", "melds": []})
    kan = replace(
        first,
        tiles=[replace(back, group="meld")],
        hand={"hand": "123p678s1122z", "win": "2z", "melds": ["ankan:4444z"]},
    )
    # as ankan_edits proposes it
    end = Edit(
        "ankan",
        Goal.ANKAN,
        (back,),
        (back,),
        saying(),
        lands=frozenset({"meld"}),
        keeps=frozenset({"hand", "win"}),
    )
    assert not verdict(Hypothesis((), short), end, kan)  # the concealed tiles changed
    short = replace(short, hand={**short.hand, "hand": "123p678s1122z"})
    assert verdict(Hypothesis((), short), end, kan)
    assert not verdict(Hypothesis((), short), end, replace(kan, hand={**kan.hand, "win": "1z"}))
    assert not verdict(Hypothesis((), short), end, replace(kan, tiles=[back]))
