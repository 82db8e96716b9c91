"""Every error in the player's words, in both languages.

The engine, the game keeper, the service and the command line answer a refusal with
``{"error": {"code", "message"}}``; the pages phrase the code (``api/web/text.js``, ``ERRORS``)
and show the English message only beside the English phrase. Pinned here: every code that the
code itself can answer with has an English and a Japanese phrasing, and text.js phrases no
code that nothing answers with. The codes are collected from the source (engine/, vision/,
api/ and the pages' scripts), not from a list kept by hand, so a new refusal without a phrasing
fails here by name. docs/api.md's error table gives examples and is not complete: its codes
are added to the collected ones (a 404's code is built from what was not found).

Then in Chromium at phone size, in Japanese: a refusal from the scorer, one from the game
keeper and a typing mistake on the camera page each read in Japanese."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tests.api.test_table_flow import PHONE, _type, server  # noqa: F401 - the fixture
from tests.support import checked_page

from .conftest import require_engine
from .test_warning_phrases import TEXT_JS, _closing, _strip_comments, _top_level, phrased_codes

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "vision", "api")
PAGES = ("app.js", "game.js", "keep.js")
CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
# One code per way the collector finds them: if one of these goes missing, the collector (not
# text.js) is broken.
KNOWN = {
    "bad_meld": "InputError(code, …)",
    "body_too_large": "super().__init__ of a ServiceError",
    "too_many_games": "super().__init__ of an InputError",
    "too_many_connections": "a helper with a `code` parameter",
    "bad_event": "a `code` parameter's default",
    "bad_hand_result": "a `code=` keyword",
    "rate_limited": 'a literal {"error": {"code": …}}',
    "unsupported_image": "a STATUS_BY_CODE key",
    "method_not_allowed": "a CODE_BY_STATUS value",
    "http_error": "an assignment to `code`",
    "block_not_found": "docs/api.md's error table",
    "offline": "a page's own code",
}


# ---------------------------------------------------------------- the codes, from the code


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _codes_in(node: ast.AST | None) -> set[str]:
    """The string constants in ``node`` that look like a code."""
    if node is None:
        return set()
    return {
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and CODE.fullmatch(n.value)
    }


def _values(node: ast.AST) -> set[str]:
    """The codes an expression can take: a constant, either branch of ``a if c else b``, any
    operand of ``a or b``, the default of ``mapping.get(key, default)``."""
    if isinstance(node, ast.Constant):
        return _codes_in(node)
    if isinstance(node, ast.IfExp):
        return _values(node.body) | _values(node.orelse)
    if isinstance(node, ast.BoolOp):
        return set().union(*map(_values, node.values))
    if isinstance(node, ast.Call) and _name(node.func) == "get" and len(node.args) == 2:
        return _values(node.args[1])
    return set()


def _code_position(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """Where ``code`` stands among ``fn``'s positional parameters, ``self`` not counted."""
    names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return names.index("code") if "code" in names else None


def _is_exception(cls: str, bases: dict[str, list[str]]) -> bool:
    """Whether the class ``cls`` is an exception (its name or a base's says so)."""
    if cls.endswith(("Error", "Exception")):
        return True
    return any(_is_exception(b, bases) for b in bases.get(cls, []) if b != cls)


