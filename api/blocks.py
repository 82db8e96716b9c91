"""HTTP endpoints of ability mahjong's blocks (ABILITY.md ¶1): four hanchan with fixed roles.

``router`` is mounted beside ``api.games.router`` (the games of a block are ordinary games,
kept and scored there):

- ``POST /v1/blocks`` — ``{"players": [3 names], "roles": [3 role names], "rules": {<game
  options>}, "chooses_first": name}`` → 201, the block and its first game (an ability game with
  those roles; ``chooses_first``, who chose a role first, defaults to the first dealer
  [interp]).
- ``GET /v1/blocks/{id}`` — the block: its players and roles, its games, the standings (the sum
  of the finished games' settlements) and who chooses first for the next block (the top
  player of the latest finished hanchan).
- ``POST /v1/blocks/{id}/games`` — ``{"players": [names in seat order]}`` (optional, the
  block's order by default) → 201, the block with its next game, once the last one is over.

Errors as for games: ``{"error": {"code", "message"}}``, 404 unknown block, 409 a game still
running or the block complete, 422 bad input.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from sanma_lens.api.games import (
    StorageDep,
    _check_games_per_hour,
    _client,
    _json_body,
    _run,
    _settings,
    _with_body,
    fold,
    readable,
)
from sanma_lens.api.settings import Settings
from sanma_lens.api.storage import Storage, StoredBlock
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import game_rules_from_json, game_rules_to_json, new_game
from sanma_lens.engine.game.blocks import (
    GAMES_PER_BLOCK,
    block_game,
    byakko_carried,
    check_block_players,
    choosing_order,
    next_choosing_order,
    seat_order,
    standings,
)
from sanma_lens.engine.roles import ROLE_NAMES

router = APIRouter()


def _game_rules(
    rules: dict[str, Any],
    roles: dict[str, str],
    names: tuple[str, ...],
    carried: tuple[int, ...] = (),
) -> Any:
    """The rules of one game of the block: the block's, with each seat's role and the byakko
    counts carried in from the hanchan before (engine.game.blocks.byakko_carried)."""
    seats: dict[str, Any] = {"ability": True, "roles": [roles[n] for n in names]}
    if carried:
        seats["byakko_silent_before"] = list(carried)
    return game_rules_from_json({**rules, **seats})


def _block_rules(first: Any) -> dict[str, Any]:
    """The block's rules as stored: every option of its first game (ability mahjong's
    included, so that each later game plays them too) but the seats' roles."""
    rules = game_rules_to_json(first)
    for seat_bound in ("ability", "roles", "byakko_silent_before"):
        rules.pop(seat_bound, None)
    return rules


def block_json(storage: Storage, block: StoredBlock) -> dict[str, Any]:
    """The block as the players see it (every endpoint answers with this)."""
    roles = dict(zip(block.players, block.roles, strict=True))
    games = []
    listed = []
    for number, game_id in enumerate(block.games, start=1):
        stored = readable(storage.load(game_id))
        view = block_game(number, fold(stored))
        games.append(view)
        listed.append(
            {
                "number": number,
                "id": game_id,
                "players": list(view.names),
                "finished": view.finished,
                "totals": list(view.totals) if view.totals is not None else None,
                "next_chooser": view.top,
            }
        )
    following = next_choosing_order(games)
    done = sum(1 for g in games if g.finished)
    return {
        "id": block.id,
        "created_at": block.created_at,
        "players": [{"name": n, "role": roles[n]} for n in block.players],
        "rules": block.rules,
        "choosing_order": list(choosing_order(block.players, block.chooses_first)),
        "games": listed,
        "standings": [
            {"name": n, "role": roles[n], "total": total, "games": per}
            for n, total, per in standings(block.players, games)
        ],
        "finished": done == GAMES_PER_BLOCK,
        "next_choosing_order": list(following) if following is not None else None,
    }


