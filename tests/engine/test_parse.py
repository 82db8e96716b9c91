"""Input validation (docs/rules.md Tiles, §1, §3, §A1–A2; docs/api.md Hand JSON): refuse, never
score."""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.service import score_json, tenpai_json

OK = {"hand": "23p567p345s678s55p", "win": "4p", "riichi": "riichi"}


def refused(obj: Any, code: str) -> None:
    with pytest.raises(InputError) as info:
        score_json(obj)
    assert info.value.code == code, info.value.message
    assert info.value.to_json()["error"]["message"]


def test_valid_hand_scores() -> None:
    assert score_json(OK)["valid"]


@pytest.mark.parametrize("tile", ["2m", "5m", "8m"])
def test_rule_1_2m_to_8m_are_not_tiles(tile: str) -> None:
    refused({**OK, "win": tile}, "invalid_tile")


def test_rule_1_fifth_tile_of_a_kind() -> None:
    refused({"hand": "5555p567p345s678s", "win": "5p"}, "fifth_tile")


def test_rule_1_red_five_counts_as_a_five() -> None:
    refused({"hand": "5550p567p345s678s", "win": "5p"}, "fifth_tile")


def test_rule_1_aka5man_counts_as_north() -> None:
    obj = {"hand": "444z0m567p345s555s", "win": "4z", "rules": {"aka_5man": True}}
    refused(obj, "fifth_tile")


def test_rule_1_kita_and_indicators_count_physically() -> None:
    refused({**OK, "hand": "444z567p345s55s99p", "win": "6s", "kita": 2}, "fifth_tile")
    refused({**OK, "dora": ["4p", "4p", "4p", "4p"]}, "fifth_tile")


def test_rule_3_one_red_5p_in_the_base_rule() -> None:
    refused({"hand": "00p567p345s678s11z", "win": "1z"}, "too_many_red")


def test_rule_a2_four_red_fives_under_aka_5man() -> None:
    obj = {
        "hand": "0000p678p345s678s",
        "win": "9s",
        "riichi": "riichi",
        "rules": {"aka_5man": True},
    }
    r = score_json(obj)
    assert r["dora"]["aka"] == 5  # every 5p and 5s is red under the option


def test_rule_a1_0m_needs_the_option() -> None:
    refused({**OK, "hand": "23p567p345s678s0m", "win": "0m"}, "invalid_tile")


def test_rule_a1_only_one_aka5man() -> None:
    obj = {
        **OK,
        "hand": "23p567p345s678s4z0m",
        "win": "0m",
        "riichi": "none",
        "rules": {"aka_5man": True},
    }
    refused(obj, "too_many_red")


def test_tile_count_must_be_13_with_melds_as_3() -> None:
    refused({**OK, "hand": "23p567p345s678s5p"}, "tile_count")
    refused({**OK, "melds": ["pon:777z"]}, "tile_count")


def test_unknown_field_refused() -> None:
    refused({**OK, "handd": "x"}, "unknown_field")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tsumo", "yes"),
        ("honba", -1),
        ("honba", 1.5),
        ("kita", True),
        ("hand", 123),
        ("melds", "pon:777z"),
        ("dora", 3),
    ],
)
def test_wrong_types_refused(field: str, value: Any) -> None:
    refused({**OK, field: value}, "bad_type")


@pytest.mark.parametrize(
    ("field", "value"),
    [("riichi", "maybe"), ("seat", "N"), ("round", "W"), ("aka5man_as", "5m"), ("ron_on", "x")],
)
def test_bad_enum_values_refused(field: str, value: Any) -> None:
    refused({**OK, field: value}, "bad_value")


def test_bad_tile_strings() -> None:
    refused({**OK, "hand": "23p567p345s678s55q"}, "bad_tiles")
    refused({**OK, "hand": "23p567p345s678s558"}, "bad_tiles")
    refused({**OK, "win": "8z"}, "unknown_tile")
    refused({**OK, "win": "4p5p"}, "bad_tiles")


def test_rule_19_no_chi_in_sanma() -> None:
    refused({**OK, "hand": "567p345s678s55p", "melds": ["chi:234p"]}, "chi_not_allowed")


def test_bad_melds() -> None:
    refused({"hand": "567p345s678s5p", "win": "5p", "melds": ["pon:776z"]}, "bad_meld")
    refused({"hand": "567p345s678s5p", "win": "5p", "melds": ["ankan:777z"]}, "bad_meld")
    refused({"hand": "567p345s678s5p", "win": "5p", "melds": ["tsumo:777z"]}, "bad_meld")


def test_rules_field_checked() -> None:
    refused({**OK, "rules": {"preset": "nope"}}, "unknown_preset")
    refused({**OK, "rules": {"kiriage": True}}, "unknown_rule_option")
    refused({**OK, "rules": {"aka_5man": 1}}, "bad_rule_option")
    refused({**OK, "rules": "sanma"}, "bad_rules")


