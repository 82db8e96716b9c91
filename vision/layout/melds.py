"""Stage 2, melds: a group right of the row read as a pon (3), minkan (4), kakan (4, the added
tile on or beyond the called one) or ankan (two face-down ends around two face-up tiles), as a
meld string ``kind:MPSZ``."""

from __future__ import annotations

from collections import Counter

from sanma_lens.vision.detect import iou
from sanma_lens.vision.layout.grouping import Placed, one_beyond, share_slot
from sanma_lens.vision.layout.notation import (
    AKA_MAN,
    NORTH,
    as_sanma,
    back_like,
    kind,
    meld_mpsz,
    readable,
)
from sanma_lens.vision.layout.rulefix import may_share_kind, vote_kind
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


def _meld_string(kind_name: str, faces: list[str], size: int) -> str:
    """``kind:XXXX`` from the tiles seen (red fives and the aka-5-man kept as read), padded
    with the plain kind where a tile is unseen."""
    seen = [as_sanma(f) for f in faces][:size]
    pad = kind(faces[0])
    if pad in ("5p", "5s") and sum(f == "0" + pad[1] for f in seen) >= 2 and pad not in seen:
        # two red fives of one suit: the aka-5-man option, under which all four are red (the
        # base rule has one, docs/rules.md "Tiles"); an unseen tile of the set is red too
        pad = "0" + pad[1]
    tiles = seen + [pad] * (size - len(seen))
    return f"{kind_name}:{meld_mpsz(tiles)}"


def _ankan_string(main: str, faces: list[str], warnings: list[str]) -> str:
    """An ankan from its two face-up tiles (docs/rules.md Tiles §3, §A1).

    An ankan holds all four tiles of its kind, so for fives the set's red ones are in it:
    under the base rule exactly one red (if both visible fives are plain, the red lies
    face-down), under the aka-5-man option all four (both visible fives red).
    """
    plain = [kind(f) for f in faces]
    if main == NORTH:  # an aka-5-man seen face-up is kept (it is a north, §A4)
        seen = [AKA_MAN for f in faces if f in (AKA_MAN, "5m")][:1]
        return f"ankan:{meld_mpsz(seen + [NORTH] * (4 - len(seen)))}"
    if main not in ("5p", "5s"):
        return f"ankan:{meld_mpsz(plain[:1] * 4)}"
    red = "0" + main[1]
    reds = sum(f == red for f in faces)
    if reds == 2:
        return f"ankan:{meld_mpsz([red] * 4)}"
    if reds == 0:
        warnings.append(PhotoWarning("ankan_red_counted", kind=main, tile=red))
    return f"ankan:{meld_mpsz([main] * 3 + [red])}"


def read_meld(group: list[Placed], tiles: list[TileDetection], warnings: list[str]) -> str | None:
    """A called or concealed kan group → meld string, or None when it is no meld.

    A tile of another kind lying on a tile of the set's kind is the same tile read twice
    (a detector duplicate): it is left out, with a warning.
    """
    kinds = Counter(kind(tiles[p.index].tile) for p in group if readable(tiles[p.index]))
    main = kinds.most_common(1)[0][0] if kinds else None
    notes: list[str] = []
    if main is not None and len(kinds) > 1:
        ours = [p for p in group if readable(tiles[p.index]) and kind(tiles[p.index].tile) == main]
        doubles = [
            p
            for p in group
            if readable(tiles[p.index])
            and kind(tiles[p.index].tile) != main
            and any(iou(tiles[p.index].box, tiles[q.index].box) > 0.45 for q in ours)
        ]
        for p in doubles:
            notes.append(PhotoWarning("meld_double_box", tile=tiles[p.index].tile, kind=main))
        group = [p for p in group if p not in doubles]
    meld = _read_group(group, tiles, notes)
    if meld is None:  # what a group that is no meld mixes does not matter
        notes = [
            n
            for n in notes
            if getattr(n, "code", "") not in ("meld_mixed_kinds", "meld_double_box")
        ]
    warnings.extend(notes)
    return meld


