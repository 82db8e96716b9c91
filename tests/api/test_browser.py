"""The phone page in a real browser (headless Debian Chromium driven by Playwright).

Starts `uvicorn sanma_lens.api.app:create_app --factory` on a free 127.0.0.1 port, then: types a
hand with a misread tile, corrects it from the palette and sees the engine's points; uploads a
rendered photo and sees every tile outlined (or, without a model, the clear 503 message).
Skips when /usr/bin/chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import checked_page, open_page, served_app

from .conftest import drawn_photo, require_engine

pytestmark = pytest.mark.browser


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with served_app() as base:
        yield base


def _open(browser, server, bypass_csp: bool):  # type: ignore[no-untyped-def]
    return open_page(browser, server, "/", bypass_csp=bypass_csp, device_scale_factor=2)


@pytest.fixture()
def page(browser, server):
    """The page at 360 px."""
    with checked_page(browser, server, "/", device_scale_factor=2) as pg:
        yield pg


def test_page_works_under_its_content_security_policy(browser, server, tmp_path):
    """No inline script, no eval, no outside request: the page runs with its own CSP."""
    require_engine()
    ctx, pg, errors, outside = _open(browser, server, bypass_csp=False)
    pg.click("#type-box summary")
    pg.fill("#t-hand", "234p456p789s11z22z")
    pg.fill("#t-win", "2z")
    pg.click("#type-form button[type=submit]")
    pg.click("[data-sit='riichi=riichi']")
    pg.wait_for_selector("[data-verdict='valid']", timeout=10_000)
    pg.click("#lang")
    pg.wait_for_selector("text=立直")
    if _get_json(server + "/v1/info")["model_loaded"]:  # the photo is shown from a blob: URL
        photo = tmp_path / "drawn.jpg"
        photo.write_bytes(drawn_photo())
        pg.set_input_files("#picker", str(photo))
        pg.wait_for_selector("#overlay image", state="attached", timeout=60_000)
    assert errors == [], errors
    assert outside == [], outside
    ctx.close()


def _tiles(mpsz: str) -> list[str]:
    """ "234p11z" → sorted ["1z", "1z", "2p", "3p", "4p"] (to compare MPSZ strings)."""
    out, digits = [], ""
    for ch in mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return sorted(out)


def _page_hand(pg) -> dict:
    return pg.evaluate("handJson()")


def _wait_result(pg, expected_total: int) -> None:
    pg.wait_for_selector(f"[data-total='{expected_total}']", timeout=10_000)


def test_type_a_hand_correct_a_misread_tile_and_see_the_points(page, tmp_path):
    require_engine()
    from sanma_lens.engine.service import score_json

    pg = page
    pg.click("#type-box summary")
    pg.fill("#t-hand", "234p456p789s11z23z")  # the last 2z misread as 3z
    pg.fill("#t-win", "2z")
    pg.click("#type-form button[type=submit]")
    pg.click("[data-sit='riichi=riichi']")
    pg.wait_for_selector("[data-verdict='invalid']", timeout=10_000)
    assert score_json(_page_hand(pg))["valid"] is False

    # Tap the wrong tile, pick the right one from the palette.
    pg.click("#groups [data-group='hand'] button[data-tile='3z']")
    assert pg.is_visible("#sheet")
    pg.click("#palette [data-pick='2z']")
    hand = _page_hand(pg)
    assert _tiles(hand["hand"]) == _tiles("234p456p789s11z22z") and hand["win"] == "2z"
    expected = score_json(hand)
    assert expected["valid"] is True
    _wait_result(pg, expected["total"])
    assert pg.is_visible("[data-verdict='valid']")
    text = pg.inner_text("#result")
    assert "Riichi" in text and "Yakuhai" in text

    # Tsumo changes the payments; the page shows the engine's numbers.
    pg.click("[data-sit='tsumo=true']")
    expected = score_json(_page_hand(pg))
    _wait_result(pg, expected["total"])

    # Japanese labels.
    pg.click("#lang")
    pg.wait_for_selector("text=立直")
    assert "役牌" in pg.inner_text("#result")
    pg.screenshot(path=str(tmp_path / "page-360.png"), full_page=True)


def test_move_a_tile_to_kita_and_add_a_missing_tile(page):
    require_engine()
    from sanma_lens.engine.service import score_json

    pg = page
    pg.click("#type-box summary")
    pg.fill("#t-hand", "234p456p789s11z4z2z")
    pg.fill("#t-win", "2z")
    pg.click("#type-form button[type=submit]")
    # The north is an extracted kita, and one 2z is missing from the photo/typing.
    pg.click("#groups [data-group='hand'] button[data-tile='4z']")
    pg.click("#sheet-moves [data-move='kita']")
    pg.click("#groups [data-add='hand']")
    pg.click("#palette [data-pick='2z']")
    pg.click("#sheet-close")
    pg.click("[data-sit='riichi=riichi']")
    hand = _page_hand(pg)
    assert (_tiles(hand["hand"]), hand["kita"]) == (_tiles("234p456p789s11z22z"), 1)
    expected = score_json(hand)
    assert expected["dora"]["kita"] == 1
    _wait_result(pg, expected["total"])


def test_tenpai_hand_shows_the_waits(page):
    require_engine()
    from sanma_lens.engine.service import tenpai_json

    pg = page
    pg.click("#type-box summary")
    pg.fill("#t-hand", "234p456p789s11z22z")
    pg.click("#type-form button[type=submit]")
    pg.click("[data-sit='riichi=riichi']")
    pg.wait_for_selector("[data-verdict='tenpai']", timeout=10_000)
    hand = _page_hand(pg)
    expected = tenpai_json(hand)
    assert pg.locator(".wait").count() == len(expected["waits"])
    # Each wait shows its value: the hand scored with that winning tile.
    from sanma_lens.engine.service import score_json

    for w in expected["waits"]:
        total = score_json({**hand, "win": w["tile"]})["total"]
        pg.wait_for_selector(f"[data-wait-total='{total}']", timeout=10_000)


def _rendered_photo(tmp_path: Path) -> tuple[Path, dict | None]:
    """A rendered table photo with its true hand, or an OpenCV drawing when no renderer."""
    try:
        import cv2
        import numpy as np

        from datasets.synth.scene import render_scene

        scene = render_scene(np.random.default_rng(7), size=(1280, 960), distractors=False)
        path = tmp_path / "scene.jpg"
        cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        return path, dict(scene.hand)
    except Exception:  # noqa: BLE001 - the renderer or its face bank may be absent
        path = tmp_path / "drawn.jpg"
        path.write_bytes(drawn_photo())
        return path, None


def test_photo_upload_outlines_every_tile_and_can_be_corrected(page, server, tmp_path):
    require_engine()
    if not _get_json(server + "/v1/info")["model_loaded"]:
        pytest.skip("no recognition model on this machine")
    from sanma_lens.engine.service import score_json, tenpai_json

    pg = page
    photo, _truth = _rendered_photo(tmp_path)
    pg.set_input_files("#picker", str(photo))
    pg.wait_for_selector("#overlay g.det", timeout=60_000)
    n_boxes = pg.locator("#overlay g.det").count()
    status = pg.inner_text("#photo-status")
    assert status.startswith(f"{n_boxes} ")
    assert pg.locator("#overlay image").count() == 1

    # Correct one tile through the overlay: tap its box, pick another tile, see the points.
    box = pg.locator("#overlay g.det.g-hand").first
    i = int(box.get_attribute("data-i"))
    before = pg.evaluate(f"S.items[{i}].tile")
    new_tile = "9p" if before == "1p" else "1p"
    box.dispatch_event("click")
    assert pg.is_visible("#sheet")
    pg.click(f"#palette [data-pick='{new_tile}']")
    assert pg.evaluate(f"S.items[{i}].tile") == new_tile
    assert pg.text_content(f"#overlay g.det[data-i='{i}'] text") == new_tile
    hand = _page_hand(pg)
    pg.wait_for_selector("[data-verdict]", timeout=10_000)
    try:
        expected = score_json(hand) if hand.get("win") else tenpai_json(hand)
    except Exception:  # noqa: BLE001 - a misread may leave an impossible hand: the page says so
        pg.wait_for_selector("[data-verdict='error']", timeout=10_000)
    else:
        if "total" in expected:
            _wait_result(pg, expected["total"])
    pg.screenshot(path=str(tmp_path / "photo-360.png"), full_page=True)


def test_correcting_a_tile_offers_the_cameras_next_best_readings_first(page, tmp_path):
    """A misread tile's alternatives (recognize JSON extension) are the first choices offered."""
    require_engine()
    tiles = [
        {
            "tile": t,
            "red": False,
            "box": [40.0 * i, 10.0, 40.0 * i + 36, 58.0],
            "angle": 0,
            "confidence": 0.9,
            "face_down": False,
            "group": "hand",
            "alternatives": [],
        }
        for i, t in enumerate(
            ["1m", "1m", "1m", "2p", "3p", "4p", "5p", "6p", "7p", "1s", "2s", "3s", "7z"]
        )
    ]
    tiles[12]["tile"], tiles[12]["confidence"] = "6z", 0.41
    tiles[12]["alternatives"] = [
        {"tile": "7z", "red": False, "confidence": 0.38},
        {"tile": "5z", "red": False, "confidence": 0.1},
    ]
    body = {
        "tiles": tiles,
        "hand": {"hand": "111m234567p123s6z", "win": None, "melds": [], "kita": 0, "kita_aka": 0},
        "warnings": [],
        "image_size": [560, 80],
        "score": None,
        "score_kind": None,
    }
    page.route("**/v1/photo/score*", lambda route: route.fulfill(json=body))
    photo = tmp_path / "drawn.jpg"
    photo.write_bytes(drawn_photo())
    page.set_input_files("#picker", str(photo))
    page.wait_for_selector("#overlay g.det", timeout=20_000)

    # The unsure tile is marked for checking; a sure one is not.
    assert "unsure" in page.get_attribute("#overlay g.det[data-i='12']", "class")
    assert page.text_content("#overlay g.det[data-i='12'] text") == "6z?"
    assert "unsure" not in page.get_attribute("#overlay g.det[data-i='0']", "class")
    page.locator("#overlay g.det[data-i='12']").dispatch_event("click")
    assert page.is_visible("#sheet-likely")
    offered = page.eval_on_selector_all(
        "#sheet-likely [data-likely]", "bs => bs.map(b => b.dataset.likely)"
    )
    assert offered == ["7z", "5z"]
    page.click("#sheet-likely [data-likely='7z']")
    assert page.evaluate("S.items[12].tile") == "7z"
    assert "unsure" not in page.get_attribute("#overlay g.det[data-i='12']", "class")  # confirmed

    # A tile read with no doubt offers no "maybe" row.
    page.locator("#overlay g.det[data-i='0']").dispatch_event("click")
    assert not page.is_visible("#sheet-likely")


