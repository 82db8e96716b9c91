"""Ability mahjong in scoring (docs/rules/ability.md, 能力麻雀 ver 1.1): one test or more per clause
and [interp], named after it (¶N as docs/rules/ability.md cites the original)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.engine import random_winning_hand
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.roles import one_limit_higher, suzaku_share
from sanma_lens.engine.rules import SANMA_13
from sanma_lens.engine.service import score_json
from tests.engine.helpers import score, tenpai, yaku

# 123p 456p 789p 11z 78s: closed ittsu (2 han), waits 6s and 9s; a ron on 9s is 40 fu
ITTSU = "123p456p789p11z78s"
# an open suzaku hand (chi 234s): on 6s all simples (tanyao, 1 han), on 9s no yaku at all
TANYAO_ON_6S = {"hand": "345p678p55p78s", "melds": ["chi:234s"]}
# pon of hatsu and chun (yakuhai 2): an open hand whose ron on 9s has 2 yaku han
OPEN_YAKUHAI = {"hand": "234p11z78s", "melds": ["pon:666z", "pon:777z"]}


def ability(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = result["ability"]
    return out


# ---- the role field ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["tenshi", "seiryuu", "suzaku", "byakko", "genbu", "kouryuu"])
def test_ability_1_each_of_the_six_roles_is_a_role(role: str) -> None:
    r = score(ITTSU, "9s", role=role)
    assert r["valid"] and ability(r)["role"] == role


def test_ability_1_an_unknown_role_is_refused() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", role="kirin")
    assert info.value.code == "bad_value"


def test_ability_role_fields_need_the_winners_role() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", byakko_declared=True)
    assert info.value.code == "role_required"


def test_ability_a_hand_without_role_has_no_ability_object() -> None:
    assert "ability" not in score(ITTSU, "9s")
    assert "ability" not in score(ITTSU, "9s", role=None, kanpa=None)


def test_ability_2_1_tenshi_changes_nothing() -> None:
    plain, tenshi = score(ITTSU, "9s", ura=["8s"]), score(ITTSU, "9s", ura=["8s"], role="tenshi")
    assert {k: v for k, v in tenshi.items() if k != "ability"} == plain
    assert ability(tenshi) == {
        "role": "tenshi",
        "seiryuu": None,
        "suzaku": None,
        "byakko": None,
        "kanpa": None,
        "net": plain["total"],
    }


# ---- 青龍 seiryuu ¶2.2–2.3 ------------------------------------------------------------------


def test_ability_2_2_seiryuu_open_hand_also_counts_the_ura_indicators() -> None:
    # ura 8s → 9s, the winning tile: one more han for the seiryuu only
    plain = score(OPEN_YAKUHAI["hand"], "9s", melds=OPEN_YAKUHAI["melds"], ura=["8s"])
    r = score(OPEN_YAKUHAI["hand"], "9s", melds=OPEN_YAKUHAI["melds"], ura=["8s"], role="seiryuu")
    assert plain["han"] == 2 and plain["dora"]["ura"] == 0
    assert r["han"] == 3 and r["dora"]["ura"] == 1
    assert ability(r)["seiryuu"] == {"ura": 1, "extra_dora": 0, "han": 1}


def test_ability_2_2_seiryuu_open_hand_counts_no_kan_indicators() -> None:
    r = score(
        OPEN_YAKUHAI["hand"],
        "9s",
        melds=OPEN_YAKUHAI["melds"],
        extra_dora=["8s"],
        role="seiryuu",
    )
    assert r["han"] == 2 and ability(r)["seiryuu"]["han"] == 0 and r["dora"]["extra"] == 0


def test_ability_2_2_seiryuu_closed_without_riichi_counts_ura_and_next_kan_indicators() -> None:
    # ura 8s → 9s (+1); next kan-dora 8s → 9s (+1), its ura 4z → 1z (a pair, +2)
    r = score(ITTSU, "9s", ura=["8s"], extra_dora=["8s", "4z"], role="seiryuu")
    assert r["han"] == 2 + 1 + 3
    assert r["dora"]["ura"] == 1 and r["dora"]["extra"] == 3
    assert ability(r)["seiryuu"] == {"ura": 1, "extra_dora": 3, "han": 4}


def test_ability_2_2_seiryuu_closed_with_riichi_counts_next_kan_indicators() -> None:
    # with riichi the ura count for everyone: only the next kan indicators are the role's
    r = score(ITTSU, "9s", riichi="riichi", ura=["8s"], extra_dora=["8s"], role="seiryuu")
    assert r["han"] == 3 + 1 + 1
    assert ability(r)["seiryuu"] == {"ura": 0, "extra_dora": 1, "han": 1}


def test_ability_2_2_other_roles_count_ura_only_with_riichi() -> None:
    for role in ("tenshi", "suzaku", "byakko", "genbu", "kouryuu"):
        assert score(ITTSU, "9s", ura=["8s"], role=role)["dora"]["ura"] == 0


def test_ability_2_2_extra_dora_belong_to_the_seiryuu() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", extra_dora=["8s"], role="genbu")
    assert info.value.code == "inconsistent_situation"


def test_ability_2_2_extra_dora_are_at_most_the_next_kan_dora_and_its_ura() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", extra_dora=["8s", "2p", "3p"], role="seiryuu")
    assert info.value.code == "bad_tiles"


def test_ability_2_2_extra_dora_are_tiles_of_the_set_no_fifth_tile() -> None:
    # 1z: two in hand, two as dora indicators; the next kan-dora indicator would be a fifth
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", dora=["1z", "1z"], extra_dora=["1z"], role="seiryuu")
    assert info.value.code == "fifth_tile"


def test_ability_interp_seiryuu_kan_indicators_option_off_refuses_extra_dora() -> None:
    with pytest.raises(InputError):
        score(
            ITTSU,
            "9s",
            extra_dora=["8s"],
            role="seiryuu",
            rules={"seiryuu_next_kan_indicators": False},
        )


def test_ability_2_2_role_only_indicators_never_count_for_the_minimum() -> None:
    # one yaku han (hatsu) plus ura for the seiryuu: still short of §18's two han from yaku
    r = score("234p456p11z78s", "9s", melds=["pon:666z"], ura=["8s"], role="seiryuu")
    assert not r["valid"] and r["reason"] == "insufficient_yaku"


def test_ability_2_3_result_gives_the_han_of_the_role_only_indicators() -> None:
    # ura 2z → 3z and next kan-dora 2z → 3z: nothing; the keeper's next deposit is 4,000
    r = score(ITTSU, "9s", ura=["2z"], extra_dora=["2z"], role="seiryuu")
    assert ability(r)["seiryuu"] == {"ura": 0, "extra_dora": 0, "han": 0}
    assert r["dora"]["extra"] == 0


# ---- 朱雀 suzaku ¶2.4–2.6 ---------------------------------------------------------------


def test_ability_2_4_suzaku_may_call_chi() -> None:
    r = score(TANYAO_ON_6S["hand"], "6s", melds=TANYAO_ON_6S["melds"], role="suzaku")
    assert r["valid"] and yaku(r) == {"tanyao": 1}


def test_ability_2_4_only_the_suzaku_may_call_chi() -> None:
    for kw in ({"role": "tenshi"}, {"role": "genbu"}, {}):
        with pytest.raises(InputError) as info:
            score(TANYAO_ON_6S["hand"], "6s", melds=TANYAO_ON_6S["melds"], **kw)
        assert info.value.code == "chi_not_allowed"


def test_ability_2_4_no_chi_in_manzu() -> None:
    # 2m–8m do not exist in sanma: a manzu chi has a tile that is not in the set
    with pytest.raises(InputError) as info:
        score("345p678p55p78s", "6s", melds=["chi:123m"], role="suzaku")
    assert info.value.code == "invalid_tile"


def test_ability_2_5_suzaku_needs_one_yaku_han_in_the_actual_hand_only() -> None:
    # 不完全一翻縛り: the 9s wait has no yaku, yet a win on 6s (tanyao, 1 han) stands
    r = score(TANYAO_ON_6S["hand"], "6s", melds=TANYAO_ON_6S["melds"], role="suzaku")
    assert r["valid"] and r["guarantee"]["required"] == 1
    assert r["guarantee"]["minimum_over_waits"] == 0
    # closed, pinfu on every wait and tanyao on 6s only: the §18 guarantee would refuse it
    closed = score("345p678p55p78s234s", "9s", role="suzaku")
    assert closed["valid"] and closed["yaku_han"] == 1


def test_ability_2_5_suzaku_without_a_yaku_is_a_false_win() -> None:
    r = score(TANYAO_ON_6S["hand"], "9s", melds=TANYAO_ON_6S["melds"], role="suzaku")
    assert not r["valid"] and r["reason"] == "insufficient_yaku"
    assert [p["amount"] for p in r["payments"]] == [-4000, -4000]


def test_ability_2_5_1_suzaku_needs_two_yaku_han_with_five_honba() -> None:
    kw = {"melds": TANYAO_ON_6S["melds"], "role": "suzaku"}
    assert score(TANYAO_ON_6S["hand"], "6s", honba=4, **kw)["valid"]
    r = score(TANYAO_ON_6S["hand"], "6s", honba=5, **kw)
    assert not r["valid"] and r["guarantee"]["required"] == 2
    assert score(ITTSU, "9s", honba=5, role="suzaku")["valid"]  # ittsu: 2 han from yaku


def test_ability_2_5_the_suzaku_gets_no_guarantee_under_sanma_rules_others_do() -> None:
    # the same closed hand as a tenshi's: 1 han on 6s is short of the §18 minimum
    assert not score("345p678p55p78s234s", "6s", role="tenshi")["valid"]


def test_ability_2_6_suzaku_ron_is_halved_and_rounded_up_to_1000() -> None:
    # ittsu 2 han 40 fu: a child's ron is 2,560 → 3,000; half 1,500 → 2,000
    plain = score(ITTSU, "9s")
    r = score(ITTSU, "9s", role="suzaku")
    assert plain["total"] == 3000 and r["total"] == 2000
    assert r["payments"] == [{"from": "discarder", "amount": 2000}]
    assert ability(r)["suzaku"] == {
        "payments_before_halving": [{"from": "discarder", "amount": 3000}]
    }


def test_ability_2_6_suzaku_tsumo_each_payer_halved_with_bonus_and_honba() -> None:
    # riichi tsumo ittsu, 4 han 30 fu, 1 honba: dealer 4,000+1,000+1,000, child 2,000+2,000
    r = score(ITTSU, "9s", riichi="riichi", tsumo=True, honba=1, role="suzaku")
    assert [p["amount"] for p in ability(r)["suzaku"]["payments_before_halving"]] == [4000, 6000]
    assert [p["amount"] for p in r["payments"]] == [2000, 3000]


def test_ability_interp_suzaku_honba_option_keeps_the_honba_whole() -> None:
    r = score(
        ITTSU,
        "9s",
        riichi="riichi",
        tsumo=True,
        honba=1,
        role="suzaku",
        rules={"suzaku_halves_honba": False},
    )
    # child (4,000 − 1,000)/2 → 2,000 + 1,000; dealer (6,000 − 1,000)/2 → 3,000 + 1,000
    assert [p["amount"] for p in r["payments"]] == [3000, 4000]


def test_ability_interp_suzaku_receives_deposits_in_full() -> None:
    r = score(ITTSU, "9s", deposits=3, role="suzaku")
    assert r["deposits"] == 3000 and r["total"] == 2000 + 3000
    halved = score(ITTSU, "9s", deposits=3, role="suzaku", rules={"suzaku_halves_deposits": True})
    assert halved["deposits"] == 2000


def test_ability_interp_suzaku_chombo_payments_are_not_halved() -> None:
    kw = {"melds": TANYAO_ON_6S["melds"], "role": "suzaku"}
    r = score(TANYAO_ON_6S["hand"], "9s", **kw)
    assert r["total"] == -8000
    halved = score(TANYAO_ON_6S["hand"], "9s", rules={"suzaku_halves_chombo": True}, **kw)
    assert halved["total"] == -4000


def test_ability_interp_suzaku_half_of_the_aka5man_doubled_amount() -> None:
    # §A8 doubles 3,000 to 6,000; the suzaku receives half of that: 3,000 (option off:
    # half of 3,000 → 2,000, then doubled → 4,000)
    assert suzaku_share(6000, 0, 2, SANMA_13) == 3000
    off = SANMA_13.__class__(suzaku_halves_after_aka5man=False)
    assert suzaku_share(6000, 0, 2, off) == 4000
    kw = {"kita": 1, "kita_aka": 1, "rules": {"aka_5man": True}, "role": "suzaku"}
    # ittsu, the kita and the red 5p (全赤): 4 han 40 fu, mangan 8,000, ×2, ÷2
    r = score(ITTSU, "9s", **kw)
    assert r["han"] == 4 and r["total"] == 8000


def test_ability_2_6_suzaku_payments_option_divisor_one_pays_in_full() -> None:
    r = score(ITTSU, "9s", role="suzaku", rules={"suzaku_payment_divisor": 1})
    assert r["total"] == 3000


# ---- 白虎 byakko ¶2.7 ---------------------------------------------------------------------

# riichi tsumo ittsu: 4 yaku han; each 8s indicator +1 (the 9s), each 4z indicator +2 (1z)
BYAKKO = {"riichi": "riichi", "tsumo": True, "role": "byakko", "byakko_declared": True}


def test_ability_2_7_i_declared_byakko_haneman_counts_as_baiman() -> None:
    r = score(ITTSU, "9s", dora=["4z"], **BYAKKO)
    assert r["han"] == 6 and r["limit"] == "baiman"
    # child tsumo baiman: dealer 8,000+1,000, child 4,000+1,000
    assert [p["amount"] for p in r["payments"]] == [5000, 9000]
    assert ability(r)["byakko"]["upgrade"] == {"from": "haneman", "to": "baiman"}
    assert ability(r)["byakko"]["mangan_payment"] == []


def test_ability_2_7_i_declared_byakko_baiman_counts_as_sanbaiman() -> None:
    r = score(ITTSU, "9s", dora=["4z", "4z"], **BYAKKO)
    assert r["han"] == 8 and r["limit"] == "sanbaiman"


def test_ability_2_7_i_declared_byakko_sanbaiman_counts_as_yakuman() -> None:
    r = score(ITTSU, "9s", dora=["4z", "4z", "4z", "8s"], **BYAKKO)
    assert r["han"] == 11 and r["limit"] == "yakuman" and r["yakuman_multiple"] == 1


def test_ability_2_7_i_declared_byakko_yakuman_counts_as_double_yakuman() -> None:
    # daisangen tanki on 9s (15 + 3 yakuhai + sanankou + chanta): 21 han, double yakuman;
    # declared, a triple: a child's ron of 96,000
    plain = score("555666777z123p9s", "9s", role="byakko")
    r = score("555666777z123p9s", "9s", role="byakko", byakko_declared=True)
    assert plain["yakuman_multiple"] == 2 and plain["total"] == 64000
    assert r["limit"] == "yakuman" and r["yakuman_multiple"] == 3 and r["total"] == 96000


def test_ability_2_7_i_one_limit_higher_and_so_on() -> None:
    assert one_limit_higher(3000, "haneman", 0, SANMA_13) == (4000, "baiman", 0)
    assert one_limit_higher(4000, "baiman", 0, SANMA_13) == (6000, "sanbaiman", 0)
    assert one_limit_higher(6000, "sanbaiman", 0, SANMA_13) == (8000, "yakuman", 1)
    assert one_limit_higher(8000, "yakuman", 1, SANMA_13) == (16000, "yakuman", 2)
    assert one_limit_higher(24000, "yakuman", 3, SANMA_13) == (32000, "yakuman", 4)


def test_ability_2_7_ii_declared_byakko_five_han_is_paid_then_pays_mangan() -> None:
    r = score(ITTSU, "9s", dora=["8s"], **BYAKKO)
    assert r["han"] == 5 and r["limit"] == "mangan" and r["total"] == 3000 + 5000
    b = ability(r)["byakko"]
    assert b["upgrade"] is None and b["paid"] == 8000
    assert b["mangan_payment"] == [
        {"to": "child", "seat": "W", "amount": 4000},
        {"to": "dealer", "seat": "E", "amount": 4000},
    ]
    assert ability(r)["net"] == 0


def test_ability_2_7_ii_dealer_byakko_mangan_payment_is_6000_to_each() -> None:
    r = score(ITTSU, "9s", seat="E", role="byakko", byakko_declared=True)
    assert [p["amount"] for p in ability(r)["byakko"]["mangan_payment"]] == [6000, 6000]
    assert ability(r)["net"] == r["total"] - 12000


def test_ability_2_7_an_undeclared_byakko_is_scored_as_usual() -> None:
    r = score(ITTSU, "9s", dora=["4z"], riichi="riichi", tsumo=True, role="byakko")
    assert r["limit"] == "haneman" and ability(r)["byakko"]["mangan_payment"] == []
    assert ability(r)["byakko"]["declared"] is False


def test_ability_2_7_the_declaration_is_the_byakkos() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", role="tenshi", byakko_declared=True)
    assert info.value.code == "inconsistent_situation"


def test_ability_interp_a_false_win_makes_no_byakko_mangan_payment() -> None:
    # a chombo hand triggers no byakko payment: the chombo's payments alone
    r = score("234p456p11z78s", "9s", melds=["pon:666z"], role="byakko", byakko_declared=True)
    assert not r["valid"] and ability(r)["byakko"]["mangan_payment"] == []


# ---- 玄武 genbu: kanpa ¶10 (ver 1.1) -----------------------------------------------------


def test_ability_10_no_tsumo_on_the_kanpa_tile() -> None:
    r = score(ITTSU, "9s", tsumo=True, riichi="riichi", role="tenshi", kanpa="9s")
    assert not r["valid"] and r["reason"] == "kanpa"
    assert ability(r)["kanpa"] == {"tile": "9s", "discarder_genbu": False, "refused": True}


def test_ability_10_no_ron_on_the_kanpa_tile_discarded_by_a_genbu() -> None:
    r = score(ITTSU, "9s", role="genbu", kanpa="9s", discarder_genbu=True)
    assert not r["valid"] and r["reason"] == "kanpa"


def test_ability_10_ron_on_the_kanpa_tile_from_another_player_stands() -> None:
    r = score(ITTSU, "9s", role="kouryuu", kanpa="9s")
    assert r["valid"] and ability(r)["kanpa"]["refused"] is False


def test_ability_10_other_tiles_are_not_under_kanpa() -> None:
    assert score(ITTSU, "6s", tsumo=True, role="tenshi", kanpa="9s")["valid"]
    assert score(ITTSU, "6s", role="tenshi", kanpa="9s", discarder_genbu=True)["valid"]


def test_ability_10_kanpa_names_a_tile_kind_red_fives_included() -> None:
    r = score("123p456p789p11z46s", "0s", tsumo=True, role="tenshi", kanpa="5s")
    assert not r["valid"] and r["reason"] == "kanpa"
    r = score("123p456p789p11z46s", "5s", tsumo=True, role="tenshi", kanpa="0s")
    assert ability(r)["kanpa"]["tile"] == "5s" and r["reason"] == "kanpa"


def test_ability_interp_a_forbidden_kanpa_win_is_a_false_win_paid_as_chombo() -> None:
    r = score(ITTSU, "9s", tsumo=True, seat="E", role="tenshi", kanpa="9s")
    assert [p["amount"] for p in r["payments"]] == [-6000, -6000]
    off = score(
        ITTSU,
        "9s",
        tsumo=True,
        role="tenshi",
        kanpa="9s",
        rules={"kanpa_false_win_chombo": False},
    )
    assert not off["valid"] and off["reason"] == "kanpa" and off["payments"] == []


def test_ability_10_discarder_genbu_describes_a_ron() -> None:
    with pytest.raises(InputError) as info:
        score(ITTSU, "9s", tsumo=True, role="tenshi", discarder_genbu=True)
    assert info.value.code == "inconsistent_situation"


def test_ability_10_3_discarding_the_kanpa_tile_makes_no_furiten() -> None:
    furiten = score(ITTSU, "9s", discards="6s1m")
    assert furiten["reason"] == "furiten"
    r = score(ITTSU, "9s", discards="6s1m", role="tenshi", kanpa="6s", kanpa_discards=["6s"])
    assert r["valid"]


def test_ability_10_3_1_exemptions_stay_when_the_kanpa_tile_changes() -> None:
    # 6s was discarded under a kanpa on 6s; the kanpa is now on 1p: still no furiten
    r = score(ITTSU, "9s", discards="6s", role="tenshi", kanpa="1p", kanpa_discards="6s")
    assert r["valid"]


def test_ability_10_3_each_exempt_discard_cancels_one_discard() -> None:
    # 6s discarded twice, once before the kanpa: furiten
    r = score(ITTSU, "9s", discards="66s", role="tenshi", kanpa="6s", kanpa_discards="6s")
    assert r["reason"] == "furiten"
    with pytest.raises(InputError):
        score(ITTSU, "9s", discards="1m", role="tenshi", kanpa="6s", kanpa_discards="6s")


def test_ability_10_tenpai_marks_the_kanpa_wait() -> None:
    t = tenpai(ITTSU, role="tenshi", kanpa="9s")
    waits = {w["tile"]: w for w in t["waits"]}
    assert waits["9s"]["kanpa"] is True and waits["9s"]["valid_tsumo"] is False
    assert waits["9s"]["valid_ron"] is True and "kanpa" not in waits["6s"]
    genbu = tenpai(ITTSU, role="tenshi", kanpa="9s", discarder_genbu=True)
    assert {w["tile"]: w["valid_ron"] for w in genbu["waits"]} == {"6s": True, "9s": False}


def test_ability_interp_tenpai_at_a_draw_is_not_affected_by_a_kanpa() -> None:
    # waiting on 9s alone (tanki), under kanpa on 9s: still tenpai (option: not)
    hand = "123p456p789p111z9s"
    assert tenpai(hand, role="tenshi", kanpa="9s")["tenpai"] is True
    off = tenpai(hand, role="tenshi", kanpa="9s", rules={"kanpa_wait_counts_for_tenpai": False})
    assert off["tenpai"] is False


# ---- tenpai with the suzaku ------------------------------------------------------------


def test_ability_2_5_suzaku_tenpai_checks_each_waits_actual_hand() -> None:
    t = tenpai(TANYAO_ON_6S["hand"], melds=TANYAO_ON_6S["melds"], role="suzaku")
    assert {w["tile"]: w["valid_ron"] for w in t["waits"]} == {"6s": True, "9s": False}
    assert t["required"] == 1 and t["tenpai"] is True


# ---- properties with roles -------------------------------------------------------------

ROLE_CASES = [
    {"role": "tenshi"},
    {"role": "seiryuu", "ura": ["1z"], "extra_dora": ["9p", "5z"]},
    {"role": "suzaku"},
    {"role": "byakko", "byakko_declared": True},
    {"role": "byakko"},
    {"role": "genbu", "kanpa": "1p"},
    {"role": "kouryuu", "kanpa": "9s", "discarder_genbu": True},
]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(ROLE_CASES),
    st.integers(0, 6),
    st.integers(0, 3),
)
def test_ability_property_payments_on_the_1000_grid_and_sums(
    seed: int, case: dict[str, Any], honba: int, deposits: int
) -> None:
    h = {**random_winning_hand(random.Random(seed)), "honba": honba, "deposits": deposits}
    case = dict(case)
    if h["tsumo"]:
        case.pop("discarder_genbu", None)
    try:
        r = score_json({**h, **case})
    except InputError as exc:  # the role's indicators made a fifth tile
        assert exc.code == "fifth_tile"
        return
    plain = score_json(h)
    amounts = [p["amount"] for p in r["payments"]]
    byakko = ability(r)["byakko"]
    paid = byakko["paid"] if byakko else 0
    assert all(a % 1000 == 0 for a in amounts)
    assert ability(r)["net"] == r["total"] - paid
    if r["valid"]:
        assert all(a >= 1000 for a in amounts)
        assert sum(amounts) + r["deposits"] == r["total"]
        if byakko and byakko["mangan_payment"]:
            assert paid in (8000, 12000) and r["han"] < 6
        if case["role"] == "suzaku":
            before = [p["amount"] for p in ability(r)["suzaku"]["payments_before_halving"]]
            assert all(b / 2 <= a < b / 2 + 1000 for a, b in zip(amounts, before, strict=True))
        elif plain["valid"] and not (byakko and byakko["upgrade"]):
            # only the seiryuu's indicators move the value: never down
            assert r["total"] >= plain["total"] and r["han"] >= plain["han"]
    else:
        assert sum(amounts) == r["total"] and all(a < 0 for a in amounts)
