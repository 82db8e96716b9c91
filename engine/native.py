"""Whether the engine runs its mypyc-compiled modules, and the guard that keeps stale ones out.

``pip install`` compiles the hot modules with mypyc when it can (``setup.py``) and writes
``_native.json``: each compiled module with the hash of the source it was built from. A
compiled module sits beside its ``.py`` and Python's import would always prefer it, even after
the source changed. So the compiled modules are used only when every listed source is
unchanged and ``SANMA_PURE_PYTHON`` is not set; otherwise every module that has a compiled
copy is imported from its source (all of them: compiled modules call each other directly, so a
mix would still run stale code). Either way the results are the same; only the speed differs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "_native.json"
#: the package the compiled modules belong to (``sanma_lens.engine``)
PACKAGE = __name__.rpartition(".")[0]


def compiled_modules(folder: Path = HERE) -> set[str]:
    """The ``sanma_lens.engine.*`` modules that have a compiled copy beside their source."""
    found = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in folder.glob(f"*{suffix}"):
            stem = path.name.removesuffix(suffix)
            if (folder / f"{stem}.py").is_file():
                found.add(f"{PACKAGE}.{stem}")
    return found


def fresh(folder: Path = HERE) -> tuple[bool, str]:
    """Whether the compiled modules in ``folder`` may be used, and why not: its manifest
    lists the hash of each compiled module's source, and every source must still match."""
    manifest = folder / MANIFEST.name
    if not manifest.is_file():
        return False, f"no {manifest.name}: the build did not finish"
    try:
        listed = json.loads(manifest.read_text())["modules"]
        sources = [(folder / f"{m.rpartition('.')[2]}.py", d) for m, d in listed.items()]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False, f"{manifest.name} unreadable"
    for source, digest in sources:
        if not source.is_file() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            return False, f"{source.name} changed since it was compiled"
    return True, ""


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their ``.py`` files, never from a compiled copy."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = HERE / f"{fullname.rpartition('.')[2]}.py"
        return importlib.util.spec_from_file_location(fullname, source)


def _install() -> tuple[bool, str]:
    compiled = compiled_modules()
    if not compiled:
        return False, "not built"
    if os.environ.get("SANMA_PURE_PYTHON"):
        why = "SANMA_PURE_PYTHON is set"
    else:
        ok, why = fresh()
        if ok:
            return True, ""
        warnings.warn(
            f"engine: compiled modules left unused ({why}); running the plain Python engine. "
            "Reinstall (pip install -e .) to rebuild them.",
            RuntimeWarning,
            stacklevel=3,
        )
    sys.meta_path.insert(0, _SourceFirst(compiled))
    return False, why


#: True when the compiled modules are in use; ``WHY_NOT`` says why they are not
COMPILED, WHY_NOT = _install()
