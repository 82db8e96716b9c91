"""Fu (RULES.md Hand value, standard riichi fu [interp]; §20 chiitoitsu 25)."""

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
