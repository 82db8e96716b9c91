"""Scoring a win (Result JSON of docs/api.md): validity, han, fu, limit, payments.

Order of checks: win shape (no_win_shape), a win on the kanpa tile that ability mahjong
forbids (kanpa, docs/rules/ability.md ¶10), furiten (extension ``discards``), ron on an
extracted north or robbed ankan needs a yakuman (§23–§24, yakuman_only), the 2-han-from-yaku
minimum guaranteed over every wait (§18, insufficient_yaku; §18.2 non-riichi tsumo exception).
An invalid win is a false win paid as chombo (§R1): negative amounts.

With a winner's role (``engine.roles``) the result has an ``ability`` object saying what the
role changed: the seiryuu's role-only indicators and their han, the suzaku's halved payments,
the declared byakko's upgrade or mangan payment, a kanpa refusal.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sanma_lens.engine.evaluate import Dora, Evaluation, dora_of
from sanma_lens.engine.parse import Parsed, Situation
from sanma_lens.engine.points import chombo_amounts, limited_base, ron_amount, tsumo_amounts
from sanma_lens.engine.roles import (
    Role,
    RoleHand,
    byakko_pays,
    byakko_upgrades,
    kanpa_forbids,
    one_limit_higher,
    seiryuu_indicators,
    suzaku_chombo,
    suzaku_deposits,
    suzaku_share,
    with_role_ura,
)
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.tiles import EAST, NAMES, WIND_LETTERS
from sanma_lens.engine.waits import Guarantee, is_furiten, win_and_guarantee
from sanma_lens.engine.yaku import Context

name_of_wind = {v: k for k, v in WIND_LETTERS.items()}


@cache
def _payer_order(seat: str, seats: tuple[str, ...], dealer: bool) -> tuple[tuple[int, str], ...]:
    """For the payers of a win or chombo of ``seat`` as :mod:`engine.points` lists them (the
    dealer, then children; all children when ``seat`` is the dealer): ``(index in that list,
    seat)`` in settling order, shimocha first (§17). Few keys: seat × seats × dealer."""
    i = seats.index(seat)
    others = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
    children = [s for s in others if s != seats[0]]
    rows = []
    for j in range(len(others)):
        s = seats[0] if j == 0 and not dealer else children.pop(0)
        rows.append((others.index(s), j, s))
    return tuple((j, s) for _, j, s in sorted(rows))


def _payments(
    amounts: list[tuple[str, int]], order: tuple[tuple[int, str], ...], factor: int
) -> tuple[list[dict[str, Any]], int]:
    """Payment rows ``{"from", "seat", "amount"}`` of ``[("dealer"|"child", n)]`` in settling
    order (``order``: :func:`_payer_order`), each amount times ``factor``, and their sum."""
    rows = []
    total = 0
    for j, s in order:
        role, n = amounts[j]
        n *= factor
        total += n
        rows.append({"from": role, "seat": s, "amount": n})
    return rows, total


class RoleEffects:
    """What a winner's role changed in one score (docs/rules/ability.md), filled while scoring
    and shown as the result's ``ability`` object."""

    __slots__ = ("role", "ura", "extra", "upgrade", "halved", "byakko_payment", "refused")

    def __init__(self, role: RoleHand) -> None:
        self.role = role
        self.ura = 0  # seiryuu: ura han counted only because of the role
        self.extra = 0  # seiryuu: han of the next kan-dora indicator and its ura
        self.upgrade: tuple[str | None, str | None] | None = None  # byakko: (from, to)
        self.halved: list[dict[str, Any]] | None = None  # suzaku: the payments before halving
        self.byakko_payment: list[dict[str, Any]] = []
        self.refused = False  # a win on the kanpa tile

    def to_json(self, result: dict[str, Any]) -> dict[str, Any]:
        role = self.role
        paid = sum(p["amount"] for p in self.byakko_payment)
        return {
            "role": role.role.value,
            "seiryuu": (
                {"ura": self.ura, "extra_dora": self.extra, "han": self.ura + self.extra}
                if role.role is Role.SEIRYUU
                else None
            ),
            "suzaku": (
                {"payments_before_halving": self.halved} if role.role is Role.SUZAKU else None
            ),
            "byakko": (
                {
                    "declared": role.byakko_declared,
                    "upgrade": (
                        {"from": self.upgrade[0], "to": self.upgrade[1]} if self.upgrade else None
                    ),
                    "mangan_payment": self.byakko_payment,
                    "paid": paid,
                }
                if role.role is Role.BYAKKO
                else None
            ),
            "kanpa": (
                {
                    "tile": NAMES[role.kanpa],
                    "discarder_genbu": role.discarder_genbu,
                    "refused": self.refused,
                }
                if role.kanpa is not None
                else None
            ),
            "net": result["total"] - paid,
        }


