"""The ``riichi-4p`` preset: standard four-player riichi as the `mahjong` library computes it.

Each test names the rule it pins; the values are the standard four-player tables (the same the
library produces, see tests/test_differential.py for the hand-by-hand comparison).
"""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.points import chombo_amounts, limited_base, ron_amount, tsumo_amounts
from sanma_lens.engine.rules import RIICHI_4P as R4
from sanma_lens.engine.rules import rules_from_json
from sanma_lens.engine.service import score_json, tenpai_json
from tests.engine.helpers import yaku

P4 = {"preset": "riichi-4p"}


def s4(hand: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_json({"hand": hand, "win": win, "rules": P4, **kw})


def pay(result: dict[str, Any]) -> list[tuple[str, int]]:
    return sorted((p["from"], p["amount"]) for p in result["payments"])


# --- tiles, melds, seats --------------------------------------------------------------------


def test_riichi4p_preset_is_selected_by_name() -> None:
    assert rules_from_json(P4) == R4 and R4.preset == "riichi-4p"
    with pytest.raises(InputError) as e:
        rules_from_json({"preset": "riichi-5p"})
    assert e.value.code == "unknown_preset" and "riichi-4p" in str(e.value)


def test_riichi4p_tiles_manzu_runs_and_chi_melds_exist() -> None:
    r = s4("567p345s88s78s", "6s", melds=["chi:234m"])
    assert r["valid"] and yaku(r) == {"tanyao": 1}
    with pytest.raises(InputError) as e:  # the same hand under sanma: no 2m–8m, no chi
        score_json({"hand": "567p345s88s78s", "win": "6s", "melds": ["chi:234m"]})
    assert e.value.code in ("invalid_tile", "chi_not_allowed")


def test_riichi4p_red_fives_0m_is_a_red_5m_one_per_suit() -> None:
    r = s4("340m067p345s88s78s", "6s")
    assert r["valid"] and r["dora"]["aka"] == 2
    with pytest.raises(InputError) as e:
        s4("340m067p345s88s78s", "6s", dora=["0p"])  # a second red 5p
    assert e.value.code == "too_many_red"


def test_riichi4p_has_no_kita() -> None:
    with pytest.raises(InputError):
        s4("567p345s88s78s", "6s", melds=["chi:234m"], kita=1)


def test_riichi4p_north_seat_and_west_round_are_yakuhai() -> None:
    r = s4("567p345s44z22p", "4z", melds=["chi:234m"], seat="N", round="N")
    assert yaku(r) == {"yakuhai": 2}  # double north: seat and round wind
    r = s4("567p345s33z22p", "3z", melds=["chi:234m"], seat="S", round="W")
    assert yaku(r) == {"yakuhai": 1}


# --- minimum han: 1 han from any yaku, no guarantee -------------------------------------------


def test_riichi4p_one_han_from_yaku_is_enough_without_guarantee() -> None:
    """Waits 6s, 7s (tanyao) and 9s (no yaku): the 6s ron is valid, the 9s ron has no yaku."""
    ok = s4("567p345s88s78s", "6s", melds=["chi:234m"])
    assert ok["valid"] and ok["guarantee"]["required"] == 1 and not ok["guarantee"]["ok"]
    bad = s4("567p345s88s78s", "9s", melds=["chi:234m"], dora=["7s"])  # 3 dora, no yaku
    assert not bad["valid"] and bad["reason"] == "insufficient_yaku"


def test_riichi4p_many_honba_still_needs_only_one_han() -> None:
    r = s4("567p345s88s78s", "6s", melds=["chi:234m"], honba=6)
    assert r["valid"] and r["han"] == 1


# --- payments -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "dealer", "ron", "tsumo"),
    [
        (1, 30, False, 1000, [("dealer", 500), ("child", 300), ("child", 300)]),
        (2, 30, False, 2000, [("dealer", 1000), ("child", 500), ("child", 500)]),
        (4, 30, False, 7700, [("dealer", 3900), ("child", 2000), ("child", 2000)]),
        (2, 30, True, 2900, [("child", 1000)] * 3),
        (5, 30, False, 8000, [("dealer", 4000), ("child", 2000), ("child", 2000)]),
        (5, 30, True, 12000, [("child", 4000)] * 3),
        (13, 30, False, 32000, [("dealer", 16000), ("child", 8000), ("child", 8000)]),
    ],
)
def test_riichi4p_payments_rounded_to_100_without_tsumo_bonus(
    han: int, fu: int, dealer: bool, ron: int, tsumo: list[tuple[str, int]]
) -> None:
    base, _, _ = limited_base(han, fu, False, R4)
    assert ron_amount(base, dealer, 0, R4) == ron
    assert sorted(tsumo_amounts(base, dealer, 0, R4)) == sorted(tsumo)


