"""Ability mahjong on the pages, in headless Chromium at phone size (390×844 and 360 px wide):
the scoreboard's role badges, the seiryuu's deposit on the table, the per-hand byakko
declaration and the kanpa entry; the camera page opened from an ability game carries the
winner's role and its fields (the seiryuu's extra indicators, the suzaku's chi, a kanpa);
English and Japanese."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.api.test_table_flow import PHONE, UNTRANSLATED_JS, server  # noqa: F401 - the fixture
from tests.support import checked_page

from .conftest import require_engine

pytestmark = pytest.mark.browser

ITTSU = "123p456p789p11z78s"  # closed ittsu, waits 6s and 9s


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _fits(pg) -> bool:
    return bool(pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _scores(pg) -> list[str]:
    return pg.locator("#players .score").all_inner_texts()


def _type(pg, hand: str, win: str = "", melds: str = "") -> None:
    if not pg.is_visible("#t-hand"):
        pg.click("#type-box summary")
    pg.fill("#t-hand", hand)
    pg.fill("#t-win", win)
    pg.fill("#t-melds", melds)
    pg.click("#type-form button[type=submit]")


def test_ability_scoreboard_roles_declarations_kanpa_and_deposit(browser, server, tmp_path):  # noqa: F811
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="en-US") as pg:
        for i, name in enumerate(["Aki", "Ben", "Chie"]):
            pg.fill(f'#new-game [name="p{i}"]', name)
        pg.check('#new-game [name="ability"]')
        assert pg.is_visible("#role-pick")
        pg.select_option('#new-game [name="role0"]', "seiryuu")
        pg.select_option('#new-game [name="role1"]', "byakko")
        pg.select_option('#new-game [name="role2"]', "genbu")
        pg.screenshot(path=str(tmp_path / "new-ability-game.png"), full_page=True)
        pg.click('#new-game button[type="submit"]')
        pg.wait_for_selector("#table:not([hidden])")
        game_id = pg.inner_text("#game-id")
        assert pg.locator("#players .role").all_inner_texts() == ["Seiryuu", "Byakko", "Genbu"]
        assert "Seiryuu's deposit at the hand's start: Aki 2,000" in pg.inner_text(
            "#ability-status"
        )
        # only the byakko's box, and only a genbu's kanpa
        assert pg.is_visible('#byakko-row label:has(input[value="1"])')
        assert not pg.is_visible('#byakko-row label:has(input[value="0"])')

        # E1 (genbu Chie starts at 25,000): Chie deals into Ben (2 han 30 fu, 2,000); Ben
        # declared byakko; Chie's kanpa on Aki's 9s. Aki puts up 2,000; Ben takes it, then pays
        # 4,000 to Chie and to Aki.
        pg.select_option('#hand [name="discarder"]', "2")
        pg.select_option('#wins [name="winner"]', "1")
        pg.fill('#wins [name="han"]', "2")
        pg.select_option('#wins [name="fu"]', "30")
        pg.check('#byakko-row input[value="1"]')
        pg.click("#add-kanpa")
        pg.select_option('#kanpa-list [name="target"]', "0")
        pg.select_option('#kanpa-list [name="tile"]', "9s")
        assert "byakko=1" in pg.get_attribute("#score-photo", "href")
        assert "kanpa=2:0:9s" in pg.get_attribute("#score-photo", "href")
        pg.screenshot(path=str(tmp_path / "ability-hand-form.png"), full_page=True)
        pg.click('#hand button[type="submit"]')
        pg.wait_for_selector("#round:has-text('East 2')")
        assert _scores(pg) == ["32,000", "26,000", "27,000"]
        log = pg.inner_text("#log")
        assert "byakko declared: Ben" in log and "kanpa Chie → Aki 9s" in log
        assert pg.locator("#kanpa-list .kanpa").count() == 0  # the next hand starts afresh

        # E2: the seiryuu's win given as han/fu says what its extra indicators added
        assert not pg.is_visible("#wins .seiryuu-only")
        pg.select_option('#hand [name="discarder"]', "1")
        pg.select_option('#wins [name="winner"]', "0")
        assert pg.is_visible("#wins .seiryuu-only")
        pg.fill('#wins [name="han"]', "2")
        pg.fill('#wins [name="seiryuu_han"]', "0")
        pg.click('#hand button[type="submit"]')
        pg.wait_for_selector("#round:has-text('East 3')")
        assert _scores(pg) == ["34,000", "24,000", "27,000"]
        assert "Aki 4,000" in pg.inner_text("#ability-status")  # nothing added: 4,000 next

        # E3: a draw without a declaration; Ben has been silent for two hands: must declare
        pg.check('#hand input[name="outcome"][value="draw"]')
        pg.click('#hand button[type="submit"]')
        pg.wait_for_selector("#honba:has-text('1')")
        assert "Must declare byakko this hand: Ben" in pg.inner_text("#ability-status")
        box = '#byakko-row input[value="1"]'
        assert pg.is_checked(box) and pg.is_disabled(box)
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "ability-scoreboard-390.png"), full_page=True)
        pg.set_viewport_size({"width": 360, "height": 740})
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "ability-scoreboard-360.png"), full_page=True)
        game = _get(f"{server}/v1/games/{game_id}")
        assert game["hands"][0]["result"]["byakko_declared"] == [1]
        assert game["hands"][0]["result"]["kanpa"] == [{"by": 2, "target": 0, "tile": "9s"}]


def test_ability_camera_page_carries_the_winners_role(browser, server, tmp_path):  # noqa: F811
    require_engine()
    game = _post(
        f"{server}/v1/games",
        {
            "players": ["Aki", "Ben", "Chie"],
            "rules": {"ability": True},
            "roles": ["seiryuu", "suzaku", "genbu"],
        },
    )
    with checked_page(
        browser, server, f"/game.html#{game['id']}", viewport=PHONE, locale="en-US"
    ) as pg:
        pg.wait_for_selector("#table:not([hidden])")
        pg.click("#add-kanpa")
        pg.select_option('#kanpa-list [name="target"]', "0")
        pg.select_option('#kanpa-list [name="tile"]', "6s")
        pg.click("#score-photo")
        pg.wait_for_url(re.compile(r"/\?game="))
        pg.wait_for_selector("#game-card:not([hidden]) [data-player='0']")
        assert "Seiryuu" in pg.inner_text("#game-panel [data-player='0']")

        # the seiryuu's win: its extra indicators have their own row of tiles
        pg.click("#game-panel [data-player='0']")
        assert pg.is_visible("[data-group='extra']")
        _type(pg, ITTSU, "9s")
        pg.click("#game-panel [data-discarder='1']")
        pg.click("[data-add='extra']")
        pg.click("#palette [data-pick='8s']")
        pg.click("#sheet-close")
        hand = pg.evaluate("handJson()")
        assert (hand["role"], hand["extra_dora"], hand["kanpa"]) == ("seiryuu", ["8s"], "6s")
        pg.wait_for_selector("[data-ability='seiryuu']", timeout=10_000)
        assert "next kan indicators 1 (+1 han)" in pg.inner_text("[data-ability='seiryuu']")
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "camera-seiryuu.png"), full_page=True)

        # a tsumo on the kanpa tile is no win
        _type(pg, ITTSU, "6s")
        pg.click("[data-sit='tsumo=true']")
        pg.wait_for_selector("[data-chombo='kanpa']", timeout=10_000)
        assert "a win on the kanpa tile" in pg.inner_text("#result")

        # the suzaku may chi: its meld kinds offer one
        pg.click("#game-panel [data-player='1']")
        pg.click("[data-action='new-meld']")
        pg.click("#sheet-close")
        kinds = pg.locator("[data-group='meld'] select option").all_inner_texts()
        assert "Chi" in kinds
        pg.click("#game-panel [data-player='0']")
        assert "Chi" not in pg.locator("[data-group='meld'] select option").all_inner_texts()

        # record the seiryuu's ron in the game from here (its extra 8s is still there)
        pg.click("[data-sit='tsumo=false']")
        _type(pg, ITTSU, "9s")
        assert pg.evaluate("handJson()")["extra_dora"] == ["8s"]
        pg.click("#game-panel [data-discarder='1']")
        pg.wait_for_selector("#record")
        pg.click("#record")
        pg.wait_for_url(re.compile(r"/game\.html"))
        pg.wait_for_selector("#message.ok")
        recorded = _get(f"{server}/v1/games/{game['id']}")["hands"][-1]
        assert recorded["input"]["wins"][0]["hand"]["role"] == "seiryuu"
        assert recorded["result"]["wins"][0]["seiryuu_han"] == 1
        assert recorded["result"]["kanpa"] == [{"by": 2, "target": 0, "tile": "6s"}]


def test_ability_pages_in_japanese_leave_no_english(browser, server, tmp_path):  # noqa: F811
    require_engine()
    game = _post(
        f"{server}/v1/games",
        {
            "players": ["あき", "べん", "ちえ"],
            "rules": {"ability": True},
            "roles": ["seiryuu", "byakko", "genbu"],
        },
    )
    with checked_page(
        browser, server, f"/game.html#{game['id']}", viewport=PHONE, locale="ja-JP"
    ) as pg:
        pg.wait_for_selector("#table:not([hidden])")
        pg.click("#add-kanpa")
        assert pg.locator("#players .role").all_inner_texts() == ["青龍", "白虎", "玄武"]
        assert pg.evaluate(UNTRANSLATED_JS) == []
        pg.screenshot(path=str(tmp_path / "ability-scoreboard-ja.png"), full_page=True)
        pg.click("#score-photo")
        pg.wait_for_selector("#game-card:not([hidden]) [data-player='0']")
        pg.click("#game-panel [data-player='0']")
        _type(pg, ITTSU, "9s")
        pg.click("#game-panel [data-discarder='2']")
        pg.wait_for_selector("[data-ability='seiryuu']", timeout=10_000)
        assert pg.evaluate(UNTRANSLATED_JS) == []
        pg.screenshot(path=str(tmp_path / "camera-ability-ja.png"), full_page=True)
        pg.goto(f"{server}/game.html#{game['id']}")
        pg.wait_for_selector("#table:not([hidden])")
        pg.click("#leave")
        pg.check('#new-game [name="ability"]')
        assert pg.evaluate(UNTRANSLATED_JS) == []
