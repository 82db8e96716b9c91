"""The hk-hands valid label fixes (datasets/manifests/hk_valid_corrections.json) as both
benchmarks read them: a relabelled box takes its new tile, a duplicate label is dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import layout as layout_bench
from datasets import train_data as td

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "datasets" / "manifests" / "hk_valid_corrections.json"
HK_VALID = td.SHARED / "real" / "hk-hands" / "valid"


def _fixes() -> list[dict]:
    return json.loads(MANIFEST.read_text())["corrections"]


def test_every_fix_names_a_tile_or_drops_a_duplicate() -> None:
    for fix in _fixes():
        assert fix["tile"] is None or fix["tile"] in td.CLASSES, fix
        assert fix["tile"] != fix["was"], fix


@pytest.mark.skipif(not HK_VALID.is_dir(), reason="../shared hk-hands valid is absent")
def test_both_readers_apply_the_fixes_alike() -> None:
    classes = json.loads((HK_VALID.parent / "classes.json").read_text())["classes"]
    fixes = layout_bench._corrections()
    photos = {Path(p.path).name: p for p in td.hk_photos("valid")}
    for image in {f["image"] for f in _fixes()}:
        rows = layout_bench._read_yolo(
            HK_VALID / "labels" / (Path(image).stem + ".txt"), classes, fixes
        )
        photo = photos[image]
        # the layout benchmark has no name for a flower or season (None); training calls it flower
        assert sorted(t or "flower" for t, _ in rows) == sorted(photo.labels), image
    raw = {Path(p.path).name: p for p in td.hk_photos("valid", corrected=False)}
    dropped = [f for f in _fixes() if f["tile"] is None]
    for fix in dropped:  # one box fewer at the duplicate's place (a label it doubled may stay,
        # even on the very same box: one box labelled 9s and 5s keeps its 5s)
        assert (
            _boxes_at(photos[fix["image"]].boxes, fix["xyxy_640"])
            == _boxes_at(raw[fix["image"]].boxes, fix["xyxy_640"]) - 1
        ), fix
        assert raw[fix["image"]].labels[fix["box"]] == fix["was"], fix


def _boxes_at(boxes, xyxy: list[float]) -> int:
    """How many of ``boxes`` lie within half a pixel of ``xyxy``."""
    return sum(bool((abs(b - xyxy) < 0.5).all()) for b in boxes)
