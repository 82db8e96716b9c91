"""The decoder (vision/decoder.py): looks propose whole-hand edits; one verdict judges them; the
most trusted accepted edit is taken, round after round; tentative edits only warn."""

from __future__ import annotations

from dataclasses import replace

from sanma_lens.vision.decoder import (
    PRIORS,
    Edit,
    Goal,
    Hypothesis,
    Look,
    decode_hand,
    saying,
    verdict,
)
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning
from tests.vision.test_layout import Table

SIZE = (1600, 1200)


def _short_hand() -> tuple[Hypothesis, TileDetection]:
    """123p789s1122z with its winning 2z, the 8s taken out: one tile short, and the 8s box."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    gone = t.tiles.pop(4)
    return Hypothesis(tuple(t.tiles), reconstruct(t.tiles, SIZE)), gone


def _fill(
    now: Hypothesis, tile: TileDetection, look: str = "hole", evidence: float = 0.9, **kw: object
) -> Edit:
    """An edit adding ``tile``; its warning names the tile and carries the edit's evidence."""
    note = PhotoWarning("unsure_tile_kept", tile=tile.tile, confidence=evidence)
    return Edit(look, Goal.FILL, (*now.tiles, tile), (tile,), saying(note), evidence, **kw)  # type: ignore[arg-type]


def test_rule_1_an_edit_that_fills_the_row_is_taken_with_its_warning_first() -> None:
    start, gone = _short_hand()
    chosen = decode_hand(
        start, [Look("hole", lambda now: [_fill(now, gone)] if now is start else [])], SIZE
    )
    assert chosen.layout.hand["hand"] == "123p789s1122z" and chosen.layout.hand["win"] == "2z"
    assert chosen.warnings[0].code == "unsure_tile_kept"
    assert chosen.warnings == [*chosen.notes, *chosen.layout.warnings]


def test_verdict_refuses_an_edit_whose_tile_lands_elsewhere_or_keeps_nothing_it_should() -> None:
    start, gone = _short_hand()
    edit = _fill(start, gone)
    again = reconstruct(list(edit.tiles), image_size=SIZE)
    assert verdict(start, edit, again)
    assert not verdict(start, _fill(start, gone, lands=frozenset({"meld"})), again)
    assert not verdict(start, _fill(start, gone, keeps=frozenset({"hand"})), again)
    # a tile that makes no change to the count is no fill
    assert not verdict(start, _fill(start, gone), start.layout)


def test_rule_1_an_edit_that_makes_a_fifth_tile_is_refused() -> None:
    start, gone = _short_hand()
    edit = _fill(start, gone)
    again = reconstruct(list(edit.tiles), image_size=SIZE)
    assert verdict(start, edit, again)
    fifth = replace(again, hand={**again.hand, "hand": "11111p789s11222z"})  # as near, 5 × 1p
    assert not verdict(start, edit, fifth)


def test_the_more_trusted_look_wins_and_the_looks_are_asked_again_on_the_new_reading() -> None:
    start, gone = _short_hand()
    asked: list[str] = []

    def propose(name: str, evidence: float) -> Look:
        def looks(now: Hypothesis) -> list[Edit]:
            asked.append(name)
            return (
                []
                if len(now.tiles) > len(start.tiles)
                else [_fill(now, gone, look=name, evidence=evidence)]
            )

        return Look(name, looks)

    # a refill (less trusted) with better evidence, a hole (more trusted) with less
    chosen = decode_hand(start, [propose("refill", 0.99), propose("hole", 0.3)], SIZE)
    assert PRIORS.index("hole") < PRIORS.index("refill")
    assert [n.params["confidence"] for n in chosen.notes] == [0.3]  # the hole's edit, alone
    assert asked[0] == "hole"  # the more trusted look is asked first ...
    assert asked.count("refill") >= 1 and "refill" not in asked[:1]  # ... the next only after


def test_a_tentative_edit_changes_nothing_and_says_its_warning_last() -> None:
    start, gone = _short_hand()
    maybe = PhotoWarning(
        "kakan_maybe", tile="6s", was="pon:666s", confidence=0.6, meld="kakan:6666s"
    )
    tentative = Edit(
        "kakan", Goal.FILL, (*start.tiles, gone), (gone,), saying(maybe), 0.6, tentative=True
    )
    chosen = decode_hand(start, [Look("kakan", lambda now: [tentative])], SIZE)
    assert chosen.tiles == start.tiles and chosen.layout.hand == start.layout.hand
    assert chosen.warnings[-1] is maybe


def test_within_a_look_the_edit_with_more_evidence_is_tried_first() -> None:
    start, gone = _short_hand()
    other = replace(gone, tile="9s")
    looks = [
        Look(
            "hole",
            lambda now: (
                [_fill(now, other, evidence=0.4), _fill(now, gone, evidence=0.8)]
                if now is start
                else []
            ),
        )
    ]
    chosen = decode_hand(start, looks, SIZE)
    assert chosen.layout.hand["hand"] == "123p789s1122z"
    assert [n.params["tile"] for n in chosen.notes] == ["8s"]


def test_a_refused_edit_gives_way_to_the_next_one() -> None:
    start, gone = _short_hand()
    looks = [
        Look(
            "hole",
            lambda now: (
                [
                    _fill(now, gone, evidence=0.9, keeps=frozenset({"hand"})),
                    _fill(now, gone, evidence=0.5),
                ]
                if now is start
                else []
            ),
        )
    ]
    chosen = decode_hand(start, looks, SIZE)
    assert [n.params["confidence"] for n in chosen.notes] == [0.5]


def test_a_winning_tile_edit_is_taken_only_when_the_hand_had_none() -> None:
    t = Table()
    t.row("123p789s1122z")
    win = t.put("2z", "win", gap=0.5)
    start = Hypothesis(tuple(t.tiles[:-1]), reconstruct(t.tiles[:-1], SIZE))
    edit = Edit("win", Goal.WIN, (*start.tiles, win), (win,), saying())
    again = reconstruct(list(edit.tiles), image_size=SIZE)
    assert start.layout.hand.get("win") is None and verdict(start, edit, again)
    full = Hypothesis(tuple(t.tiles), again)
    assert not verdict(full, edit, again)  # a winning tile was there already
    wrong = replace(edit, placed=(replace(win, tile="3z"),))
    assert not verdict(start, wrong, again)  # the winning tile laid out is not the one placed


def test_rounds_are_bounded() -> None:
    """Two tiles missing, one filled per round: one round leaves the hand a tile short."""
    t = Table()
    t.row("123p789s1122z")
    t.put("2z", "win", gap=0.5)
    missing = [t.tiles.pop(4), t.tiles.pop(0)]  # the 8s and the 1p
    start = Hypothesis(tuple(t.tiles), reconstruct(t.tiles, SIZE))

    def one_more(now: Hypothesis) -> list[Edit]:
        boxes = {d.box for d in now.tiles}
        left = [d for d in missing if d.box not in boxes]
        return [_fill(now, left[0])] if left else []

    once = decode_hand(start, [Look("hole", one_more)], SIZE, rounds=1)
    assert len(once.tiles) == len(start.tiles) + 1
    full = decode_hand(start, [Look("hole", one_more)], SIZE)
    assert full.layout.hand["hand"] == "123p789s1122z" and len(full.notes) == 2
