"""The compiled engine (setup.py, engine/native.py): used only when fresh, same answers as the
plain Python one."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from sanma_lens import engine
from sanma_lens.engine.native import MANIFEST, compiled_modules, fresh

ROOT = Path(__file__).resolve().parents[2]

# Scores and tenpai answers of generated hands (benchmarks/engine.py's generator, with
# riichi, tsumo, dora and melds; scored again with a role of ability mahjong), one JSON
# line; run in a child so that the environment decides which engine it imports.
_ANSWERS = """
import json, random, sys
sys.path.insert(0, sys.argv[1])
from sanma_lens import engine
from benchmarks.engine import random_winning_hand
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.service import score_json, tenpai_json
roles = [{"role": "seiryuu", "ura": ["1z"], "extra_dora": ["9p"]}, {"role": "suzaku"},
         {"role": "byakko", "byakko_declared": True}, {"role": "genbu", "kanpa": "1p"}]
rng = random.Random(7)
out = []
for i in range(400):
    h = random_winning_hand(rng)
    out.append(score_json(h))
    t = dict(h); t.pop("win"); t.pop("tsumo")
    out.append(tenpai_json(t))
    try:  # ability mahjong: the winner's role (a role's indicator may make a fifth tile)
        out.append(score_json({**h, **roles[i % len(roles)]}))
    except InputError as exc:
        out.append(exc.code)
# the four-player profiles too: random ref4p deals as ecip and standard hands (their own
# rules: the §18-style guarantee of both, ECIP's tenpane and fu rules, kan dora timing), the
# standard hands also with the standard proposal's options (docs/rules/standard.md "Options")
from benchmarks.ref4p import random_deal
from benchmarks.ref_profiles import profile_deal, profile_hand
STANDARD_OPTIONS = {"chiitoitsu_four_of_a_kind": True, "honroutou_han": 3, "renhou_han": 5,
                    "kui_pinfu_han": 1, "open_pinfu_fu": 20}
rng = random.Random(8)
for n in range(300):
    deal = profile_deal(random_deal(rng))
    h = profile_hand(deal, ("ecip", "standard")[n % 2])
    out.append(score_json(h))
    t = dict(h); t.pop("win"); t.pop("tsumo")
    for flag in ("rinshan", "haitei", "tenhou", "chihou", "houtei", "chankan", "renhou"):
        t.pop(flag, None)
    out.append(tenpai_json(t))
    if n % 2:  # the standard proposal's options on, on the same hand
        o = {**h, "rules": {**h["rules"], **STANDARD_OPTIONS}}
        out.append(score_json(o))
        t["rules"] = o["rules"]
        out.append(tenpai_json(t))
# chiitoitsu-shaped hands that may hold a four of a kind (terminals and honors in every other
# one, for honroutou), with the standard proposal's options off and on
rng = random.Random(9)
kinds = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
outside = [k for k in kinds if k[0] in "19" or k[1] == "z"]
for n in range(200):
    pool = outside if n % 2 else kinds
    six = rng.sample(pool, 6)
    seventh = rng.choice(six) if n % 3 else rng.choice([k for k in pool if k not in six])
    tiles = sorted(k for k in six + [seventh] for _ in (0, 1))
    win = tiles.pop(rng.randrange(14))
    for rules in ({"preset": "standard"}, {"preset": "standard", **STANDARD_OPTIONS}):
        h = {"hand": "".join(tiles), "win": win, "tsumo": n % 4 == 0, "rules": rules}
        out.append(score_json(h))
        out.append(tenpai_json({"hand": "".join(tiles), "rules": rules}))
print(json.dumps({"compiled": engine.native.COMPILED, "answers": out}))
"""


@cache
def _answers(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "SANMA_PURE_PYTHON"}
    if pure:
        env["SANMA_PURE_PYTHON"] = "1"
    run = subprocess.run(
        [sys.executable, "-c", _ANSWERS, str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    answers: dict[str, object] = json.loads(run.stdout)
    return answers


def test_pure_python_when_asked() -> None:
    assert _answers(pure=True)["compiled"] is False


@pytest.mark.skipif(not engine.native.COMPILED, reason="the engine is not compiled here")
def test_compiled_engine_answers_as_the_plain_one() -> None:
    compiled, plain = _answers(pure=False), _answers(pure=True)
    assert compiled["compiled"] is True and plain["compiled"] is False
    assert compiled["answers"] == plain["answers"]


def _built(folder: Path, source: str, listed: str) -> None:
    """A folder with one module's source and a manifest listing ``listed``'s hash."""
    (folder / "fu.py").write_text(source)
    digest = hashlib.sha256(listed.encode()).hexdigest()
    (folder / MANIFEST.name).write_text(json.dumps({"modules": {"sanma_lens.engine.fu": digest}}))


def test_compiled_modules_used_only_while_their_sources_are_unchanged(tmp_path: Path) -> None:
    _built(tmp_path, "X = 1\n", "X = 1\n")
    assert fresh(tmp_path) == (True, "")
    _built(tmp_path, "X = 2\n", "X = 1\n")
    assert fresh(tmp_path) == (False, "fu.py changed since it was compiled")


def test_compiled_modules_unused_without_a_readable_manifest(tmp_path: Path) -> None:
    assert fresh(tmp_path) == (False, "no _native.json: the build did not finish")
    (tmp_path / MANIFEST.name).write_text("{not json")
    assert fresh(tmp_path) == (False, "_native.json unreadable")


def test_compiled_modules_found_beside_their_sources(tmp_path: Path) -> None:
    import importlib.machinery

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / f"fold{suffix}").write_bytes(b"")
    (tmp_path / "fold.py").write_text("")
    (tmp_path / f"orphan{suffix}").write_bytes(b"")  # no source: not an engine module
    assert compiled_modules(tmp_path) == {"sanma_lens.engine.fold"}


def test_a_source_whose_times_changed_is_checked_by_its_crc32(tmp_path: Path) -> None:
    """An installed wheel's sources bear the time of the install, not of the build: each is
    then read and checked against the manifest's CRC-32 (its SHA-256 is not computed), and
    any edit is still caught."""
    import zlib

    def manifest(crc_of: str) -> None:
        (tmp_path / MANIFEST.name).write_text(json.dumps({
            "modules": {"sanma_lens.engine.fu": "not the SHA-256 of any source"},
            "stat": {"sanma_lens.engine.fu": [6, 0]},  # not the time the file has
            "crc32": {"sanma_lens.engine.fu": zlib.crc32(crc_of.encode())},
        }))  # fmt: skip

    (tmp_path / "fu.py").write_text("X = 1\n")
    manifest("X = 1\n")
    assert fresh(tmp_path) == (True, "")
    manifest("X = 2\n")  # the same size, another text
    assert fresh(tmp_path) == (False, "fu.py changed since it was compiled")
