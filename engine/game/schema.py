"""The shape of every stored event, declared once per event kind: what may be stored.

A game is its events (``engine.game.codec`` and ``api.storage``), kept for ever and read back
on every request. One malformed value stored once (an unknown key with a ``NaN`` in it, an
array nested 955 deep) made every later read of the game fail. So an event is checked against
its shape before it is stored: no unknown keys, integers and short texts in bounds, lists of a
bounded length, nesting of a bounded depth, finite numbers only. The shapes check the form of
the JSON, not the rules of the table (``engine.game.validate`` and ``resolve`` do that, with
their own error codes), so they are loose on values and strict on everything else.

:data:`EVENT_BODIES` has one entry per event kind; a new field of an event (a role, a fourth
seat) is one line in :data:`HAND_RESULT` and/or :data:`HAND_INPUT`.

:func:`check` refuses a value that does not fit (``InputError``, naming the path);
:func:`clean` reads back a stored value that does not fit, keeping what does and saying what
it dropped (games stored before these shapes existed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sanma_lens.engine.errors import InputError

MAX_SEATS = 4  # the shapes accept any seat number a table of up to four may use
MAX_INT = 10**9  # far beyond any point total, small enough to be exact in every JSON reader
MAX_TEXT = 64


@dataclass(frozen=True)
class Int:
    """A JSON integer (not a boolean) from ``lo`` to ``hi``."""

    lo: int = -MAX_INT
    hi: int = MAX_INT


@dataclass(frozen=True)
class Bool:
    """``true`` or ``false``."""


@dataclass(frozen=True)
class Text:
    """A string of at most ``max_len`` characters."""

    max_len: int = MAX_TEXT


@dataclass(frozen=True)
class Nullable:
    """``null`` or ``inner``."""

    inner: Shape


@dataclass(frozen=True)
class ListOf:
    """An array of at most ``max_items`` values of ``item``."""

    item: Shape
    max_items: int


@dataclass(frozen=True, eq=False)
class Obj:
    """An object with only these keys, each of its shape; ``required`` keys must be there."""

    fields: Mapping[str, Shape]
    required: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Json:
    """Any JSON value (a hand JSON, which the engine reads and checks itself), bounded:
    nesting at most ``max_depth``, at most ``max_items`` values in all, texts of at most
    ``max_text`` characters, finite numbers."""

    max_depth: int = 6
    max_items: int = 512
    max_text: int = 1024


Shape = Int | Bool | Text | Nullable | ListOf | Obj | Json

SEAT = Int(0, MAX_SEATS - 1)
SEATS = ListOf(Int(), MAX_SEATS)
#: ability mahjong's kanpa declarations of a hand: each genbu once against each other player,
#: and the declarations at once that did not hold
MAX_KANPA = 16
KANPA = Obj(
    {
        "by": Int(),
        "target": Int(),
        "tile": Text(8),
        "discarder": Nullable(Int()),
        "at_once": Bool(),
    },
    required=frozenset({"by", "target", "tile"}),
)

#: a resolved hand result as ``engine.game.codec.result_to_json`` writes it
HAND_RESULT = Obj(
    {
        "outcome": Text(16),
        "discarder": Nullable(SEAT),
        "wins": ListOf(
            Obj(
                {
                    "winner": SEAT,
                    "payments": ListOf(Obj({"payer": SEAT, "amount": Int()}), MAX_SEATS),
                    "yakuman_multiple": Int(0, 1000),
                    "han": Nullable(Int()),
                    "fu": Nullable(Int()),
                    "limit": Nullable(Text(16)),
                    "yaku": ListOf(Text(), 64),
                    # ability mahjong (docs/rules/ability.md): written only where set
                    "seiryuu_han": Int(0, 1000),
                    "upgraded_from": Text(16),
                    "closed": Bool(),  # ECIP: deposits to a closed win (absent: not said)
                    "pao": SEAT,  # ECIP 包: who pays a fed yakuman tsumo (absent: none)
                }
            ),
            MAX_SEATS,
        ),
        "tenpai": SEATS,
        "nagashi": ListOf(Obj({"player": SEAT, "double_riichi": Bool()}), MAX_SEATS),
        "noten_riichi": SEATS,
        "offenders": SEATS,
        "riichi": SEATS,
        "mis_calls": ListOf(SEAT, 16),
        "manemann": ListOf(Obj({"copier": SEAT, "copied": SEAT, "turns": Int()}), 8),
        "aka5man": Nullable(SEAT),
        "byakko_declared": SEATS,
        "kanpa": ListOf(KANPA, MAX_KANPA),
    },
    required=frozenset({"outcome"}),
)

#: a hand result as the table entered it (``POST /v1/games/{id}/hands``; see
#: ``engine.game.resolve``), stored beside its resolution for the hand log
HAND_INPUT = Obj(
    {
        "outcome": Text(16),
        "discarder": Nullable(Int()),
        "wins": ListOf(
            Obj(
                {
                    "winner": Int(),
                    "han": Int(),
                    "fu": Nullable(Int()),
                    "limit": Text(16),
                    "yakuman_multiple": Int(),
                    "hand": Json(),
                    "seiryuu_han": Int(),
                    "closed": Bool(),
                    "pao": Int(),
                }
            ),
            MAX_SEATS,
        ),
        "tenpai": SEATS,
        "nagashi": ListOf(Obj({"player": Int(), "double_riichi": Bool()}), MAX_SEATS),
        "noten_riichi": SEATS,
        "offenders": SEATS,
        "riichi": SEATS,
        "mis_calls": ListOf(Int(), 16),
        "manemann": ListOf(Obj({"copier": Int(), "copied": Int(), "turns": Int()}), 8),
        "aka5man": Nullable(Int()),
        "byakko_declared": SEATS,
        "kanpa": ListOf(KANPA, MAX_KANPA),
    },
    required=frozenset({"outcome"}),
)

#: the body of each kind of stored event
EVENT_BODIES: dict[str, Obj] = {
    "hand": Obj({"result": HAND_RESULT, "input": Nullable(HAND_INPUT)}, frozenset({"result"})),
    "undo": Obj({"undoes": Int(1, MAX_INT)}, frozenset({"undoes"})),
}


# ---------------------------------------------------------------- checking


def check(shape: Shape, value: Any, where: str, code: str = "bad_event") -> None:
    """Refuse ``value`` unless it has ``shape``: ``InputError(code)`` naming the path."""
    problem = _problem(shape, value, where)
    if problem is not None:
        raise InputError(code, problem)


def _problem(shape: Shape, value: Any, where: str) -> str | None:
    """What is wrong with ``value`` (the first thing found), or None."""
    if isinstance(shape, Nullable):
        return None if value is None else _problem(shape.inner, value, where)
    if isinstance(shape, Int):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{where} must be an integer"
        if not shape.lo <= value <= shape.hi:
            return f"{where} must be from {shape.lo} to {shape.hi}"
        return None
    if isinstance(shape, Bool):
        return None if isinstance(value, bool) else f"{where} must be true or false"
    if isinstance(shape, Text):
        if not isinstance(value, str):
            return f"{where} must be a string"
        return None if len(value) <= shape.max_len else f"{where} is longer than {shape.max_len}"
    if isinstance(shape, ListOf):
        if not isinstance(value, list):
            return f"{where} must be a list"
        if len(value) > shape.max_items:
            return f"{where} has more than {shape.max_items} entries"
        for n, item in enumerate(value):
            problem = _problem(shape.item, item, f"{where}[{n}]")
            if problem is not None:
                return problem
        return None
    if isinstance(shape, Obj):
        if not isinstance(value, dict):
            return f"{where} must be an object"
        unknown = sorted(str(k) for k in value if k not in shape.fields)
        if unknown:
            return f"{where} has unknown field(s) {unknown}"
        missing = sorted(shape.required - set(value))
        if missing:
            return f"{where} lacks {missing}"
        for key, item in value.items():
            problem = _problem(shape.fields[key], item, f"{where}.{key}")
            if problem is not None:
                return problem
        return None
    return _json_problem(shape, value, where)


def _json_problem(shape: Json, value: Any, where: str) -> str | None:
    """Any JSON within the bounds of ``shape``; iterative, so no depth can exhaust the stack."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while pending:
        item, depth = pending.pop()
        seen += 1
        if seen > shape.max_items:
            return f"{where} has more than {shape.max_items} values"
        if isinstance(item, dict | list):
            if depth >= shape.max_depth:
                return f"{where} is nested deeper than {shape.max_depth} levels"
            if isinstance(item, dict):
                if any(not isinstance(k, str) or len(k) > shape.max_text for k in item):
                    return f"{where} has a key that is not a short string"
                children = list(item.values())
            else:
                children = item
            pending.extend((child, depth + 1) for child in children)
        elif isinstance(item, str):
            if len(item) > shape.max_text:
                return f"{where} has a text longer than {shape.max_text}"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{where} has a number that is not finite"
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                return f"{where} has an integer out of range"
        else:
            return f"{where} has a value that is not JSON"
    return None


