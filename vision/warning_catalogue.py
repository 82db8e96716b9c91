"""What the recognizer asks the player to check on the photo: every warning's code, its
parameters and its English message.

A warning is a :class:`PhotoWarning`: it *is* its English message (a ``str``, so the recognize
JSON's ``warnings`` list of strings is what it always was) and carries its ``code`` and
``params``. The recognize JSON also lists ``warning_details``, aligned with ``warnings``: one
``{"code", "params", "message"}`` per warning, from which a page phrases each warning in the
player's language. Codes and their parameters are stable; the English wording may improve.

Parameters: ``tile`` (a tile id as read, MPSZ or ``back``), ``tiles`` (several, left to right),
``confidence`` (the classifier's probability, 0–1), ``meld`` (a meld as the hand JSON writes
it, ``pon:055p``), ``kind`` (a tile kind, a red five counted as its five), ``place`` and
``position`` (where a tile sits: ``hand`` with its position from the left, ``win``, ``meld``
with the meld's number from the left, ``kita`` and ``dora`` with their positions, ``other``),
``left`` and ``right`` (the tiles either side of a spot looked at again; one is null past an
end), ``changes`` (re-readings that would make a hand: each ``{place, position, was, tile}``),
``end`` (``start`` or ``end`` of the row) and counts. Each message says what to look at on the
photo and what to do.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

Change = Mapping[str, str | int | None]  # a re-reading: place, position, was, tile
Param = str | int | float | None | tuple[str, ...] | tuple[Change, ...]

# code → English template; ``{where}``/``{Where}`` is said from ``place`` and ``position``.
TEMPLATES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # what the photo shows at all
        "no_tiles": "No tiles found in the photo: photograph the hand closer, in good light",
        "no_hand_row": "No upright face-up tiles side by side, so no hand to read: photograph the "
        "hand from your seat, its tiles standing face up",
        "photo_turned": "The photo seems turned by 90°: it was read turned upright; check which "
        "end of the hand holds the winning tile",
        "hand_is_a_pond": "No hand laid open: the row of faces read as one lies in a discard pond; "
        "lay the hand face up in one row and photograph it from your seat",
        "photo_upside_down": "The hand seems photographed from across the table: it was read "
        "upside down; check which end of the hand holds the winning tile",
        "flowers_ignored": "{count} flower or season tile(s) left out: they are no riichi tiles",
        # tiles that cannot be read, or were read unsure
        "hand_tile_unreadable": "Tile {position} of the hand is face down or unreadable: add it by "
        "hand",
        "win_unreadable": "The winning tile is face down or unreadable: add it by hand",
        "low_confidence": "{Where} ({tile}) was read unsure ({confidence:.2f}): check it",
        "read_5m": "{Where} was read as 5m, which sanma does not use: read as the aka-5-man (0m); "
        "check it",
        "read_2m_8m": "{Where} was read as {tile}, which sanma does not use (no 2m–8m): check it, "
        "or play with a three-player set",
        "fifth_tile": "{count} {kind} read, but only four exist: check the {kind} tiles (one is "
        "misread, or a set was completed with a tile not seen)",
        "hand_short": "The hand shows {count} concealed tiles, {expected} expected with {melds} "
        "meld(s): a tile may be missing or hidden; check the hand",
        "hand_long": "The hand shows {count} concealed tiles, {expected} expected with {melds} "
        "meld(s): an extra tile may have been read; check the hand",
        # boxes the detector drew twice, in two or too big
        "two_readings": "One tile was read twice, as {tile} ({confidence:.2f}, kept) and as "
        "{other} ({other_confidence:.2f}): check it",
        "straddling_box": "A box read {tile} ({confidence:.2f}) lies over the halves of {left} "
        "and {right}: left out as no tile; check that spot",
        "parts_joined": "Two small boxes were read together as one {tile}: check that tile",
        "box_split_stacked": "One box ({tile}) holds two tiles, one on the other: read as {first} "
        "({first_confidence:.2f}) and {second} ({second_confidence:.2f}); "
        "check them",
        "box_split_side_by_side": "One box ({tile}) holds two tiles side by side: read as {first} "
        "({first_confidence:.2f}) and {second} ({second_confidence:.2f}); "
        "check them",
        "halves_joined": "Two boxes ({first} and {second}) lie where one sideways tile lies: read "
        "together as a called {tile} ({confidence:.2f}); check it",
        # a reading changed because the rules allow only another one
        "reread_face_up": "{Where} was read as {was} ({confidence:.2f}), but the hand's tiles "
        "stand face up: read as {tile}; check it",
        "reread_ankan_end": "{Where} was read as {was} ({confidence:.2f}), but a concealed kan's "
        "end tiles lie face down: read as {tile}; check it",
        "reread_called_face_up": "{Where} was read as {was} ({confidence:.2f}), but a called set "
        "lies face up: read as {tile}; check it",
        "reread_5m_likelier": "{Where} was read as {was} ({confidence:.2f}), which sanma does not "
        "use, and {tile} is likelier than the aka-5-man: read as {tile}; "
        "check it",
        "reread_5m_terminal": "{Where} was read as a plain {was} ({confidence:.2f}), no red seen, "
        "which sanma does not use: read as {tile}; check it",
        "reread_5m_aka": "{Where} was read as {was} ({confidence:.2f}), which sanma does not use: "
        "read as the aka-5-man ({tile}); check it",
        "reread_2m_8m": "{Where} was read as {was} ({confidence:.2f}), which sanma does not use: "
        "read as {tile}; check it",
        "reread_meld_kind": "{Where} was read as {was} ({confidence:.2f}), but a set's tiles are "
        "one kind ({kind}): read as {tile}; check it",
        "reread_kita": "{Where} was read as {was} ({confidence:.2f}), but kita are norths: read "
        "as {tile}; check it",
        "reread_one_red": "{Where} was read as {was} ({confidence:.2f}), but one red five of a "
        "suit lies beside plain ones: read as {tile}; check it",
        "reread_one_aka": "{Where} was read as {was} ({confidence:.2f}), but only one aka-5-man "
        "exists: read as {tile}; check it",
        "reread_fifth": "{Where} was read as {was} ({confidence:.2f}), but more than four {kind} "
        "were read: read as {tile}; check it",
        "reread_win_shape": "{Where} was read as {was} ({confidence:.2f}), but then the hand "
        "makes no winning shape: read as {tile}, which makes one; check it",
        "reread_tenpai_shape": "{Where} was read as {was} ({confidence:.2f}), but then the hand "
        "waits on nothing: read as {tile}, which makes it wait; check it",
        "suggest_win_shape": "The hand as read makes no winning shape; reading {changes} would "
        "make one: check those tiles",
        "suggest_tenpai_shape": "The hand as read waits on nothing; reading {changes} would make "
        "it wait: check those tiles",
        # which tile is the winning tile, which the kita
        "win_touching": "The tile right after the hand ({tile}) is barely set apart: read as the "
        "winning tile, as the hand has 13 tiles without it; check it",
        "win_reported_sideways": "The tile set apart after the hand ({tile}) looked sideways, but "
        "a lone tile there is the winning tile: read as the winning "
        "tile; check it",
        "win_may_be_kita": "The winning tile ({tile}) may also be a {north} ({north_confidence:"
        ".2f}): if it is a kita laid sideways, move it to kita",
        "win_rightmost": "No winning tile set apart from the hand: the rightmost tile ({tile}) "
        "was taken as the winning tile; check it",
        "win_two_candidates": "Two tiles may be the winning tile: {tile} (taken) and {others} "
        "further right; check which one it is",
        "win_from_probe": "No winning tile was found after the hand, but a second look {spot} "
        "reads {tile} ({confidence:.2f}), which completes the hand: added as "
        "the winning tile; check it",
        "north_far_win": "The north set apart after the hand ({tile}) lies a little further out "
        "than a winning tile, but completes the hand: read as the winning tile; "
        "if it is a kita, move it",
        "north_far_kita": "The north set apart after the hand ({tile}) lies further out than a "
        "winning tile: read as a kita; if it is the winning tile, move it",
        "north_win": "The tile set apart after the hand is a north ({tile}): read as the winning "
        "tile; if it is a kita, move it to kita",
        "north_no_win_kita": "The north set apart after the hand ({tile}) does not complete it: "
        "read as a kita, the hand waiting; if it is the winning tile, move it",
        "north_touching_kita": "The north at the hand's end ({tile}) does not complete it: read "
        "as a kita laid touching the hand; if it is the winning tile, move "
        "it",
        "fifteenth_left_out": "The tile set apart after the hand ({tile}) would be a 15th tile: "
        "the hand's 14 stand in the row, so it was left out; if it is the "
        "winning tile, one tile in the row is extra",
        "fifteenth_north_kita": "The north set apart after the hand ({tile}) would be a 15th "
        "tile: the hand's 14 stand in the row, so it was read as a kita; "
        "check it",
        "one_too_many": "The hand's row holds one tile too many: the {tile} at its {end}, read "
        "unsure, was left out, as the others complete the hand; check it",
        "kita_too_far": "A {tile} lies alone beyond the melds, further than kita are laid: not "
        "counted as a kita; if it is one, add it",
        "dora_apart": "{tiles} lying apart beyond the hand were read as dora indicator(s): check "
        "them",
        "lone_tiles_left_out": "Lone tile(s) {tiles} right of the melds were left out: check them",
        # the hand's row and the melds beside it
        "row_or_meld": "{tiles} beside the hand looks like a sideways tile: read as part of a "
        "called set, not of the hand; check it",
        "row_by_shape": "The hand could also be read with or without {tiles}: read the way that "
        "makes a winning or waiting hand; check them",
        "meld_double_box": "A {tile} lies on a {kind} of a set: read as one {kind}; check it",
        "meld_mixed_kinds": "The set {tiles} mixes kinds: read as {kind}; check the odd tile(s)",
        "meld_size": "The called set {tiles} has {count} tiles, 3 or 4 expected: check it",
        "meld_backs_not_ankan": "The set {tiles} beside the hand shows face-down tiles, but not "
        "as a concealed kan (two face-down ends around two faces): check "
        "it",
        "ankan_all_backs": "A concealed kan shows four face-down tiles: add its kind by hand",
        "ankan_red_counted": "Concealed kan of {kind}: both faces seen are plain, so the red "
        "{tile} counts as one of the face-down tiles; check it",
        "called_set_backs": "The called set {tiles} shows a sideways {kind} and tiles read face "
        "down, which a called set never has: read as {meld}; check it",
        "minkan_two_sideways": "The called set {tiles} shows {count} sideways tiles side by side "
        "(an open kan shows one): read as {meld}; check it",
        "kakan_called_unseen": "The sideways {kind} of {tiles} lies beyond the set's line, as an "
        "added tile does: read as {meld}, the called tile under it not "
        "seen; check it",
        "kakan_fourth_unseen": "The set {tiles} shows two sideways tiles, one beyond the other, "
        "as an added kan does: read as {meld}, its fourth tile not seen; "
        "check it",
        "kakan_one_box": "The {tile} in the called set {tiles} is as big as two tiles, one beyond "
        "the other: read as an added kan (called and added tile); check it",
        "set_double_box": "Two boxes lie on one tile of the set {tiles}: read as one tile, {meld}; "
        "check it",
        "set_no_sideways": "{count} {kind} beside the hand show no sideways tile: read as {meld}; "
        "check it",
        "norths_as_meld": "{count} norths in line beside the hand complete its tiles: read as "
        "{meld} (its sideways tile not seen), not kita; check it",
        "pon_third_unseen": "The called set {tiles} shows 2 tiles and the hand needs 3 more: read "
        "as {meld}, its third tile not seen; check it",
        "ankan_end_unseen": "{tiles} beside the hand, and the hand needs 3 more tiles: read as "
        "{meld}, one face-down end not seen; check it",
        "pon_called_unseen": "Two {kind} set apart beside the hand, and the hand needs 3 more "
        "tiles: read as {meld}, its called tile not seen; check it",
        "minkan_hole": "The called set {tiles} and a {tile} lie a tile's width apart: read as "
        "{meld}, the tile in the gap not seen; check it",
        "pon_turns_misread": "{tiles} beside the hand, all {kind}, and the hand needs 3 more "
        "tiles: read as {meld}; check which one is called (sideways)",
        "pon_odd_tile": "{tiles} beside the hand, two of them {kind}, and the hand needs 3 more "
        "tiles: read as {meld}; check the odd tile",
        "kakan_second_box": "A second box on the called set {was} reads {tile} ({confidence:.2f}): "
        "read as {meld}, its added tile lying on the called one; check it",
        "kakan_stacked": "A tile seems to lie on the called {tile} of {was} ({confidence:.2f}) "
        "with no box of its own: read as {meld}; check it",
        "kakan_maybe": "The called {tile} of {was} may carry an added tile ({confidence:.2f}): if "
        "so it is {meld}; check it",
        "ankan_back_found": "A box read as no tile at an end of {meld} may be a face-down tile "
        "({confidence:.2f}), and the hand was a set short: read as that "
        "concealed kan; check it",
        # tiles a second look added
        "tile_found_in_gap": "No tile was found {spot}, but the hand is short: a second look there "
        "reads {tile} ({confidence:.2f}), added to the hand; check it",
        "tile_found_over_flower": "No tile was found {spot}, but the hand is short: a second look "
        "there reads {tile} ({confidence:.2f}; first read as a flower, "
        "{flower_confidence:.2f}), added to the hand; check it",
        "unsure_tile_kept": "A box read unsure as {tile} ({confidence:.2f}) lies where the hand is "
        "short: taken as a tile of the hand; check it",
    }
)

_PLACES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "hand": "tile {position} of the hand",
        "win": "the winning tile",
        "meld": "a tile of meld {position}",
        "kita": "kita {position}",
        "dora": "dora indicator {position}",
        "other": "a tile",
    }
)


def where(place: str, position: int | None) -> str:
    """Where a tile sits, in English: ``where("hand", 3)`` → ``"tile 3 of the hand"``."""
    return _PLACES.get(place, _PLACES["other"]).format(position=position)


def _fields(template: str) -> frozenset[str]:
    return frozenset(f for _, f, _, _ in string.Formatter().parse(template) if f)


# parameters said through another word of the template: place and position as {where}, the
# tiles either side of a spot as {spot}
_PARAMS_SAID: Final = frozenset({"place", "position", "left", "right"})


def _said(params: Mapping[str, Param]) -> dict[str, Any]:
    """The words the templates use for ``params``: tiles joined by spaces, ``{where}`` and
    ``{Where}`` from place and position, ``{spot}`` from left and right, ``{changes}``."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k == "changes" and isinstance(v, tuple):
            out[k] = ", ".join(
                f"{where(str(c['place']), c.get('position'))} ({c['was']}) as {c['tile']}"  # type: ignore[union-attr,arg-type,index]
                for c in v
            )
        elif isinstance(v, tuple):
            out[k] = " ".join(str(t) for t in v)
        else:
            out[k] = v
    if "place" in params:
        out["where"] = where(str(params["place"]), params.get("position"))  # type: ignore[arg-type]
        out["Where"] = out["where"][0].upper() + out["where"][1:]
    if "left" in params or "right" in params:
        left, right = params.get("left"), params.get("right")
        out["spot"] = (
            f"between {left} and {right}"
            if left and right
            else f"left of {right}"
            if right
            else f"right of {left}"
        )
    return out


