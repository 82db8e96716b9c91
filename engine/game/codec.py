"""The stored event: a resolved hand result to plain JSON and back."""

from __future__ import annotations

from typing import Any

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.events import (
    HandResult,
    Kanpa,
    Manemann,
    Nagashi,
    Outcome,
    Payment,
    Win,
)


def result_to_json(result: HandResult) -> dict[str, Any]:
    """The stored form of a resolved hand result (the event), plain JSON types only; the
    fields of ability mahjong only where they are set, so that other games' events are
    stored as they always were."""
    out = {
        "outcome": result.outcome.value,
        "discarder": result.discarder,
        "wins": [_win_to_json(w) for w in result.wins],
        "tenpai": list(result.tenpai),
        "nagashi": [{"player": n.player, "double_riichi": n.double_riichi} for n in result.nagashi],
        "noten_riichi": list(result.noten_riichi),
        "offenders": list(result.offenders),
        "riichi": list(result.riichi),
        "mis_calls": list(result.mis_calls),
        "manemann": [
            {"copier": m.copier, "copied": m.copied, "turns": m.turns} for m in result.manemann
        ],
        "aka5man": result.aka5man,
    }
    if result.byakko_declared:
        out["byakko_declared"] = list(result.byakko_declared)
    if result.kanpa:
        out["kanpa"] = [_kanpa_to_json(k) for k in result.kanpa]
    return out


def _win_to_json(w: Win) -> dict[str, Any]:
    out = {
        "winner": w.winner,
        "payments": [{"payer": p.payer, "amount": p.amount} for p in w.payments],
        "yakuman_multiple": w.yakuman_multiple,
        "han": w.han,
        "fu": w.fu,
        "limit": w.limit,
        "yaku": list(w.yaku),
    }
    if w.seiryuu_han is not None:
        out["seiryuu_han"] = w.seiryuu_han
    if w.upgraded_from is not None:
        out["upgraded_from"] = w.upgraded_from
    if w.closed is not None:  # ECIP: only when said
        out["closed"] = w.closed
    if w.pao is not None:
        out["pao"] = w.pao
    return out


def _kanpa_to_json(k: Kanpa) -> dict[str, Any]:
    out: dict[str, Any] = {"by": k.by, "target": k.target, "tile": k.tile}
    if k.discarder is not None:
        out["discarder"] = k.discarder
    if k.at_once:
        out["at_once"] = True
    return out


def result_from_json(obj: Any) -> HandResult:
    """Read a stored event back (InputError ``bad_event`` on anything malformed)."""
    try:
        return HandResult(
            outcome=Outcome(obj["outcome"]),
            discarder=_opt_int(obj.get("discarder")),
            wins=tuple(
                Win(
                    winner=_int(w["winner"]),
                    payments=tuple(
                        Payment(_int(p["payer"]), _int(p["amount"])) for p in w["payments"]
                    ),
                    yakuman_multiple=_int(w.get("yakuman_multiple", 0)),
                    han=_opt_int(w.get("han")),
                    fu=_opt_int(w.get("fu")),
                    limit=w.get("limit"),
                    yaku=tuple(str(y) for y in w.get("yaku", ())),
                    seiryuu_han=_opt_int(w.get("seiryuu_han")),
                    upgraded_from=_opt_str(w.get("upgraded_from")),
                    closed=_opt_bool(w.get("closed")),
                    pao=_opt_int(w.get("pao")),
                )
                for w in obj.get("wins", ())
            ),
            tenpai=_ints(obj.get("tenpai", ())),
            nagashi=tuple(
                Nagashi(_int(n["player"]), _bool(n.get("double_riichi", False)))
                for n in obj.get("nagashi", ())
            ),
            noten_riichi=_ints(obj.get("noten_riichi", ())),
            offenders=_ints(obj.get("offenders", ())),
            riichi=_ints(obj.get("riichi", ())),
            mis_calls=_ints(obj.get("mis_calls", ())),
            manemann=tuple(
                Manemann(_int(m["copier"]), _int(m["copied"]), _int(m["turns"]))
                for m in obj.get("manemann", ())
            ),
            aka5man=_opt_int(obj.get("aka5man")),
            byakko_declared=_ints(obj.get("byakko_declared", ())),
            kanpa=tuple(
                Kanpa(
                    _int(k["by"]),
                    _int(k["target"]),
                    _str(k["tile"]),
                    _opt_int(k.get("discarder")),
                    _bool(k.get("at_once", False)),
                )
                for k in obj.get("kanpa", ())
            ),
        )
    except KeyError as exc:
        raise InputError("bad_event", f"malformed hand event: no {exc.args[0]!r} field") from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise InputError("bad_event", f"malformed hand event: {_plain_words(exc)}") from exc


def _plain_words(exc: Exception) -> str:
    """What went wrong, without Python's own words for it (a message names no repr)."""
    if isinstance(exc, TypeError) and str(exc).startswith(("expected ", "expected")):
        return str(exc)  # ours: _int, _bool, _ints
    if isinstance(exc, ValueError) and "is not a valid Outcome" in str(exc):
        return "unknown outcome"
    return "a field has the wrong type"


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _opt_bool(value: Any) -> bool | None:
    return None if value is None else _bool(value)


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _ints(values: Any) -> tuple[int, ...]:
    if not isinstance(values, list | tuple):
        raise TypeError(f"expected a list of integers, got {values!r}")
    return tuple(_int(v) for v in values)
