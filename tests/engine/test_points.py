"""Payments (§11–§13, §33, §A8, §R1) and the worked examples of docs/rules.md."""

from __future__ import annotations

import pytest

from sanma_lens.engine.points import chombo_amounts, hand_base, ron_amount, round_up, tsumo_amounts
from sanma_lens.engine.rules import SANMA_13 as R
from sanma_lens.engine.rules import rules_from_json
from tests.engine.helpers import score


def test_rule_11_every_payment_rounded_up_to_1000() -> None:
    assert round_up(1920, 1000) == 2000 and round_up(2000, 1000) == 2000
    assert round_up(1, 1000) == 1000


@pytest.mark.parametrize(
    ("han", "fu", "dealer", "ron", "tsumo"),
    [
        (2, 30, False, 2000, [("dealer", 2000), ("child", 2000)]),  # child 30 fu 2 han
        (5, 30, False, 8000, [("dealer", 5000), ("child", 3000)]),  # child mangan
        (2, 30, True, 3000, [("child", 2000), ("child", 2000)]),  # dealer 30 fu 2 han
        (15, 30, False, 32000, [("dealer", 17000), ("child", 9000)]),  # child yakuman
    ],
)
def test_rules_md_worked_payment_table(
    han: int, fu: int, dealer: bool, ron: int, tsumo: list[tuple[str, int]]
) -> None:
    base, _, _ = hand_base(han, fu, R)
    assert ron_amount(base, dealer, 0, R) == ron
    assert tsumo_amounts(base, dealer, 0, R) == tsumo


def test_rule_13_tsumo_adds_1000_per_payer() -> None:
    # child 30 fu 1 han: base 240 → dealer 480→1000 +1000, child 240→1000 +1000
    assert tsumo_amounts(240, False, 0, R) == [("dealer", 2000), ("child", 2000)]


def test_rule_12_honba_ron_1000_per_stick() -> None:
    assert ron_amount(2000, False, 3, R) == 8000 + 3000


def test_rule_12_honba_tsumo_1000_per_stick_from_each_payer() -> None:
    assert tsumo_amounts(2000, False, 2, R) == [("dealer", 7000), ("child", 5000)]


@pytest.mark.parametrize(
    ("han", "limit", "base", "multiple"),
    [
        (5, "mangan", 2000, 0),
        (6, "haneman", 3000, 0),
        (7, "haneman", 3000, 0),
        (8, "baiman", 4000, 0),
        (10, "baiman", 4000, 0),
        (11, "sanbaiman", 6000, 0),
        (14, "sanbaiman", 6000, 0),
        (15, "yakuman", 8000, 1),
        (19, "yakuman", 8000, 1),
        (20, "yakuman", 16000, 2),
        (24, "yakuman", 16000, 2),
        (25, "yakuman", 24000, 3),
    ],
)
def test_rule_33_limits_and_yakuman_every_5_han(
    han: int, limit: str, base: int, multiple: int
) -> None:
    assert hand_base(han, 30, R) == (base, limit, multiple)


def test_rule_33_base_at_2000_is_mangan_and_no_kiriage() -> None:
    assert hand_base(4, 40, R) == (2000, "mangan", 0)  # 40×64 = 2560
    assert hand_base(4, 30, R) == (1920, None, 0)  # no kiriage mangan [interp]
    kiriage = rules_from_json({"kiriage_mangan": True})
    assert hand_base(4, 30, kiriage) == (2000, "mangan", 0)


def test_rule_r1_chombo_mangan_payment() -> None:
    assert chombo_amounts(False, R) == [("dealer", 4000), ("child", 4000)]
    assert chombo_amounts(True, R) == [("child", 6000), ("child", 6000)]


PINFU = "23p567p345s678s55p"


def test_rule_13_score_child_tsumo_payments_in_shimocha_order() -> None:
    r = score(PINFU, "4p", tsumo=True, seat="S", riichi="riichi")  # 4 han 20 fu: base 1280
    assert r["payments"] == [
        {"from": "child", "seat": "W", "amount": 2000 + 1000},
        {"from": "dealer", "seat": "E", "amount": 3000 + 1000},
    ]
    assert r["total"] == 7000


def test_rule_14_1_deposits_go_to_the_winner_in_total() -> None:
    r = score(PINFU, "4p", riichi="riichi", deposits=2)
    assert r["payments"] == [{"from": "discarder", "amount": 4000}]
    assert r["total"] == 4000 + 2000


