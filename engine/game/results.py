"""Folding one hand result into the table: ron, tsumo, draw (no-ten, nagashi), chombo,
mis-calls, manemann and the aka-5-man payments (docs/rules.md "Points", "Ryuukyoku and
nagashi", "Chombo", "Aka-5-man option, payments"), what the four-player systems add
(docs/rules/ecip.md, standard.md): deposits to closed wins, pao, the no-ten pool, nagashi
mangan, abortive draws and a chombo that ends the hand as a draw, and with roles ability
mahjong's deposits and payments (``engine.game.ability``, docs/rules/ability.md)."""

from __future__ import annotations

from collections.abc import Iterable

from sanma_lens.engine import points
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.ability import (
    check_ability,
    chombo_payment,
    end_of_hand,
    put_up_seiryuu_deposits,
)
from sanma_lens.engine.game.amounts import tsumo_payments, yakuman_han
from sanma_lens.engine.game.deposits import takes_deposits
from sanma_lens.engine.game.events import MANEMANN_MIN_TURNS, HandResult, Outcome, Payment, Win
from sanma_lens.engine.game.flow import finish_hand, next_hand
from sanma_lens.engine.game.seats import others_in_settlement_order, turn_order_from
from sanma_lens.engine.game.state import GameRules, GameState, YakumanPrize, new_game
from sanma_lens.engine.game.transfers import Ledger
from sanma_lens.engine.game.validate import validate
from sanma_lens.engine.roles import Role, suzaku_deposits, suzaku_share
from sanma_lens.engine.rules import Rules

MIS_CALL_PENALTY = 1_000  # §R3: mis-pon / mis-chi puts 1,000 into the deposits


def apply(state: GameState, result: HandResult) -> GameState:
    """Fold one hand result into the table (the event-sourcing step; pure)."""
    validate(state, result)
    check_ability(state, result)
    rules = state.rules
    chombo = result.outcome is Outcome.CHOMBO or (
        bool(result.noten_riichi) and rules.noten_riichi_is_chombo
    )
    if chombo and rules.chombo_rewinds:
        return _apply_chombo(state, result)
    ledger = Ledger(state)
    put_up_seiryuu_deposits(state, ledger)  # ¶2.1: at the hand's start, before any riichi
    _put_up_deposits(state, result, ledger)
    prizes: list[YakumanPrize] = []
    winners: tuple[int, ...] = ()
    if chombo:  # ECIP: a chombo ends the hand as a draw; the sticks put up stay on the table
        _chombo_payments(state, result, ledger)
    elif result.outcome is Outcome.RON:
        winners = _settle_ron(state, result, ledger, prizes)
    elif result.outcome is Outcome.TSUMO:
        winners = _settle_tsumo(state, result, ledger, prizes)
    elif result.outcome is Outcome.DRAW:
        winners = _settle_draw(state, result, ledger, prizes)
    _settle_manemann(state, result, ledger)
    if result.aka5man is not None and result.aka5man not in winners:
        # §A8: after all other exchanges, a non-winner who extracted the aka-5-man pays mangan.
        ledger.mangan_payment(
            result.aka5man, state.dealer, state.rules.hand_rules, "aka5man_mangan"
        )
    end_of_hand(state, result, ledger)  # the byakko's and the kouryuu's payments
    round_index, honba, finished = next_hand(state, result, winners, tuple(ledger.scores))
    finished = finished or (bool(ledger.busts) and rules.bust_ends_game)
    return finish_hand(state, result, ledger, prizes, round_index, honba, finished)


def replay(
    results: Iterable[HandResult],
    names: Iterable[str] | None = None,
    rules: GameRules | None = None,
) -> GameState:
    """State = fold of the events: ``apply`` each recorded hand to a new game, in order."""
    state = new_game(names, rules)
    for result in results:
        state = apply(state, result)
    return state