def _create(storage: Storage, settings: Settings, client: str, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise InputError("bad_request", "the body must be a JSON object")
    unknown = set(body) - {"players", "roles", "rules", "chooses_first"}
    if unknown:
        raise InputError("bad_request", f"unknown field(s) {sorted(unknown)}")
    rules = body.get("rules") or {}
    if not isinstance(rules, dict) or "roles" in rules or "ability" in rules:
        raise InputError("bad_rules", "a block's rules are game options; its roles go beside them")
    # the rules and the roles checked as a game's (the names from the first game's table)
    first_rules = game_rules_from_json({**rules, "ability": True, "roles": body.get("roles")})
    players = body.get("players")
    if players is None:
        players = list(new_game(None, first_rules).names)
    if not isinstance(players, list) or not all(isinstance(n, str) for n in players):
        raise InputError("bad_players", "players must be a list of names")
    names = check_block_players(players, first_rules.players)
    chooser = body.get("chooses_first", names[0])  # the first dealer [interp]
    if not isinstance(chooser, str):
        raise InputError("bad_block", "chooses_first is a player's name")
    choosing_order(names, chooser.strip())
    _check_games_per_hour(storage, settings, client)
    block_id = storage.create_block(
        list(names),
        list(first_rules.roles),
        _block_rules(first_rules),
        chooser.strip(),
        game_rules_to_json(first_rules),
        client,
    )
    return block_json(storage, storage.load_block(block_id))


def _get(storage: Storage, block_id: str) -> dict[str, Any]:
    return block_json(storage, storage.load_block(block_id))


def _next_game(
    storage: Storage, settings: Settings, client: str, block_id: str, body: Any
) -> dict[str, Any]:
    if not isinstance(body, dict) or set(body) - {"players"}:
        raise InputError("bad_request", 'the body is {"players": [names in seat order]} or empty')
    block = storage.load_block(block_id)
    if len(block.games) >= GAMES_PER_BLOCK:
        raise InputError("block_over", f"a block has {GAMES_PER_BLOCK} hanchan; start a new one")
    previous = fold(readable(storage.load(block.games[-1])))
    if not previous.finished:
        raise InputError("game_running", "the block's last hanchan is not over yet")
    wanted = body.get("players")
    if wanted is not None and (
        not isinstance(wanted, list) or not all(isinstance(n, str) for n in wanted)
    ):
        raise InputError("bad_players", "players must be a list of names")
    names = seat_order(block.players, wanted)
    roles = dict(zip(block.players, block.roles, strict=True))
    rules = _game_rules(block.rules, roles, names, byakko_carried(previous, names))
    _check_games_per_hour(storage, settings, client)
    storage.add_block_game(
        block_id, len(block.games), list(names), game_rules_to_json(rules), client
    )
    return block_json(storage, storage.load_block(block_id))


NEW_BLOCK_SCHEMA = {
    "type": "object",
    "required": ["roles"],
    "properties": {
        "players": {"type": "array", "items": {"type": "string", "maxLength": 40}},
        "roles": {"type": "array", "items": {"type": "string", "enum": list(ROLE_NAMES)}},
        "rules": {"type": "object", "description": "game options (as POST /v1/games)"},
        "chooses_first": {"type": "string", "description": "who chose a role first"},
    },
}
NEXT_GAME_SCHEMA = {
    "type": "object",
    "properties": {"players": {"type": "array", "items": {"type": "string"}}},
}


@router.post(
    "/v1/blocks",
    status_code=201,
    tags=["blocks"],
    openapi_extra=_json_body(NEW_BLOCK_SCHEMA, required=True),
)
async def create_block(request: Request, storage: StorageDep) -> Response:
    """Start a block of ability mahjong: four hanchan with these roles; the first game."""
    return await _with_body(
        request, True, _create, storage, _settings(request), _client(request), status=201
    )


@router.get("/v1/blocks/{block_id}", tags=["blocks"])
async def get_block(block_id: str, storage: StorageDep) -> Response:
    """The block: players and roles, games, standings, who chooses first next."""
    return await _run(_get, storage, block_id)


@router.post(
    "/v1/blocks/{block_id}/games",
    status_code=201,
    tags=["blocks"],
    openapi_extra=_json_body(NEXT_GAME_SCHEMA, required=False),
)
async def next_game(block_id: str, request: Request, storage: StorageDep) -> Response:
    """The block's next hanchan (the last one must be over), seated as given."""
    return await _with_body(
        request,
        False,
        _next_game,
        storage,
        _settings(request),
        _client(request),
        block_id,
        status=201,
    )
