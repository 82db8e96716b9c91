"""Games kept in a real database: SQLite by default, PostgreSQL through the same code.

Where the data lives (first that is set):

1. ``DATABASE_URL`` — ``postgresql://user@host:port/db`` (psycopg 3) or ``sqlite:///path``;
2. ``SANMA_DB_PATH`` — a SQLite file;
3. ``$XDG_DATA_HOME/sanma-lens/games.sqlite3`` (``~/.local/share/...`` when unset).

Nothing to set up: the schema is created and migrated on first use (a versioned list of
migrations applied in order, recorded in ``schema_version``).

A game is its rows in ``games`` plus an append-only list of ``events`` (JSON): ``hand`` events
carry the resolved hand result, ``undo`` events cancel the latest hand still in effect; the
state is the fold of the events (``engine.game``). Every write is one transaction guarded by
the game's event sequence number (optimistic concurrency): it succeeds only if nobody wrote
since the caller read ``seq``, so a hand is recorded whole or not at all, exactly once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sqlite3
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sanma_lens.engine.errors import InputError

log = logging.getLogger("sanma.api")

# Each migration: (version, statements). Append new ones; never edit an applied one.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE games (
                id TEXT PRIMARY KEY,
                created_at TEXT NOT NULL,
                players TEXT NOT NULL,
                rules TEXT NOT NULL,
                seq INTEGER NOT NULL DEFAULT 0
            )""",
            """CREATE TABLE events (
                game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                kind TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            )""",
        ),
    ),
    (2, ("ALTER TABLE games ADD COLUMN updated_at TEXT",)),
    (
        3,
        (
            # who created the game (a digest of the client's address), to count games per hour
            "ALTER TABLE games ADD COLUMN client TEXT",
            "CREATE INDEX games_by_client ON games (client, created_at)",
        ),
    ),
    # photos players chose to keep with their corrected tiles (api/corrections.py); BYTEA is
    # PostgreSQL's byte string and a type SQLite stores bytes under as they are
    (
        4,
        (
            """CREATE TABLE kept_photos (
                id TEXT PRIMARY KEY,
                kept_at TEXT NOT NULL,
                image BYTEA NOT NULL,
                kind TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                tiles TEXT NOT NULL
            )""",
        ),
    ),
    (
        5,
        (
            # ability mahjong's blocks (api.blocks): four games with fixed roles; ``games``
            # counts them, guarding the next one's number as ``seq`` guards a game's events
            """CREATE TABLE blocks (
                id TEXT PRIMARY KEY,
                created_at TEXT NOT NULL,
                players TEXT NOT NULL,
                roles TEXT NOT NULL,
                rules TEXT NOT NULL,
                chooses_first TEXT NOT NULL,
                games INTEGER NOT NULL DEFAULT 0
            )""",
            """CREATE TABLE block_games (
                block_id TEXT NOT NULL REFERENCES blocks(id) ON DELETE CASCADE,
                number INTEGER NOT NULL,
                game_id TEXT NOT NULL REFERENCES games(id),
                PRIMARY KEY (block_id, number)
            )""",
        ),
    ),
    # a game names its block (api.games: the scoreboard continues a block from any of its games)
    (6, ("CREATE INDEX block_games_by_game ON block_games (game_id)",)),
)

GAME_ID = re.compile(r"^[0-9a-f]{32}$")
T = TypeVar("T")


class Conflict(Exception):
    """The game changed since the caller read it (``seq`` mismatch): HTTP 409."""

    def __init__(self, current_seq: int, message: str) -> None:
        super().__init__(message)
        self.current_seq = current_seq
        self.message = message


class NotFound(Exception):
    """No game (or block, ``what``) with this id: HTTP 404."""

    def __init__(self, key: object, what: str = "game") -> None:
        super().__init__(key)
        self.what = what


class StorageUnavailable(Exception):
    """The database cannot be reached: HTTP 503."""


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    kind: str  # "hand" | "undo"
    body: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class GameBlock:
    """Where a game sits in an ability block: the block's id and the game's number (1–4)."""

    id: str
    number: int


