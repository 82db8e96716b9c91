"""The layout stage's tuning knobs, in one table."""

from __future__ import annotations

# Geometry tolerances, in units of the local tile width ``a`` (the short side of an upright
# tile) or of the pitch (centre-to-centre distance of touching tiles in the row).
ALONG_TOL = 0.25  # growing the row: along-row miss allowed, × pitch
# ... but a tile may lie this much nearer than a pitch (a box cut short on its far side or
# shifted by the tile's body in a steep view; dev renders: a row's end tile at 0.66–0.76 pitch)
ALONG_SHORT = 0.4
ACROSS_TOL = 0.35  # growing the row: across-row miss allowed, × pitch
MAX_TURN_DEG = 25.0  # growing the row: largest bend between two links
SIZE_RATIO = 1.6  # neighbours in the row differ in size by at most this factor
MAX_ROW_SLOPE_DEG = 75.0  # a row runs left to right within this angle
MIN_SHORT = 0.75  # ... the tile width taken at least this × its box's short side
TOUCH = (0.3, 1.6)  # side-by-side tiles: centre distance within this × the tile width
LINK_JUMP = 1.3  # a link this much longer than its neighbours' is a gap: the row ends there
GROUP_GAP = 0.4  # a gap wider than this × a separates two groups right of the row
# ... and a gap in this range (× a) between a called tile with one alike and a lone tile of
# their kind is the hole of a minkan's tile not found (dev renders 650298, 660170: 0.57, 0.65)
HOLE_GAP = (GROUP_GAP, 1.3)
WIN_GAP = 0.18  # the winning tile stands apart by more than this × a
MAX_WIN_GAP = 2.5  # ... and by at most this × a
BAND_GAP = 3.5  # right of the row, a gap wider than this × a ends the player's area
NORTH_OFF = 0.08  # a north this far (× a) off the row's line is a kita, not the winning tile
NORTH_GAP = 0.95  # ... and so is one set further apart than this × a
# ... unless it lies at most this far apart, on the line, and completes the hand (dev 660120:
# a winning north 0.95 a apart); further out, the photo says kita (with a warning)
NORTH_WIN_GAP = 1.15
MAX_ROWS = 8  # candidate rows read in full: the longest chains
MAX_GROW = 24  # a chain grows at most this many tiles each way (no row on a table is longer)
MAX_BEND_DEG = 40.0  # ... and bending there by at most this much
MAX_BENT = 15  # chains joined where they share end tiles: at most this long (a hand and a bit)
LOW_CONFIDENCE = 0.6  # below this a tile gets a "check it" warning
# A box past the photo's edge by more than this share of its size shows a tile cut by the edge
# (dev renders: 0.07–0.35 for tiles partly out of the photo; at 0.1 a tile 0.07 past, read 1s
# 0.37, joined three kita as a fourth north, dev 650141)
EDGE_CUT = 0.05
ASPECT = 1.35  # long side / short side of a tile, used when it cannot be measured

# Rule-aware reading (rulefix.py): how likely an alternative reading must be to be taken.
SWAP_MIN_ALT = 0.05  # a back in the row / a 2m–8m / a fifth tile: its alternative at least this
VOTE_FLOOR = 0.01  # a meld vote: the probability of a kind a tile's readings do not list
SHAPE_FIX_MIN_ALT = 0.02  # a winning-shape re-reading considers alternatives at least this likely
# ... and takes one whose Σ log(top / alternative) is at most this: one tile's listed alternative
# (≥ 2 %) always qualifies, two tiles must both be fairly likely (chosen on seeds 950000+).
SHAPE_FIX_MAX_COST = 4.0
TENPAI_FIX_MAX_COST = 2.0  # the same for a 13-tile hand that is in no tenpai shape
# a tile beyond a called one, or touching a set's end, read as another kind: its reading of the
# set's kind (below it, a trace: no tile of the set)
ADDED_ALT = 0.1
# a tile of a set's kind beyond one of its tiles, neither reported sideways, is its added tile
# only when their boxes overlap this much (IoU): a kakan's two sideways tiles touch (dev 950072:
# 0.29), a dora indicator or a discard of the kind lies a little apart (dev 970048, 970136: 0)
UPRIGHT_ADDED_IOU = 0.1
KITA_ALT = 0.1  # a tile with a north reading at least this likely may be a kita (beside kita)
LONE_KITA_ALT = 0.05  # ... and a lone sideways tile beyond the winning tile or melds, on their line
# ... but an upright tile taken alone as a kita needs a north reading at least this likely: a
# flower or a discard read unsure (top ≤ 0.4) often lists a trace of a north (dev renders 950000+,
# 650000+: below 0.2 four such, no real kita upright)
UPRIGHT_KITA_ALT = 0.2
# A kita set aside beyond the melds lies at most this many tile widths (a) further than a tile's
# height beyond the farthest meld tile's centre (renders: laid 0.4–1.5 widths beyond the melds;
# dev renders 950000+/650000+ 300 each: true kita ≤ 2.6 a from it, discards' norths ≥ 3.9 a)
KITA_REACH = 2.0
# ... and a box overlapping a kita this much (IoU), less sure, is the kita read a second time
# (dev 650021: a sideways 0m kita 0.92 with an upright 0s 0.55 box on it, IoU 0.40), no tile
# beside it that would make it a discard
SECOND_BOX_IOU = 0.3
BEYOND = 0.3  # a tile this far (× a) across the row from one it overlaps lies beyond it (kakan)
TWO_IN_ONE = 1.25  # a set's tile this much bigger (√area) than its neighbours is two tiles in one
SIDEWAYS_SHAPE = 1.15  # a sideways tile's box: at least this × an upright one's width/height
UNTURNED = 1.15 # right of the row, a tile reported upright with a box this × wider for its height
UNTURNED_TILT = 0.35  # than the row's tiles lies sideways (only for rows within this many radians)
# a tile of a candidate row whose box is this × wider for its height than its neighbours' lies
# sideways: the row ran on into a meld (dev renders 970219, 650154, 950249: a called tile
# reported upright, 1.36–1.6 × its neighbours'; neighbouring concealed tiles: at most 1.1 ×)
TURNED_IN_ROW = 1.25
SQUARISH = 1.3  # a tile reported sideways whose box is at most this wide/tall may be upright