class PhotoWarning(str):
    """One warning: its English message (this string), ``code`` and ``params``.

    ``PhotoWarning("fifth_tile", kind="5p", count=5)`` says ``"5 5p read, but only four
    exist: …"``. A code not in :data:`TEMPLATES`, or parameters the template does not take
    (or missing ones), are a ``ValueError``: every warning is in the catalogue.
    """

    code: str
    params: Mapping[str, Param]

    def __new__(cls, code: str, **params: Param) -> PhotoWarning:
        template = TEMPLATES.get(code)
        if template is None:
            raise ValueError(f"no warning code {code!r} in the catalogue")
        said = _said(params)
        if _fields(template) - set(said) or set(params) - _PARAMS_SAID - _fields(template):
            raise ValueError(
                f"warning {code!r} takes {sorted(_fields(template))}, got {sorted(params)}"
            )
        message = template.format(**said)
        obj = super().__new__(cls, message[0].upper() + message[1:])
        obj.__dict__["code"] = code
        obj.__dict__["params"] = MappingProxyType(dict(params))
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a PhotoWarning is a value: it cannot change")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.code, dict(self.params)))

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "message"}`` (tuples of tiles as lists)."""
        return {
            "code": self.code,
            "params": {
                k: [dict(c) if isinstance(c, Mapping) else c for c in v]
                if isinstance(v, tuple)
                else v
                for k, v in self.params.items()
            },
            "message": str(self),
        }


def _restore(code: str, params: dict[str, Param]) -> PhotoWarning:
    return PhotoWarning(code, **params)


def details(warnings: list[str]) -> list[dict[str, Any]]:
    """``warning_details`` for a list of warnings, aligned with it. A bare string (none is made
    so: the tests read every code in the catalogue) comes with the code ``unlisted``."""
    return [
        w.to_json()
        if isinstance(w, PhotoWarning)
        else {"code": "unlisted", "params": {}, "message": str(w)}
        for w in warnings
    ]
