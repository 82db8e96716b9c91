"""hk valid's audited additions (datasets/manifests/hk_valid_corrections.json, ``added``) and how
benchmarks/recognition.py scores them: a report on a real tile outside the labelled hand
("unlabelled") is neither right nor wrong, a report on nothing still counts as false."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks import recognition as br
from datasets import train_data as td
from sanma_lens.vision.types import TileDetection

MANIFEST = td.MANIFESTS / "hk_valid_corrections.json"
HK_VALID = td.SHARED / "real" / "hk-hands" / "valid"
needs_hk = pytest.mark.skipif(not HK_VALID.is_dir(), reason="../shared hk-hands valid is absent")


def _det(tile: str, box: tuple[float, float, float, float]) -> TileDetection:
    return TileDetection(tile, box, 0, 0.9, "other", ())


def test_a_report_on_an_unlabelled_tile_is_neither_right_nor_wrong() -> None:
    boxes = np.array([[0, 0, 40, 60], [50, 0, 90, 60], [200, 0, 240, 60]], np.float32)
    labels = ["1m", "2m", "unlabelled"]
    pred = [_det("1m", (0, 0, 40, 60)), _det("2m", (50, 0, 90, 60)), _det("9p", (200, 0, 240, 60))]
    t = br.Tally()
    br.score_photo(t, pred, boxes, labels)
    assert (t.gt, t.named, t.reported, t.true_reports, t.exact) == (2, 2, 2, 2, 1)
    # the same report on no labelled or audited tile is a false report and spoils the photo
    t2 = br.Tally()
    br.score_photo(t2, pred, boxes[:2], labels[:2])
    assert (t2.reported, t2.true_reports, t2.exact) == (3, 2, 0)
    # an unlabelled tile nobody reports costs nothing either
    t3 = br.Tally()
    br.score_photo(t3, pred[:2], boxes, labels)
    assert (t3.gt, t3.named, t3.exact) == (2, 2, 1)


def test_additions_are_read_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [
        {"image": "a.jpg", "tile": "unlabelled", "xyxy_640": [1, 2, 30, 40]},
        {"image": "a.jpg", "tile": "back", "xyxy_640": [40, 2, 70, 40]},
        {"image": "b.jpg", "tile": "5z", "xyxy_640": [0, 0, 10, 10]},
    ]
    (tmp_path / "hk_valid_corrections.json").write_text(
        json.dumps({"corrections": [], "added": rows})
    )
    monkeypatch.setattr(td, "MANIFESTS", tmp_path)
    got = td.load_additions()
    assert [t for t, _ in got["a.jpg"]] == ["unlabelled", "back"]
    assert got["b.jpg"][0][1].tolist() == [0, 0, 10, 10]
    for bad in (
        {"image": "c.jpg", "tile": "flower", "xyxy_640": [0, 0, 9, 9]},
        {"image": "c.jpg", "tile": "tile", "xyxy_640": [0, 0, 9, 9]},
        {"image": "c.jpg", "tile": "1m", "xyxy_640": [9, 0, 0, 9]},
    ):
        (tmp_path / "hk_valid_corrections.json").write_text(
            json.dumps({"corrections": [], "added": [bad]})
        )
        with pytest.raises(ValueError):
            td.load_additions()


def test_shipped_additions_are_well_formed() -> None:
    data = json.loads(MANIFEST.read_text())
    added = data.get("added", [])
    for row in added:
        assert row["tile"] in td.ADDABLE or row["tile"] in td.CLASSES, row
        x1, y1, x2, y2 = row["xyxy_640"]
        assert x2 > x1 and y2 > y1, row
    assert len(td.load_additions()) == len({r["image"] for r in added})


@needs_hk
def test_additions_join_only_when_asked_and_never_on_a_labelled_tile() -> None:
    plain = {Path(p.path).name: p for p in td.hk_photos("valid")}
    more = {Path(p.path).name: p for p in td.hk_photos("valid", added=True)}
    additions = td.load_additions()
    assert additions, "the manifest lists audited additions"
    for image, extra in additions.items():
        assert image in plain, image
        a, b = plain[image], more[image]
        assert len(b.labels) == len(a.labels) + len(extra)
        assert b.labels[: len(a.labels)] == a.labels
        # an addition is another tile, not a second box on a label: the benchmark's matching
        # (benchmarks.recognition.same_tile) pairs it with no labelled box
        for _tile, box in extra:
            assert all(br.same_tile(tuple(box), tuple(lb)) == 0 for lb in a.boxes), image
    untouched = set(plain) - set(additions)
    assert all(len(plain[n].labels) == len(more[n].labels) for n in untouched)


def test_halves_score_odd_and_even_indexed_hk_photos_apart(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--halves``: the photo at an odd index in hk valid's sorted list is scored in the odd
    half (the half settings are chosen on), the others in the even half; jp is not split."""
    box = np.array([[0, 0, 40, 60]], np.float32)

    def photo(label: str) -> td.Photo:
        return td.Photo(
            f"p_{label}.jpg", box.copy(), [label], [None], np.zeros((80, 80, 3), np.uint8)
        )

    hk = [photo("1m"), photo("2m"), photo("3m")]  # the stand-in reads every tile as 1m
    monkeypatch.setattr(td, "hk_photos", lambda *a, **k: hk)
    monkeypatch.setattr(td, "jp_photos", lambda *a, **k: [photo("1m")])

    class _Reads1m:
        def tiles(self, _image: np.ndarray) -> tuple[list[TileDetection], int]:
            return [_det("1m", (0, 0, 40, 60))], 0

    br.eval_real(_Reads1m(), corrected=True, halves=True)  # type: ignore[arg-type]
    out = capsys.readouterr().out
    odd = next(line for line in out.splitlines() if "odd-indexed" in line)
    even = next(line for line in out.splitlines() if "even-indexed" in line)
    assert "photos 1, labelled tiles 1" in odd and "named right 0.00%" in odd  # 2m
    assert "photos 2, labelled tiles 2" in even and "named right 50.00%" in even  # 1m, 3m
    assert out.count("odd-indexed") == 1  # jp is not split


JP_MANIFEST = td.MANIFESTS / td.JP_MANIFEST
JP_UPRIGHT = td.SHARED / "real" / "jp-upright"


def test_jp_additions_are_well_formed() -> None:
    """jp-upright's audited additions: tiles its labels leave out, cut off by the photo's edge
    ("partial") or outside the labelled row ("unlabelled"); read from their own manifest."""
    added = json.loads(JP_MANIFEST.read_text())["added"]
    assert added
    for row in added:
        assert row["tile"] in ("partial", "unlabelled"), row
    got = td.load_additions(td.JP_MANIFEST)
    assert sum(len(v) for v in got.values()) == len(added)


@pytest.mark.skipif(not JP_UPRIGHT.is_dir(), reason="../shared jp-upright is absent")
def test_jp_additions_join_only_when_asked_and_never_on_a_labelled_tile() -> None:
    plain = {Path(p.path).name: p for p in td.jp_photos(heldout=True)}
    more = {Path(p.path).name: p for p in td.jp_photos(heldout=True, added=True)}
    for image, extra in td.load_additions(td.JP_MANIFEST).items():
        a, b = plain[image], more[image]  # every addition is in a held-out photo
        assert b.labels == a.labels + [t for t, _ in extra]
        assert len(b.sideways) == len(b.labels) and not any(b.sideways)
        for _tile, box in extra:
            assert all(br.same_tile(tuple(box), tuple(lb)) == 0 for lb in a.boxes), image
