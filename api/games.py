"""HTTP endpoints of the table assistant: keep a hanchan's score in the database.

``router`` (an APIRouter) is mounted by ``api.app.create_app`` when this module imports:

- ``POST /v1/games`` — ``{"players": [3 names], "rules": {<option>: value, …,
  "hand_rules": {<engine option>: value, …}}}`` (all optional) → 201, the game. The options are
  those of ``engine.game.GameRules`` (aka_5man, start_points, return_points, uma, bust_prize,
  double_bust_bonus, yakuman prizes, double_ron_honba, riichi_min_points, noten_payment,
  rank_ties, aka5man_doubles_prizes, …); ``"preset"`` picks the rule system: ``sanma-1.3``
  (default, 3 players), ``ecip`` or ``standard`` (4 players; docs/rules/); ``hand_rules``
  takes the engine's options as a hand JSON's ``rules`` does (``engine.rules``, under the
  game's preset). The game's JSON shows every option.
- ``GET /v1/games/{id}`` — the game: points, dealer, round, honba, deposits, hand log,
  ``finished`` and, when finished, the final ``settlement``.
- ``POST /v1/games/{id}/hands`` — a hand result (``engine.game.resolve_hand``) with an optional
  ``seq`` (the event number the client last saw: optimistic concurrency) → the game.
- ``POST /v1/games/{id}/undo`` — cancel the last hand (optional ``{"seq": n}``) → the game.
- ``GET /v1/games/{id}/export`` — every event and the resulting game, as a JSON file;
  ``POST /v1/games/import`` recreates such an export under a new id (events re-checked).
- ``GET /game.html`` (+ ``/game.js``, ``/game.css``) — the scoreboard page.

Errors are ``{"error": {"code", "message"}}``: 400 bad JSON, 404 unknown game, 409 game over /
sequence conflict / nothing to undo / too many events, 413 an event too large, 415 a body that
is not ``application/json``, 422 a hand that cannot be, 429 too many new games, 503 database
unreachable.

Every write is checked whole before it is stored (``engine.game.schema``: no unknown keys,
bounded values, no NaN) and acknowledged only with its answer, which is made inside the write's
transaction (``Storage.append_and_render``). A stored event that does not fit its shape (one
written before these checks) is read with the misfit parts left out, listed in the game's
``warnings``. A hand or undo sent without ``seq`` is applied to the game as it is: when another
write lands between the read and the write, the server reads again and retries, up to
:data:`RETRIES` times.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, Response
from starlette.concurrency import run_in_threadpool

from sanma_lens.api import jsonio
from sanma_lens.api.pages import PAGE_HEADERS
from sanma_lens.api.responses import JsonResponse
from sanma_lens.api.settings import Settings
from sanma_lens.api.storage import (
    Conflict,
    NotFound,
    Storage,
    StorageUnavailable,
    StoredGame,
    effective_hands,
)
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GAME_OPTION_CHOICES,
    GAME_OPTION_TYPES,
    HAND_RULES_KEY,
    GameRules,
    GameState,
    HandRecord,
    apply,
    game_rules_from_json,
    game_rules_to_json,
    new_game,
    resolve_hand,
    result_from_json,
    result_to_json,
    settle,
)
from sanma_lens.engine.game.ability import table_json as ability_table_json
from sanma_lens.engine.game.schema import EVENT_BODIES, HAND_INPUT, check, read_event_body
from sanma_lens.engine.roles import ROLE_NAMES

log = logging.getLogger("sanma.api")
router = APIRouter()

WEB = Path(__file__).parent / "web"
MAX_NAME = 40
EXPORT_FORMAT = "sanma-lens-game"
EXPORT_VERSION = 1
RETRIES = 20  # reads and writes again when another write landed first and no seq was given
STATUS_BY_CODE = {
    "bad_json": 400,
    "too_deep": 400,
    "game_over": 409,
    "nothing_to_undo": 409,
    "seq_conflict": 409,
    "too_many_events": 409,
    "event_too_large": 413,
    "unsupported_media_type": 415,
    "too_many_games": 429,
    "block_over": 409,  # api.blocks: the block has its four games
    "game_running": 409,  # api.blocks: the block's last game is not over
}

_storage: Storage | None = None


def get_storage() -> Storage:
    """The process's storage, built from the environment on first use (see api.storage)."""
    global _storage
    if _storage is None:
        _storage = Storage()
    return _storage


