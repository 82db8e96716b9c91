"""The face bank's exclusions (datasets/manifests/face_bank_exclusions.json): faces seen by eye
to show another tile than their source label, or no clean single tile face, are dropped or
relabelled when the bank is built."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.synth import faces as fb

SHARED = fb.default_shared()


# ---------------------------------------------------------------- fake sources (no data needed)


def _tile_photo(n: int) -> np.ndarray:
    """A green table with ``n`` upright ivory tiles (60×84 px), each with a dark stroke."""
    img = np.full((200, 100 + 80 * n, 3), (40, 110, 30), np.uint8)
    for k in range(n):
        x = 50 + 80 * k
        cv2.rectangle(img, (x, 50), (x + 60, 134), (215, 232, 240), -1)
        cv2.line(img, (x + 20, 70 + 5 * k), (x + 40, 110), (30, 30, 30), 4)
    return img


@pytest.fixture()
def fake_hk(tmp_path: Path) -> Path:
    hk = tmp_path / "real/hk-hands"
    (hk / "train/images").mkdir(parents=True)
    (hk / "train/labels").mkdir(parents=True)
    (hk / "classes.json").write_text(json.dumps({"classes": {"0": "2m", "1": "3s"}}))
    img = _tile_photo(3)
    cv2.imwrite(str(hk / "train/images/photo.jpg"), img)
    h, w = img.shape[:2]
    lines = [
        f"{cid} {(50 + 80 * k + 30) / w:.5f} {92 / h:.5f} {60 / w:.5f} {84 / h:.5f}"
        for k, cid in enumerate((0, 0, 1))
    ]
    (hk / "train/labels/photo.txt").write_text("\n".join(lines) + "\n")
    return tmp_path


@pytest.fixture()
def fake_camerash(tmp_path: Path) -> Path:
    d = tmp_path / "crops/camerash"
    (d / "tiles-resized").mkdir(parents=True)
    (d / "tiles-data").mkdir()
    rows = [("1.jpg", "dots-8"), ("2.jpg", "dots-8"), ("3.jpg", "bamboo-3")]
    with (d / "tiles-data/data.csv").open("w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["image-name", "label", "label-name"])
        for k, (name, label) in enumerate(rows):
            wr.writerow([name, k, label])
            cv2.imwrite(str(d / "tiles-resized" / name), _tile_photo(1)[40:200, 40:160])
    return tmp_path


def _ids(faces: list[fb.Face]) -> dict[str, str]:
    return {f.style: f.cls for f in faces}


def test_hk_faces_are_named_by_photo_and_box_line(fake_hk: Path) -> None:
    faces = fb._photo_faces(fake_hk, 40, np.random.default_rng(0))
    assert _ids(faces) == {"photo.jpg#0": "2m", "photo.jpg#1": "2m", "photo.jpg#2": "3s"}


def test_an_excluded_hk_face_is_absent_and_a_relabelled_one_moves(fake_hk: Path) -> None:
    excl = [
        fb.Exclusion("hk", "photo.jpg", 1, "2m", None),
        fb.Exclusion("hk", "photo.jpg", 2, "3s", "6s"),
    ]
    faces = fb._photo_faces(fake_hk, 40, np.random.default_rng(0), excl)
    assert _ids(faces) == {"photo.jpg#0": "2m", "photo.jpg#2": "6s"}


def test_an_exclusion_of_another_source_leaves_the_face(fake_hk: Path) -> None:
    excl = [fb.Exclusion("jp", "photo.jpg", 1, "2m", None)]
    faces = fb._photo_faces(fake_hk, 40, np.random.default_rng(0), excl)
    assert "photo.jpg#1" in _ids(faces)


def test_camerash_exclusions(fake_camerash: Path) -> None:
    assert _ids(fb._camerash_faces(fake_camerash)) == {"1.jpg": "8p", "2.jpg": "8p", "3.jpg": "3s"}
    excl = [
        fb.Exclusion("camerash", "2.jpg", None, "8p", "9p"),
        fb.Exclusion("camerash", "3.jpg", None, "3s", None),
    ]
    assert _ids(fb._camerash_faces(fake_camerash, excl)) == {"1.jpg": "8p", "2.jpg": "9p"}


def test_an_exclusion_naming_another_label_is_refused(fake_camerash: Path) -> None:
    # The manifest was written against the data's labels: a mismatch means one of them changed.
    excl = [fb.Exclusion("camerash", "2.jpg", None, "7p", None)]
    with pytest.raises(ValueError, match="names label"):
        fb._camerash_faces(fake_camerash, excl)


def test_load_exclusions_reads_drop_and_relabel(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(
        json.dumps(
            {
                "faces": [
                    {
                        "source": "jp",
                        "image": "a.jpg",
                        "box": 3,
                        "label": "1m",
                        "seen": "6m",
                        "action": "relabel",
                        "tile": "6m",
                    },
                    {
                        "source": "camerash",
                        "image": "b.jpg",
                        "box": None,
                        "label": "8p",
                        "seen": "blur",
                        "action": "drop",
                    },
                ]
            }
        )
    )
    assert fb.load_exclusions(path) == (
        fb.Exclusion("jp", "a.jpg", 3, "1m", "6m"),
        fb.Exclusion("camerash", "b.jpg", None, "8p", None),
    )
    path.write_text(
        json.dumps(
            {
                "faces": [
                    {
                        "source": "jp",
                        "image": "a.jpg",
                        "box": 3,
                        "label": "1m",
                        "action": "relabel",
                        "tile": "6x",
                    }
                ]
            }
        )
    )
    with pytest.raises(ValueError):
        fb.load_exclusions(path)


# ---------------------------------------------------------------- the manifest itself


def _entries() -> list[dict]:
    return json.loads(fb.EXCLUSIONS_PATH.read_text())["faces"]


def test_manifest_entries_are_well_formed() -> None:
    entries = _entries()
    assert entries
    keys = set()
    for e in entries:
        assert e["source"] in ("camerash", "hk", "jp"), e
        assert e["label"] in fb.CLASSES, e
        assert e["seen"], e  # what the person saw
        assert e["action"] in ("drop", "relabel"), e
        if e["action"] == "relabel":
            assert e["tile"] in fb.CLASSES and e["tile"] != e["label"], e
        assert (e["box"] is None) == (e["source"] == "camerash"), e
        key = (e["source"], fb.face_id(e["image"], e["box"]))
        assert key not in keys, e
        keys.add(key)
    fb.load_exclusions()


def _source_label(e: dict) -> str | None:
    """The label the shared dataset gives the entry's face (None: not found)."""
    if e["source"] == "camerash":
        d = SHARED / "crops/camerash"
        assert (d / "tiles-resized" / e["image"]).is_file(), e
        with (d / "tiles-data/data.csv").open() as fh:
            for row in csv.DictReader(fh):
                if row["image-name"] == e["image"]:
                    return fb._camerash_class(row["label-name"])
        return None
    folder = {"hk": "real/hk-hands/train", "jp": "real/jp-upright"}[e["source"]]
    root = SHARED / folder
    assert (root / "images" / e["image"]).is_file(), e
    classes = json.loads(
        (root.parent / "classes.json" if e["source"] == "hk" else root / "classes.json").read_text()
    )["classes"]
    lines = (root / "labels" / (Path(e["image"]).stem + ".txt")).read_text().splitlines()
    cls = classes.get(lines[e["box"]].split()[0])
    return "flower" if cls is None and e["source"] == "hk" else cls


