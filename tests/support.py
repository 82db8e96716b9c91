"""Small helpers shared by tests: the contract's field names, a real server, a real browser."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

# The hand JSON's fields as docs/api.md lists them, written out here on purpose: the tests check
# the implementation against the contract, not against the implementation's own field lists.
CONTRACT_HAND_FIELDS = (
    "hand",
    "win",
    "melds",
    "kita",
    "kita_aka",
    "dora",
    "ura",
    "tsumo",
    "seat",
    "round",
    "riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "kanburi",
    "chankan",
    "tenhou",
    "chihou",
    "renhou",
    "first_draw",
    "discarder_riichi",
    "aka5man_as",
    "honba",
    "deposits",
    "rules",
)

# Debian's Chromium; Playwright's own browser download does not work here.
CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps dialling out on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def open_page(browser: Any, server: str, path: str, *, bypass_csp: bool, **context: Any) -> Any:
    """A new 360 px browser context on ``server + path``, with the lists its checks read:
    ``(context, page, errors, outside)``. ``errors`` collects script errors and console errors
    (not the browser's own line for a 4xx answer a test provokes); ``outside`` every request
    that left the server. ``bypass_csp`` lets a test evaluate script in the page."""
    context = {"viewport": {"width": 360, "height": 740}, **context}  # a test may name another
    ctx = browser.new_context(bypass_csp=bypass_csp, **context)
    page = ctx.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: _console_error(errors, m))
    page.on(
        "request",
        lambda r: None if r.url.startswith((server, "data:", "blob:")) else outside.append(r.url),
    )
    page.goto(server + path)
    return ctx, page, errors, outside


@contextmanager
def checked_page(browser: Any, server: str, path: str, **context: Any) -> Iterator[Any]:
    """The page at ``server + path`` for a test to drive (CSP bypassed, so it may evaluate script
    in it); after the test, no script error and no request outside the server are allowed."""
    ctx, page, errors, outside = open_page(browser, server, path, bypass_csp=True, **context)
    yield page
    assert errors == [], errors
    assert outside == [], f"the page reached outside the server: {outside}"
    ctx.close()


def _console_error(errors: list[str], msg: Any) -> None:
    if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
        errors.append(msg.text)


ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def served_app(**env: str | None) -> Iterator[str]:
    """`sanma serve`'s app (uvicorn with the app factory) in a child process on a free port,
    with ``env`` over this process's environment (``None`` removes a variable); yields its base
    URL once ``/healthz`` answers, and stops it after."""
    port = free_port()
    child_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name, value in env.items():
        if value is None:
            child_env.pop(name, None)
        else:
            child_env[name] = value
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "sanma_lens.api.app:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=child_env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _healthy(base):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the server did not start")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as r:
            return r.status == 200
    except OSError:
        return False
