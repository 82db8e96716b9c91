"""Whether the engine runs its mypyc-compiled modules, and the guard that keeps stale ones out.

``pip install`` compiles the hot modules with mypyc when it can (``setup.py``) and writes
``_native.json``: each compiled module with the hash of the source it was built from (and the
source's size and modification time then, so that a start-up whose sources still show them
need not read and hash them all: the check Python makes of its own cached bytecode). A
compiled module sits beside its ``.py`` and Python's import would always prefer it, even after
the source changed. So the compiled modules are used only when every listed source is
unchanged and ``SANMA_PURE_PYTHON`` is not set; otherwise every module that has a compiled
copy is imported from its source (all of them: compiled modules call each other directly, so a
mix would still run stale code). Either way the results are the same; only the speed differs.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import sys
import warnings
import zlib
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
    lists the hash of each compiled module's source, and every source must still match. A
    source whose size and modification time are still those the manifest lists (``stat``,
    when it has them) is taken as unchanged without reading it; another is read and checked
    against its CRC-32 (``crc32``, when listed) or else its SHA-256. An installed wheel meets
    the second case at every start-up (its files bear the time of the install, not of the
    build): a CRC-32 costs a few hundred thousand instructions for all the sources, where
    loading OpenSSL for ``hashlib`` and hashing them cost some fifteen million, about 5 % of
    ``sanma score --batch``'s start-up. This is a guard against a source edited after its
    build, not against tampering: any edit changes the CRC-32 but one in four billion."""
    manifest = folder / MANIFEST.name
    if not manifest.is_file():
        return False, f"no {manifest.name}: the build did not finish"
    try:
        listed = json.loads(manifest.read_text())
        stats = listed.get("stat", {})
        crcs = listed.get("crc32", {})
        sources = [
            (folder / f"{m.rpartition('.')[2]}.py", d, stats.get(m), crcs.get(m))
            for m, d in listed["modules"].items()
        ]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False, f"{manifest.name} unreadable"
    for source, digest, stat, crc in sources:
        if not _unchanged(source, digest, stat, crc):
            return False, f"{source.name} changed since it was compiled"
    return True, ""


def source_stat(path: Path) -> list[int]:
    """What the manifest keeps of a source besides its hash: ``[size, mtime_ns]``."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def _unchanged(source: Path, digest: str, stat: object, crc: object = None) -> bool:
    try:
        if stat is not None and source_stat(source) == stat:
            return True
        data = source.read_bytes()
    except OSError:
        return False
    if crc is not None:
        return zlib.crc32(data) == crc
    import hashlib  # (only when a source looks touched: it loads OpenSSL)

    return hashlib.sha256(data).hexdigest() == digest


class _SourceFirst:
    """Imports the listed modules from their ``.py`` files, never from a compiled copy (a
    finder on ``sys.meta_path``)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        import importlib.util

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
