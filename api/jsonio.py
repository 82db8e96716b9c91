"""JSON in and out of the CLI and the HTTP service, with orjson: strict reading, fast writing.

Reading keeps to RFC 8259 where Python's ``json`` module does not: ``NaN`` and ``Infinity``
are refused (a stored ``NaN`` made a game unreadable: the answer could not be written), and so
are numbers beyond a double's range and text that is not UTF-8 (lone surrogates included). An
integer too long for 64 bits becomes a float, which every integer field then refuses; Python's
``json`` raised a bare ``ValueError`` past 4,300 digits instead. Every failure is an
``InputError("bad_json")`` whose message names the place, never the parser's internals.

Writing is ``orjson.dumps``: compact, UTF-8, about ten times ``json.dumps`` on the engine's
results, so a ``sanma score --batch`` line costs the engine's time rather than the encoder's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from sanma_lens.engine.errors import InputError

#: deepest nesting of arrays and objects a request may have. A hand JSON is 3 deep (its
#: ``rules``), a game's hand result 5 (a win's hand's rules); pydantic gives up at 255.
MAX_DEPTH = 32


def loads(data: bytes | str, where: str = "input") -> Any:
    """Strict JSON (see the module's notes); ``InputError("bad_json")`` naming ``where``."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        # orjson's words for a number past a double's range are about its own parsing
        what = "a number is too large" if "infinity when parsed" in exc.msg else exc.msg
        raise InputError(
            "bad_json", f"{where} is not valid JSON: {what} at {exc.lineno}:{exc.colno}"
        ) from exc


def loads_bounded(data: bytes | str, where: str = "request body", depth: int = MAX_DEPTH) -> Any:
    """:func:`loads`, then refuse nesting deeper than ``depth`` (``too_deep``)."""
    value = loads(data, where)
    if nesting(value, depth) > depth:
        raise InputError("too_deep", f"{where} is nested deeper than {depth} levels")
    return value


def nesting(value: Any, stop: int = MAX_DEPTH) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar is 0), counted no further than
    one past ``stop``; iterative, so no input can exhaust the stack."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > stop:
            return deepest
        pending.extend((child, level) for child in children)
    return deepest


#: ``orjson.loads`` itself (strict as :func:`loads`), raising its own ``ValueError``: for a
#: loop that explains a failure on its own (``sanma score --batch``), without a call between
loads_fast = orjson.loads


def dumps_line(obj: Any) -> bytes:
    """:func:`dumps` and a newline: one line of JSON Lines."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        return dumps(obj) + b"\n"


def line_writer(write: Callable[[bytes], Any]) -> Callable[[Any], None]:
    """A function that writes an object as one line of JSON Lines (:func:`dumps_line`) through
    ``write``: one call a line, for a batch's loop."""
    encode, newline = orjson.dumps, orjson.OPT_APPEND_NEWLINE

    def write_line(obj: Any) -> None:
        try:
            line = encode(obj, option=newline)
        except TypeError:
            line = dumps(obj) + b"\n"
        write(line)

    return write_line


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON. An integer past 64 bits (which orjson does not write) goes through
    ``json`` instead; a non-finite float is an error there, never written as ``NaN``."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        import json  # (the rare way: loaded only when taken)

        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
