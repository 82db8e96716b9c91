"""Invariants of the game fold over random games (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sanma_lens.engine.game import (
    PLAYERS,
    GameRules,
    GameState,
    HandResult,
    Manemann,
    Nagashi,
    Outcome,
    Payment,
    Win,
    apply,
    new_game,
    others_in_settlement_order,
    replay,
    result_from_json,
    result_to_json,
    settle,
    turn_order_from,
)

MILD_AMOUNTS = st.integers(1, 3).map(lambda k: k * 1000)
AMOUNTS = st.one_of(st.integers(1, 8), st.integers(1, 8), st.integers(9, 40)).map(
    lambda k: k * 1000
)
OUTCOMES = [Outcome.RON, Outcome.RON, Outcome.TSUMO, Outcome.TSUMO, Outcome.DRAW, Outcome.CHOMBO]
players = st.integers(min_value=0, max_value=PLAYERS - 1)


def hand_results(draw: st.DrawFn, state: GameState, mild: bool) -> HandResult:
    """One random hand result that is legal at this table (``mild``: small amounts, no chombo,
    so that games also reach the end of S3 without a bust)."""
    outcome = draw(st.sampled_from(OUTCOMES[:-1] if mild else OUTCOMES))
    amounts = MILD_AMOUNTS if mild else AMOUNTS
    riichi = tuple(p for p in range(PLAYERS) if state.scores[p] >= 1000 and draw(st.booleans()))
    aka = draw(st.one_of(st.none(), players)) if state.rules.aka_5man and not mild else None
    order = turn_order_from(state.dealer, state.players)
    manemann: tuple[Manemann, ...] = ()
    if not mild and draw(st.integers(0, 9)) == 0:
        copier = draw(st.sampled_from(order[1:]))
        copied = draw(st.sampled_from(order[: order.index(copier)]))
        manemann = (Manemann(copier, copied, draw(st.integers(5, 16))),)
    mis_calls = tuple(draw(st.lists(players, max_size=2))) if not mild else ()
    common = {"riichi": riichi, "aka5man": aka, "manemann": manemann, "mis_calls": mis_calls}
    if outcome is Outcome.RON:
        discarder = draw(players)
        others = list(others_in_settlement_order(discarder, state.players))
        winners = draw(st.sampled_from([others[:1], others[1:], others]))
        wins = tuple(Win(w, (Payment(discarder, draw(amounts)),)) for w in winners)
        return HandResult(outcome, wins=wins, discarder=discarder, **common)
    if outcome is Outcome.TSUMO:
        winner = draw(players)
        pays = tuple(
            Payment(p, draw(amounts)) for p in others_in_settlement_order(winner, state.players)
        )
        multiple = draw(st.integers(0, 2))
        return HandResult(outcome, wins=(Win(winner, pays, yakuman_multiple=multiple),), **common)
    if outcome is Outcome.DRAW:
        tenpai = tuple(p for p in range(PLAYERS) if draw(st.booleans()))
        nagashi = tuple(
            Nagashi(p, draw(st.booleans()))
            for p in range(PLAYERS)
            if not mild and draw(st.integers(0, 7)) == 0
        )
        noten = tuple(p for p in riichi if p not in tenpai and draw(st.integers(0, 4)) == 0)
        return HandResult(outcome, tenpai=tenpai, nagashi=nagashi, noten_riichi=noten, **common)
    return HandResult(outcome, offenders=(draw(players),), **common)


@st.composite
def games(draw: st.DrawFn) -> tuple[GameRules, list[HandResult], list[GameState]]:
    rules = GameRules(aka_5man=draw(st.booleans()))
    state = new_game(None, rules)
    mild = draw(st.booleans())
    events: list[HandResult] = []
    states = [state]
    for _ in range(draw(st.integers(0, 24))):
        if state.finished:
            break
        event = hand_results(draw, state, mild)
        state = apply(state, event)
        events.append(event)
        states.append(state)
    return rules, events, states


@settings(max_examples=150, deadline=None)
@given(games())
def test_points_plus_deposits_always_sum_to_90000(game):
    _, _, states = game
    for state in states:
        assert sum(state.scores) + state.deposits == 90_000


@settings(max_examples=150, deadline=None)
@given(games())
def test_points_change_only_through_recorded_transfers(game):
    _, _, states = game
    for before, after in zip(states, states[1:], strict=False):
        record = after.log[-1]
        net = list(before.scores)
        for t in record.transfers:
            if t.payer is not None:
                net[t.payer] -= t.amount
            if t.receiver is not None:
                net[t.receiver] += t.amount
            assert t.amount > 0
        assert tuple(net) == after.scores == record.scores_after
        assert after.log[:-1] == before.log


@settings(max_examples=150, deadline=None)
@given(games())
def test_replaying_the_event_log_gives_the_same_state(game):
    rules, events, states = game
    assert replay(events, None, rules) == states[-1]
    # through the stored JSON form as well
    stored = [result_from_json(result_to_json(e)) for e in events]
    assert stored == events
    assert replay(stored, None, rules) == states[-1]


@settings(max_examples=100, deadline=None)
@given(games())
def test_undo_restores_the_previous_state(game):
    rules, events, states = game
    for n in range(len(events)):
        assert replay(events[:n], None, rules) == states[n]


@settings(max_examples=150, deadline=None)
@given(games())
def test_final_settlement_sums_to_zero(game):
    _, _, states = game
    state = states[-1]
    if state.finished:
        final = settle(state)
        assert sum(p.total for p in final) == 0
        assert sorted(p.rank for p in final) == [1, 2, 3]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.sampled_from(["ron", "tsumo", "draw", "chombo", "mangan", "yakuman", "x"]),
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
                    "tenpai",
                    "riichi",
                    "offenders",
                    "nagashi",
                    "player",
                    "aka5man",
                    "manemann",
                    "copier",
                    "copied",
                    "turns",
                    "mis_calls",
                    "noten_riichi",
                    "yakuman_multiple",
                    "double_riichi",
                    "other",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(json_values, st.booleans())
def test_any_json_hand_result_is_an_event_or_an_input_error(obj, aka):
    from sanma_lens.engine.errors import InputError
    from sanma_lens.engine.game import resolve_hand

    state = new_game(None, GameRules(aka_5man=aka))
    try:
        result = resolve_hand(state, obj)
        after = apply(state, result)
    except InputError:
        return
    assert sum(after.scores) + after.deposits == 90_000
    assert result_from_json(result_to_json(result)) == result