def test_riichi4p_honba_300_on_ron_100_from_each_on_tsumo() -> None:
    ron = s4("234m567p789s23s55p", "4s", honba=2)  # pinfu, 1 han 30 fu
    assert yaku(ron) == {"pinfu": 1} and ron["fu"] == 30 and pay(ron) == [("discarder", 1600)]
    tsumo = s4("234m567p789s23s55p", "4s", honba=2, tsumo=True)  # pinfu tsumo 2 han 20 fu
    assert tsumo["fu"] == 20
    assert pay(tsumo) == [("child", 600), ("child", 600), ("dealer", 900)]
    assert tsumo["total"] == 2100


def test_riichi4p_deposits_go_to_the_winner() -> None:
    r = s4("234m567p789s23s55p", "4s", deposits=2)
    assert r["total"] == 1000 + 2000


def test_riichi4p_kazoe_yakuman_is_one_yakuman_at_13_han() -> None:
    r = s4("123456789p2344p", "4p", riichi="riichi", tsumo=True, dora=["3p"])
    assert r["yaku_han"] < 13 <= r["han"]
    assert r["limit"] == "yakuman" and r["yakuman_multiple"] == 1
    assert pay(r) == [("child", 8000), ("child", 8000), ("dealer", 16000)]
    assert limited_base(40, 30, False, R4) == (8000, "yakuman", 1)  # never more than one


def test_riichi4p_yakuman_counts_yakuman_yaku_only_no_dora() -> None:
    r = s4("555666777z123p1s", "1s", dora=["9s"])  # daisangen; 1s pair would be 2 dora
    assert yaku(r) == {"daisangen": 13} and r["han"] == 13
    assert r["dora"] == {"dora": 0, "ura": 0, "aka": 0, "kita": 0, "aka5man_bonus": 0}
    assert pay(r) == [("discarder", 32000)]


def test_riichi4p_daisuushii_is_a_double_yakuman() -> None:
    r = s4("222333444z1p", "1p", melds=["pon:111z"])
    assert yaku(r) == {"daisuushii": 26} and r["yakuman_multiple"] == 2
    assert pay(r) == [("discarder", 64000)]


def test_riichi4p_shousuushii_is_a_single_yakuman() -> None:
    r = s4("222333z44z11p", "1p", melds=["pon:111z"])
    assert yaku(r) == {"shousuushii": 13}


def test_riichi4p_chombo_is_a_mangan_payment() -> None:
    assert chombo_amounts(False, R4) == [("dealer", 4000), ("child", 2000), ("child", 2000)]
    assert chombo_amounts(True, R4) == [("child", 4000)] * 3
    bad = s4("567p345s88s78s", "9s", melds=["chi:234m"])
    assert bad["total"] == -8000


# --- yaku table -----------------------------------------------------------------------------


def test_riichi4p_sanshoku_doujun_two_closed_one_open() -> None:
    closed = s4("123m123p123s456s9m", "9m")
    assert yaku(closed) == {"sanshoku_doujun": 2}
    opened = s4("123m123p456s9m", "9m", melds=["chi:123s"])
    assert yaku(opened) == {"sanshoku_doujun": 1} and opened["fu"] == 30
    assert pay(opened) == [("discarder", 1000)]


def test_riichi4p_sanankou_counts_open_and_toitoi_two() -> None:
    r = s4("222p333s444s9p", "9p", melds=["pon:555m"])
    assert yaku(r) == {"toitoi": 2, "sanankou": 2}
    assert r["fu"] == 40 and pay(r) == [("discarder", 8000)]


def test_riichi4p_chanta_two_closed_one_open() -> None:
    assert yaku(s4("123m789p789s44z99s", "4z")) == {"chanta": 2}  # north: no yakuhai for S
    assert yaku(s4("789p789s44z99s", "4z", melds=["chi:123m"])) == {"chanta": 1}


def test_riichi4p_renhou_is_five_han() -> None:
    r = s4("234m567p789s23s55p", "4s", seat="S", renhou=True)
    assert yaku(r) == {"renhou": 5, "pinfu": 1} and r["limit"] == "haneman"


