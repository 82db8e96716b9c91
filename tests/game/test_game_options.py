"""A game's rule options as JSON (engine.game.options): every GameRules option and the engine's
hand rules can be set, are checked, survive storage, and change the amounts the game settles."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GAME_OPTION_TYPES,
    GameRules,
    apply,
    game_rules_from_json,
    game_rules_to_json,
    new_game,
    resolve_hand,
    settle,
)
from sanma_lens.engine.game.state import ABILITY_OPTIONS
from tests.game.helpers import draw

CUSTOM = {
    "aka_5man": True,
    "start_points": 35_000,
    "return_points": 45_000,
    "uma": 20,
    "bust_prize": 5,
    "double_bust_bonus": 0,
    "yakuman_prize_tsumo": 5,
    "yakuman_prize_ron": 10,
    "double_ron_honba": "first",
    "riichi_min_points": 2_000,
    "noten_payment": 2_000,
    "rank_ties": "split",
    "aka5man_doubles_prizes": True,
    "preset": "sanma-1.3",
    "point_unit": 1_000,
    "uma_second": 0,
    "noten_pool": False,
    "bust_ends_game": False,
    "rounds_played": 1,
    "extension_target": 40_000,
    "south_draw_keeps_dealer": False,
    "max_ron_winners": 1,
    "deposits_need_closed_win": True,
    "last_hand_deposits": "winners",
    "pao": True,
    "chombo_rewinds": False,
    "abortive_draws": True,
    "nagashi": "mangan",
    "noten_riichi_is_chombo": False,
    "manemann": False,
    "settle_rounding": "exact",
    "hand_rules": {"kiriage_mangan": True, "riichi_deposit": 2_000},
}


def test_every_game_rules_field_is_a_json_option():
    # a field added to GameRules without a JSON name would be unreachable from the API (the
    # roles and a block's byakko counts have their own keys, test_ability_api, test_blocks)
    names = {f.name for f in fields(GameRules)} - {"hand_options", "roles", "byakko_silent_before"}
    assert set(GAME_OPTION_TYPES) == names
    # ability mahjong's options: tests/game/test_ability_api.py
    assert set(CUSTOM) == names - set(ABILITY_OPTIONS) | {"hand_rules"}


def test_options_round_trip_through_json():
    rules = game_rules_from_json(CUSTOM)
    assert rules.uma == 20 and rules.rank_ties == "split" and rules.start_points == 35_000
    assert rules.hand_rules.kiriage_mangan and rules.hand_rules.riichi_deposit == 2_000
    assert rules.hand_rules.aka_5man  # the game's aka-5-man option reaches the engine
    assert game_rules_to_json(rules) == CUSTOM
    assert game_rules_from_json(game_rules_to_json(rules)) == rules


def test_defaults_and_old_stored_rules_keep_todays_defaults():
    assert game_rules_from_json(None) == game_rules_from_json({}) == GameRules()
    # a game stored before the other options existed held only these two
    old = game_rules_from_json({"aka_5man": True, "double_ron_honba": "first"})
    assert old == GameRules(aka_5man=True, double_ron_honba="first")
    assert (old.uma, old.noten_payment, old.rank_ties, old.hand_options) == (10, 1000, "seat", ())
    assert game_rules_to_json(GameRules())["hand_rules"] == {}


def test_hand_options_are_kept_in_one_order():
    a = GameRules(hand_options=(("riichi_deposit", 1000), ("kiriage_mangan", True)))
    b = GameRules(hand_options=(("kiriage_mangan", True), ("riichi_deposit", 1000)))
    assert a == b and a.hand_options[0][0] == "kiriage_mangan"


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        ([], "bad_rules"),
        ({"kiriage_mangan": True}, "unknown_rule_option"),  # engine options go in hand_rules
        ({"uma": "20"}, "bad_rule_option"),
        ({"uma": True}, "bad_rule_option"),
        ({"uma": 20.0}, "bad_rule_option"),
        ({"aka_5man": 1}, "bad_rule_option"),
        ({"rank_ties": 1}, "bad_rule_option"),
        ({"rank_ties": "share"}, "bad_rules"),
        ({"rank_ties": "split", "uma": 15}, "bad_rules"),
        ({"rank_ties": "split", "return_points": 35_000, "start_points": 30_000}, "bad_rules"),
        ({"uma": -10}, "bad_rules"),
        ({"bust_prize": -1}, "bad_rules"),
        ({"double_bust_bonus": 5}, "bad_rules"),
        ({"yakuman_prize_ron": -20}, "bad_rules"),
        ({"start_points": 25_500}, "bad_rules"),
        ({"start_points": 50_000}, "bad_rules"),  # above the return points
        ({"noten_payment": 1_500}, "bad_rules"),
        ({"riichi_min_points": 500}, "bad_rules"),  # below the 1,000 deposit
        ({"hand_rules": {"riichi_deposit": 2_000}}, "bad_rules"),  # riichi could bust
        ({"hand_rules": []}, "bad_rules"),
        ({"hand_rules": {"kiriage": True}}, "unknown_rule_option"),
        ({"hand_rules": {"riichi_deposit": "1000"}}, "bad_rule_option"),
        ({"hand_rules": {"kiriage_mangan": [1]}}, "bad_rule_option"),
        ({"hand_rules": {"preset": "riichi-4p"}}, "bad_rules"),
        ({"hand_rules": {"preset": ["sanma-1.3"]}}, "bad_rules"),
        ({"hand_rules": {"aka_5man": True}}, "bad_rules"),  # set at the top level
        ({"hand_rules": {"rounding_unit": 100}}, "bad_rules"),
        ({"hand_rules": {"honba_ron": 300}}, "bad_rules"),
        ({"hand_rules": {"aka5man_doubles_deposits": True}}, "bad_rules"),
        ({"hand_rules": {"aka5man_payment_multiplier": 0}}, "bad_rules"),
    ],
)
def test_wrong_or_inconsistent_options_are_refused(obj, code):
    with pytest.raises(InputError) as err:
        game_rules_from_json(obj)
    assert err.value.code == code, err.value.message


def test_preset_sanma_may_be_named():
    rules = game_rules_from_json({"hand_rules": {"preset": "sanma-1.3"}})
    assert rules.hand_rules.preset == "sanma-1.3"


def _resolved(state, body):
    return apply(state, resolve_hand(state, body))


def test_hand_rules_change_the_limit_of_han_fu_wins():
    # kiriage mangan [interp]: 4 han 30 fu is recorded as a mangan (amounts rounded to 1,000
    # are the same either way: 7,680 → 8,000)
    plain = new_game(None, GameRules())
    kiriage = new_game(None, game_rules_from_json({"hand_rules": {"kiriage_mangan": True}}))
    body = {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "han": 4, "fu": 30}]}
    assert resolve_hand(plain, body).wins[0].limit is None
    assert resolve_hand(kiriage, body).wins[0].limit == "mangan"


def test_hand_rules_change_riichi_deposit_honba_and_aka_doubling():
    rules = game_rules_from_json(
        {
            "riichi_min_points": 2_000,
            "aka_5man": True,
            "hand_rules": {"riichi_deposit": 2_000, "honba_ron": 2_000},
        }
    )
    state = apply(new_game(None, rules), draw(0, riichi=(0,)))
    # riichi puts up 2,000; the no-ten payments are 1,000 each to the tenpai dealer
    assert (state.scores, state.deposits, state.honba) == ((30_000, 29_000, 29_000), 2_000, 1)
    state = _resolved(
        state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "han": 1, "fu": 30}]}
    )
    # 1 han 30 fu child ron 960 → 1,000, + 1 honba at 2,000, + the 2,000 deposit
    assert state.log[-1].transfers[0].amount == 3_000
    assert state.scores == (30_000, 34_000, 26_000)
    tripled = replace(
        state,
        rules=game_rules_from_json(
            {"aka_5man": True, "hand_rules": {"aka5man_payment_multiplier": 3}}
        ),
    )
    body = {
        "outcome": "ron",
        "discarder": 0,
        "aka5man": 2,
        "wins": [{"winner": 2, "limit": "mangan"}],
    }
    after = _resolved(tripled, body)
    assert after.log[-1].transfers[0].amount == 3 * (8_000 + 1_000 * state.honba)


def test_game_options_change_the_settlement():
    rules = game_rules_from_json({"uma": 20, "start_points": 35_000, "return_points": 40_000})
    state = replace(new_game(None, rules), scores=(60_000, 30_000, 15_000), finished=True)
    # oka = 3 × 5 = 15 to first, uma ±20
    assert [(p.base, p.oka, p.uma, p.total) for p in settle(state)] == [
        (20, 15, 20, 55),
        (-10, 0, 0, -10),
        (-25, 0, -20, -45),
    ]


def test_hand_json_is_scored_under_the_games_hand_rules():
    pytest.importorskip("sanma_lens.engine.service")
    hand = {"hand": "234p456p789s1122z", "win": "2z", "riichi": "riichi"}
    body = {"outcome": "tsumo", "wins": [{"winner": 1, "hand": hand}]}
    plain = _resolved(new_game(None, GameRules()), body)
    # 3 han 40 fu child tsumo: 2,000 + 1,000 bonus from the child, 3,000 + 1,000 from the dealer
    # (the winner's riichi stick comes back as the deposit)
    assert plain.scores == (26_000, 37_000, 27_000)
    no_bonus = GameRules(hand_options=(("tsumo_bonus_per_payer", 0),))
    assert _resolved(new_game(None, no_bonus), body).scores == (27_000, 35_000, 28_000)


def test_a_hand_cannot_change_the_games_rules():
    pytest.importorskip("sanma_lens.engine.service")
    state = new_game(None, game_rules_from_json({"hand_rules": {"kiriage_mangan": True}}))
    hand = {"hand": "234p456p789s1122z", "win": "2z", "riichi": "riichi"}

    def win(rules):
        return {"outcome": "tsumo", "wins": [{"winner": 1, "hand": {**hand, "rules": rules}}]}

    # restating the game's rules is fine; changing one is refused
    assert resolve_hand(state, win({"kiriage_mangan": True, "preset": "sanma-1.3"})).wins
    for rules, code in [
        ({"kiriage_mangan": False}, "rules_mismatch"),
        ({"aka_5man": True}, "rules_mismatch"),
        ({"tsumo_bonus_per_payer": 0}, "rules_mismatch"),
        ({"preset": "riichi-4p"}, "bad_rules"),
        ({"kiriage": True}, "unknown_rule_option"),
    ]:
        with pytest.raises(InputError) as err:
            resolve_hand(state, win(rules))
        assert err.value.code == code, rules
