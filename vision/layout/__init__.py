"""Layout reconstruction: from tile detections to the hand JSON (docs/api.md).

Pure geometry and rules, no model. The stages, each a small module of this package:

1. **Row** (``rows.py``). The player's concealed tiles are the longest chain of upright,
   similar-size, side-by-side tiles. Chains are grown tile by tile from every close pair,
   following the row's own direction and pitch as they drift (tilted rows, perspective, gentle
   curves); no image axis is assumed beyond "the row runs left to right, within 75°". The
   row's pitch is the yardstick for gaps (boxes may hug the face or include the tile's body).
   Mostly face-down chains (walls, other players' standing tiles) are never the row; a chain
   too long for a hand is cut at its relatively widest link (steep perspective closes gaps);
   two chains sharing their end tiles (a bent row) are also read as one (bending by at most
   40°; joined a second time where a misplaced box split the row twice, if no link is a gap).
   A hand of four melds keeps one concealed tile (the tanki wait, ``tanki.py``): a lone
   upright tile with the four melds on a line right of it is read as a one-tile row too, its
   direction taken from the melds' upright tiles. A chain that runs on into a called set laid
   close after it (its last one or two tiles alike, their kind's sideways tile touching its
   end) is also read without them, and one too long for a hand without the norths at its end
   (kita laid touching it, §A4).
2. **Right of the row** (``grouping.py``, ``reading.py``, ``melds.py``, ``extras.py``), in
   the row end's own frame, following the line of the melds as it goes: tiles are cut into
   groups at gaps, and crowded groups into sets. The first lone upright tile set a little
   apart is the winning tile (a north only when on the row's line, close by; after a 13-tile
   hand also one reported sideways whose box is an upright tile's); a group with a
   sideways tile is a pon (3), minkan (4) or kakan (4, the added tile on or beyond the called
   one, whichever of the two the detector reported upright, or both seen as one box twice a
   tile's size; three boxes whose two sideways tiles lie one beyond the other, or a sideways
   tile lying beyond the line right after two upright tiles of its kind or between two, are a
   kakan with a tile unseen); two face-down ends around two face-up tiles are an ankan;
   norths (``4z``) and the aka-5-man (``0m``) set aside, beside or beyond the melds or the
   winning tile, are kita (docs/rules.md §A4–§A5; an upright one alone needs a north reading
   ≥ 0.2). A tile reported upright but shaped like a sideways one lies sideways. When the
   hand is three tiles short (``shortfall.py``, §1), a damaged called set is read as a pon:
   a called tile with one alike (its third tile missed), or three side by side, all alike
   (their turns misreported) or two alike and the third possibly alike (misread). A north
   set apart after a row that already holds the 14 tiles is a kita.
3. **Dora indicators** (``extras.py``): face-up tiles among face-down dead-wall tiles, or else
   one small group of face-up tiles just beyond the hand's left part (with a warning). On a
   photo of the whole table, the other players' discards (``ponds.py``: groups of at least
   four face-up tiles side by side and row behind row) are left out first: they stay
   ``other``, tiles reported but in no part of the hand. A row read as the hand that is a
   pond's row (six tiles at most, the pond's next row touching it) is no hand: the player
   holds the hand standing, and only a warning and the indicators come back.
4. **Sanity** (``sanity.py``; docs/rules.md "Tiles"): at most four of a kind (red fives count as
   fives, ``0m`` as a north), no 2m–8m in sanma, 14 tiles plus one per kan for a win (13 for
   tenpai). Candidate rows are ranked by how well their reading makes a hand (``reading.py``; of two
   equal ones, the row without a tile shaped like a sideways one: a called tile the detector
   did not turn, a row run on into a meld; then the one whose concealed tiles make a winning or
   tenpai shape; each with a warning when it decided).
   A row of one face too many whose unsure end tile leaves a winning hand without it loses that
   tile (§1: at most 14).
   Every doubt becomes a concrete warning; the best reading is returned, never a silent guess.
5. **Rule-aware reading** (``rulefix.py``), before the sanity checks: the classifier's
   next-best readings (``TileDetection.alternatives``) weighed against the rules — a meld's
   tiles are one kind (a vote over their probabilities), no 2m–8m in sanma, kita are norths,
   red-five and four-of-a-kind limits, the concealed row lies face up, and a 14-tile hand
   (13 without a winning tile) that forms no winning (tenpai) shape takes the likeliest
   re-reading of at most two unsure tiles that does. Every change is a warning naming the
   tile, what it was read as and what it is read as now.

The pipeline (``vision/probe.py``) may look again after a first layout: holes in a short
hand's row are classified, a box bigger than the tiles around it is cut in two and its halves
classified (``vision/split.py``), and a hit dropped as a double of a pon's tile is tried as a
kakan's added tile; each tile so added is named in a warning.

Detector slips are absorbed where the geometry allows: one tile read twice (kept once),
a called tile reported upright, a set with one misread tile, a whole photo turned by 90°,
a hand photographed from across the table (read upside down when that sets more of it
aside) (``dedupe.py``, ``melds.py``, ``turn.py``).

Shared pieces: ``geometry.py`` (centres, sizes, the row end's frame, line fits),
``notation.py`` (tile kinds, MPSZ strings); the tuning knobs are in vision/settings.py.

Outputs are MPSZ, sorted canonically: suits in the order m p s z, digits ascending within a
suit, a red five (``0``) right after the plain fives (``"2345550p"``); a meld as the
hand JSON writes it, a red five first (``"minkan:0555p"``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sanma_lens.vision.layout.dedupe import _dedupe
from sanma_lens.vision.layout.extras import _dora_groups
from sanma_lens.vision.layout.geometry import Frame, Geo, edge_cut, end_frame
from sanma_lens.vision.layout.melds import reread_meld
from sanma_lens.vision.layout.notation import (
    AKA_MAN,
    as_sanma,
    cleaned,
    kind,
    known,
    mpsz,
    readable,
)
from sanma_lens.vision.layout.ponds import discard_ponds, row_in_pond
from sanma_lens.vision.layout.reading import (
    _finish_row,
    _read_right,
    _score,
    shape_rival_notes,
    turned_rival_notes,
)
from sanma_lens.vision.layout.rows import _candidate_rows
from sanma_lens.vision.layout.rulefix import Places, correct, faces_up, where_map
from sanma_lens.vision.layout.sanity import _count_warnings, _sanity, fifth_warnings
from sanma_lens.vision.layout.tanki import tanki_readings
from sanma_lens.vision.layout.turn import more_of_a_hand, turn_half, turn_tile
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

__all__ = ["Layout", "kind", "mpsz", "reconstruct"]


@dataclass(frozen=True)
class Layout:
    """A reconstructed photo: tiles with ``group`` set, the hand JSON, and what to check."""

    tiles: list[TileDetection]
    hand: dict[str, object]
    warnings: list[str]

    @property
    def melds(self) -> list[str]:
        """The hand's melds as strings (``pon:555z``), none when it has none."""
        return [str(m) for m in self.hand.get("melds") or []]  # type: ignore[attr-defined]


