"""Tenpai JSON (§18.1 no-ten riichi, §29 shape tenpai)."""

from __future__ import annotations

from tests.engine.helpers import tenpai


def test_tenpai_reports_every_wait_with_ron_and_tsumo_han() -> None:
    t = tenpai("23p567p345s678s55p")
    assert t["tenpai"] and [w["tile"] for w in t["waits"]] == ["1p", "4p"]
    w = {x["tile"]: x for x in t["waits"]}
    assert w["1p"]["yaku_han_ron"] == 1 and w["1p"]["yaku_han_tsumo"] == 2
    assert w["4p"]["yaku_han_ron"] == 2 and w["4p"]["yaku_han_tsumo"] == 3
    assert not t["guarantee_ok"]
    assert not w["4p"]["valid_ron"]  # the 1p side fails the guarantee
    assert w["1p"]["valid_tsumo"] and w["4p"]["valid_tsumo"]  # §18.2


def test_rule_29_formal_tenpai_without_yaku() -> None:
    t = tenpai("123p456p78s11z999p")
    assert t["tenpai"] and [w["tile"] for w in t["waits"]] == ["6s", "9s"]


def test_rule_29_wait_used_up_does_not_count() -> None:
    t = tenpai("123p789p567s9999s")
    # 9999s: the only wait would be a fifth 9s (docs/rules.md Ryuukyoku [interp])
    assert t["tenpai"] is False and t["waits"] == []


def test_not_tenpai() -> None:
    t = tenpai("19m19p19s1234z58p9s")
    assert t == {**t, "tenpai": False, "waits": [], "guarantee_ok": False}


def test_rule_18_1_noten_riichi_when_not_tenpai() -> None:
    assert tenpai("19m19p19s1234z58p9s", riichi="riichi")["noten_riichi"]


def test_rule_18_1_riichi_that_can_satisfy_the_guarantee() -> None:
    t = tenpai("23p567p345s678s55p", riichi="riichi")
    assert t["guarantee_ok"] and not t["noten_riichi"]


def test_rule_18_1_noten_riichi_with_5_honba() -> None:
    # riichi + tsumo = 2 < 3; shanpon 11z/99p: ron on 9p has riichi only
    t = tenpai("123p456p789s11z99p", riichi="riichi", honba=5)
    assert t["noten_riichi"]


def test_tenpai_chiitoitsu_and_kokushi_waits() -> None:
    assert [w["tile"] for w in tenpai("1199p2255s66z77z1m")["waits"]] == ["1m"]
    assert len(tenpai("19m19p19s1234567z")["waits"]) == 13
    assert [w["tile"] for w in tenpai("19m19p19s1234566z")["waits"]] == ["7z"]


def test_rule_29_north_wait_used_up_by_kita_and_the_aka5man_in_hand() -> None:
    # 44z / 99s shanpon with two norths extracted: all four norths are the player's own, only
    # 9s is a wait; under aka_5man the aka-5-man in hand is one of the four norths (§A4)
    t = tenpai("44z111p234p567s99s", kita=2, riichi="riichi")
    assert [w["tile"] for w in t["waits"]] == ["9s"] and not t["noten_riichi"]
    aka = tenpai("4z0m111p234p567s99s", kita=2, riichi="riichi", rules={"aka_5man": True})
    assert [w["tile"] for w in aka["waits"]] == ["9s"]
    assert [w["tile"] for w in tenpai("44z111p234p567s99s", kita=1)["waits"]] == ["9s", "4z"]
