"""Readings the engine takes where the seed text (shared/seeds/000) does not settle a case;
each docstring says what the text says and why the engine reads it so. Changing one of these
is a rule decision, not a bug fix."""

from __future__ import annotations

from sanma_lens.engine.service import score_json, tenpai_json


def _yaku(result: dict) -> dict[str, int]:
    return {y["id"]: y["han"] for y in result["yaku"]}


def test_rule_36_38_manzu_honitsu_chiitoitsu_is_19_han_without_shousharin() -> None:
    """§36: 小車輪 (6 han) is "the composite of 混一色 and 七対子"; §38: "a 混一色 using manzu
    is a 15-han yaku". The seed does not say how the two meet in a manzu honitsu chiitoitsu.

    docs/rules.md lists manzu_honitsu as "replaces honitsu" and shousharin as "honitsu +
    chiitoitsu, replaces both", and "a yaku never adds to its own stronger form". The engine
    applies the stronger form first: honitsu is replaced by manzu_honitsu, so no honitsu is
    left to make the composite, and chiitoitsu counts on its own. Only 1m and 9m exist in
    manzu, so such a hand is always honroutou too: 15 + 2 + 2 = 19 han, a single yakuman
    (§33: 15-19). The other reading, shousharin (6) beside manzu_honitsu (15), would count
    the honitsu twice (23 han, a double yakuman); the seed gives no text for that."""
    result = score_json({"hand": "1m1m9m9m1z1z2z2z3z3z5z5z6z", "win": "6z"})
    assert result["valid"] and result["han"] == 19 and result["limit"] == "yakuman"
    assert _yaku(result) == {"manzu_honitsu": 15, "chiitoitsu": 2, "honroutou": 2}
    assert result["yakuman_multiple"] == 1
    # the same shape in pinzu is the composite: shousharin replaces honitsu and chiitoitsu
    pinzu = score_json({"hand": "1p1p9p9p1z1z2z2z3z3z5z5z6z", "win": "6z"})
    assert _yaku(pinzu) == {"shousharin": 6, "honroutou": 2}


# riichi + chun: 2 han from yaku; 46p waits on 5p (kanchan)
AKA = {"hand": "46p123s777z11z", "riichi": "riichi", "rules": {"aka_5man": True}}


def test_rule_a6_aka5man_cannot_complete_a_5p_wait_when_all_four_5p_are_the_winners() -> None:
    """§A6: a discarded aka-5-man is a 5p (or 5s, or north) for "a player in tenpai with 5p or
    5s as a winning tile"; for everyone else it is a north. The seed does not say whether a
    shape that waits on 5p while the player holds all four 5p (here in an ankan) is "in tenpai
    with 5p as a winning tile".

    docs/rules.md (§18) counts as waits only "winning tile kinds that physically exist in the game
    and are not used up by the player's own tiles", and at a draw "a wait whose tiles are all
    in the player's own hand/melds/kita does not count" [interp]. The engine reads §A6 through
    that: 5p is no wait of this hand, so the aka-5-man stays a north for the player and cannot
    be taken as 5p. The claimed ron is a false win (valid false, chombo payments): as a north
    the tile makes no winning shape, so the reason is no_win_shape. The same
    shape with the four 5s in the ankan instead waits on 5p and may take it (+2 han, §A6.1)."""
    held = {**AKA, "melds": ["ankan:5555p"]}
    assert tenpai_json(held)["waits"] == []
    ron = score_json({**held, "win": "0m", "aka5man_as": "5p"})
    assert not ron["valid"] and ron["reason"] == "no_win_shape"
    assert ron["guarantee"]["waits"] == []
    assert all(p["amount"] < 0 for p in ron["payments"])  # chombo, paid by the claimant

    free = {**AKA, "melds": ["ankan:5555s"]}
    assert [w["tile"] for w in tenpai_json(free)["waits"]] == ["5p"]
    ron = score_json({**free, "win": "0m", "aka5man_as": "5p"})
    assert ron["valid"] and ron["dora"]["aka5man_bonus"] == 2
