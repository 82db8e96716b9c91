"""Dora (§2, §3, §22, §A5–§A9)."""

from __future__ import annotations

from tests.engine.helpers import score

BASE = {"hand": "123p456p789s11z55s", "win": "1z", "riichi": "riichi"}  # yaku: riichi yakuhai


def s(**kw: object) -> dict:
    return score(**{**BASE, **kw})  # type: ignore[arg-type]


def test_rule_2_manzu_indicator_wraps_1m_to_9m() -> None:
    r = score("123p456p789s11z99m", "1z", riichi="riichi", dora=["1m"])
    assert r["dora"]["dora"] == 2
    r2 = score("123p456p789s11z11m", "1z", riichi="riichi", dora=["9m"])
    assert r2["dora"]["dora"] == 2


def test_rule_2_suit_and_honor_wraps() -> None:
    assert s(dora=["9s"])["dora"]["dora"] == 0  # 1s
    assert s(dora=["4z"])["dora"]["dora"] == 3  # north → east: 111z
    assert s(dora=["7z"])["dora"]["dora"] == 0  # chun → haku
    assert s(dora=["4s"])["dora"]["dora"] == 2  # the 55s pair


def test_ura_dora_with_riichi() -> None:
    assert s(ura=["4s"])["dora"]["ura"] == 2


def test_rule_3_red_five_is_one_dora() -> None:
    assert score("123p406p789s11z55s", "1z", riichi="riichi")["dora"]["aka"] == 1


def test_rule_22_each_kita_one_dora() -> None:
    assert s(kita=2)["dora"]["kita"] == 2


def test_rule_22_2_four_kita_count_eight() -> None:
    assert s(kita=4)["dora"]["kita"] == 8


def test_kita_count_as_dora_when_north_indicated() -> None:
    assert s(kita=2, dora=["3z"])["dora"]["dora"] == 2
    off = s(kita=2, dora=["3z"], rules={"kita_count_as_dora_when_north_indicated": False})
    assert off["dora"]["dora"] == 0


def test_rule_a5_extracted_aka5man_is_kita_not_red_five() -> None:
    r = s(kita=1, kita_aka=1, rules={"aka_5man": True})
    assert r["dora"]["kita"] == 1 and r["dora"]["aka"] == 3  # 5p and 55s in hand only


def test_rule_a9_aka5man_indicator_takes_the_best() -> None:
    r = s(dora=["0m"], rules={"aka_5man": True})
    assert r["dora"]["dora"] == 3  # 111z


def test_rule_a6_aka5man_discard_taken_as_5p_adds_2_han_not_yaku() -> None:
    obj = {
        "hand": "123p46p789s111z55s",
        "win": "0m",
        "aka5man_as": "5p",
        "riichi": "riichi",
        "rules": {"aka_5man": True},
    }
    r = score(**obj)  # type: ignore[arg-type]
    assert r["valid"] and r["dora"]["aka5man_bonus"] == 2
    assert r["yaku_han"] == 2  # riichi + yakuhai (east round)
    assert r["han"] == r["yaku_han"] + 2 + r["dora"]["aka"]
    assert r["dora"]["aka"] == 2  # the two 5s, not the aka-5-man


def test_rule_a4_aka5man_in_hand_is_a_north() -> None:
    obj = {
        "hand": "123p456p789s44z0m5s",
        "win": "5s",
        "riichi": "riichi",
        "tsumo": True,
        "rules": {"aka_5man": True},
    }
    r = score(**obj)  # type: ignore[arg-type]
    assert r["valid"] and r["form"] == "standard" and r["fu_breakdown"][-1]["reason"] != ""
    assert {"reason": "ankou_4z", "fu": 8} in r["fu_breakdown"]


def test_rule_2_wraps_land_on_the_first_tile_of_the_group() -> None:
    # 11p, 1s (in 123s) and the 555z of the win are each the tile after a group's last one;
    # W indicates N, which only the extracted north (kita) holds [interp]; E/hatsu hit nothing.
    hand = {"hand": "11p123s456s789s55z", "win": "5z", "riichi": "riichi", "kita": 1}
    dora = {
        d: score(**hand, dora=[d])["dora"]["dora"] for d in ("9p", "9s", "7z", "3z", "4z", "6z")
    }
    assert dora == {"9p": 2, "9s": 1, "7z": 3, "3z": 1, "4z": 0, "6z": 0}
