"""One test per yaku id of docs/rules.md (named test_yaku_<id>_...), plus the combination rules."""

from __future__ import annotations

from sanma_lens.engine.rules import SANMA_YAKU
from tests.engine.helpers import score, yaku

PINFU_HAND = "23p567p345s678s55p"  # + 4p: pinfu tanyao (two-sided 1p/4p)


def test_every_yaku_id_has_a_named_test() -> None:
    names = set(globals())
    for spec in SANMA_YAKU:
        assert any(n.startswith(f"test_yaku_{spec.id}_") for n in names), spec.id


def test_yaku_menzen_tsumo_closed_tsumo() -> None:
    assert yaku(score(PINFU_HAND, "4p", tsumo=True))["menzen_tsumo"] == 1


def test_yaku_riichi_one_han() -> None:
    assert yaku(score(PINFU_HAND, "4p", riichi="riichi"))["riichi"] == 1


def test_yaku_double_riichi_two_han_replaces_riichi() -> None:
    y = yaku(score(PINFU_HAND, "4p", riichi="double"))
    assert y["double_riichi"] == 2 and "riichi" not in y


def test_yaku_open_riichi_two_han_from_riichi_player() -> None:
    y = yaku(score(PINFU_HAND, "4p", riichi="open", discarder_riichi=True))
    assert y["open_riichi"] == 2 and "riichi" not in y


def test_yaku_open_riichi_rule_21_1_fifteen_han_from_non_riichi_player() -> None:
    r = score(PINFU_HAND, "4p", riichi="open", discarder_riichi=False)
    assert yaku(r)["open_riichi"] == 15 and r["limit"] == "yakuman"


def test_yaku_open_riichi_double_open_is_three_han() -> None:
    assert yaku(score(PINFU_HAND, "4p", riichi="double_open", tsumo=True))["open_riichi"] == 3


def test_yaku_ippatsu_with_riichi() -> None:
    assert yaku(score(PINFU_HAND, "4p", riichi="riichi", ippatsu=True))["ippatsu"] == 1


def test_yaku_rinshan_on_kita_replacement_draw_rule_25() -> None:
    r = score(PINFU_HAND, "4p", tsumo=True, rinshan=True, kita=1)
    assert yaku(r)["rinshan"] == 1


def test_yaku_rinshan_and_haitei_count_once_rule_40() -> None:
    y = yaku(score(PINFU_HAND, "4p", tsumo=True, rinshan=True, haitei=True))
    assert ("rinshan" in y) != ("haitei" in y)


def test_yaku_kanburi_and_houtei_count_once_rule_40() -> None:
    y = yaku(score(PINFU_HAND, "4p", kanburi=True, houtei=True))
    assert y.get("kanburi", 0) + y.get("houtei", 0) == 1


def test_yaku_kanburi_on_ron() -> None:
    assert yaku(score(PINFU_HAND, "4p", kanburi=True))["kanburi"] == 1


def test_yaku_haitei_on_tsumo() -> None:
    assert yaku(score(PINFU_HAND, "4p", tsumo=True, haitei=True))["haitei"] == 1


def test_yaku_houtei_on_ron() -> None:
    assert yaku(score(PINFU_HAND, "4p", houtei=True))["houtei"] == 1


def test_yaku_chankan_on_ron() -> None:
    assert yaku(score(PINFU_HAND, "4p", chankan=True))["chankan"] == 1


def test_yaku_renhou_eight_han() -> None:
    assert yaku(score(PINFU_HAND, "4p", renhou=True))["renhou"] == 8


def test_yaku_paarenchan_dealer_with_eight_honba_rule_35() -> None:
    assert yaku(score(PINFU_HAND, "4p", seat="E", honba=8, riichi="riichi"))["paarenchan"] == 15
    assert "paarenchan" not in yaku(score(PINFU_HAND, "4p", seat="E", honba=7, riichi="riichi"))


def test_yaku_shiisan_puutaa_first_draw() -> None:
    r = score("19m147p147s12345z", "5z", tsumo=True, first_draw=True)
    assert r["valid"] and yaku(r)["shiisan_puutaa"] == 15


