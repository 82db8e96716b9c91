"""The engine's docstring examples (worked payments of RULES.md among them) run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "engine.points",
        "engine.tiles",
        "engine.rules",
        "engine.decompose",
        "engine.suits",
        "engine.parse",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
