"""What each role changes, where the camera page says it first: the headline (the big table
call), the summary bar and the record button; the breakdown showing the change apart. In
headless Chromium at phone size (390×844), in English and in Japanese (docs/rules/ability.md):

- the suzaku receives half: its call is what it receives (¶2.6), the halving in the breakdown;
- a declared byakko's 6+ han win counts one limit higher (the call is the higher one), and a
  win of 5 han or less is followed by its mangan payment (the net under the call) (¶2.7);
- a win on the kanpa tile that the rule forbids is refused, as chombo (¶10), with the reason.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.api.test_table_flow import PHONE, UNTRANSLATED_JS, _type, server  # noqa: F401
from tests.support import checked_page

from .conftest import require_engine

pytestmark = pytest.mark.browser

ITTSU = "123p456p789p11z78s"  # closed ittsu, 2 han 40 fu on 9s: ron 2,560 → 3,000
CHINITSU = "1122334455667p"  # closed chinitsu and ryanpeikou on 7p: 10 han, baiman


def _ability_game(base: str) -> str:
    """Aki (あき) the genbu deals (E), Ben (べん) the suzaku sits South, Chie (ちえ) the
    byakko West (names in kana: the Japanese page is checked for English left)."""
    body = {"players": ["あき", "べん", "ちえ"], "rules": {"ability": True},
            "roles": ["genbu", "suzaku", "byakko"]}  # fmt: skip
    req = urllib.request.Request(
        f"{base}/v1/games", data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())["id"]


def _open(pg, base: str, query: str) -> None:
    pg.goto(f"{base}/?{query}")
    pg.wait_for_selector("#game-card:not([hidden]) [data-player='0']")


def _score(pg, winner: int, hand: str, win: str, discarder: int | None, shows: str) -> None:
    """The winner chosen in the game panel, the hand typed, ron from ``discarder`` (tsumo when
    None); waits until the result shows ``shows``."""
    pg.click(f"#game-panel [data-player='{winner}']")
    _type(pg, hand, win)
    pg.click(f"[data-sit='tsumo={'true' if discarder is None else 'false'}']")
    if discarder is not None:
        pg.click(f"#game-panel [data-discarder='{discarder}']")
    pg.locator("#result", has_text=shows).wait_for(timeout=10_000)


def _fits(pg) -> bool:
    return bool(pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _both_languages(pg, tmp_path, name: str):
    """The page in English, then in Japanese (no English left): a screenshot of each."""
    assert _fits(pg)
    pg.screenshot(path=str(tmp_path / f"{name}-en.png"), full_page=True)
    pg.locator("#result-card").screenshot(path=str(tmp_path / f"{name}-result-en.png"))
    yield "en"
    pg.click("#lang")
    pg.wait_for_function("document.documentElement.lang === 'ja'")
    assert pg.evaluate(UNTRANSLATED_JS) == []
    assert _fits(pg)
    pg.screenshot(path=str(tmp_path / f"{name}-ja.png"), full_page=True)
    pg.locator("#result-card").screenshot(path=str(tmp_path / f"{name}-result-ja.png"))
    yield "ja"


def _calc(pg) -> str:
    """The breakdown: the role's changes and the payments taken apart."""
    return "\n".join(pg.locator("#result ul.calc").all_inner_texts())


def test_ability_2_6_suzaku_headline_is_what_it_receives(browser, server, tmp_path):  # noqa: F811
    require_engine()
    game = _ability_game(server)
    with checked_page(browser, server, "/", viewport=PHONE, locale="en-US") as pg:
        _open(pg, server, f"game={game}")
        # Ben (suzaku) rons Chie: 3,000 in full, halved 1,500 → 2,000
        _score(pg, 1, ITTSU, "9s", discarder=2, shows="Ron 2,000")
        for lang in _both_languages(pg, tmp_path, "suzaku"):
            call = pg.inner_text("#result [data-call]")
            tag = pg.inner_text("#result [data-halved]").strip()
            summary = pg.inner_text("#summary")
            record = pg.inner_text("#record")
            total = pg.get_attribute("#result [data-total]", "data-total")
            if lang == "en":
                assert call == "Ron 2,000" and tag == "(suzaku: half)"
                assert "Half to the suzaku: discarder 3,000 → 2,000" in _calc(pg)
                assert summary.startswith("Ron 2,000 (suzaku: half)")
                assert record == "Record in the game: Ron 2,000 (suzaku: half)"
            else:
                assert call == "子ロン 2,000" and tag == "(朱雀・半額)"
                assert "朱雀は半額: 放銃者 3,000 → 2,000" in _calc(pg)
                assert summary.startswith("子ロン 2,000 (朱雀・半額)")
                assert record == "対局に記録: 子ロン 2,000 (朱雀・半額)"
            assert total == "2000"
        # a tsumo: 1,000-2,000 in full with the 1,000 bonus each, halved: 1,000-2,000 received
        _score(pg, 1, ITTSU, "9s", discarder=None, shows="子ツモ 1,000-2,000")
        calc = _calc(pg)
        assert "子 2,000 → 1,000" in calc and "親 3,000 → 2,000" in calc