def test_yaku_shiisan_puutaa_not_without_first_draw() -> None:
    r = score("19m147p147s12345z", "5z", tsumo=True)
    assert not r["valid"] and r["reason"] == "no_win_shape"


def test_yaku_shiisan_puutaa_rejects_partial_run() -> None:
    r = score("19m146p147s12345z", "5z", tsumo=True, first_draw=True)  # 4p 6p one apart
    assert r["reason"] == "no_win_shape"


def test_yaku_tenhou_dealer_dealt_hand() -> None:
    r = score(PINFU_HAND, "4p", tsumo=True, tenhou=True, seat="E")
    assert yaku(r)["tenhou"] == 15


def test_yaku_chihou_child_first_draw() -> None:
    assert yaku(score(PINFU_HAND, "4p", tsumo=True, chihou=True))["chihou"] == 15


def test_yaku_yakuhai_double_wind_one_entry_of_two() -> None:
    r = score("123p456p789s11z55s", "1z", seat="E", round="E")
    assert {"id": "yakuhai", "han": 2} in r["yaku"]


def test_yaku_yakuhai_one_entry_per_set() -> None:
    r = score("123p5s", "5s", melds=["pon:555z", "pon:666z", "pon:999s"])
    assert [y for y in r["yaku"] if y["id"] == "yakuhai"] == [{"id": "yakuhai", "han": 1}] * 2


def test_yaku_yakuhai_north_is_not_yakuhai_by_default() -> None:
    hand = {"hand": "123p456p789s444z5s", "win": "5s", "riichi": "riichi"}
    r = score(**hand)
    assert "yakuhai" not in yaku(r)
    r2 = score(**hand, rules={"north_is_yakuhai": True})
    assert yaku(r2)["yakuhai"] == 1


def test_yaku_pinfu_closed_two_sided() -> None:
    assert yaku(score(PINFU_HAND, "4p", riichi="riichi"))["pinfu"] == 1


def test_yaku_pinfu_not_on_yakuhai_pair() -> None:
    r = score("23p567p345s678s55z", "4p", riichi="riichi", tsumo=True)
    assert "pinfu" not in yaku(r)


def test_yaku_tanyao_open_counts() -> None:
    r = score("234p567s55p88s", "8s", melds=["pon:666p"])
    assert yaku(r)["tanyao"] == 1


def test_yaku_iipeikou_closed() -> None:
    assert yaku(score("223344p567s678s5p", "5p", riichi="riichi"))["iipeikou"] == 1


def test_yaku_ittsu_closed_two_open_one() -> None:
    assert yaku(score("123456789p567s1z", "1z"))["ittsu"] == 2
    r = score("123456p11z55s", "5s", melds=["chi:789p"], rules={"chi_allowed": True})
    assert yaku(r)["ittsu"] == 1


def test_yaku_chiitoitsu_25_fu_rule_20() -> None:
    r = score("1199p2255s66z77z1m", "1m")
    assert yaku(r)["chiitoitsu"] == 2 and r["fu"] == 25


def test_yaku_toitoi_open_only() -> None:
    r = score("111p999s1z", "1z", melds=["pon:777z", "pon:555z"])
    assert yaku(r)["toitoi"] == 2
    closed = score("111p999s111z22z99m", "9m")
    assert "toitoi" not in yaku(closed)


def test_yaku_chanta_one_han_closed() -> None:
    r = score("123p789s111z99p12s", "3s", riichi="riichi")
    assert yaku(r)["chanta"] == 1


def test_yaku_chanta_needs_a_run() -> None:
    r = score("111p999s111z22z99m", "9m")
    assert "chanta" not in yaku(r) and yaku(r)["honroutou"] == 2


def test_yaku_honroutou_terminals_and_honors() -> None:
    r = score("111p99s111z22z", "9s", melds=["pon:999m"])
    assert yaku(r)["honroutou"] == 2


