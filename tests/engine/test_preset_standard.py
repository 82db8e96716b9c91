"""The ``standard`` preset (docs/rules/standard.md; seed 003 "標準規則を考える"), clause by clause.

Test names carry the seed's section (§基本, §点数計算, §和了役, …).
"""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.points import hand_base, limited_base, ron_amount
from sanma_lens.engine.rules import STANDARD, rules_from_json
from sanma_lens.engine.service import score_json, tenpai_json
from tests.engine.helpers import yaku

ST = {"preset": "standard"}


def ss(hand: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_json({"hand": hand, "win": win, "rules": ST, **kw})


def test_standard_preset_is_selected_by_name() -> None:
    assert rules_from_json(ST) == STANDARD and STANDARD.preset == "standard"


# ---- §基本 ------------------------------------------------------------------------------------


def test_standard_kihon_136_tiles_without_red_fives() -> None:
    assert len(STANDARD.tile_kinds) == 34 and STANDARD.red_fives == ()
    assert ss("567p345s66s34s", "5s", melds=["chi:234m"])["valid"]
    with pytest.raises(InputError):
        ss("406p345s66s34s", "5s", melds=["chi:234m"])


def test_standard_kihon_always_one_han_also_with_many_honba() -> None:
    r = ss("567p345s66s34s", "5s", melds=["chi:234m"], honba=8)
    assert r["valid"] and yaku(r) == {"tanyao": 1} and r["guarantee"]["required"] == 1


def test_standard_kihon_open_tanyao() -> None:
    assert yaku(ss("567p345s66s34s", "5s", melds=["chi:234m"])) == {"tanyao": 1}


def test_standard_kihon_sakizuke_an_open_one_sided_wait_cannot_win() -> None:
    # open: 6p gives tanyao, 9p nothing (the yaku is not fixed)
    r = ss("345m456s66s78p", "6p", melds=["chi:234s"])
    assert not r["valid"] and r["reason"] == "insufficient_yaku"


def test_standard_kihon_monzen_sentaku_a_closed_hand_may_win_on_its_yaku_wait() -> None:
    r = ss("345m456s666s78p22s", "6p")
    assert r["valid"] and yaku(r) == {"tanyao": 1}
    assert not ss("345m456s666s78p22s", "9p")["valid"]  # the wait without a yaku
    t = tenpai_json({"hand": "345m456s666s78p22s", "rules": ST})
    assert [w["valid_ron"] for w in t["waits"]] == [True, False]


def test_standard_kihon_guarantee_off_asks_only_the_actual_win() -> None:
    r = score_json(
        {
            "hand": "345m456s66s78p",
            "win": "6p",
            "melds": ["chi:234s"],
            "rules": {**ST, "guarantee": False},
        }
    )
    assert r["valid"]


# ---- §点数計算 --------------------------------------------------------------------------------


def test_standard_tensuu_mangan_8000_dealer_12000() -> None:
    base, limit, _ = hand_base(5, 30, STANDARD)
    assert limit == "mangan" and ron_amount(base, False, 0, STANDARD) == 8_000
    assert ron_amount(base, True, 0, STANDARD) == 12_000


@pytest.mark.parametrize(
    ("han", "limit"), [(6, "haneman"), (8, "baiman"), (11, "sanbaiman"), (13, "sanbaiman")]
)
def test_standard_tensuu_limits_and_sanbaiman_is_the_top_without_a_yakuman(
    han: int, limit: str
) -> None:
    assert limited_base(han, 30, False, STANDARD)[1] == limit


def test_standard_tensuu_30_fu_4_han_is_7700_no_kiriage_by_default() -> None:
    base, _, _ = hand_base(4, 30, STANDARD)
    assert ron_amount(base, False, 0, STANDARD) == 7_700
    kiriage = rules_from_json({**ST, "kiriage_mangan": True})
    assert ron_amount(hand_base(4, 30, kiriage)[0], False, 0, kiriage) == 8_000


def test_standard_tensuu_yakuman_is_yonbaiman_and_never_more_than_one() -> None:
    r = ss("111z222z333z44z55s", "4z")  # daisuushii
    assert r["valid"] and r["yakuman_multiple"] == 1 and r["total"] == 32_000
    both = ss("111z222z333z44z55z", "4z")  # daisuushii + tsuuiisou: still one yakuman
    assert both["yakuman_multiple"] == 1 and both["total"] == 32_000
    tanki = ss("111m999p111s222z5z", "5z", tsumo=True)  # suuankou tanki: single
    assert tanki["yakuman_multiple"] == 1


def test_standard_tensuu_pinfu_tsumo_20_fu_open_pinfu_30_fu() -> None:
    assert ss("123m456p789s23p55s", "4p", tsumo=True)["fu"] == 20
    assert ss("345m456s66s67p", "8p", melds=["chi:234s"])["fu"] == 30


def test_standard_tensuu_double_wind_pair_is_2_fu() -> None:
    r = ss("123m456p789s11z23p", "1p", seat="E", round="E", riichi="riichi")
    pair = [f for f in r["fu_breakdown"] if f["reason"] == "pair_1z"]
    assert pair == [{"reason": "pair_1z", "fu": 2}]


def test_standard_tensuu_rinshan_kaihou_has_no_tsumo_fu_haitei_has() -> None:
    rinshan = ss("345m456s66s78p", "6p", melds=["ankan:2222z"], tsumo=True, rinshan=True)
    assert [f["reason"] for f in rinshan["fu_breakdown"]] == ["base", "ankan_2z"]
    haitei = ss("345m456s66s78p", "6p", melds=["ankan:2222z"], tsumo=True, haitei=True)
    assert "tsumo" in [f["reason"] for f in haitei["fu_breakdown"]]


def test_standard_tensuu_honba_300() -> None:
    r = ss("123m456p789s23p55s", "4p", honba=1)
    assert r["payments"] == [{"from": "discarder", "amount": 1_000 + 300}]


# ---- §立直 ------------------------------------------------------------------------------------


def test_standard_riichi_no_open_riichi() -> None:
    with pytest.raises(InputError):
        ss("123m456p789s23p55s", "4p", riichi="open")


def test_standard_riichi_double_riichi_does_not_add_riichi() -> None:
    r = ss("123m456p789s23p55s", "4p", riichi="double")
    assert "riichi" not in yaku(r) and yaku(r)["double_riichi"] == 2


# ---- §副露と槓 ----------------------------------------------------------------------------------


def test_standard_furo_kan_dora_at_once_except_on_a_chankan() -> None:
    hand = {"hand": "123m456p789s23p55s", "dora": ["1m", "2m"]}
    after = ss(**hand, win="4p", kanburi=True, riichi="riichi")
    assert after["dora"]["dora"] == 2  # 即ノリ: the new kan's indicator already counts
    robbed = ss(**hand, win="4p", chankan=True)
    assert robbed["dora"]["dora"] == 1  # the robbed kan never stands: its 3m does not count


def test_standard_furo_kokushi_cannot_rob_an_ankan() -> None:
    with pytest.raises(InputError) as e:
        ss("19m19p19s1234567z", "1z", ron_on="ankan", chankan=True)
    assert e.value.code == "inconsistent_situation"


def test_standard_furo_rinshan_and_haitei_never_together() -> None:
    with pytest.raises(InputError):
        ss("345m456s66s78p", "6p", melds=["ankan:2222z"], tsumo=True, rinshan=True, haitei=True)


# ---- §和了役 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yaku_id", "closed", "open_"),
    [
        ("renhou", 4, None),
        ("chanta", 2, 1),
        ("sanshoku_doujun", 2, 1),
        ("ittsu", 2, 1),
        ("honroutou", 2, 2),
        ("shousangen", 2, 2),
        ("ryanpeikou", 3, None),
        ("honitsu", 3, 2),
        ("junchan", 3, 2),
        ("chinitsu", 6, 5),
        ("chiitoitsu", 2, None),
        ("daisuushii", 13, 13),
    ],
)
def test_standard_wahou_yaku_table_han(yaku_id: str, closed: int, open_: int | None) -> None:
    assert STANDARD.yaku_han(yaku_id, True) == closed
    assert STANDARD.yaku_han(yaku_id, False) == open_


def test_standard_wahou_renhou_is_4_han() -> None:
    r = ss("123m456p789s23p55s", "4p", renhou=True)
    assert yaku(r) == {"pinfu": 1, "renhou": 4}


def test_standard_wahou_ryuuiisou_without_hatsu() -> None:
    r = ss("2233444666888s", "4s")
    assert r["valid"] and r["yakuman_multiple"] == 1 and "ryuuiisou" in yaku(r)


def test_standard_wahou_tsuuiisou_as_chiitoitsu() -> None:
    r = ss("1122334455667z", "7z")
    assert yaku(r) == {"tsuuiisou": 13}


# ---- §流局: tenpai on the concealed part --------------------------------------------------------


def test_standard_ryuukyoku_tenpai_judged_on_the_concealed_part_only() -> None:
    # waiting on 5s while holding 555s as a pon: the wait is used up by the meld, still tenpai
    hand = {"hand": "123m456p789s5s", "melds": ["pon:555s"]}
    assert tenpai_json({**hand, "rules": ST})["tenpai"]
    assert not tenpai_json({**hand, "rules": {"preset": "riichi-4p"}})["tenpai"]
