"""docs/api.md, the contract, against the code: its examples are read as written and every
endpoint it lists is served."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.engine.service import score_json, tenpai_json

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _json_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", API_MD.read_text(encoding="utf-8"), re.S)


def _examples() -> tuple[dict, dict, dict]:
    hand, result, tenpai = (json.loads(block) for block in _json_blocks()[:3])
    return hand, result, tenpai


def test_the_result_example_is_the_answer_for_the_hand_example() -> None:
    hand, result, _ = _examples()
    answer = score_json(hand)
    assert {key: answer[key] for key in result} == result


def test_the_tenpai_example_is_the_answer_for_the_hand_example_without_its_win() -> None:
    hand, _, tenpai = _examples()
    answer = tenpai_json({k: v for k, v in hand.items() if k != "win"})
    # the example shows the contract's fields; the answer may hold more (extensions)
    answer["waits"] = [{key: w[key] for key in tenpai["waits"][0]} for w in answer["waits"]]
    assert {key: answer[key] for key in tenpai} == tenpai


def test_every_endpoint_of_the_contract_is_served() -> None:
    listed = set(re.findall(r"`(GET|POST) (/[^`?\s]*)`", API_MD.read_text(encoding="utf-8")))
    assert ("POST", "/v1/score") in listed and ("GET", "/healthz") in listed
    with TestClient(create_app()) as client:
        paths = client.get("/openapi.json").json()["paths"]
        spec = {re.sub(r"\{\w+\}", "{}", path): ops for path, ops in paths.items()}
        for method, path in sorted(listed):
            if re.sub(r"\{\w+\}", "{}", path) in spec:
                assert method.lower() in spec[re.sub(r"\{\w+\}", "{}", path)], (method, path)
            else:  # pages and documentation, outside the OpenAPI schema
                assert method == "GET" and client.get(path).status_code == 200, path
