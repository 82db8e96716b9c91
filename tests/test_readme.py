"""README's command-line examples run as written after its set-up command.

Each line of the bash block under "## Command line" runs in a fresh folder that sees the
repository's ``docs/`` (the example photo lives there), with the installed ``sanma`` first on
``PATH`` as ``. .venv/bin/activate`` puts it. ``sanma serve`` runs until stopped, so it is
left to the wheel test, which starts it and asks it questions (tests/test_wheel.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def command_lines() -> list[str]:
    """The commands of README's first bash block after "## Command line", one per line."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Command line\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "README's Command line section has no bash block"
    lines = [
        ln for ln in block.group(1).splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    ]
    return [ln for ln in lines if not ln.startswith(". .venv/bin/activate")]


def runnable() -> list[str]:
    return [ln for ln in command_lines() if not ln.startswith("sanma serve")]


def test_readme_shows_the_activation_and_the_service() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ". .venv/bin/activate" in text
    assert any(ln.startswith("sanma serve") for ln in command_lines())


@pytest.mark.skipif(not (BIN / "sanma").exists(), reason="sanma is not installed beside python")
@pytest.mark.parametrize("line", runnable())
def test_readme_command_runs_as_written(line: str, tmp_path: Path) -> None:
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    # the lines run in order in one shell in the README: files one line writes, later ones read
    earlier = runnable()[: runnable().index(line)]
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }  # a game store of its own
    env.pop("SANMA_DB_PATH", None)
    env.pop("DATABASE_URL", None)
    for before in earlier:
        if ">" in before:
            subprocess.run(
                ["bash", "-o", "pipefail", "-c", before],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                timeout=300,
                check=True,
            )
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", line],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
    written = re.search(r">\s*(\S+)\s*(#.*)?$", line)
    out = (tmp_path / written.group(1)).read_text() if written else done.stdout
    # a command that writes a folder says what it wrote on stderr
    assert out.strip() or done.stderr.strip(), line
    if "--photo" in line:
        result = json.loads(out)
        assert result["score"]["valid"] is True, result["score"]
        assert result["hand"]["hand"] and result["hand"]["win"]
