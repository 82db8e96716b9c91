"""The standard proposal's options (docs/rules/standard.md "Options"; seed 003 "標準規則を考える"),
each with both settings. Test names carry the seed's section and clause."""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.explain import explained_score
from sanma_lens.engine.game import apply, game_rules_from_json, new_game, resolve_hand
from sanma_lens.engine.game.options import game_rules_to_json
from sanma_lens.engine.rules import PRESETS, STANDARD, rules_from_json
from sanma_lens.engine.service import score_json, tenpai_json
from tests.engine.helpers import yaku

ST = {"preset": "standard"}
FOURS = {**ST, "chiitoitsu_four_of_a_kind": True}


def ss(hand: str, win: str, rules: dict[str, Any] = ST, **kw: Any) -> dict[str, Any]:
    return score_json({"hand": hand, "win": win, "rules": rules, **kw})


def waits(hand: str, rules: dict[str, Any], **kw: Any) -> list[str]:
    return [w["tile"] for w in tenpai_json({"hand": hand, "rules": rules, **kw})["waits"]]


def test_standard_options_are_off_in_the_preset_as_the_texts_standard() -> None:
    assert STANDARD.chiitoitsu_four_of_a_kind is False
    assert (STANDARD.honroutou_han, STANDARD.renhou_han, STANDARD.kui_pinfu_han) == (0, 0, 0)
    assert STANDARD.yaku_han("honroutou", True) == 2 and STANDARD.yaku_han("renhou", True) == 4
    assert STANDARD.yaku_han("kui_pinfu", False) is None
    # every preset keeps its answers: the options are off everywhere
    for rules in PRESETS.values():
        assert not rules.chiitoitsu_four_of_a_kind and not rules.kui_pinfu_han


# ---- §和了役 七対子: "七種の牌が必要 …を基本とするけど、オプションで四枚使いを認める" ----


def test_standard_wahou_chiitoitsu_needs_seven_kinds_by_default() -> None:
    r = ss("1111m22p33p44p55s6s", "6s")
    assert not r["valid"] and r["reason"] == "no_win_shape"
    assert waits("1111m22p33p44p55s6s", ST) == []
    assert "1m" not in waits("111m22p33p44p55s66s", ST)


def test_standard_wahou_chiitoitsu_yonmai_tsukai_option_four_of_a_kind_is_two_pairs() -> None:
    r = ss("1111m22p33p44p55s6s", "6s", FOURS)
    assert r["valid"] and r["form"] == "chiitoitsu" and r["wait"] == "tanki"
    # still chiitoitsu's 2 han 25 fu (七対子は2飜25符): 25 × 2^4 = 400, child ron 1,600
    assert yaku(r) == {"chiitoitsu": 2} and r["fu"] == 25 and r["total"] == 1_600
    assert r["fu_breakdown"] == [{"reason": "chiitoitsu", "fu": 25}]
    assert waits("1111m22p33p44p55s6s", FOURS) == ["6s"]


def test_standard_wahou_chiitoitsu_yonmai_tsukai_shows_the_four_as_two_pairs() -> None:
    sets = explained_score({"hand": "1111m22p33p44p55s6s", "win": "6s", "rules": FOURS})["explain"][
        "sets"
    ]
    assert [s["tiles"] for s in sets][:2] == [["1m", "1m"], ["1m", "1m"]]
    assert len(sets) == 7 and all(s["type"] == "pair" for s in sets)


def test_standard_wahou_chiitoitsu_yonmai_tsukai_waits_on_the_fourth_of_a_three_interp() -> None:
    hand = "111m22p33p44p55s66s"
    assert "1m" in waits(hand, FOURS)
    r = ss(hand, "1m", FOURS, tsumo=True)
    assert r["valid"] and r["form"] == "chiitoitsu"
    assert yaku(r) == {"menzen_tsumo": 1, "chiitoitsu": 2}
    assert not ss(hand, "1m", ST, tsumo=True)["valid"]


def test_standard_wahou_chiitoitsu_yonmai_tsukai_counts_for_tenpai_at_a_draw() -> None:
    t = tenpai_json({"hand": "1111m22p33p44p55s6s", "rules": FOURS})
    assert t["tenpai"] and [w["tile"] for w in t["waits"]] == ["6s"]
    assert not tenpai_json({"hand": "1111m22p33p44p55s6s", "rules": ST})["tenpai"]


