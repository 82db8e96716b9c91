"""Invariants of ability mahjong games over random hands (hypothesis): every point on the table
is accounted for, amounts stay on the 1,000 grid, the fold replays, the settlement sums to
zero — with every role at the table, two of a kind included."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from sanma_lens.engine.game import (
    GameRules,
    GameState,
    HandResult,
    Outcome,
    apply,
    game_rules_from_json,
    new_game,
    replay,
    result_from_json,
    result_to_json,
    settle,
)
from sanma_lens.engine.game.ability import byakko_must_declare
from sanma_lens.engine.roles import ROLE_NAMES
from tests.game.test_game_properties import hand_results

roles = st.lists(st.sampled_from(ROLE_NAMES), min_size=3, max_size=3)


def with_roles(draw: st.DrawFn, state: GameState, result: HandResult) -> HandResult:
    """The random result with the byakko's declarations (those that must, and some more) and
    each seiryuu winner's role han."""
    byakko = [p for p in range(3) if state.rules.roles[p] == "byakko"]
    must = byakko_must_declare(state)
    declared = tuple(p for p in byakko if p in must or draw(st.booleans()))
    wins = tuple(
        replace(w, seiryuu_han=draw(st.integers(0, 2)))
        if state.rules.roles[w.winner] == "seiryuu"
        else w
        for w in result.wins
    )
    return replace(result, byakko_declared=declared, wins=wins)


@st.composite
def ability_games(draw: st.DrawFn) -> tuple[GameRules, list[HandResult], list[GameState]]:
    rules = game_rules_from_json(
        {
            "ability": True,
            "roles": draw(roles),
            "aka_5man": draw(st.booleans()),
            "kouryuu_before_byakko": draw(st.booleans()),
            "kouryuu_bust_prize": draw(st.booleans()),
            "seiryuu_deposit_below_zero": draw(st.booleans()),
        }
    )
    state = new_game(None, rules)
    mild = draw(st.booleans())
    events: list[HandResult] = []
    states = [state]
    for _ in range(draw(st.integers(0, 20))):
        if state.finished:
            break
        event = with_roles(draw, state, hand_results(draw, state, mild))
        if any(state.scores[p] < 5000 for p in event.riichi):  # a seiryuu deposit comes first
            event = replace(event, riichi=(), noten_riichi=())
        state = apply(state, event)
        events.append(event)
        states.append(state)
    return rules, events, states


@settings(max_examples=150, deadline=None)
@given(ability_games())
def test_ability_property_points_plus_deposits_are_the_starts(game):
    rules, _, states = game
    for state in states:
        assert (
            sum(state.scores) + state.deposits == rules.total_points == sum(rules.starting_scores)
        )


@settings(max_examples=150, deadline=None)
@given(ability_games())
def test_ability_property_every_transfer_on_the_1000_grid_and_explained(game):
    _, _, states = game
    for before, after in zip(states, states[1:], strict=False):
        record = after.log[-1]
        net = list(before.scores)
        for t in record.transfers:
            assert t.amount > 0 and t.amount % 1000 == 0
            if t.payer is not None:
                net[t.payer] -= t.amount
            if t.receiver is not None:
                net[t.receiver] += t.amount
        assert tuple(net) == after.scores == record.scores_after
        if record.result.outcome is Outcome.CHOMBO or record.result.noten_riichi:
            reasons = {t.reason for t in record.transfers}
            assert reasons <= {"chombo", "deposits_to_top"}


@settings(max_examples=100, deadline=None)
@given(ability_games())
def test_ability_property_replay_through_stored_json(game):
    rules, events, states = game
    stored = [result_from_json(result_to_json(e)) for e in events]
    assert stored == events
    assert replay(stored, None, rules) == states[-1]


@settings(max_examples=150, deadline=None)
@given(ability_games())
def test_ability_property_final_settlement_sums_to_zero(game):
    _, _, states = game
    if states[-1].finished:
        assert sum(p.total for p in settle(states[-1])) == 0