def score(parsed: Parsed) -> dict[str, Any]:
    """Result JSON for a parsed hand with its winning tile."""
    if parsed.role is None:
        return _score(parsed, None)
    effects = RoleEffects(parsed.role)
    result = _score(parsed, effects)
    if effects.role.role is Role.SEIRYUU:
        result["dora"]["extra"] = effects.extra
    result["ability"] = effects.to_json(result)
    return result


def _score(parsed: Parsed, effects: RoleEffects | None) -> dict[str, Any]:
    """:func:`score`; ``effects``: the winner's role, or None (sanma-1.3 alone)."""
    hand, sit, rules = parsed.hand, parsed.situation, parsed.rules
    assert hand.win is not None and hand.win_kind is not None
    ctx = Context(sit, rules)
    dora = dora_of(hand, hand.win, hand.win_kind, sit, rules)
    extra = 0  # han of indicators counted only because of the seiryuu's role (¶2.2)
    if effects is not None:
        ura, extra = seiryuu_indicators(effects.role, hand, hand.win_kind, sit, rules)
        effects.ura, effects.extra = ura, extra
        if ura:
            dora = with_role_ura(dora, ura)
    # the actual win is (normally) one of the waits: its evaluation is the guarantee's value
    # of that wait (a shape kind, not a red five)
    ev, g, wait_kinds = win_and_guarantee(parsed, ctx, dora.total + extra)
    required = g.required
    if ev is None or (hand.aka5man_as is not None and hand.win_kind not in wait_kinds):
        # §A6: an aka-5-man is a 5p/5s only for a player waiting on that five; for anyone
        # else it stays a north, and the hand claimed with it has no winning shape
        return _invalid(parsed, "no_win_shape", None, dora, g, effects)
    if effects is not None and kanpa_forbids(effects.role, hand.win_kind, sit.tsumo):
        effects.refused = True
        return _invalid(parsed, "kanpa", ev, dora, g, effects)
    exempt = effects.role.kanpa_discards if effects is not None else ()
    if not sit.tsumo and is_furiten(hand, wait_kinds, exempt):
        return _invalid(parsed, "furiten", ev, dora, g, effects)
    yaku_han = ev.yaku_han
    # a yaku worth a yakuman on its own needs at least that many yaku han in all
    has_yakuman_yaku = yaku_han >= rules.yakuman_han and any(
        h >= rules.yakuman_han for _, h in ev.yaku
    )
    if has_yakuman_yaku and not rules.dora_with_yakuman:
        dora = Dora()  # riichi-4p: a yakuman counts its yakuman yaku only
        extra = 0
    han = yaku_han + dora.total + extra
    if sit.ron_on is not None:
        ok = has_yakuman_yaku if rules.kita_ron_needs_yakuman_yaku else han >= rules.yakuman_han
        if not ok:
            return _invalid(parsed, "yakuman_only", ev, dora, g, effects)
    if sit.tsumo and sit.riichi == "none" and rules.non_riichi_tsumo_exception:
        enough = yaku_han >= required  # §18.2
    elif rules.guarantee and (rules.guarantee_closed_hands or not hand.is_closed):
        enough = g.ok and yaku_han >= required
    else:
        enough = yaku_han >= required
    if not enough:
        return _invalid(parsed, "insufficient_yaku", ev, dora, g, effects)

    base, limit, multiple = limited_base(han, ev.fu, has_yakuman_yaku, rules)
    if effects is not None and byakko_upgrades(effects.role, han, rules):
        upgraded = one_limit_higher(base, limit, multiple, rules)  # ¶2.7 (i)
        effects.upgrade = (limit, upgraded[1])
        base, limit, multiple = upgraded
    factor = rules.aka5man_payment_multiplier if hand.kita_aka else 1  # §A8
    dealer = sit.seat == EAST
    if sit.tsumo:
        order = _payer_order(name_of_wind[sit.seat], rules.seats, dealer)
        amounts = tsumo_amounts(base, dealer, sit.honba, rules)
        payments, paid = _payments(amounts, order, factor)
    else:
        paid = ron_amount(base, dealer, sit.honba, rules) * factor
        payments = [{"from": "discarder", "amount": paid}]
    deposits = sit.deposits * rules.riichi_deposit
    if rules.aka5man_doubles_deposits:
        deposits *= factor
    if effects is not None:
        if effects.role.role is Role.SUZAKU:
            payments, paid, deposits = _suzaku_payments(
                effects, payments, sit, factor, deposits, rules
            )
        if byakko_pays(effects.role, han, rules):  # ¶2.7 (ii)
            effects.byakko_payment = _byakko_payment(sit, rules)
    result = _result(True, None, ev, dora, g, han, limit, multiple, payments, paid + deposits)
    if han == 1 and ev.fu < rules.one_han_min_fu:  # paid as that many fu (points.hand_base)
        result["fu"] = rules.one_han_min_fu
        result["fu_breakdown"].append(
            {"reason": "one_han_minimum", "fu": rules.one_han_min_fu - ev.fu}
        )
    result["base"] = base
    result["deposits"] = deposits
    return result