StorageDep = Annotated[Storage, Depends(get_storage)]


class CorruptGame(Exception):
    """A stored event no longer applies: our fault, not the caller's (500)."""


def _error(status: int, code: str, message: str, **headers: str) -> JsonResponse:
    return JsonResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers or None
    )


class TooManyGames(InputError):
    """``games_per_hour`` reached: 429 with ``Retry-After``."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("too_many_games", message)
        self.retry_after = retry_after


async def _run(fn: Any, *args: Any, status: int = 200) -> Response:
    """Run the blocking database work off the event loop and map failures to error bodies.
    ``fn`` answers JSON bytes (made inside its transaction) or a value to write as JSON."""
    try:
        answer = await run_in_threadpool(fn, *args)
    except NotFound as exc:
        return _error(404, f"{exc.what}_not_found", f"no {exc.what} with this id")
    except Conflict as exc:
        body = {"error": {"code": "seq_conflict", "message": exc.message, "seq": exc.current_seq}}
        return JsonResponse(body, status_code=409)
    except TooManyGames as exc:
        return _error(429, exc.code, exc.message, **{"Retry-After": str(exc.retry_after)})
    except InputError as exc:
        return _error(STATUS_BY_CODE.get(exc.code, 422), exc.code, exc.message)
    except StorageUnavailable as exc:
        return _error(503, "storage_unavailable", str(exc))
    except CorruptGame as exc:
        return _error(500, "corrupt_game", str(exc))
    if isinstance(answer, bytes):
        return Response(answer, status_code=status, media_type="application/json")
    return JsonResponse(answer, status_code=status)


async def _body(request: Request, required: bool) -> Any:
    """The JSON body: ``application/json`` (a form or ``text/plain`` post, which any web page
    can send without asking, is refused), strict JSON (api.jsonio), bounded in depth. Its
    size is capped while it streams in (``SANMA_MAX_JSON_KB``, api.errors)."""
    raw = await request.body()
    if not raw.strip():
        if required:
            raise InputError("bad_json", "the request needs a JSON body")
        return {}
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json" and not (
        media.startswith("application/") and media.endswith("+json")
    ):
        raise InputError(
            "unsupported_media_type", "the body must be sent as Content-Type: application/json"
        )
    return jsonio.loads_bounded(raw)


async def _with_body(
    request: Request, required: bool, fn: Any, *args: Any, status: int = 200
) -> Response:
    try:
        body = await _body(request, required)
    except InputError as exc:
        return _error(STATUS_BY_CODE.get(exc.code, 400), exc.code, exc.message)
    return await _run(fn, *args, body, status=status)


def _settings(request: Request) -> Settings:
    """The app's settings (the defaults when the router is mounted on a bare app)."""
    settings = getattr(request.app.state, "settings", None)
    return settings if isinstance(settings, Settings) else Settings()


def _client(request: Request) -> str:
    """Who creates a game, as stored: a digest of the client's address (not the address)."""
    address = request.client.host if request.client else "unknown"
    return hashlib.sha256(address.encode()).hexdigest()[:24]


# ---------------------------------------------------------------- folding stored games


def _rules_of(stored: StoredGame) -> GameRules:
    try:
        return game_rules_from_json(stored.rules)
    except InputError as exc:
        raise CorruptGame(f"stored rules do not apply: {exc.message}") from exc