def test_yaku_sanankou_closed_only() -> None:
    assert yaku(score("111p999s111z22z99m", "9m"))["sanankou"] == 2
    r = score("111p999s11z22z", "1z", melds=["pon:999m"], tsumo=True)
    assert "sanankou" not in yaku(r)


def test_yaku_sankantsu_three_kans() -> None:
    r = score("234p5s", "5s", melds=["ankan:1111p", "minkan:9999s", "kakan:2222z"])
    assert yaku(r)["sankantsu"] == 2


def test_yaku_sanrenkou_three_consecutive_triplets() -> None:
    r = score("333p444p555p78s11z", "9s", riichi="riichi")
    assert yaku(r)["sanrenkou"] == 2


def test_yaku_shousangen_open_only() -> None:
    r = score("55z66z123p", "5z", melds=["pon:777z", "pon:999p"])
    assert yaku(r)["shousangen"] == 2
    closed = score("555z66z777z123p99p", "9p")
    assert "shousangen" not in yaku(closed)


def test_yaku_honitsu_three_closed() -> None:
    y = yaku(score("123p456p789p11z22z", "2z"))
    assert y["honitsu"] == 3


def test_yaku_junchan_replaces_chanta() -> None:
    y = yaku(score("123p789p999s111m9m", "9m"))
    assert y["junchan"] == 3 and "chanta" not in y


def test_yaku_ryanpeikou_replaces_iipeikou() -> None:
    y = yaku(score("223344p667788s5p", "5p"))
    assert y["ryanpeikou"] == 3 and "iipeikou" not in y


def test_yaku_chinitsu_replaces_honitsu() -> None:
    y = yaku(score("1112345678999p", "9p"))
    assert y["chinitsu"] == 6 and "honitsu" not in y


def test_yaku_shousharin_replaces_honitsu_and_chiitoitsu_rule_36() -> None:
    y = yaku(score("1199p3355p66z77z1z", "1z"))
    assert y == {"shousharin": 6}


def test_yaku_sanshoku_doukou_fifteen() -> None:
    assert yaku(score("111m111p111s456s9p", "9p"))["sanshoku_doukou"] == 15


def test_yaku_daisharin_replaces_four_rule_37() -> None:
    y = yaku(score("2233445566778p", "8p"))
    assert y == {"daisharin": 15}


def test_yaku_suurenkou_replaces_sanrenkou() -> None:
    y = yaku(score("111s222s333s444s9p", "9p"))
    assert y["suurenkou"] == 15 and "sanrenkou" not in y


def test_yaku_kokushi_single_wait() -> None:
    y = yaku(score("19m19p19s1234566z", "7z"))
    assert y == {"kokushi": 15}


def test_yaku_kokushi_13_thirteen_sided() -> None:
    y = yaku(score("19m19p19s1234567z", "7z"))
    assert y == {"kokushi_13": 20}


def test_yaku_suuankou_on_tsumo() -> None:
    y = yaku(score("111p999s111z22z99m", "9m", tsumo=True))
    assert y["suuankou"] == 15 and "sanankou" not in y


def test_yaku_suuankou_tanki_twenty() -> None:
    y = yaku(score("111p999s111z222z9m", "9m"))
    assert y["suuankou_tanki"] == 20 and "suuankou" not in y


def test_yaku_daisangen_adds_yakuhai() -> None:
    y = yaku(score("555z666z777z12p99s", "3p"))
    assert y["daisangen"] == 15 and y["yakuhai"] == 3


def test_yaku_tsuuiisou_chiitoitsu_shape_allowed() -> None:
    y = yaku(score("1122334455667z", "7z"))
    assert y["tsuuiisou"] == 15 and y["chiitoitsu"] == 2
    off = score("1122334455667z", "7z", rules={"tsuuiisou_chiitoitsu": False})
    assert "tsuuiisou" not in yaku(off)


def test_yaku_suushii_small_four_winds() -> None:
    assert yaku(score("111z222z333z44z55p", "5p"))["suushii"] == 15


def test_yaku_ryuuiisou_without_hatsu() -> None:
    assert yaku(score("234s234s666s888s4s", "4s"))["ryuuiisou"] == 15
    r = score("234s234s666s888s4s", "4s", rules={"ryuuiisou_requires_hatsu": True})
    assert "ryuuiisou" not in yaku(r)


