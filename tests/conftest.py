"""Fixtures shared across test folders."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import CHROMIUM, CHROMIUM_ARGS

# A loaded test machine can take longer over one photo than a player would wait (the product's
# limit is 10 s); the tests ask what a photo reads as, and the deadline itself is tested with its
# own values (tests/vision/test_limits.py). Set before any recognizer or server reads it.
os.environ.setdefault("SANMA_PHOTO_SECONDS", "120")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright; skips where either is missing."""
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
