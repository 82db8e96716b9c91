"""Keeping a whole hanchan as an event-sourced fold (docs/rules.md "Seats, rounds, flow", "Points",
"Ryuukyoku and nagashi", "End of game", "Chombo", "Aka-5-man option, payments").

A game is ``new_game(...)`` folded over recorded :class:`HandResult` events with :func:`apply`;
``replay`` does the fold in one go. Every point that moves is a :class:`Transfer` with a reason,
kept in the hand's :class:`HandRecord`, so the table's score can always be explained.

Players are numbered 0, 1, 2 in seat order from the first dealer (起家): player 0 deals E1 and S1,
player 1 deals E2 and S2, player 2 deals E3 and S3. Turn order is 0 → 1 → 2 → 0, so a player's
shimocha (the player to the right, §17) is ``(p + 1) % 3``. How many players sit at the table
comes from the game's rules (``GameRules.players``: one per seat of its hand rules); everything
here counts with ``state.players``, so a four-player table numbers its players 0 … 3 the same way.

Hand values are not computed here: a :class:`Win` carries each payer's amount (hand value and
honba, §11–§13), resolved once when the hand is recorded: :func:`resolve_hand` turns han/fu, a
limit name or a hand JSON (scored by ``engine.service.score_json``) into a ``Win`` with
``engine.points``, and the resolved event is what is stored and replayed. The fold itself only
needs ``engine.points`` for the nagashi yakuman and manemann amounts.

Modules, one job each:

- ``seats``: rounds, seat winds, turn and §17 settlement order, ranking, for 3 or 4 players;
- ``events``: the recorded event (:class:`HandResult`, :class:`Win`, :class:`Payment`, …);
- ``state``: :class:`GameRules`, :class:`GameState`, :class:`HandRecord`, :class:`Transfer`,
  :class:`BustEvent`, :class:`YakumanPrize`, ``new_game``;
- ``validate``: refusing a result that cannot have happened at this table;
- ``transfers``: one hand's point movements in §17 order, busts as they happen (§15.1);
- ``amounts``: hand amounts at this table from ``engine.points``;
- ``results``: ``apply`` / ``replay`` — ron, tsumo, draw, nagashi, chombo, mis-calls,
  manemann, aka-5-man;
- ``flow``: dealer continuation, rounds, honba, end of game, closing a hand;
- ``settlement``: final points (oka, uma, bust and yakuman prizes, ties);
- ``ability``: ability mahjong's roles at the table (docs/rules/ability.md): the seiryuu's
  deposits, the byakko's declarations and payments, the genbu's kanpa, the kouryuu's
  collections; ``blocks``: its blocks of four hanchan;
- ``options``: the game's rule options as JSON (what a new game sets, how it is stored);
- ``presets``: the rule systems a game is kept under (sanma-1.3, ecip, standard);
- ``deposits``: who takes the deposits at a win and at the end of the game;
- ``codec``: the stored event as JSON; ``resolve`` and ``score_hand``: what the table says
  (han/fu, a limit or a hand JSON) → the event to store.

**[interp]** choices where the original is silent (fields of :class:`GameRules` or named in the
docstring of the function that applies them):

- a double ron pays the honba to each winner (``double_ron_honba="first"`` for the other way);
- riichi needs 1,000 points; riichi sticks and mis-call penalties are put up before the hand's
  other exchanges; a chombo rewinds them;
- nagashi yakuman is paid without honba, on top of the no-ten payments, and is no win for §A8;
  manemann is paid like a ron of its limit, without honba or yakuman prize;
- deposits still on the table when the game ends go to the top player (as §R2 says for a
  chombo bust);
- busting both others earns 10 points, 5 from each; a bust through a mis-call has no receiver;
- the §A8 doubling covers hand value and honba, not deposits, prizes or manemann.
"""

from sanma_lens.engine.game.codec import result_from_json, result_to_json
from sanma_lens.engine.game.events import (
    HandResult,
    Kanpa,
    Manemann,
    Nagashi,
    Outcome,
    Payment,
    Win,
)
from sanma_lens.engine.game.options import (
    GAME_OPTION_CHOICES,
    GAME_OPTION_TYPES,
    HAND_RULES_KEY,
    game_rules_from_json,
    game_rules_to_json,
)
from sanma_lens.engine.game.presets import GAME_PRESETS
from sanma_lens.engine.game.resolve import resolve_hand
from sanma_lens.engine.game.results import apply, manemann_limit_han, replay
from sanma_lens.engine.game.seats import (
    PLAYERS,
    others_in_settlement_order,
    seat_winds,
    turn_order_from,
)
from sanma_lens.engine.game.settlement import bust_levels, settle
from sanma_lens.engine.game.state import (
    BustEvent,
    GameRules,
    GameState,
    HandRecord,
    Transfer,
    YakumanPrize,
    new_game,
)

__all__ = [
    "GAME_OPTION_CHOICES",
    "GAME_OPTION_TYPES",
    "GAME_PRESETS",
    "HAND_RULES_KEY",
    "PLAYERS",
    "BustEvent",
    "GameRules",
    "GameState",
    "HandRecord",
    "HandResult",
    "Kanpa",
    "Manemann",
    "Nagashi",
    "Outcome",
    "Payment",
    "Transfer",
    "Win",
    "YakumanPrize",
    "apply",
    "bust_levels",
    "game_rules_from_json",
    "game_rules_to_json",
    "manemann_limit_han",
    "new_game",
    "others_in_settlement_order",
    "replay",
    "resolve_hand",
    "result_from_json",
    "result_to_json",
    "seat_winds",
    "settle",
    "turn_order_from",
]
