"""Photos kept with their corrected tiles (api/corrections.py): the opt-in route, the store on
each database back-end, and ``sanma export-corrections`` writing a labelled photo set."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sanma_lens.api import corrections, games
from sanma_lens.api.corrections import KeptPhotos, check_tiles, export
from sanma_lens.api.errors import install_error_handlers
from sanma_lens.api.settings import Settings
from sanma_lens.engine.errors import InputError
from tests.api.conftest import assert_error, drawn_photo
from tests.game.conftest import db_url, storage  # noqa: F401  (fixtures: each back-end)

PHOTO_ID = "0123456789abcdef0123456789abcdef"
TILES = [
    {"tile": "1p", "box": [40, 100, 110, 200], "angle": 0, "group": "hand"},
    {"tile": "0s", "box": [130, 100, 200, 200], "angle": 0, "group": "hand"},
    {"tile": "7z", "box": [220, 110, 320, 180], "angle": 90, "group": "meld"},
    {"tile": "back", "box": [400, 100, 470, 200], "angle": 0, "group": "meld"},
    {"tile": "4z", "box": None, "angle": 0, "group": "kita"},
]


@pytest.fixture
def client(storage):  # noqa: F811
    app = FastAPI()
    install_error_handlers(app)
    app.state.settings = Settings()
    app.state.recognizer_factory = lambda: None
    app.state.games = True
    app.state.services = None
    app.include_router(corrections.router)
    app.dependency_overrides[games.get_storage] = lambda: storage
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def keep(client, tiles=TILES, photo=None, photo_id=PHOTO_ID):
    files = {"image": ("photo.jpg", photo or drawn_photo(), "image/jpeg")}
    return client.post(
        "/v1/corrections", data={"id": photo_id, "tiles": json.dumps(tiles)}, files=files
    )


def test_a_kept_photo_is_stored_replaced_and_forgotten(client, storage):  # noqa: F811
    r = keep(client)
    assert r.status_code == 201, r.text
    assert r.json() == {"id": PHOTO_ID, "kept": True, "tiles": 5, "unboxed": 1}
    kept = KeptPhotos(storage).get(PHOTO_ID)
    assert kept is not None and kept.kind == "jpeg" and (kept.width, kept.height) == (640, 360)
    assert kept.image == drawn_photo()
    assert [t.to_json() for t in kept.tiles] == TILES
    r = keep(client, TILES[:2])  # the player corrected more: the same id replaces the record
    assert r.status_code == 200 and r.json()["tiles"] == 2
    assert len(KeptPhotos(storage).get(PHOTO_ID).tiles) == 2
    assert KeptPhotos(storage).ids() == [PHOTO_ID]
    r = client.delete(f"/v1/corrections/{PHOTO_ID}")
    assert r.status_code == 200 and r.json() == {"id": PHOTO_ID, "kept": False}
    assert KeptPhotos(storage).get(PHOTO_ID) is None
    assert_error(client.delete(f"/v1/corrections/{PHOTO_ID}"), 404, "not_found")


@pytest.mark.parametrize(
    ("tiles", "code"),
    [
        ({"tile": "1p"}, "invalid_request"),
        ([{"tile": "8z", "box": None}], "unknown_tile"),
        ([{"tile": "flower", "box": None}], "unknown_tile"),
        ([{"tile": "1p", "box": [10, 10, 5, 20]}], "invalid_request"),
        ([{"tile": "1p", "box": [10, 10, 700, 20]}], "invalid_request"),  # outside the 640 px photo
        ([{"tile": "1p", "box": [10, 10, "a", 20]}], "invalid_request"),
        ([{"tile": "1p", "box": None, "angle": 45}], "invalid_request"),
        ([{"tile": "1p", "box": None, "group": "mine"}], "invalid_request"),
        ([{"tile": "1p", "box": None, "colour": "red"}], "invalid_request"),
        ([{"tile": "1p", "box": None}] * 201, "invalid_request"),
    ],
)
def test_bad_tiles_are_a_422_and_keep_nothing(client, storage, tiles, code):  # noqa: F811
    assert_error(keep(client, tiles), 422, code)
    assert KeptPhotos(storage).ids() == []


def test_bad_ids_json_and_photos_are_4xx(client, storage):  # noqa: F811
    assert_error(keep(client, photo_id="../../etc"), 422, "invalid_request")
    assert_error(client.delete("/v1/corrections/XYZ"), 422, "invalid_request")
    r = client.post(
        "/v1/corrections",
        data={"id": PHOTO_ID, "tiles": "[{"},
        files={"image": ("p.jpg", drawn_photo(), "image/jpeg")},
    )
    assert_error(r, 400, "bad_json")
    assert_error(keep(client, photo=b"GIF89a" + b"\0" * 100), 415, "not_an_image")
    r = client.post("/v1/corrections", data={"id": PHOTO_ID, "tiles": "[]"})
    assert r.status_code == 422 and set(r.json()) == {"error"}
    assert KeptPhotos(storage).ids() == []


def test_boxes_are_checked_against_the_upright_photo():
    """A box lies in the photo as the page shows it: a 640×360 photo turned by its EXIF
    orientation is 360 wide."""
    tiles = [{"tile": "1p", "box": [300, 500, 350, 600], "angle": 0, "group": "hand"}]
    assert check_tiles(tiles, 360, 640)[0].box == (300.0, 500.0, 350.0, 600.0)
    with pytest.raises(InputError):
        check_tiles(tiles, 640, 360)


def test_export_writes_the_set_the_training_readers_read(storage, tmp_path):  # noqa: F811
    from datasets import train_data as td

    store = KeptPhotos(storage)
    app_photo = drawn_photo()
    from sanma_lens.api.corrections import KeptPhoto, KeptTile

    tiles = tuple(
        KeptTile(t["tile"], None if t["box"] is None else tuple(t["box"]), t["angle"], t["group"])
        for t in TILES
    )
    store.keep(
        KeptPhoto(PHOTO_ID, "2026-11-27T10:00:00.000+00:00", app_photo, "jpeg", 640, 360, tiles)
    )
    other = "f" * 32
    store.keep(
        KeptPhoto(other, "2026-11-27T10:01:00.000+00:00", app_photo, "jpeg", 640, 360, tiles[:2])
    )
    assert export(store, tmp_path) == 2
    classes = json.loads((tmp_path / "classes.json").read_text())["classes"]
    lines = (tmp_path / "labels" / f"{PHOTO_ID}.txt").read_text().splitlines()
    assert [classes[line.split()[0]] for line in lines] == ["1p", "0s", "7z", "back"]
    cx, cy, w, h = (float(v) for v in lines[2].split()[1:])
    assert (cx * 640, cy * 360, w * 640, h * 360) == pytest.approx((270, 145, 100, 70), abs=0.01)
    img = cv2.imread(str(tmp_path / "images" / f"{PHOTO_ID}.jpg"))
    assert img.shape == (360, 640, 3)
    photos = td.correction_photos(tmp_path)
    assert sorted(p.path.split("/")[-1] for p in photos) == [f"{PHOTO_ID}.jpg", f"{other}.jpg"]
    mine = next(p for p in photos if PHOTO_ID in p.path)
    assert mine.labels == ["1p", "0s", "7z", "back"]
    assert mine.sideways == [False, False, True, False]
    assert np.allclose(mine.boxes[2], [220, 110, 320, 180], atol=0.1)
    # a photo with a tile added by hand (no box) has incomplete boxes: not for the detector
    complete = td.correction_photos(tmp_path, complete_only=True)
    assert [p.path.split("/")[-1] for p in complete] == [f"{other}.jpg"]
    assert export(store, tmp_path) == 2  # again: the same files, nothing doubled
    assert len(json.loads((tmp_path / "corrections.json").read_text())["photos"]) == 2


def test_cli_export_corrections(storage, tmp_path, monkeypatch, capsys):  # noqa: F811
    from sanma_lens.api import cli

    if storage.backend != "sqlite":
        pytest.skip("the CLI reads the database the environment names; SQLite is enough")
    from sanma_lens.api.corrections import KeptPhoto, KeptTile

    KeptPhotos(storage).keep(
        KeptPhoto(
            PHOTO_ID,
            "2026-11-27T10:00:00.000+00:00",
            drawn_photo(),
            "jpeg",
            640,
            360,
            (KeptTile("1p", (40, 100, 110, 200), 0, "hand"),),
        )
    )
    monkeypatch.setenv("DATABASE_URL", storage.url)
    assert cli.main(["export-corrections", str(tmp_path / "out")]) == 0
    assert "1 kept photos written" in capsys.readouterr().out
    classes = json.loads((tmp_path / "out/classes.json").read_text())["classes"]
    line = (tmp_path / "out/labels" / f"{PHOTO_ID}.txt").read_text().split()
    assert classes[line[0]] == "1p"
    monkeypatch.setenv("DATABASE_URL", "mysql://nowhere")
    assert cli.main(["export-corrections", str(tmp_path / "x")]) == 2
    assert "DATABASE_URL" in capsys.readouterr().err