def test_ability_2_7_byakko_headline_upgrade_and_net(browser, server, tmp_path):  # noqa: F811
    require_engine()
    game = _ability_game(server)
    with checked_page(browser, server, "/", viewport=PHONE, locale="en-US") as pg:
        _open(pg, server, f"game={game}&byakko=2")
        # Chie (byakko, declared) rons Ben with a baiman: counted as sanbaiman, 24,000
        _score(pg, 2, CHINITSU, "7p", discarder=1, shows="Ron 24,000")
        for lang in _both_languages(pg, tmp_path, "byakko-upgrade"):
            call = pg.inner_text("#result [data-call]")
            ability = pg.inner_text("[data-ability='byakko']")
            if lang == "en":
                assert call == "Ron 24,000"
                assert "Byakko declared: Baiman counts as Sanbaiman" in ability
                assert "Sanbaiman: base 6,000" in _calc(pg)
            else:
                assert call == "子ロン 24,000"
                assert "白虎宣言: 倍満を三倍満と見做す" in ability
            assert not pg.is_visible("#result [data-net]")
        # 2 han: 3,000 received, then the mangan payment, 4,000 to each: net -5,000
        pg.click("#lang")  # back to English
        _score(pg, 2, ITTSU, "9s", discarder=1, shows="Ron 3,000")
        for lang in _both_languages(pg, tmp_path, "byakko-pays"):
            call = pg.inner_text("#result [data-call]")
            net = pg.inner_text("#result [data-net]")
            summary = pg.inner_text("#summary")
            if lang == "en":
                assert call == "Ron 3,000"
                assert net == "Then the byakko pays a mangan, 8,000: net -5,000"
                assert summary.startswith("Ron 3,000 · net -5,000")
            else:
                assert call == "子ロン 3,000"
                assert net == "白虎の満貫払い 8,000 → 差し引き -5,000"
                assert summary.startswith("子ロン 3,000 · 差し引き -5,000")


def test_ability_10_kanpa_refusal_says_why_and_what_is_paid(browser, server, tmp_path):  # noqa: F811
    require_engine()
    game = _ability_game(server)
    with checked_page(browser, server, "/", viewport=PHONE, locale="en-US") as pg:
        # Aki (genbu) declared kanpa on Ben's 9s: Ben may not tsumo it
        _open(pg, server, f"game={game}&kanpa=0:1:9s")
        _score(pg, 1, ITTSU, "9s", discarder=None, shows="kanpa")
        for lang in _both_languages(pg, tmp_path, "kanpa"):
            verdict = pg.inner_text("#result [data-verdict='invalid']")
            chombo = pg.inner_text("[data-chombo='kanpa']")
            summary = pg.inner_text("#summary")
            record = pg.inner_text("#record")
            if lang == "en":
                assert verdict == "Not a valid win: a win on the kanpa tile"
                assert "Under kanpa on 9s: no win by tsumo on it." in chombo
                assert "The claimant pays a mangan (chombo)" in chombo
                assert summary == "Chombo: a win on the kanpa tile"
                assert record == "Record chombo by べん"
            else:
                assert verdict == "和了不成立: 看破された牌での和了"
                assert "9索を看破されているので、9索ではツモ和了できません。" in chombo
                assert summary == "錯和: 看破された牌での和了"
                assert record == "べんの錯和を記録"
            # the suzaku's chombo is paid in full (suzaku_halves_chombo off): 4,000 to each
            assert pg.get_attribute("#result [data-total]", "data-total") == "-8000"
        # a ron on 9s is no kanpa refusal unless a genbu discarded it: from Chie, a win
        _score(pg, 1, ITTSU, "9s", discarder=2, shows="子ロン 2,000")
        # from Aki, the genbu: refused
        _score(pg, 1, ITTSU, "9s", discarder=0, shows="玄武が捨てた9索ではロン和了できません")