def test_standard_wahou_chiitoitsu_yonmai_tsukai_an_ankan_is_a_meld_not_two_pairs_interp() -> None:
    # declared, the four is a kan and its replacement tile (7s) is in the hand
    r = ss("22p33p44p55s6s7s", "6s", FOURS, melds=["ankan:1111m"])
    assert not r["valid"] and r["reason"] == "no_win_shape"


def test_standard_wahou_chiitoitsu_yonmai_tsukai_two_fours() -> None:
    r = ss("1111m2222p33p44s5s", "5s", FOURS)
    assert r["valid"] and r["form"] == "chiitoitsu" and yaku(r) == {"chiitoitsu": 2}


def test_standard_wahou_chiitoitsu_yonmai_tsukai_with_yaku_of_its_tiles() -> None:
    # tanyao, chinitsu and honroutou read the tiles, not the pairs
    r = ss("2222m44m66m88m33p5p", "5p", FOURS)
    assert yaku(r) == {"chiitoitsu": 2, "tanyao": 1}
    r = ss("1111m3333m55m77m9m", "9m", FOURS)
    assert yaku(r) == {"chiitoitsu": 2, "chinitsu": 6}
    r = ss("1111m99m11p99p11z2z", "2z", FOURS)
    assert yaku(r) == {"chiitoitsu": 2, "honroutou": 2}


def test_standard_wahou_chiitoitsu_yonmai_tsukai_seven_terminal_pairs_are_chinroutou_interp() -> (
    None
):
    r = ss("1111m99m11p99p11s9s", "9s", FOURS)
    assert r["valid"] and yaku(r) == {"chinroutou": 13} and r["total"] == 32_000


def test_standard_wahou_chiitoitsu_yonmai_tsukai_honor_pairs_are_tsuuiisou() -> None:
    r = ss("1111z22z33z44z55z6z", "6z", FOURS)
    assert r["valid"] and yaku(r) == {"tsuuiisou": 13}


def test_standard_wahou_chiitoitsu_yonmai_tsukai_the_standard_reading_when_worth_more() -> None:
    # 1111m 2222m 3333m 44m: four 123m and 44m (ryanpeikou, chinitsu) beat seven pairs
    r = ss("1111m2222m3333m4m", "4m", FOURS)
    assert r["valid"] and r["form"] == "standard"
    assert yaku(r) == yaku(ss("1111m2222m3333m4m", "4m"))


def test_standard_wahou_chiitoitsu_yonmai_tsukai_is_settable_in_a_games_hand_rules() -> None:
    rules = game_rules_from_json({"preset": "standard", "hand_rules": FOURS_OPTION})
    assert rules.hand_rules.chiitoitsu_four_of_a_kind
    assert game_rules_to_json(rules)["hand_rules"] == FOURS_OPTION  # stored and read back
    assert game_rules_from_json(game_rules_to_json(rules)) == rules
    state = new_game(["Aki", "Ben", "Chie", "Dai"], rules)
    hand = {"hand": "1111m22p33p44p55s6s", "win": "6s"}
    after = apply(
        state,
        resolve_hand(
            state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "hand": hand}]}
        ),
    )
    assert after.scores[1] - state.scores[1] == 1_600
    plain = new_game(["Aki", "Ben", "Chie", "Dai"], game_rules_from_json({"preset": "standard"}))
    with pytest.raises(InputError):
        resolve_hand(
            plain, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "hand": hand}]}
        )


FOURS_OPTION = {"chiitoitsu_four_of_a_kind": True}


# ---- §和了役 混老頭: "2飜を基本として、オプションによりそれ以上を認める" ----


def test_standard_wahou_honroutou_2_han_by_default() -> None:
    assert yaku(ss("111m999p11z22z", "2z", melds=["pon:111s"])) == {
        "yakuhai": 1,
        "toitoi": 2,
        "honroutou": 2,
    }
    assert yaku(ss("11m99m11p99p11z22z3z", "3z")) == {"chiitoitsu": 2, "honroutou": 2}


@pytest.mark.parametrize("han", [3, 4])
def test_standard_wahou_honroutou_option_more_han_with_toitoi_and_chiitoitsu(han: int) -> None:
    rules = {**ST, "honroutou_han": han}
    r = ss("111m999p11z22z", "2z", rules, melds=["pon:111s"])
    assert yaku(r) == {"yakuhai": 1, "toitoi": 2, "honroutou": han}  # open: the same han
    r = ss("11m99m11p99p11z22z3z", "3z", rules)
    assert yaku(r) == {"chiitoitsu": 2, "honroutou": han} and r["han"] == 2 + han