@pytest.mark.skipif(not (SHARED / "real").is_dir(), reason="../shared/datasets is absent")
def test_every_manifest_entry_names_an_existing_face_with_its_label() -> None:
    for e in _entries():
        assert _source_label(e) == e["label"], e


@pytest.mark.skipif(
    not (SHARED / "art/fluffystuff").is_dir(), reason="../shared/datasets is absent"
)
def test_the_built_bank_has_no_dropped_face_and_moves_the_relabelled() -> None:
    bank = fb.load_bank(str(SHARED))
    where = {(f.source, f.style): c for c, fs in bank.faces.items() for f in fs}
    for e in fb.load_exclusions():
        key = e.key
        if e.tile is None:
            assert key not in where, e
            assert (key[0], key[1] + "-red") not in where, e  # nor its red copy
        else:
            assert where.get(key) == e.tile, e


# ---------------------------------------------------------------- the audit tool


def test_audit_reads_source_faces_not_their_recoloured_copies() -> None:
    from datasets.synth.audit_faces import audited_faces

    img = np.zeros((fb.FACE_H, fb.FACE_W, 3), np.uint8)
    bank = fb.FaceBank(
        {
            "5p": [
                fb.Face("5p", img, "hk", "a.jpg#1"),
                fb.Face("5p", img, "hk", "a.jpg#1-redcentre"),
            ],
            "0p": [fb.Face("0p", img, "hk", "a.jpg#1-red")],
            "back": [fb.Face("back", img, "synthetic", "blue")],
        }
    )
    assert [f.style for f in audited_faces(bank)] == ["a.jpg#1"]


def test_audit_puts_the_face_on_a_tile_inside_its_box() -> None:
    from datasets.synth.audit_faces import on_tile

    face = np.full((fb.FACE_H, fb.FACE_W, 3), 200, np.uint8)
    face[60:100, 40:80] = 20  # the symbol
    canvas, (x1, y1, x2, y2) = on_tile(face)
    inner = canvas[int(y1) : int(y2), int(x1) : int(x2)]
    assert inner.shape[0] > fb.FACE_H and inner.shape[1] > fb.FACE_W  # face plus a rim
    assert (inner == 20).all(axis=2).sum() == 40 * 40  # the whole symbol, once
    assert (canvas[:5, :5] == (60, 110, 40)).all()  # table outside the box
