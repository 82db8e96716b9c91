"""One hand's point movements in §17 order, with busts tracked as they happen (§15.1)."""

from __future__ import annotations

from sanma_lens.engine import points
from sanma_lens.engine.game.seats import others_in_settlement_order, ranking
from sanma_lens.engine.game.state import BustEvent, GameState, Transfer
from sanma_lens.engine.rules import Rules


class Ledger:
    """Mutable scratch pad for one hand's transfers; records busts as they happen (§15.1)."""

    def __init__(self, state: GameState) -> None:
        self.scores = list(state.scores)
        self.deposits = state.deposits
        self.transfers: list[Transfer] = []
        self.busts: list[BustEvent] = []
        self._busted = {b.player for b in state.busts}

    def move(
        self,
        payer: int | None,
        receiver: int | None,
        amount: int,
        reason: str,
        *,
        prize: bool = True,
    ) -> None:
        """Move points; a payer taken below zero busts (§15.1), by the receiver (who earns the
        bust prize, §16.1) unless ``prize`` is off or the table receives."""
        if amount <= 0:
            return
        if payer is None:
            self.deposits -= amount
        else:
            self.scores[payer] -= amount
        if receiver is None:
            self.deposits += amount
        else:
            self.scores[receiver] += amount
        self.transfers.append(Transfer(payer, receiver, amount, reason))
        if payer is not None and self.scores[payer] < 0 and payer not in self._busted:
            self._busted.add(payer)
            self.busts.append(BustEvent(payer, receiver if prize else None))

    def busted(self, player: int) -> bool:
        """Whether ``player`` has gone below zero in this game (this hand included)."""
        return player in self._busted

    def mangan_payment(self, payer: int, dealer: int, rules: Rules, reason: str) -> None:
        """§R1.3 / §A8 満貫払い: child 4,000 to each other, dealer 6,000 to each, §17 order."""
        amounts = dict(points.chombo_amounts(payer == dealer, rules))
        for other in others_in_settlement_order(payer, len(self.scores)):
            self.move(payer, other, amounts["dealer" if other == dealer else "child"], reason)

    def top_player(self) -> int:
        """Highest score; ties go to the earlier seat from the first dealer [interp]."""
        return ranking(self.scores)[0]