def readable(stored: StoredGame) -> StoredGame:
    """The game with each event fitted to its shape (``engine.game.schema``): a field that does
    not fit (an unknown key, a NaN, nesting too deep, stored before writes were checked) is
    left out and named in ``warnings``, so that the game can be read, and so answered."""
    events, warnings = [], []
    for event in stored.events:
        body, dropped = read_event_body(event.kind, event.body, f"event {event.seq}")
        if body is None:
            raise CorruptGame(f"stored event {event.seq} cannot be read")
        warnings += [f"left out {what}" for what in dropped]
        events.append(replace(event, body=body) if dropped else event)
    if not warnings:
        return stored
    log.warning("game %s: stored events that do not fit: %s", stored.id, "; ".join(warnings))
    return replace(stored, events=tuple(events), warnings=tuple(warnings))


def fold(stored: StoredGame) -> GameState:
    """state = fold of the stored hand events still in effect."""
    state = new_game(stored.players, _rules_of(stored))
    for event in effective_hands(stored.events):
        try:
            state = apply(state, result_from_json(event.body["result"]))
        except InputError as exc:
            raise CorruptGame(f"stored event {event.seq} does not apply: {exc.message}") from exc
        except (KeyError, TypeError) as exc:
            raise CorruptGame(f"stored event {event.seq} does not apply") from exc
    return state


def _transfer_json(t: Any) -> dict[str, Any]:
    return {"from": t.payer, "to": t.receiver, "amount": t.amount, "reason": t.reason}


def _hand_json(record: HandRecord, before: tuple[int, ...], event: Any) -> dict[str, Any]:
    return {
        "number": record.number,
        "seq": event.seq,
        "round": record.round,
        "honba": record.honba,
        "dealer": record.dealer,
        "outcome": record.result.outcome.value,
        "result": result_to_json(record.result),
        "input": event.body.get("input"),
        "transfers": [_transfer_json(t) for t in record.transfers],
        "deltas": [a - b for a, b in zip(record.scores_after, before, strict=True)],
        "scores_after": list(record.scores_after),
        "deposits_after": record.deposits_after,
        "busts": [{"player": b.player, "by": b.by} for b in record.busts],
    }


def game_json(stored: StoredGame, state: GameState, seq: int | None = None) -> dict[str, Any]:
    """What the scoreboard shows: the table now, the hand log, the settlement at the end."""
    events = effective_hands(stored.events)
    hands = []
    before = state.rules.starting_scores
    for record, event in zip(state.log, events, strict=True):
        hands.append(_hand_json(record, before, event))
        before = record.scores_after
    settlement = None
    if state.finished:
        settlement = [
            {
                "player": s.player,
                "name": s.name,
                "rank": s.rank,
                "score": s.score,
                "base": s.base,
                "oka": s.oka,
                "uma": s.uma,
                "bust": s.bust,
                "bust_levels": s.bust_levels,
                "yakuman": s.yakuman,
                "total": s.total,
            }
            for s in settle(state)
        ]
    return {
        "id": stored.id,
        "created_at": stored.created_at,
        "seq": stored.seq if seq is None else seq,
        "rules": game_rules_to_json(state.rules),
        # the limit names a win may be given as at this table (ECIP: mangan and yakuman)
        "limits": [
            step.name
            for step in state.rules.hand_rules.limits + state.rules.hand_rules.named_limits
        ]
        + ["yakuman"],
        "players": [
            {
                "player": p,
                "name": state.names[p],
                "score": state.scores[p],
                "seat": state.seat_wind(p),
                "dealer": p == state.dealer,
                **({"role": state.rules.role_of(p)} if state.rules.ability else {}),
            }
            for p in range(state.players)
        ],
        "round": state.round_label,
        "round_wind": state.round_wind,
        "dealer": state.dealer,
        "honba": state.honba,
        "deposits": state.deposits,
        "hand_count": len(state.log),
        "finished": state.finished,
        "busts": [{"player": b.player, "by": b.by} for b in state.busts],
        "yakuman_prizes": [
            {"winner": p.winner, "payers": list(p.payers), "points": p.points, "reason": p.reason}
            for p in state.prizes
        ],
        "hands": hands,
        "settlement": settlement,
        "warnings": list(stored.warnings),
        # the ability block this game is part of (api.blocks): the page continues it from here
        "block": {"id": stored.block.id, "number": stored.block.number} if stored.block else None,
        **({"ability": ability_table_json(state)} if state.rules.ability else {}),
    }


