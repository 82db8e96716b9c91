"""The photo's second looks as one decoder: looks propose whole-hand edits, one rule chooses.

After the first layout, the hand as read may be short of tiles (§1: 13 − 3 per meld, plus the
winning tile), lack its winning tile, or show a pon where a kakan lies. Each *look* proposes
:class:`Edit` s of the detections that would read the photo another way — a tile read in a
hole of the row, a box cut in two, two halves joined, an unsure hit put back, a dropped hit
taken as an ankan's face-down end, a kakan's added tile, another player's discard dropped as
a double — each with the readings' likelihood (``evidence``), what it means to achieve (its
:class:`Goal`), where its tiles must land in the layout and which parts of the hand it must
leave as they were.

:func:`decode_hand` lays each edit out and :func:`verdict` says whether the new whole-hand
reading is better: no fifth tile of a kind made, the edit's tiles placed where it meant, the hand
otherwise as it was, and its goal reached (the hand nearer its count, a winning tile found, a
pon turned kakan, …). Edits are weighed by their look's prior (how far its kind of evidence
is trusted: the row's own geometry first, a dropped unsure hit last) and then by evidence;
the first that :func:`verdict` accepts is taken, and the looks propose again on the new
reading, until none is taken. The warnings of the edits taken lead the layout's own; an edit
marked *tentative* (its evidence too weak to change the hand) that would be accepted on the
final reading only adds its warning, for the player to check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.layout.notation import as_sanma, kind, unpack
from sanma_lens.vision.layout.rulefix import complete
from sanma_lens.vision.layout.sanity import kind_counts
from sanma_lens.vision.limits import NO_DEADLINE, Deadline
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.types import TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning


class Goal(Enum):
    """What an edit means to make of the hand (:func:`verdict` checks it)."""

    FILL = "fill"  # the hand nearer its count (§1), holding no more than it may
    WIN = "win"  # a 13-tile hand's winning tile, the rest as it was
    COMPLETE = "complete"  # a tile missed in the row: 14 tiles in a winning shape (§1)
    KAKAN = "kakan"  # one pon turned into the kakan of its kind, the rest as it was (§23)
    ANKAN = "ankan"  # one more meld, a concealed kan, and the hand no longer short (§1, §23)
    CALL = "call"  # a called tile of a set of its kind: the hand nearer its count, or as near
    # with a pon turned kakan or fewer things to check
    REREAD = "reread"  # tiles read again, surer: the hand may change, but makes no fifth tile


# Looks, most trusted first: their prior. The row's own geometry and the rules say most (a hole
# in the row, the place past its end); a box's size next; the classifier's dropped hits least.
# A tile read again along its own axes changes no count; it is weighed after the rest, and
# another player's discards (vision/discards.py), which change no part of the hand, last.
PRIORS: tuple[str, ...] = (
    "hole",
    "win",
    "missed",
    "halves",
    "split",
    "refill",
    "ankan",
    "kakan",
    "askew",
    "pond",
)
FIELDS = ("hand", "win", "melds", "kita", "kita_aka", "dora")  # the hand JSON's tile fields


@dataclass(frozen=True)
class Edit:
    """The detections read another way, and what that must achieve to be taken.

    ``tiles``: the whole new detection list; ``placed``: its tiles this edit adds, which must
    land in one of the groups ``lands``; ``keeps``: hand fields that must stay as they were;
    ``new_melds``: whether a meld not read before may appear (a tile cut out of a box must
    fill the hand, not make up a set); ``kind``: the set's kind a joined called tile must
    make (``Goal.CALL``); ``all_seen``: a kakan's four tiles must all be boxes;
    ``tentative``: never taken, only said when it would be; ``evidence``: the likelihood of
    the added readings; ``say``: the warnings that name it, from the layouts before and after
    (what changed is known once the edit is laid out)."""

    look: str
    goal: Goal
    tiles: tuple[TileDetection, ...]
    placed: tuple[TileDetection, ...]
    say: Callable[[Layout, Layout], tuple[PhotoWarning, ...]]
    evidence: float = 1.0
    lands: frozenset[str] = frozenset({"hand", "win", "meld", "kita", "dora", "other"})
    keeps: frozenset[str] = frozenset()
    new_melds: bool = True
    set_kind: str | None = None
    all_seen: bool = False
    tentative: bool = False


def saying(*notes: PhotoWarning) -> Callable[[Layout, Layout], tuple[PhotoWarning, ...]]:
    """An edit's ``say`` when its warnings are known before it is laid out."""
    return lambda _was, _now: notes


