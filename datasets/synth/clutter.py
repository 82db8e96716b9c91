"""Things on a real table that are not tiles, for the renderer (never labelled as tiles).

What a Japanese table brings into a photo besides the tiles: the automatic table's LED point
displays (7-segment digits, in red, green, amber, blue or white), point sticks (tenbō), chips,
coins (5 and 50 yen have a hole, like a 1p's ring), dice (the one pip big and red), phones and
laptop keyboards (keys with a letter look like honour tiles). Each is a :class:`Prop` body with
a drawn top texture; :func:`clutter` scatters some around a layout, and :func:`laptop_surface`
is a table surface of a laptop's keyboard for loose tiles to lie on.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from datasets.synth.geometry import Body, Dims, Prop, flat_axes
from datasets.synth.table import Texture

PX = 4.0  # texture pixels per mm of the object's top

# 7-segment digits: which of the segments a (top), b (upper right), c (lower right), d (bottom),
# e (lower left), f (upper left), g (middle) are lit.
SEGMENTS = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}

# LED colours (BGR) of automatic tables' point displays.
LED_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 255),
    "green": (60, 255, 80),
    "amber": (20, 170, 255),
    "blue": (255, 150, 40),
    "white": (245, 245, 245),
}


def _segment_polys(x: float, y: float, w: float, h: float, slant: float) -> dict[str, np.ndarray]:
    """Hexagonal segment outlines of one digit cell (top-left ``x, y``; size ``w × h``),
    italic by ``slant`` (x shift per unit of height, as most LED digits are)."""
    t = 0.16 * w  # segment thickness
    half = h / 2

    def horiz(cy: float) -> np.ndarray:
        return np.array(
            [
                [x + t / 2, cy],
                [x + t, cy - t / 2],
                [x + w - t, cy - t / 2],
                [x + w - t / 2, cy],
                [x + w - t, cy + t / 2],
                [x + t, cy + t / 2],
            ]
        )

    def vert(cx: float, y0: float) -> np.ndarray:
        return np.array(
            [
                [cx, y0 + t / 2],
                [cx + t / 2, y0 + t],
                [cx + t / 2, y0 + half - t],
                [cx, y0 + half - t / 2],
                [cx - t / 2, y0 + half - t],
                [cx - t / 2, y0 + t],
            ]
        )

    polys = {
        "a": horiz(y + t / 2),
        "g": horiz(y + half),
        "d": horiz(y + h - t / 2),
        "f": vert(x + t / 2, y),
        "b": vert(x + w - t / 2, y),
        "e": vert(x + t / 2, y + half),
        "c": vert(x + w - t / 2, y + half),
    }
    for p in polys.values():
        p[:, 0] += slant * (y + h - p[:, 1])
    return polys


def seven_segment(
    text: str,
    colour: tuple[int, int, int],
    *,
    digit_h: int = 72,
    ghost: float = 0.08,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """A dark display showing ``text`` in glowing 7-segment digits (BGR uint8); unlit
    segments show faintly (``ghost``), as on a real panel."""
    dw = int(digit_h * 0.55)
    gap = int(digit_h * 0.2)
    pad = int(digit_h * 0.25)
    w = pad * 2 + len(text) * dw + (len(text) - 1) * gap
    h = digit_h + 2 * pad
    slant = 0.1 if rng is None else float(rng.uniform(0.0, 0.18))
    lit = np.zeros((h, w), np.float32)
    dim = np.zeros((h, w), np.float32)
    for k, ch in enumerate(text):
        polys = _segment_polys(pad + k * (dw + gap), pad, dw, digit_h, slant)
        for name, poly in polys.items():
            target = lit if name in SEGMENTS.get(ch, "") else dim
            cv2.fillPoly(target, [np.round(poly * 8).astype(np.int32)], 1.0, cv2.LINE_AA, 3)
    col = np.array(colour, np.float32)
    glow = cv2.GaussianBlur(lit, (0, 0), digit_h * 0.06)
    base = np.full((h, w, 3), 14.0, np.float32)
    if rng is not None:
        base *= rng.uniform(0.6, 1.6)
    img = base + (lit * 0.9 + glow * 0.5 + dim * ghost)[..., None] * col
    return np.clip(img, 0, 255).astype(np.uint8)


def point_text(rng: np.random.Generator) -> str:
    """What a point display shows: a score (``35000``), a difference (``-1300``) or a few
    digits."""
    r = rng.random()
    if r < 0.55:
        return str(int(rng.integers(0, 80)) * 1000 + int(rng.choice([0, 0, 300, 500, 800])))
    if r < 0.8:
        return "-" + str(int(rng.integers(1, 200)) * 100)
    return "".join(str(int(v)) for v in rng.integers(0, 10, int(rng.integers(1, 4))))


def led_panel(rng: np.random.Generator) -> Prop:
    """An automatic table's point display: 7-segment digits behind dark glass."""
    colour = list(LED_COLOURS.values())[int(rng.integers(len(LED_COLOURS)))]
    top = seven_segment(
        point_text(rng).rjust(int(rng.integers(5, 7))),
        colour,
        digit_h=int(rng.integers(48, 96)),
        rng=rng,
    )
    h_mm = rng.uniform(14, 30)
    w_mm = h_mm * top.shape[1] / top.shape[0]
    side = np.array([20.0, 20.0, 22.0]) * rng.uniform(0.6, 1.6)
    return Prop(Dims(w_mm, h_mm, rng.uniform(0.5, 2.0), 0.5), top, side, kind="led")