def test_rule_a8_aka5man_winner_receives_double_incl_honba_not_deposits() -> None:
    rules = {"aka_5man": True}
    plain = score(PINFU, "4p", riichi="riichi", honba=1, deposits=1, kita=1, rules=rules)
    aka = score(PINFU, "4p", riichi="riichi", honba=1, deposits=1, kita=1, kita_aka=1, rules=rules)
    assert plain["han"] == aka["han"]
    assert aka["payments"][0]["amount"] == 2 * plain["payments"][0]["amount"]
    assert aka["total"] == 2 * plain["payments"][0]["amount"] + 1000


def test_rule_a8_aka5man_doubling_on_tsumo_each_payer() -> None:
    rules = {"aka_5man": True}
    r = score(PINFU, "4p", tsumo=True, kita=1, kita_aka=1, rules=rules)
    plain = score(PINFU, "4p", tsumo=True, kita=1, rules=rules)
    assert [p["amount"] for p in r["payments"]] == [2 * p["amount"] for p in plain["payments"]]


def test_rule_18_false_win_is_chombo_child_pays_4000_each() -> None:
    r = score(PINFU, "4p")  # pinfu tanyao, but the 1p wait has pinfu only
    assert not r["valid"] and r["reason"] == "insufficient_yaku"
    assert sorted(p["amount"] for p in r["payments"]) == [-4000, -4000]
    assert r["total"] == -8000


def test_rule_18_false_win_dealer_pays_6000_each() -> None:
    r = score(PINFU, "4p", seat="E")
    assert [p["amount"] for p in r["payments"]] == [-6000, -6000] and r["total"] == -12000


def test_dealer_ron_six_times_base() -> None:
    r = score(PINFU, "4p", seat="E", riichi="riichi")  # 3 han 30 fu: 960 × 6 = 5760
    assert r["payments"] == [{"from": "discarder", "amount": 6000}]


def test_riichi_deposit_option() -> None:
    r = score(PINFU, "4p", riichi="riichi", deposits=1, rules={"riichi_deposit": 500})
    assert r["total"] == 4000 + 500


def test_rule_17_tsumo_payments_listed_shimocha_first() -> None:
    # winner W: shimocha is E (dealer), then S
    r = score(PINFU, "4p", tsumo=True, seat="W", riichi="riichi")
    assert [p["seat"] for p in r["payments"]] == ["E", "S"]
    # dealer E: shimocha S, then W
    r = score(PINFU, "4p", tsumo=True, seat="E", riichi="riichi")
    assert [p["seat"] for p in r["payments"]] == ["S", "W"]


def test_rule_33_kazoe_hand_takes_the_strictest_of_both_yakuman_caps() -> None:
    """A counted yakuman under both options obeys the smaller cap, whichever option sets it."""
    from dataclasses import replace

    from sanma_lens.engine.points import limited_base
    from sanma_lens.engine.rules import SANMA_13

    assert limited_base(35, 30, False, SANMA_13)[2] == 5  # 15 han + 4 × 5 more
    for kazoe_cap, any_cap, expected in ((3, 1, 1), (1, 3, 1), (2, 0, 2), (0, 4, 4)):
        rules = replace(SANMA_13, kazoe_max_multiple=kazoe_cap, yakuman_max_multiple=any_cap)
        assert limited_base(35, 30, False, rules) == (8000 * expected, "yakuman", expected)
    # A yakuman yaku is bound by the any-hand cap only.
    rules = replace(SANMA_13, kazoe_max_multiple=1, yakuman_max_multiple=3)
    assert limited_base(35, 30, True, rules)[2] == 3


def test_rule_33_kazoe_yakuman_without_a_yakuman_yaku() -> None:
    # riichi pinfu ittsu chinitsu = 10 yaku han + 5 dora (9p→1p ×3, 3p→4p ×2) = 15: yakuman
    r = score("123456789p11p23p", "4p", riichi="riichi", dora=["9p", "3p"])
    assert r["yaku_han"] == 10 and r["han"] == 15 and max(y["han"] for y in r["yaku"]) < 15
    assert (r["limit"], r["yakuman_multiple"], r["total"]) == ("yakuman", 1, 32000)
    r14 = score("123456789p11p23p", "4p", riichi="riichi", dora=["9p", "4p"])  # 3 + 1 dora: 14 han
    assert (r14["limit"], r14["total"]) == ("sanbaiman", 24000)
