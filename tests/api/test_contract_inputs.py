"""Contract points of the HTTP API's input found in an audit against docs/api.md.

- Hand JSON: absent fields take their defaults. ``sanma score`` reads a ``null`` as absent
  (engine.parse); ``POST /v1/score`` and ``/v1/tenpai`` answer the same hand JSON the same.
- ``POST /v1/photo/score``: ``situation`` holds the hand JSON's fields other than the tiles.
  A situation wrong whatever the tiles is bad input: a 4xx in the error shape (before the photo
  is read); what depends on the tiles stays the ``score_error`` beside the recognized tiles.
  The corrected tiles (field ``hand``, our extension) likewise: an unknown field or a tile that
  cannot be read is a 4xx; tiles that make no hand are the ``score_error``.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import Settings
from sanma_lens.engine.service import score_json, tenpai_json

from .conftest import assert_error, drawn_photo

HAND = {"hand": "234p456p789s11z22z", "win": "2z", "riichi": "riichi"}

# every hand JSON field with a default (docs/api.md: false, 0, [], "none", null; seat S, round E)
DEFAULTED = (
    "win", "melds", "kita", "kita_aka", "dora", "ura", "tsumo", "seat", "round", "riichi",
    "ippatsu", "haitei", "houtei", "rinshan", "kanburi", "chankan", "tenhou", "chihou",
    "renhou", "first_draw", "discarder_riichi", "aka5man_as", "honba", "deposits", "rules",
)  # fmt: skip


@pytest.mark.parametrize("field", [f for f in DEFAULTED if f != "win"])
def test_contract_null_field_is_the_default_over_http_as_in_the_cli(client, field):
    body = {**HAND, field: None}
    absent = {k: v for k, v in HAND.items() if k != field}
    r = client.post("/v1/score", json=body)
    assert r.status_code == 200, r.text
    assert r.json() == score_json(dict(body)) == score_json(absent)
    tenpai = {"hand": HAND["hand"], field: None}
    r = client.post("/v1/tenpai", json=tenpai)
    assert r.status_code == 200, r.text
    assert r.json() == tenpai_json(dict(tenpai)) == tenpai_json({"hand": HAND["hand"]})


def test_null_hand_and_null_unknown_field_are_still_refused(client):
    assert_error(client.post("/v1/score", json={**HAND, "hand": None}), 422, "invalid_request")
    assert_error(client.post("/v1/score", json={**HAND, "note": None}), 422, "unknown_field")


# ---- photo/score: the situation ----


class _FixedRecognizer:
    """Stands in for the model: every photo 'shows' the same complete hand."""

    def __init__(self) -> None:
        self.calls = 0

    def recognize_bytes(self, data: bytes) -> dict:
        self.calls += 1
        tiles = {"hand": HAND["hand"], "win": HAND["win"], "melds": [], "kita": 0, "kita_aka": 0}
        return {"tiles": [], "hand": tiles, "warnings": []}


@pytest.fixture()
def fixed():
    rec = _FixedRecognizer()
    with TestClient(
        create_app(Settings(), recognizer_factory=lambda: rec), raise_server_exceptions=False
    ) as c:
        yield c, rec


def _photo_score(c: TestClient, situation: object):
    return c.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": json.dumps(situation)},
    )


@pytest.mark.parametrize(
    ("situation", "code"),
    [
        ({"riichi": "riichi", "note": 1}, "unknown_field"),  # not a hand JSON field
        ({"seat": "N"}, "bad_value"),  # no north seat in sanma
        ({"dora": ["5m"]}, "invalid_tile"),  # 2m-8m are no tiles
        ({"ura": ["8z"]}, "unknown_tile"),
        ({"rules": {"preset": "sanma-9"}}, "unknown_preset"),
        ({"rules": {"no_such_option": True}}, "unknown_rule_option"),
    ],
)
def test_contract_photo_score_bad_situation_is_4xx_error(fixed, situation, code):
    c, rec = fixed
    assert_error(_photo_score(c, situation), 422, code)
    assert rec.calls == 0  # refused before the photo was read


def test_photo_score_situation_that_fits_no_tiles_is_a_score_error(fixed):
    """Flags that contradict each other are shown beside the tiles (the page lets the player
    fix the situation without taking the photo again), as before."""
    c, _ = fixed
    r = _photo_score(c, {"ippatsu": True})  # ippatsu without riichi
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["score"] is None and body["score_error"]["code"] == "inconsistent_situation"
    assert body["hand"]["hand"] == HAND["hand"]


def test_contract_photo_score_merges_situation_and_result(fixed):
    c, _ = fixed
    situation = {"riichi": "riichi", "seat": None, "honba": 1}
    r = _photo_score(c, situation)
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"tiles", "hand", "warnings"} <= set(body) and body["score_kind"] == "result"
    assert body["score"] == score_json({**HAND, "honba": 1})


def test_contract_never_a_500_for_a_digit_int_cannot_read(client):
    for path, body in (
        ("/v1/score", {**HAND, "hand": "²34p456p789s11z22z"}),
        ("/v1/tenpai", {"hand": "①34p456p789s11z22z"}),
    ):
        assert_error(client.post(path, json=body), 422, "bad_tiles")


@pytest.mark.parametrize(
    "body",
    [b"[" * 100_000 + b"]" * 100_000, b'{"hand": "\xff234p"}'],
    ids=["nested-too-deeply", "not-utf8"],
)
def test_contract_unreadable_json_body_is_400_bad_json_as_in_the_cli(client, body):
    """FastAPI answers these with a bare 400 'error parsing the body' (code bad_request);
    they are JSON that cannot be read: bad_json, as malformed JSON and `sanma score` say."""
    for path in ("/v1/score", "/v1/tenpai"):
        err = assert_error(client.post(path, content=body), 400, "bad_json")
        assert "JSON" in err["message"]


def test_contract_photo_score_situation_sent_as_a_file_part(fixed):
    """`requests.post(url, files={"image": f, "situation": json.dumps(s)})` (and httpx, and
    `curl -F situation=@sit.json`) send the JSON as a part with a filename: it was a 422
    'situation: Input should be a valid string'. It is the same field as a text part."""
    c, _ = fixed
    situation = json.dumps({"riichi": "riichi", "honba": 1})
    corrected = json.dumps({"hand": "234p456p789s11z33z", "win": "3z"})
    r = c.post(
        "/v1/photo/score",
        files={
            "image": ("a.jpg", drawn_photo(), "image/jpeg"),
            "situation": situation,  # a file part named 'upload'
            "hand": ("hand.json", corrected.encode(), "application/json"),
        },
    )
    assert r.status_code == 200, r.text
    expected = score_json({**json.loads(corrected), "riichi": "riichi", "honba": 1})
    assert r.json()["score"] == expected
    bad = c.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg"), "situation": b"\xff{"},
    )
    assert_error(bad, 400, "bad_json")


@pytest.mark.parametrize(
    "extra",
    [
        {"dora": "1z"},  # one MPSZ string: sanma score reads it, /v1/score said 422
        {"ura": "1z3p", "dora": ["9s"]},
        {"melds": {}},  # not a list: sanma score took {} as no melds, /v1/score said 422
        {"melds": ""},
    ],
)
def test_contract_cli_and_http_answer_the_same_hand_json_the_same(client, extra):
    """The same hand JSON through `sanma score` (engine.service) and POST /v1/score: the
    same result, or bad input in both (found by comparing them on generated hands)."""
    from sanma_lens.engine.errors import InputError

    for path, fn, body in (
        ("/v1/score", score_json, {**HAND, **extra}),
        ("/v1/tenpai", tenpai_json, {"hand": HAND["hand"], **extra}),
    ):
        r = client.post(path, json=body)
        try:
            expected = fn(json.loads(json.dumps(body)))
        except InputError:
            assert 400 <= r.status_code < 500, r.text
        else:
            assert r.status_code == 200, r.text
            assert r.json() == expected


# ---- photo/score: the corrected tiles (field hand) ----


def _photo_score_corrected(c: TestClient, tiles: object, situation: object = None):
    return c.post(
        "/v1/photo/score",
        files={"image": ("a.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": json.dumps(situation or {}), "hand": json.dumps(tiles)},
    )


@pytest.mark.parametrize(
    ("tiles", "code"),
    [
        ({"hand": "234p456p789s11z22z", "win": "2z", "note": 1}, "unknown_field"),
        ({"hand": "234p456p789s11z22z", "wni": "2z"}, "unknown_field"),  # a typo of win
        ({"hand": "234p456p789s11z22z", "win": "2z", "tsumo": True}, "unknown_field"),
        ({"hand": "234p456p789s11z22z", "win": "5m"}, "invalid_tile"),
        ({"hand": "234p456p789s11z22z", "win": "8z"}, "unknown_tile"),
        ({"hand": "234p456p789s1z", "win": "1z", "melds": ["pon:123z"]}, "bad_meld"),
        ({"hand": "234p456p789s11z22z", "win": "2z", "dora": ["6m"]}, "invalid_tile"),
    ],
)
def test_contract_photo_score_unreadable_corrected_tiles_are_4xx_error(fixed, tiles, code):
    """docs/api.md: errors are 4xx {"error": {code, message}}; an unknown field of the hand JSON
    is a 422 in /v1/score and in the situation. The corrected tiles answered 200 with a
    score_error instead (and a situation field among them, tsumo here, was scored unless the
    situation also set it). Refused before the photo is read, like a bad situation."""
    c, rec = fixed
    body = assert_error(_photo_score_corrected(c, tiles), 422, code)
    assert body["message"].startswith("hand: ")
    assert rec.calls == 0


def test_photo_score_corrected_tiles_that_make_no_hand_are_a_score_error(fixed):
    """Readable tiles that make no hand (12 tiles) are shown beside the recognized tiles, as
    a situation that fits no tiles is."""
    c, _ = fixed
    r = _photo_score_corrected(c, {"hand": "234p456p789s11z", "win": "2z"}, {"riichi": "riichi"})
    assert r.status_code == 200, r.text
    assert r.json()["score_error"]["code"] == "tile_count"


def test_photo_score_corrected_tiles_read_under_the_situations_rules(fixed):
    """0m (the aka-5-man) is a tile only under the aka_5man option the situation sets."""
    c, _ = fixed
    tiles = {"hand": "234p456p789s11z22z", "win": "2z", "dora": "0m"}
    situation = {"riichi": "riichi", "rules": {"aka_5man": True}}
    r = _photo_score_corrected(c, tiles, situation)
    assert r.status_code == 200, r.text
    assert r.json()["score"] == score_json({**tiles, **situation})
    assert_error(_photo_score_corrected(c, tiles, {"riichi": "riichi"}), 422)