def _makes_error(fn: ast.AST, takes: dict[str, int]) -> bool:
    """Whether ``fn`` makes an error of its ``code``: an ``{"error": …}`` body, or ``code``
    handed to a callable that makes one."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Dict) and _error_dict_code(n) is not None:
            return True
        if isinstance(n, ast.Constant) and _says_error(n.value):
            return True
        if (
            isinstance(n, ast.Call)
            and takes.get(_name(n.func) or "") is not None
            and any(_name(a) == "code" for a in n.args)
        ):
            return True
    return False


def _says_error(value: object) -> bool:
    """Whether a constant holds an ``"error"`` key written out (a body built as text)."""
    if isinstance(value, bytes):
        return b'"error"' in value
    return isinstance(value, str) and '"error"' in value


def _takers(trees: list[ast.Module]) -> tuple[dict[str, int], dict[str, list[str]]]:
    """The callables that make an error of a ``code`` they take (exception classes by their
    ``__init__``; functions that build an error body or hand the code to one of these), each
    with the code's position; and each class's bases. A function that takes a ``code`` for
    something else (a recognition warning's) is none of them."""
    takes: dict[str, int] = {}
    bases: dict[str, list[str]] = {}
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [b for b in map(_name, node.bases) if b]
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.name != "__init__" and _code_position(node) is not None:
                    functions.append(node)
            elif isinstance(node, ast.ClassDef) and _is_exception(node.name, bases):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        at = _code_position(item)
                        if at is not None:
                            takes[node.name] = at
    grew = True
    while grew:  # a function handing its code to another that makes the error makes it too
        grew = False
        for fn in functions:
            if fn.name not in takes and _makes_error(fn, takes):
                takes[fn.name] = _code_position(fn)  # type: ignore[assignment]
                grew = True
    return takes, bases


def _default_code(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """The default of ``fn``'s ``code`` parameter, if it has one."""
    args = fn.args.posonlyargs + fn.args.args
    named = list(zip(args[len(args) - len(fn.args.defaults) :], fn.args.defaults, strict=True))
    named += [(a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True) if d]
    return next((d for a, d in named if a.arg == "code"), None)


def _error_dict_code(node: ast.Dict) -> ast.expr | None:
    """The code of a literal ``{"error": {"code": …}}``."""
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(key, ast.Constant) and key.value == "error" and isinstance(value, ast.Dict):
            for k, v in zip(value.keys, value.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == "code":
                    return v
    return None


def codes_in_source() -> dict[str, set[str]]:
    """Every error code in engine/, vision/ and api/, each with where it was found: the code
    given to a callable that takes one (or to ``super().__init__`` of its subclass), a ``code``
    parameter's default or ``code=`` keyword, a literal ``{"error": {"code": …}}``, the keys of
    a ``…BY_CODE`` table and the values of a ``CODE_BY…`` one, and what is assigned to
    ``code`` in a function that then makes an error of it."""
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for root in SOURCES
        for path in sorted((ROOT / root).rglob("*.py"))
    }
    takes, bases = _takers(list(trees.values()))

    def base_taking(cls: str | None) -> int | None:
        for base in bases.get(cls or "", []):
            at = takes.get(base, base_taking(base))
            if at is not None:
                return at
        return None

    def builds_error(fn: ast.AST) -> bool:
        """Whether ``fn`` hands a variable ``code`` to a callable that takes a code."""
        return any(
            isinstance(n, ast.Call)
            and takes.get(_name(n.func) or "") is not None
            and any(_name(a) == "code" for a in n.args)
            for n in ast.walk(fn)
        )

    found: dict[str, set[str]] = {}

    def add(codes: set[str], path: Path, node: ast.AST) -> None:
        for code in codes:
            found.setdefault(code, set()).add(f"{path.relative_to(ROOT)}:{node.lineno}")

    for path, tree in trees.items():
        owner = {
            id(n): c.name
            for c in ast.walk(tree)
            if isinstance(c, ast.ClassDef)
            for n in ast.walk(c)
        }
        in_error_builders = {
            id(n)
            for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and builds_error(fn)
            for n in ast.walk(fn)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                at = takes.get(_name(node.func) or "")
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and func.attr == "__init__"
                    and isinstance(func.value, ast.Call)
                    and _name(func.value.func) == "super"
                ):
                    at = base_taking(owner.get(id(node)))
                if at is not None and at < len(node.args):
                    add(_values(node.args[at]), path, node)
                for kw in node.keywords:
                    if kw.arg == "code":
                        add(_values(kw.value), path, node)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                default = _default_code(node)
                if default is not None:
                    add(_values(default), path, node)
            elif isinstance(node, ast.Dict):
                code = _error_dict_code(node)
                if code is not None:
                    add(_values(code), path, node)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    name = _name(target) or ""
                    if isinstance(node.value, ast.Dict) and name.endswith("BY_CODE"):
                        add(set().union(*map(_values, filter(None, node.value.keys))), path, node)
                    elif isinstance(node.value, ast.Dict) and name.startswith("CODE_BY"):
                        add(set().union(*map(_values, node.value.values)), path, node)
                    elif id(node) in in_error_builders:
                        add(_assigned_to_code(target, node.value), path, node)
    return found


def _assigned_to_code(target: ast.expr, value: ast.expr) -> set[str]:
    """What ``target = value`` gives the name ``code`` (alone or in a tuple)."""
    if _name(target) == "code":
        return _values(value)
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
        pairs = zip(target.elts, value.elts, strict=False)
        return set().union(*(_values(v) for t, v in pairs if _name(t) == "code"))
    return set()


def codes_in_docs() -> set[str]:
    """The codes docs/api.md's error table names."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Errors") :]
    section = section[: section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    # a code's own remark in brackets names fields, not codes
    cells = [re.sub(r"\([^)]*\)", "", row.split("|")[3]) for row in rows]
    return {c for cell in cells for c in re.findall(r"`([a-z_]+)`", cell)}


def codes_of_pages() -> set[str]:
    """The codes the pages give a failure of their own (no answer, an unreadable one)."""
    web = ROOT / "api" / "web"
    return {c for page in PAGES for c in re.findall(r'code: "([a-z_]+)"', (web / page).read_text())}


def all_codes() -> set[str]:
    return set(codes_in_source()) | codes_in_docs() | codes_of_pages()


def error_phrasings() -> dict[str, list[str]]:
    """text.js's ``ERRORS``: each code's ``[English, Japanese]``."""
    text_js = TEXT_JS.read_text(encoding="utf-8")
    start = text_js.index("const ERRORS = {") + len("const ERRORS = ")
    body = text_js[start + 1 : _closing(text_js, start) - 1]
    out = {}
    for entry in _top_level(body):
        key, _, value = _strip_comments(entry).partition(":")
        out[key.strip()] = json.loads(value.strip())
    return out


# ---------------------------------------------------------------- the tests, without a browser


def test_the_collector_finds_a_code_by_each_way_one_is_given():
    codes = all_codes()
    lost = {code: how for code, how in KNOWN.items() if code not in codes}
    assert not lost, f"the collector missed: {lost}"
    assert len(codes) > 80


def test_every_error_code_is_phrased_in_english_and_japanese():
    phrased = phrased_codes(TEXT_JS.read_text(encoding="utf-8"), "ERRORS")
    source = codes_in_source()
    missing = sorted(all_codes() - set(phrased))
    assert not missing, "error codes with no phrasing in api/web/text.js ERRORS: " + ", ".join(
        f"{code} ({sorted(source.get(code, {'docs/api.md or a page'}))[0]})" for code in missing
    )
    one_language = sorted(code for code, n in phrased.items() if n != 2)
    assert not one_language, f"not [English, Japanese] in api/web/text.js: {one_language}"
    unknown = sorted(set(phrased) - all_codes())
    assert not unknown, f"phrased in text.js but answered by nothing: {unknown}"


# Latin words a Japanese phrasing may keep: formats, a rule set's name, a command.
_LATIN_KEPT = re.compile(r"^(JSON|JPEG|PNG|WebP|MPSZ|ECIP|sanma|help)$")


def test_each_phrasing_reads_in_its_own_language():
    for code, (english, japanese) in error_phrasings().items():
        assert english.strip() and japanese.strip() and english != japanese, code
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", english), (code, english)
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), (code, japanese)
        tiles_out = re.sub(r"[0-9]+[mpsz]", " ", japanese)
        latin = [w for w in re.findall(r"[A-Za-z]{2,}", tiles_out) if not _LATIN_KEPT.match(w)]
        assert not latin, (code, latin)
        assert "§" not in english + japanese, code  # what to do, not which rule section


# ---------------------------------------------------------------- on the pages, in Chromium


@pytest.mark.browser
def test_japanese_pages_show_refusals_in_japanese(browser, server):  # noqa: F811
    require_engine()
    ja = {code: pair[1] for code, pair in error_phrasings().items()}
    with checked_page(browser, server, "/", viewport=PHONE, locale="ja-JP") as pg:
        # the scorer refuses a pon of two tiles: bad_meld, phrased
        _type(pg, "234p456p789s11z", "1z", "pon:77z")
        pg.wait_for_selector("[data-verdict='error']", timeout=10_000)
        assert pg.inner_text("[data-verdict='error']") == f"エラー: {ja['bad_meld']}"
        assert not pg.is_visible("#result .detail")  # the English detail: English pages only
        # a typing mistake is said on the page, in Japanese too
        _type(pg, "234q", "1z")
        text = pg.inner_text("#type-error")
        assert text and not re.search(r"[A-Za-z]{3,}", text), text
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="ja-JP") as pg:
        # the game keeper refuses a file that is not an exported game: bad_import, phrased
        pg.set_input_files(
            "#import",
            files=[{"name": "x.json", "mimeType": "application/json", "buffer": b'{"a": 1}'}],
        )
        pg.wait_for_selector("#message:not([hidden])")
        assert pg.inner_text("#message") == ja["bad_import"]


@pytest.mark.browser
def test_english_pages_show_the_phrase_and_the_servers_detail(browser, server):  # noqa: F811
    en = {code: pair[0] for code, pair in error_phrasings().items()}
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale="en-US") as pg:
        pg.set_input_files(
            "#import",
            files=[{"name": "x.json", "mimeType": "application/json", "buffer": b'{"a": 1}'}],
        )
        pg.wait_for_selector("#message:not([hidden])")
        text = pg.inner_text("#message")
        assert text.startswith(en["bad_import"]) and "sanma-lens-game" in text, text


# A form field the browser refuses: its bubble says why in the page's language (text.js's
# validationText), not the browser's. (English, Japanese) for each way a field is refused here.
FIELD_REFUSALS = {
    "below": ("At least 0.", "0以上にしてください。"),
    "step": ("In steps of 1,000.", "1,000刻みで入力してください。"),
    "game_id": (
        "A game ID is 32 characters: digits and a–f.",
        "対局 ID は32文字 (数字と a〜f) です。",
    ),
}


def _refused(pg, selector: str) -> str:
    return pg.eval_on_selector(selector, "(field) => field.validationMessage")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_refused_form_field_says_why_in_the_pages_language(browser, server, lang, tmp_path):  # noqa: F811, E501
    """The browser's own bubble ("Please enter a valid value…") is in the browser's language,
    whatever the page's: the scoreboard's fields say why they are refused in the page's."""
    want = {why: pair[lang == "ja"] for why, pair in FIELD_REFUSALS.items()}
    locale = "ja-JP" if lang == "ja" else "en-US"
    with checked_page(browser, server, "/game.html", viewport=PHONE, locale=locale) as pg:
        assert pg.get_attribute("html", "lang") == lang
        pg.click("#game-rules summary")
        pg.fill("#new-game [name='uma']", "-1")
        pg.click("#new-game button[type='submit']")
        assert _refused(pg, "#new-game [name='uma']") == want["below"]
        assert pg.is_hidden("#table")  # nothing was sent
        pg.fill("#new-game [name='uma']", "10")  # edited: refused no more
        assert _refused(pg, "#new-game [name='uma']") == ""
        pg.fill("#new-game [name='start_points']", "30500")
        pg.click("#new-game button[type='submit']")
        assert _refused(pg, "#new-game [name='start_points']") == want["step"]
        pg.fill("#open-game [name='id']", "not-a-game")
        pg.click("#open-game button[type='submit']")
        assert _refused(pg, "#open-game [name='id']") == want["game_id"]
        pg.screenshot(path=str(tmp_path / f"start-{lang}-390.png"), full_page=True)
        pg.set_viewport_size({"width": 360, "height": 780})
        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        pg.screenshot(path=str(tmp_path / f"start-{lang}-360.png"), full_page=True)
        # a value the page itself sets (the rule system's own uma and points), not edited: the
        # old refusal does not stand in the way of the next submission
        pg.fill("#new-game [name='uma']", "-1")
        pg.click("#new-game button[type='submit']")
        assert _refused(pg, "#new-game [name='uma']") == want["below"]
        pg.select_option("#new-game [name='preset']", "ecip")
        pg.select_option("#new-game [name='preset']", "sanma-1.3")
        pg.click("#new-game button[type='submit']")
        pg.wait_for_selector("#table:not([hidden])", timeout=5_000)


_RECORD_CLICKS = """(input) => input.addEventListener("click", () => {
  // a file input opens its chooser only on a click in a user's gesture
  if (navigator.userActivation.isActive) {
    (window.clicked = window.clicked || []).push("#" + input.id);
  }
})"""

# Each page's file inputs: the button's words in each language.
FILE_BUTTONS = {
    "/game.html": {"#import": ("Import an exported file", "書き出したファイルを読み込む")},
    "/": {"#camera": ("Take photo", "撮影"), "#picker": ("Choose photo", "写真を選ぶ")},
}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_file_inputs_are_buttons_in_the_pages_language(browser, server, lang):  # noqa: F811
    """A file input drawn by the browser says "Choose File / No file chosen" in the browser's
    language: each page hides its own inside a labelled button, which the keyboard reaches and
    opens (Enter or Space) as a tap does."""
    locale = "ja-JP" if lang == "ja" else "en-US"
    for path, buttons in FILE_BUTTONS.items():
        with checked_page(browser, server, path, viewport=PHONE, locale=locale) as pg:
            shown = pg.eval_on_selector_all(
                "input[type=file]", "(inputs) => inputs.map((i) => i.getClientRects().length)"
            )
            assert shown and not any(shown), path  # none drawn by the browser
            assert pg.locator("input[type=file]").count() == len(buttons), path
            for selector, words in buttons.items():
                button = pg.locator(f"label:has({selector})")
                assert button.inner_text().strip() == words[lang == "ja"]
                # the input's click, with the key's user activation, is what opens the chooser
                pg.eval_on_selector(selector, _RECORD_CLICKS)
                button.focus()
                pg.keyboard.press("Enter" if selector != "#picker" else " ")
                pg.wait_for_function(f"window.clicked && window.clicked.includes('{selector}')")