def reconstruct(tiles: list[TileDetection], image_size: tuple[int, int]) -> Layout:
    """Rebuild the player's hand from the detections of one photo.

    ``image_size`` is ``(width, height)`` of the photo. Returns every detection with its
    ``group`` set (hand, win, meld, kita, dora or other), the hand JSON fields
    (``hand``, ``win`` — ``None`` for a 13-tile tenpai hand —, ``melds``, ``kita``,
    ``kita_aka`` and ``dora`` when indicators are found), and warnings that say what to check.
    """
    given = list(tiles)
    # Detections the layout can weigh (a known label, a finite box), cleaned: others come back
    # in the group "other", untouched.
    usable = [k for k, t in enumerate(given) if known(t)]
    if not usable:
        return Layout(
            [replace(t, group="other") for t in given], _empty_hand(), [PhotoWarning("no_tiles")]
        )
    clean = [cleaned(given[k]) for k in usable]
    kept, dup_warnings = _dedupe(clean)
    chosen = [clean[k] for k in kept]
    kept = [usable[k] for k in kept]
    cut = edge_cut(chosen, image_size)
    inputs, layout = chosen, _reconstruct(chosen, dup_warnings, cut)
    w, h = image_size
    # Another side of the hand: upside down (the photo taken from across the table), and,
    # when most tiles lie sideways, turned by 90° either way. A turned reading is kept only
    # when it finds more of a hand (turn.more_of_a_hand: upside down, at least two more
    # called tiles or kita set aside, since most photos are taken from the player's seat).
    turns: list[tuple[list[TileDetection], str]] = [
        ([turn_half(t, w, h) for t in chosen], "photo_upside_down")
    ]
    sideways = sum(t.angle == 90 for t in chosen)
    if sideways > len(chosen) / 2 and sideways >= 5:
        turns += [([turn_tile(t, w, h, cw) for t in chosen], "photo_turned") for cw in (1, 0)]
    for dets, code in turns:
        reading = _reconstruct(dets, dup_warnings, cut)
        if more_of_a_hand(reading, layout, upside_down=code == "photo_upside_down"):
            inputs = dets
            layout = replace(reading, warnings=[PhotoWarning(code), *reading.warnings])
    # Kept tiles come back as read (rule-aware corrections and turns included) in the photo's
    # own frame: a tile the layout turned is turned in the photo too.
    read = {k: (layout.tiles[i], inputs[i]) for i, k in enumerate(kept)}
    out = [
        replace(
            t,
            tile=read[k][0].tile,
            confidence=read[k][0].confidence,
            alternatives=read[k][0].alternatives,
            group=read[k][0].group,
            angle=t.angle if read[k][0].angle == read[k][1].angle else 90 - t.angle,
        )
        if k in read
        else replace(t, group="other")
        for k, t in enumerate(given)
    ]
    return Layout(out, layout.hand, layout.warnings)


