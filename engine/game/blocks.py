"""Blocks of ability mahjong (能力麻雀 ver 1.1 ¶1, ABILITY.md): four hanchan played with the
roles chosen at the block's start. A block's standings are the sum of its games' settlements;
who chooses a role first for the next block is the top player of the hanchan just before it,
the others following in turn order (左回り) at that hanchan's table.

Players are known by name across a block's games: their seats may change from one hanchan to
the next, their roles do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.ability import byakko_silent_hands
from sanma_lens.engine.game.seats import turn_order_from
from sanma_lens.engine.game.settlement import settle
from sanma_lens.engine.game.state import GameState
from sanma_lens.engine.roles import Role

GAMES_PER_BLOCK = 4  # ¶1: four hanchan are one block


@dataclass(frozen=True)
class BlockGame:
    """One hanchan of a block as the block shows it: its seat order, whether it is over, and
    when it is, each player's settlement total and the top player (who would choose first if
    the block ended after it)."""

    number: int
    names: tuple[str, ...]
    finished: bool
    totals: tuple[int, ...] | None
    top: str | None


def block_game(number: int, state: GameState) -> BlockGame:
    """The block's view of one of its games."""
    if not state.finished:
        return BlockGame(number, state.names, False, None, None)
    final = settle(state)
    top = min(final, key=lambda s: s.rank)
    return BlockGame(number, state.names, True, tuple(s.total for s in final), top.name)


def byakko_carried(previous: GameState, names: Sequence[str]) -> tuple[int, ...]:
    """ver 1.1 ¶2.7 across a block: each player's hands without a byakko declaration at the end
    of the block's hanchan ``previous``, in the seat order ``names`` of the next one (roles
    hold for the block, so "every three consecutive hands" runs on from one hanchan into the
    next under ``byakko_count_across_hanchan`` **[interp]**; off, or for a player who is not a
    byakko: 0)."""
    rules = previous.rules
    if not rules.ability or not rules.byakko_count_across_hanchan:
        return ()
    counts = []
    for name in names:
        player = previous.names.index(name)
        byakko = rules.role_of(player) == Role.BYAKKO.value
        counts.append(byakko_silent_hands(previous, player) if byakko else 0)
    return tuple(counts)


def choosing_order(names: Sequence[str], first: str) -> tuple[str, ...]:
    """¶1 (ver 1.0): roles are chosen from ``first`` on, in turn order at the table whose seat
    order is ``names`` (the first dealer first)."""
    if first not in names:
        raise InputError("bad_block", f"{first!r} does not sit at this table")
    start = list(names).index(first)
    return tuple(names[p] for p in turn_order_from(start, len(names)))


def next_choosing_order(games: Sequence[BlockGame]) -> tuple[str, ...] | None:
    """The choosing order of the block after: from the top player of the latest finished
    hanchan (the one just before the next block when the block is over), None before any."""
    done = [g for g in games if g.finished]
    if not done:
        return None
    last = done[-1]
    assert last.top is not None
    return choosing_order(last.names, last.top)


def standings(names: Sequence[str], games: Sequence[BlockGame]) -> list[tuple[str, int, list[int]]]:
    """Each player's total over the block's finished games and the total of each game,
    highest total first (ties: the block's player order): ``(name, total, per game)``."""
    per: dict[str, list[int]] = {n: [] for n in names}
    for g in games:
        if g.totals is None:
            continue
        for name, total in zip(g.names, g.totals, strict=True):
            per[name].append(total)
    rows = [(n, sum(per[n]), per[n]) for n in names]
    order = {n: i for i, n in enumerate(names)}
    return sorted(rows, key=lambda r: (-r[1], order[r[0]]))


def check_block_players(names: Sequence[str], players: int) -> tuple[str, ...]:
    """A block's players: ``players`` distinct names (they are matched by name from one game
    to the next)."""
    cleaned = tuple(str(n).strip() for n in names)
    if len(cleaned) != players or len(set(cleaned)) != players or not all(cleaned):
        raise InputError(
            "bad_players", f"a block needs {players} different player names (they keep roles)"
        )
    return cleaned


def seat_order(block_names: Sequence[str], wanted: Sequence[str] | None) -> tuple[str, ...]:
    """The seat order of a new game of the block: ``wanted`` (a reordering of the block's
    players, the first dealer first), or the block's own order."""
    if wanted is None:
        return tuple(block_names)
    order = tuple(str(n).strip() for n in wanted)
    if sorted(order) != sorted(block_names):
        raise InputError(
            "bad_players", "a block's game seats the block's players, each once, in any order"
        )
    return order
