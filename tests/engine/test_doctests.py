"""The engine's docstring examples (worked payments of docs/rules.md among them) run as tests.

A module compiled by mypyc (engine/native.py) keeps no function docstrings for doctest to
find, so each module's examples are run from its source file, loaded under a name of its own.
"""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"


@pytest.mark.parametrize("module", ["points", "tiles", "rules", "decompose", "suits", "parse"])
def test_docstring_examples(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"_doctest_{module}"
    spec = importlib.util.spec_from_file_location(name, ENGINE / f"{module}.py")
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, source)  # dataclasses look their module up
    spec.loader.exec_module(source)
    result = doctest.testmod(source)
    assert result.failed == 0 and result.attempted > 0