def stick(rng: np.random.Generator) -> Prop:
    """A point stick (tenbō): white, with dots of its value (100, 1000, 5000, 10000)."""
    w_mm, h_mm = rng.uniform(8, 10), rng.uniform(95, 110)
    w, h = int(w_mm * PX), int(h_mm * PX)
    body = np.array([232, 238, 240], np.float32) * rng.uniform(0.85, 1.02)
    img = np.empty((h, w, 3), np.float32)
    img[:] = body
    red, black = (40, 40, 200), (30, 30, 30)
    value = int(rng.integers(4))
    r = max(int(w * 0.14), 2)
    dots: list[tuple[float, tuple[int, int, int], int]] = []
    if value == 0:  # 100: two groups of four small dots
        dots = [(f, black, r) for f in (0.1, 0.14, 0.18, 0.22, 0.78, 0.82, 0.86, 0.9)]
    elif value == 1:  # 1000: one red dot
        dots = [(0.5, red, int(r * 1.8))]
    elif value == 2:  # 5000: a red dot with black ones beside
        dots = [
            (0.5, red, int(r * 1.5)),
            (0.42, black, r),
            (0.58, black, r),
            (0.2, black, r),
            (0.8, black, r),
        ]
    else:  # 10000: a red dot in the middle, four black ones at the ends
        dots = [
            (0.5, red, int(r * 1.8)),
            (0.15, black, r),
            (0.22, black, r),
            (0.78, black, r),
            (0.85, black, r),
        ]
    for f, colour, rad in dots:
        cv2.circle(img, (w // 2, int(f * h)), rad, colour, -1, cv2.LINE_AA)
    return Prop(
        Dims(w_mm, h_mm, rng.uniform(2.5, 4.0), 0.5),
        np.clip(img, 0, 255).astype(np.uint8),
        body * 0.92,
        kind="stick",
    )


_CHIP_COLOURS = [
    (40, 40, 190),
    (170, 90, 30),
    (50, 140, 40),
    (30, 30, 30),
    (230, 230, 230),
    (40, 190, 220),
    (150, 50, 120),
    (30, 120, 235),
]


def chip(rng: np.random.Generator) -> Prop:
    """A round chip (or a stack of them): a coloured disc with spots round its rim."""
    d_mm = rng.uniform(28, 40)
    n = int(rng.choice([1, 1, 1, 2, 3, 5]))
    s = int(d_mm * PX)
    col = np.array(_CHIP_COLOURS[int(rng.integers(len(_CHIP_COLOURS)))], np.float32)
    col = col * rng.uniform(0.85, 1.1)
    img = np.empty((s, s, 3), np.float32)
    img[:] = col
    c = s // 2
    spot = (235, 235, 235) if col.mean() < 150 else (40, 40, 160)
    k = int(rng.choice([4, 6, 8]))
    for i in range(k):
        a = 2 * np.pi * i / k
        p = np.array([c + 0.44 * s * np.cos(a), c + 0.44 * s * np.sin(a)])
        d = np.array([np.cos(a), np.sin(a)]) * 0.05 * s
        q = np.array([-d[1], d[0]]) * 1.2
        cv2.fillConvexPoly(
            img,
            np.round(np.array([p - d - q, p + d - q, p + d + q, p - d + q])).astype(np.int32),
            spot,
            cv2.LINE_AA,
        )
    cv2.circle(img, (c, c), int(0.3 * s), tuple(float(v) for v in col * 1.15 + 20), -1, cv2.LINE_AA)
    cv2.circle(img, (c, c), int(0.3 * s), spot, max(s // 40, 1), cv2.LINE_AA)
    img = np.clip(img, 0, 255).astype(np.uint8)  # text is drawn on 8-bit images only
    if rng.random() < 0.6:
        text = str(rng.choice(["1", "5", "10", "25", "100"]))
        cv2.putText(
            img,
            text,
            (int(c - 0.09 * s * len(text)), int(c + 0.08 * s)),
            cv2.FONT_HERSHEY_SIMPLEX,
            s / 160,
            spot,
            max(s // 50, 1),
            cv2.LINE_AA,
        )
    return Prop(
        Dims(d_mm, d_mm, rng.uniform(2.8, 3.6) * n, 0.5), img, col * 0.8, kind="chip", disc=True
    )


# Yen coins: diameter mm, metal (BGR), a hole in the middle, the value embossed.
_COINS = [
    (20.0, (200, 200, 205), False, "1"),
    (22.0, (70, 165, 205), True, "5"),
    (23.5, (70, 110, 170), False, "10"),
    (21.0, (190, 190, 195), True, "50"),
    (22.6, (185, 185, 190), False, "100"),
    (26.5, (110, 170, 200), False, "500"),
]


def coin(rng: np.random.Generator) -> Prop:
    """A yen coin: a metal disc with a rim, an embossed value, and for 5 and 50 yen a hole."""
    d_mm, metal, hole, value = _COINS[int(rng.integers(len(_COINS)))]
    s = int(d_mm * PX)
    c = s // 2
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    sheen = 0.8 + 0.35 * ((xx - c) * np.cos(a) + (yy - c) * np.sin(a)) / s
    img = np.clip(
        np.array(metal, np.float32) * rng.uniform(0.8, 1.1) * sheen[..., None], 0, 255
    ).astype(np.uint8)
    dark = tuple(float(v) * 0.6 for v in metal)
    cv2.circle(img, (c, c), int(0.45 * s), dark, max(s // 30, 1), cv2.LINE_AA)
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (c, c), c - 1, 255, -1, cv2.LINE_AA)
    if hole:
        cv2.circle(mask, (c, c), int(0.12 * s), 0, -1, cv2.LINE_AA)
        cv2.circle(img, (c, c), int(0.13 * s), dark, max(s // 40, 1), cv2.LINE_AA)
        cv2.putText(
            img,
            value,
            (int(c - 0.08 * s * len(value)), int(0.82 * s)),
            cv2.FONT_HERSHEY_SIMPLEX,
            s / 200,
            dark,
            max(s // 45, 1),
            cv2.LINE_AA,
        )
    else:
        cv2.putText(
            img,
            value,
            (int(c - 0.1 * s * len(value)), int(c + 0.1 * s)),
            cv2.FONT_HERSHEY_SIMPLEX,
            s / 110,
            dark,
            max(s // 30, 1),
            cv2.LINE_AA,
        )
    return Prop(
        Dims(d_mm, d_mm, rng.uniform(1.2, 2.0), 0.5),
        img,
        np.array(metal, float) * 0.7,
        kind="coin",
        disc=True,
        mask=mask,
    )


def die_face(n: int, s: int, body: np.ndarray, red_one: bool = True) -> np.ndarray:
    """One face of a die showing ``n`` pips (the one big and red)."""
    img = np.empty((s, s, 3), np.float32)
    img[:] = body
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)],
    }[n]
    big = n == 1
    for x, y in spots:
        colour = (40, 30, 200) if big and red_one else (30, 30, 30)
        cv2.circle(
            img,
            (int(x * s), int(y * s)),
            int(s * (0.18 if big else 0.085)),
            colour,
            -1,
            cv2.LINE_AA,
        )
    return np.clip(img, 0, 255).astype(np.uint8)


def die(rng: np.random.Generator) -> Prop:
    """A die: ivory or red-white cube with pips on every face."""
    a_mm = rng.uniform(9, 16)
    s = int(a_mm * PX)
    body = np.array([235, 240, 242], np.float32) * rng.uniform(0.85, 1.0)
    order = [int(v) + 1 for v in rng.permutation(6)]
    faces = [die_face(n, s, body) for n in order]
    return Prop(
        Dims(a_mm, a_mm, a_mm, 0.5), faces[0], body * 0.9, kind="die", sides=tuple(faces[1:5])
    )


def phone(rng: np.random.Generator) -> Prop:
    """A phone face up: a dark screen, or a lit one with an app's blocks and a few words."""
    w_mm, h_mm = rng.uniform(68, 78), rng.uniform(140, 162)
    w, h = int(w_mm * PX / 2), int(h_mm * PX / 2)
    frame = np.array([rng.uniform(10, 60)] * 3, np.float32)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = frame.astype(np.uint8)
    x0, y0, x1, y1 = int(0.04 * w), int(0.03 * h), int(0.96 * w), int(0.97 * h)
    if rng.random() < 0.5:
        img[y0:y1, x0:x1] = int(rng.uniform(8, 30))
        cv2.line(img, (x0, y1), (x1, y0), (70, 70, 75), max(w // 60, 1), cv2.LINE_AA)
    else:
        img[y0:y1, x0:x1] = rng.uniform(180, 250, 3).astype(np.uint8)
        y = y0 + int(0.05 * h)
        while y < y1 - int(0.08 * h):
            bh = int(rng.uniform(0.03, 0.14) * h)
            colour = tuple(float(v) for v in rng.uniform(30, 230, 3))
            if rng.random() < 0.5:
                cv2.rectangle(img, (x0 + 6, y), (x1 - 6, y + bh), colour, -1)
            else:
                cv2.putText(
                    img,
                    "".join(chr(int(c)) for c in rng.integers(65, 91, 6)),
                    (x0 + 8, y + bh),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    w / 280,
                    colour,
                    2,
                    cv2.LINE_AA,
                )
            y += bh + int(0.02 * h)
    return Prop(Dims(w_mm, h_mm, rng.uniform(7, 9), 0.5), img, frame * 1.2, kind="phone")


_KEY_LEGENDS = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"


def keyboard_image(
    rng: np.random.Generator, w_mm: float, h_mm: float, px: float = PX
) -> np.ndarray:
    """Rows of keys with letters: a laptop's or a desk keyboard's top (BGR uint8)."""
    w, h = int(w_mm * px), int(h_mm * px)
    dark = rng.random() < 0.6
    deck = np.array(
        [rng.uniform(25, 60)] * 3 if dark else [rng.uniform(170, 215)] * 3, np.float32
    ) * rng.uniform(0.95, 1.05, 3)
    cap = deck * (0.55 if dark else 1.1) + (0 if dark else 8)
    ink = (225, 225, 225) if dark else (40, 40, 40)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(deck, 0, 255).astype(np.uint8)
    pitch = rng.uniform(17.5, 19.5) * px
    gap = rng.uniform(2.0, 4.0) * px
    rows = int((h - pitch * 0.3) // pitch)
    for r in range(rows):
        y = int(0.15 * pitch + r * pitch)
        x = 0.15 * pitch + (0.25, 0.5, 0.75, 0.0, 1.0)[r % 5] * pitch
        while x + pitch < w - 0.15 * pitch:
            kw = pitch * (1.0 if rng.random() < 0.85 else rng.uniform(1.4, 2.2))
            if x + kw > w - 0.15 * pitch:
                break
            p0 = (int(x), y)
            p1 = (int(x + kw - gap), int(y + pitch - gap))
            cv2.rectangle(img, p0, p1, tuple(float(v) for v in cap), -1, cv2.LINE_AA)
            cv2.rectangle(
                img, p0, p1, tuple(float(v) for v in cap * 0.8), max(int(px / 2), 1), cv2.LINE_AA
            )
            legend = _KEY_LEGENDS[int(rng.integers(len(_KEY_LEGENDS)))]
            cv2.putText(
                img,
                legend,
                (p0[0] + int(0.2 * pitch), p0[1] + int(0.55 * pitch)),
                cv2.FONT_HERSHEY_SIMPLEX,
                pitch / 70,
                ink,
                max(int(px / 2), 1),
                cv2.LINE_AA,
            )
            x += kw
    return img


def keyboard(rng: np.random.Generator) -> Prop:
    """A laptop's keyboard half, or a desk keyboard."""
    w_mm, h_mm = rng.uniform(280, 440), rng.uniform(110, 160)
    top = keyboard_image(rng, w_mm, h_mm, PX / 2)
    side = top[2, 2].astype(float)
    return Prop(Dims(w_mm, h_mm, rng.uniform(10, 22), 0.5), top, side, kind="keyboard")


def laptop_surface(rng: np.random.Generator, table: Texture) -> Texture:
    """A laptop's keyboard deck lying on ``table``: the keys under the middle of the scene
    (loose tiles scattered on a keyboard), the table beyond it. Same scale as ``table``."""
    img = table.image.copy()
    mm_per_px = float(table.world_from_tex[0, 0])
    h, w = img.shape[:2]
    kw_mm = min(rng.uniform(280, 340), 0.95 * w * mm_per_px)
    kh_mm = min(rng.uniform(110, 150), 0.95 * h * mm_per_px)
    keys = keyboard_image(rng, kw_mm, kh_mm, 1.0 / mm_per_px)
    kh, kw = keys.shape[:2]
    # the keyboard's middle lies under the world origin, where the loose tiles lie
    inv = np.linalg.inv(table.world_from_tex)
    cx, cy = (inv @ [0.0, 0.0, 1.0])[:2]
    x0 = int(np.clip(cx - kw / 2, 0, w - kw))
    y0 = int(np.clip(cy - kh / 2, 0, h - kh))
    img[y0 : y0 + kh, x0 : x0 + kw] = keys
    return Texture(img, table.world_from_tex)


KINDS: dict[str, Callable[[np.random.Generator], Prop]] = {
    "led": led_panel,
    "stick": stick,
    "chip": chip,
    "coin": coin,
    "die": die,
    "phone": phone,
    "keyboard": keyboard,
}
# How often each kind is drawn into a cluttered scene (relative weights).
KIND_WEIGHTS = {
    "led": 3.0,
    "stick": 3.0,
    "chip": 2.0,
    "coin": 2.0,
    "die": 1.5,
    "phone": 1.0,
    "keyboard": 1.0,
}


def clutter(
    rng: np.random.Generator,
    d: Dims,
    extent: tuple[float, float, float, float],
    n: int | None = None,
) -> list[Body]:
    """``n`` (default 3–9) non-tile things around a layout whose footprint is ``extent``
    (x0, y0, x1, y1 mm): often a point display in front of the player, sticks in a bunch,
    the rest anywhere near the tiles. Bodies are not important (dropped where they would
    meet a tile, see geometry.drop_overlapping)."""
    x0, y0, x1, y1 = extent
    n = int(rng.integers(3, 10)) if n is None else n
    names = list(KIND_WEIGHTS)
    p = np.array([KIND_WEIGHTS[k] for k in names])
    out: list[Body] = []
    if rng.random() < 0.5:  # the player's point display, in the table's rim before the row
        prop = led_panel(rng)
        c = np.array(
            [
                (x0 + x1) / 2 + rng.normal(0, 40),
                y0 - rng.uniform(15, 90) - prop.dims.h / 2,
                prop.dims.t / 2,
            ]
        )
        out.append(_body(prop, c, rng.normal(0, 2)))
    span = max(x1 - x0, y1 - y0, 200.0)
    for _ in range(n):
        kind = names[int(rng.choice(len(names), p=p / p.sum()))]
        count = int(rng.integers(2, 7)) if kind == "stick" and rng.random() < 0.5 else 1
        ang = rng.uniform(0, 360)
        for _ in range(12):  # a spot near the tiles, outside their footprint
            cx = rng.uniform(x0 - 0.4 * span, x1 + 0.4 * span)
            cy = rng.uniform(y0 - 0.3 * span, y1 + 0.5 * span)
            if not (x0 - 30 < cx < x1 + 30 and y0 - 30 < cy < y1 + 30):
                break
        else:
            continue
        for k in range(count):  # sticks lie side by side in a bunch
            prop = KINDS[kind](rng)
            off = (
                np.array([np.cos(np.radians(ang)), np.sin(np.radians(ang)), 0.0])
                * k
                * (prop.dims.w + rng.uniform(0.5, 3))
            )
            c = np.array([cx, cy, prop.dims.t / 2]) + off
            out.append(_body(prop, c, ang + rng.normal(0, 2)))
    return out


def _body(prop: Prop, centre: np.ndarray, ang: float) -> Body:
    return Body("prop", "prop", centre, flat_axes(ang), 0, important=False, prop=prop)
