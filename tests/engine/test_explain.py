"""engine.explain: the chosen split, the wait, yakuhai tiles, payments taken apart, chombo."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.engine import random_winning_hand
from sanma_lens.engine.explain import explained_score
from sanma_lens.engine.service import score_json


def _tiles(mpsz: str) -> list[str]:
    out, digits = [], ""
    for ch in mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def explain(**hand: object) -> dict:
    return explained_score(hand)["explain"]


def test_explained_result_is_the_result_plus_explain() -> None:
    hand = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "riichi": "riichi"}
    result = explained_score(hand)
    assert {k: v for k, v in result.items() if k != "explain"} == score_json(hand)


def test_rule_11_rounding_shown_before_and_after_7680_to_8000() -> None:
    # riichi + pinfu + 2 dora: child 30 fu 4 han ron, 1,920 × 4 = 7,680 → 8,000
    p = explain(hand="23p456p789s123s99p", win="1p", riichi="riichi", dora=["8p"])["points"]
    assert (p["fu"], p["han"], p["base_raw"], p["base"]) == (30, 4, 1920, 1920)
    (ron,) = p["payments"]
    assert (ron["times"], ron["share"], ron["rounded"], ron["amount"]) == (4, 7680, 8000, 8000)
    assert p["call"] == {"how": "ron", "winner": "child", "amounts": [8000]}


def test_rule_13_tsumo_bonus_and_rule_12_honba_shown_apart() -> None:
    # child mangan tsumo with 1 honba: 2,000-4,000, +1,000 each, +1,000 each
    p = explain(
        hand="23p456p789s123s99p", win="1p", riichi="riichi", tsumo=True, dora=["8p"], honba=1
    )["points"]
    assert p["limit"] == "mangan" and p["base_raw"] is None
    assert p["call"] == {"how": "tsumo", "winner": "child", "amounts": [2000, 4000]}
    by_role = {r["from"]: r for r in p["payments"]}
    assert by_role["dealer"]["rounded"] == 4000 and by_role["child"]["rounded"] == 2000
    for r in p["payments"]:
        assert (r["tsumo_bonus"], r["honba"]) == (1000, 1000)
        assert r["amount"] == r["rounded"] + 2000


def test_dealer_tsumo_is_called_all() -> None:
    p = explain(
        hand="23p456p789s123s99p", win="1p", riichi="riichi", tsumo=True, seat="E", dora=["8p"]
    )["points"]
    assert p["call"] == {"how": "tsumo", "winner": "dealer", "amounts": [4000]}
    assert [r["amount"] for r in p["payments"]] == [5000, 5000]  # 4,000 all + 1,000 bonus


def test_ability_2_6_suzaku_call_is_what_it_receives() -> None:
    # closed ittsu 2 han 40 fu: ron 2,560 → 3,000, + 1 honba 1,000 = 4,000, halved 2,000
    hand = {"hand": "123p456p789p11z78s", "win": "9s", "role": "suzaku", "seat": "S", "honba": 1}
    result = explained_score(hand)
    p = result["explain"]["points"]
    assert p["call"] == {
        "how": "ron",
        "winner": "child",
        "amounts": [2000],
        "halved": True,
        "before_halving": [3000],
    }
    (ron,) = p["payments"]
    assert (ron["rounded"], ron["honba"], ron["before_halving"], ron["amount"]) == (
        3000,
        1000,
        4000,
        2000,
    )
    assert [x["amount"] for x in result["payments"]] == [2000]
    # tsumo 3 han 30 fu: 1,000-2,000, each + 1,000 bonus + 1,000 honba = 3,000 / 4,000,
    # halved 1,500 → 2,000 and 2,000: the suzaku receives 2,000-2,000
    p = explained_score({**hand, "tsumo": True})["explain"]["points"]
    assert p["call"]["amounts"] == [2000, 2000] and p["call"]["before_halving"] == [1000, 2000]
    assert [(r["from"], r["before_halving"], r["amount"]) for r in p["payments"]] == [
        ("child", 3000, 2000),
        ("dealer", 4000, 2000),
    ]
    # the suzaku dealing, tsumo: 2,000 all, each + 1,000 bonus = 3,000, halved 1,500 → 2,000
    p = explained_score({**hand, "seat": "E", "honba": 0, "tsumo": True})["explain"]["points"]
    assert p["call"] == {
        "how": "tsumo",
        "winner": "dealer",
        "amounts": [2000],
        "halved": True,
        "before_halving": [2000],
    }
    assert [(r["before_halving"], r["amount"]) for r in p["payments"]] == [(3000, 2000)] * 2
    # another role's call says nothing of halving
    assert "halved" not in explained_score({**hand, "role": "tenshi"})["explain"]["points"]["call"]


def test_rule_a8_aka5man_doubling_shown_apart() -> None:
    e = explain(
        hand="234p567p2s",
        melds=["pon:777z", "pon:666z"],
        win="2s",
        seat="S",
        kita=1,
        kita_aka=1,
        rules={"aka_5man": True},
    )
    (ron,) = e["points"]["payments"]
    assert ron["factor"] == 2 and ron["amount"] == 2 * ron["rounded"]


def test_yakuhai_names_the_tile_and_why_double_wind_once_for_2_han() -> None:
    e = explain(hand="234p456p789s11z99s", win="1z", seat="E", round="E", riichi="riichi")
    assert e["yakuhai"] == [{"tile": "1z", "han": 2, "as": ["seat", "round"]}]
    e = explain(hand="234p456p789s77z99s", win="7z", riichi="riichi")
    assert e["yakuhai"] == [{"tile": "7z", "han": 1, "as": ["dragon"]}]


def test_split_into_sets_with_the_wait_and_red_fives_in_place() -> None:
    e = explain(hand="340p67p789s11z", melds=["pon:777z"], win="5p", seat="S", dora=["6z"])
    assert e["form"] == "standard"
    assert [s["type"] for s in e["sets"]] == ["pair", "run", "run", "run", "triplet"]
    assert e["sets"][1] == {
        "type": "run",
        "tiles": ["3p", "4p", "5p"],
        "concealed": True,
        "called": False,
        "win_at": 2,
    }
    assert e["sets"][2]["tiles"] == ["0p", "6p", "7p"]  # the red five where it lies
    assert e["sets"][4]["called"] and e["sets"][4]["meld"] == "pon"
    assert e["wait"] == {"shape": "ryanmen", "tile": "5p", "waits": ["2p", "5p", "8p"]}


def test_shanpon_ron_triplet_is_shown_open_and_kanchan_named() -> None:
    e = explain(hand="234p456p789s11z22z", win="2z", seat="S", riichi="riichi")
    assert e["wait"]["shape"] == "shanpon"
    (trip,) = [s for s in e["sets"] if s["type"] == "triplet"]
    assert trip["concealed"] is False and trip["win_at"] == 0
    e = explain(hand="24p456p789s11z222z", win="3p", riichi="riichi")
    assert e["wait"]["shape"] == "kanchan"


def test_chiitoitsu_split_into_seven_pairs() -> None:
    e = explain(hand="1133p5577s99p112z", win="2z", riichi="riichi")
    assert e["form"] == "chiitoitsu" and len(e["sets"]) == 7
    assert all(s["type"] == "pair" for s in e["sets"])
    assert [s["win_at"] is not None for s in e["sets"]].count(True) == 1


def test_rule_18_chombo_names_the_reason_and_the_failing_waits() -> None:
    # yakuhai only (1 han from yaku) on an open hand: every wait short of 2 han
    e = explain(hand="340p67p789s11z", melds=["pon:777z"], win="5p", seat="S")
    assert e["points"] is None
    assert e["chombo"] == {
        "reason": "insufficient_yaku",
        "required": 2,
        "failing_waits": [
            {"tile": "2p", "yaku_han": 1},
            {"tile": "5p", "yaku_han": 1},
            {"tile": "8p", "yaku_han": 1},
        ],
    }


def test_furiten_chombo_names_the_discarded_wait() -> None:
    e = explain(hand="23p456p789s123s99p", win="1p", riichi="riichi", discards="4p", dora=[])
    assert e["chombo"]["reason"] == "furiten"
    assert e["chombo"]["failing_waits"] == [{"tile": "4p", "yaku_han": None}]


def test_no_win_shape_has_no_sets() -> None:
    e = explain(hand="234p456p789s11z23z", win="2z")
    assert e["sets"] == [] and e["chombo"]["reason"] == "no_win_shape"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 6))
def test_property_sets_hold_the_hand_and_payments_add_up(seed: int, honba: int) -> None:
    hand = {**random_winning_hand(random.Random(seed)), "honba": honba}
    result = explained_score(hand)  # asserts each explained payment equals the engine's
    e = result["explain"]
    if e["form"] is None:
        return
    held = Counter(_tiles(hand["hand"]) + [hand["win"]])
    for m in hand["melds"]:
        held.update(_tiles(m.split(":")[1]))
    shown = Counter(t for s in e["sets"] for t in s["tiles"])
    assert shown == held
    assert sum(1 for s in e["sets"] if s["win_at"] is not None) == 1
    if result["valid"]:
        assert (
            sum(p["amount"] for p in e["points"]["payments"]) + result["deposits"]
            == (result["total"])
        )
