"""Storage back-ends for the game tests: SQLite in a temporary folder always, PostgreSQL when
``SANMA_TEST_DATABASE_URL`` names a server (scripts/test starts a throw-away one). Each
PostgreSQL test gets its own schema, so migrations run from scratch."""

from __future__ import annotations

import os
import uuid

import pytest

from sanma_lens.api.storage import Storage

PG_URL = os.environ.get("SANMA_TEST_DATABASE_URL", "").strip()
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _pg_schema_url(schema: str) -> str:
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A database URL of an empty database on each back-end."""
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "games.sqlite3")
        return
    if not PG_URL:
        pytest.skip("SANMA_TEST_DATABASE_URL is not set (no PostgreSQL server)")
    import psycopg

    schema = "sanma_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield _pg_schema_url(schema)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def storage(db_url):
    store = Storage(db_url)
    yield store
    store.close()
