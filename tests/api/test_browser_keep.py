"""The phone page's opt-in to keep a corrected photo (api/web/keep.js) in a real browser.

A server on a free port with its own SQLite file; the recognition answer is a fixed one (the
route is fulfilled in the browser), so no model is needed. Off by default and said on the page
in English and Japanese; ticked, the photo and its tiles reach the store, a correction replaces
them, unticking deletes them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from sanma_lens.api.corrections import KeptPhotos
from sanma_lens.api.storage import Storage
from tests.support import checked_page, served_app

from .conftest import drawn_photo

pytestmark = pytest.mark.browser

TILES = ["1m", "1m", "1m", "2p", "3p", "4p", "5p", "6p", "7p", "1s", "2s", "3s", "7z"]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    return "sqlite:///" + str(tmp_path_factory.mktemp("keep") / "games.sqlite3")


@pytest.fixture(scope="module")
def server(db) -> Iterator[str]:
    with served_app(DATABASE_URL=db) as base:
        yield base


def _recognized() -> dict:
    tiles = [
        {
            "tile": t,
            "red": False,
            "box": [40.0 * i + 20, 100.0, 40.0 * i + 56, 150.0],
            "angle": 0,
            "confidence": 0.9,
            "face_down": False,
            "group": "hand",
            "alternatives": [],
        }
        for i, t in enumerate(TILES)
    ]
    tiles[12]["tile"] = "6z"  # misread: the player corrects it to 7z
    return {
        "tiles": tiles,
        "hand": {"hand": "111m234567p123s6z", "melds": [], "kita": 0, "kita_aka": 0},
        "warnings": [],
        "image_size": [640, 360],
        "score": None,
        "score_kind": None,
    }


def _wait(check, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


def test_keeping_a_corrected_photo_is_opt_in_and_follows_the_corrections(
    browser, server, db, tmp_path
):
    store = KeptPhotos(Storage(db))
    with checked_page(browser, server, "/", device_scale_factor=2) as pg:
        pg.set_viewport_size({"width": 390, "height": 844})
        assert pg.is_hidden("#keep-box")  # no photo yet, nothing to keep
        pg.route("**/v1/photo/score*", lambda route: route.fulfill(json=_recognized()))
        photo = tmp_path / "drawn.jpg"
        photo.write_bytes(drawn_photo())
        pg.set_input_files("#picker", str(photo))
        pg.wait_for_selector("#overlay g.det", timeout=20_000)
        assert pg.is_visible("#keep-box")
        assert not pg.is_checked("#keep")  # off by default ...
        text = pg.inner_text("#keep-box")
        assert "Keep this photo" in text and "Nothing is kept unless you tick" in text
        time.sleep(1.0)
        assert store.ids() == []  # ... and nothing was sent
        pg.screenshot(path=str(tmp_path / "keep-390.png"), full_page=True)

        pg.check("#keep")
        pg.wait_for_selector("#keep-status[data-keep='kept']", timeout=10_000)
        ids = store.ids()
        assert len(ids) == 1
        kept = store.get(ids[0])
        assert kept.image == photo.read_bytes()  # the photo as uploaded (small: not shrunk)
        assert [t.tile for t in kept.tiles] == [*TILES[:12], "6z"]
        assert kept.tiles[0].box == (20.0, 100.0, 56.0, 150.0) and kept.tiles[0].group == "hand"

        pg.locator("#overlay g.det[data-i='12']").dispatch_event("click")  # correct 6z → 7z
        pg.click("#palette [data-pick='7z']")
        assert _wait(lambda: store.get(ids[0]).tiles[12].tile == "7z")
        assert store.ids() == ids  # replaced, not kept twice

        pg.click("#lang")
        assert "チェックしない限り何も保存されません" in pg.inner_text("#keep-box")
        pg.uncheck("#keep")
        pg.wait_for_selector("#keep-status[data-keep='keep_deleted']", timeout=10_000)
        assert store.ids() == []
        assert "削除しました" in pg.inner_text("#keep-status")
        wide = pg.evaluate("document.documentElement.scrollWidth")
        pg.set_viewport_size({"width": 360, "height": 740})
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360, wide
        pg.screenshot(path=str(tmp_path / "keep-360-ja.png"), full_page=True)
    store.storage.close()