# ---------------------------------------------------------------- the work behind each endpoint


def _checked_players(players: Any, rules: GameRules) -> list[str] | None:
    """The names of a new game: as many as its rules seat (3 for sanma), or none."""
    if players is not None and (
        not isinstance(players, list)
        or len(players) != rules.players
        or not all(isinstance(n, str) and len(n.strip()) <= MAX_NAME for n in players)
    ):
        raise InputError(
            "bad_players",
            f"players must be {rules.players} names of at most {MAX_NAME} characters",
        )
    return players


def _answer(stored: StoredGame) -> bytes:
    """The game JSON of ``stored``, written out: what every write answers."""
    stored = readable(stored)
    return jsonio.dumps(game_json(stored, fold(stored)))


def _check_games_per_hour(storage: Storage, settings: Settings, client: str) -> None:
    if not settings.games_per_hour:
        return
    since = datetime.now(UTC) - timedelta(hours=1)
    count, oldest = storage.games_created_since(client, since.isoformat(timespec="milliseconds"))
    if count >= settings.games_per_hour:
        frees = datetime.fromisoformat(oldest) + timedelta(hours=1) if oldest else since
        wait = max(1, int((frees - datetime.now(UTC)).total_seconds()) + 1)
        raise TooManyGames(
            f"{count} games were started from this address in the last hour (the limit is "
            f"{settings.games_per_hour}); try again in {wait} s",
            wait,
        )


def _create(storage: Storage, settings: Settings, client: str, body: Any) -> bytes:
    if not isinstance(body, dict):
        raise InputError("bad_request", "the body must be a JSON object")
    unknown = set(body) - {"players", "rules", "roles"}
    if unknown:
        raise InputError("bad_request", f"unknown field(s) {sorted(unknown)}")
    rules = game_rules_from_json(_with_roles(body.get("rules"), body.get("roles")))
    players = _checked_players(body.get("players"), rules)
    state = new_game(players, rules)
    _check_games_per_hour(storage, settings, client)
    return storage.create_and_render(
        list(state.names), game_rules_to_json(rules), (), client, _answer
    )


def _with_roles(rules: Any, roles: Any) -> Any:
    """A new game's rules with ability mahjong's ``roles`` (given beside ``rules``) in them."""
    if roles is None:
        return rules
    if rules is not None and not isinstance(rules, dict):
        return rules  # refused by game_rules_from_json
    rules = dict(rules or {})
    if "roles" in rules and rules["roles"] != roles:
        raise InputError("bad_roles", "give the roles once, beside the rules")
    rules["roles"] = roles
    return rules


def _get(storage: Storage, game_id: str) -> bytes:
    """The game as stored now."""
    return _answer(storage.load(game_id))


def _expected_seq(body: dict[str, Any], stored: StoredGame) -> int | None:
    """The ``seq`` the client says it read (checked against the game), or None if not given."""
    seq = body.pop("seq", None)
    if seq is None:
        return None
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise InputError("bad_seq", "seq must be the event number of the game you last read")
    if seq != stored.seq:
        raise Conflict(stored.seq, f"the game is at event {stored.seq}, not {seq}; reload it")
    return seq


def _check_event(settings: Settings, seq: int, kind: str, body: dict[str, Any]) -> None:
    """The event fits its shape (engine.game.schema), its size and, as event ``seq + 1``,
    the game's room."""
    check(EVENT_BODIES[kind], body, "event", code="bad_hand_result")
    size = len(jsonio.dumps(body))
    if size > settings.max_event_bytes:
        raise InputError(
            "event_too_large",
            f"the event takes {size} bytes; the limit is {settings.max_event_bytes}",
        )
    if seq >= settings.max_events_per_game:
        raise InputError(
            "too_many_events",
            f"the game holds {seq} events, the most one game may hold; start a new game",
        )


