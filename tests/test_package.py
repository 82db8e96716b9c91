"""The installed package: one top-level name, ``sanma_lens``, from a checkout as when installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Imports every module of the package, with the repository root first on sys.path (as in a
# checkout, where the folders engine/, vision/ and api/ could also be imported by their own
# names), and lists the modules loaded under those names.
_IMPORT_ALL = """
import importlib, json, pkgutil, sys
sys.path.insert(0, sys.argv[1])
import sanma_lens
names = []
for info in pkgutil.walk_packages(sanma_lens.__path__, "sanma_lens."):
    importlib.import_module(info.name)
    names.append(info.name)
stray = sorted(m for m in sys.modules if m.split(".")[0] in ("engine", "vision", "api"))
print(json.dumps({"imported": names, "stray": stray}))
"""


def test_every_module_imports_under_sanma_lens_and_none_by_its_folder_name() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL, str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found = json.loads(run.stdout)
    assert {
        "sanma_lens.engine.service",
        "sanma_lens.vision.pipeline",
        "sanma_lens.api.app",
        "sanma_lens.api.cli",
        "sanma_lens.engine.game",
    } <= set(found["imported"])
    assert found["stray"] == []
