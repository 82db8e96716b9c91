"""What real Japanese tables add to a rendered scene, as one options value.

``Extras()`` (everything off) renders a scene exactly as before, so the training and benchmark
seeds keep their scenes. Each option adds what the real photos of Japanese sets showed and the
renders lacked:

- ``clutter``: things that are not tiles (:mod:`datasets.synth.clutter`): the automatic
  table's LED point displays, point sticks, chips, coins, dice, phones, keyboards, and the
  table's edge more often;
- ``backs``: a set whose backs are one of :data:`SET_BACKS` (yellow, blue, green, purple,
  orange, black), with face-down tiles and blank white dragons (haku, 5z) in view side by
  side: a called haku set with its sideways tile, an ankan's face-down ends, loose backs at
  any angle;
- ``scatter``: no hand: loose tiles at any angle, face up and down, on a table, a tray, the
  floor or a laptop's keyboard (:mod:`datasets.synth.loose`);
- ``slant``: the hand at any angle in the photo, its tiles askew;
- ``table``: the whole automatic table from the player's seat: three or four players'
  discards, the walls, the others' standing hands and the centre panel with its point
  displays; the player's own hand (and melds) at the near edge (:mod:`datasets.synth.whole`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

# Back colours (BGR) of Japanese sets, several shades of each of the six families.
SET_BACKS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "yellow": ((40, 200, 235), (30, 175, 215), (90, 220, 240)),
    "blue": ((170, 100, 30), (210, 160, 80), (120, 60, 20)),
    "green": ((60, 150, 40), (50, 100, 25), (110, 180, 90)),
    "purple": ((140, 50, 110), (190, 120, 170), (100, 30, 70)),
    "orange": ((30, 120, 240), (50, 150, 250), (20, 90, 200)),
    "black": ((35, 33, 32), (55, 50, 48), (25, 25, 30)),
}


@dataclass(frozen=True)
class Extras:
    """Options of a rendered scene (see the module's notes); all off by default."""

    clutter: bool = False
    backs: bool = False
    scatter: bool = False
    slant: bool = False
    table: bool = False

    @property
    def any(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def names(self) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name)]


NONE = Extras()


def parse_extras(text: str) -> Extras:
    """``"clutter,backs"`` → ``Extras(clutter=True, backs=True)``; ``""`` or ``"none"`` → all
    off. An unknown name is a ValueError naming the known ones."""
    known = [f.name for f in fields(Extras)]
    on: dict[str, bool] = {}
    for part in text.split(","):
        name = part.strip()
        if not name or name == "none":
            continue
        if name not in known:
            raise ValueError(f"unknown scene extra {name!r}; known: {', '.join(known)}")
        on[name] = True
    if on.get("scatter") and on.get("table"):
        raise ValueError("scene extras scatter and table exclude each other")
    return Extras(**on)
