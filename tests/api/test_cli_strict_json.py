"""The CLI reads JSON as strictly as the service (no NaN, Infinity or numbers past a double) and
writes with orjson exactly what the standard library's json wrote, byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIN = {"hand": "234p456p789s11z22z", "win": "2z", "riichi": "riichi"}


def _sanma(*args: str, stdin: bytes) -> tuple[int, list[dict]]:
    run = subprocess.run(
        [sys.executable, "-m", "sanma_lens.api.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    return run.returncode, [json.loads(line) for line in run.stdout.decode().splitlines()]


@pytest.mark.parametrize(
    "text",
    [
        b'{"hand":"234p456p789s11z22z","win":"2z","honba":NaN}',
        b'{"hand":"234p456p789s11z22z","win":"2z","honba":-Infinity}',
        b'{"hand":"234p456p789s11z22z","win":"2z","honba":1' + b"0" * 5000 + b"}",
    ],
)
def test_nan_infinity_and_huge_numbers_are_bad_json_exit_2(text):
    code, out = _sanma("score", stdin=text)
    assert code == 2 and out[0]["error"]["code"] == "bad_json"
    code, out = _sanma("score", "--batch", stdin=json.dumps(WIN).encode() + b"\n" + text + b"\n")
    assert code == 2 and out[0]["valid"] is True and out[1]["error"]["code"] == "bad_json"


def test_batch_output_is_what_the_standard_library_wrote(tmp_path):
    hands = [
        WIN,
        {**WIN, "tsumo": True, "dora": ["1p"], "honba": 2},
        {"hand": "1199p3355s44677z", "win": "6z", "riichi": "riichi", "seat": "W"},
        {"hand": "234p456p78s11z", "win": "9s", "melds": ["pon:777z"], "kita": 2},
        {"hand": "1122334455667p", "win": "7p", "tsumo": True, "seat": "E"},
        {"hand": "123p", "win": "1z"},  # an error line
    ]
    data = b"".join(json.dumps(h, ensure_ascii=False).encode() + b"\n" for h in hands)
    run = subprocess.run(
        [sys.executable, "-m", "sanma_lens.api.cli", "score", "--batch"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    lines = run.stdout.decode().splitlines()
    assert len(lines) == len(hands)
    for line in lines:
        again = json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))
        assert line == again
