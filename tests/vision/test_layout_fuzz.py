"""No input to the layout can raise (vision/layout/): generated detection lists.

The scenes are hands as a detector might report them when it errs: a row of upright tiles
(some face-down, some read as flowers, junk or four-player manzu), sets laid right of it with
sideways tiles, boxes scattered anywhere, the same tile reported twice under other readings,
and degenerate boxes (no width, no height, turned inside out, far outside the photo). Whatever
comes in, ``reconstruct`` returns a layout whose hand fields are well formed and whose tiles are
the ones given, each in a known group.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma_lens.vision.classify import CLASSES
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.layout.notation import is_face, unpack
from sanma_lens.vision.types import GROUPS, TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning

# Every label the classifier gives, a 5-man (a four-player set), and labels no stage makes.
LABELS = st.sampled_from([*CLASSES, "5m", "back", "back", "back", "", "?", "9z", "b"])
FACES = st.sampled_from([c for c in CLASSES if c not in ("back", "flower", "none")])


@st.composite
def readings(draw: st.DrawFn, label: st.SearchStrategy[str] = LABELS) -> tuple:
    """A label, a confidence and next-best readings (any label, any probability)."""
    tile = draw(label)
    confidence = draw(st.floats(0.0, 1.0))
    alternatives = tuple(draw(st.lists(st.tuples(LABELS, st.floats(0.0, 1.0)), max_size=3)))
    return tile, confidence, alternatives


@st.composite
def scenes(draw: st.DrawFn, most: int = 40) -> tuple[list[TileDetection], tuple[int, int]]:
    """A row, sets right of it, scattered and doubled boxes, in a photo of some size."""
    width = draw(st.integers(1, 4000))
    height = draw(st.integers(1, 4000))
    a = draw(st.floats(2.0, 200.0))  # tile width
    b = a * draw(st.floats(0.5, 2.0))  # tile height
    x0 = draw(st.floats(-200.0, 4000.0))
    y0 = draw(st.floats(-200.0, 4000.0))
    slope = draw(st.floats(-1.0, 1.0))
    out: list[TileDetection] = []
    x = x0

    def put(tile: tuple, sideways: bool, gap: float) -> None:
        nonlocal x
        w, h = (b, a) if sideways else (a, b)
        x += gap * a
        jitter = draw(st.tuples(*[st.floats(-0.3, 0.3)] * 4))
        y = y0 + slope * (x - x0) + (b - h)
        box = (x + jitter[0] * a, y + jitter[1] * a, x + w + jitter[2] * a, y + h + jitter[3] * a)
        out.append(TileDetection(tile[0], box, 90 if sideways else 0, tile[1], "other", tile[2]))
        x += w

    row = draw(st.lists(readings(st.one_of(FACES, FACES, LABELS)), max_size=16))
    for tile in row:
        put(tile, False, draw(st.sampled_from([0.0, 0.0, 0.0, 0.05, 0.6])))
    for _ in range(draw(st.integers(0, 5))):  # sets and loose tiles right of the row
        gap = draw(st.floats(0.0, 3.0))
        for n in range(draw(st.integers(1, 4))):
            put(draw(readings(st.one_of(FACES, LABELS))), draw(st.booleans()), gap if n == 0 else 0)
    for _ in range(draw(st.integers(0, 8))):  # scattered boxes, any shape
        x1, y1 = draw(st.floats(-500.0, 4500.0)), draw(st.floats(-500.0, 4500.0))
        w, h = draw(st.floats(-50.0, 400.0)), draw(st.floats(-50.0, 400.0))
        tile = draw(readings())
        out.append(
            TileDetection(
                tile[0],
                (x1, y1, x1 + w, y1 + h),
                draw(st.sampled_from([0, 90])),
                tile[1],
                "other",
                tile[2],
            )
        )
    if out:
        for _ in range(draw(st.integers(0, 4))):  # one tile reported again, read otherwise
            k = draw(st.integers(0, len(out) - 1))
            dx = draw(st.floats(-0.5, 0.5)) * a
            x1, y1, x2, y2 = out[k].box
            tile = draw(readings())
            out.append(
                TileDetection(
                    tile[0], (x1 + dx, y1, x2 + dx, y2), out[k].angle, tile[1], "other", tile[2]
                )
            )
    out = draw(st.permutations(out))[:most] if draw(st.booleans()) else out[:most]
    return out, (width, height)


def check_layout(tiles: list[TileDetection], size: tuple[int, int]) -> None:
    layout = reconstruct(tiles, size)
    assert len(layout.tiles) == len(tiles)
    assert all(t.group in GROUPS for t in layout.tiles)
    hand = layout.hand
    assert all(is_face(t) for t in unpack(str(hand["hand"])))
    assert hand["win"] is None or is_face(str(hand["win"]))
    for meld in hand["melds"]:  # type: ignore[attr-defined]
        name, _, body = str(meld).partition(":")
        assert name in ("chi", "pon", "minkan", "kakan", "ankan"), meld
        assert all(is_face(t) for t in unpack(body)), meld
    assert all(is_face(t) for t in hand.get("dora", []))  # type: ignore[attr-defined]
    assert isinstance(hand["kita"], int) and isinstance(hand["kita_aka"], int)
    assert all(isinstance(w, PhotoWarning) and w for w in layout.warnings)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_layout_never_raises_on_generated_detections(scene: tuple) -> None:
    check_layout(*scene)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes(most=250), st.integers(1, 6))
def test_layout_never_raises_on_many_detections(scene: tuple, copies: int) -> None:
    """Huge counts: the scene repeated across the photo, up to a whole table and more."""
    tiles, size = scene
    many = [
        TileDetection(
            t.tile,
            (t.box[0] + dx, t.box[1] + dy, t.box[2] + dx, t.box[3] + dy),
            t.angle,
            t.confidence,
            "other",
            t.alternatives,
        )
        for n in range(copies)
        for dx, dy in [(0.0, n * 300.0), (n * 500.0, 0.0)]
        for t in tiles
    ]
    check_layout(many[:250], size)


def test_layout_of_no_tiles_and_of_nothing_readable() -> None:
    check_layout([], (640, 480))
    backs = [TileDetection("back", (40.0 * k, 0.0, 40.0 * k + 38, 52.0)) for k in range(14)]
    check_layout(backs, (640, 480))
    check_layout([TileDetection("none", (0.0, 0.0, 0.0, 0.0))], (1, 1))


def _row(labels: list[str]) -> list[TileDetection]:
    return [
        TileDetection(t, (50.0 + 40 * k, 300.0, 88.0 + 40 * k, 352.0), 0, 0.95)
        for k, t in enumerate(labels)
    ]


def test_a_face_down_tile_ending_a_full_hand_row_is_no_winning_tile() -> None:
    """A back read at the end of a row of 14 faces (the photo that failed with ``int('b')``):
    the rightmost tile is taken as the winning tile only when it is a face, so the back stays
    an unreadable hand tile, named in a warning, and the hand JSON holds tile ids only."""
    layout = reconstruct(
        _row(
            [
                "1p",
                "2p",
                "3p",
                "4p",
                "5p",
                "6p",
                "7p",
                "8p",
                "9p",
                "1s",
                "1s",
                "2z",
                "2z",
                "2z",
                "back",
            ]
        ),
        (1000, 600),
    )
    assert layout.hand["win"] is None
    assert layout.hand["hand"] == "123456789p11s222z"
    assert layout.warnings[0] == "Tile 15 of the hand is face down or unreadable: add it by hand"
    assert layout.warnings[0].to_json()["params"] == {"position": 15}


def test_rule_1_fifth_tile_check_counts_faces_beside_a_face_down_tile() -> None:
    """§1: five 1p seen beside a back in the row: one warning for 1p, none for the back."""
    layout = reconstruct(
        _row(
            ["1p", "1p", "1p", "1p", "back", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1p"]
        ),
        (1000, 600),
    )
    fifth = [w for w in layout.warnings if w.code == "fifth_tile"]
    assert len(fifth) == 1 and fifth[0].params == {"kind": "1p", "count": 5}
