"""The data loop end to end on rendered photos: a player's corrected tiles are kept through
the HTTP route (as the page sends them), ``sanma export-corrections`` writes them as a training
set, and ``datasets.train --corrections`` fine-tunes the shipped models from that folder; the
weights it writes load in the recognizer."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import corrections, games
from sanma_lens.api.errors import install_error_handlers
from sanma_lens.api.settings import Settings
from sanma_lens.api.storage import Storage

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
MODELS = ROOT / "models"


@pytest.fixture(scope="module")
def kept_set(tmp_path_factory):
    """Three rendered photos kept with their tiles, exported: (folder, the scenes' labels)."""
    from datasets.synth.extras import Extras
    from datasets.synth.faces import load_bank, placeholder_bank
    from datasets.synth.scene import render_scene

    bank = load_bank(str(SHARED)) if (SHARED / "art/fluffystuff").is_dir() else placeholder_bank()
    tmp = tmp_path_factory.mktemp("loop")
    url = "sqlite:///" + str(tmp / "games.sqlite3")
    storage = Storage(url)
    app = FastAPI()
    install_error_handlers(app)
    app.state.settings, app.state.services = Settings(), None
    app.state.recognizer_factory, app.state.games = (lambda: None), True
    app.include_router(corrections.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    truth = {}
    with TestClient(app) as client:
        for k, extras in enumerate((Extras(), Extras(clutter=True), Extras(backs=True))):
            scene = render_scene(
                np.random.default_rng(8_900_000 + k), size=(640, 480), bank=bank, extras=extras
            )
            tiles = [
                {
                    "tile": "back" if t.face_down else t.tile,
                    "box": list(t.box),
                    "angle": t.angle,
                    "group": t.group,
                }
                for t in scene.tiles
                if not t.occluded and not t.truncated and t.tile != "flower"
            ]
            if k == 2:  # a tile the player added by hand: no box
                tiles.append({"tile": "4z", "box": None, "angle": 0, "group": "kita"})
            photo = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1]
            photo_id = f"{k:032x}"
            r = client.post(
                "/v1/corrections",
                data={"id": photo_id, "tiles": json.dumps(tiles)},
                files={"image": ("p.jpg", photo.tobytes(), "image/jpeg")},
            )
            assert r.status_code == 201, r.text
            truth[photo_id] = [t for t in tiles if t["box"] is not None]
    storage.close()
    from sanma_lens.api import cli

    out = tmp / "kept"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DATABASE_URL", url)
        assert cli.main(["export-corrections", str(out)]) == 0
    return out, truth


def test_exported_corrections_read_back_as_training_photos(kept_set):
    from datasets import train_data as td

    out, truth = kept_set
    photos = td.correction_photos(out)
    assert len(photos) == 3
    for p in photos:
        want = truth[Path(p.path).stem]
        assert p.labels == [t["tile"] for t in want]
        assert np.allclose(p.boxes, [t["box"] for t in want], atol=0.05)
        assert p.sideways == [t["angle"] == 90 for t in want]
        assert p.load().shape == (480, 640, 3)
    assert len(td.correction_photos(out, complete_only=True)) == 2  # one has a boxless tile


@pytest.mark.parametrize("model", ["cls", "det"])
def test_train_fine_tunes_from_the_kept_folder(kept_set, tmp_path, monkeypatch, model):
    """``datasets.train --corrections DIR``, started from the shipped weights, trains a few
    steps on the kept photos alone (the shared sets left out to keep this quick) and writes
    weights the recognizer loads."""
    pytest.importorskip("torch")
    from datasets import train
    from datasets import train_data as td
    from sanma_lens.vision.classify import CLASSES

    out, _truth = kept_set
    monkeypatch.setattr(td, "hk_photos", lambda split, **kw: [])
    monkeypatch.setattr(td, "jp_photos", lambda heldout, **kw: [])
    monkeypatch.setattr(td, "fluffy_faces", lambda style="Regular": {})
    monkeypatch.setattr(td, "camerash_crops", lambda: [])
    onnx = MODELS / ("tile_classifier.onnx" if model == "cls" else "tile_detector.onnx")
    args = [
        "--only",
        model,
        "--init-onnx",
        str(onnx),
        "--corrections",
        str(out),
        "--minutes",
        "0.02",
        "--workers",
        "0",
        "--threads",
        "1",
        "--out",
        str(tmp_path),
        "--device",
        "cpu",
    ]
    args += (
        ["--cls-batch", "8", "--cls-mix", "1,0,0,0"]
        if model == "cls"
        else ["--det-batch", "2", "--det-size", "128"]
    )
    assert train.main(args) == 0
    log = (tmp_path / "train.log").read_text() if (tmp_path / "train.log").exists() else ""
    stats = json.loads((tmp_path / "train_stats.json").read_text())
    assert stats["real_photos"] == 3, (stats, log)
    import onnxruntime as ort

    sess = ort.InferenceSession(str(tmp_path / onnx.name), providers=["CPUExecutionProvider"])
    if model == "cls":
        x = np.zeros((1, 3, 64, 48), np.float32)
        assert sess.run(None, {sess.get_inputs()[0].name: x})[0].shape == (1, len(CLASSES))
    else:
        x = np.zeros((1, 3, 128, 160), np.float32)
        assert sess.run(None, {sess.get_inputs()[0].name: x})[0].shape[2:] == (32, 40)