def _write(storage: Storage, settings: Settings, game_id: str, body: Any, event: Any) -> bytes:
    """Read the game, make the event with ``event(stored, body)`` and append it. With ``seq``
    the client's read must still be the game's; without, a write that landed in between
    makes the server read again and retry (up to RETRIES times)."""
    for attempt in range(RETRIES):
        stored = readable(storage.load(game_id))
        if not isinstance(body, dict):
            raise InputError("bad_hand_result", "the body must be a JSON object")
        given = dict(body)
        expected = _expected_seq(given, stored)
        kind, event_body = event(stored, given)
        _check_event(settings, stored.seq, kind, event_body)
        try:
            return storage.append_and_render(
                game_id, stored.seq if expected is None else expected, kind, event_body, _answer
            )
        except Conflict:
            if expected is not None or attempt == RETRIES - 1:
                raise
            # writers that collided wait a little, each its own time, so that they go in turn
            time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 5)))
    raise AssertionError("unreachable")


def _hand_event(stored: StoredGame, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    state = fold(stored)
    result = resolve_hand(state, body)
    apply(state, result)  # refuse it now if it cannot apply (e.g. riichi without points)
    return "hand", {"result": result_to_json(result), "input": body}


def _undo_event(stored: StoredGame, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if body:
        raise InputError("bad_request", f"unknown field(s) {sorted(body)}")
    hands = effective_hands(stored.events)
    if not hands:
        raise InputError("nothing_to_undo", "no hand has been recorded yet")
    return "undo", {"undoes": hands[-1].seq}


def _add_hand(storage: Storage, settings: Settings, game_id: str, body: Any) -> bytes:
    if not isinstance(body, dict):
        raise InputError("bad_hand_result", "a hand result must be a JSON object")
    return _write(storage, settings, game_id, body, _hand_event)


def _undo(storage: Storage, settings: Settings, game_id: str, body: Any) -> bytes:
    if not isinstance(body, dict):
        raise InputError("bad_request", "the body must be a JSON object or empty")
    return _write(storage, settings, game_id, body, _undo_event)


def _export(storage: Storage, game_id: str) -> dict[str, Any]:
    stored = readable(storage.load(game_id))
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {
            "id": stored.id,
            "created_at": stored.created_at,
            "players": stored.players,
            "rules": game_rules_to_json(_rules_of(stored)),
        },
        "events": [
            {"seq": e.seq, "kind": e.kind, "at": e.created_at, **e.body} for e in stored.events
        ],
        "state": game_json(stored, fold(stored)),
    }


def _import(storage: Storage, settings: Settings, client: str, body: Any) -> bytes:
    """Recreate an exported game under a new id; every event is checked by folding it."""
    if not isinstance(body, dict) or body.get("format") != EXPORT_FORMAT:
        raise InputError("bad_import", f"expected an export with format {EXPORT_FORMAT!r}")
    if body.get("version") != EXPORT_VERSION:
        raise InputError("bad_import", f"unsupported export version {body.get('version')!r}")
    meta, events = body.get("game"), body.get("events")
    if not isinstance(meta, dict) or not isinstance(events, list):
        raise InputError("bad_import", "an export has a game object and an events list")
    rules = game_rules_from_json(meta.get("rules"))
    start = new_game(_checked_players(meta.get("players"), rules), rules)
    records: list[tuple[str, dict[str, Any]]] = []
    in_effect: list[tuple[int, GameState]] = []  # (event number, the game after that hand)
    for n, event in enumerate(events, start=1):
        if not isinstance(event, dict) or event.get("kind") not in ("hand", "undo"):
            raise InputError("bad_import", f"event {n} is not a hand or an undo")
        if event["kind"] == "hand":
            result = result_from_json(event.get("result"))
            state = in_effect[-1][1] if in_effect else start
            in_effect.append((n, apply(state, result)))
            if event.get("input") is not None:
                check(HAND_INPUT, event["input"], f"event {n}.input", code="bad_import")
            body_out = {"result": result_to_json(result), "input": event.get("input")}
        else:
            if not in_effect:
                raise InputError("bad_import", f"event {n} undoes nothing")
            body_out = {"undoes": in_effect.pop()[0]}
        records.append((event["kind"], body_out))
    if len(records) > settings.max_events_per_game:
        raise InputError(
            "too_many_events", f"an export of more than {settings.max_events_per_game} events"
        )
    for seq, (kind, body_out) in enumerate(records):
        _check_event(settings, seq, kind, body_out)
    _check_games_per_hour(storage, settings, client)
    return storage.create_and_render(
        list(start.names), game_rules_to_json(rules), records, client, _answer
    )


# ---------------------------------------------------------------- routes


def _json_body(schema: dict[str, Any], required: bool) -> dict[str, Any]:
    """OpenAPI description of a JSON body read by hand (the endpoints parse it themselves)."""
    return {
        "requestBody": {
            "required": required,
            "content": {"application/json": {"schema": schema}},
        }
    }


_PLAYER = {"type": "integer", "minimum": 0, "maximum": 3}
_JSON_TYPES = {bool: "boolean", int: "integer", str: "string"}
_PLAYERS = {"type": "array", "items": _PLAYER}
NEW_GAME_SCHEMA = {
    "type": "object",
    "properties": {
        "players": {
            "type": "array",
            "items": {"type": "string", "maxLength": MAX_NAME},
            "minItems": 3,
            "maxItems": 4,
            "description": "one name per seat: 3 for sanma-1.3, 4 for ecip and standard",
        },
        "roles": {
            "type": "array",
            "items": {"type": "string", "enum": list(ROLE_NAMES)},
            "description": "ability mahjong (rules.ability): each player's role, in player order",
        },
        "rules": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "roles": {"type": "array", "items": {"type": "string", "enum": list(ROLE_NAMES)}},
                "byakko_silent_before": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0},
                    "description": "ability mahjong: each player's hands without a byakko "
                    "declaration carried in from the block's hanchan before (set by a block)",
                },
                **{
                    key: (
                        {"type": "string", "enum": list(GAME_OPTION_CHOICES[key])}
                        if key in GAME_OPTION_CHOICES
                        else {"type": _JSON_TYPES[want]}
                    )
                    for key, want in GAME_OPTION_TYPES.items()
                },
                HAND_RULES_KEY: {
                    "type": "object",
                    "description": "engine rule options, as a hand JSON's rules (the preset's)",
                },
            },
        },
    },
}
HAND_SCHEMA = {
    "type": "object",
    "required": ["outcome"],
    "properties": {
        "seq": {"type": "integer", "minimum": 0},
        "outcome": {"type": "string", "enum": ["ron", "tsumo", "draw", "chombo", "abortive"]},
        "discarder": _PLAYER,
        "wins": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["winner"],
                "properties": {
                    "winner": _PLAYER,
                    "han": {"type": "integer", "minimum": 1},
                    "fu": {"type": "integer"},
                    "limit": {
                        "type": "string",
                        "enum": ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"],
                    },
                    "yakuman_multiple": {"type": "integer", "minimum": 1},
                    "hand": {"type": "object", "description": "hand JSON (docs/api.md)"},
                    "closed": {
                        "type": "boolean",
                        "description": "a closed (門前) win: ECIP gives the deposits only to one",
                    },
                    "pao": {**_PLAYER, "description": "ECIP 包: who pays a fed yakuman tsumo"},
                    "seiryuu_han": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "ability mahjong, a seiryuu's win as han/fu or a "
                        "limit: the han its role-only indicators added",
                    },
                },
            },
        },
        "tenpai": _PLAYERS,
        "nagashi": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"player": _PLAYER, "double_riichi": {"type": "boolean"}},
            },
        },
        "noten_riichi": _PLAYERS,
        "offenders": _PLAYERS,
        "riichi": _PLAYERS,
        "mis_calls": _PLAYERS,
        "manemann": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "copier": _PLAYER,
                    "copied": _PLAYER,
                    "turns": {"type": "integer", "minimum": 5},
                },
            },
        },
        "aka5man": {"anyOf": [_PLAYER, {"type": "null"}]},
        "byakko_declared": {
            **_PLAYERS,
            "description": "ability mahjong: the byakko players who declared before the deal",
        },
        "kanpa": {
            "type": "array",
            "description": "ability mahjong: the genbu's kanpa declarations, in order",
            "items": {
                "type": "object",
                "required": ["by", "target", "tile"],
                "properties": {
                    "by": _PLAYER,
                    "target": _PLAYER,
                    "tile": {"type": "string"},
                    "discarder": _PLAYER,
                    "at_once": {"type": "boolean"},
                },
            },
        },
    },
}
UNDO_SCHEMA = {"type": "object", "properties": {"seq": {"type": "integer", "minimum": 0}}}


