"""Seats, rounds and turn order of a table of three or four players (docs/rules.md "Seats, rounds,
flow").

Players are numbered 0 … n−1 in seat order from the first dealer (起家): in each round player k
deals hand k + 1 (at a sanma table player 0 deals E1 and S1, player 1 E2 and S2, player 2 E3
and S3). Turn order is 0 → 1 → … → n−1 → 0, so a player's shimocha (the player to the right,
§17) is ``(p + 1) % n``. How many players sit at the table comes from the game's rules (the
seats of its hand rules): three for sanma, four for the four-player presets.
"""

from __future__ import annotations

from collections.abc import Sequence

#: players at a sanma table, the default game (docs/rules.md §4: no North seat)
PLAYERS = 3
#: seat winds from the dealer, and the winds of the rounds in the order they are played
WINDS = ("E", "S", "W", "N")


def seat_winds(players: int) -> tuple[str, ...]:
    """Seat winds from the dealer on: East, South, West (and North at a four-player table)."""
    return WINDS[:players]


def round_wind(round_index: int, players: int) -> str:
    """The wind of the round a hand is in: ``players`` hands to a round (E1–E3 or E1–E4, …)."""
    return WINDS[(round_index // players) % len(WINDS)]


def round_label(round_index: int, players: int) -> str:
    """``E1`` … ``S3`` at a sanma table, ``E1`` … ``S4`` (and on) at a four-player one."""
    return f"{round_wind(round_index, players)}{round_index % players + 1}"


def dealer_of(round_index: int, players: int) -> int:
    """The player who deals hand ``round_index`` (§4, §6): player k deals the k+1-th of a round."""
    return round_index % players


def turn_order_from(start: int, players: int) -> tuple[int, ...]:
    """Players in turn order beginning with ``start`` (0 → 1 → … → n−1 → 0)."""
    return tuple((start + k) % players for k in range(players))


def others_in_settlement_order(player: int, players: int) -> tuple[int, ...]:
    """§17: settle with your shimocha (next in turn order) first, then the next one, …"""
    return tuple((player + k) % players for k in range(1, players))


def ranking(scores: Sequence[int]) -> tuple[int, ...]:
    """Players from first to last; ties by seat order from the first dealer [interp]."""
    return tuple(sorted(range(len(scores)), key=lambda p: (-scores[p], p)))
