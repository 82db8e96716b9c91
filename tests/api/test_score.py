"""POST /v1/score and /v1/tenpai translate HTTP to engine.service and back (docs/api.md)."""

from __future__ import annotations

import pytest

from sanma_lens.engine.errors import InputError

from .conftest import assert_error, require_engine

# Worked example of docs/rules.md: pinfu-less closed hand, child ron, riichi + yakuhai
# (1z pair is not).
CHILD_RON = {
    "hand": "234p456p789s11z22z",
    "win": "2z",
    "seat": "S",
    "round": "E",
    "riichi": "riichi",
}
TENPAI = {"hand": "234p456p789s11z22z", "seat": "S", "round": "E", "riichi": "riichi"}


@pytest.fixture(autouse=True)
def _engine():
    require_engine()


def _engine_error(fn, obj) -> InputError:
    with pytest.raises(InputError) as e:
        fn(obj)
    return e.value


def test_score_answers_exactly_what_the_engine_computes(client):
    from sanma_lens.engine.service import score_json

    r = client.post("/v1/score", json=CHILD_RON)
    assert r.status_code == 200, r.text
    assert r.json() == score_json(dict(CHILD_RON))
    body = r.json()
    for key in (
        "valid",
        "reason",
        "han",
        "yaku_han",
        "fu",
        "limit",
        "yaku",
        "dora",
        "payments",
        "total",
        "fu_breakdown",
    ):
        assert key in body, key


def test_rule_11_worked_example_over_http(client):
    """Child ron, 40 fu 2 han (riichi + seat-wind 2z triplet): 2,560 → 3,000."""
    body = client.post("/v1/score", json=CHILD_RON).json()
    assert (body["valid"], body["han"], body["fu"]) == (True, 2, 40)
    assert body["payments"] == [{"from": "discarder", "amount": 3000}]
    assert body["total"] == 3000


def test_score_is_the_same_for_tsumo_and_all_situation_fields(client):
    from sanma_lens.engine.service import score_json

    hand = {
        **CHILD_RON,
        "tsumo": True,
        "honba": 2,
        "deposits": 1,
        "dora": ["1z"],
        "ura": [],
        "ippatsu": True,
        "rules": {"preset": "sanma-1.3", "aka_5man": False},
    }
    r = client.post("/v1/score", json=hand)
    assert r.status_code == 200, r.text
    assert r.json() == score_json(dict(hand))
    body = r.json()
    if body["valid"]:  # total = payments + the deposits received (docs/api.md)
        assert body["total"] - sum(p["amount"] for p in body["payments"]) in (1, 1000)


def test_invalid_win_is_a_200_result_not_an_error(client):
    hand = {"hand": "1399p1357s123z44z", "win": "5z"}
    r = client.post("/v1/score", json=hand)
    assert r.status_code == 200, r.text
    assert r.json()["valid"] is False
    assert r.json()["reason"] == "no_win_shape"


def test_tenpai_answers_what_the_engine_computes(client):
    from sanma_lens.engine.service import tenpai_json

    r = client.post("/v1/tenpai", json=TENPAI)
    assert r.status_code == 200, r.text
    assert r.json() == tenpai_json(dict(TENPAI))
    assert {"tenpai", "waits", "guarantee_ok", "noten_riichi"} <= set(r.json())


@pytest.mark.parametrize(
    "bad",
    [
        {"hand": "234p456p789s11z2x", "win": "2z"},  # unknown tile
        {"hand": "234p456p789s11z22z", "win": "5m"},  # 2m-8m do not exist in sanma
        {"hand": "1111p456p789s11z2z", "win": "1p"},  # fifth tile
        {"hand": "234p", "win": "2z"},  # impossible tile count
    ],
)
def test_impossible_hands_are_422_with_the_engine_code(client, bad):
    from sanma_lens.engine.service import score_json

    expected = _engine_error(score_json, dict(bad))
    err = assert_error(client.post("/v1/score", json=bad), 422)
    assert err["code"] == expected.code
    assert err["message"] == expected.message


def test_unknown_tile_in_tenpai_is_4xx(client):
    from sanma_lens.engine.service import tenpai_json

    bad = {"hand": "234p456p789s11z2q"}
    expected = _engine_error(tenpai_json, dict(bad))
    err = assert_error(client.post("/v1/tenpai", json=bad), 422)
    assert err["code"] == expected.code
