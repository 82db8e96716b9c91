"""`sanma score` / `--batch` / `tenpai` through api.cli.main (docs/api.md: exit 0 / exit 2)."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sanma_lens.api.cli import main

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


# ---- docs/api.md: exit 2 with {"error": {"code", "message"}} for input that cannot be read ----


def run_bytes(
    argv: list[str],
    data: bytes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, list[Any]]:
    """``main`` with ``data`` as the raw bytes of standard input (as a pipe gives them)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(argv)
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_contract_exit_2_for_json_nested_too_deeply(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "[" * 100_000 + "]" * 100_000  # json.loads hits the recursion limit
    code, out = run(["score"], deep, monkeypatch, capsys)
    assert code == 2 and len(out) == 1 and set(out[0]) == {"error"}
    assert out[0]["error"]["code"] == "bad_json" and out[0]["error"]["message"]
    code, out = run(["score", "--batch"], deep + "\n" + json.dumps(HAND), monkeypatch, capsys)
    assert code == 2 and out[0]["error"]["code"] == "bad_json" and out[1]["valid"]


def test_contract_exit_2_for_input_that_is_not_utf8(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b'{"hand": "\xff234p"}'
    path = tmp_path / "hand.json"
    path.write_bytes(data)
    cases = ((["score", str(path)], b""), (["score"], data), (["tenpai", "--batch"], data))
    for argv, stdin in cases:
        code, out = run_bytes(argv, stdin, monkeypatch, capsys)
        assert code == 2 and out[0]["error"]["code"] == "bad_json", (argv, out)


def test_byte_order_mark_is_skipped(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file saved 'UTF-8 with BOM' (Windows editors) is read as the same hand JSON."""
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(HAND).encode())
    code, out = run_bytes(["score", str(path)], b"", monkeypatch, capsys)
    assert code == 0 and out[0]["total"] == 3000
    code, out = run_bytes(["score"], path.read_bytes(), monkeypatch, capsys)
    assert code == 0 and out[0]["total"] == 3000


def test_contract_batch_one_result_a_line_splits_at_newlines_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """U+2028 or a form feed inside a JSON string is no line break of JSON Lines; CRLF is."""
    lines = [
        json.dumps(HAND),
        json.dumps({**HAND, "note": "a\u2028b\x0cc"}, ensure_ascii=False),  # unknown field
        json.dumps({**HAND, "tsumo": True}),
    ]
    code, out = run(["score", "--batch"], "\r\n".join(lines) + "\r\n", monkeypatch, capsys)
    assert code == 2 and len(out) == 3
    assert out[0]["valid"] and out[1]["error"]["code"] == "unknown_field" and out[2]["valid"]


def test_batch_goes_on_after_an_internal_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failure of ours on one line answers that line in the error shape (exit 1, not the
    contract's 2 for bad input) and the lines after it are still scored, in order."""
    from sanma_lens.engine import service

    real = service.score_json

    def flaky(obj: Any) -> dict[str, Any]:
        if obj.get("honba") == 7:
            raise ZeroDivisionError("a bug")
        return real(obj)

    monkeypatch.setattr(service, "score_json", flaky)
    lines = [json.dumps(HAND), json.dumps({**HAND, "honba": 7}), json.dumps(HAND)]
    code, out = run(["score", "--batch"], "\n".join(lines), monkeypatch, capsys)
    assert code == 1 and len(out) == 3
    assert out[0]["valid"] and out[2]["valid"]
    assert set(out[1]) == {"error"} and out[1]["error"]["code"] == "internal_error"
    lines.append("{bad")  # bad input outranks our failure in the exit status
    code, out = run(["score", "--batch"], "\n".join(lines), monkeypatch, capsys)
    assert code == 2 and len(out) == 4


def test_contract_recognize_unreadable_photo_exit_2(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.jpg")
    assert main(["recognize", missing]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "unreadable_file"
    assert main(["recognize", missing, missing, "--json"]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["image"] for o in out] == [missing, missing]
    assert all(o["error"]["code"] == "unreadable_file" for o in out)


def test_contract_exit_2_answer_is_written_under_any_locale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a latin-1 (or ASCII) locale the en dash in "no 2m–8m" was a UnicodeEncodeError:
    exit 1 and a traceback for a 2m in a sanma hand. stdout is written as UTF-8 instead."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="latin-1")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**HAND, "win": "5m"})))
    assert main(["score"]) == 2
    sys.stdout.flush()
    error = json.loads(raw.getvalue().decode("utf-8"))["error"]
    assert error["code"] == "invalid_tile" and "2m–8m" in error["message"]


def test_contract_batch_line_not_utf8_is_that_lines_error_only(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One result a line, same order: a line that is not UTF-8 is an error on that line; the
    other lines are scored (the input was decoded whole: one error for the whole batch)."""
    good = json.dumps(HAND).encode()
    data = b"\xef\xbb\xbf" + good + b'\n{"hand": "\xff"}\r\n' + good + b"\n"
    path = tmp_path / "hands.jsonl"
    path.write_bytes(data)
    for argv, stdin in ((["score", "--batch", str(path)], b""), (["score", "--batch"], data)):
        code, out = run_bytes(argv, stdin, monkeypatch, capsys)
        assert code == 2 and len(out) == 3, out
        assert out[0]["valid"] and out[1]["error"]["code"] == "bad_json" and out[2]["valid"]
        assert "line 2" in out[1]["error"]["message"]


@pytest.mark.skipif(os.name != "posix", reason="select() on pipes")
def test_batch_answers_each_line_before_the_input_ends() -> None:
    """A caller that writes one hand and waits for its result (a co-process) gets it: the
    batch read stdin to its end first, so such a caller waited forever."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sanma_lens.api.cli", "score", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for honba in (0, 1):
            proc.stdin.write(json.dumps({**HAND, "honba": honba}).encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no answer while the input is still open"
            assert json.loads(proc.stdout.readline())["total"] == 3000 + 1000 * honba
        proc.stdin.close()
        assert proc.stdout.read() == b"" and proc.wait(60) == 0
    finally:
        proc.kill()


def test_contract_recognize_prints_the_recognized_tiles_and_the_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --json, one photo: the recognized tiles (it printed only the hand) and the
    reconstructed hand, as plain text."""
    vision_pipeline = pytest.importorskip("sanma_lens.vision.pipeline")

    def tile(name: str, group: str) -> dict[str, Any]:
        return {"tile": name, "red": name[0] == "0", "box": [0, 0, 1, 1], "angle": 0,
                "confidence": 0.9, "face_down": name == "back", "group": group}  # fmt: skip

    found = {
        "tiles": [tile("1p", "hand"), tile("0p", "hand"), tile("3z", "win"), tile("back", "other")],
        "hand": {"hand": "10p", "win": "3z", "melds": [], "kita": 0, "kita_aka": 0},
        "warnings": ["a warning"],
    }
    monkeypatch.setattr(vision_pipeline, "recognize_path", lambda path: found)
    assert main(["recognize", "photo.jpg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "tiles (4): hand 1p 0p; win 3z; other back"
    assert lines[1].split() == ["hand:", "10p", "win:", "3z"]
    assert lines[2] == "warning: a warning"


def test_contract_a_hand_that_is_no_legal_win_is_a_result_exit_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for hand, reason in (
        ({"hand": "1399p1357s123z44z", "win": "5z"}, "no_win_shape"),
        ({**HAND, "riichi": "none"}, "insufficient_yaku"),  # yakuhai alone: 1 han of 2
    ):
        code, out = run(["score"], json.dumps(hand), monkeypatch, capsys)
        assert code == 0 and out[0]["valid"] is False and out[0]["reason"] == reason
        assert out[0]["total"] < 0  # the chombo, paid by the claimant


def test_contract_serve_defaults_to_127_0_0_1_port_8000(monkeypatch: pytest.MonkeyPatch) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    assert main(["serve"]) == 0
    assert main(["serve", "--host", "0.0.0.0", "--port", "9001"]) == 0
    assert [(kw["host"], kw["port"]) for _, kw in calls] == [("127.0.0.1", 8000), ("0.0.0.0", 9001)]
    app, kw = calls[0]
    assert app == "sanma_lens.api.app:create_app" and kw.get("factory") is True


def test_contract_pip_install_gives_the_sanma_console_script() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["sanma"] == "sanma_lens.api.cli:main"
    help_text = subprocess.run(
        [sys.executable, "-m", "sanma_lens.api.cli", "--help"],
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout
    for command in ("score", "tenpai", "recognize", "serve"):
        assert command in help_text