@router.post(
    "/v1/games",
    status_code=201,
    tags=["games"],
    openapi_extra=_json_body(NEW_GAME_SCHEMA, required=False),
)
async def create_game(request: Request, storage: StorageDep) -> Response:
    """Start a hanchan: E1, 30,000 each; names and rule options optional."""
    return await _with_body(
        request, False, _create, storage, _settings(request), _client(request), status=201
    )


@router.post(
    "/v1/games/import",
    status_code=201,
    tags=["games"],
    openapi_extra=_json_body({"type": "object", "description": "an export"}, required=True),
)
async def import_game(request: Request, storage: StorageDep) -> Response:
    """Recreate an exported game (GET …/export) under a new id."""
    return await _with_body(
        request, True, _import, storage, _settings(request), _client(request), status=201
    )


@router.get("/v1/games/{game_id}", tags=["games"])
async def get_game(game_id: str, storage: StorageDep) -> Response:
    """The table now, the hand log and, when the game is over, the settlement; ``block``: the
    ability block the game is part of (``{"id", "number"}``, see /v1/blocks) or null."""
    return await _run(_get, storage, game_id)


@router.post(
    "/v1/games/{game_id}/hands", tags=["games"], openapi_extra=_json_body(HAND_SCHEMA, True)
)
async def add_hand(game_id: str, request: Request, storage: StorageDep) -> Response:
    """Record how a hand ended (ron, tsumo, draw, chombo); the game after it."""
    return await _with_body(request, True, _add_hand, storage, _settings(request), game_id)