def _put_up_deposits(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """Riichi deposits (1,000 each [interp]) and §R3 mis-call penalties go to the table."""
    for p in turn_order_from(state.dealer, state.players):
        if p in result.riichi:
            if ledger.scores[p] < state.rules.riichi_min_points:
                raise InputError(
                    "riichi_without_points",
                    f"{state.names[p]} has {ledger.scores[p]} points, fewer than the "
                    f"{state.rules.riichi_min_points} needed to declare riichi",
                )
            ledger.move(p, None, state.rules.hand_rules.riichi_deposit, "riichi")
    for p in result.mis_calls:
        ledger.move(p, None, MIS_CALL_PENALTY, "mis_call")


def _received(
    state: GameState, win: Win, payment: Payment, result: HandResult, honba_part: int
) -> int:
    """§A8: a winner who extracted the aka-5-man receives every amount doubled (honba too).
    ABILITY.md ¶2.6: a suzaku receives half, rounded up to 1,000 (``honba_part``: the honba in
    ``payment``, halved with it unless ``suzaku_halves_honba`` is off)."""
    rules = state.rules.hand_rules
    factor = rules.aka5man_payment_multiplier if result.aka5man == win.winner else 1
    amount = payment.amount * factor
    if state.rules.role_of(win.winner) == Role.SUZAKU.value:
        amount = suzaku_share(amount, honba_part, factor, rules)
    return amount


def _deposits_to(state: GameState, winner: int, ledger: Ledger) -> None:
    """The deposits go to the winner; a suzaku's in full unless ``suzaku_halves_deposits``."""
    amount = ledger.deposits
    if state.rules.role_of(winner) == Role.SUZAKU.value:
        amount = suzaku_deposits(amount, state.rules.hand_rules)
    ledger.move(None, winner, amount, "deposits")


def _prize_factor(state: GameState, win: Win, result: HandResult) -> int:
    """§A8 [interp]: the yakuman prize is doubled with the hand value only by option."""
    if state.rules.aka5man_doubles_prizes and result.aka5man == win.winner:
        return state.rules.hand_rules.aka5man_payment_multiplier
    return 1


def _settle_ron(
    state: GameState, result: HandResult, ledger: Ledger, prizes: list[YakumanPrize]
) -> tuple[int, ...]:
    """§14: winners one by one in turn order from the discarder's shimocha; deposits to the
    first winner (§14.1; ECIP: if that win is closed); §32 ron prize 20 × multiple from the
    discarder."""
    assert result.discarder is not None
    order = turn_order_from(result.discarder, state.players)
    wins = sorted(result.wins, key=lambda w: order.index(w.winner))
    honba = state.honba * state.rules.hand_rules.honba_ron
    for n, win in enumerate(wins):
        first_only = state.rules.double_ron_honba == "first" and n > 0
        amount = _received(state, win, win.payments[0], result, 0 if first_only else honba)
        ledger.move(result.discarder, win.winner, amount, "ron")
        if n == 0 and takes_deposits(state, win):
            _deposits_to(state, win.winner, ledger)
        if win.yakuman_multiple > 0:
            prize = (
                state.rules.yakuman_prize_ron
                * win.yakuman_multiple
                * _prize_factor(state, win, result)
            )
            prizes.append(YakumanPrize(win.winner, (result.discarder,), prize, "yakuman_ron"))
    return tuple(w.winner for w in wins)


def _settle_tsumo(
    state: GameState, result: HandResult, ledger: Ledger, prizes: list[YakumanPrize]
) -> tuple[int, ...]:
    """§13, §17: the winner collects from the shimocha first, then the next; then deposits
    (ECIP: on a closed win). Under pao (ECIP) the player who fed the call pays it all."""
    win = result.wins[0]
    by_payer = {p.payer: p for p in win.payments}
    honba = state.honba * state.rules.hand_rules.honba_tsumo_each
    if win.pao is not None:
        total = sum(_received(state, win, p, result, honba) for p in win.payments)
        ledger.move(win.pao, win.winner, total, "pao")
    else:
        for payer in others_in_settlement_order(win.winner, state.players):
            amount = _received(state, win, by_payer[payer], result, honba)
            ledger.move(payer, win.winner, amount, "tsumo")
    if takes_deposits(state, win):
        _deposits_to(state, win.winner, ledger)
    if win.yakuman_multiple > 0:
        prize = (
            state.rules.yakuman_prize_tsumo
            * win.yakuman_multiple
            * _prize_factor(state, win, result)
        )
        payers = others_in_settlement_order(win.winner, state.players)
        prizes.append(YakumanPrize(win.winner, payers, prize, "yakuman_tsumo"))
    return (win.winner,)


def _settle_draw(
    state: GameState, result: HandResult, ledger: Ledger, prizes: list[YakumanPrize]
) -> tuple[int, ...]:
    """Exhaustive draw: no-ten payments (§17 order), then nagashi yakuman claims; returns
    the players whose nagashi counts as a win (ECIP's nagashi mangan), else none.

    No-ten: each no-ten player pays ``rules.noten_payment`` (1,000) to each tenpai player
    [interp] (:func:`_settle_noten`).
    Nagashi yakuman (§29–§31) is paid as a yakuman tsumo (double yakuman after double riichi)
    without honba — it is not a win, and the honba stays for the next hand **[interp]**;
    several claims are settled in turn order from the dealer **[interp]**; deposits stay.
    """
    if state.rules.nagashi == "mangan" and result.nagashi:
        return _settle_nagashi_mangan(state, result, ledger)
    _settle_noten(state, result, ledger)
    order = turn_order_from(state.dealer, state.players)
    for claim in sorted(result.nagashi, key=lambda c: order.index(c.player)):
        multiple = 2 if claim.double_riichi else 1
        amounts = _yakuman_tsumo_amounts(state, claim.player, multiple)
        payers = others_in_settlement_order(claim.player, state.players)
        for payer in payers:
            ledger.move(payer, claim.player, amounts[payer], "nagashi")
        prizes.append(
            YakumanPrize(
                claim.player, payers, state.rules.yakuman_prize_tsumo * multiple, "nagashi"
            )
        )
    return ()


def _settle_nagashi_mangan(state: GameState, result: HandResult, ledger: Ledger) -> tuple[int, ...]:
    """ECIP 流し満貫: each claim is paid as a mangan tsumo with the honba, in turn order from
    the dealer; the hand is a win, not a draw: no no-ten payments, and no deposits (they stay)
    **[interp]** for the honba and the no-ten payments."""
    rules = state.rules.hand_rules
    order = turn_order_from(state.dealer, state.players)
    players = tuple(sorted((c.player for c in result.nagashi), key=order.index))
    for player in players:
        for payment in tsumo_payments(state, player, rules.mangan_base, state.honba):
            ledger.move(payment.payer, player, payment.amount, "nagashi")
    return players


def _chombo_payments(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """Each offender (in turn order from the dealer) pays the chombo amounts of the rules to
    every other player in §17 order (ECIP §冲和: a mangan win's points to each)."""
    offenders = result.offenders or result.noten_riichi
    order = turn_order_from(state.dealer, state.players)
    for p in sorted(offenders, key=order.index):
        chombo_payment(state, ledger, p)  # a suzaku's halved only by option (ability mahjong)


def _settle_noten(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """Each no-ten player pays ``rules.noten_payment`` to each tenpai player [interp] (under
    ``noten_pool`` the no-ten players share it and the tenpai players split it: 3,000 is 1,000
    on each pair with one or three tenpai, 750 with two), in §17
    order seen from the side with fewer players: with one tenpai player at a sanma table they
    collect from their shimocha first; with two, the no-ten player pays their shimocha first.
    Nothing moves when everyone or no one is tenpai."""
    tenpai = set(result.tenpai)
    noten = set(range(state.players)) - tenpai
    if not tenpai or not noten:
        return
    payment = state.rules.noten_payment
    if state.rules.noten_pool:  # the no-ten players share the pool, the tenpai split it
        payment //= len(tenpai) * len(noten)
    by_dealer = turn_order_from(state.dealer, state.players)
    if len(tenpai) <= len(noten):
        for t in (p for p in by_dealer if p in tenpai):
            for other in others_in_settlement_order(t, state.players):
                if other in noten:
                    ledger.move(other, t, payment, "noten")
    else:
        for n in (p for p in by_dealer if p in noten):
            for other in others_in_settlement_order(n, state.players):
                if other in tenpai:
                    ledger.move(n, other, payment, "noten")


def _yakuman_tsumo_amounts(state: GameState, winner: int, multiple: int) -> dict[int, int]:
    """Each payer's share of a yakuman tsumo (§13, §33) without honba, from engine.points."""
    rules = state.rules.hand_rules
    base, _, _ = points.hand_base(yakuman_han(multiple, rules), 30, rules)
    return {p.payer: p.amount for p in tsumo_payments(state, winner, base, 0)}


def manemann_limit_han(turns: int, rules: Rules) -> int:
    """§34.1: 5/7/9/11/13/… turns → mangan/haneman/baiman/sanbaiman/yakuman/…, as the
    smallest han of that limit (§33); every 2 more turns one more yakuman multiple."""
    steps = (turns - MANEMANN_MIN_TURNS) // 2
    table = tuple(step.min_han for step in rules.limits) + (rules.yakuman_han,)
    if steps < len(table):
        return table[steps]
    return rules.yakuman_han + rules.yakuman_step_han * (steps - len(table) + 1)


def _settle_manemann(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """§34: the copier receives the limit's value from the copied player at the end of the hand,
    as a ron of that limit by the copier (dealer 6 × base) without honba **[interp]**; no §32
    prize **[interp]**. Settled in turn order of the copiers from the dealer."""
    rules = state.rules.hand_rules
    order = turn_order_from(state.dealer, state.players)
    for m in sorted(result.manemann, key=lambda m: (order.index(m.copier), order.index(m.copied))):
        base, _, _ = points.hand_base(manemann_limit_han(m.turns, rules), 30, rules)
        amount = points.ron_amount(base, m.copier == state.dealer, 0, rules)
        ledger.move(m.copied, m.copier, amount, "manemann")


def _apply_chombo(state: GameState, result: HandResult) -> GameState:
    """§R1: rewind the hand to its start (this hand's riichi sticks, mis-call penalties and every
    other exchange undone), each offender makes a mangan payment in §17 order (offenders in turn
    order from the dealer), the same hand is replayed with the same honba. §R2: if that busts
    anyone the game ends and the deposits go to the top player. No §A8 payment (§A8.2)."""
    ledger = Ledger(state)
    _chombo_payments(state, result, ledger)
    end_of_hand(state, result, ledger)  # with roles: nothing unless an option says so
    finished = bool(ledger.busts) and state.rules.bust_ends_game
    return finish_hand(state, result, ledger, [], state.round_index, state.honba, finished)
