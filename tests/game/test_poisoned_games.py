"""A game can no longer be poisoned: every stored event is checked before it is written and
acknowledged only with its answer; games stored before that load with the misfit dropped."""

from __future__ import annotations

import json
import threading

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import games
from sanma_lens.api.settings import Settings
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.schema import EVENT_BODIES, HAND_INPUT, check, read_event_body

JSON = {"content-type": "application/json"}


@pytest.fixture
def client(storage):
    app = FastAPI()
    app.include_router(games.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def new_game(client) -> dict:
    r = client.post("/v1/games")
    assert r.status_code == 201, r.text
    return r.json()


def post_raw(client, game, raw: bytes, path: str = "hands"):
    return client.post(f"/v1/games/{game['id']}/{path}", content=raw, headers=JSON)


POISONS = [
    # the reproductions: an unknown key in a nagashi / manemann entry, NaN, Infinity,
    # JSON nested 955 deep in such a key, a 5000-digit integer
    (b'{"outcome":"draw","nagashi":[{"player":0,"junk":1}]}', 422, "bad_hand_result"),
    (b'{"outcome":"draw","manemann":[{"copier":1,"copied":0,"turns":5,"x":1}]}', 422, None),
    (b'{"outcome":"draw","manemann":[{"copier":1,"copied":0,"turns":5,"x":NaN}]}', 400, "bad_json"),
    (b'{"outcome":"draw","tenpai":[Infinity]}', 400, "bad_json"),
    (
        b'{"outcome":"draw","nagashi":[{"player":0,"x":' + b"[" * 955 + b"]" * 955 + b"}]}",
        400,
        "too_deep",
    ),
    (b'{"outcome":"draw","seq":1' + b"0" * 5000 + b"}", 400, "bad_json"),
    (b'{"outcome":"draw","riichi":[0],"wins":[]' + b',"x":"' + b"j" * 250_000 + b'"}', 422, None),
]


@pytest.mark.parametrize(("raw", "status", "code"), POISONS)
def test_a_poisoned_hand_is_refused_and_the_game_stays_readable(client, storage, raw, status, code):
    game = new_game(client)
    r = post_raw(client, game, raw)
    assert r.status_code == status, r.text
    if code:
        assert r.json()["error"]["code"] == code
    assert storage.load(game["id"]).events == ()  # nothing stored
    for path in ("", "/export"):
        assert client.get(f"/v1/games/{game['id']}{path}").status_code == 200
    ok = post_raw(client, game, b'{"outcome":"draw","tenpai":[0]}')
    assert ok.status_code == 200 and ok.json()["hand_count"] == 1


def test_an_import_with_infinity_or_unknown_keys_creates_no_game(client, storage):
    game = new_game(client)
    post_raw(client, game, b'{"outcome":"draw","tenpai":[1]}')
    exported = client.get(f"/v1/games/{game['id']}/export").json()
    raw = json.dumps(exported).replace('"tenpai": [1]', '"tenpai": [Infinity]', 1).encode()
    r = client.post("/v1/games/import", content=raw, headers=JSON)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    exported["events"][0]["input"]["nagashi"] = [{"player": 0, "junk": True}]
    r = client.post("/v1/games/import", json=exported)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_import"
    assert "junk" in r.json()["error"]["message"]


def test_a_write_whose_answer_cannot_be_made_is_not_stored(client, storage, monkeypatch):
    """Acknowledged only with its answer: when the answer fails, the event is rolled back."""
    game = new_game(client)

    def broken(stored, state, seq=None):
        raise ValueError("Out of range float values are not JSON compliant")

    monkeypatch.setattr(games, "game_json", broken)
    r = post_raw(client, game, b'{"outcome":"draw","tenpai":[0]}')
    assert r.status_code == 500
    monkeypatch.undo()
    assert storage.load(game["id"]).events == ()
    assert client.get(f"/v1/games/{game['id']}").json()["hand_count"] == 0


def test_storage_refuses_to_write_a_value_it_could_not_read_back(storage):
    game_id = storage.create_game(["A", "B", "C"], {})
    with pytest.raises(InputError):
        storage.append(game_id, 0, "hand", {"result": {"outcome": "draw"}, "x": float("nan")})
    assert storage.load(game_id).events == ()


def _poison_row(storage, game_id: str, body_text: str) -> None:
    """Write an event row as the old code did (json.dumps lets NaN through)."""
    with storage._transaction() as cur:
        cur.execute("UPDATE games SET seq = 1 WHERE id = ?", (game_id,))
        cur.execute(
            "INSERT INTO events (game_id, seq, kind, body, created_at) VALUES (?, 1, 'hand', ?, ?)",
            (game_id, body_text, "2026-11-01T00:00:00+00:00"),
        )


def test_an_old_poisoned_game_loads_with_the_bad_field_dropped_and_a_warning(client, storage):
    game = new_game(client)
    result = {"outcome": "draw", "tenpai": [0], "nagashi": [], "riichi": []}
    bad_input = {
        "outcome": "draw",
        "tenpai": [0],
        "nagashi": [{"player": 0, "junk": float("nan")}],
        "manemann": [{"copier": 1, "copied": 0, "turns": 5, "deep": [[[[[[[[1]]]]]]]]}],
    }
    _poison_row(storage, game["id"], json.dumps({"result": result, "input": bad_input}))
    for path in ("", "/export"):
        r = client.get(f"/v1/games/{game['id']}{path}")
        assert r.status_code == 200, r.text
    got = client.get(f"/v1/games/{game['id']}").json()
    assert got["hand_count"] == 1 and [p["score"] for p in got["players"]] == [32000, 29000, 29000]
    assert got["hands"][0]["input"]["nagashi"] == [{"player": 0}]
    assert got["hands"][0]["input"]["manemann"] == [{"copier": 1, "copied": 0, "turns": 5}]
    assert any("junk" in w for w in got["warnings"]) and any("deep" in w for w in got["warnings"])
    # the game goes on: a hand and an undo land and answer
    r = post_raw(client, game, b'{"outcome":"draw","tenpai":[0]}')
    assert r.status_code == 200 and r.json()["hand_count"] == 2
    assert post_raw(client, game, b"{}", "undo").status_code == 200


def test_every_event_kind_has_a_strict_shape():
    check(EVENT_BODIES["undo"], {"undoes": 3}, "event")
    for bad in ({"undoes": 3, "x": 1}, {"undoes": 1.5}, {"undoes": True}, {}):
        with pytest.raises(InputError):
            check(EVENT_BODIES["undo"], bad, "event")
    with pytest.raises(InputError):
        check(HAND_INPUT, {"outcome": "draw", "tenpai": [10**30]}, "hand")
    with pytest.raises(InputError):
        check(
            HAND_INPUT,
            {"outcome": "ron", "wins": [{"winner": 1, "hand": {"x": [[[[[[[]]]]]]]}}]},
            "hand",
        )
    body, dropped = read_event_body("undo", {"undoes": 2, "x": float("inf")}, "event 3")
    assert body == {"undoes": 2} and dropped == ["event 3.x (unknown field)"]
    assert read_event_body("undo", {"x": 1}, "event 3")[0] is None


def _bare(storage, settings: Settings) -> TestClient:
    app = FastAPI()
    app.state.settings = settings
    app.include_router(games.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    return TestClient(app, raise_server_exceptions=False)


def test_limit_events_per_game(storage):
    with _bare(storage, Settings(max_events_per_game=2)) as c:
        game = new_game(c)
        for _ in range(2):
            assert post_raw(c, game, b'{"outcome":"draw","tenpai":[0]}').status_code == 200
        r = post_raw(c, game, b'{"outcome":"draw","tenpai":[0]}')
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_events"


def test_limit_bytes_per_event(storage):
    hand = {"hand": "234p456p789s11z22z", "win": "2z", "riichi": "riichi"}
    body = {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "hand": hand}]}
    with _bare(storage, Settings(max_event_bytes=200)) as c:
        game = new_game(c)
        r = c.post(f"/v1/games/{game['id']}/hands", json=body)
        assert r.status_code == 413 and r.json()["error"]["code"] == "event_too_large"


