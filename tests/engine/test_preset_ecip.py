"""The ``ecip`` preset (docs/rules/ecip.md; seed 004 "ECIP麻雀・その極意"), clause by clause.

Test names carry the seed's section (§和了, §役の確定, …); the worked cases of §役の確定 and the
30 fu 4 han = 7,700 / 11,600 of §和了 are here as written.
"""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.points import hand_base, ron_amount, tsumo_amounts
from sanma_lens.engine.rules import ECIP, rules_from_json
from sanma_lens.engine.service import score_json, tenpai_json
from tests.engine.helpers import yaku

EC = {"preset": "ecip"}


def se(hand: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_json({"hand": hand, "win": win, "rules": EC, **kw})


def test_ecip_preset_is_selected_by_name() -> None:
    assert rules_from_json(EC) == ECIP and ECIP.preset == "ecip"
    assert ECIP.seats == ("E", "S", "W", "N") and ECIP.chi_allowed and not ECIP.kita_enabled


# ---- §和了: tenpane, the mangan cap, 20 fu 1 han ------------------------------------------


def test_ecip_wa_30_fu_4_han_is_7700_and_dealer_11600() -> None:
    base, limit, _ = hand_base(4, 30, ECIP)
    assert limit is None
    assert ron_amount(base, False, 0, ECIP) == 7_700
    assert ron_amount(base, True, 0, ECIP) == 11_600


@pytest.mark.parametrize(("han", "fu"), [(5, 20), (5, 30), (4, 40), (4, 60), (3, 70)])
def test_ecip_wa_tenpane_over_8000_is_mangan(han: int, fu: int) -> None:
    base, limit, _ = hand_base(han, fu, ECIP)
    assert (base, limit) == (2000, "mangan")
    assert ron_amount(base, False, 0, ECIP) == 8_000


@pytest.mark.parametrize("han", [6, 8, 11, 12])
def test_ecip_wa_no_haneman_or_above_mangan_is_the_top(han: int) -> None:
    assert hand_base(han, 30, ECIP)[:2] == (2000, "mangan")


def test_ecip_wa_thirteen_han_without_a_yakuman_yaku_stays_mangan() -> None:
    # riichi, menzen tsumo, chinitsu, ittsu and three dora: 13 han
    r = se("1223344567899p", "9p", riichi="riichi", tsumo=True, dora=["8p"])
    assert r["valid"] and r["han"] >= 13 and r["limit"] == "mangan"
    assert r["total"] == 8_000


def test_ecip_wa_20_fu_1_han_is_paid_as_30_fu_1_han() -> None:
    # open tanyao, pinfu shape, ron: 20 fu 1 han → paid as 30 fu 1 han (1,000, not 700)
    r = se("345m456s66s67p", "8p", melds=["chi:234s"])
    assert r["valid"] and yaku(r) == {"tanyao": 1}
    assert r["fu"] == 30 and r["fu_breakdown"][-1] == {"reason": "one_han_minimum", "fu": 10}
    assert r["payments"] == [{"from": "discarder", "amount": 1_000}]


def test_ecip_wa_20_fu_2_han_stays_20_fu() -> None:
    r = se("345m456s66s67p", "8p", melds=["chi:234s"], dora=["4m"])
    assert r["valid"] and r["han"] == 2 and r["fu"] == 20
    assert r["payments"] == [{"from": "discarder", "amount": 1_300}]


def test_ecip_tsumopin_pinfu_is_lost_on_a_tsumo_and_keeps_the_2_fu() -> None:
    r = se("123m456p789s23p55s", "4p", tsumo=True)
    assert yaku(r) == {"menzen_tsumo": 1} and r["fu"] == 30
    ron = se("123m456p789s23p55s", "4p")
    assert yaku(ron) == {"pinfu": 1} and ron["fu"] == 30


# ---- §積み芝, §懸賞牌: honba 300, two han from 5 honba, no red fives ------------------------


def test_ecip_tsumishiba_honba_is_300_per_stick() -> None:
    r = se("123m456p789s23p55s", "4p", honba=2)
    assert r["payments"] == [{"from": "discarder", "amount": 1_000 + 600}]
    assert tsumo_amounts(480, False, 2, ECIP) == [("dealer", 1_200), ("child", 700), ("child", 700)]


def test_ecip_tsumishiba_two_han_binding_from_5_honba() -> None:
    hand = {"hand": "123m456p789s12p99s", "win": "3p", "riichi": "riichi"}
    assert se(**hand, honba=4)["valid"]
    r = se(**hand, honba=5)
    assert not r["valid"] and r["reason"] == "insufficient_yaku"
    assert r["guarantee"]["required"] == 2


def test_ecip_kenshouhai_no_red_fives() -> None:
    with pytest.raises(InputError) as e:
        se("123m406p789s23p55s", "4p")
    assert e.value.code in ("too_many_red", "invalid_tile")


def test_ecip_kenshouhai_dora_do_not_make_a_yaku() -> None:
    r = se("123m456p789s12p99s", "3p", dora=["1m", "8s"])
    assert not r["valid"] and r["reason"] == "insufficient_yaku"


# ---- §役の確定: the worked cases ------------------------------------------------------------


def test_ecip_yaku_kakutei_1_one_sided_wait_cannot_win_by_ron_or_tsumo() -> None:
    # open tanyao waiting 6p (tanyao) or 9p (nothing): neither is confirmed
    hand = {"hand": "345m456s66s78p", "melds": ["chi:234s"]}
    for tsumo in (False, True):
        r = se(**hand, win="6p", tsumo=tsumo)
        assert not r["valid"] and r["reason"] == "insufficient_yaku", tsumo
        assert r["guarantee"]["waits"] == [
            {"tile": "6p", "yaku_han": 1},
            {"tile": "9p", "yaku_han": 0},
        ]


def test_ecip_yaku_kakutei_1_closed_one_sided_ron_is_refused() -> None:
    # closed, no pinfu (a triplet): 6p gives tanyao, 9p nothing
    r = se("345m456s666s78p22s", "6p")
    assert not r["valid"] and r["reason"] == "insufficient_yaku"


def test_ecip_yaku_kakutei_2_closed_tsumo_always_has_menzen_tsumo() -> None:
    r = se("345m456s666s78p22s", "9p", tsumo=True)
    assert r["valid"] and yaku(r) == {"menzen_tsumo": 1}


def test_ecip_yaku_kakutei_2_riichi_menzen_tsumo_only_under_the_two_han_rule() -> None:
    r = se("123m456p789s12p99s", "3p", tsumo=True, riichi="riichi", honba=5)
    assert r["valid"] and yaku(r) == {"riichi": 1, "menzen_tsumo": 1}


def test_ecip_yaku_kakutei_2_rinshan_kaihou_alone() -> None:
    r = se("345m456s66s78p", "9p", melds=["minkan:2222s"], tsumo=True, rinshan=True)
    assert r["valid"] and yaku(r) == {"rinshan": 1}


@pytest.mark.parametrize(("flag", "tsumo"), [("haitei", True), ("houtei", False)])
def test_ecip_yaku_kakutei_3_haitei_or_houtei_alone(flag: str, tsumo: bool) -> None:
    r = se("345m456s66s78p", "9p", melds=["chi:234s"], tsumo=tsumo, **{flag: True})
    assert r["valid"] and yaku(r) == {flag: 1}


def test_ecip_yaku_kakutei_4_haku_hatsu_shanpon() -> None:
    for win in ("5z", "6z"):
        r = se("345m456s5566z", win, melds=["pon:999p"])
        assert r["valid"] and yaku(r) == {"yakuhai": 1}, win


def test_ecip_yaku_kakutei_4_chi_789_999_III_111_3_waiting_2_or_3() -> None:
    # (チー 789) 999III一一一三, 待ち二三: junchan on 2m, sanankou on 3m
    two = se("999s111s1113m", "2m", melds=["chi:789p"])
    three = se("999s111s1113m", "3m", melds=["chi:789p"])
    assert two["valid"] and yaku(two) == {"junchan": 2}
    assert three["valid"] and yaku(three) == {"sanankou": 2}
    assert two["guarantee"]["ok"] and two["guarantee"]["minimum_over_waits"] == 2


def test_ecip_yaku_kakutei_tenpai_reports_the_one_sided_wait() -> None:
    t = tenpai_json({"hand": "345m456s66s78p", "melds": ["chi:234s"], "rules": EC})
    assert t["tenpai"] and not t["guarantee_ok"] and not t["guarantee_ok_tsumo"]
    assert [w["valid_ron"] for w in t["waits"]] == [False, False]


# ---- §役一覧: the yaku table ------------------------------------------------------------------


def test_ecip_yaku_renpuuhai_is_2_han() -> None:
    r = se("123m456p789s11z99s", "1z", seat="E", round="E")
    assert yaku(r)["yakuhai"] == 2


def test_ecip_yaku_honroutou_is_2_and_with_toitoi_4() -> None:
    r = se("111m999p11s99s", "1s", melds=["pon:111z"], seat="S", round="S")
    assert r["valid"] and yaku(r) == {"honroutou": 2, "toitoi": 2}


def test_ecip_yaku_shousangen_is_2_and_with_its_dragons_4() -> None:
    # 555z 666z pair 77z: the dragon triplets' yakuhai 2 + shousangen 2
    r = se("555z666z77z23p", "4p", melds=["chi:123m"])
    assert r["valid"] and yaku(r) == {"yakuhai": 2, "shousangen": 2}


@pytest.mark.parametrize(
    ("yaku_id", "closed", "open_"),
    [
        ("sanshoku_doujun", 2, 1),
        ("chanta", 2, 1),
        ("ittsu", 2, 1),
        ("junchan", 3, 2),
        ("honitsu", 3, 2),
        ("chinitsu", 6, 5),
        ("sanankou", 2, 2),
        ("toitoi", 2, 2),
        ("chiitoitsu", 2, None),
        ("ryanpeikou", 3, None),
        ("renhou", 13, None),
        ("chihou", 13, None),
        ("shiisan_puutaa", 13, None),
        ("daisuushii", 26, 26),
        ("suuankou_tanki", 26, None),
    ],
)
def test_ecip_yaku_table_han(yaku_id: str, closed: int, open_: int | None) -> None:
    assert ECIP.yaku_han(yaku_id, True) == closed
    assert ECIP.yaku_han(yaku_id, False) == open_


def test_ecip_yaku_no_open_riichi_no_kanburi_no_paarenchan() -> None:
    for missing in ("open_riichi", "kanburi", "paarenchan", "sanrenkou"):
        assert missing not in ECIP.yaku_index
    with pytest.raises(InputError):
        se("123m456p789s23p55s", "4p", riichi="open")


def test_ecip_yaku_chiitoitsu_is_25_fu() -> None:
    r = se("1122m3344p5566s7z", "7z")
    assert yaku(r) == {"chiitoitsu": 2} and r["fu"] == 25


def test_ecip_yaku_double_yakuman_daisuushii() -> None:
    r = se("111z222z333z44z55s", "4z")
    assert r["valid"] and r["yakuman_multiple"] == 2 and r["total"] == 64_000


def test_ecip_yaku_yakuman_ignores_dora() -> None:
    r = se("111z222z333z44z55s", "4z", dora=["3z"])
    assert r["dora"] == {"dora": 0, "ura": 0, "aka": 0, "kita": 0, "aka5man_bonus": 0}


# ---- §カンドラの有効タイミング ----------------------------------------------------------------


def test_ecip_kandora_ignored_on_the_discard_right_after_an_ankan() -> None:
    hand = {"hand": "123m456p789s23p55s", "riichi": "riichi", "dora": ["1m", "2m"]}
    after_ankan = se(**hand, win="4p", kanburi=True, last_kan="ankan")
    assert after_ankan["dora"]["dora"] == 1  # 2m (from 1m) counts, 3m (from 2m) not yet
    after_minkan = se(**hand, win="4p", kanburi=True)  # its indicator is not up yet: all count
    assert after_minkan["dora"]["dora"] == 2


def test_ecip_kandora_a_robbed_kakan_has_turned_up_no_indicator() -> None:
    # an open kan's indicator comes up once the kan is established: at a chankan every
    # indicator on the table counts
    r = se("123m456p789s23p55s", "4p", chankan=True, dora=["1m", "2m"])
    assert r["valid"] and r["dora"]["dora"] == 2


def test_ecip_kandora_rinshan_kaihou_counts_it() -> None:
    r = se(
        "345m456s66s78p", "9p", melds=["minkan:2222s"], tsumo=True, rinshan=True, dora=["1m", "1s"]
    )
    assert r["dora"]["dora"] == 4  # 2s of the kan, from the kan's own indicator


def test_ecip_last_kan_must_name_a_kan() -> None:
    with pytest.raises(InputError) as e:
        se("123m456p789s23p55s", "4p", kanburi=True, riichi="riichi", last_kan="pon")
    assert e.value.code == "bad_value"


# ---- §冲和: chombo ----------------------------------------------------------------------------


def test_ecip_chombo_is_a_mangan_to_each() -> None:
    r = se("345m456s66s78p", "6p", melds=["chi:234s"])  # a false win: one-sided
    assert [p["amount"] for p in r["payments"]] == [-8_000, -8_000, -8_000]
    dealer = se("345m456s66s78p", "6p", melds=["chi:234s"], seat="E")
    assert [p["amount"] for p in dealer["payments"]] == [-12_000, -12_000, -12_000]


# ---- three players (ecip-3p) ----------------------------------------------------------------


def test_ecip_3p_kenshouhai_every_north_is_an_ordinary_dora() -> None:
    r = score_json(
        {"hand": "123p456p789s44z55z", "win": "5z", "tsumo": True, "rules": {"preset": "ecip-3p"}}
    )
    assert r["valid"] and r["dora"]["dora"] == 2 and r["dora"]["kita"] == 0
    assert len(r["payments"]) == 2  # the missing North's share is not paid
    with pytest.raises(InputError):  # not extracted: no kita
        score_json(
            {"hand": "123p456p789s4z55z", "win": "5z", "kita": 1, "rules": {"preset": "ecip-3p"}}
        )
