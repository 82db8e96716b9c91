"""The phone pages name every yaku a preset's table holds, in English and Japanese
(``api/web/text.js``, ``YAKU``; read from the file itself, no browser)."""

from __future__ import annotations

import re
from pathlib import Path

from sanma_lens.engine.rules import PRESETS

TEXT_JS = Path(__file__).resolve().parents[2] / "api" / "web" / "text.js"


def _yaku_names() -> dict[str, tuple[str, str]]:
    block = TEXT_JS.read_text(encoding="utf-8").split("const YAKU = {", 1)[1].split("};", 1)[0]
    return {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r'(\w+): \["([^"]+)", "([^"]+)"\]', block)
    }


def test_every_yaku_of_every_preset_has_an_english_and_a_japanese_name() -> None:
    names = _yaku_names()
    for rules in PRESETS.values():
        missing = [spec.id for spec in rules.yaku if spec.id not in names]
        assert not missing, (rules.preset, missing)
    assert names["kui_pinfu"] == ("Kui pinfu", "喰い平和")