def test_limit_games_per_hour_per_client_is_429_with_retry_after(storage):
    with _bare(storage, Settings(games_per_hour=3)) as c:
        for _ in range(3):
            new_game(c)
        r = c.post("/v1/games")
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
        assert 1 <= int(r.headers["retry-after"]) <= 3601


def test_a_game_write_must_be_application_json(client):
    game = new_game(client)
    for headers in (
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
    ):
        r = client.post(
            f"/v1/games/{game['id']}/hands", content=b'{"outcome":"draw"}', headers=headers
        )
        assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
        r = client.post("/v1/games", content=b"{}", headers=headers)
        assert r.status_code == 415
    assert client.get(f"/v1/games/{game['id']}").json()["hand_count"] == 0


def test_without_seq_the_server_retries_its_read_then_write_under_contention(client, storage):
    """Writers that give no seq all land (the server reads again after a conflict)."""
    game = new_game(client)
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def write() -> None:
        barrier.wait()
        r = post_raw(client, game, b'{"outcome":"draw","tenpai":[0,1,2]}')
        statuses.append(r.status_code)

    threads = [threading.Thread(target=write) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert statuses == [200] * 6
    stored = storage.load(game["id"])
    assert [e.seq for e in stored.events] == [1, 2, 3, 4, 5, 6]


def test_with_a_stale_seq_it_is_still_409(client):
    game = new_game(client)
    post_raw(client, game, b'{"outcome":"draw","tenpai":[0]}')
    r = post_raw(client, game, b'{"outcome":"draw","tenpai":[0],"seq":0}')
    assert r.status_code == 409 and r.json()["error"]["seq"] == 1


def test_the_stored_shapes_know_every_field_the_game_takes_and_writes():
    """A field added to a hand result (a role, a block, a fourth seat) needs its shape in
    engine.game.schema, or every hand that uses it is refused: this names the one to add."""
    from sanma_lens.engine.game import (
        HandResult,
        Kanpa,
        Nagashi,
        Outcome,
        Payment,
        Win,
        result_to_json,
    )
    from sanma_lens.engine.game.resolve import _RESULT_FIELDS, _WIN_FIELDS
    from sanma_lens.engine.game.schema import HAND_RESULT

    assert set(HAND_INPUT.fields) == _RESULT_FIELDS
    assert set(HAND_INPUT.fields["wins"].item.fields) == _WIN_FIELDS
    # every field set, ability mahjong's included (they are written only where set)
    win = Win(
        0,
        (Payment(1, 1000), Payment(2, 1000)),
        yaku=("tsumo",),
        seiryuu_han=0,
        upgraded_from="haneman",
        closed=True,  # ECIP, written only when said
        pao=1,
    )
    stored = result_to_json(
        HandResult(
            Outcome.TSUMO,
            wins=(win,),
            nagashi=(Nagashi(1),),
            byakko_declared=(0,),
            kanpa=(Kanpa(1, 0, "9s", discarder=2, at_once=True),),
        )
    )
    assert set(HAND_RESULT.fields) == set(stored)
    assert set(HAND_RESULT.fields["wins"].item.fields) == set(stored["wins"][0])
    check(HAND_RESULT, stored, "result")
