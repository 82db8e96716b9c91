"""Ankan look (vision/decoder.py): a concealed kan's face-down ends the classifier could not name
(§23).

An ankan lies back, face, face, back. Its backs are plain dark tiles with no face to read, and
the classifier, trained mostly on the lighter backs of standing walls, often calls them ``none``
(``back`` its next reading). The two faces then stand alone right of the row (two norths read
as kita), and the hand is three tiles short (§1: 13 − 3 per meld).

The count says a set is missing, and only then is such a hit tried as a back: when the reading
is exactly three concealed tiles short, the hits read as no tile but likely enough a back
(``back_maybe``) are proposed as backs, one and two at a time, to make one more meld, an ankan,
with the hand complete and its concealed tiles and winning tile as they were.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

from sanma_lens.vision.decoder import Edit, Goal, Hypothesis, short_by
from sanma_lens.vision.layout import Layout
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

MELD_TILES = 3  # an ankan counts as one meld: the hand then holds three tiles fewer (§1)


def maybe_backs(dropped: Sequence[TileDetection]) -> list[TileDetection]:
    """Dropped hits whose next-best readings give ``back`` at least ``back_maybe``, as backs
    (confidence: that probability), likeliest first."""
    out = []
    for d in dropped:
        p = max((q for t, q in d.alternatives if t == "back"), default=0.0)
        if d.tile == "back":
            p = max(p, d.confidence)
        if p >= S.back_maybe:
            out.append(replace(d, tile="back", confidence=round(p, 4), angle=0, alternatives=()))
    return sorted(out, key=lambda d: -d.confidence)


def ankan_edits(now: Hypothesis, backs: Sequence[TileDetection]) -> list[Edit]:
    """A hand exactly one set short (§1): ``backs`` (hits dropped as no tile that may be
    backs, :func:`maybe_backs`), one and two at a time, are proposed as the face-down ends of
    one more meld, an ankan, the concealed tiles and the winning tile as they were."""
    if short_by(now.layout.hand) != MELD_TILES or not backs:
        return []
    present = {t.box for t in now.tiles}
    backs = [b for b in backs if b.box not in present]
    tries = [(b,) for b in backs] + list(combinations(backs, 2))
    return [
        Edit(
            "ankan",
            Goal.ANKAN,
            (*now.tiles, *extra),
            extra,
            _ankan_notes(extra),
            math.prod(b.confidence for b in extra),
            lands=frozenset({"meld"}),
            keeps=frozenset({"hand", "win"}),
        )
        for extra in tries
    ]


def _ankan_notes(
    extra: Sequence[TileDetection],
) -> Callable[[Layout, Layout], tuple[PhotoWarning, ...]]:
    """One warning per back taken, naming the ankan the layout read with it."""

    def say(was: Layout, now: Layout) -> tuple[PhotoWarning, ...]:
        meld = next(m for m in now.melds if m not in was.melds)
        return tuple(
            PhotoWarning("ankan_back_found", meld=meld, confidence=round(b.confidence, 4))
            for b in extra
        )

    return say