def test_photo_upload_without_model_says_so(page, server, tmp_path):
    if _get_json(server + "/v1/info")["model_loaded"]:
        pytest.skip("a model is loaded here")
    photo = tmp_path / "drawn.jpg"
    photo.write_bytes(drawn_photo())
    page.set_input_files("#camera", str(photo))
    page.wait_for_selector("#photo-status.error", timeout=10_000)
    assert "not available" in page.inner_text("#photo-status")


def test_not_an_image_is_reported_on_the_page(page, tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    page.set_input_files("#picker", str(bad))
    page.wait_for_selector("#photo-status.error", timeout=10_000)
    assert "not a JPEG" in page.inner_text("#photo-status")


def test_add_a_pon_and_a_red_five_from_the_palette(page):
    require_engine()
    from sanma_lens.engine.service import score_json

    pg = page
    pg.click("#type-box summary")
    pg.fill("#t-hand", "234p456p789s1z")  # 10 tiles: a called pon is missing
    pg.fill("#t-win", "1z")
    pg.click("#type-form button[type=submit]")
    pg.click("[data-action='new-meld']")
    for _ in range(3):
        pg.click("#palette [data-pick='7z']")
    pg.click("#sheet-close")
    # The 5p of 456p is the red one: tap it, pick the red five.
    pg.click("#groups [data-group='hand'] button[data-tile='5p']")
    pg.click("#palette [data-pick='0p']")
    hand = _page_hand(pg)
    assert hand["melds"] == ["pon:777z"]
    assert "0" in hand["hand"] and _tiles(hand["hand"]).count("0p") == 1
    expected = score_json(hand)
    assert expected["dora"]["aka"] == 1
    _wait_result(pg, expected["total"])
    # The aka-5-man option offers the aka-5-man (0m), and how a discarded one is taken once the
    # winning tile is one (the choice cannot apply to any other tile).
    pg.click("[data-toggle='aka_5man']")
    assert _page_hand(pg)["rules"]["aka_5man"] is True
    assert not pg.is_visible("[data-sit='aka5man_as=5p']")
    pg.click("#groups [data-group='win'] button[data-tile='1z']")
    pg.click("#palette [data-pick='0m']")
    assert pg.is_visible("[data-sit='aka5man_as=5p']")


def test_big_photo_is_shrunk_before_upload(page, server, tmp_path):
    if not _get_json(server + "/v1/info")["model_loaded"]:
        pytest.skip("no recognition model on this machine")
    big = tmp_path / "big.jpg"
    big.write_bytes(drawn_photo(4000, 3000))
    page.set_input_files("#picker", str(big))
    page.wait_for_function("S.photo !== null", timeout=60_000)
    assert page.evaluate("[S.photo.w, S.photo.h]") == [2560, 1920]
