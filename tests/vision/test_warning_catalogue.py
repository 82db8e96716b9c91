"""Warnings as codes (vision/warning_catalogue.py): every warning the recognizer gives is in the
catalogue with its parameters, says what to check without citing rule sections, and comes in
the recognize JSON twice: ``warnings`` (the messages, the contract's strings) and
``warning_details`` aligned with it."""

from __future__ import annotations

import pickle
import re
import string
from pathlib import Path

import numpy as np
import pytest

import sanma_lens.vision as vision_package
from sanma_lens.vision.pipeline import MODELS, Recognizer
from sanma_lens.vision.warning_catalogue import TEMPLATES, PhotoWarning, details, where

VISION = Path(vision_package.__file__).resolve().parent
SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"
HAS_MODELS = all((MODELS / n).is_file() for n in ("tile_detector.onnx", "tile_classifier.onnx"))

# a value for every parameter a template takes
SAMPLE = {
    "tile": "5p",
    "tiles": ("5p", "5p", "0p"),
    "confidence": 0.42,
    "meld": "pon:055p",
    "kind": "5p",
    "count": 5,
    "expected": 13,
    "melds": 1,
    "other": "6p",
    "other_confidence": 0.31,
    "first": "2p",
    "second": "3p",
    "first_confidence": 0.9,
    "second_confidence": 0.8,
    "was": "6p",
    "north": "4z",
    "north_confidence": 0.3,
    "others": ("9p",),
    "end": "start",
    "flower_confidence": 0.5,
    "changes": ({"place": "hand", "position": 3, "was": "8p", "tile": "3p"},),
}


def _sample(code: str) -> dict[str, object]:
    fields = {f for _, f, _, _ in string.Formatter().parse(TEMPLATES[code]) if f}
    params: dict[str, object] = {k: v for k, v in SAMPLE.items() if k in fields}
    if fields & {"where", "Where"}:
        params.update(place="hand", position=2)
    if "position" in fields:
        params.update(position=2)
    if fields & {"spot", "left", "right"}:
        params.update(left="3p", right="5p")
    return params


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_code_says_its_message_from_its_parameters(code: str) -> None:
    w = PhotoWarning(code, **_sample(code))  # type: ignore[arg-type]
    assert w.code == code and not w[0].islower() and "{" not in w
    assert "§" not in w and "RULES" not in w  # what to check, not where the rule is written
    assert w.to_json()["message"] == str(w) and w.to_json()["code"] == code
    assert pickle.loads(pickle.dumps(w)) == w and pickle.loads(pickle.dumps(w)).code == code


def test_the_fifth_tile_warning_names_the_kind_and_says_what_to_check() -> None:
    w = PhotoWarning("fifth_tile", kind="5p", count=5)
    assert w == (
        "5 5p read, but only four exist: check the 5p tiles (one is misread, or a set "
        "was completed with a tile not seen)"
    )
    assert w.to_json() == {
        "code": "fifth_tile",
        "params": {"kind": "5p", "count": 5},
        "message": str(w),
    }


def test_places_and_spots_are_said_from_their_parameters() -> None:
    assert where("hand", 3) == "tile 3 of the hand" and where("win", None) == "the winning tile"
    assert where("meld", 2) == "a tile of meld 2" and where("dora", 1) == "dora indicator 1"
    w = PhotoWarning("low_confidence", place="kita", position=2, tile="4z", confidence=0.4)
    assert w == "Kita 2 (4z) was read unsure (0.40): check it"
    gap = PhotoWarning("tile_found_in_gap", left=None, right="1p", tile="9m", confidence=0.8)
    assert "No tile was found left of 1p" in gap
    assert gap.to_json()["params"] == {"left": None, "right": "1p", "tile": "9m", "confidence": 0.8}


def test_a_code_not_in_the_catalogue_or_wrong_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="no warning code"):
        PhotoWarning("made_up")
    with pytest.raises(ValueError, match="takes"):
        PhotoWarning("fifth_tile", kind="5p")  # count missing
    with pytest.raises(ValueError, match="takes"):
        PhotoWarning("no_tiles", tile="5p")  # a parameter it does not say
    w = PhotoWarning("no_tiles")
    with pytest.raises(AttributeError):
        w.code = "other"  # type: ignore[misc]


def _codes_in_source() -> set[str]:
    """The quoted names in vision/'s code that are catalogue codes."""
    found: set[str] = set()
    for path in VISION.rglob("*.py"):
        if path.name == "warning_catalogue.py":
            continue
        found |= set(re.findall(r'"([a-z0-9_]+)"', path.read_text())) & set(TEMPLATES)
    return found


def test_every_code_is_given_somewhere_and_every_warning_is_coded() -> None:
    """The catalogue lists no code nobody gives, and vision/ writes no warning as bare text
    (each ``warnings.append``/``notes.append`` takes a PhotoWarning)."""
    assert set(TEMPLATES) - _codes_in_source() == set()
    bare = []
    for path in VISION.rglob("*.py"):
        text = path.read_text()
        bare += [
            f"{path.name}: {m}"
            for m in re.findall(r'(?:warnings|notes)\.append\(\s*f?"[^"]*"', text)
        ]
    assert bare == []


def test_details_are_aligned_with_the_warnings() -> None:
    ws = [PhotoWarning("no_tiles"), PhotoWarning("flowers_ignored", count=2)]
    out = details(ws)  # type: ignore[arg-type]
    assert [d["message"] for d in out] == ws
    assert [d["code"] for d in out] == ["no_tiles", "flowers_ignored"]
    assert details(["a warning made as bare text"])[0]["code"] == "unlisted"


@pytest.mark.skipif(not HAS_MODELS, reason="models/*.onnx not present")
@pytest.mark.skipif(
    not (SHARED / "art" / "fluffystuff").is_dir(), reason="../shared/datasets not present"
)
def test_recognize_json_carries_a_code_for_every_warning() -> None:
    """Rendered table scenes through the whole pipeline (second looks included): every warning
    of the recognize JSON has its detail, a catalogue code, in the same order."""
    from datasets.synth.scene import render_scene

    rec = Recognizer()
    seen: set[str] = set()
    for seed in range(600000, 600012):
        image = render_scene(np.random.default_rng(seed), hands="winning").image
        h, w = image.shape[:2]
        out = rec.recognize_image(image, (w, h))
        assert [d["message"] for d in out["warning_details"]] == out["warnings"]
        assert all(d["code"] in TEMPLATES for d in out["warning_details"])
        seen |= {d["code"] for d in out["warning_details"]}
    assert seen  # the scenes gave warnings to check
