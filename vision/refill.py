"""Refill look (vision/decoder.py): a hit read too unsure to report, put back where the hand is
short (§1).

The pipeline drops a detector hit whose best tile reading is below ``MIN_TILE_PROB``
(``vision.pipeline``): mostly junk, but a tile of the row seen at a bad angle is read that unsure
too, and the hole look cannot fill its place (its crop there reads the same). While the reading
is short of concealed tiles, each such hit read as a riichi tile is proposed put back, surest
first: to lie in the concealed row or be the winning tile, the melds as they were, the hand
nearer its count without holding more than it may. Its next-best readings travel with it, so
the layout's rule-aware reading may re-read it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, saying, short_by
from sanma_lens.vision.layout.notation import is_face
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def refill_edits(now: Hypothesis, unsure: Sequence[TileDetection]) -> list[Edit]:
    """While the hand is short (§1), each ``unsure`` hit that reads a riichi tile (and is
    not yet among the detections) is proposed put back, to fill the concealed row or be the
    winning tile, the melds as they were."""
    if short_by(now.layout.hand) == 0:
        return []
    boxes = {t.box for t in now.tiles}
    return [
        Edit(
            "refill",
            Goal.FILL,
            (*now.tiles, d),
            (d,),
            saying(
                PhotoWarning("unsure_tile_kept", tile=d.tile, confidence=round(d.confidence, 4))
            ),
            d.confidence,
            lands=frozenset({"hand", "win"}),
            keeps=frozenset({"melds"}),
        )
        for d in unsure
        if is_face(d.tile) and d.box not in boxes
    ]