@router.post(
    "/v1/games/{game_id}/undo", tags=["games"], openapi_extra=_json_body(UNDO_SCHEMA, False)
)
async def undo_hand(game_id: str, request: Request, storage: StorageDep) -> Response:
    """Cancel the last recorded hand (kept in the history as an undo event)."""
    return await _with_body(request, False, _undo, storage, _settings(request), game_id)


@router.get("/v1/games/{game_id}/export", tags=["games"])
async def export_game(game_id: str, storage: StorageDep) -> Response:
    """Every event and the resulting game as a downloadable JSON file."""
    response = await _run(_export, storage, game_id)
    if response.status_code == 200:
        response.headers["content-disposition"] = (
            f'attachment; filename="sanma-game-{game_id}.json"'
        )
    return response


def _static(name: str, media_type: str) -> Any:
    headers = PAGE_HEADERS if media_type.startswith("text/html") else None

    async def serve() -> Response:
        return FileResponse(WEB / name, media_type=media_type, headers=headers)

    return serve


router.add_api_route(
    "/game.html", _static("game.html", "text/html; charset=utf-8"), include_in_schema=False
)
router.add_api_route(
    "/game.js", _static("game.js", "text/javascript; charset=utf-8"), include_in_schema=False
)
router.add_api_route(
    "/game.css", _static("game.css", "text/css; charset=utf-8"), include_in_schema=False
)
