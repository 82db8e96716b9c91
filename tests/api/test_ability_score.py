"""Ability mahjong over HTTP and the CLI: /v1/score and /v1/tenpai take the role fields
(docs/rules/ability.md "What the product does with it") and answer what the engine computes."""

from __future__ import annotations

import io
import json
import sys

import pytest

from sanma_lens.api.cli import main
from sanma_lens.api.schemas import ResultOut, TenpaiOut
from sanma_lens.engine.service import score_json, tenpai_json

from .conftest import assert_error, require_engine

SEIRYUU = {
    "hand": "123p456p789p11z78s",
    "win": "9s",
    "ura": ["8s"],
    "extra_dora": ["8s", "4z"],
    "role": "seiryuu",
}
SUZAKU = {"hand": "345p678p55p78s", "melds": ["chi:234s"], "win": "6s", "role": "suzaku"}


@pytest.fixture(autouse=True)
def _engine():
    require_engine()


def test_ability_score_over_http_is_the_engines_answer(client):
    for hand in (
        SEIRYUU,
        SUZAKU,
        {**SEIRYUU, "role": "byakko", "byakko_declared": True, "extra_dora": []},
        {**SEIRYUU, "role": "genbu", "kanpa": "9s", "discarder_genbu": True, "extra_dora": []},
    ):
        r = client.post("/v1/score", json=hand)
        assert r.status_code == 200, r.text
        assert r.json() == score_json(dict(hand))
        ResultOut.model_validate(r.json())
    body = client.post("/v1/score", json=SEIRYUU).json()
    assert body["ability"]["seiryuu"] == {"ura": 1, "extra_dora": 3, "han": 4}


def test_ability_tenpai_over_http_is_the_engines_answer(client):
    hand = {k: v for k, v in SUZAKU.items() if k != "win"}
    r = client.post("/v1/tenpai", json=hand)
    assert r.status_code == 200 and r.json() == tenpai_json(dict(hand))
    TenpaiOut.model_validate(r.json())
    assert r.json()["ability"] == {"role": "suzaku", "kanpa": None}


def test_ability_bad_role_fields_are_4xx(client):
    assert_error(client.post("/v1/score", json={**SEIRYUU, "role": "kirin"}), 422)
    tenshi_chi = {**SUZAKU, "role": "tenshi"}
    assert_error(client.post("/v1/score", json=tenshi_chi), 422, "chi_not_allowed")
    no_role = {k: v for k, v in SEIRYUU.items() if k != "role"}
    assert_error(client.post("/v1/score", json=no_role), 422, "role_required")
    assert_error(client.post("/v1/score", json={**SEIRYUU, "byakko_declared": "yes"}), 422)


def test_ability_fields_are_in_the_openapi_schema(client):
    spec = client.get("/openapi.json").json()["components"]["schemas"]
    for field in ("role", "byakko_declared", "kanpa", "discarder_genbu", "extra_dora"):
        assert field in spec["HandIn"]["properties"], field
    assert "ability" in spec["ResultOut"]["properties"]
    assert set(spec["AbilityOut"]["properties"]) >= {"role", "seiryuu", "suzaku", "byakko"}


def test_ability_cli_score_and_tenpai(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(SUZAKU)))
    assert main(["score"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["ability"]["role"] == "suzaku"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**SUZAKU, "role": "genbu"})))
    assert main(["score"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "chi_not_allowed"
