"""Refill: a hit read too unsure to report is put back where the hand is short (§1).

The pipeline drops a detector hit whose best tile reading is below ``MIN_TILE_PROB``
(``vision.pipeline``): mostly junk, but a tile of the row seen at a bad angle is read that unsure
too, and the gap probe cannot fill its place (its crop there reads the same). When the layout
after the probes is still short of concealed tiles, each such hit read as a riichi tile is
put back in turn, surest first, and the photo laid out again; it stays only when it lies in the
concealed row or is the winning tile, the melds are as they were, the hand comes nearer its
count without holding more than it may, and no kind is held five times (§1). Its next-best
readings travel with it, so the layout's rule-aware reading may re-read it. Each tile put back
is named in a warning (issue #4: a changed reading always carries one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.layout.notation import is_face, unpack
from sanma_lens.vision.probe import fifth_of_a_kind, short_by
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def refill_probe(
    tiles: list[TileDetection],
    layout: Layout,
    unsure: Sequence[TileDetection],
    size: tuple[int, int],
) -> tuple[list[TileDetection], Layout]:
    """Put back ``unsure`` hits while the hand is short (§1): returns the detections with the
    hits that stayed added and their layout, its warnings led by one per tile put back;
    ``tiles`` and ``layout`` themselves when none stayed."""
    notes: list[str] = []
    for d in sorted(unsure, key=lambda d: -d.confidence):
        if short_by(layout.hand) == 0:
            break
        if not is_face(d.tile):
            continue
        dets = [*tiles, d]
        again = reconstruct(dets, image_size=size)
        if fills(layout, again, d):
            notes.append(PhotoWarning("unsure_tile_kept", tile=d.tile,
                                      confidence=round(d.confidence, 4)))
            tiles, layout = dets, again
    if not notes:
        return tiles, layout
    return tiles, Layout(layout.tiles, layout.hand, [*notes, *layout.warnings])


def fills(first: Layout, again: Layout, added: TileDetection) -> bool:
    """Whether the layout with ``added`` fills the first one's hand: ``added`` lies in the
    concealed row or is the winning tile, the melds are as they were, the hand is nearer its
    count (§1) without holding more than it may, and no kind is held five times (§1)."""
    if any(t.group not in ("hand", "win") for t in again.tiles if t.box == added.box):
        return False
    if again.hand.get("melds") != first.hand.get("melds") or over_full(again.hand):
        return False
    return short_by(again.hand) < short_by(first.hand) and not fifth_of_a_kind(again.hand)


def over_full(hand: Mapping[str, object]) -> bool:
    """Whether a hand JSON holds more concealed tiles than §1 allows: 14 − 3 per meld with
    the winning tile (kans' fourth tiles are in their melds).

    >>> over_full({"hand": "11122233344455p", "win": "5p", "melds": []})
    True
    """
    melds = len(hand.get("melds") or [])  # type: ignore[arg-type]
    held = len(unpack(str(hand.get("hand") or ""))) + bool(hand.get("win"))
    return held > 14 - 3 * melds