def _suzaku_payments(
    effects: RoleEffects,
    payments: list[dict[str, Any]],
    sit: Situation,
    factor: int,
    deposits: int,
    rules: Rules,
) -> tuple[list[dict[str, Any]], int, int]:
    """¶2.6: each payment to the suzaku halved and rounded up to 1,000 (``suzaku_share``);
    the payments before halving kept for the result. Returns payments, their sum, deposits."""
    effects.halved = payments
    per_stick = rules.honba_tsumo_each if sit.tsumo else rules.honba_ron
    honba_part = sit.honba * per_stick
    halved = []
    paid = 0
    for row in payments:
        amount = suzaku_share(row["amount"], honba_part, factor, rules)
        halved.append({**row, "amount": amount})
        paid += amount
    return halved, paid, suzaku_deposits(deposits, rules)


def _byakko_payment(sit: Situation, rules: Rules) -> list[dict[str, Any]]:
    """¶2.7 (ii): the byakko's mangan payment (child 4,000 to each other, dealer 6,000 to
    each, as a chombo's), in §17 order: ``{"to", "seat", "amount"}`` rows."""
    dealer = sit.seat == EAST
    order = _payer_order(name_of_wind[sit.seat], rules.seats, dealer)
    rows, _ = _payments(chombo_amounts(dealer, rules), order, 1)
    return [{"to": r["from"], "seat": r["seat"], "amount": r["amount"]} for r in rows]


def _result(
    valid: bool,
    reason: str | None,
    ev: Evaluation | None,
    dora: Dora,
    g: Guarantee,
    han: int,
    limit: str | None,
    multiple: int,
    payments: list[dict[str, Any]],
    total: int,
) -> dict[str, Any]:
    """The Result JSON's fields up to ``wait`` (docs/api.md order): the chosen reading's yaku
    and fu breakdown, dora by source, the §18 guarantee, ``han`` the total with dora."""
    if ev is None:
        return {
            "valid": valid,
            "reason": reason,
            "han": han,
            "yaku_han": 0,
            "fu": 0,
            "limit": limit,
            "yakuman_multiple": multiple,
            "yaku": [],
            "dora": dora.to_json(),
            "payments": payments,
            "total": total,
            "guarantee": g.to_json(),
            "fu_breakdown": [],
            "form": None,
            "wait": None,
        }
    yaku_rows = []
    for y, h in ev.yaku:
        yaku_rows.append({"id": y, "han": h})
    fu_rows = []
    for r, f in ev.fu_items:
        fu_rows.append({"reason": r, "fu": f})
    return {
        "valid": valid,
        "reason": reason,
        "han": han,
        "yaku_han": ev.yaku_han,
        "fu": ev.fu,
        "limit": limit,
        "yakuman_multiple": multiple,
        "yaku": yaku_rows,
        "dora": dora.to_json(),
        "payments": payments,
        "total": total,
        "guarantee": g.to_json(),
        "fu_breakdown": fu_rows,
        "form": ev.reading.form,
        "wait": ev.reading.wait,
    }


def _invalid(
    parsed: Parsed,
    reason: str,
    ev: Evaluation | None,
    dora: Dora,
    g: Guarantee,
    effects: RoleEffects | None = None,
) -> dict[str, Any]:
    """A false win (誤栄/誤自模) is paid as chombo (§18.1, §R1.3): negative amounts. A win
    on the kanpa tile is one too, unless ``rules.kanpa_false_win_chombo`` is off (then it is
    refused without payments) [interp]."""
    rules, sit = parsed.rules, parsed.situation
    dealer = sit.seat == EAST
    order = _payer_order(name_of_wind[sit.seat], rules.seats, dealer)
    amounts = chombo_amounts(dealer, rules)
    if effects is not None:
        if reason == "kanpa" and not rules.kanpa_false_win_chombo:
            amounts = []
        elif effects.role.role is Role.SUZAKU:
            amounts = [(who, suzaku_chombo(n, rules)) for who, n in amounts]
    payments, total = _payments(amounts, order if amounts else (), -1)
    extra = effects.extra if effects is not None else 0
    han = (ev.yaku_han if ev is not None else 0) + dora.total + extra
    result = _result(False, reason, ev, dora, g, han, None, 0, payments, total)
    result["deposits"] = 0
    return result