@dataclass(frozen=True)
class Hypothesis:
    """A whole-hand reading of the photo: the detections, their layout, and the warnings of
    the edits that made it (the layout's own warnings follow them)."""

    tiles: tuple[TileDetection, ...]
    layout: Layout
    notes: tuple[PhotoWarning, ...] = field(default=())

    @property
    def warnings(self) -> list[str]:
        return [*self.notes, *self.layout.warnings]


@dataclass(frozen=True)
class Look:
    """A second look: its name (its prior, ``PRIORS``) and what it proposes for a reading."""

    name: str
    propose: Callable[[Hypothesis], Sequence[Edit]]


def short_by(hand: Mapping[str, object]) -> int:
    """How many tiles the hand JSON's concealed part lacks (§1: 13 − 3 per meld, plus the
    winning tile when there is one); 0 when it holds enough or more.

    >>> short_by({"hand": "123p456s", "win": "1p", "melds": ["pon:111z"]})
    4
    """
    called = hand.get("melds")
    melds = len(called) if isinstance(called, (list, tuple)) else 0
    held = len(unpack(str(hand.get("hand") or ""))) + bool(hand.get("win"))
    needed = 13 - 3 * melds + bool(hand.get("win"))
    return max(0, needed - held)


def over_full(hand: dict[str, object]) -> bool:
    """Whether a hand JSON holds more concealed tiles than §1 allows: 14 − 3 per meld with
    the winning tile (kans' fourth tiles are in their melds).

    >>> over_full({"hand": "11122233344455p", "win": "5p", "melds": []})
    True
    """
    melds = len(hand.get("melds") or [])  # type: ignore[arg-type]
    held = len(unpack(str(hand.get("hand") or ""))) + bool(hand.get("win"))
    return held > 14 - 3 * melds


def makes_a_fifth(was: dict[str, object], now: dict[str, object]) -> bool:
    """Whether hand ``now`` holds some kind five times or more, and more often than ``was``
    did (a fifth tile the change made; one misread before it is no fault of the change)."""
    before, after = kind_counts(was), kind_counts(now)
    return any(n > 4 and n > before[k] for k, n in after.items())


def meld_kind(meld: str) -> str:
    """The kind of a meld's tiles: ``"pon:055p"`` → ``"5p"``."""
    return kind(unpack(meld.partition(":")[2])[0])


def pon_to_kakan(was: dict[str, object], now: dict[str, object]) -> tuple[str, str] | None:
    """``(pon, kakan)`` when hand ``now`` is hand ``was`` with one pon turned into the kakan of
    its kind and nothing else changed; None otherwise.

    >>> pon_to_kakan({"melds": ["pon:111z"]}, {"melds": ["kakan:1111z"]})
    ('pon:111z', 'kakan:1111z')
    """
    if any(now.get(k) != was.get(k) for k in ("hand", "win", "kita", "kita_aka", "dora")):
        return None
    before = [str(m) for m in was.get("melds") or []]  # type: ignore[attr-defined]
    after = [str(m) for m in now.get("melds") or []]  # type: ignore[attr-defined]
    gone = [m for m in before if m not in after]
    new = [m for m in after if m not in before]
    if len(before) != len(after) or len(gone) != 1 or len(new) != 1:
        return None
    if not (gone[0].startswith("pon:") and new[0].startswith("kakan:")):
        return None
    if meld_kind(gone[0]) != meld_kind(new[0]):
        return None
    return gone[0], new[0]


def held(hand: Mapping[str, object]) -> list[str]:
    """The kinds of a hand JSON's concealed tiles (the aka-5-man a north)."""
    return [kind(as_sanma(t)) for t in unpack(str(hand.get("hand") or ""))]