@dataclass(frozen=True)
class StoredGame:
    id: str
    created_at: str
    updated_at: str | None
    players: list[str]
    rules: dict[str, Any]
    seq: int
    events: tuple[StoredEvent, ...]
    #: what was left out of stored events that no longer fit their shape (api.games)
    warnings: tuple[str, ...] = ()
    #: the ability block the game belongs to and its number there (api.blocks), or None
    block: GameBlock | None = None


class _Connection(Protocol):
    def cursor(self) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


def default_sqlite_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sanma-lens" / "games.sqlite3"


def database_url_from_env() -> str:
    """``DATABASE_URL``, else ``sqlite:///`` + ``SANMA_DB_PATH`` or the default path."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        return url
    path = os.environ.get("SANMA_DB_PATH", "").strip() or str(default_sqlite_path())
    return "sqlite:///" + path


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Storage:
    """Plain DB-API access to the games database (sqlite3 or psycopg 3), ``?`` placeholders."""

    def __init__(self, url: str | None = None, pool_size: int = 4) -> None:
        self.url = url or database_url_from_env()
        if self.url.startswith(("postgresql://", "postgres://")):
            self.backend = "postgresql"
        elif self.url.startswith("sqlite:///"):
            self.backend = "sqlite"
            self.path = Path(self.url[len("sqlite:///") :])
        else:
            raise ValueError("DATABASE_URL must start with postgresql:// or sqlite:///")
        self._migrated = False
        self._lock = threading.Lock()
        # Opening a connection costs more than most of our transactions (a PostgreSQL login,
        # or SQLite's file and pragmas), so a few idle ones are kept for the next request.
        self._idle: deque[_Connection] = deque()
        self._pool_size = pool_size

    # ------------------------------------------------------------ connections and the shim

    def _connect(self) -> _Connection:
        if self.backend == "sqlite":
            return _connect_sqlite(self.path)
        return _connect_postgres(self.url)

    def _checkout(self) -> _Connection:
        """An idle connection still open, or a new one."""
        while True:
            try:
                conn = self._idle.pop()
            except IndexError:
                return self._connect()
            if _alive(conn):
                return conn
            _close_quietly(conn)

    def _checkin(self, conn: _Connection, reusable: bool) -> None:
        if reusable and len(self._idle) < self._pool_size:
            self._idle.append(conn)
        else:
            _close_quietly(conn)

    def close(self) -> None:
        """Close the idle connections (those in use close when their transaction ends)."""
        while self._idle:
            _close_quietly(self._idle.pop())

    def _sql(self, statement: str) -> str:
        """The paramstyle shim: queries are written with ``?``; psycopg wants ``%s``."""
        return statement.replace("?", "%s") if self.backend == "postgresql" else statement

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[_Cursor]:
        """One transaction: commit when the block ends, roll back on any exception."""
        self._ensure_schema()
        conn = self._checkout()
        reusable = False
        try:
            cur = conn.cursor()
            if self.backend == "sqlite":
                # a writer takes the write lock at once; a reader gets one consistent snapshot
                cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield _Cursor(cur, self._sql)
            conn.commit()
            reusable = True
        except BaseException as exc:
            reusable = _rolled_back(conn)
            if _lost_database(exc):
                log.warning("database error: %s", exc)
                raise StorageUnavailable(
                    "the game database cannot be reached; try again later"
                ) from exc
            raise
        finally:
            self._checkin(conn, reusable)

    def transaction(self, write: bool = True) -> contextlib.AbstractContextManager[_Cursor]:
        """One transaction for another store in this database (api/corrections.py): a cursor
        taking ``?`` placeholders, committed when the block ends, rolled back on an error."""
        return self._transaction(write)

    # ------------------------------------------------------------ migrations

    def _ensure_schema(self) -> None:
        if self._migrated:
            return
        with self._lock:
            if not self._migrated:
                self.migrate()
                self._migrated = True

    def migrate(self) -> int:
        """Apply every migration newer than the database's version; returns the version."""
        conn = self._connect()
        try:
            cur = conn.cursor()
            if self.backend == "sqlite":
                cur.execute("BEGIN IMMEDIATE")
            else:
                cur.execute("SELECT pg_advisory_xact_lock(727274)")  # one migrator at a time
            cur.execute(
                "CREATE TABLE IF NOT EXISTS schema_version "
                "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            cur.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            current = int(cur.fetchone()[0])
            for version, statements in MIGRATIONS:
                if version <= current:
                    continue
                for statement in statements:
                    cur.execute(statement)
                cur.execute(
                    self._sql("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"),
                    (version, now()),
                )
                current = version
            conn.commit()
            return current
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    def schema_version(self) -> int:
        with self._transaction(write=False) as cur:
            cur.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            return int(cur.fetchone()[0])

    # ------------------------------------------------------------ games and events

    def create_game(
        self,
        players: Sequence[str],
        rules: dict[str, Any],
        events: Sequence[tuple[str, dict[str, Any]]] = (),
        client: str | None = None,
    ) -> str:
        """A new game, with ``events`` (kind, body) already recorded (an import): one
        transaction, so an imported game exists whole or not at all. ``client`` is kept
        to count the games a client creates (:meth:`games_created_since`)."""
        return self.create_and_render(players, rules, events, client, lambda game: game.id)

    def create_and_render(
        self,
        players: Sequence[str],
        rules: dict[str, Any],
        events: Sequence[tuple[str, dict[str, Any]]],
        client: str | None,
        render: Callable[[StoredGame], T],
    ) -> T:
        """:meth:`create_game`, answering ``render`` of the new game: called inside the
        transaction, so a game whose answer cannot be made is not kept (it raised)."""
        game_id = uuid.uuid4().hex
        stamp = now()
        with self._transaction() as cur:
            cur.execute(
                "INSERT INTO games (id, created_at, updated_at, players, rules, seq, client) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, stamp, stamp, _dumps(list(players)), _dumps(rules), len(events), client),
            )
            for seq, (kind, body) in enumerate(events, start=1):
                _insert_event(cur, game_id, seq, kind, body, stamp)
            return render(_read_game(cur, game_id))

    def games_created_since(self, client: str, since: str) -> tuple[int, str | None]:
        """How many games ``client`` created at ``since`` (an ISO time) or later, and when
        the oldest of them was created."""
        with self._transaction(write=False) as cur:
            cur.execute(
                "SELECT COUNT(*), MIN(created_at) FROM games WHERE client = ? AND created_at >= ?",
                (client, since),
            )
            count, oldest = cur.fetchone()
        return int(count), oldest

    def load(self, game_id: str) -> StoredGame:
        """The game and its events; ``seq`` is that of the last event read (0 for none)."""
        _check_id(game_id)
        with self._transaction(write=False) as cur:
            return _read_game(cur, game_id)

    def append(self, game_id: str, expected_seq: int, kind: str, body: dict[str, Any]) -> int:
        """Record one event if the game is still at ``expected_seq``; returns the new seq.

        The sequence bump and the event row are one transaction: both or neither.
        """
        return self.append_and_render(game_id, expected_seq, kind, body, lambda game: game.seq)

    def append_and_render(
        self,
        game_id: str,
        expected_seq: int,
        kind: str,
        body: dict[str, Any],
        render: Callable[[StoredGame], T],
    ) -> T:
        """:meth:`append`, answering ``render`` of the game with the new event: called inside
        the transaction, so an event whose answer cannot be made is not kept (it raised). A
        write is acknowledged only with its answer, so a client never sees a failure for a
        write that was saved (and records the hand again)."""
        _check_id(game_id)
        new_seq = expected_seq + 1
        with self._transaction() as cur:
            cur.execute(
                "UPDATE games SET seq = ?, updated_at = ? WHERE id = ? AND seq = ?",
                (new_seq, now(), game_id, expected_seq),
            )
            if cur.rowcount != 1:
                cur.execute("SELECT seq FROM games WHERE id = ?", (game_id,))
                row = cur.fetchone()
                if row is None:
                    raise NotFound(game_id)
                raise Conflict(
                    int(row[0]),
                    f"the game changed (it is at event {row[0]}, not {expected_seq}); "
                    "reload and try again",
                )
            _insert_event(cur, game_id, new_seq, kind, body, now())
            return render(_read_game(cur, game_id))

    def delete_game(self, game_id: str) -> None:
        _check_id(game_id)
        with self._transaction() as cur:
            cur.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            cur.execute("DELETE FROM games WHERE id = ?", (game_id,))
            if cur.rowcount != 1:
                raise NotFound(game_id)

    # ------------------------------------------------------------ blocks (ability mahjong)

    def create_block(
        self,
        players: Sequence[str],
        roles: Sequence[str],
        rules: dict[str, Any],
        chooses_first: str,
        first_game_rules: dict[str, Any],
        client: str | None = None,
    ) -> str:
        """A new block and its first game, in one transaction."""
        block_id = uuid.uuid4().hex
        game_id = uuid.uuid4().hex
        stamp = now()
        with self._transaction() as cur:
            _insert_game(cur, game_id, stamp, players, first_game_rules, client)
            cur.execute(
                "INSERT INTO blocks (id, created_at, players, roles, rules, chooses_first, games) "
                "VALUES (?, ?, ?, ?, ?, ?, 1)",
                (
                    block_id,
                    stamp,
                    _dumps(list(players)),
                    _dumps(list(roles)),
                    _dumps(rules),
                    chooses_first,
                ),
            )
            cur.execute(
                "INSERT INTO block_games (block_id, number, game_id) VALUES (?, 1, ?)",
                (block_id, game_id),
            )
        return block_id

    def load_block(self, block_id: str) -> StoredBlock:
        """The block and its games' ids in order."""
        if not isinstance(block_id, str) or not GAME_ID.match(block_id):
            raise NotFound(block_id, "block")
        with self._transaction(write=False) as cur:
            cur.execute(
                "SELECT id, created_at, players, roles, rules, chooses_first FROM blocks "
                "WHERE id = ?",
                (block_id,),
            )
            row = cur.fetchone()
            if row is None:
                raise NotFound(block_id, "block")
            cur.execute(
                "SELECT game_id FROM block_games WHERE block_id = ? ORDER BY number", (block_id,)
            )
            games = tuple(str(g) for (g,) in cur.fetchall())
        return StoredBlock(
            id=row[0],
            created_at=row[1],
            players=json.loads(row[2]),
            roles=json.loads(row[3]),
            rules=json.loads(row[4]),
            chooses_first=row[5],
            games=games,
        )

    def add_block_game(
        self,
        block_id: str,
        expected_games: int,
        players: Sequence[str],
        rules: dict[str, Any],
        client: str | None = None,
    ) -> str:
        """The block's next game, if the block still has ``expected_games`` games (else
        Conflict: another device added one); one transaction."""
        game_id = uuid.uuid4().hex
        number = expected_games + 1
        with self._transaction() as cur:
            cur.execute(
                "UPDATE blocks SET games = ? WHERE id = ? AND games = ?",
                (number, block_id, expected_games),
            )
            if cur.rowcount != 1:
                cur.execute("SELECT games FROM blocks WHERE id = ?", (block_id,))
                row = cur.fetchone()
                if row is None:
                    raise NotFound(block_id, "block")
                raise Conflict(int(row[0]), "the block changed (another game was added); reload")
            _insert_game(cur, game_id, now(), players, rules, client)
            cur.execute(
                "INSERT INTO block_games (block_id, number, game_id) VALUES (?, ?, ?)",
                (block_id, number, game_id),
            )
        return game_id


@dataclass(frozen=True)
class StoredBlock:
    """A block of ability mahjong (api.blocks): its players (the first game's seat order),
    their roles, the game options, who chose a role first, and its games' ids in order."""

    id: str
    created_at: str
    players: list[str]
    roles: list[str]
    rules: dict[str, Any]
    chooses_first: str
    games: tuple[str, ...]


def _read_game(cur: _Cursor, game_id: str) -> StoredGame:
    cur.execute(
        "SELECT id, created_at, updated_at, players, rules, seq FROM games WHERE id = ?",
        (game_id,),
    )
    row = cur.fetchone()
    if row is None:
        raise NotFound(game_id)
    cur.execute(
        "SELECT seq, kind, body, created_at FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    # json.loads, not the strict reader: rows written before values were checked may hold a
    # NaN, which api.games drops with a warning rather than lose the game
    events = tuple(
        StoredEvent(int(s), str(k), json.loads(b), str(c)) for s, k, b, c in cur.fetchall()
    )
    cur.execute("SELECT block_id, number FROM block_games WHERE game_id = ?", (game_id,))
    in_block = cur.fetchone()
    return StoredGame(
        id=row[0],
        created_at=row[1],
        updated_at=row[2],
        players=json.loads(row[3]),
        rules=json.loads(row[4]),
        seq=events[-1].seq if events else 0,
        events=events,
        block=GameBlock(str(in_block[0]), int(in_block[1])) if in_block else None,
    )


def _connect_sqlite(path: Path) -> _Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    # pooled connections move between the server's worker threads, one thread at a time
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def _connect_postgres(url: str) -> _Connection:
    import psycopg

    try:
        return psycopg.connect(url, connect_timeout=10)
    except psycopg.OperationalError as exc:
        # the server's address and the driver's words go to the log, not to the client
        log.warning("cannot reach the database: %s", exc)
        raise StorageUnavailable("the game database cannot be reached; try again later") from exc


def _alive(conn: _Connection) -> bool:
    """Whether an idle connection can still be used. A SQLite file is ours alone: only a
    closed connection is dead (asking raises). A PostgreSQL server that restarted or dropped
    the session is only noticed by talking to it, so it gets one cheap query."""
    if isinstance(conn, sqlite3.Connection):
        try:
            return not conn.in_transaction
        except sqlite3.ProgrammingError:
            return False
    if getattr(conn, "closed", False) or getattr(conn, "broken", False):
        return False
    try:
        cur = conn.cursor()
        cur.execute("SELECT 1")  # on PostgreSQL this opens the transaction the caller goes on with
        cur.fetchone()
    except Exception:
        return False
    return True


def _lost_database(exc: BaseException) -> bool:
    """The database went away or is locked (psycopg's or sqlite3's OperationalError), as
    opposed to a mistake in what was asked."""
    if isinstance(exc, sqlite3.OperationalError):
        return any(w in str(exc) for w in ("locked", "busy", "unable to open", "disk"))
    return type(exc).__name__ == "OperationalError" and type(exc).__module__.startswith("psycopg")


def _rolled_back(conn: _Connection) -> bool:
    """Roll back; whether the connection came through it fit to be used again."""
    try:
        conn.rollback()
    except Exception:
        return False
    return True


def _close_quietly(conn: _Connection) -> None:
    # an already broken connection has nothing left to close
    with contextlib.suppress(Exception):
        conn.close()


class _Cursor:
    """A DB-API cursor whose ``execute`` takes ``?`` placeholders on either backend."""

    def __init__(self, cursor: Any, sql: Callable[[str], str]) -> None:
        self._cursor = cursor
        self._sql = sql

    def execute(self, statement: str, params: Sequence[Any] = ()) -> None:
        self._cursor.execute(self._sql(statement), tuple(params))

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self._cursor.fetchall())

    @property
    def rowcount(self) -> int:
        return int(self._cursor.rowcount)


def _insert_game(
    cur: _Cursor,
    game_id: str,
    stamp: str,
    players: Sequence[str],
    rules: dict[str, Any],
    client: str | None,
) -> None:
    """A game's row without events (a block's game)."""
    cur.execute(
        "INSERT INTO games (id, created_at, updated_at, players, rules, seq, client) "
        "VALUES (?, ?, ?, ?, ?, 0, ?)",
        (game_id, stamp, stamp, _dumps(list(players)), _dumps(rules), client),
    )


def _insert_event(cur: _Cursor, game_id: str, seq: int, kind: str, body: Any, stamp: str) -> None:
    cur.execute(
        "INSERT INTO events (game_id, seq, kind, body, created_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, seq, kind, _dumps(body), stamp),
    )


def _dumps(obj: Any) -> str:
    """Strict JSON (``allow_nan=False``): a value that could not be read back is an error
    before the transaction commits, never a row that breaks every later read."""
    try:
        return json.dumps(
            obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
        )
    except (ValueError, RecursionError) as exc:  # NaN, Infinity; nesting past the stack
        raise InputError("bad_event", "a value cannot be stored as JSON") from exc


def _check_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not GAME_ID.match(game_id):
        raise NotFound(game_id)


def effective_hands(events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The hand events still in effect: each ``undo`` cancels the latest one before it."""
    stack: list[StoredEvent] = []
    for event in events:
        if event.kind == "hand":
            stack.append(event)
        elif event.kind == "undo":
            if not stack:
                raise InputError("corrupt_game", f"undo event {event.seq} has nothing to undo")
            stack.pop()
        else:
            raise InputError("corrupt_game", f"unknown event kind {event.kind!r}")
    return stack
