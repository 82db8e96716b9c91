"""api.storage on SQLite and (when available) PostgreSQL: migrations, events, transactions."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from sanma_lens.api.storage import (
    MIGRATIONS,
    Conflict,
    NotFound,
    Storage,
    StoredEvent,
    database_url_from_env,
    effective_hands,
)
from sanma_lens.engine.errors import InputError

LATEST = MIGRATIONS[-1][0]


def test_migrations_applied_in_order_and_recorded(storage):
    assert storage.migrate() == LATEST
    assert storage.schema_version() == LATEST
    # a second process on the same database applies nothing again
    assert Storage(storage.url).migrate() == LATEST


def test_old_database_is_migrated_forward_keeping_its_games(db_url, monkeypatch):
    import sanma_lens.api.storage as storage_module

    monkeypatch.setattr(storage_module, "MIGRATIONS", MIGRATIONS[:1])
    old = Storage(db_url)
    # version 1 has no updated_at column, so write the old row by hand
    with old._transaction() as cur:
        cur.execute(
            "INSERT INTO games (id, created_at, players, rules, seq) VALUES (?, ?, ?, ?, 0)",
            ("a" * 32, "2026-01-01T00:00:00Z", '["A","B","C"]', "{}"),
        )
    assert old.schema_version() == 1
    monkeypatch.setattr(storage_module, "MIGRATIONS", MIGRATIONS)
    new = Storage(db_url)
    assert new.migrate() == LATEST
    game = new.load("a" * 32)
    assert game.players == ["A", "B", "C"] and game.updated_at is None


def test_create_append_load_round_trip(storage):
    game_id = storage.create_game(["東", "南", "西"], {"aka_5man": True})
    assert storage.append(game_id, 0, "hand", {"result": {"outcome": "draw"}}) == 1
    assert storage.append(game_id, 1, "undo", {"undoes": 1}) == 2
    game = storage.load(game_id)
    assert game.players == ["東", "南", "西"] and game.rules == {"aka_5man": True}
    assert game.seq == 2
    assert [(e.seq, e.kind, e.body) for e in game.events] == [
        (1, "hand", {"result": {"outcome": "draw"}}),
        (2, "undo", {"undoes": 1}),
    ]


def test_stale_sequence_number_is_a_conflict(storage):
    game_id = storage.create_game(["A", "B", "C"], {})
    storage.append(game_id, 0, "hand", {"n": 1})
    with pytest.raises(Conflict) as err:
        storage.append(game_id, 0, "hand", {"n": 2})
    assert err.value.current_seq == 1
    assert [e.body for e in storage.load(game_id).events] == [{"n": 1}]


def test_concurrent_writers_on_one_sequence_number_only_one_wins(storage):
    game_id = storage.create_game(["A", "B", "C"], {})
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def write(n: int) -> None:
        barrier.wait()
        try:
            storage.append(game_id, 0, "hand", {"n": n})
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 3 + ["ok"]
    assert len(storage.load(game_id).events) == 1


def test_failure_inside_the_transaction_records_nothing(storage):
    # The body cannot be serialised: the sequence bump already ran in the same transaction and
    # must be rolled back with it (a hand is recorded whole or not at all).
    game_id = storage.create_game(["A", "B", "C"], {})
    with pytest.raises(TypeError):
        storage.append(game_id, 0, "hand", {"bad": object()})
    game = storage.load(game_id)
    assert game.seq == 0 and game.events == ()
    assert storage.append(game_id, 0, "hand", {"n": 1}) == 1


def test_unknown_game_is_not_found(storage):
    with pytest.raises(NotFound):
        storage.load("0" * 32)
    with pytest.raises(NotFound):
        storage.load("../../etc/passwd")
    with pytest.raises(NotFound):
        storage.append("f" * 32, 0, "hand", {})


def test_connections_are_reused_between_transactions(storage, monkeypatch):
    game_id = storage.create_game(["A", "B", "C"], {})
    opened = []
    connect = storage._connect
    monkeypatch.setattr(storage, "_connect", lambda: opened.append(1) or connect())
    for seq in range(5):
        storage.append(game_id, storage.load(game_id).seq, "hand", {"n": seq})
    with pytest.raises(Conflict):  # a refused write gives its connection back too
        storage.append(game_id, 0, "hand", {})
    assert storage.load(game_id).seq == 5
    assert opened == []


def test_a_dropped_idle_connection_is_replaced(storage):
    game_id = storage.create_game(["A", "B", "C"], {})
    (idle,) = storage._idle
    if storage.backend == "postgresql":  # the server ends the session (restart, idle timeout)
        import psycopg

        with psycopg.connect(storage.url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (idle.info.backend_pid,))
    else:
        idle.close()
    assert storage.append(game_id, 0, "hand", {"n": 1}) == 1
    assert storage.load(game_id).seq == 1


def test_data_survives_a_new_connection(storage):
    game_id = storage.create_game(["A", "B", "C"], {})
    storage.append(game_id, 0, "hand", {"n": 1})
    again = Storage(storage.url)
    assert again.load(game_id).seq == 1


def test_default_location_follows_env(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SANMA_DB_PATH", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    url = database_url_from_env()
    assert url == "sqlite:///" + str(tmp_path / "xdg" / "sanma-lens" / "games.sqlite3")
    Storage().create_game(["A", "B", "C"], {})
    assert Path(url[len("sqlite:///") :]).exists()
    monkeypatch.setenv("SANMA_DB_PATH", str(tmp_path / "mine.sqlite3"))
    assert database_url_from_env() == "sqlite:///" + str(tmp_path / "mine.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/db")
    assert Storage().backend == "postgresql"


def test_unsupported_database_url_is_refused():
    with pytest.raises(ValueError):
        Storage("mysql://x")


def _ev(seq: int, kind: str) -> StoredEvent:
    return StoredEvent(seq, kind, {}, "")


def test_undo_events_cancel_the_latest_hand_in_effect():
    events = [
        _ev(1, "hand"),
        _ev(2, "hand"),
        _ev(3, "undo"),
        _ev(4, "hand"),
        _ev(5, "undo"),
        _ev(6, "undo"),
        _ev(7, "hand"),
    ]
    assert [e.seq for e in effective_hands(events)] == [7]
    with pytest.raises(InputError):
        effective_hands([_ev(1, "undo")])


CRASH_SCRIPT = """
import os, sys
from sanma_lens.api import storage as s

url, game_id = sys.argv[1], sys.argv[2]
real = s._Cursor.execute

def execute(self, statement, params=()):
    real(self, statement, params)
    if statement.startswith("UPDATE games"):
        os._exit(9)  # the server dies mid-request: no commit, no rollback, no clean-up

s._Cursor.execute = execute
s.Storage(url).append(game_id, 1, "hand", {"n": 2})
"""


def test_server_killed_mid_request_loses_nothing_and_records_nothing(storage):
    import subprocess
    import sys

    game_id = storage.create_game(["A", "B", "C"], {})
    storage.append(game_id, 0, "hand", {"n": 1})
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-c", CRASH_SCRIPT, storage.url, game_id],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert proc.returncode == 9
    game = storage.load(game_id)
    assert game.seq == 1 and [e.body for e in game.events] == [{"n": 1}]
    assert storage.append(game_id, 1, "hand", {"n": 2}) == 2  # the game goes on
