"""Resolving what the table says into the event to store: each win's value as han/fu or a
limit name (amounts from ``engine.points``, §11–§13, §33) or a hand JSON (:mod:`score_hand`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sanma_lens.engine import points
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.ability import check_ability
from sanma_lens.engine.game.amounts import tsumo_payments, yakuman_han
from sanma_lens.engine.game.codec import result_from_json
from sanma_lens.engine.game.events import HandResult, Outcome, Payment, Win
from sanma_lens.engine.game.schema import HAND_INPUT, check
from sanma_lens.engine.game.score_hand import win_from_hand
from sanma_lens.engine.game.seats import others_in_settlement_order, turn_order_from
from sanma_lens.engine.game.state import GameState
from sanma_lens.engine.game.validate import check_player, validate
from sanma_lens.engine.roles import Role, one_limit_higher
from sanma_lens.engine.rules import LimitStep, Rules

LIMIT_NAMES = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
# a field added here (or to a win) gets its shape in engine.game.schema.HAND_INPUT too, and a
# field of the stored result (codec.result_to_json) in schema.HAND_RESULT: only what fits is stored
_RESULT_FIELDS = {
    "outcome",
    "discarder",
    "wins",
    "tenpai",
    "nagashi",
    "noten_riichi",
    "offenders",
    "riichi",
    "mis_calls",
    "manemann",
    "aka5man",
    "byakko_declared",
    "kanpa",
}
_WIN_FIELDS = {
    "winner",
    "han",
    "fu",
    "limit",
    "yakuman_multiple",
    "hand",
    "seiryuu_han",
    "closed",
    "pao",
}


def resolve_hand(state: GameState, obj: Any) -> HandResult:
    """Turn a hand result as entered at the table into the event to store (InputError if bad).

    Each win gives its value as ``han`` (+ ``fu`` below 5 han), a ``limit`` name (``yakuman``
    with an optional ``yakuman_multiple``) or a ``hand`` JSON (docs/api.md) that
    ``engine.service.score_json`` scores with this hand's seat, round and honba. Amounts come
    from ``engine.points`` / the score result; the returned event carries them, so replaying it
    never scores again. The result is validated against the table (:func:`validate`).
    """
    if not isinstance(obj, dict):
        raise InputError("bad_hand_result", "a hand result must be a JSON object")
    unknown = set(obj) - _RESULT_FIELDS
    if unknown:
        raise InputError("bad_hand_result", f"unknown field(s) {sorted(unknown)}")
    if obj.get("outcome") not in [o.value for o in Outcome]:
        raise InputError("bad_outcome", f"outcome must be one of {[o.value for o in Outcome]}")
    raw = dict(obj)
    wins_in = raw.pop("wins", [])
    if not isinstance(wins_in, list):
        raise InputError("bad_hand_result", "wins must be a list")
    base = result_from_json({**raw, "wins": []})
    if base.outcome in (Outcome.RON, Outcome.TSUMO) and not wins_in:
        raise InputError("bad_hand_result", f"a {base.outcome.value} needs its wins")
    if base.outcome not in (Outcome.RON, Outcome.TSUMO) and wins_in:
        raise InputError("bad_hand_result", "only a ron or a tsumo has wins")
    validate(state, base if not wins_in else _placeholder(state, base, wins_in))
    check_ability(state, base)
    riichi = list(base.riichi)
    aka5man = base.aka5man
    wins: list[Win] = []
    order = turn_order_from(base.discarder if base.discarder is not None else 0, state.players)
    first = min((_win_player(state, w) for w in wins_in), key=order.index, default=None)
    for spec in wins_in:
        winner = _win_player(state, spec)
        honba = state.honba
        if state.rules.double_ron_honba == "first" and winner != first:
            honba = 0
        if "hand" in spec:
            win, riichi_declared, extracted_aka = win_from_hand(
                state, base, spec, winner, honba, riichi, collects_deposits=winner == first
            )
            if riichi_declared and winner not in riichi:
                riichi.append(winner)
            if extracted_aka:
                if aka5man not in (None, winner):
                    raise InputError(
                        "aka5man_mismatch",
                        "the winner's hand shows an extracted aka-5-man but aka5man names "
                        "another player",
                    )
                aka5man = winner
            elif aka5man == winner:
                raise InputError(
                    "aka5man_mismatch", "aka5man names the winner but their hand has kita_aka 0"
                )
        else:
            win = _win_from_value(state, base, spec, winner, honba)
        wins.append(win)
    result = replace(base, wins=tuple(wins), riichi=tuple(riichi), aka5man=aka5man)
    validate(state, result)
    check_ability(state, result)
    # last, the form of what is stored beside the result (the table's checks above give
    # their own codes): no unknown key in a nagashi or manemann entry, no value out of bounds
    check(HAND_INPUT, obj, "hand result", code="bad_hand_result")
    return result


def _placeholder(state: GameState, base: HandResult, wins_in: list[Any]) -> HandResult:
    """The result with dummy amounts, to validate players before anything is scored."""
    wins = []
    for spec in wins_in:
        winner = _win_player(state, spec)
        payers = (
            (base.discarder,)
            if base.outcome is Outcome.RON and base.discarder is not None
            else others_in_settlement_order(winner, state.players)
        )
        wins.append(Win(winner, tuple(Payment(p, 1000) for p in payers), closed=True))
    return replace(base, wins=tuple(wins))


def _win_player(state: GameState, spec: Any) -> int:
    if not isinstance(spec, dict):
        raise InputError("bad_win", "each win must be an object with a winner")
    unknown = set(spec) - _WIN_FIELDS
    if unknown:
        raise InputError("bad_win", f"unknown win field(s) {sorted(unknown)}")
    return check_player(spec.get("winner"), "winner", state.players)


def _win_from_value(
    state: GameState, result: HandResult, spec: dict[str, Any], winner: int, honba: int
) -> Win:
    """han/fu or a limit name → amounts with engine.points (§11–§13, §33)."""
    rules = state.rules.hand_rules
    if "hand" in spec:
        raise InputError("bad_win", "give a win's value as han/fu, a limit or a hand, not two")
    closed, pao = spec.get("closed"), spec.get("pao")
    if closed is not None and not isinstance(closed, bool):
        raise InputError("bad_win", "closed must be true or false")
    if pao is not None:
        pao = check_player(pao, "pao", state.players)
    yakuman_yaku = spec.get("limit") == "yakuman"
    named = {step.name: step for step in rules.named_limits}
    if "limit" in spec and spec["limit"] in named:
        if "han" in spec or "fu" in spec or "yakuman_multiple" in spec:
            raise InputError("bad_win", "give either a limit or han/fu, not both")
        return _named_limit_win(state, result, named[spec["limit"]], winner, honba, closed, pao)
    if "limit" in spec:
        if "han" in spec or "fu" in spec:
            raise InputError("bad_win", "give either a limit or han/fu, not both")
        han = _limit_han(spec["limit"], spec.get("yakuman_multiple", 1), rules)
        fu = 30
    else:
        given_han: Any = spec.get("han")
        if (
            isinstance(given_han, bool)
            or not isinstance(given_han, int)
            or not 1 <= given_han <= 200
        ):
            raise InputError("bad_han", f"han must be an integer from 1 to 200, got {given_han!r}")
        han = given_han
        if "yakuman_multiple" in spec:
            raise InputError("bad_win", "yakuman_multiple goes with limit 'yakuman'")
        given_fu: Any = spec.get("fu")
        if given_fu is None and han >= 5:
            given_fu = 30
        if isinstance(given_fu, bool) or not isinstance(given_fu, int) or not _valid_fu(given_fu):
            raise InputError(
                "bad_fu", f"fu must be 20, 25 or a multiple of 10 up to 140, got {given_fu!r}"
            )
        fu = given_fu
    # han given as a number are counted han: the rules' kazoe cap applies (standard: sanbaiman)
    base, limit, multiple = points.limited_base(han, fu, yakuman_yaku, rules)
    upgraded_from = None
    if (
        state.rules.role_of(winner) == Role.BYAKKO.value
        and winner in result.byakko_declared
        and han >= rules.byakko_upgrade_min_han
    ):  # docs/rules/ability.md ¶2.7 (i): a declared byakko's 6+ han count one limit higher
        upgraded_from = limit
        base, limit, upgraded = one_limit_higher(base, limit, multiple, rules)
        if state.rules.byakko_upgrade_earns_prize:
            multiple = upgraded
    dealer = winner == state.dealer
    if result.outcome is Outcome.RON:
        assert result.discarder is not None
        payments: tuple[Payment, ...] = (
            Payment(result.discarder, points.ron_amount(base, dealer, honba, rules)),
        )
    else:
        payments = tsumo_payments(state, winner, base, honba)
    return Win(
        winner,
        payments,
        multiple,
        han,
        fu if han < 5 else None,
        limit,
        seiryuu_han=_seiryuu_han(state, spec, winner),
        upgraded_from=upgraded_from,
        closed=closed,
        pao=pao,
    )


def _seiryuu_han(state: GameState, spec: dict[str, Any], winner: int) -> int | None:
    """Ability mahjong ¶2.3: a seiryuu's win given as han/fu or a limit says the han its
    role-only indicators added (``seiryuu_han``, 0 if none): the next hand's deposit depends on
    it (docs/rules/ability.md)."""
    given: Any = spec.get("seiryuu_han")
    if state.rules.role_of(winner) != Role.SEIRYUU.value:
        if given is not None:
            raise InputError("bad_win", "seiryuu_han is given for a seiryuu's win only")
        return None
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise InputError(
            "seiryuu_han_needed",
            f"{state.names[winner]} is the seiryuu: give seiryuu_han, the han the role-only "
            "indicators (ura, next kan dora) added, 0 if none (the next deposit is 4,000 then)",
        )
    return given


def _named_limit_win(
    state: GameState,
    result: HandResult,
    step: LimitStep,
    winner: int,
    honba: int,
    closed: bool | None,
    pao: int | None,
) -> Win:
    """A win worth a limit that the rules name but no han count reaches (ECIP's センター長,
    倍満相当: baiman above the mangan cap), paid at that limit's base."""
    rules = state.rules.hand_rules
    dealer = winner == state.dealer
    if result.outcome is Outcome.RON:
        assert result.discarder is not None
        payments: tuple[Payment, ...] = (
            Payment(result.discarder, points.ron_amount(step.base, dealer, honba, rules)),
        )
    else:
        payments = tsumo_payments(state, winner, step.base, honba)
    return Win(winner, payments, 0, None, None, step.name, closed=closed, pao=pao)


def _valid_fu(fu: int) -> bool:
    return fu in (20, 25) or (fu % 10 == 0 and 30 <= fu <= 140)


def _limit_han(name: Any, multiple: Any, rules: Rules) -> int:
    """The smallest han of a limit (§33): mangan 5 … sanbaiman 11, yakuman 15 (+5 per multiple)."""
    if name == "yakuman":
        if isinstance(multiple, bool) or not isinstance(multiple, int) or not 1 <= multiple <= 8:
            raise InputError("bad_limit", "yakuman_multiple must be an integer from 1 to 8")
        return yakuman_han(multiple, rules)
    for step in rules.limits:
        if step.name == name:
            return step.min_han
    names = [step.name for step in rules.limits + rules.named_limits] + ["yakuman"]
    raise InputError("bad_limit", f"limit must be one of {names}, got {name!r}")
