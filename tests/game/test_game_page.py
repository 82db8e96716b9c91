"""The scoreboard page (api/web/game.html) in headless Chromium at 360 px, on the game router
and the pages' shared files (a bare FastAPI app served by uvicorn in a thread, SQLite in a
temporary folder)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.support import checked_page, free_port, open_page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    import uvicorn
    from fastapi import FastAPI
    from fastapi.staticfiles import StaticFiles

    from sanma_lens.api import games
    from sanma_lens.api.app import _web_file
    from sanma_lens.api.storage import Storage

    app = FastAPI()
    app.include_router(games.router)
    app.mount("/static", StaticFiles(directory=games.WEB), name="static")  # text.js, icons
    app.add_api_route("/sw.js", _web_file("sw.js", "text/javascript"))  # the app shell's worker
    storage = Storage("sqlite:///" + str(tmp_path_factory.mktemp("db") / "games.sqlite3"))
    app.dependency_overrides[games.get_storage] = lambda: storage
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not srv.started:
        if time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield base
    srv.should_exit = True
    thread.join(timeout=10)


def _open(browser, server, bypass_csp: bool):  # type: ignore[no-untyped-def]
    return open_page(browser, server, "/game.html", bypass_csp=bypass_csp, locale="ja-JP")


@pytest.fixture()
def page(browser, server):
    """The page at 360 px."""
    with checked_page(browser, server, "/game.html", locale="ja-JP") as pg:
        yield pg


def test_page_works_under_its_content_security_policy(browser, server):
    """The scoreboard runs with the phone page's CSP: no inline script, no eval, no outside call."""
    ctx, pg, errors, outside = _open(browser, server, bypass_csp=False)
    for i, name in enumerate(["A", "B", "C"]):
        pg.fill(f'#new-game [name="p{i}"]', name)
    pg.click('#new-game button[type="submit"]')
    pg.wait_for_selector("#table:not([hidden])")
    pg.select_option('#hand [name="discarder"]', "0")
    pg.select_option('#wins [name="winner"]', "1")
    pg.fill('#wins [name="han"]', "3")
    pg.select_option('#wins [name="fu"]', "40")
    pg.click('#hand button[type="submit"]')
    pg.wait_for_selector("#round:has-text('東2局')")
    assert pg.locator("#players .score").all_inner_texts() == ["24,000", "36,000", "30,000"]
    assert errors == [], errors
    assert outside == [], outside
    ctx.close()


def _scores(pg) -> list[str]:
    return pg.locator("#players .score").all_inner_texts()


def _fits_360(pg) -> bool:
    return pg.evaluate("document.documentElement.scrollWidth <= 360")


def test_page_keeps_a_game_at_360px(page, server):
    page.fill('#new-game [name="p0"]', "あき")
    page.fill('#new-game [name="p1"]', "Ben")
    page.fill('#new-game [name="p2"]', "ちえ")
    page.click('#new-game button[type="submit"]')
    page.wait_for_selector("#table:not([hidden])")
    assert _scores(page) == ["30,000"] * 3
    assert page.inner_text("#round") == "東1局"
    assert _fits_360(page)

    # ron: あき (dealer) deals into Ben's 3 han 40 fu → 6,000
    page.select_option('#hand [name="discarder"]', "0")
    page.select_option('#wins [name="winner"]', "1")
    page.fill('#wins [name="han"]', "3")
    page.select_option('#wins [name="fu"]', "40")
    page.click('#hand button[type="submit"]')
    page.wait_for_function("document.querySelector('#round').textContent === '東2局'")
    assert _scores(page) == ["24,000", "36,000", "30,000"]
    assert _fits_360(page)

    # draw with only ちえ tenpai and a riichi: East round, dealer Ben no-ten → E3
    page.check('#hand input[name="outcome"][value="draw"]')
    page.check('.player-checks[data-name="tenpai"] input[value="2"]')
    page.check('.player-checks[data-name="riichi"] input[value="2"]')
    page.click('#hand button[type="submit"]')
    page.wait_for_function("document.querySelector('#honba').textContent === '1'")
    assert page.inner_text("#deposits") == "1,000"
    assert _scores(page) == ["23,000", "35,000", "31,000"]
    assert page.locator("#log > li").count() == 2

    page.click("#undo")
    page.wait_for_function("document.querySelector('#honba').textContent === '0'")
    assert _scores(page) == ["24,000", "36,000", "30,000"]

    # a mis-call at a draw where nobody is tenpai: 1,000 into the deposits
    page.check('#hand input[name="outcome"][value="draw"]')
    page.click("#more summary")
    page.check('.player-checks[data-name="mis_calls"] input[value="0"]')
    page.click('#hand button[type="submit"]')
    page.wait_for_function("document.querySelector('#honba').textContent === '1'")
    assert page.inner_text("#deposits") == "1,000"
    assert _scores(page) == ["23,000", "36,000", "30,000"]
    page.click("#log > li:first-child summary")
    assert "1,000" in page.inner_text("#log > li:first-child ul")
    assert _fits_360(page)

    page.click("#lang")
    assert page.inner_text("h1") == "Scoreboard"
    assert page.inner_text("#round") == "East 3"


