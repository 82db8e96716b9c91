"""benchmarks/batch.py, the end-to-end measure of ``sanma score --batch`` against the library:
it runs the installed command on its hands, checks every answer came back, and prints the
rates and ratios it is read for (a small run: these pin what it prints, not how fast)."""

from __future__ import annotations

import os
import re
import sys

import pytest

from benchmarks import batch

SANMA = os.path.join(os.path.dirname(sys.executable), "sanma")

pytestmark = pytest.mark.skipif(not os.path.exists(SANMA), reason="no installed sanma command")


def test_batch_prints_the_library_and_the_command_with_their_ratio(capsys) -> None:
    batch.main(["--n", "40", "--rounds", "2"])
    out = capsys.readouterr().out
    assert re.search(r"^round 1: library +\d+; .*sanma: +\d+ \(\d+ wall\) [\d.]+x$", out, re.M)
    assert re.search(r"^round 2: ", out, re.M)
    summary = re.search(r"sanma score --batch: .* vs library ([\d.]+) .*start-up (\d+) ms", out)
    assert summary and float(summary.group(1)) > 0


def test_a_command_that_loses_answers_is_refused(tmp_path) -> None:
    """A rate is only printed for a run that answered every line."""
    path = tmp_path / "hands.jsonl"
    path.write_text('{"hand": "123p", "win": "1p"}\n')
    with pytest.raises(SystemExit, match="1 lines for 2 hands"):
        batch.batch_seconds(SANMA, str(path), 2)


def test_the_command_caches_its_bytecode_as_an_install_does(monkeypatch) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert "PYTHONDONTWRITEBYTECODE" not in batch.child_env()
