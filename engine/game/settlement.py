"""Final settlement in points of 1,000: oka, uma, bust prizes, yakuman prizes (§9–§16, §32)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.seats import ranking
from sanma_lens.engine.game.state import GameState

BUST_LEVEL = 30_000  # §16.3: one more bust level for every started 30,000 below zero


@dataclass(frozen=True)
class PlayerSettlement:
    """One player's final points, broken down (all in points of 1,000)."""

    player: int
    name: str
    rank: int
    score: int
    base: int  # (score − return points) / 1,000
    oka: int
    uma: int
    bust: int  # bust prizes and the double-bust bonus, paid (−) or received (+)
    bust_levels: int
    yakuman: int  # §32 prizes, paid (−) or received (+)
    total: int


def bust_levels(score: int) -> int:
    """§16.3: one level for each started 30,000 below zero (−1,000 → 1, −31,000 → 2); a player
    who went below zero during a hand but ended it at 0 or more still busted once (§15.1)."""
    return max(1, math.ceil(-score / BUST_LEVEL)) if score < 0 else 1


def settle(state: GameState) -> tuple[PlayerSettlement, ...]:
    """Final settlement in points (§9, §10, §16, §32), by player number.

    (score − 40,000)/1,000 (rounded toward the origin under ``settle_rounding``, the top
    player balancing), oka to first, uma +10 to first / −10 to last (at four players
    ``uma_second`` from third to second) (ties: by seat, or
    shared under ``rules.rank_ties == "split"`` [interp]); each busted player pays 10 × levels
    to whoever busted them (no prize when the table took them below zero through a mis-call
    [interp]); busting both others in one hand earns 10 more, 5 from each
    of them **[interp]**; yakuman prizes as recorded. The points sum to zero.
    """
    if not state.finished:
        raise InputError("game_not_over", "the game is not over yet")
    rules = state.rules
    players = state.players
    order = ranking(state.scores)
    bust = [0] * players
    levels = [0] * players
    for b in state.busts:
        levels[b.player] = bust_levels(state.scores[b.player])
        if b.by is not None:
            owed = rules.bust_prize * levels[b.player]
            bust[b.player] -= owed
            bust[b.by] += owed
    for buster in range(players):
        # The game ends with the hand of the first bust, so all busts happened "at once".
        victims = [b for b in state.busts if b.by == buster]
        if len(victims) == players - 1:
            for b in victims:
                bust[b.player] -= rules.double_bust_bonus // 2
            bust[buster] += rules.double_bust_bonus // 2 * 2
    yakuman = [0] * players
    for prize in state.prizes:
        for payer in prize.payers:
            yakuman[payer] -= prize.points
            yakuman[prize.winner] += prize.points
    oka_by_place = [rules.oka] + [0] * (players - 1)
    uma_by_place = [rules.uma] + [0] * (players - 2) + [-rules.uma]
    if players == 4:
        uma_by_place[1:3] = [rules.uma_second, -rules.uma_second]
    out = []
    for p in range(players):
        places = [order.index(p)]
        if rules.rank_ties == "split":  # [interp] option: ties share their places equally
            places = [order.index(q) for q in range(players) if state.scores[q] == state.scores[p]]
        rank = min(places) + 1
        base = _base_points(state.scores[p] - rules.return_of(p), rules.settle_rounding)
        oka = sum(oka_by_place[i] for i in places) // len(places)
        uma = sum(uma_by_place[i] for i in places) // len(places)
        total = base + oka + uma + bust[p] + yakuman[p]
        out.append(
            PlayerSettlement(
                p,
                state.names[p],
                rank,
                state.scores[p],
                base,
                oka,
                uma,
                bust[p],
                levels[p],
                yakuman[p],
                total,
            )
        )
    if rules.settle_rounding == "toward_origin":
        out = _top_balances(out, order[0])
    return tuple(out)


def _base_points(difference: int, rounding: str) -> int:
    """(score − return points) in points of 1,000: exact (whole 1,000s), or rounded toward
    zero (ECIP §持ち点: 原点に近づくように — below the origin up, above it down)."""
    if rounding == "toward_origin" and difference < 0:
        return -(-difference // 1000)
    return difference // 1000


def _top_balances(rows: list[PlayerSettlement], top: int) -> list[PlayerSettlement]:
    """With rounding toward the origin the points need not sum to zero; the top player's
    base takes up the difference, so that they do **[interp]**."""
    others = sum(r.total for r in rows if r.player != top)
    row = rows[top]
    total = -others
    rows[top] = replace(row, base=row.base + total - row.total, total=total)
    return rows
