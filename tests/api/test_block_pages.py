"""Ability blocks on the scoreboard page, in headless Chromium at phone size (390×844 and 360 px
wide), English and Japanese: a block started from the page alone (names, roles chosen from the
first chooser in turn order, who chooses first), its hanchan one after another from the finished
one, the block's standings, a refusal phrased from text.js, and the next block started from the
finished one with the top player choosing first (docs/rules/ability.md, ABILITY.md ¶1)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.api.test_table_flow import PHONE, UNTRANSLATED_JS, server  # noqa: F401 - the fixture
from tests.support import checked_page

pytestmark = pytest.mark.browser


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _post(url: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        url,
        data=json.dumps(body or {}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _fits(pg) -> bool:
    return bool(pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _finish(base: str, game_id: str, loser: int) -> None:
    """End a game at once over HTTP: ``loser`` deals a double yakuman and busts."""
    game = _get(f"{base}/v1/games/{game_id}")
    winner = (loser + 1) % 3
    body: dict = {
        "outcome": "ron",
        "discarder": loser,
        "wins": [{"winner": winner, "limit": "yakuman", "yakuman_multiple": 2}],
    }
    roles = [p["role"] for p in game["players"]]
    if "byakko" in roles and game["ability"]["byakko"][0]["must_declare"]:
        body["byakko_declared"] = [roles.index("byakko")]
    if roles[winner] == "seiryuu":
        body["wins"][0]["seiryuu_han"] = 0
    assert _post(f"{base}/v1/games/{game_id}/hands", body)["finished"]


def _open(pg, base: str, game_id: str) -> None:
    """The page loaded afresh on a game (a new hash alone would not reload it)."""
    pg.goto(f"{base}/game.html#{game_id}")
    pg.reload()
    pg.wait_for_selector("#table:not([hidden])")


def _start_block(pg, names: list[str], chooser: int, roles: list[str]) -> None:
    for i, name in enumerate(names):
        pg.fill(f'#new-game [name="p{i}"]', name)
    pg.check('#new-game [name="ability"]')
    assert pg.is_visible("#role-pick") and pg.is_checked('#new-game [name="block"]')
    pg.select_option('#new-game [name="chooses_first"]', str(chooser))
    for seat, role in enumerate(roles):
        pg.select_option(f'#new-game [name="role{seat}"]', role)


def test_a_block_is_started_played_hanchan_after_hanchan_and_summed_from_the_page(
    browser,
    server,  # noqa: F811
    tmp_path,
):
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="en-US") as pg:
        # ¶1: Ben chooses first, then Chie, then Aki (turn order): the role fields say so
        _start_block(pg, ["Aki", "Ben", "Chie"], 1, ["seiryuu", "byakko", "kouryuu"])
        assert pg.locator("#role-order .chooser").all_inner_texts() == [
            "1. Ben — South",
            "2. Chie — West",
            "3. Aki — First dealer (East)",
        ]
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "block-new.png"), full_page=True)
        pg.click('#new-game button[type="submit"]')
        pg.wait_for_selector("#block:not([hidden])")
        assert pg.inner_text("#message") == "Block started: hanchan 1"
        assert pg.inner_text("#block-where") == "Ability block: hanchan 1 of 4"
        assert pg.locator("#players .role").all_inner_texts() == ["Seiryuu", "Byakko", "Kouryuu"]
        assert "Roles were chosen in the order Ben → Chie → Aki" in pg.inner_text("#block")
        first = pg.inner_text("#game-id")
        block_id = _get(f"{server}/v1/games/{first}")["block"]["id"]
        assert _get(f"{server}/v1/blocks/{block_id}")["choosing_order"] == ["Ben", "Chie", "Aki"]
        assert pg.is_hidden("#next-game")  # the hanchan is still being played

        # the hanchan ends on the page: Aki deals Ben a double yakuman and busts
        pg.select_option('#hand [name="discarder"]', "0")
        pg.select_option('#wins [name="winner"]', "1")
        pg.check('#wins .value-modes input[value="limit"]')
        pg.select_option('#wins [name="limit"]', "yakuman")
        pg.fill('#wins [name="multiple"]', "2")
        pg.click('#hand button[type="submit"]')
        pg.wait_for_selector("#next-game:not([hidden])")
        totals = {s["name"]: s["total"] for s in _get(f"{server}/v1/games/{first}")["settlement"]}
        rows = pg.locator("#block-standings tbody tr").all_inner_texts()
        assert rows[0].startswith("1") and "Ben" in rows[0] and "Byakko" in rows[0]
        assert f"+{totals['Ben']}" in rows[0]
        assert pg.inner_text("#next-title") == "Hanchan 2: seats"
        assert "top: Ben" in pg.inner_text("#block-games")
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "block-hanchan-1-over.png"), full_page=True)

        # the next hanchan, seated anew from the finished one; the roles stay with the names
        pg.select_option('#next-game [name="s0"]', "Chie")
        pg.select_option('#next-game [name="s1"]', "Aki")
        pg.select_option('#next-game [name="s2"]', "Ben")
        pg.click('#next-game button[type="submit"]')
        pg.wait_for_selector("#block-where:has-text('hanchan 2 of 4')")
        assert pg.inner_text("#message") == "Hanchan 2 started"
        names = pg.locator("#players .name").all_inner_texts()
        assert names[0].endswith("Chie (dealer)")
        assert names[1].endswith("Aki") and names[2].endswith("Ben")
        assert pg.locator("#players .role").all_inner_texts() == ["Kouryuu", "Seiryuu", "Byakko"]
        second = pg.inner_text("#game-id")
        assert second != first and _get(f"{server}/v1/games/{second}")["block"]["number"] == 2
        assert pg.is_hidden("#next-game")

        # an earlier hanchan opened from the block's list: no next form, a way to the latest
        pg.click("#block-games li:first-child button")
        pg.wait_for_selector("#block-latest:not([hidden])")
        assert pg.inner_text("#game-id") == first and pg.is_hidden("#next-game")
        pg.click("#open-latest")
        pg.wait_for_selector(f"#game-id:has-text('{second}')")

        # a refusal phrased from text.js: another phone started hanchan 3 while this one
        # still showed hanchan 2's end
        _finish(server, second, 0)
        _open(pg, server, second)
        pg.wait_for_selector("#next-game:not([hidden])")
        _post(f"{server}/v1/blocks/{block_id}/games")
        pg.click('#next-game button[type="submit"]')
        pg.wait_for_selector("#message:has-text('not over yet')")
        assert pg.inner_text("#message").startswith(
            "The block's latest hanchan is not over yet (another phone may have started it): "
            "open it and finish it first."
        )
        pg.wait_for_selector("#block-latest:not([hidden])")
        assert pg.is_hidden("#next-game")

        # the block's last hanchan: over, its standings summed, the next block from it
        block = _get(f"{server}/v1/blocks/{block_id}")
        third = block["games"][2]["id"]
        _finish(server, third, 1)
        fourth = _post(f"{server}/v1/blocks/{block_id}/games")["games"][3]["id"]
        _finish(server, fourth, 2)
        block = _get(f"{server}/v1/blocks/{block_id}")
        assert block["finished"]
        _open(pg, server, fourth)
        pg.wait_for_selector("#block-done:not([hidden])")
        assert pg.is_hidden("#next-game")
        order = " → ".join(block["next_choosing_order"])
        assert f"Next block: roles are chosen in the order {order}" in pg.inner_text("#block")
        shown = pg.locator("#block-standings tbody tr").all_inner_texts()
        for row, standing in zip(shown, block["standings"], strict=True):
            assert standing["name"] in row
            assert row.rstrip().endswith(
                f"{'+' if standing['total'] > 0 else ''}{standing['total']:,}"
            )
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "block-over-390.png"), full_page=True)
        pg.set_viewport_size({"width": 360, "height": 740})
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "block-over-360.png"), full_page=True)
        pg.set_viewport_size(PHONE)

        pg.click("#new-block")
        pg.wait_for_selector("#start:not([hidden])")
        last_seats = block["games"][3]["players"]
        assert [pg.input_value(f'#new-game [name="p{k}"]') for k in range(3)] == last_seats
        assert pg.is_checked('#new-game [name="ability"]') and pg.is_checked(
            '#new-game [name="block"]'
        )
        top = block["next_choosing_order"][0]
        chooser = pg.input_value('#new-game [name="chooses_first"]')
        assert last_seats[int(chooser)] == top
        assert pg.locator("#role-order .chooser").first.inner_text().startswith(f"1. {top} ")
        pg.click('#new-game button[type="submit"]')
        pg.wait_for_selector("#block-where:has-text('hanchan 1 of 4')")
        new_block = _get(f"{server}/v1/games/{pg.inner_text('#game-id')}")["block"]["id"]
        assert new_block != block_id
        assert _get(f"{server}/v1/blocks/{new_block}")["choosing_order"] == list(
            block["next_choosing_order"]
        )


def test_roles_taken_earlier_are_not_offered_without_repeats(browser, server):  # noqa: F811
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="en-US") as pg:
        _start_block(pg, ["Aki", "Ben", "Chie"], 2, ["genbu", "genbu", "genbu"])
        pg.uncheck('#new-game [name="roles_may_repeat"]')
        # Chie chooses first and keeps genbu; Aki and Ben are moved off it, in turn order
        roles = [pg.input_value(f'#new-game [name="role{k}"]') for k in range(3)]
        assert roles[2] == "genbu" and len(set(roles)) == 3
        assert pg.is_disabled('#new-game [name="role0"] option[value="genbu"]')
        assert not pg.is_disabled('#new-game [name="role2"] option[value="genbu"]')
        pg.click('#new-game button[type="submit"]')
        pg.wait_for_selector("#block:not([hidden])")
        game = _get(f"{server}/v1/games/{pg.inner_text('#game-id')}")
        assert game["rules"]["roles_may_repeat"] is False
        assert [p["role"] for p in game["players"]] == roles


def test_a_block_page_in_japanese_leaves_no_english(browser, server, tmp_path):  # noqa: F811
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="ja-JP") as pg:
        _start_block(pg, ["あき", "べん", "ちえ"], 0, ["tenshi", "suzaku", "genbu"])
        assert pg.locator("#role-order .chooser").all_inner_texts() == [
            "1番目: あき・起家 (東)",
            "2番目: べん・南家",
            "3番目: ちえ・西家",
        ]
        assert pg.evaluate(UNTRANSLATED_JS) == []
        pg.screenshot(path=str(tmp_path / "block-new-ja.png"), full_page=True)
        pg.set_viewport_size({"width": 360, "height": 740})
        assert _fits(pg)
        pg.set_viewport_size(PHONE)
        pg.click('#new-game button[type="submit"]')
        pg.wait_for_selector("#block:not([hidden])")
        assert pg.inner_text("#block-where") == "能力麻雀ブロック 第1半荘 (全4半荘)"
        assert pg.evaluate(UNTRANSLATED_JS) == []
        game_id = pg.inner_text("#game-id")
        _finish(server, game_id, 0)
        _open(pg, server, game_id)
        pg.wait_for_selector("#next-game:not([hidden])")
        assert pg.inner_text("#next-title") == "第2半荘の席順"
        assert "トップ: べん" in pg.inner_text("#block-games")
        assert pg.evaluate(UNTRANSLATED_JS) == []
        assert _fits(pg)
        pg.screenshot(path=str(tmp_path / "block-next-ja.png"), full_page=True)
        pg.set_viewport_size({"width": 360, "height": 740})
        assert _fits(pg)
        block_id = _get(f"{server}/v1/games/{game_id}")["block"]["id"]
        # a refusal on a Japanese page: the phrase alone
        _post(f"{server}/v1/blocks/{block_id}/games")
        pg.click('#next-game button[type="submit"]')
        pg.wait_for_selector("#message:has-text('まだ終わっていません')")
        assert pg.inner_text("#message") == (
            "ブロックの最新の半荘がまだ終わっていません (他の端末で開始された可能性があります)。"
            "その半荘を開いて先に終わらせてください。"
        )
        assert pg.evaluate(UNTRANSLATED_JS) == []
