"""Hand amounts at this table, from ``engine.points`` (§11–§13, §17, §33)."""

from __future__ import annotations

from sanma_lens.engine import points
from sanma_lens.engine.game.events import Payment
from sanma_lens.engine.game.seats import others_in_settlement_order
from sanma_lens.engine.game.state import GameState
from sanma_lens.engine.rules import Rules


def yakuman_han(multiple: int, rules: Rules) -> int:
    """The smallest han of a yakuman of ``multiple`` (§33): 15, then +5 per multiple."""
    return rules.yakuman_han + rules.yakuman_step_han * (multiple - 1)


def tsumo_payments(state: GameState, winner: int, base: int, honba: int) -> tuple[Payment, ...]:
    """§13, §17: each other player's share of a tsumo of ``base``, the shimocha first."""
    rules = state.rules.hand_rules
    shares = dict(points.tsumo_amounts(base, winner == state.dealer, honba, rules))
    return tuple(
        Payment(p, shares["dealer" if p == state.dealer else "child"])
        for p in others_in_settlement_order(winner, state.players)
    )
