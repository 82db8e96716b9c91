"""HTTP extensions for the table: `?explain=true`, and /docs served offline."""

from __future__ import annotations

import pytest

from sanma_lens.engine.explain import explained_score
from sanma_lens.engine.service import score_json

from .conftest import drawn_photo

HAND = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "riichi": "riichi"}


def test_score_explain_is_opt_in(client):
    plain = client.post("/v1/score", json=HAND).json()
    assert plain == score_json(HAND) and "explain" not in plain
    explained = client.post("/v1/score?explain=true", json=HAND).json()
    assert explained == explained_score(HAND)
    assert explained["explain"]["points"]["call"] == {
        "how": "ron",
        "winner": "child",
        "amounts": [3000],
    }


def test_photo_score_explain_query_reaches_the_result(client):
    situation = '{"riichi": "riichi", "seat": "S"}'
    tiles = '{"hand": "234p456p789s11z22z", "win": "2z"}'
    response = client.post(
        "/v1/photo/score?explain=true",
        files={"image": ("hand.jpg", drawn_photo(), "image/jpeg")},
        data={"situation": situation, "hand": tiles},
    )
    if response.status_code == 503:
        pytest.skip("no recognition model on this machine")
    assert response.status_code == 200, response.text
    assert response.json()["score"]["explain"]["wait"]["shape"] == "shanpon"


def test_docs_needs_no_internet_and_no_inline_script(client):
    response = client.get("/docs")
    assert response.status_code == 200
    html = response.text
    assert "https://" not in html and "<script>" not in html
    for asset in ("/docs-static/swagger-ui-bundle.js", "/docs-static/swagger-ui.css"):
        assert asset in html
        assert client.get(asset).status_code == 200
    assert client.get("/redoc").status_code == 404  # ReDoc would load its logo from a CDN
