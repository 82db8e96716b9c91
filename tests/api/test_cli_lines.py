"""`sanma score --batch` / `sanma tenpai --batch` line by line (docs/api.md: JSON Lines in,
JSON Lines out, one result a line, same order)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sanma_lens.api.cli import main

WIN = {"hand": "234p456p789s11z22z", "win": "2z", "riichi": "riichi"}
WAIT = {"hand": "234p456p789s11z22z", "riichi": "riichi"}


def _batch(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[Any]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    return code, [json.loads(line) for line in capsys.readouterr().out.split("\n")[:-1]]


@pytest.mark.parametrize(
    ("command", "hand", "key"), [("score", WIN, "valid"), ("tenpai", WAIT, "tenpai")]
)
def test_contract_batch_a_blank_line_gets_its_own_answer(
    command: str,
    hand: dict[str, Any],
    key: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One result a line, same order: answer k belongs to line k. A blank line had no answer,
    so every later answer sat against the hand before it. It is no JSON value (JSON Lines):
    a bad_json error object and exit 2, the other lines still answered."""
    lines = [json.dumps(hand), "", json.dumps({**hand, "honba": 1}), " \t", json.dumps(hand)]
    text = "\n".join(lines) + "\n"
    path = tmp_path / "hands.jsonl"
    path.write_text(text)
    for argv, stdin in (([command, "--batch"], text), ([command, "--batch", str(path)], "")):
        code, out = _batch(argv, stdin, monkeypatch, capsys)
        assert code == 2 and len(out) == len(lines)
        assert [o["error"]["code"] for o in (out[1], out[3])] == ["bad_json", "bad_json"]
        assert "line 2 is empty" in out[1]["error"]["message"]
        assert all(out[i][key] for i in (0, 2, 4))
    if command == "score":
        assert [out[i]["total"] for i in (0, 2, 4)] == [3000, 4000, 3000]


def test_contract_batch_the_newline_ending_the_last_line_is_no_blank_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for text in (json.dumps(WIN), json.dumps(WIN) + "\n", json.dumps(WIN) + "\r\n", ""):
        code, out = _batch(["score", "--batch"], text, monkeypatch, capsys)
        assert code == 0 and len(out) == (1 if text else 0)


class _ClosedPipe(io.StringIO):
    """A stdout whose reader has gone: every write fails as a closed pipe does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("command", ["score", "tenpai"])
def test_cli_output_to_a_closed_pipe_ends_quietly(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sanma score --batch < many.jsonl | head -1`: once the reader is gone the command
    stops with 141 (128 + SIGPIPE, as a shell reports `seq 1 100000 | head -1`), no traceback."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(WAIT if command == "tenpai" else WIN)))
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main([command, "--batch"]) == 141
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPIPE")
def test_cli_batch_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    """The real thing: a process whose stdout pipe is closed after the first answer."""
    import subprocess

    hands = tmp_path / "many.jsonl"
    hands.write_text((json.dumps(WIN) + "\n") * 2000)  # ~1 MB of answers: more than a pipe holds
    err = tmp_path / "stderr"
    with hands.open("rb") as stdin, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "sanma_lens.api.cli", "score", "--batch"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert proc.stdout is not None
        try:
            assert json.loads(proc.stdout.readline())["valid"]
            proc.stdout.close()  # what `head -1` does after its line
            assert proc.wait(120) == 141
        finally:
            proc.kill()
    assert err.read_text() == ""


def test_cli_batch_exits_at_once_with_every_answer_written(tmp_path: Path) -> None:
    """The command ends a batch without the interpreter's teardown (``os._exit``): every
    answer is still written, to a file and to a pipe, and the exit status is the batch's;
    with an exit handler registered (an embedding program, a coverage tool) the teardown
    runs as usual, the handler too."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    lines = [json.dumps({**WIN, "honba": k % 5}) for k in range(3000)]
    lines[1234] = "{"
    hands = tmp_path / "hands.jsonl"
    hands.write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "sanma_lens.api.cli", "score", "--batch", str(hands)]

    def check(out: str) -> None:
        got = out.split("\n")
        assert got[-1] == "" and len(got) == len(lines) + 1
        assert json.loads(got[1234])["error"]["code"] == "bad_json"
        assert [json.loads(got[k])["total"] for k in (0, 2999)] == [3000, 7000]

    piped = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    assert piped.returncode == 2 and piped.stderr == ""
    check(piped.stdout)
    out_file = tmp_path / "out.jsonl"
    with out_file.open("wb") as out:
        to_file = subprocess.run(command, stdout=out, cwd=root, check=False)
    assert to_file.returncode == 2
    check(out_file.read_text())
    handler = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
        "from sanma_lens.api.cli import main\n"
        "sys.argv = ['sanma', 'score', '--batch', sys.argv[1]]\n"
        "sys.exit(main())\n"
    )
    embedded = subprocess.run(
        [sys.executable, "-c", handler, str(hands)], capture_output=True, text=True, cwd=root,
        check=False,
    )  # fmt: skip
    assert embedded.returncode == 2 and embedded.stderr == "handler ran\n"
    check(embedded.stdout)
