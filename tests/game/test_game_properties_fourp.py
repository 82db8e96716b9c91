"""Invariants of four-player games (ecip, standard) over random hands (hypothesis): points
only move, through recorded transfers; replaying the stored events gives the same table; the
final points sum to zero; any JSON hand result is an event or an InputError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GameRules,
    GameState,
    HandResult,
    Nagashi,
    Outcome,
    Payment,
    Win,
    apply,
    new_game,
    replay,
    resolve_hand,
    result_from_json,
    result_to_json,
    settle,
)
from sanma_lens.engine.game.presets import ECIP_GAME, STANDARD_GAME

PLAYER = st.integers(0, 3)
AMOUNT = st.integers(1, 120).map(lambda k: k * 100)


def hand_result(draw: st.DrawFn, state: GameState) -> HandResult:
    """One random hand result legal at this four-player table."""
    rules = state.rules
    outcomes = [Outcome.RON, Outcome.RON, Outcome.TSUMO, Outcome.DRAW, Outcome.CHOMBO]
    if rules.abortive_draws:
        outcomes.append(Outcome.ABORTIVE)
    outcome = draw(st.sampled_from(outcomes))
    riichi = tuple(p for p in range(4) if state.scores[p] >= 1000 and draw(st.booleans()))
    on_table = state.deposits or riichi
    if outcome is Outcome.RON:
        discarder = draw(PLAYER)
        others = [p for p in range(4) if p != discarder]
        n = draw(st.integers(1, rules.max_ron_winners))
        winners = draw(st.permutations(others))[:n]
        wins = tuple(
            Win(w, (Payment(discarder, draw(AMOUNT)),), closed=draw(st.booleans())) for w in winners
        )
        return HandResult(outcome, wins=wins, discarder=discarder, riichi=riichi)
    if outcome is Outcome.TSUMO:
        winner = draw(PLAYER)
        pays = tuple(Payment(p, draw(AMOUNT)) for p in range(4) if p != winner)
        multiple = draw(st.integers(0, 1))
        pao = None
        if rules.pao and multiple and draw(st.booleans()):
            pao = draw(st.sampled_from([p for p in range(4) if p != winner]))
        closed = draw(st.booleans()) if on_table else None
        win = Win(winner, pays, yakuman_multiple=multiple, closed=closed, pao=pao)
        return HandResult(outcome, wins=(win,), riichi=riichi)
    if outcome is Outcome.DRAW:
        tenpai = tuple(p for p in range(4) if draw(st.booleans()))
        nagashi: tuple[Nagashi, ...] = ()
        if rules.nagashi != "none" and draw(st.integers(0, 6)) == 0:
            nagashi = (Nagashi(draw(PLAYER)),)
        return HandResult(outcome, tenpai=tenpai, nagashi=nagashi, riichi=riichi)
    if outcome is Outcome.ABORTIVE:
        return HandResult(outcome, riichi=riichi)
    return HandResult(outcome, offenders=(draw(PLAYER),), riichi=riichi)


@st.composite
def games(draw: st.DrawFn) -> tuple[GameRules, list[HandResult], list[GameState]]:
    rules = draw(st.sampled_from([ECIP_GAME, STANDARD_GAME]))
    state = new_game(None, rules)
    events: list[HandResult] = []
    states = [state]
    for _ in range(draw(st.integers(0, 30))):
        if state.finished:
            break
        event = hand_result(draw, state)
        state = apply(state, event)
        events.append(event)
        states.append(state)
    return rules, events, states


@settings(max_examples=120, deadline=None)
@given(games())
def test_fourp_points_only_move_through_recorded_transfers(game):
    rules, _, states = game
    for before, after in zip(states, states[1:], strict=False):
        assert sum(after.scores) + after.deposits == rules.total_points
        net = list(before.scores)
        for t in after.log[-1].transfers:
            assert t.amount > 0
            if t.payer is not None:
                net[t.payer] -= t.amount
            if t.receiver is not None:
                net[t.receiver] += t.amount
        assert tuple(net) == after.scores


@settings(max_examples=120, deadline=None)
@given(games())
def test_fourp_replaying_the_stored_events_gives_the_same_table(game):
    rules, events, states = game
    stored = [result_from_json(result_to_json(e)) for e in events]
    assert stored == events
    assert replay(stored, None, rules) == states[-1]


@settings(max_examples=120, deadline=None)
@given(games())
def test_fourp_final_points_sum_to_zero(game):
    _, _, states = game
    if states[-1].finished:
        final = settle(states[-1])
        assert sum(p.total for p in final) == 0
        assert sorted(p.rank for p in final) == [1, 2, 3, 4]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.sampled_from(["ron", "tsumo", "draw", "chombo", "abortive", "mangan", "yakuman"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "outcome",
                    "discarder",
                    "wins",
                    "winner",
                    "han",
                    "fu",
                    "limit",
                    "closed",
                    "pao",
                    "tenpai",
                    "riichi",
                    "offenders",
                    "nagashi",
                    "player",
                    "noten_riichi",
                    "yakuman_multiple",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from([ECIP_GAME, STANDARD_GAME]))
def test_fourp_any_json_hand_result_is_an_event_or_an_input_error(obj, rules):
    state = new_game(None, rules)
    try:
        result = resolve_hand(state, obj)
        after = apply(state, result)
    except InputError:
        return
    assert sum(after.scores) + after.deposits == rules.total_points
    assert result_from_json(result_to_json(result)) == result
