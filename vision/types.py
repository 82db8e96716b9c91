"""Plain values that flow between the vision stages (decode → detect → classify → layout)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# Where a tile sits in the player's layout (docs/api.md, recognize JSON `group`).
GROUPS = ("hand", "win", "meld", "kita", "dora", "other")
PLAYER_GROUPS = GROUPS[:4]  # the player's own tiles (dora indicators are not)
RED_TILES = frozenset({"0m", "0p", "0s"})  # red 5p/5s and the aka-5-man

Box = tuple[float, float, float, float]  # photo pixels, x1 y1 x2 y2
# A classifier reading of one crop: best tile, its probability, next-best (tile, p) readings.
Reading = tuple[str, float, tuple[tuple[str, float], ...]]
# The classifier on crops cut at photo boxes (sideways: turned upright), one reading each.
Reader = Callable[[list[tuple[Box, bool]]], list[Reading]]


@dataclass(frozen=True)
class TileDetection:
    """One tile found in a photo.

    ``tile`` is an MPSZ id (``1m``…``7z``; ``0p``/``0s``/``0m`` for the red fives and the
    aka-5-man; ``2m``–``8m`` when a four-player set is on the table) or ``"back"`` for a
    face-down tile. ``box`` is ``(x1, y1, x2, y2)`` in pixels of the original photo.
    ``angle`` is 0 (upright) or 90 (lying sideways: a called tile). ``group`` is filled by
    the layout stage; detection leaves it ``"other"``. ``alternatives`` holds the classifier's
    next-best readings as ``(tile, probability)``, best first (the chosen ``tile`` excluded), so
    the layout can reconsider an unsure tile against the rules (four of a kind, a meld's tiles
    alike); it is empty when nothing else was likely.
    """

    tile: str
    box: tuple[float, float, float, float]
    angle: int = 0
    confidence: float = 1.0
    group: str = "other"
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def face_down(self) -> bool:
        return self.tile == "back"

    @property
    def red(self) -> bool:
        return self.tile in RED_TILES

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def to_json(self) -> dict[str, object]:
        """The contract's per-tile object."""
        return {
            "tile": self.tile,
            "red": self.red,
            "box": [round(v, 1) for v in self.box],
            "angle": self.angle,
            "confidence": round(self.confidence, 4),
            "face_down": self.face_down,
            "group": self.group,
            "alternatives": [
                {"tile": t, "red": t in RED_TILES, "confidence": round(c, 4)}
                for t, c in self.alternatives
            ],
        }