def _read_group(group: list[Placed], tiles: list[TileDetection], warnings: list[str]) -> str | None:
    """:func:`read_meld` on a group without duplicate readings."""
    ankan = _ankan_ends(group, tiles)
    if ankan is not None:
        return _ankan_string(ankan[0], ankan[1], warnings)
    ids = tuple(tiles[p.index].tile for p in group)
    backs = [p for p in group if tiles[p.index].face_down]
    faces = [tiles[p.index].tile for p in group if readable(tiles[p.index])]
    sideways = [p for p in group if tiles[p.index].angle == 90]
    kinds = Counter(kind(f) for f in faces)
    main = kinds.most_common(1)[0][0] if kinds else None
    if main is not None and len(kinds) > 1:
        warnings.append(PhotoWarning("meld_mixed_kinds", tiles=ids, kind=main))
    faces_main = [f for f in faces if kind(f) == main] or faces
    if backs and main is not None and len(group) == 3 and _blank_called(group, tiles, main):
        # §23: a called set lies face up (only an ankan shows backs, and no sideways tile):
        # its tiles read as backs with the sideways tile's kind next are that face, a haku
        # (blank, like a back)
        pon = _meld_string("pon", faces_main, 3)
        warnings.append(PhotoWarning("called_set_backs", tiles=ids, kind=main, meld=pon))
        return pon
    if backs:
        if main is not None and len(group) == 4 and len(backs) == 2 and len(faces) == 2:
            return _ankan_string(main, faces_main, warnings)
        if len(group) == 4 and not faces:
            warnings.append(PhotoWarning("ankan_all_backs"))
            return None
        warnings.append(PhotoWarning("meld_backs_not_ankan", tiles=ids))
        return None
    if main is None:
        return None
    if sideways:
        if len(sideways) > 2 or (len(sideways) == 2 and not share_slot(sideways[0], sideways[1])):
            if _four_alike(group, faces):
                # four of one kind side by side are all its tiles (§1), which only a kan
                # holds: a minkan, its turns misreported (it shows one sideways tile, §23)
                minkan = _meld_string("minkan", faces_main, 4)
                warnings.append(
                    PhotoWarning("minkan_two_sideways", tiles=ids, count=len(sideways), meld=minkan)
                )
                return minkan
            return None  # a called meld shows one sideways tile (two stacked for a kakan)
        if kinds[main] < 2:
            return None  # no two tiles of one kind: someone else's discards, not a set
        if len(group) == 3:
            if len(sideways) == 1 and sideways[0].raised and kinds[main] == 3:
                # §23: the one sideways tile lies beyond the set's line, where a kakan's
                # added tile lies on its called tile: the called tile under it went unseen
                kakan = _meld_string("kakan", faces_main, 4)
                warnings.append(
                    PhotoWarning("kakan_called_unseen", kind=main, tiles=ids, meld=kakan)
                )
                return kakan
            if _called_and_added(sideways, tiles, main):
                # §23: a pon shows one sideways tile; two of its kind, one lying beyond the
                # other, are a kakan's called and added tiles: its fourth tile went unseen
                kakan = _meld_string("kakan", faces_main, 4)
                warnings.append(PhotoWarning("kakan_fourth_unseen", tiles=ids, meld=kakan))
                return kakan
            return _meld_string("pon", faces_main, 3)
        if len(group) == 4:
            # Two tiles in one slot along the row, one on or beyond the other: a kakan's called
            # and added tiles (§23), however the detector reported their turn; a minkan's four
            # tiles lie side by side.
            stacked = any(
                one_beyond(p, q, tiles) for i, p in enumerate(group) for q in group[i + 1 :]
            )
            if not stacked and _seen_twice(group, tiles, main):
                # two boxes in one slot on the set's line, neither beyond the other, one read
                # as another kind: one tile seen twice (a called tile as an upright and a
                # sideways box), no fourth tile (a minkan's tiles touching may share a slot)
                pon = _meld_string("pon", faces_main, 3)
                warnings.append(PhotoWarning("set_double_box", tiles=ids, meld=pon))
                return pon
            return _meld_string("kakan" if stacked else "minkan", faces_main, 4)
        warnings.append(PhotoWarning("meld_size", tiles=ids, count=len(group)))
        return None
    stacked = any(share_slot(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
    double = _two_in_one(group) if len(group) == 3 and len(kinds) == 1 else None
    if double is not None and main != NORTH:
        # §23: a kakan's called tile with the added one beyond it, seen as one box.
        warnings.append(PhotoWarning("kakan_one_box", tile=tiles[double.index].tile, tiles=ids))
        return _meld_string("kakan", faces_main, 4)
    if len(group) in (3, 4) and len(kinds) == 1 and (main != NORTH or stacked):
        # A called set whose sideways tile was not seen as such (a common detector slip):
        # three alike → pon; four → kakan when two lie one beyond the other, else minkan.
        beyond = any(one_beyond(p, q, tiles) for i, p in enumerate(group) for q in group[i + 1 :])
        if len(group) == 4 and stacked and not beyond:
            # two boxes in one slot on the set's line, neither beyond the other: one tile
            # seen twice (a kakan's added tile lies beyond its called one, §23)
            pon = _meld_string("pon", faces_main, 3)
            warnings.append(PhotoWarning("set_double_box", tiles=ids, meld=pon))
            return pon
        name = "pon" if len(group) == 3 else ("kakan" if stacked else "minkan")
        meld = _meld_string(name, faces_main, len(group))
        warnings.append(PhotoWarning("set_no_sideways", count=len(group), kind=main, meld=meld))
        return meld
    return None


def _blank_called(group: list[Placed], tiles: list[TileDetection], main: str) -> bool:
    """A set with one sideways tile, of kind ``main``, whose other tiles are read as backs each
    with a ``main`` reading among its next ones (``swap_min_alt``): blank faces read as backs."""
    sideways = [p for p in group if tiles[p.index].angle == 90]
    backs = [tiles[p.index] for p in group if tiles[p.index].face_down]
    return (
        len(sideways) == 1
        and readable(tiles[sideways[0].index])
        and all(
            any(kind(t) == main and p >= S.swap_min_alt for t, p in d.alternatives) for d in backs
        )
    )


def _four_alike(group: list[Placed], faces: list[str]) -> bool:
    """Four face-up tiles of one kind, none sharing a slot with another (side by side)."""
    slots = all(not share_slot(p, q) for i, p in enumerate(group) for q in group[i + 1 :])
    return len(group) == 4 and len(faces) == 4 and len({kind(f) for f in faces}) == 1 and slots


def _called_and_added(sideways: list[Placed], tiles: list[TileDetection], main: str) -> bool:
    """Two sideways tiles read as the set's kind ``main`` in one slot along the row, one lying
    clearly beyond the other across it (``beyond``; one tile seen twice lies in place): a
    kakan's called tile and its added tile (§23)."""
    if len(sideways) != 2 or main == NORTH:
        return False
    p, q = sideways
    alike = all(kind(tiles[x.index].tile) == main for x in sideways)
    return alike and share_slot(p, q) and abs(p.off - q.off) > S.beyond


def _seen_twice(group: list[Placed], tiles: list[TileDetection], main: str) -> bool:
    """A box of the set's kind ``main`` and one read as another kind share one slot along the
    row (``share_slot``)."""

    def odd(p: Placed) -> bool:
        return kind(tiles[p.index].tile) != main

    return any(
        share_slot(p, q) and odd(p) != odd(q) for i, p in enumerate(group) for q in group[i + 1 :]
    )


def _ankan_ends(group: list[Placed], tiles: list[TileDetection]) -> tuple[str, list[str]] | None:
    """Four tiles whose two middle ones are faces of one kind and whose two ends are backs or
    may be (a ``back`` reading listed; a back and a haku are both blank): a concealed kan as
    laid (§23), its ends read as faces. Returns its kind and the middle faces; None when the
    group is not that, or when both ends are read face-down (the plain case)."""
    if len(group) != 4 or any(tiles[p.index].angle == 90 for p in group):
        return None  # an ankan lies all upright; a sideways tile makes it a called kan
    ends, middle = _ends_and_middle(group, tiles)
    if all(tiles[p.index].face_down for p in ends):
        return None
    faces = [tiles[p.index] for p in middle]
    if not all(readable(d) for d in faces) or not all(
        back_like(tiles[p.index], S.swap_min_alt) for p in ends
    ):
        return None
    if kind(faces[0].tile) != kind(faces[1].tile) and not may_share_kind(faces):
        return None
    main = vote_kind(faces) or kind(faces[0].tile)
    return main, [d.tile for d in faces if kind(d.tile) == main] or [main]


def _ends_and_middle(
    group: list[Placed], tiles: list[TileDetection]
) -> tuple[list[Placed], list[Placed]]:
    ordered = sorted(group, key=lambda p: p.t)
    return [ordered[0], ordered[-1]], ordered[1:-1]


def _two_in_one(group: list[Placed]) -> Placed | None:
    """The tile of a three-tile set whose box is ``two_in_one`` times its neighbours' size
    (square root of the area) or more: two tiles, one beyond the other, seen as one box."""
    for p in group:
        others = sorted(q.a for q in group if q is not p)
        if p.a >= S.two_in_one * others[len(others) // 2]:
            return p
    return None


def reread_meld(
    meld: str, indices: list[int], tiles: list[TileDetection], warnings: list[str]
) -> str:
    """A meld string rebuilt from its tiles' (corrected) readings, keeping its type (§23)."""
    name, _, shown = meld.partition(":")
    faces = [tiles[k].tile for k in indices if readable(tiles[k])]
    kinds = Counter(kind(as_sanma(f)) for f in faces)
    if not kinds:
        return meld
    main = kinds.most_common(1)[0][0]
    faces_main = [f for f in faces if kind(as_sanma(f)) == main]
    if name == "ankan":
        return _ankan_string(main, faces_main, warnings)
    return _meld_string(name, faces_main, sum(ch.isdigit() for ch in shown))