# ---------------------------------------------------------------- reading back


class _Dropped:
    """What :func:`clean` returns for a value that cannot be kept."""


DROPPED = _Dropped()


def clean(shape: Shape, value: Any, where: str, dropped: list[str]) -> Any:
    """``value`` with every part that does not fit ``shape`` left out, each named in
    ``dropped``; :data:`DROPPED` when nothing of it can be kept (a missing required key)."""
    problem = _problem(shape, value, where)
    if problem is None:
        return value
    if isinstance(shape, Nullable) and value is not None:
        return clean(shape.inner, value, where, dropped)
    if isinstance(shape, ListOf) and isinstance(value, list):
        kept = []
        for n, item in enumerate(value[: shape.max_items]):
            item = clean(shape.item, item, f"{where}[{n}]", dropped)
            if item is not DROPPED:
                kept.append(item)
        if len(value) > shape.max_items:
            dropped.append(f"{where}[{shape.max_items}:] (more than {shape.max_items} entries)")
        return kept
    if isinstance(shape, Obj) and isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key not in shape.fields:
                dropped.append(f"{where}.{key} (unknown field)")
                continue
            item = clean(shape.fields[key], item, f"{where}.{key}", dropped)
            if item is not DROPPED:
                out[key] = item
        if shape.required - set(out):
            return DROPPED
        return out
    dropped.append(problem)
    return DROPPED


def read_event_body(kind: str, body: Any, where: str) -> tuple[dict[str, Any] | None, list[str]]:
    """A stored event's body fitted to its shape, and what was dropped to fit it; None when
    the body cannot be read at all (an unknown kind, or no hand result)."""
    shape = EVENT_BODIES.get(kind)
    if shape is None:
        return None, [f"{where} is of an unknown kind"]
    dropped: list[str] = []
    out = clean(shape, body, where, dropped)
    if out is DROPPED:
        return None, dropped or [f"{where} cannot be read"]
    return out, dropped
