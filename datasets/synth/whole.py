"""The whole automatic table seen from the player's seat, mid-game.

Around the centre panel (its point displays facing each seat, the dice under their dome) each
of three or four seats has its discards in rows of six (a riichi tile sideways), what is left
of its wall (two high, face down) and, for the other players, their standing hands (we see
the backs) and maybe a called set at their right. The player's own hand, melds and kita lie at
the near edge (:func:`datasets.synth.layout.hand_layout`); only those carry the hand's groups,
everything else is ``other``. The layout is drawn in one seat's frame (the seat at -y of the
centre) and turned by a quarter per seat, so each seat's discards face that seat.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from datasets.synth.clutter import LED_COLOURS, PX, die_face, point_text, seven_segment
from datasets.synth.geometry import Body, Dims, Prop, aabb, flat_axes, standing_axes
from datasets.synth.hands import HandSpec, Wall, base_kind
from datasets.synth.layout import hand_layout
from datasets.synth.loose import footprint, meets


def _turned(b: Body, quarter: int, centre: np.ndarray) -> Body:
    """``b`` (placed about the origin) turned by ``quarter`` × 90° anticlockwise and moved to
    ``centre``."""
    a = np.radians(90 * quarter)
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    b.center = rz @ b.center + centre
    b.axes = rz @ b.axes
    if not b.standing and b.prop is None:
        b.rot = (b.rot + 90 * quarter) % 360
    return b


def centre_panel(rng: np.random.Generator, side_mm: float, seats: list[int]) -> Prop:
    """The automatic table's centre: dark panel, one point display facing each seat, the two
    dice under a round dome in the middle."""
    s = int(side_mm * PX / 2)
    base = np.array([rng.uniform(15, 70)] * 3, np.float32) * rng.uniform(0.9, 1.1, 3)
    layer = np.zeros((s, s, 3), np.float32)
    colour = list(LED_COLOURS.values())[int(rng.integers(len(LED_COLOURS)))]
    for seat in seats:
        disp = seven_segment(point_text(rng).rjust(5), colour, digit_h=int(s * 0.07), rng=rng)
        dh, dw = disp.shape[:2]
        one = np.zeros((s, s, 3), np.float32)
        y0, x0 = int(s * 0.97) - dh, (s - dw) // 2
        one[y0 : y0 + dh, x0 : x0 + dw] = disp.astype(np.float32) - 14.0
        layer = np.maximum(layer, np.rot90(one, seat))
    img = base + layer
    dome = int(s * 0.16)
    c = s // 2
    cv2.circle(img, (c, c), dome, tuple(float(v) for v in base * 0.6 + 30), -1, cv2.LINE_AA)
    body = np.array([235, 240, 242], np.float32)
    a = int(dome * 0.55)
    for k, dx in enumerate((-0.5, 0.5)):
        face = die_face(int(rng.integers(1, 7)), a, body).astype(np.float32)
        x0, y0 = c + int(dx * dome) - a // 2, c - a // 2 + (k * 2 - 1) * a // 4
        img[y0 : y0 + a, x0 : x0 + a] = face
    cv2.circle(img, (c, c), dome, (200, 200, 200), max(s // 200, 1), cv2.LINE_AA)
    mask = np.full((s, s), 255, np.uint8)
    return Prop(
        Dims(side_mm, side_mm, rng.uniform(2, 6), 0.5),
        np.clip(img, 0, 255).astype(np.uint8),
        base * 0.8,
        kind="panel",
        mask=mask,
    )


def _discards(rng: np.random.Generator, wall: Wall, d: Dims, near: float, count: int) -> list[Body]:
    """``count`` discards in rows of six from ``near`` mm before the centre towards the seat,
    upright for the seat; one may lie sideways (a riichi)."""
    out: list[Body] = []
    gx, gy = rng.uniform(0.3, 1.5), rng.uniform(0.5, 2.0)
    riichi = int(rng.integers(count)) if count and rng.random() < 0.3 else -1
    x = 0.0
    for i in range(count):
        r, k = divmod(i, 6)
        if k == 0:
            x = -3 * (d.w + gx)
        try:
            tile = wall.take_random(rng)
        except LookupError:
            break
        side = i == riichi
        span, depth = (d.h, d.w) if side else (d.w, d.h)
        ang = float(rng.normal(0, 1.0))
        slack = _slack(ang, depth)
        y = -(near + r * (d.h + gy) + depth / 2)
        x += slack
        c = np.array([x + span / 2, y + rng.normal(0, 0.3), d.t / 2])
        rot = 90 if side else 0
        out.append(Body(tile, "other", c, flat_axes(rot + ang), rot))
        x += span + slack + gx
    return out


def _slack(ang_deg: float, depth: float) -> float:
    """How far a tile of ``depth`` (mm, across its row) turned by ``ang_deg`` reaches past
    its straight footprint along the row: the room it needs so neighbours never meet."""
    return depth / 2 * abs(float(np.sin(np.radians(ang_deg))))


def _wall(rng: np.random.Generator, d: Dims, near: float) -> list[list[Body]]:
    """What is left of a seat's wall: stacks of two face-down tiles in a row ``near`` mm
    before the centre; each stack is one list (bottom, top)."""
    n = int(rng.integers(0, 18))
    start = int(rng.integers(0, 18 - n + 1))
    stacks = []
    for k in range(start, start + n):
        x = (k - 9) * (d.w + 0.5) + d.w / 2
        c = np.array([x, -(near + d.h / 2) + rng.normal(0, 0.3), d.t / 2])
        ang = rng.normal(0, 0.4)
        bottom = Body("back", "other", c, flat_axes(ang, True), 0, face_down=True)
        stack = [bottom]
        if rng.random() < 0.92:
            bottom.occluded = True
            stack.append(
                Body("back", "other", c + [0, 0, d.t], flat_axes(ang, True), 0, face_down=True)
            )
        stacks.append(stack)
    return stacks


def _turn_up(
    stacks: list[list[Body]], dora: tuple[str, ...], d: Dims, rng: np.random.Generator
) -> None:
    """The dora indicators (ドラ表示牌) turned face up on the dead wall: the top tile of the
    third stack from the wall's end, then, for each kan's new indicator, of the next stacks."""
    from_end = list(range(2, 2 + len(dora)))
    order = from_end if rng.random() < 0.5 else [len(stacks) - 1 - i for i in from_end]
    for i, tile in zip(order, dora, strict=True):
        stack = stacks[i]
        bottom = stack[0]
        bottom.occluded = True
        axes = bottom.axes.copy()
        axes[:, 2] = -axes[:, 2]  # the same turn on the table, face up
        stack[1:] = [Body(tile, "dora", bottom.center + [0, 0, d.t], axes, 0)]


def _standing_hand(rng: np.random.Generator, d: Dims, near: float, n: int) -> list[Body]:
    """Another player's concealed hand: ``n`` tiles standing ``near`` mm from the centre,
    faces towards that player, so we see backs."""
    x = -n * (d.w + 0.3) / 2
    out = []
    for _ in range(n):
        c = np.array([x + d.w / 2, -(near + d.t / 2) + rng.normal(0, 0.5), d.h / 2])
        out.append(
            Body(
                "back",
                "other",
                c,
                standing_axes(rng.normal(0, 1.5)),
                0,
                face_down=True,
                standing=True,
            )
        )
        x += d.w + rng.uniform(0.1, 0.6)
    return out


def _called(rng: np.random.Generator, wall: Wall, d: Dims, near: float, x0: float) -> list[Body]:
    """A pon another player called, at their right (one tile sideways)."""
    kinds = [k for k in sorted(wall.left) if wall.available(base_kind(k)) >= 3 and k[0] != "0"]
    if not kinds:
        return []
    kind = kinds[int(rng.integers(len(kinds)))]
    called = int(rng.integers(3))
    out, x = [], x0
    for i in range(3):
        tile = wall.take(rng, kind)
        span, depth = (d.h, d.w) if i == called else (d.w, d.h)
        rot = 90 if i == called else 0
        ang = float(rng.normal(0, 1))
        x += _slack(ang, depth)
        c = np.array([x + span / 2, -(near + depth / 2), d.t / 2])
        out.append(Body(tile, "other", c, flat_axes(rot + ang), rot))
        x += span + _slack(ang, depth) + rng.uniform(0.2, 1.0)
    return out


def table_layout(rng: np.random.Generator, spec: HandSpec, d: Dims) -> list[Body]:
    """The player's hand at the near edge (y from 0, as :func:`hand_layout` lays it) and the
    table around it; the spec's dora indicators lie face up on one seat's wall (the dead wall,
    :func:`_turn_up`), or are left out where no wall left is long enough (or their stack
    would meet the player's tiles).
    Every body is important (the camera frames the whole table); a part that would meet one
    already placed is left out."""
    dora = spec.dora
    spec = replace(spec, dora=())
    mine = hand_layout(spec, d, rng)
    wall = Wall(spec.aka_5man)
    for t in [*spec.all_tiles(), *dora]:
        wall.left[t] -= 1
    seats = [0, 1, 2, 3]
    if rng.random() < 0.6:  # three players: one seat of the four stays empty
        seats.remove(int(rng.integers(1, 4)))
    panel = rng.uniform(160, 230)
    pond = panel / 2 + rng.uniform(5, 25)
    rows = 3 * (d.h + 2.0)
    wall_near = pond + rows + rng.uniform(10, 35)
    hand_near = wall_near + d.h + rng.uniform(15, 60)
    feet = [aabb(b, d) for b in mine]
    x0, x1 = min(f[0] for f in feet), max(f[2] for f in feet)
    y1 = max(f[3] for f in feet)
    concealed = [b for b in mine if b.group in ("hand", "win")]
    cx = (
        float(np.mean([b.center[0] for b in concealed])) + rng.normal(0, 25)
        if concealed
        else (x0 + x1) / 2
    )
    cy = y1 + rng.uniform(15, 60) + wall_near + d.h
    centre = np.array([cx, cy, 0.0])
    units: list[list[Body]] = []
    prop = centre_panel(rng, panel, seats)
    units.append(
        [Body("prop", "prop", np.array([cx, cy, prop.dims.t / 2]), flat_axes(0), 0, prop=prop)]
    )
    for seat in seats:
        parts: list[list[Body]] = []
        count = int(rng.integers(0, 19))
        parts += [[b] for b in _discards(rng, wall, d, pond, count)]
        stacks = _wall(rng, d, wall_near)
        if dora and len(stacks) >= len(dora) + 3:
            _turn_up(stacks, dora, d, rng)
            dora = ()
        parts += stacks
        if seat != 0:
            n_called = int(rng.choice(3, p=[0.6, 0.3, 0.1]))
            hand = _standing_hand(rng, d, hand_near, 13 - 3 * n_called)
            parts += [[b] for b in hand]
            right = max(b.center[0] for b in hand) + d.w + rng.uniform(10, 30)
            for _ in range(n_called):
                pon = _called(rng, wall, d, hand_near - d.h / 2 + d.t / 2, right)
                if pon:
                    parts.append(pon)
                    right = max(b.center[0] for b in pon) + d.h + rng.uniform(3, 10)
        for unit in parts:
            units.append([_turned(b, seat, centre) for b in unit])
    kept = list(mine)
    placed = [(aabb(b, d), footprint(b, d)) for b in mine]
    for unit in units:
        feet = [(aabb(b, d), footprint(b, d)) for b in unit]
        if any(_near(a, k) and meets(fa, fk) for a, fa in feet for k, fk in placed):
            continue
        kept += unit
        placed += feet
    for b in kept:
        b.important = True
    return kept


def _near(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], margin: float = 1.0
) -> bool:
    """Two footprints' boxes come within ``margin`` mm (a quick test before the exact one)."""
    return (
        a[0] < b[2] + margin
        and b[0] < a[2] + margin
        and a[1] < b[3] + margin
        and b[1] < a[3] + margin
    )