def test_standard_wahou_honroutou_option_payment() -> None:
    # chiitoitsu + honroutou 25 fu: 4 han 6,400 (25 × 2^6); with honroutou_han 4, 6 han haneman
    assert ss("11m99m11p99p11z22z3z", "3z")["total"] == 6_400
    assert ss("11m99m11p99p11z22z3z", "3z", {**ST, "honroutou_han": 4})["total"] == 12_000


# ---- §和了役 人和: "いくつかのバリエーションが存在する…四飜役を基本とする" ----

RENHOU = {"hand": "123m456p789s11z23s", "win": "4s", "renhou": True, "seat": "S"}


def test_standard_wahou_renhou_4_han_by_default() -> None:
    r = score_json({**RENHOU, "rules": ST})
    assert yaku(r) == {"renhou": 4} and r["limit"] == "mangan" and r["total"] == 8_000


def test_standard_wahou_renhou_option_other_han_interp() -> None:
    r = score_json({**RENHOU, "rules": {**ST, "renhou_han": 5}})
    assert yaku(r) == {"renhou": 5} and r["total"] == 8_000
    # at yakuman_han a yakuman yaku: single, and the dora no longer count
    r = score_json({**RENHOU, "dora": ["3s"], "rules": {**ST, "renhou_han": 13}})
    assert yaku(r) == {"renhou": 13} and r["limit"] == "yakuman" and r["total"] == 32_000
    assert r["dora"]["dora"] == 0


# ---- §点数計算 喰い平和形: "20符でも良いのだが、その場合には「喰い平和」という役を…" ----

KUI = {"hand": "456p789s55m23m", "win": "4m", "melds": ["chi:123p"]}
KUI_ON = {**ST, "open_pinfu_fu": 20, "kui_pinfu_han": 1}


def test_standard_tensuu_kui_pinfu_kei_30_fu_and_no_yaku_by_default() -> None:
    r = score_json({**KUI, "rules": ST})
    assert not r["valid"] and r["reason"] == "insufficient_yaku" and r["fu"] == 30


def test_standard_tensuu_kui_pinfu_option_20_fu_with_the_yaku() -> None:
    r = score_json({**KUI, "rules": KUI_ON})
    assert r["valid"] and yaku(r) == {"kui_pinfu": 1} and r["fu"] == 20
    assert r["total"] == 700  # 20 × 2^3 × 4 = 640, rounded up
    # tsumo keeps its 2 fu [interp]: 30 fu
    r = score_json({**KUI, "tsumo": True, "rules": KUI_ON})
    assert r["valid"] and yaku(r) == {"kui_pinfu": 1} and r["fu"] == 30
    # the yaku alone, the fu left at 30
    r = score_json({**KUI, "rules": {**ST, "kui_pinfu_han": 1}})
    assert yaku(r) == {"kui_pinfu": 1} and r["fu"] == 30 and r["total"] == 1_000


def test_standard_tensuu_kui_pinfu_needs_pinfus_shape() -> None:
    # a yakuhai pair (haku), a kanchan wait: no 喰い平和
    assert not score_json(
        {"hand": "456p789s55z23m", "win": "4m", "melds": ["chi:123p"], "rules": KUI_ON}
    )["valid"]
    assert not score_json(
        {"hand": "456p789s55m24m", "win": "3m", "melds": ["chi:123p"], "rules": KUI_ON}
    )["valid"]


def test_standard_tensuu_kui_pinfu_never_on_a_closed_hand() -> None:
    r = ss("123p456p789s55m23m", "4m", KUI_ON)
    assert "kui_pinfu" not in yaku(r) and "pinfu" in yaku(r)


def test_standard_tensuu_kui_pinfu_only_where_the_table_has_it() -> None:
    for preset in ("sanma-1.3", "riichi-4p", "ecip"):
        with pytest.raises(InputError) as err:
            rules_from_json({"preset": preset, "kui_pinfu_han": 1})
        assert err.value.code == "bad_rule_option"
    assert rules_from_json({"preset": "riichi-4p", "kui_pinfu_han": 0}).kui_pinfu_han == 0