def test_riichi4p_open_riichi_ron_from_a_non_riichi_player_stays_two_han() -> None:
    """No §21.1 15-han rule (the library's sashikomi yakuman is off by default)."""
    r = s4("234m567p789s23s55p", "4s", riichi="open")
    assert yaku(r) == {"open_riichi": 2, "pinfu": 1}
    r = s4("234m567p789s23s55p", "4s", riichi="double_open")
    assert yaku(r) == {"open_riichi": 3, "pinfu": 1}


def test_riichi4p_no_sanma_only_yaku() -> None:
    """No sanrenkou, kanburi, paarenchan, shiisan puutaa, beni kujaku in the table."""
    ids = {spec.id for spec in R4.yaku}
    assert ids.isdisjoint({"sanrenkou", "kanburi", "paarenchan", "shiisan_puutaa", "beni_kujaku"})
    r = s4("222333444p9s", "9s", melds=["pon:555p"])  # sanma would add suurenkou
    assert yaku(r) == {"toitoi": 2, "sanankou": 2}
    r = s4("234m567p789s23s55p", "4s", seat="E", honba=8)  # no paarenchan
    assert yaku(r) == {"pinfu": 1}


def test_riichi4p_tenpai_lists_waits_without_guarantee() -> None:
    t = tenpai_json({"hand": "567p345s88s78s", "melds": ["chi:234m"], "rules": P4})
    assert [w["tile"] for w in t["waits"]] == ["6s", "7s", "9s"]
    assert t["tenpai"] and [w["valid_ron"] for w in t["waits"]] == [True, True, False]


# --- options for the seed variants (seed 003: no double yakuman, kazoe stops at sanbaiman) ---


def test_riichi4p_option_double_yakuman_off_counts_single() -> None:
    r = s4("222333444z1p", "1p", melds=["pon:111z"], rules={**P4, "double_yakuman": False})
    assert yaku(r) == {"daisuushii": 13} and r["yakuman_multiple"] == 1
    assert pay(r) == [("discarder", 32000)]


def test_riichi4p_option_kazoe_yakuman_off_stops_at_sanbaiman() -> None:
    rules = {**P4, "kazoe_yakuman": False}
    r = s4("123456789p2344p", "4p", riichi="riichi", tsumo=True, dora=["3p"], rules=rules)
    assert r["han"] >= 13 and r["limit"] == "sanbaiman" and r["yakuman_multiple"] == 0
    assert pay(r) == [("child", 6000), ("child", 6000), ("dealer", 12000)]


def test_riichi4p_option_yakuman_max_multiple_caps_combined_yakuman() -> None:
    """Seed 003: 複数の役満が複合しても四倍満まで (combined yakuman pay one yakuman)."""
    hand = {"hand": "222333444z1p", "win": "1p", "melds": ["pon:111z"]}
    r = score_json({**hand, "rules": {**P4, "yakuman_max_multiple": 1}})
    assert yaku(r) == {"daisuushii": 26} and r["yakuman_multiple"] == 1
    assert pay(r) == [("discarder", 32000)]


def test_riichi4p_tenhou_chihou_renhou_need_a_hand_without_any_kan() -> None:
    """Four-player: no kan can come before the first draw's win (the library refuses it);
    sanma §27–§28 keeps tenhou after an ankan."""
    kw = {"hand": "234m567p23s55p", "win": "4s", "melds": ["ankan:1111z"], "tsumo": True}
    with pytest.raises(InputError) as e:
        score_json({**kw, "seat": "E", "tenhou": True, "rules": P4})
    assert e.value.code == "inconsistent_situation"
    sanma = score_json({**kw, "hand": "234p567p23s55p", "seat": "E", "tenhou": True})
    assert sanma["valid"] and "tenhou" in yaku(sanma)


def test_riichi4p_haitei_with_rinshan_and_houtei_with_chankan_are_refused() -> None:
    """The library refuses both pairs; sanma §40 counts one of the pair instead."""
    kw = {"hand": "234m567p23s55p", "win": "4s", "melds": ["ankan:1111z"]}
    with pytest.raises(InputError) as e:
        score_json({**kw, "tsumo": True, "haitei": True, "rinshan": True, "rules": P4})
    assert e.value.code == "inconsistent_situation"
    with pytest.raises(InputError):
        score_json({**kw, "houtei": True, "chankan": True, "rules": P4})
    sanma = score_json({**kw, "hand": "234p567p23s55p", "tsumo": True, "haitei": True,
                        "rinshan": True})  # fmt: skip
    assert "rinshan" in yaku(sanma) and "haitei" not in yaku(sanma)
