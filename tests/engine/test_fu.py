"""Fu (docs/rules.md Hand value, standard riichi fu [interp]; §20 chiitoitsu 25)."""

from __future__ import annotations

from tests.engine.helpers import score


def fu_items(r: dict) -> dict[str, int]:
    return {i["reason"]: i["fu"] for i in r["fu_breakdown"]}


def test_fu_pinfu_ron_30_and_tsumo_20() -> None:
    assert score("23p567p345s678s55p", "4p", riichi="riichi")["fu"] == 30
    assert score("23p567p345s678s55p", "4p", tsumo=True)["fu"] == 20


def test_fu_closed_ron_kanchan_and_concealed_terminal_triplet() -> None:
    r = score("13p567p345s999s55p", "2p", riichi="riichi")
    assert fu_items(r) == {"base": 20, "closed_ron": 10, "wait_kanchan": 2, "ankou_9s": 8}
    assert r["fu"] == 40


def test_fu_ron_on_shanpon_makes_the_triplet_open() -> None:
    r = score("123p456p789s11z99p", "9p", riichi="riichi", seat="E")  # 11z seat+round pair
    assert fu_items(r)["minkou_9p"] == 4 and fu_items(r)["pair_1z"] == 4


def test_fu_kans() -> None:
    r = score("234p567s5s", "5s", melds=["ankan:1111z", "minkan:9999p"])
    items = fu_items(r)
    assert items["ankan_1z"] == 32 and items["minkan_9p"] == 16


def test_fu_open_pinfu_shape_is_30() -> None:
    r = score("234p567s55p78s", "6s", melds=["pon:666p"])
    assert r["fu"] == 30


def test_fu_chiitoitsu_25_rule_20() -> None:
    assert score("1199p2255s66z77z1m", "1m")["fu"] == 25


def test_rule_22_kita_carry_no_fu() -> None:
    hand = {"hand": "123p456p789s11z99s", "win": "9s", "tsumo": True, "riichi": "riichi"}
    plain, kita = score(**hand), score(**hand, kita=2)
    assert kita["fu_breakdown"] == plain["fu_breakdown"] and kita["fu"] == plain["fu"] == 40
    assert kita["dora"]["kita"] == 2 and kita["han"] == plain["han"] + 2


def test_fu_rule_20_chiitoitsu_tsumo_stays_25() -> None:
    r = score("1199p2255s66z77z1m", "1m", tsumo=True)  # no +2 for tsumo: 3 han 25 fu
    assert r["fu"] == 25 and r["han"] == 3
    # base 25 × 2^5 = 800: the child pays 1,000 + 1,000, the dealer 1,600 → 2,000 + 1,000
    assert [p["amount"] for p in r["payments"]] == [2000, 3000]
