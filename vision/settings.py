"""Every tuning knob of the photo-to-hand path, in one value, one line each on what it means.

``SETTINGS`` is the value the stages read (imported as ``S``); a :class:`Settings` with other
values (``dataclasses.replace``) is how a benchmark tries another one on a
:class:`~sanma_lens.vision.pipeline.Recognizer` (its ``settings``: the find and sift stages).
Units: ``a`` is a tile's short side, the *pitch* the centre-to-centre distance of touching
tiles in the row, probabilities are the classifier's, heat the detector's (0–1).

What is no knob stays with its code: the networks' own facts (input sizes, output channels,
the crop margin the classifier was trained with), the rules (tiles of a kind, a hand's count),
and the limits of the work per photo (vision/limits.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final


def _prior_shift() -> Mapping[str, float]:
    return MappingProxyType({"5m": -1.5, "0m": -1.0, "0s": -1.0})


@dataclass(frozen=True)
class Settings:
    """The knobs, stage by stage (vision/__init__.py's diagram)."""

    # decode
    work_side: int = 1000  # a big JPEG is decoded reduced, its long side still at least this (px)

    # find: the detector
    detect_side: int = 640  # the photo's long side as the detector sees it (px)
    heat_threshold: float = 0.3  # a heat peak this hot is a tile hit
    same_tile_iou: float = 0.45  # two peaks overlapping more than this (IoU) are one tile
    coarse_below: int = 12  # fewer hits than this at full size: look again at half size
    cross_scale_iou: float = 0.3  # a half-size hit overlapping a full-size one this much is it
    weak_iou: float = 0.2  # a weak peak overlapping a hit this much is no tile of its own
    # squashes tried, (x, y) factors, on a photo with few sure tiles: its aspect was changed
    squashes: tuple[tuple[float, float], ...] = (
        (1.0, 0.5),
        (1.0, 0.25),
        (1.0, 0.125),
        (0.5, 1.0),
        (0.25, 1.0),
        (0.125, 1.0),
    )
    few_tiles: int = 9  # fewer confident tiles than this: try the photo squashed
    confident: float = 0.5  # a confident tile: its best reading (a tile) at least this likely
    sideways_prob: float = 0.5  # a hit the detector calls sideways this likely is read turned

    # find: the classifier
    turn: bool = True  # each crop is also read turned 180°, the two readings averaged
    wide_margins: tuple[float, ...] = (0.22, 0.30)  # margins of the looser second cuts
    wide_below: float = 0.9  # a crop read less surely than this is cut again looser
    prior_shift: Mapping[str, float] = field(default_factory=_prior_shift)  # logit offsets
    second_below: float = 0.7  # a reading less sure than this asks the second classifier
    second_weight: float = 0.5  # ... whose reading weighs this much in the average

    # sift: which hits are reported as tiles
    min_tile_prob: float = 0.2  # a hit whose best tile reading is less likely is set aside
    alternative_prob: float = 0.02  # next-best readings this likely travel with a tile
    max_alternatives: int = 3  # ... at most this many
    double_iou: float | None = 0.3  # a hit overlapping a hotter tile hit this much is a double
    double_sure: float = 0.6  # ... when it reads the same tile or less surely than this
    double_inside: float | None = 0.45  # a hit this much inside a hotter tile hit is part of it
    double_inside_sure: float = 0.7  # ... when read less surely than this
    weak_heat: float | None = 0.2  # weak peaks from this heat count when read surely (None: not)
    weak_sure: float = 0.95  # ... at least this likely
    blank_heat: float = 0.14  # a weak peak read as the blank white dragon counts from this heat
    blank_sure: float = 0.85  # ... when read 5z at least this likely
    stacked_map_sure: float = 0.5  # the detector's stacked map this sure: a tile lies on it
    stacked_map_warn: float = 0.3  # ... this sure: only a warning
    stack_sure: float = 0.95  # the stacked-tile network this sure: an added tile lies on it
    stack_warn: float = 0.5  # ... this sure: only a warning

    # sift: the face check (vision/faces.py), a face-up report whose box shows too little face
    face_check: bool = True  # reports read as face-up tiles are checked for a tile's face at all
    face_bright: float = 0.15  # a face pixel is at least this × the photo's face brightness
    face_max_sat: float = 0.45  # ... and at most this saturated (HSV, 0–1): ivory, white
    face_min_share: float = 0.08  # a report with less of its box face-coloured is no tile
    face_box_quantile: float = 0.9  # a box's bright level: this quantile of its brightness
    face_ref_quantile: float = 0.75  # the photo's face brightness: this quantile of the levels
    face_min_tiles: int = 4  # fewer face-up reports than this: the photo is not checked

    # sift: the blank check (vision/blanks.py), a haku or a back told apart by its colour
    blank_check: bool = True  # reports read as haku (5z) or back are read again by colour
    blank_sure_face: float = 0.8  # the photo's face colour: reports read this surely as a face
    blank_sure_back: float = 0.6  # the backs' colour: reports read this surely as a back
    blank_min_faces: int = 3  # fewer sure faces than this: the photo is not checked
    blank_far: float = 40.0  # a colour this far (CIELAB, 8-bit scale) from another is not it
    blank_near: float = 25.0  # ... this near is it
    blank_alt: float = 0.2  # a back is read haku only with 5z among its readings this likely
    blank_alt_weak: float = 0.05  # ... or this likely, its colour far nearer the faces' (below)
    blank_nearer: float = 0.5  # ... at most this × as far from the faces' colour as the backs'

    # sift: the tile check (vision/tile_check.py), a small network's word on whether a report
    # is a tile (face up or down) at all; it runs when the models folder holds tile_check.onnx
    tile_check: bool = True  # reports the network calls no tile are set aside
    tile_check_below: float = 0.015  # ... when it gives them a tile's probability below this
    tile_check_unsure: float = 0.5  # ... and the classifier read them less surely than this
    # ... or read more surely, on a photo whose surest reports (read at least this) the
    # network calls tiles (their median tile probability at least ``tile_check_trust``): on
    # some real close-ups it calls nearly every tile no tile
    tile_check_surest: float = 0.9
    tile_check_trust: float = 0.9  # ... the median that makes a photo one it is at home in
    tile_check_trusted_below: float = 0.05  # on such a photo, any face-up report below this

    # join: two reports on parts of one tile
    join: bool = True  # two small reports on parts of one tile are read again as one
    part_size: float = 0.9  # a part's area at most this × the photo's median tile area
    whole_size: float = 1.4  # the joint box's area at most this × the median tile area
    min_whole: float = 0.5  # ... and at least this ×
    join_iou: float = 0.3  # the parts overlap at most this much (more: one tile seen twice)
    join_gap: float = 0.15  # the parts lie at most this × the median tile's side apart
    join_sure: float = 0.9  # the joint box read as a riichi tile at least this likely
    part_unsure: float = 0.8  # one part at least reported less surely than this

    # lay out: the concealed row (all × pitch or × a, see above)
    along_tol: float = 0.25  # growing a row, the next tile may lie this much beyond a pitch
    along_short: float = 0.4  # ... or this much short of it (a box cut short, a steep view)
    across_tol: float = 0.35  # ... and this far off the row's line (× pitch)
    max_turn_deg: float = 25.0  # a row bends at most this much between two links
    size_ratio: float = 1.6  # neighbours in a row differ in size (√area) by at most this factor
    max_row_slope_deg: float = 75.0  # a row runs left to right within this angle
    min_short: float = 0.75  # a tile's width is taken at least this × its box's short side
    touch: tuple[float, float] = (0.3, 1.6)  # side by side: centres this many widths apart
    link_jump: float = 1.3  # a link this × longer than its neighbours' ends the row: a gap
    max_rows: int = 8  # candidate rows read in full: the longest chains
    max_grow: int = 24  # a chain grows at most this many tiles each way
    max_bend_deg: float = 40.0  # two chains sharing end tiles join if bending at most this
    max_bent: int = 15  # ... and at most this long
    turned_in_row: float = 1.25  # a row tile this × wider for its height lies sideways
    squarish: float = 1.3  # a tile reported sideways at most this wide for its height may stand
    aspect: float = 1.35  # a tile's long side over its short side, where it cannot be measured
    edge_cut: float = 0.05  # a box this share of its size past the photo's edge is cut by it
    low_confidence: float = 0.6  # a tile read less surely than this gets a "check it" warning
    # the box over the halves of two tiles side by side (no tile): its two tiles lie at most
    straddle_side_by_side: float = 1.6  # this many widths apart,
    straddle_pitches: tuple[float, float] = (0.75, 1.7)  # this many pitches apart,
    straddle_midway: float = 0.2  # the box this share of their distance from their midpoint,
    straddle_size_alike: float = 1.3  # all three this alike in size (√area),
    straddle_neighbours: int = 6  # among the box's this many nearest faces
    tanki_reach: float = 20.0  # a lone tile's four melds lie within this many widths right of it

    # lay out: right of the row (× a at the row's end)
    group_gap: float = 0.4  # a gap wider than this separates two groups
    hole_gap: tuple[float, float] = (0.4, 1.3)  # a gap this wide beside a set: a kan's hole
    win_gap: float = 0.18  # the winning tile stands apart by more than this
    max_win_gap: float = 2.5  # ... and by at most this
    band_gap: float = 3.5  # a gap wider than this ends the player's area
    north_off: float = 0.08  # a north this far off the row's line is a kita, not the win
    north_gap: float = 0.95  # ... and so is one set further apart than this
    north_win_gap: float = 1.15  # ... unless within this and it completes the hand
    right_sizes: tuple[float, float] = (0.5, 1.7)  # a player's tile: √area this × the row end's
    beyond: float = 0.3  # a tile this far across the row from one it overlaps lies on it
    two_in_one: float = 1.25  # a set's tile this × bigger (√area) than its neighbours is two
    sideways_shape: float = 1.15  # a sideways tile's box: at least this × an upright one's aspect
    unturned: float = 1.15  # a tile reported upright this × wider than the row's lies sideways
    unturned_tilt: float = 0.35  # ... on a row within this many radians of level
    upright_added_iou: float = 0.1  # two upright tiles of a set overlapping this much: one added
    kita_reach: float = 2.0  # kita lie at most this far past a tile's height beyond the melds
    second_box_iou: float = 0.3  # a less sure box overlapping a kita this much is it, again

    # lay out: the other players' discards on a whole-table photo (layout/ponds.py)
    pond_faces: int = 4  # this many face-up tiles touching one another are a pond, no dora
    pond_row: int = 6  # a pond's row holds at most this many tiles (a hand without melds, 13)
    pond_next_row: int = 2  # ... and a row read as the hand touched by this many faces is one
    pond_row_beyond: float = 0.5  # ... faces counted up to this × a tile's width past its ends
    pond_row_gap: tuple[float, float] = (0.7, 1.5)  # ... this far off its line (× tile height)
    pond_touch: float = 1.3  # ... touching: centres within this × the larger long side
    pond_apart: float = 0.6  # a double beside a pond this × a short side from every tile is one
    table_dora_sure: float = 0.5  # on a whole table a dora indicator is read at least this surely
    loose_dora_sure: float = 0.5  # indicators in a group apart (no wall) are read this surely
    # ... a wall's row (layout/walls.py): its next stack a step of this many tiles away,
    wall_step: tuple[float, float] = (0.4, 1.6)
    wall_sizes: tuple[float, float] = (0.6, 1.6)  # ... of about its size (this × its √area),
    wall_straight: float = 0.35  # ... and within this × a tile of where the step points

    # lay out: the rule-aware reading (probabilities of a tile's next-best readings)
    swap_min_alt: float = 0.05  # a back in the row, a 2m–8m, a fifth: re-read from this likely
    vote_floor: float = 0.01  # a meld's vote: the probability of a kind a tile does not list
    shape_fix_min_alt: float = 0.02  # a winning-shape re-reading weighs readings this likely
    shape_fix_max_cost: float = 4.0  # ... and takes one costing at most this (Σ log odds)
    tenpai_fix_max_cost: float = 2.0  # ... for a 13-tile hand that waits on nothing
    added_alt: float = 0.1  # a tile beside a set, read otherwise, is its kind from this likely
    kita_alt: float = 0.1  # a tile beside kita is a north from this likely
    lone_kita_alt: float = 0.05  # ... a lone sideways tile beyond the melds, from this
    upright_kita_alt: float = 0.2  # ... an upright tile alone, from this

    # second looks (vision/decoder.py)
    probe: bool = True  # the second looks run at all
    max_rounds: int = 8  # edits taken on one photo at most
    probe_sure: float = 0.5  # a crop read past the row's ends is a tile from this likely
    probe_sure_inside: float = 0.2  # ... one in a hole between the row's tiles from this
    probe_iou: float = 0.25  # a place overlapping a reported tile this much (IoU) is no hole
    probe_near: float = 0.6  # ... nor one within this × pitch of a reported tile's centre
    hole_pitches: float = 1.5  # a link this many pitches long leaves room for a tile
    max_hole: int = 3  # at most this many tiles looked for in one hole
    max_need: int = 2  # a hand short by more along its row's line is not looked at
    line_along: tuple[float, float] = (0.5, 3.3)  # the row's line goes on with a tile this far
    line_across: float = 0.3  # ... this far off it (× tile height)
    line_size: float = 1.35  # ... this alike in size (√area) to the row's end tiles
    win_steps: tuple[float, ...] = (1.25, 1.5, 1.75, 2.0)  # a missed winning tile: pitches out
    win_sure: float = 0.2  # ... taken from this likely when it completes the hand
    split_size: float = 1.1  # a box this × bigger (√area) than the player's tiles near it is cut
    split_near: float = 2.5  # ... when within this × their size of one
    split_neighbours: int = 3  # ... compared with this many of the nearest
    split_sure: float = 0.5  # both halves read as a riichi tile at least this likely
    split_share_across: float = 0.65  # a half across the row covers this share of the box
    split_share_along: float = 0.55  # a half along the row covers this share
    split_min_half: float = 0.75  # a half at least this × the tiles' short side across the cut
    split_max_cuts: int = 3  # at most this many boxes cut in one photo, the biggest first
    kakan_across: float = 1.35  # a box this × a tile's width across the row may be two stacked
    halves_shape: float = 1.2  # two parts whose joint box is this × wider than the row's tiles
    halves_whole: float = 1.6  # ... and at most this × the median tile area: a called tile
    halves_sure: float = 0.9  # ... joined when read turned as a tile at least this likely
    back_maybe: float = 0.15  # a hit read as no tile is tried as a back from this likely
    kakan_sure: float = 0.5  # a double read as a pon's kind this likely may be its added tile
    kakan_iou: float = 0.2  # ... overlapping one of the pon's tiles at least this much
    stacked_match_iou: float = 0.5  # a stacked box this much on a called tile is that tile
    stacked_shift: float = 0.5  # an added tile's box: this share of a tile's height beyond
    axes_min_turn: float = 12.0  # a face this many degrees off a quarter turn is read again
    axes_aspect: tuple[float, float] = (1.15, 1.75)  # ... when its sides' ratio is a tile's
    axes_fill: float = 0.3  # ... and it fills at least this share of its box
    axes_gain: float = 0.1  # its new reading taken when this much surer than the old


SETTINGS: Final = Settings()
