"""`sanma score` / `--batch` / `tenpai` through api.cli.main (CONTRACT: exit 0 / exit 2)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from api.cli import main

HAND = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "round": "E", "riichi": "riichi"}


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[Any]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_cli_score(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["score"], json.dumps(HAND), monkeypatch, capsys)
    assert code == 0 and out[0]["valid"] and out[0]["total"] == 3000


def test_cli_score_bad_input_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(["score"], json.dumps({**HAND, "win": "5m"}), monkeypatch, capsys)
    assert code == 2 and out[0]["error"]["code"] == "invalid_tile"
    code, out = run(["score"], "{not json", monkeypatch, capsys)
    assert code == 2 and out[0]["error"]["code"] == "bad_json"


def test_cli_score_batch_same_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        json.dumps(HAND),
        json.dumps({**HAND, "hand": "1"}),
        json.dumps({**HAND, "tsumo": True}),
    ]
    code, out = run(["score", "--batch"], "\n".join(lines), monkeypatch, capsys)
    assert code == 2 and len(out) == 3
    assert out[0]["valid"] and "error" in out[1] and out[2]["valid"]


def test_cli_tenpai(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["tenpai"], json.dumps({"hand": "234p456p789s11z22z"}), monkeypatch, capsys)
    assert code == 0 and out[0]["tenpai"] and [w["tile"] for w in out[0]["waits"]] == ["1z", "2z"]
    code, out = run(["tenpai"], json.dumps({"hand": "234p456p789s11z2z"}), monkeypatch, capsys)
    assert code == 2 and out[0]["error"]["code"] == "tile_count"


def test_cli_batch_progress_goes_to_stderr_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join([json.dumps(HAND), json.dumps({**HAND, "tsumo": True})])
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["score", "--batch", "--progress"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["valid"] for line in captured.out.splitlines()] == [True, True]
    assert captured.err.endswith("2/2 lines\n")

    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["tenpai", "--batch"]) == 2  # 14-tile hands are not tenpai questions
    assert capsys.readouterr().err == ""  # stderr is no terminal here: silent
