"""Ankan ends: a concealed kan's face-down ends the classifier could not name (§23).

An ankan lies back, face, face, back. Its backs are plain dark tiles with no face to read, and
the classifier, trained mostly on the lighter backs of standing walls, often calls them ``none``
(dev render 600098: both ends of a 4444z ankan found by the detector, heat 0.5–0.6, read
``none`` 0.29–0.34 with ``back`` next, 0.19–0.27). The two faces then stand alone right of the
row (two norths read as kita), and the hand is three tiles short (§1: 13 − 3 per meld).

The count says a set is missing, and only then is such a hit tried as a back: when the layout
is exactly three concealed tiles short, the hits read as no tile but likely enough a back
(``BACK_MAYBE``) are put back as backs, one and then two at a time, and the photo laid out
again; the new layout is kept only when it reads one more meld, an ankan, with every back put
back in it, and the hand complete (§1) with its concealed tiles and winning tile as they were.
Each back so taken is named in a warning (issue #4: a changed reading always carries one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.probe import fifth_of_a_kind, short_by
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

# A hit read as no tile is tried as an ankan's end when the classifier gives ``back`` at least
# this probability (600098: 0.19 and 0.27 on the two ends).
BACK_MAYBE = 0.15
MELD_TILES = 3  # an ankan counts as one meld: the hand then holds three tiles fewer (§1)


def maybe_backs(dropped: Sequence[TileDetection]) -> list[TileDetection]:
    """Dropped hits whose next-best readings give ``back`` at least ``BACK_MAYBE``, as backs
    (confidence: that probability), likeliest first."""
    out = []
    for d in dropped:
        p = max((q for t, q in d.alternatives if t == "back"), default=0.0)
        if d.tile == "back":
            p = max(p, d.confidence)
        if p >= BACK_MAYBE:
            out.append(replace(d, tile="back", confidence=round(p, 4), angle=0, alternatives=()))
    return sorted(out, key=lambda d: -d.confidence)


def ankan_probe(
    tiles: list[TileDetection],
    layout: Layout,
    backs: Sequence[TileDetection],
    size: tuple[int, int],
) -> tuple[list[TileDetection], Layout]:
    """A hand exactly one set short (§1): ``backs`` (hits dropped as no tile that may be
    backs, :func:`maybe_backs`) are added, one and then two at a time, and the photo laid out
    again; the first layout that :func:`added_ankan` reads is kept, its warnings led by one per
    back taken. ``tiles`` and ``layout`` themselves otherwise."""
    if short_by(layout.hand) != MELD_TILES or not backs:
        return tiles, layout
    tries = [[b] for b in backs] + [list(pair) for pair in combinations(backs, 2)]
    for extra in tries:
        dets = [*tiles, *extra]
        again = reconstruct(dets, image_size=size)
        meld = added_ankan(layout, again, extra)
        if meld is None:
            continue
        notes = [PhotoWarning("ankan_back_found", meld=meld, confidence=round(b.confidence, 4))
                 for b in extra]
        return dets, Layout(again.tiles, again.hand, [*notes, *again.warnings])
    return tiles, layout


def added_ankan(first: Layout, again: Layout, added: Sequence[TileDetection]) -> str | None:
    """The ankan ``again`` (``first`` laid out again with the backs ``added``) reads besides
    the melds of ``first``, holding every added back, with the same concealed tiles and
    winning tile, a hand no longer short (§1) and no kind five times; else None."""
    boxes = {b.box for b in added}
    if any(t.group != "meld" for t in again.tiles if t.box in boxes):
        return None
    before, after = first.melds, again.melds
    new = [m for m in after if m not in before]
    if len(after) != len(before) + 1 or len(new) != 1 or not new[0].startswith("ankan:"):
        return None
    if any(again.hand.get(k) != first.hand.get(k) for k in ("hand", "win")):
        return None
    return new[0] if short_by(again.hand) == 0 and not fifth_of_a_kind(again.hand) else None
