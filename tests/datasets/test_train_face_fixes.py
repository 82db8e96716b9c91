"""The face bank's audit (datasets/manifests/face_bank_exclusions.json) reaches the training
readers too: a face seen to show another tile trains as that tile, a dropped one gives the
classifier nothing (``partial``), and the held-out evaluation labels are never touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datasets import train_data as td


def _fake_set(root: Path) -> None:
    """A jp-like set: one photo whose label file has a malformed second line, so that a box's
    line in the file (what the manifest names) differs from its place in the list."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "classes.json").write_text(json.dumps({"classes": {"0": "1m", "1": "3s", "2": None}}))
    (root / "labels" / "a.txt").write_text(
        "0 0.2 0.5 0.1 0.2\nbroken\n1 0.4 0.5 0.1 0.2\n1 0.6 0.5 0.1 0.2\n2 0.8 0.5 0.1 0.2\n"
    )


def _manifest(path: Path, faces: list[dict]) -> None:
    (path / "face_bank_exclusions.json").write_text(json.dumps({"faces": faces}))


def test_fixes_follow_the_label_files_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_set(tmp_path / "set")
    _manifest(
        tmp_path,
        [
            {
                "source": "jp",
                "image": "a.jpg",
                "box": 2,
                "label": "3s",
                "seen": "six sticks",
                "action": "relabel",
                "tile": "6s",
            },
            {
                "source": "jp",
                "image": "a.jpg",
                "box": 3,
                "label": "3s",
                "seen": "covered",
                "action": "drop",
            },
            {
                "source": "hk",
                "image": "a.jpg",
                "box": 0,
                "label": "1m",
                "seen": "八萬",
                "action": "relabel",
                "tile": "8m",
            },
        ],
    )
    monkeypatch.setattr(td, "MANIFESTS", tmp_path)
    fixes = td.face_bank_fixes("jp")
    assert {line: e.tile for line, e in fixes["a.jpg"].items()} == {2: "6s", 3: None}
    (photo,) = td._photos(tmp_path / "set", ["a.jpg"], "partial", fixes)
    assert photo.labels == ["1m", "6s", "partial", "partial"]
    (plain,) = td._photos(tmp_path / "set", ["a.jpg"], "partial")
    assert plain.labels == ["1m", "3s", "3s", "partial"]


def test_an_entry_naming_another_label_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # written against the data's labels: a mismatch means the manifest or the data changed
    _fake_set(tmp_path / "set")
    _manifest(
        tmp_path,
        [
            {
                "source": "jp",
                "image": "a.jpg",
                "box": 0,
                "label": "9m",
                "seen": "x",
                "action": "drop",
            }
        ],
    )
    monkeypatch.setattr(td, "MANIFESTS", tmp_path)
    with pytest.raises(ValueError, match="names label"):
        td._photos(tmp_path / "set", ["a.jpg"], "partial", td.face_bank_fixes("jp"))


def test_no_manifest_no_fixes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(td, "MANIFESTS", tmp_path)
    assert td.face_bank_fixes("hk") == {}


SHARED = td.SHARED


@pytest.mark.skipif(
    not (SHARED / "real" / "jp-upright").is_dir(), reason="../shared/datasets is absent"
)
def test_training_photos_carry_the_seen_tiles() -> None:
    faces = json.loads((td.MANIFESTS / "face_bank_exclusions.json").read_text())["faces"]
    by_source = {"hk": td.hk_photos("train"), "jp": td.jp_photos(heldout=False)}
    heldout = {Path(p.path).name for p in td.jp_photos(heldout=True)}
    checked = 0
    for e in faces:
        if e["source"] not in by_source:
            continue
        assert e["image"] not in heldout, e
        photo = next(p for p in by_source[e["source"]] if Path(p.path).name == e["image"])
        root = Path(photo.path).parent.parent
        lines = [
            line
            for _, _, line in td.read_yolo(
                root / "labels" / (Path(photo.path).stem + ".txt"), 640, 640
            )
        ]
        seen = e["tile"] if e["action"] == "relabel" else "partial"
        assert photo.labels[lines.index(e["box"])] == seen, e
        checked += 1
    assert checked > 0


@pytest.mark.skipif(
    not (SHARED / "crops" / "camerash").is_dir(), reason="../shared/datasets is absent"
)
def test_camerash_relabels_reach_the_crops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    faces = json.loads((td.MANIFESTS / "face_bank_exclusions.json").read_text())["faces"]
    entries = [e for e in faces if e["source"] == "camerash"]
    assert entries, "the manifest fixes camerash crops"

    def counts() -> dict[str, int]:
        out: dict[str, int] = {}
        for _, label in td.camerash_crops():
            out[label] = out.get(label, 0) + 1
        return out

    fixed = counts()
    monkeypatch.setattr(td, "MANIFESTS", tmp_path)  # no manifest: the set's own labels
    raw = counts()
    expected = dict(raw)
    for e in entries:
        expected[e["label"]] -= 1
        if e["action"] == "relabel":
            expected[e["tile"]] = expected.get(e["tile"], 0) + 1
    assert fixed == {k: v for k, v in expected.items() if v}