def _reconstruct(
    tiles: list[TileDetection], warnings_in: list[str], cut: np.ndarray | None = None
) -> Layout:
    """:func:`reconstruct` on detections without duplicates (``cut``: which are read unsure
    and cut by the photo's edge, :func:`geometry.edge_cut`)."""
    if not tiles:
        return Layout([], _empty_hand(), [PhotoWarning("no_tiles")])
    geo = Geo.of(tiles, cut)
    rows, first_joined = _candidate_rows(tiles, geo)
    if not rows:
        return Layout(
            [replace(t, group="other") for t in tiles],
            _empty_hand(),
            [*warnings_in, PhotoWarning("no_hand_row")],
        )
    readings = [_read_right(row, tiles, geo) for row in rows]
    # a hand of four melds: its one concealed tile stands alone (tanki.py), read after the rest
    chains = len(readings)
    readings += tanki_readings(tiles, geo, rows, readings)
    # (a one-tile row is no chain rejoined across a gap)
    scores = [_score(r, geo, first_joined <= i < chains, tiles) for i, r in enumerate(readings)]
    chosen = max(range(len(readings)), key=lambda i: scores[i])
    best = readings[chosen]
    warnings = list(warnings_in) + list(best.warnings)
    warnings += turned_rival_notes(readings, scores, chosen, tiles, geo)
    warnings += shape_rival_notes(readings, scores, chosen, tiles)
    tiles, face_warnings = faces_up(tiles, best.row)
    warnings += face_warnings
    best = _finish_row(best, tiles, warnings)

    meld_idx = [k for _, idx in best.melds for k in idx]
    taken = set(best.row) | set(meld_idx) | set(best.kita)
    if best.win is not None:
        taken.add(best.win)
    frame = end_frame(best.row, tiles, geo, best.along)
    # another player's discards are no dora indicators (ponds.py)
    discards = discard_ponds(tiles, geo, taken)
    if discards and not best.melds and not best.kita and row_in_pond(best.row, tiles, geo, frame):
        return _no_open_hand(tiles, geo, frame, discards | set(best.row), warnings_in)
    dora_idx = _dora_groups(
        tiles, geo, taken | discards, best.row, frame, warnings, whole_table=bool(discards)
    )

    # Rule-aware reading (rulefix.py): misreads corrected by what the rules allow.
    places = Places(
        row=tuple(best.row),
        win=best.win,
        melds=tuple((m.partition(":")[0], tuple(idx)) for m, idx in best.melds),
        kita=tuple(best.kita),
        dora=tuple(dora_idx),
    )
    fixed, fix_warnings = correct(tiles, places)
    warnings += fix_warnings
    melds = [
        (m if all(fixed[k] == tiles[k] for k in idx) else reread_meld(m, idx, fixed, warnings), idx)
        for m, idx in best.melds
    ]
    tiles = fixed
    best = replace(best, melds=melds)

    # The concealed row: face-down tiles in it cannot be read.
    hand_idx: list[int] = []
    for pos, k in enumerate(best.row, start=1):
        if not readable(tiles[k]):
            warnings.append(PhotoWarning("hand_tile_unreadable", position=pos))
        else:
            hand_idx.append(k)

    groups = {
        "hand": list(best.row),  # unreadable row tiles too: they sit in the hand
        "win": [best.win] if best.win is not None else [],
        "meld": meld_idx,
        "kita": best.kita,
        "dora": dora_idx,
    }
    _count_warnings(best, len(hand_idx), warnings)
    _sanity(groups, tiles, where_map(places), warnings)

    def read(k: int) -> str:
        return as_sanma(tiles[k].tile)

    kita_tiles = [read(k) for k in best.kita]
    concealed = mpsz([read(k) for k in hand_idx])
    # only a face is written in the hand JSON (a back or junk label would be no tile id)
    win = read(best.win) if best.win is not None and readable(tiles[best.win]) else None
    if best.win is not None and win is None:
        warnings.append(PhotoWarning("win_unreadable"))
    dora = [read(k) for k in dora_idx if readable(tiles[k])]
    meld_names = [m for m, _ in best.melds]
    hand: dict[str, object] = {
        "hand": concealed,
        "win": win,
        "melds": meld_names,
        "kita": len(kita_tiles),
        "kita_aka": sum(t == AKA_MAN for t in kita_tiles),
    }
    if dora:
        hand["dora"] = dora
    fifth_warnings(hand, dora, warnings)

    group_of = {k: name for name, idx in groups.items() for k in idx}
    # The concealed tiles and the winning tile stand upright (§1): one reported sideways but
    # read as one of them (its box an upright tile's) comes back upright.
    out = [
        replace(
            t, group=group_of.get(k, "other"), angle=0 if group_of.get(k) in UPRIGHT else t.angle
        )
        for k, t in enumerate(tiles)
    ]
    return Layout(out, hand, warnings)


