"""The decoder (vision/decoder.py) run with chosen second looks, for tests of one look at a
time: each ``look_for_*`` lays out what that look's edits make of a first reading and returns
the detections and the layout (its warnings led by the edits taken), or the first ones
themselves when no edit was taken."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sanma_lens.vision.backs import ankan_edits
from sanma_lens.vision.decoder import Hypothesis, Look, decode_hand
from sanma_lens.vision.join import halves_edits
from sanma_lens.vision.layout import Layout
from sanma_lens.vision.pipeline import Detections, Hit, Recognizer
from sanma_lens.vision.probe import hole_edits, kakan_edits, missed_edits, win_edits
from sanma_lens.vision.refill import refill_edits
from sanma_lens.vision.settings import SETTINGS
from sanma_lens.vision.split import split_edits
from sanma_lens.vision.types import Box, Reader, TileDetection


def sifted(rec: Recognizer, hits: Sequence[Hit], scale: float = 1.0) -> Detections:
    """The sift stage of ``rec`` on ``hits`` (image px; ``scale``: image px per photo px)."""
    return rec.sift(Detections(tuple(hits), scale))


def looked(
    tiles: Sequence[TileDetection], layout: Layout, size: tuple[int, int], looks: Sequence[Look]
) -> tuple[list[TileDetection], Layout]:
    """The decoder's reading from ``tiles`` laid out as ``layout``, with ``looks`` only."""
    start = Hypothesis(tuple(tiles), layout)
    chosen = decode_hand(start, looks, size)
    if chosen.tiles == start.tiles and chosen.warnings == layout.warnings:
        return list(tiles) if isinstance(tiles, list) else tiles, layout  # type: ignore[return-value]
    return list(chosen.tiles), Layout(chosen.layout.tiles, chosen.layout.hand, chosen.warnings)


def look_for_holes(
    tiles: Sequence[TileDetection], layout: Layout, size: tuple[int, int], read: Reader
) -> tuple[list[TileDetection], Layout]:
    """Holes in a short row, a 13-tile hand's winning tile, a tile missed in its row."""
    return looked(
        tiles,
        layout,
        size,
        [
            Look("hole", lambda now: hole_edits(now, size, read)),
            Look("win", lambda now: win_edits(now, size, read)),
            Look("missed", lambda now: missed_edits(now, size, read)),
        ],
    )


def look_for_splits(
    tiles: Sequence[TileDetection], layout: Layout, size: tuple[int, int], read: Reader
) -> tuple[list[TileDetection], Layout]:
    """Boxes over two tiles cut in two, a called tile's halves joined."""
    return looked(
        tiles,
        layout,
        size,
        [
            Look("halves", lambda now: halves_edits(now, read)),
            Look("split", lambda now: split_edits(now, read)),
        ],
    )


def look_for_unsure(
    tiles: Sequence[TileDetection],
    layout: Layout,
    unsure: Sequence[TileDetection],
    size: tuple[int, int],
) -> tuple[list[TileDetection], Layout]:
    """Unsure hits put back where the hand is short."""
    return looked(tiles, layout, size, [Look("refill", lambda now: refill_edits(now, unsure))])


def look_for_ankan_ends(
    tiles: Sequence[TileDetection],
    layout: Layout,
    backs: Sequence[TileDetection],
    size: tuple[int, int],
) -> tuple[list[TileDetection], Layout]:
    """Dropped hits taken as an ankan's face-down ends."""
    return looked(tiles, layout, size, [Look("ankan", lambda now: ankan_edits(now, backs))])


def look_for_kakans(
    tiles: Sequence[TileDetection],
    layout: Layout,
    doubles: Sequence[TileDetection],
    size: tuple[int, int],
    stacked: Sequence[tuple[Box, float]] = (),
    sure: float = SETTINGS.stacked_map_sure,
) -> Layout:
    """Pons turned kakans by a dropped double or a tile stacked on the called one."""
    return looked(
        tiles, layout, size, [Look("kakan", lambda now: kakan_edits(now, doubles, stacked, sure))]
    )[1]


def kakans_by(
    rec: Recognizer,
    image: np.ndarray,
    scale: float,
    tiles: Sequence[TileDetection],
    layout: Layout,
    size: tuple[int, int],
    named: list[Hit],
) -> Layout:
    """The kakan look as the recognizer ``rec`` builds it: its dropped doubles and what its
    stacked-tile network (or detector map) sees on each reading's called tiles."""
    stacked, sure = rec.stacks(image, scale, named)
    doubles = sifted(rec, named, scale).doubles
    return looked(
        tiles,
        layout,
        size,
        [Look("kakan", lambda now: kakan_edits(now, doubles, stacked(now.layout), sure))],
    )[1]
