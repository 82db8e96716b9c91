"""Seats, rounds and turn order of a three-player hanchan (RULES.md "Seats, rounds, flow").

Players are numbered 0, 1, 2 in seat order from the first dealer (起家): player 0 deals E1 and S1,
player 1 deals E2 and S2, player 2 deals E3 and S3. Turn order is 0 → 1 → 2 → 0, so a player's
shimocha (the player to the right, §17) is ``(p + 1) % 3``.
"""

from __future__ import annotations

from collections.abc import Sequence

PLAYERS = 3
ROUND_LABELS = ("E1", "E2", "E3", "S1", "S2", "S3")
SEAT_WINDS = ("E", "S", "W")
LAST_ROUND = len(ROUND_LABELS) - 1


def turn_order_from(start: int) -> tuple[int, ...]:
    """Players in turn order beginning with ``start`` (0 → 1 → 2 → 0)."""
    return tuple((start + k) % PLAYERS for k in range(PLAYERS))


def others_in_settlement_order(player: int) -> tuple[int, int]:
    """§17: settle with your shimocha (next in turn order) first, then the next one."""
    return ((player + 1) % PLAYERS, (player + 2) % PLAYERS)


def ranking(scores: Sequence[int]) -> tuple[int, ...]:
    """Players from first to last; ties by seat order from the first dealer [interp]."""
    return tuple(sorted(range(PLAYERS), key=lambda p: (-scores[p], p)))
