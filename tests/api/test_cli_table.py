"""The CLI at the table: `sanma score --photo` with the situation as options, `--explain`,
recognize's text output left to right, and the phone's URL that `sanma serve` prints."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sanma_lens.api import cli, lan
from sanma_lens.api.cli import main
from sanma_lens.engine.service import score_json

from .conftest import drawn_photo

RECOGNIZED = {
    "tiles": [],
    "hand": {
        "hand": "234p456p789s11z22z",
        "win": "2z",
        "melds": [],
        "kita": 1,
        "kita_aka": 0,
        "dora": ["1z"],
    },
    "warnings": [],
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture()
def fake_photo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """A photo path whose recognition is RECOGNIZED (the recognizer itself is tested elsewhere)."""
    import sanma_lens.vision.pipeline

    monkeypatch.setattr(
        sanma_lens.vision.pipeline,
        "recognize_path",
        lambda path: json.loads(json.dumps(RECOGNIZED)),
    )
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(drawn_photo())
    return str(photo)


def test_score_photo_takes_the_situation_as_options(fake_photo, capsys):
    code, out = _run(
        ["score", "--photo", fake_photo, "--tsumo", "--riichi", "riichi", "--seat", "E",
         "--honba", "1", "--deposits", "2", "--ippatsu"],
        capsys,
    )  # fmt: skip
    assert code == 0
    hand = {**RECOGNIZED["hand"], "tsumo": True, "riichi": "riichi", "seat": "E", "round": "E",
            "honba": 1, "deposits": 2, "ippatsu": True}  # fmt: skip
    assert out["score_kind"] == "result"
    assert out["score"] == score_json(hand)
    assert out["hand"] == RECOGNIZED["hand"] and out["scored_hand"]["dora"] == ["1z"]


def test_score_photo_dora_option_replaces_the_photos_and_explain_is_added(fake_photo, capsys):
    code, out = _run(["score", "--photo", fake_photo, "--dora", "7z", "3p", "--explain"], capsys)
    assert code == 0
    assert out["scored_hand"]["dora"] == ["7z", "3p"]
    assert out["score"]["explain"]["wait"]["tile"] == "2z"


def test_score_photo_with_a_bad_option_exits_2_before_reading_the_photo(capsys, tmp_path):
    code, out = _run(["score", "--photo", str(tmp_path / "absent.jpg"), "--dora", "2m"], capsys)
    assert code == 2 and set(out) == {"error"}


def test_score_photo_unreadable_photo_exits_2(capsys, tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    code, out = _run(["score", "--photo", str(bad)], capsys)
    assert code == 2 and set(out["error"]) == {"code", "message"}


def test_score_explain_on_stdin(monkeypatch, capsys):
    hand = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "riichi": "riichi"}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(hand)))
    code, out = _run(["score", "--explain"], capsys)
    assert code == 0
    assert {k: v for k, v in out.items() if k != "explain"} == score_json(hand)
    assert out["explain"]["yakuhai"] == [{"tile": "2z", "han": 1, "as": ["seat"]}]


def test_recognize_text_lists_tiles_left_to_right_within_each_group():
    tiles = [
        {"tile": "3p", "box": [300, 0, 340, 50], "group": "hand"},
        {"tile": "1p", "box": [100, 0, 140, 50], "group": "hand"},
        {"tile": "4z", "box": [500, 0, 540, 50], "group": "kita"},
        {"tile": "2p", "box": [200, 0, 240, 50], "group": "hand"},
        {"tile": "9s", "box": [10, 0, 50, 50], "group": "other"},
    ]
    assert cli._tiles_line(tiles) == "tiles (5): hand 1p 2p 3p; kita 4z; other 9s"


def test_serve_prints_the_phones_url_and_a_qr_code(monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    out = io.StringIO()
    lan.print_banner("0.0.0.0", 8123, out)
    text = out.getvalue()
    assert "http://192.168.1.23:8123/" in text
    assert "█" in text or "▀" in text  # the QR code, drawn with block characters


def test_serve_on_loopback_says_how_to_reach_it_from_a_phone():
    out = io.StringIO()
    lan.print_banner("127.0.0.1", 8000, out)
    assert "--host 0.0.0.0" in out.getvalue()
    assert lan.phone_url("127.0.0.1", 8000) is None
    assert lan.phone_url("192.168.0.5", 80) == "http://192.168.0.5:80/"