UPRIGHT = ("hand", "win")  # the groups whose tiles stand upright


def _no_open_hand(
    tiles: list[TileDetection],
    geo: Geo,
    frame: Frame,
    discards: set[int],
    warnings_in: list[str],
) -> Layout:
    """A photo of the whole table whose player's hand is not laid open (``ponds.row_in_pond``):
    no hand to read, but the dead wall's indicators are read as on any whole table, with the
    same rule-aware reading and checks (no 2m–8m, four of a kind at most)."""
    warnings = [*warnings_in, PhotoWarning("hand_is_a_pond")]
    dora_idx = _dora_groups(tiles, geo, discards, [], frame, warnings, whole_table=True)
    places = Places(row=(), win=None, melds=(), kita=(), dora=tuple(dora_idx))
    tiles, fix_warnings = correct(tiles, places)
    warnings += fix_warnings
    groups: dict[str, list[int]] = {"hand": [], "win": [], "meld": [], "kita": [], "dora": dora_idx}
    _sanity(groups, tiles, where_map(places), warnings)
    hand = _empty_hand()
    dora = [as_sanma(tiles[k].tile) for k in dora_idx if readable(tiles[k])]
    if dora:
        hand["dora"] = dora
    fifth_warnings(hand, dora, warnings)
    return Layout(
        [replace(t, group="dora" if k in dora_idx else "other") for k, t in enumerate(tiles)],
        hand,
        warnings,
    )


def _empty_hand() -> dict[str, object]:
    return {"hand": "", "win": None, "melds": [], "kita": 0, "kita_aka": 0}