def verdict(now: Hypothesis, edit: Edit, again: Layout) -> bool:
    """Whether ``again`` (the photo laid out with ``edit.tiles``) is a better reading than
    ``now`` in the way ``edit`` means: the one rule every look's edits are judged by."""
    was, hand = now.layout.hand, again.hand
    if makes_a_fifth(was, hand):
        return False  # §1: four tiles of a kind exist
    boxes = {t.box for t in edit.placed}
    if any(t.group not in edit.lands for t in again.tiles if t.box in boxes):
        return False
    if any(hand.get(k) != was.get(k) for k in edit.keeps):
        return False
    before, after = Counter(now.layout.melds), Counter(again.melds)
    if not edit.new_melds and not after <= before:
        return False
    short, was_short = short_by(hand), short_by(was)
    goal = edit.goal
    if goal is Goal.FILL:
        return short < was_short and not over_full(hand)
    if goal is Goal.WIN:
        return was.get("win") is None and hand.get("win") == edit.placed[0].tile
    if goal is Goal.COMPLETE:
        win = hand.get("win")
        return win is not None and complete([*held(hand), kind(as_sanma(str(win)))])
    if goal is Goal.KAKAN:
        change = pon_to_kakan(was, hand)
        return change is not None and (not edit.all_seen or _all_seen(again, change[1]))
    if goal is Goal.ANKAN:
        new = list((after - before).elements())
        return (
            len(again.melds) == len(now.layout.melds) + 1
            and len(new) == 1
            and new[0].startswith("ankan:")
            and short == 0
        )
    if goal is Goal.REREAD:
        return True  # the readings' own evidence chose (the look), the checks above hold
    # Goal.CALL: the joint tile is the called tile of a new set of its own kind
    new = list((after - before).elements())
    if not new or any(meld_kind(m) != edit.set_kind for m in new):
        return False
    if short != was_short:
        return short < was_short
    return pon_to_kakan(was, hand) is not None or len(again.warnings) < len(now.layout.warnings)


def _all_seen(layout: Layout, kakan: str) -> bool:
    """The kakan's four tiles are all boxes of the layout's melds: a cut that only made a
    pair one beyond the other, leaving the kakan's fourth tile unseen, proves nothing."""
    k = meld_kind(kakan)
    return (
        sum(t.group == "meld" and t.tile[:1].isdigit() and kind(t.tile) == k for t in layout.tiles)
        >= 4
    )


def decode_hand(
    start: Hypothesis,
    looks: Sequence[Look],
    size: tuple[int, int],
    deadline: Deadline = NO_DEADLINE,
    rounds: int = S.max_rounds,
) -> Hypothesis:
    """The best reading reachable from ``start`` by the looks' edits (module docstring).

    Looks are asked in order of their prior, lazily: a look's edits are only proposed (and
    its crops read) when no edit of a more trusted look was taken this round; a look's own
    edits are tried most likely first."""
    now = start
    ordered = sorted(looks, key=lambda look: PRIORS.index(look.name))
    for _ in range(rounds):
        taken = None
        for look in ordered:
            deadline.check()
            edits = [e for e in look.propose(now) if not e.tentative]
            for edit in sorted(edits, key=lambda e: e.evidence, reverse=True):
                again = reconstruct(list(edit.tiles), image_size=size)
                if verdict(now, edit, again):
                    said = edit.say(now.layout, again)
                    taken = Hypothesis(edit.tiles, again, (*now.notes, *said))
                    break
            if taken is not None:
                break
        if taken is None:
            break
        now = taken
    doubts: list[PhotoWarning] = []
    for look in ordered:
        for edit in (e for e in look.propose(now) if e.tentative):
            again = reconstruct(list(edit.tiles), image_size=size)
            if verdict(now, edit, again):
                doubts.extend(edit.say(now.layout, again))
    if doubts:
        now = Hypothesis(
            now.tiles,
            Layout(now.layout.tiles, now.layout.hand, [*now.layout.warnings, *doubts]),
            now.notes,
        )
    return now