def test_inconsistent_situations_refused() -> None:
    refused({**OK, "ippatsu": True, "riichi": "none"}, "inconsistent_situation")
    refused({**OK, "haitei": True}, "inconsistent_situation")
    refused({**OK, "tsumo": True, "houtei": True}, "inconsistent_situation")
    refused({**OK, "tenhou": True, "tsumo": True, "riichi": "none"}, "inconsistent_situation")
    refused(
        {"hand": "567p345s678s5p", "win": "5p", "melds": ["pon:777z"], "riichi": "riichi"},
        "inconsistent_situation",
    )


def test_contract_ura_without_riichi_is_evaluated_and_counts_0() -> None:
    """docs/api.md: exit 0 for any hand that could be evaluated. Ura indicators given for a hand
    without riichi are no contradiction (RULES: ura dora with riichi): they count 0. They were
    refused as inconsistent_situation (exit 2, a 422)."""
    with_ura = {**OK, "riichi": "none", "tsumo": True, "ura": ["1p"], "dora": ["9s"]}
    without = {k: v for k, v in with_ura.items() if k != "ura"}
    assert score_json(with_ura) == score_json(without)
    assert score_json(with_ura)["dora"]["ura"] == 0
    assert score_json({**with_ura, "riichi": "riichi"})["dora"]["ura"] == 1  # 1p -> 2p
    assert tenpai_json({"hand": OK["hand"], "ura": ["1p"]}) == tenpai_json({"hand": OK["hand"]})
    refused({**with_ura, "ura": ["5p", "5p"]}, "fifth_tile")  # still physical tiles (3 in hand)


def test_kita_checks() -> None:
    refused({**OK, "kita": 5}, "fifth_tile")
    refused({**OK, "kita": 1, "kita_aka": 1}, "too_many_red")
    refused({**OK, "kita": 0, "kita_aka": 1, "rules": {"aka_5man": True}}, "bad_value")


def test_not_an_object() -> None:
    refused([1, 2], "bad_type")
    refused({"win": "1p"}, "missing_field")
    refused({"hand": "23p567p345s678s55p"}, "missing_field")


def test_tenpai_refuses_a_winning_tile() -> None:
    with pytest.raises(InputError) as info:
        tenpai_json({"hand": "23p567p345s678s55p", "win": "4p"})
    assert info.value.code == "unexpected_win"


def test_no_hand_with_a_fifth_tile_is_scored_with_melds() -> None:
    refused({"hand": "1p567p345s678s", "win": "1p", "melds": ["ankan:1111p"]}, "fifth_tile")


@pytest.mark.parametrize("flag", ["tsumo", "ippatsu", "chankan", "discarder_riichi"])
@pytest.mark.parametrize("value", [1, 0, "true", [], 1.0])
def test_situation_flags_must_be_booleans(flag: str, value: Any) -> None:
    """The flags are read all at once; a non-boolean (1 and 0 included, which equal True
    and False) is refused, naming the field."""
    with pytest.raises(InputError) as info:
        score_json({**OK, flag: value})
    assert info.value.code == "bad_type"
    assert info.value.message == f"{flag} must be true or false"


def test_situation_flag_null_is_false() -> None:
    nulls = {**OK, "tsumo": None, "ippatsu": None, "haitei": None, "renhou": None}
    assert score_json(nulls) == score_json(OK)


def test_tile_strings_read_again_give_the_same_tiles_and_errors() -> None:
    """Short strings are kept once read (a bad one is refused every time, never kept):
    reading any string a second time gives the first answer (tiles, or the same error), and
    so does an equal rule set met for the first time (its own, empty tables)."""
    import random
    from dataclasses import replace

    from sanma_lens.engine.parse import parse_tiles
    from sanma_lens.engine.rules import rules_from_json

    rng = random.Random(7)
    rules = rules_from_json({"aka_5man": True})
    alphabet = "0123456789mpsz z x"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        answers = []
        for rule_set in (rules, rules, replace(rules)):
            try:
                answers.append([t.text() for t in parse_tiles(text, rule_set, "hand")])
            except InputError as e:
                answers.append([e.code, e.message])
        assert answers[0] == answers[1] == answers[2], text
    assert [t.text() for t in parse_tiles("1 9m 0m0p5p", rules, "hand")] == [
        "1m", "9m", "0m", "0p", "5p",
    ]  # fmt: skip


