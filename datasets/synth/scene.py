"""Render a photo-like scene of a sanma hand on a table, with exact ground truth.

Tiles are 3D boxes (face layer in the face colour, back layer in the set's back colour) laid
on the table plane and seen by a perspective phone camera looking down at 30–90°. The layout
follows the table conventions (docs/rules.md "Calls on kita" §23–24, hand JSON of docs/api.md):
concealed row, the winning tile a little apart at its end, called melds to the right (the
sideways tile's position says whom it was called from), ankan with its two ends face-down,
kita set aside singly near the melds, dora indicators apart, and distractor tiles (group
"other"): discards, other players' tiles, four-player manzu, flowers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

import cv2
import numpy as np

from datasets.synth.clutter import clutter, laptop_surface
from datasets.synth.draw import (
    LOW,
    Style,
    draw_body,
    face_visibility,
    pick_style,
    post_process,
    shadows,
)
from datasets.synth.extras import NONE, SET_BACKS, Extras
from datasets.synth.faces import FaceBank, back_face, load_bank
from datasets.synth.geometry import (
    BOTTOM,
    TOP,
    Body,
    Camera,
    Dims,
    corners,
    drop_overlapping,
    fit_camera,
    flat_axes,
    rotate_world,
    visible_share,
    zoom,
)
from datasets.synth.hands import (
    HandSpec,
    backs_hand_spec,
    random_hand_spec,
    winning_hand_spec,
)
from datasets.synth.layout import distractors as make_distractors
from datasets.synth.layout import hand_layout, props
from datasets.synth.loose import scatter_layout
from datasets.synth.table import light_field, table_edge, table_texture
from datasets.synth.whole import table_layout

__all__ = [
    "HANDS",
    "Extras",
    "HandSpec",
    "Scene",
    "ThingLabel",
    "TileLabel",
    "random_hand_spec",
    "render_scene",
    "winning_hand_spec",
]

# How a scene draws its hand when no ``spec`` is given: "random" (the default; training data
# and the benchmarks' seeds render as before) or "winning" (a winning hand, or one in five a
# 13-tile tenpai hand: what a player photographs; hands.winning_hand_spec) or "kakan" (a random
# hand with 1–3 melds, kakans common: training data for the detector's stacked map).
HANDS = {
    "random": random_hand_spec,
    "winning": winning_hand_spec,
    "kakan": partial(random_hand_spec, kakans=True),
}


@dataclass(frozen=True)
class TileLabel:
    """Ground truth of one tile in the image.

    ``tile``: MPSZ id, ``"back"`` when face-down (``hidden`` then holds the tile underneath).
    ``box``: xyxy pixels of the whole visible tile (face and sides). ``quad``: the 4 image
    corners of the face (or of the back, when face-down) in reading order TL, TR, BR, BL of the
    symbol, so warping ``quad`` to a rectangle gives an upright face. ``angle``: 0 or 90
    (sideways). ``rot``: the face's in-plane turn 0/90/180/270 as the player sees it (for a
    loose tile at any angle, the nearest quarter). ``turn``: the face's turn in the image, in
    degrees anticlockwise from upright, 0 ≤ turn < 360 (from ``quad``: the direction from its
    bottom edge's middle to its top edge's middle). ``occluded``: the face is covered (a kakan
    tile under the added one).
    """

    tile: str
    box: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]
    angle: int
    face_down: bool
    group: str
    rot: int = 0
    hidden: str | None = None
    occluded: bool = False
    standing: bool = False
    truncated: bool = False  # cut by the image border (only group "other"); box is clipped
    visible: float = 1.0  # share of the tile's full box inside the image
    face_visible: float = 1.0  # share of the face (quad) in view and not hidden by nearer tiles
    meld: int | None = None  # for group "meld": index of its meld in hand["melds"]
    turn: float = 0.0

    @property
    def red(self) -> bool:
        return self.tile in ("0m", "0p", "0s")

    def to_json(self) -> dict[str, object]:
        return {
            "tile": self.tile,
            "red": self.red,
            "box": [round(v, 1) for v in self.box],
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "angle": self.angle,
            "rot": self.rot,
            "face_down": self.face_down,
            "group": self.group,
            "hidden": self.hidden,
            "occluded": self.occluded,
            "standing": self.standing,
            "truncated": self.truncated,
            "visible": self.visible,
            "face_visible": self.face_visible,
            "meld": self.meld,
            "turn": self.turn,
        }


@dataclass(frozen=True)
class ThingLabel:
    """Where a thing that is not a tile lies in the image (a point display, a stick, a chip,
    a coin, a die, a phone, a keyboard, a rack, a paper, the centre panel): its ``kind``
    (:class:`datasets.synth.geometry.Prop`), ``box`` (xyxy pixels of the whole object,
    clipped to the image), ``quad`` (its top face, TL TR BR BL) and ``visible`` (share of
    its box inside the image)."""

    kind: str
    box: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]
    visible: float

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "box": [round(v, 1) for v in self.box],
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad],
            "visible": self.visible,
        }


@dataclass
class Scene:
    """A rendered photo (BGR uint8), its tile labels, the ground-truth hand dict and the
    things in view that are not tiles."""

    image: np.ndarray
    tiles: list[TileLabel]
    hand: dict[str, object]
    meta: dict[str, object] = field(default_factory=dict)
    things: list[ThingLabel] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        h, w = self.image.shape[:2]
        return {
            "width": w,
            "height": h,
            "tiles": [t.to_json() for t in self.tiles],
            "hand": self.hand,
            "meta": self.meta,
            "things": [t.to_json() for t in self.things],
        }


def image_turn(quad: np.ndarray) -> float:
    """A face's turn in the image from its quad (TL, TR, BR, BL of the symbol): degrees
    anticlockwise from upright, in [0, 360)."""
    up = (quad[0] + quad[1]) / 2 - (quad[2] + quad[3]) / 2
    return float((np.degrees(np.arctan2(-up[1], up[0])) - 90.0) % 360.0)


def _label(
    b: Body, d: Dims, cam: Camera, size: tuple[int, int], face_visible: float = 1.0
) -> TileLabel:
    pts = cam.project(corners(b, d))
    quad = pts[list(BOTTOM if b.face_down else TOP)]
    vis = visible_share(pts, size)
    w, h = size
    x0, y0 = np.clip(pts.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(pts.max(axis=0), 0, [w, h])
    angle = 90 if b.rot % 180 == 90 else 0
    return TileLabel(
        tile="back" if b.face_down else b.tile,
        box=(float(x0), float(y0), float(x1), float(y1)),
        truncated=vis < 0.999,
        visible=round(vis, 3),
        face_visible=round(face_visible, 3),
        quad=tuple((float(x), float(y)) for x, y in quad),
        angle=angle,
        face_down=b.face_down,
        group=b.group,
        rot=b.rot,
        hidden=b.tile if b.face_down and b.tile != "back" else None,
        occluded=b.occluded,
        standing=b.standing,
        meld=b.meld,
        turn=round(image_turn(quad), 2) % 360.0,
    )


def _thing(b: Body, d: Dims, cam: Camera, size: tuple[int, int]) -> ThingLabel:
    assert b.prop is not None
    pts = cam.project(corners(b, d))
    w, h = size
    x0, y0 = np.clip(pts.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(pts.max(axis=0), 0, [w, h])
    return ThingLabel(
        b.prop.kind,
        (float(x0), float(y0), float(x1), float(y1)),
        tuple((float(x), float(y)) for x, y in pts[list(TOP)]),
        round(visible_share(pts, size), 3),
    )


def render_scene(
    rng: np.random.Generator,
    *,
    spec: HandSpec | None = None,
    size: tuple[int, int] = (1280, 960),
    bank: FaceBank | None = None,
    distractors: bool | None = None,
    closeup: bool = False,
    hands: str = "random",
    extras: Extras = NONE,
) -> Scene:
    """Render one scene. Deterministic for a given ``rng`` state, ``spec``, ``size``, bank,
    ``hands`` (the kind of hand drawn when no ``spec`` is given, a key of ``HANDS``) and
    ``extras`` (what real tables add, :class:`datasets.synth.extras.Extras`; all off, the
    default, renders as before).

    ``closeup``: zoom in 1.4–2.5× on a part of the layout, so tiles are big and hand tiles may
    be cut by the border or out of view (``meta["closeup"]``; the hand dict stays the whole
    hand, so use such scenes for detection/classification, not for hand reconstruction).
    """
    bank = bank if bank is not None else load_bank()
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {sorted(HANDS)}, not {hands!r}")
    if spec is None:
        spec = backs_hand_spec(rng) if extras.backs else HANDS[hands](rng)
    w, h = size
    tw = rng.uniform(24, 28)
    d = Dims(tw, tw * rng.uniform(1.3, 1.4), tw * rng.uniform(0.62, 0.8), rng.uniform(0.5, 0.7))
    st = pick_style(rng, bank)
    if extras.backs:
        _set_backs(st, rng)
    if extras.scatter:
        bodies = scatter_layout(rng, d)
    elif extras.table:
        bodies = table_layout(rng, spec, d)
        # the indicators the table shows (none where no wall left was long enough for them)
        spec = replace(spec, dora=tuple(b.tile for b in bodies if b.group == "dora"))
    else:
        bodies = hand_layout(spec, d, rng, askew=4.0 if extras.slant else 1.0)
    pts = np.concatenate([corners(b, d) for b in bodies])
    extent = (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max())
    if extras.scatter or extras.table:
        want_other = False if distractors is None else distractors
    else:
        want_other = rng.random() < 0.65 if distractors is None else distractors
    if want_other:
        bodies += make_distractors(rng, d, extent)
    if extras.backs:
        bodies += loose_backs(rng, d, extent)
    if extras.slant or extras.scatter:
        tilt = float(rng.uniform(-180, 180))
    elif extras.table:
        tilt = float(rng.normal(0, 4))
    else:
        tilt = rng.normal(0, 10) if rng.random() < 0.85 else rng.uniform(-40, 40)
    allp = np.concatenate([corners(b, d) for b in bodies])
    full_extent = (allp[:, 0].min(), allp[:, 1].min(), allp[:, 0].max(), allp[:, 1].max())
    if extras.table:
        pitch = float(rng.uniform(30, 62))
    elif any(b.standing and b.important for b in bodies):  # standing row: a low, oblique camera
        pitch = float(rng.uniform(25, 50))
    else:
        pitch = float(np.clip(90 - abs(rng.normal(0, 25)), 30, 90))
    if not extras.table and rng.random() < 0.5:
        bodies += props(rng, d, full_extent, rack=pitch >= 55)
    if extras.clutter:
        bodies += clutter(rng, d, full_extent)
    bodies = drop_overlapping(bodies, d)
    rotate_world(bodies, tilt)
    cam = fit_camera(rng, bodies, d, size, pitch)
    if closeup:
        cam = zoom(rng, cam, [b for b in bodies if b.important], size)
    # distractors and clutter may be cut by the frame (labelled "truncated"), never behind it
    kept = []
    for b in bodies:
        pts3 = corners(b, d)
        uv = cam.project(pts3)
        front = (((pts3 - cam.c) @ cam.r[2]) > 50).all() and (np.abs(uv) < 4 * max(w, h)).all()
        if (b.important and not closeup) or (
            front and visible_share(uv, size) > (0.0 if b.prop else 0.08)
        ):
            kept.append(b)
    bodies = kept
    tex = table_texture(rng)
    if extras.scatter and rng.random() < 0.3:
        tex = laptop_surface(rng, tex)
    hmat = cam.plane_homography() @ tex.world_from_tex
    img = cv2.warpPerspective(
        tex.image, hmat, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    light = light_field(rng, w // LOW + 1, h // LOW + 1)
    field = cv2.resize(
        light * shadows(size, bodies, d, cam, st, rng), (w, h), interpolation=cv2.INTER_LINEAR
    )
    img = cv2.multiply(img, cv2.merge([field, field, field]), dtype=cv2.CV_8U)
    if rng.random() < (0.8 if extras.clutter else 0.45):
        img = table_edge(img, rng, cam.plane_homography(), full_extent, tilt, d.h)
    depth = [float(np.linalg.norm(b.center - cam.c)) for b in bodies]  # painter: far first
    order = np.argsort(depth)[::-1]
    for i in order:
        b = bodies[i]
        if b.prop is not None:
            face = b.prop.top
        else:
            face = st.back_img if b.face_down else bank.pick(rng, b.tile, st.source)
        u, v = cam.project(b.center[None, :])[0] / LOW
        lit = float(
            light[int(np.clip(v, 0, light.shape[0] - 1)), int(np.clip(u, 0, light.shape[1] - 1))]
        )
        draw_body(img, b, d, cam, face, st, lit)
    image = post_process(img, rng, pitch)
    seen = face_visibility(bodies, order, d, cam, size)
    labels = [_label(b, d, cam, size, seen[i]) for i, b in enumerate(bodies) if b.prop is None]
    things = [_thing(b, d, cam, size) for b in bodies if b.prop is not None]
    meta = {
        "pitch": round(pitch, 1),
        "tilt": round(float(tilt), 1),
        "source": st.source or "mixed",
        "plain": spec.plain,
        "win_apart": bool(spec.win and not spec.plain),
        "tile_mm": [round(d.w, 1), round(d.h, 1), round(d.t, 1)],
        "closeup": closeup,
    }
    if extras.any:
        meta["extras"] = extras.names()
    if extras.backs:
        meta["back"] = [int(v) for v in st.back]
    hand = {"hand": None, "loose": len(labels)} if extras.scatter else spec.to_hand()
    return Scene(image, labels, hand, meta, things)


def _set_backs(st: Style, rng: np.random.Generator) -> None:
    """The set's backs in one of the Japanese sets' colours (:data:`SET_BACKS`)."""
    family = list(SET_BACKS)[int(rng.integers(len(SET_BACKS)))]
    shades = SET_BACKS[family]
    back = np.array(shades[int(rng.integers(len(shades)))], float)
    st.back = np.clip(back * rng.uniform(0.9, 1.1, 3), 0, 255)
    st.back_img = back_face(tuple(int(v) for v in st.back), rng)


def loose_backs(
    rng: np.random.Generator, d: Dims, extent: tuple[float, float, float, float]
) -> list[Body]:
    """One to four face-down tiles at any angle beyond the row (a drawn tile, one pushed
    aside): backs turned every way, group ``other``."""
    x0, _y0, x1, y1 = extent
    out = []
    for _ in range(int(rng.integers(1, 5))):
        ang = float(rng.uniform(0, 360))
        c = np.array([rng.uniform(x0, x1), y1 + rng.uniform(0.8, 3.0) * d.h, d.t / 2])
        out.append(
            Body(
                "back",
                "other",
                c,
                flat_axes(ang, True),
                int(round(ang / 90)) % 4 * 90,
                face_down=True,
                important=False,
            )
        )
    return out
