"""Build hook: compile the engine's hot modules with mypyc when it can (the rest: pyproject).

The engine stays plain Python: every module runs as written, and ``engine/native.py`` uses the
compiled copies only when ``engine/_native.json`` (written here after a build that succeeded)
lists them with the hashes of the sources they were built from. So a failed build, a missing
C compiler or ``SANMA_PURE_PYTHON=1`` at install time leaves a working pure-Python engine, and
a source edited after the build is never shadowed by its stale compiled copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zlib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# The modules a score or a tenpai call spends its time in (benchmarks/engine.py), named through
# the ``sanma_lens/engine`` link so that mypyc calls them ``sanma_lens.engine.*``, as they import.
NATIVE = [
    "sanma_lens/engine/rules.py",
    "sanma_lens/engine/parse.py",
    "sanma_lens/engine/tiles.py",
    "sanma_lens/engine/values.py",
    "sanma_lens/engine/suits.py",
    "sanma_lens/engine/decompose.py",
    "sanma_lens/engine/yaku.py",
    "sanma_lens/engine/yaku_eval.py",
    "sanma_lens/engine/fu.py",
    "sanma_lens/engine/points.py",
    "sanma_lens/engine/evaluate.py",
    "sanma_lens/engine/fold.py",
    "sanma_lens/engine/waits.py",
    "sanma_lens/engine/score.py",
    "sanma_lens/engine/service.py",
]
MANIFEST = "sanma_lens/engine/_native.json"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class BuildNative(build_ext):
    """``build_ext`` that records what it compiled, and leaves the engine pure Python when
    the compiled modules cannot be built."""

    def run(self) -> None:
        manifest = Path(self.build_lib if not self.inplace else ROOT) / MANIFEST
        manifest.unlink(missing_ok=True)
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compile failure: stay pure Python
            print(
                f"engine: compiled modules not built ({exc}); the engine runs as plain Python",
                file=sys.stderr,
            )
            return
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(COMPILED_SOURCES, indent=1) + "\n")

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        # an editable install builds out of tree, then copies the modules beside the sources:
        # the manifest goes with them
        built = Path(self.build_lib) / MANIFEST
        if built.is_file():
            (ROOT / MANIFEST).write_text(built.read_text())


def _compiled_sources() -> dict[str, dict[str, object]]:
    """The manifest: each compiled module's source hash and, for engine/native.py's quicker
    checks, its ``[size, mtime_ns]`` and its CRC-32 (the one read where the times differ, as
    they do in an installed wheel). Taken before mypyc reads the sources, so that a source
    edited during the build is never listed as the one compiled."""
    names = {p: p.removesuffix(".py").replace("/", ".") for p in NATIVE}
    stats = {p: (ROOT / p).stat() for p in NATIVE}
    return {
        "modules": {names[p]: _digest(ROOT / p) for p in NATIVE},
        "stat": {names[p]: [stats[p].st_size, stats[p].st_mtime_ns] for p in NATIVE},
        "crc32": {names[p]: zlib.crc32((ROOT / p).read_bytes()) for p in NATIVE},
    }


COMPILED_SOURCES = _compiled_sources()


def _ext_modules() -> list:
    if os.environ.get("SANMA_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        return mypycify(NATIVE, opt_level="3", group_name="sanma_lens_engine")
    except Exception as exc:  # noqa: BLE001 - mypyc refuses the code: stay pure Python
        print(f"engine: mypyc failed ({exc}); the engine runs as plain Python", file=sys.stderr)
        return []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": BuildNative})
