"""Scoring a win (Result JSON of shared/CONTRACT.md): validity, han, fu, limit, payments.

Order of checks: win shape (no_win_shape), furiten (extension ``discards``), ron on an
extracted north or robbed ankan needs a yakuman (§23–§24, yakuman_only), the 2-han-from-yaku
minimum guaranteed over every wait (§18, insufficient_yaku; §18.2 non-riichi tsumo
exception). An invalid win is a false win paid as chombo (§R1): negative amounts.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.evaluate import Dora, Evaluation, dora_of
from engine.parse import Parsed
from engine.points import chombo_amounts, limited_base, ron_amount, tsumo_amounts
from engine.rules import Rules
from engine.tiles import WIND_LETTERS
from engine.waits import Guarantee, is_furiten, win_and_guarantee
from engine.yaku import Context

name_of_wind = {v: k for k, v in WIND_LETTERS.items()}


def _seat_letter(parsed: Parsed) -> str:
    return name_of_wind[parsed.situation.seat]


@cache
def _payer_seats(
    seat: str, seats: tuple[str, ...], roles: tuple[str, ...]
) -> tuple[tuple[int, str], ...]:
    """For payers listed by role (the dealer, then children): ``(index in the list, seat)``
    in settling order, shimocha first (§17). Few keys: seat × seats × role pattern."""
    i = seats.index(seat)
    others = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
    children = [s for s in others if s != seats[0]]
    rows = []
    for j, role in enumerate(roles):
        s = seats[0] if role == "dealer" else children.pop(0)
        rows.append((others.index(s), j, s))
    return tuple((j, s) for _, j, s in sorted(rows))


def _with_seats(
    amounts: list[tuple[str, int]], seat: str, rules: Rules, sign: int
) -> list[dict[str, Any]]:
    """Attach seats to ``[("dealer"|"child", n)]`` in shimocha-first order."""
    roles = tuple([role for role, _ in amounts])
    return [
        {"from": amounts[j][0], "seat": s, "amount": sign * amounts[j][1]}
        for j, s in _payer_seats(seat, rules.seats, roles)
    ]


def score(parsed: Parsed) -> dict[str, Any]:
    """Result JSON for a parsed hand with its winning tile."""
    hand, sit, rules = parsed.hand, parsed.situation, parsed.rules
    assert hand.win is not None and hand.win_kind is not None
    ctx = Context(sit, rules)
    dora = dora_of(hand, hand.win, hand.win_kind, sit, rules)
    # the actual win is (normally) one of the waits: its evaluation is the guarantee's value
    # of that wait (a shape kind, not a red five)
    ev, g, wait_kinds = win_and_guarantee(parsed, ctx, dora.total)
    required = g.required
    if ev is None:
        return _invalid(parsed, "no_win_shape", None, dora, g)
    if not sit.tsumo and is_furiten(hand, wait_kinds):
        return _invalid(parsed, "furiten", ev, dora, g)
    # a yaku worth a yakuman on its own needs at least that many yaku han in all
    has_yakuman_yaku = ev.yaku_han >= rules.yakuman_han and any(
        h >= rules.yakuman_han for _, h in ev.yaku
    )
    if has_yakuman_yaku and not rules.dora_with_yakuman:
        dora = Dora()  # riichi-4p: a yakuman counts its yakuman yaku only
    han = ev.yaku_han + dora.total
    if sit.ron_on is not None:
        ok = has_yakuman_yaku if rules.kita_ron_needs_yakuman_yaku else han >= rules.yakuman_han
        if not ok:
            return _invalid(parsed, "yakuman_only", ev, dora, g)
    if sit.tsumo and sit.riichi == "none" and rules.non_riichi_tsumo_exception:
        enough = ev.yaku_han >= required  # §18.2
    elif rules.guarantee:
        enough = g.ok and ev.yaku_han >= required
    else:
        enough = ev.yaku_han >= required
    if not enough:
        return _invalid(parsed, "insufficient_yaku", ev, dora, g)

    base, limit, multiple = limited_base(han, ev.fu, has_yakuman_yaku, rules)
    factor = rules.aka5man_payment_multiplier if hand.kita_aka else 1  # §A8
    seat = _seat_letter(parsed)
    if sit.tsumo:
        amounts = [
            (role, n * factor) for role, n in tsumo_amounts(base, sit.is_dealer, sit.honba, rules)
        ]
        payments = _with_seats(amounts, seat, rules, 1)
    else:
        payments = [
            {
                "from": "discarder",
                "amount": ron_amount(base, sit.is_dealer, sit.honba, rules) * factor,
            }
        ]
    deposits = sit.deposits * rules.riichi_deposit
    if rules.aka5man_doubles_deposits:
        deposits *= factor
    result = _body(True, None, ev, dora, g)
    result.update(
        han=han,
        limit=limit,
        yakuman_multiple=multiple,
        base=base,
        payments=payments,
        deposits=deposits,
        total=sum(p["amount"] for p in payments) + deposits,
    )
    return result


def _body(
    valid: bool, reason: str | None, ev: Evaluation | None, dora: Any, g: Guarantee
) -> dict[str, Any]:
    return {
        "valid": valid,
        "reason": reason,
        "han": (ev.yaku_han if ev else 0) + dora.total,
        "yaku_han": ev.yaku_han if ev else 0,
        "fu": ev.fu if ev else 0,
        "limit": None,
        "yakuman_multiple": 0,
        "yaku": [{"id": y, "han": h} for y, h in ev.yaku] if ev else [],
        "dora": dora.to_json(),
        "payments": [],
        "total": 0,
        "guarantee": g.to_json(),
        "fu_breakdown": [{"reason": r, "fu": f} for r, f in ev.fu_items] if ev else [],
        "form": ev.reading.form if ev else None,
        "wait": ev.reading.wait if ev else None,
    }


def _invalid(
    parsed: Parsed, reason: str, ev: Evaluation | None, dora: Any, g: Guarantee
) -> dict[str, Any]:
    """A false win (誤栄/誤自模) is paid as chombo (§18.1, §R1.3): negative amounts."""
    rules = parsed.rules
    amounts = chombo_amounts(parsed.situation.is_dealer, rules)
    payments = _with_seats(amounts, _seat_letter(parsed), rules, -1)
    result = _body(False, reason, ev, dora, g)
    result.update(payments=payments, total=sum(p["amount"] for p in payments), deposits=0)
    return result
