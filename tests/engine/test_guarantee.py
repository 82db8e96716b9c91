"""§18: 2 han from yaku guaranteed over every wait, 3 with 5+ honba, the §18.2 exception."""

from __future__ import annotations

from tests.engine.helpers import score, tenpai

PINFU = "23p567p345s678s55p"  # waits 1p (pinfu) / 4p (pinfu tanyao)


def waits_of(r: dict) -> dict[str, int]:
    return {w["tile"]: w["yaku_han"] for w in r["guarantee"]["waits"]}


def test_rule_18_guarantee_fails_when_one_wait_is_short() -> None:
    r = score(PINFU, "4p")
    assert waits_of(r) == {"1p": 1, "4p": 2}
    assert r["guarantee"] == {**r["guarantee"], "required": 2, "minimum_over_waits": 1, "ok": False}
    assert not r["valid"] and r["reason"] == "insufficient_yaku"


def test_rule_18_guarantee_riichi_counts_for_every_wait() -> None:
    r = score(PINFU, "4p", riichi="riichi")
    assert waits_of(r) == {"1p": 2, "4p": 3} and r["guarantee"]["ok"] and r["valid"]


def test_rule_18_dora_and_kita_never_count() -> None:
    r = score(PINFU, "1p", dora=["9s"], kita=3)  # lots of han, but 1 han from yaku
    assert r["han"] >= 4 and r["yaku_han"] == 1 and r["reason"] == "insufficient_yaku"


def test_rule_18_2_non_riichi_tsumo_needs_only_the_actual_hand() -> None:
    r = score(PINFU, "4p", tsumo=True)  # menzen tsumo pinfu tanyao = 3
    assert r["valid"] and r["yaku_han"] == 3
    r2 = score("23p567p345s678s99p", "1p", tsumo=True)  # tsumo + pinfu = 2 on this tile
    assert r2["valid"]


def test_rule_18_2_exception_not_for_ron() -> None:
    r = score("23p567p345s678s99p", "1p")  # pinfu only
    assert r["reason"] == "insufficient_yaku"


def test_rule_18_riichi_tsumo_uses_the_guarantee() -> None:
    r = score(PINFU, "1p", tsumo=True, riichi="riichi")  # riichi + tsumo for any wait
    assert r["valid"] and r["guarantee"]["minimum_over_waits"] >= 3


def test_rule_18_4_five_honba_needs_3_han() -> None:
    r = score(PINFU, "4p", riichi="riichi", honba=5)
    assert r["guarantee"]["required"] == 3
    assert r["reason"] == "insufficient_yaku"  # the 1p wait has riichi + pinfu = 2
    r4 = score(PINFU, "4p", riichi="riichi", honba=4)
    assert r4["valid"]


def test_rule_18_3_situational_yaku_hold_for_every_wait() -> None:
    r = score(PINFU, "4p", houtei=True)
    assert waits_of(r) == {"1p": 2, "4p": 3} and r["valid"]


def test_rule_18_shanpon_wait_with_one_yakuhai_side_fails() -> None:
    # 11z (round east) / 99p shanpon: ron on 1z has yakuhai, ron on 9p has nothing
    r = score("123p456p789s11z99p", "1z")
    assert r["reason"] == "insufficient_yaku"


def test_rule_18_waits_used_up_by_own_tiles_are_not_considered() -> None:
    # 1111p as ankan: the 1p side of the 23p wait is used up, only 4p counts
    r = score("23p567s678s55p", "4p", melds=["ankan:1111p"])
    assert [w["tile"] for w in r["guarantee"]["waits"]] == ["4p"]


def test_rule_18_waits_only_sanma_kinds() -> None:
    # 1m9m kanchan-like shapes cannot wait on 2m–8m; 9m 1m treated as separate kinds
    t = tenpai("19m19p19s1234567z")
    assert len(t["waits"]) == 13 and all(
        w["tile"][1] != "m" or w["tile"][0] in "19" for w in t["waits"]
    )


def test_rule_18_no_win_shape_is_chombo() -> None:
    r = score(PINFU, "7p", riichi="riichi")
    assert not r["valid"] and r["reason"] == "no_win_shape" and r["total"] == -8000


def test_rule_18_furiten_extension() -> None:
    r = score(PINFU, "4p", riichi="riichi", discards=["1p"])
    assert r["reason"] == "furiten" and r["total"] < 0
    assert score(PINFU, "4p", riichi="riichi", discards=["1p"], tsumo=True)["valid"]


def test_rule_23_ron_on_kita_needs_yakuman() -> None:
    r = score("19m19p19s1235677z", "4z", ron_on="kita")
    assert r["valid"] and r["limit"] == "yakuman"
    r2 = score("123p456p789s44z55s", "4z", ron_on="kita", riichi="riichi")
    assert r2["reason"] == "yakuman_only"


def test_rule_18_minimum_guarantee_option_off() -> None:
    r = score(PINFU, "4p", rules={"guarantee": False})
    assert r["valid"]


def test_rule_24_robbing_an_ankan_needs_yakuman() -> None:
    r = score("19m19p19s1234567z", "9s", ron_on="ankan", chankan=True)  # kokushi 13-sided
    assert r["valid"] and r["yakuman_multiple"] >= 2
    r2 = score(PINFU, "4p", ron_on="ankan", chankan=True, riichi="riichi")
    assert r2["reason"] == "yakuman_only" and r2["total"] < 0


def test_rule_27_ippatsu_not_broken_by_kita() -> None:
    r = score(PINFU, "4p", riichi="riichi", ippatsu=True, kita=1, tsumo=True, rinshan=True)
    assert {"ippatsu", "rinshan", "riichi"} <= {y["id"] for y in r["yaku"]}


def test_rule_28_tenhou_not_broken_by_ankan() -> None:
    r = score("234p567s678s5p", "5p", melds=["ankan:1111z"], tsumo=True, tenhou=True, seat="E")
    assert r["valid"] and any(y["id"] == "tenhou" for y in r["yaku"])