def test_parsed_hand_is_the_frozen_value_its_constructor_makes() -> None:
    """parse_hand's HandInput and Parsed equal (and hash as) the values their constructors
    make from the same fields, and stay frozen: no field can be set or deleted after parse."""
    from sanma_lens.engine.parse import HAND_FIELDS, HandInput, Parsed, parse_hand

    obj = {"hand": "23p567p345s55p", "win": "4p", "melds": ["pon:777z"], "dora": ["1z"],
           "discards": "19s", "kita": 1}  # fmt: skip
    parsed = parse_hand(obj, need_win=True)
    hand = parsed.hand
    again = HandInput(**{f: getattr(hand, f) for f in HAND_FIELDS})
    assert hand == again and hash(hand) == hash(again)
    assert repr(hand) == repr(again) and repr(hand).startswith("HandInput(concealed=(")
    assert hand.melds[0].tile == 33 and hand.kita == 1 and hand.discards == (18, 26)
    assert parsed == Parsed(again, parsed.situation, parsed.rules)
    assert hash(parsed) == hash(Parsed(again, parsed.situation, parsed.rules))
    assert hand != parse_hand({**obj, "kita": 0}, need_win=True).hand
    with pytest.raises(AttributeError):
        hand.kita = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        parsed.hand = again  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del parsed.role
    assert hand.kita == 1 and parsed.hand is hand


def test_situation_refuses_assignment_so_the_yaku_cache_stays_true() -> None:
    """Situation is the yaku cache's key, its hash taken once: a field changed afterwards
    would leave the cache answering for the old situation. Every field refuses assignment
    and deletion (compiled: Final attributes; plain: engine.frozen.refuse_assignment)."""
    from sanma_lens.engine.parse import SITUATION_FIELDS, Situation, parse_hand

    obj = {"hand": "23p567p345s55p", "win": "4p", "melds": ["pon:777z"], "tsumo": True}
    sit = parse_hand(obj, need_win=True).situation
    before = (hash(sit), repr(sit))
    for field in (*SITUATION_FIELDS, "_values", "_hash"):
        with pytest.raises(AttributeError):
            setattr(sit, field, getattr(sit, field))
        with pytest.raises(AttributeError):
            delattr(sit, field)
    assert (hash(sit), repr(sit)) == before and sit == Situation(tsumo=True)
    assert sit.as_tsumo(False) == Situation(tsumo=False)


def test_situation_checked_alone_as_parse_hand_checks_it() -> None:
    """check_situation (photo/score's situation, before the tiles are known) refuses what
    parse_hand would refuse whatever the tiles, with the same code, and nothing else."""
    from sanma_lens.engine.parse import check_situation

    for bad, code in (
        ({"note": 1}, "unknown_field"),
        ({"seat": "N"}, "bad_value"),
        ({"round": "W"}, "bad_value"),
        ({"riichi": "maybe"}, "bad_value"),
        ({"tsumo": "yes"}, "bad_type"),
        ({"honba": -1}, "bad_type"),
        ({"dora": ["5m"]}, "invalid_tile"),
        ({"ura": "8z"}, "unknown_tile"),
        ({"aka5man_as": "5m"}, "bad_value"),
        ({"ron_on": "pon"}, "bad_value"),
        ({"rules": {"preset": "x"}}, "unknown_preset"),
    ):
        with pytest.raises(InputError) as info:
            check_situation(bad)
        assert info.value.code == code, bad
        refused({**OK, **bad}, code)
    check_situation({})
    check_situation({"hand": "not looked at", "kita": "nor this", "seat": "E", "dora": ["3p"]})
    check_situation({"ippatsu": True})  # contradicts riichi none: left to parse_hand


@pytest.mark.parametrize("digit", ["²", "³", "①", "⁵"])
def test_contract_digit_like_characters_are_bad_tiles_not_a_crash(digit: str) -> None:
    """str.isdigit() passes these but int() cannot read them: it was a ValueError (exit 1
    with a traceback, a 500 over HTTP) instead of exit 2 / 4xx with the error shape."""
    refused({**OK, "hand": f"{digit}3p567p345s678s55p"}, "bad_tiles")
    refused({**OK, "win": f"{digit}p"}, "bad_tiles")
    with pytest.raises(InputError):
        tenpai_json({"hand": f"2{digit}p567p345s678s55p"})


def test_full_width_digits_read_as_digits() -> None:
    assert score_json({**OK, "win": "４p"}) == score_json(OK)


@pytest.mark.parametrize("preset", [["sanma-1.3"], {"a": 1}, 13, None])
def test_contract_rules_preset_of_another_type_is_bad_input(preset: Any) -> None:
    """A list or object preset was a TypeError (unhashable) in rules_from_json: exit 1 in
    the CLI instead of exit 2 with the error shape."""
    refused({**OK, "rules": {"preset": preset}}, "bad_rules")
    with pytest.raises(InputError) as info:
        tenpai_json({"hand": OK["hand"], "rules": {"preset": preset, "aka_5man": True}})
    assert info.value.code == "bad_rules"


@pytest.mark.parametrize("melds", [{}, "", 0, False])
def test_melds_of_another_type_are_refused_even_when_empty(melds: Any) -> None:
    """`obj.get("melds") or []` read an empty object/string, 0 or false as no melds."""
    refused({**OK, "melds": melds}, "bad_type")
    assert score_json({**OK, "melds": None}) == score_json(OK)  # null is absent