def test_page_sets_the_most_used_rule_options(page, server):
    page.click("#game-rules summary")
    page.fill('#new-game [name="return_points"]', "20000")  # below the start points
    page.click('#new-game button[type="submit"]')
    page.wait_for_selector("#message:not([hidden])")
    # the refusal (bad_rules) in the page's language, naming the setting to look at
    assert "返し" in page.inner_text("#message")
    assert page.locator("#table").is_hidden()

    page.fill('#new-game [name="start_points"]', "35000")
    page.fill('#new-game [name="return_points"]', "40000")
    page.fill('#new-game [name="uma"]', "20")
    page.select_option('#new-game [name="double_ron_honba"]', "first")
    page.click('#new-game button[type="submit"]')
    page.wait_for_selector("#table:not([hidden])")
    assert _scores(page) == ["35,000"] * 3
    game_id = page.inner_text("#game-id")
    with urllib.request.urlopen(f"{server}/v1/games/{game_id}", timeout=10) as r:
        rules = json.loads(r.read())["rules"]
    assert (rules["start_points"], rules["return_points"], rules["uma"]) == (35_000, 40_000, 20)
    assert rules["double_ron_honba"] == "first" and rules["aka_5man"] is False
    assert _fits_360(page)


def test_page_shows_the_final_settlement(page, server):
    def post(path: str, body: dict) -> dict:
        req = urllib.request.Request(
            server + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    game = post("/v1/games", {"players": ["A", "B", "C"]})
    for _ in range(6):
        dealer = game["dealer"]
        game = post(
            f"/v1/games/{game['id']}/hands",
            {
                "outcome": "ron",
                "discarder": dealer,
                "wins": [{"winner": (dealer + 1) % 3, "han": 2, "fu": 30}],
            },
        )
    assert game["finished"]
    page.goto(f"{server}/game.html#{game['id']}")
    page.wait_for_selector("#settlement:not([hidden])")
    rows = page.locator("#settlement tbody tr").all_inner_texts()
    assert len(rows) == 3 and "+" in rows[0]
    assert page.locator("#hand").is_hidden()
    assert _fits_360(page)

    # leave, then import the exported file: the same finished game under a new id
    with urllib.request.urlopen(f"{server}/v1/games/{game['id']}/export", timeout=10) as r:
        exported = r.read()
    page.click("#leave")
    page.set_input_files(
        "#import", files=[{"name": "game.json", "mimeType": "application/json", "buffer": exported}]
    )
    page.wait_for_selector("#settlement:not([hidden])")
    assert page.inner_text("#game-id") != game["id"]
    assert page.locator("#settlement tbody tr").all_inner_texts() == rows


def test_page_keeps_a_four_player_ecip_game(page, server, tmp_path):
    """ECIP at four seats: the rule system's seats and points, its abortive draw, and a win
    that says whether it was closed (ECIP gives the deposits only to a closed win)."""
    page.select_option('#new-game [name="preset"]', "ecip")
    assert page.locator('#new-game [name="p3"]').is_visible()
    assert page.locator('#new-game [name="aka"]').is_hidden()
    assert page.input_value('#new-game [name="start_points"]') == "27000"
    for i, name in enumerate(["あき", "Ben", "ちえ", "Dai"]):
        page.fill(f'#new-game [name="p{i}"]', name)
    page.click('#new-game button[type="submit"]')
    page.wait_for_selector("#table:not([hidden])")
    assert _scores(page) == ["27,000"] * 4
    assert page.locator("#players .wind").all_inner_texts() == ["東", "南", "西", "北"]
    assert page.locator("#nagashi-label").inner_text() == "流し満貫"
    assert page.locator("#manemann-row").is_hidden()
    assert page.locator('#hand [name="aka5man"]').is_hidden()  # no aka-5-man at four players
    assert _fits_360(page)

    # 四家立直: an abortive draw; the sticks stay, the East dealer passes the deal
    page.check('#hand input[name="outcome"][value="abortive"]')
    for p in range(4):
        page.check(f'.player-checks[data-name="riichi"] input[value="{p}"]')
    page.click('#hand button[type="submit"]')
    page.wait_for_function("document.querySelector('#round').textContent === '東2局'")
    assert page.inner_text("#deposits") == "4,000"
    assert _scores(page) == ["26,000"] * 4

    # Dai rons ちえ, 2 han 30 fu with a closed hand: 2,000 + 300 honba and the deposits
    page.select_option('#hand [name="discarder"]', "2")
    page.select_option('#wins [name="winner"]', "3")
    page.select_option('#wins [name="closed"]', "true")
    page.click('#hand button[type="submit"]')
    page.wait_for_function("document.querySelector('#deposits').textContent === '0'")
    assert _scores(page) == ["26,000", "26,000", "23,700", "32,300"]
    assert page.inner_text("#round") == "東3局"
    assert _fits_360(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(tmp_path / "ecip-390.png"), full_page=True)

    page.click("#lang")
    assert page.locator("#players .wind").all_inner_texts() == ["W", "N", "E", "S"]  # E3
    assert "Nagashi mangan" in page.inner_text("#nagashi-label")