def test_yaku_chinroutou_all_terminals() -> None:
    assert yaku(score("111p999p111s999s1m", "1m"))["chinroutou"] == 15


def test_yaku_suukantsu_replaces_sankantsu() -> None:
    r = score("5p", "5p", melds=["ankan:1111p", "minkan:9999s", "ankan:1111z", "kakan:2222z"])
    y = yaku(r)
    assert y["suukantsu"] == 15 and "sankantsu" not in y


def test_yaku_chuuren_single_side() -> None:
    y = yaku(score("1112345678999p", "9p".replace("9p", "9p")))
    assert "chuuren_9" in y  # every win of the pure shape is nine-sided
    y2 = yaku(score("1112345678899p", "9p"))  # 1112345678899 + 9 → chuuren, not nine-sided
    assert y2["chuuren"] == 15 and "chuuren_9" not in y2


def test_yaku_chuuren_9_nine_sided() -> None:
    y = yaku(score("1112345678999p", "5p"))
    assert y["chuuren_9"] == 20 and "chuuren" not in y


def test_yaku_beni_kujaku_only_1s5s7s9s_chun() -> None:
    assert yaku(score("111s555s777s99s77z", "7z"))["beni_kujaku"] == 20


def test_yaku_manzu_honitsu_replaces_honitsu_rule_38() -> None:
    y = yaku(score("111m111z222z3z", "3z", melds=["pon:999m"]))
    assert y["manzu_honitsu"] == 15 and "honitsu" not in y


def test_yakuman_yaku_add_up_with_everything_rule_33_1() -> None:
    r = score("555z666z777z12p99s", "3p", dora=["8s"])  # dora 9s: the pair
    # daisangen 15 + three yakuhai + chanta 1 + sanankou 2 + 2 dora
    assert r["han"] == 15 + 3 + 1 + 2 + 2
    assert r["limit"] == "yakuman" and r["yakuman_multiple"] == 2


def test_yakuman_exclusive_option() -> None:
    r = score("555z666z777z12p99s", "3p", rules={"yakuman_exclusive": True})
    assert yaku(r) == {"daisangen": 15}


def test_highest_scoring_reading_wins() -> None:
    # 333p444p555p: sanankou + sanrenkou beats three 345p runs.
    r = score("333p444p555p78s11z", "9s", riichi="riichi")
    assert r["han"] == 5 and "sanankou" in yaku(r)


def test_yaku_open_han_values() -> None:
    y = yaku(score("123p456p11z22z", "2z", melds=["pon:999p"]))  # open honitsu 2, no ittsu
    assert y["honitsu"] == 2
    y = yaku(score("123p456p789p1p", "1p", melds=["pon:999p"]))  # open chinitsu 5, ittsu 1
    assert y["chinitsu"] == 5 and y["ittsu"] == 1
    y = yaku(score("123p789p1s", "1s", melds=["pon:999s", "pon:111m"]))  # open junchan 2
    assert y["junchan"] == 2


def test_yaku_sanankou_not_from_a_triplet_completed_by_ron_on_shanpon() -> None:
    # 111p 999s concealed; the 1z/2z shanpon: a ron on 1z opens that triplet (2 concealed),
    # a tsumo keeps it concealed (3: sanankou)
    ron = score("111p999s123s11z22z", "1z", riichi="riichi")
    assert "sanankou" not in yaku(ron) and {"reason": "minkou_1z", "fu": 4} in ron["fu_breakdown"]
    assert yaku(score("111p999s123s11z22z", "1z", tsumo=True))["sanankou"] == 2


def test_yaku_honroutou_needs_both_terminals_and_honors() -> None:
    # docs/rules.md How yaku combine: all terminals is chinroutou, all honors tsuuiisou, neither
    # adds honroutou
    assert "honroutou" not in yaku(score("111p999p111s999s1m", "1m"))
    assert "honroutou" not in yaku(score("111z222z333z555z6z", "6z"))
