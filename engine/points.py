"""Hand value and payments (§9–§13, §33, §R1): helpers shared with the game engine.

All amounts follow the :class:`engine.rules.Rules` value: rounding unit (§11), tsumo bonus per
payer (§13), honba per stick (§12), limit table (§33), chombo payments (§R1.3).

Worked examples of docs/rules.md (child = non-dealer, sanma-1.3):

>>> from sanma_lens.engine.rules import SANMA_13 as R
>>> base, _, _ = hand_base(2, 30, R); ron_amount(base, False, 0, R)
2000
>>> tsumo_amounts(base, False, 0, R)
[('dealer', 2000), ('child', 2000)]
>>> ron_amount(8000, False, 0, R), tsumo_amounts(8000, False, 0, R)
(32000, [('dealer', 17000), ('child', 9000)])
"""

from __future__ import annotations

from sanma_lens.engine.rules import Rules


def round_up(amount: int, unit: int) -> int:
    """Round a payment up to a multiple of ``unit`` (§11: 百点の位を切り上げる)."""
    return -(-amount // unit) * unit


def hand_base(han: int, fu: int, rules: Rules) -> tuple[int, str | None, int]:
    """Basic points of a hand: ``(base, limit, yakuman_multiple)`` (§33, docs/rules.md Hand value).

    ``han`` is the total (yaku + dora + red fives + kita + aka-5-man bonus). 15–19 han is
    yakuman, every further ``yakuman_step_han`` one more multiple; below, the limit table
    (5 mangan … 11–14 sanbaiman), and otherwise fu × 2^(han+2) capped at mangan. A 1-han hand
    counts at least ``rules.one_han_min_fu`` fu.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> hand_base(3, 40, R), hand_base(4, 40, R), hand_base(11, 30, R), hand_base(20, 30, R)
    ((1280, None, 0), (2000, 'mangan', 0), (6000, 'sanbaiman', 0), (16000, 'yakuman', 2))
    """
    if han == 1 and fu < rules.one_han_min_fu:
        fu = rules.one_han_min_fu  # ECIP: 20 fu 1 han is paid as 30 fu 1 han
    if han >= rules.yakuman_han:
        multiple = 1
        if rules.yakuman_step_han > 0:
            multiple += (han - rules.yakuman_han) // rules.yakuman_step_han
        return rules.yakuman_base * multiple, "yakuman", multiple
    for step in reversed(rules.limits):
        if han >= step.min_han:
            return step.base, step.name, 0
    base = fu * 2 ** (han + 2)
    mangan = rules.mangan_base
    if base >= mangan or (rules.kiriage_mangan and base >= mangan - mangan // 25):
        return mangan, _mangan_name(rules), 0
    return base, None, 0


def limited_base(
    han: int, fu: int, has_yakuman_yaku: bool, rules: Rules
) -> tuple[int, str | None, int]:
    """:func:`hand_base` with the caps on yakuman: without a yakuman yaku (counted, kazoe)
    the multiple is at most ``rules.kazoe_max_multiple`` (0 = no cap), or the hand stays at
    the top limit below yakuman when ``rules.kazoe_yakuman`` is off; any hand's multiple is at
    most ``rules.yakuman_max_multiple`` (0 = no cap).

    >>> from sanma_lens.engine.rules import RIICHI_4P as R4
    >>> limited_base(30, 40, False, R4), limited_base(26, 0, True, R4)
    ((8000, 'yakuman', 1), (16000, 'yakuman', 2))
    >>> from dataclasses import replace
    >>> from sanma_lens.engine.rules import SANMA_13
    >>> capped = replace(SANMA_13, kazoe_max_multiple=3, yakuman_max_multiple=1)
    >>> limited_base(35, 30, False, SANMA_13)[2], limited_base(35, 30, False, capped)[2]
    (5, 1)
    """
    base, limit, multiple = hand_base(han, fu, rules)
    if limit != "yakuman":
        return base, limit, multiple
    caps = [rules.yakuman_max_multiple]
    if not has_yakuman_yaku:
        if not rules.kazoe_yakuman:
            top = max(rules.limits, key=lambda step: step.base)
            return top.base, top.name, 0
        caps.append(rules.kazoe_max_multiple)
    cap = min((c for c in caps if c), default=0)  # the strictest cap that is set
    if cap and multiple > cap:
        return rules.yakuman_base * cap, limit, cap
    return base, limit, multiple


def _mangan_name(rules: Rules) -> str:
    for step in rules.limits:
        if step.base == rules.mangan_base:
            return step.name
    return "mangan"


def ron_amount(base: int, winner_is_dealer: bool, honba: int, rules: Rules) -> int:
    """What the discarder pays (§12, docs/rules.md Ron): 6×/4× base rounded up, plus honba.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> ron_amount(480, True, 0, R), ron_amount(480, False, 2, R)
    (3000, 4000)
    """
    return round_up(base * (6 if winner_is_dealer else 4), rules.rounding_unit) + (
        honba * rules.honba_ron
    )


def tsumo_amounts(
    base: int, winner_is_dealer: bool, honba: int, rules: Rules
) -> list[tuple[str, int]]:
    """Each payer's share on a tsumo: ``[("dealer"|"child", amount), ...]`` (§12, §13).

    Shares as in four-player mahjong (dealer 2×base, child 1×base; a dealer's win 2×base from
    each), each rounded up, then the tsumo bonus and the honba added per payer. The missing
    fourth player's share is not paid (tsumo-son). The list has one entry per other seat, the
    dealer first on a child's win.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> tsumo_amounts(480, True, 1, R)
    [('child', 3000), ('child', 3000)]
    """
    extra = rules.tsumo_bonus_per_payer + honba * rules.honba_tsumo_each
    unit = rules.rounding_unit
    others = len(rules.seats) - 1
    if winner_is_dealer:
        return [("child", round_up(2 * base, unit) + extra)] * others
    dealer = round_up(2 * base, unit) + extra
    child = round_up(base, unit) + extra
    return [("dealer", dealer)] + [("child", child)] * (others - 1)


def chombo_amounts(offender_is_dealer: bool, rules: Rules) -> list[tuple[str, int]]:
    """Mangan payment of a chombo (§R1.3): child 4,000 to each other, dealer 6,000 to each
    (riichi-4p: child 4,000 to the dealer and 2,000 to each child, dealer 4,000 to each).

    Returned as what each other player receives, positive; the game engine and the result JSON
    show them negated from the offender's side.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> chombo_amounts(False, R), chombo_amounts(True, R)
    ([('dealer', 4000), ('child', 4000)], [('child', 6000), ('child', 6000)])
    """
    others = len(rules.seats) - 1
    if offender_is_dealer:
        return [("child", rules.chombo_dealer_each)] * others
    return [("dealer", rules.chombo_child_to_dealer)] + [("child", rules.chombo_child_each)] * (
        others - 1
    )
