"""Our own generators against every JSON endpoint: hostile JSON (deep nesting, huge integers,
NaN and Infinity spelled out, unknown keys in every entry, long texts) is a 4xx, never a 5xx,
and no write leaves a game that cannot be read back."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma_lens.api import games
from sanma_lens.api.app import create_app
from sanma_lens.api.settings import Settings
from sanma_lens.api.storage import Storage

pytestmark = pytest.mark.slow

SPECIALS = ["NaN", "Infinity", "-Infinity", "1" + "0" * 400, "1" + "0" * 5000, "1e999", "-0"]
KEYS = st.sampled_from(
    ["outcome", "wins", "nagashi", "manemann", "tenpai", "riichi", "player", "winner", "hand",
     "seq", "turns", "copier", "copied", "x", "junk", "__proto__", "han", "fu", "limit", "rules"]
)  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["draw", "ron", "tsumo", "chombo", "mangan", "yakuman"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), inner, max_size=5),
    ),
    max_leaves=20,
)


@st.composite
def hostile_bodies(draw: st.DrawFn) -> bytes:
    """A JSON text built from VALUES, with one value maybe replaced by a special token, or
    nested very deep."""
    value = draw(st.dictionaries(KEYS, VALUES, max_size=6))
    text = json.dumps(value)
    how = draw(st.sampled_from(["plain", "special", "deep", "outcome", "entry"]))
    if how == "special":
        token = draw(st.sampled_from(SPECIALS))
        text = text[:-1] + (", " if len(text) > 2 else "") + f'"x": {token}}}'
    elif how == "deep":
        depth = draw(st.sampled_from([40, 255, 955, 2000]))
        text = (
            text[:-1] + (", " if len(text) > 2 else "") + '"x": ' + "[" * depth + "]" * depth + "}"
        )
    elif how == "entry":  # a hand that would be recorded, with something more in one entry
        extra = draw(st.sampled_from([*SPECIALS, "[" * 300 + "]" * 300, json.dumps(value)]))
        entry = draw(
            st.sampled_from(
                ['"nagashi": [{"player": 0, "k": %s}]', '"manemann": [{"copier": 1, '
                 '"copied": 0, "turns": 5, "k": %s}]', '"tenpai": [0, %s]']
            )
        )  # fmt: skip
        text = '{"outcome": "draw", ' + entry % extra + "}"
    elif how == "outcome":
        text = json.dumps({"outcome": draw(st.sampled_from(["draw", "ron", "tsumo"])), **value})
    return text.encode()


@pytest.fixture(scope="module")
def app_and_game(tmp_path_factory):
    store = Storage("sqlite:///" + str(tmp_path_factory.mktemp("fuzz") / "games.sqlite3"))
    app = create_app(Settings(rate_limit_per_minute=0, games_per_hour=0))
    app.dependency_overrides[games.get_storage] = lambda: store
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/v1/games").json()["id"]
        yield client, game


@settings(
    max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
@given(
    body=hostile_bodies(),
    target=st.sampled_from(["score", "tenpai", "hands", "undo", "games", "import"]),
)
def test_hostile_json_is_a_4xx_and_the_game_stays_readable(app_and_game, body, target):
    client, game = app_and_game
    path = {
        "score": "/v1/score",
        "tenpai": "/v1/tenpai",
        "hands": f"/v1/games/{game}/hands",
        "undo": f"/v1/games/{game}/undo",
        "games": "/v1/games",
        "import": "/v1/games/import",
    }[target]
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, body[:200], r.text)
    if r.status_code >= 400:
        error = r.json()["error"]
        assert set(error) >= {"code", "message"}
    for read in (f"/v1/games/{game}", f"/v1/games/{game}/export"):
        assert client.get(read).status_code == 200
    if target in ("games", "import") and r.status_code == 201:
        assert client.get(f"/v1/games/{r.json()['id']}").status_code == 200
