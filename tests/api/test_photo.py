"""Photo endpoints with the real recognizer (skip without a model) and the scoring merge."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from sanma_lens.api.app import create_app
from sanma_lens.api.routes import evaluate
from sanma_lens.api.services import services

from .conftest import require_engine

SITUATION = {"riichi": "riichi", "seat": "S", "round": "E", "tsumo": False, "honba": 1}


@pytest.fixture(scope="module")
def model_client():
    """The app with the recognizer loaded once (skips when vision or the model is missing)."""
    pytest.importorskip("sanma_lens.vision.pipeline", reason="vision.pipeline not written yet")
    app = create_app()
    with TestClient(app, raise_server_exceptions=False) as c:
        svc = services(app)
        if svc.recognizer is None:
            pytest.skip(f"no recognition model: {svc.recognizer_error}")
        yield c, svc.recognizer


def _scene_jpeg(seed: int, spec=None) -> bytes:
    scene_mod = pytest.importorskip("datasets.synth.scene")
    scene = scene_mod.render_scene(np.random.default_rng(seed), spec=spec, size=(1280, 960))
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()


def test_recognize_answers_what_the_recognizer_finds(model_client):
    client, recognizer = model_client
    data = _scene_jpeg(11)
    r = client.post("/v1/recognize", files={"image": ("scene.jpg", data, "image/jpeg")})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == json.loads(json.dumps(recognizer.recognize_bytes(data)))
    assert {"tiles", "hand", "warnings"} <= set(body)
    for tile in body["tiles"]:
        assert {"tile", "red", "box", "angle", "confidence", "face_down", "group"} <= set(tile)
        # Extension: the next-best readings, likeliest first, never the chosen tile itself.
        alts = tile["alternatives"]
        confs = [a["confidence"] for a in alts]
        assert confs == sorted(confs, reverse=True)
        assert all(a["tile"] != tile["tile"] and a["red"] == (a["tile"][0] == "0") for a in alts)


def test_photo_score_is_recognition_plus_engine_result(model_client):
    require_engine()
    from sanma_lens.engine.service import score_json, tenpai_json

    client, _ = model_client
    data = _scene_jpeg(12)
    r = client.post(
        "/v1/photo/score",
        files={"image": ("scene.jpg", data, "image/jpeg")},
        data={"situation": json.dumps(SITUATION)},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"tiles", "hand", "warnings", "score", "score_kind"} <= set(body)
    merged = {**body["hand"], **SITUATION}
    assert body["scored_hand"] == {k: v for k, v in merged.items() if k != "win" or v}
    if body["score_error"] is None:
        fn = score_json if body["score_kind"] == "result" else tenpai_json
        assert body["score"] == json.loads(json.dumps(fn(dict(body["scored_hand"]))))


def test_photo_score_with_corrected_tiles_scores_the_correction(model_client):
    require_engine()
    from sanma_lens.engine.service import score_json

    client, _ = model_client
    corrected = {"hand": "234p456p789s11z22z", "win": "2z"}
    r = client.post(
        "/v1/photo/score",
        files={"image": ("scene.jpg", _scene_jpeg(13), "image/jpeg")},
        data={"situation": json.dumps(SITUATION), "hand": json.dumps(corrected)},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["score_kind"] == "result"
    assert body["score"] == score_json({**corrected, **SITUATION})


# ---- the merge itself (no model needed) ----


def test_evaluate_14_tiles_gives_the_result_json():
    require_engine()
    from sanma_lens.engine.service import score_json

    hand = {"hand": "234p456p789s11z22z", "win": "2z", **SITUATION}
    out = evaluate(dict(hand))
    assert out["score_kind"] == "result"
    assert out["score"] == score_json(dict(hand))
    assert out["score_error"] is None


def test_evaluate_13_tiles_gives_the_tenpai_json():
    require_engine()
    from sanma_lens.engine.service import tenpai_json

    hand = {"hand": "234p456p789s11z22z", "win": None, **SITUATION}
    out = evaluate(dict(hand))
    assert out["score_kind"] == "tenpai"
    assert "win" not in out["scored_hand"]
    assert out["score"] == tenpai_json({k: v for k, v in hand.items() if k != "win"})


def test_evaluate_impossible_hand_is_an_error_value_not_an_exception():
    require_engine()
    out = evaluate({"hand": "11111p", "win": "2z"})
    assert out["score"] is None
    assert set(out["score_error"]) == {"code", "message"}
