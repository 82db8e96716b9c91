"""Audit the face bank's labels: the shipped classifier reads every photo face of the bank.

A face whose top reading differs from its source label, or that is read with low confidence,
is listed (CSV) and drawn on contact sheets (PNG: the face enlarged, with its label, the
reading and its id underneath) for a person to judge BY EYE. The model only sorts the faces to
look at; a face is excluded (``datasets/manifests/face_bank_exclusions.json``) only when a
person sees that it is not its label or not one clean tile face. ::

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m datasets.synth.audit_faces --out .dev/bank6

The bank is built WITHOUT the manifest's exclusions (so every face is read); faces the manifest
already names are marked ``excluded`` in the CSV. Art faces (FluffyStuff) are read too, as a
check of the reading itself: they are drawn, so their labels are right by construction.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.synth.faces import (
    FACE_H,
    FACE_W,
    Face,
    FaceBank,
    _face_background,
    build_bank,
    default_shared,
    load_exclusions,
)
from sanma_lens.vision.classify import CLASSES, TileClassifier
from sanma_lens.vision.pipeline import MODELS, Recognizer

REPO = Path(__file__).resolve().parents[2]
DERIVED = ("-red", "-redcentre", "-nored")  # recoloured copies of an audited face
SOURCES = ("camerash", "hk", "jp", "fluffy", "fluffy-black")


@dataclass(frozen=True)
class Reading:
    face: Face
    top: str
    p_top: float
    p_label: float

    @property
    def agrees(self) -> bool:
        return self.top == self.face.cls

    @property
    def ident(self) -> str:
        return f"{self.face.source}:{self.face.style}"


def audited_faces(bank: FaceBank) -> list[Face]:
    """The bank's source faces (not the recoloured red / red-centre / no-red copies, which
    inherit their source face's label, nor the drawn backs)."""
    return [
        f
        for fs in bank.faces.values()
        for f in fs
        if f.source in SOURCES and not f.style.endswith(DERIVED)
    ]


def on_tile(face: np.ndarray) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The face on a plain tile body on a dark-green table, and the tile's box: roughly what
    the classifier gets from a rendered scene (a face with a rim of tile and some table)."""
    rim_w, rim_h = int(0.06 * FACE_W), int(0.05 * FACE_H)
    ground = _face_background(face).clip(0, 255)
    tile = np.empty((FACE_H + 2 * rim_h, FACE_W + 2 * rim_w, 3), np.float32)
    tile[:] = ground * 0.9
    tile[rim_h : rim_h + FACE_H, rim_w : rim_w + FACE_W] = face
    pad = 40
    canvas = np.empty((tile.shape[0] + 2 * pad, tile.shape[1] + 2 * pad, 3), np.float32)
    canvas[:] = (60, 110, 40)
    canvas[pad : pad + tile.shape[0], pad : pad + tile.shape[1]] = tile
    box = (float(pad), float(pad), float(pad + tile.shape[1]), float(pad + tile.shape[0]))
    return canvas.astype(np.uint8), box


def read_faces(clf: TileClassifier, faces: list[Face], batch: int = 64) -> list[Reading]:
    out: list[Reading] = []
    t0 = time.time()
    for i in range(0, len(faces), batch):
        chunk = faces[i : i + batch]
        for f in chunk:
            img, box = on_tile(f.image)
            p = clf.classify_boxes(img, [box], [False])[0]
            k = int(p.argmax())
            out.append(Reading(f, CLASSES[k], float(p[k]), float(p[CLASSES.index(f.cls)])))
        done = min(i + batch, len(faces))
        print(
            f"\r  read {done}/{len(faces)} faces  {time.time() - t0:5.1f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return out


def contact_sheet(
    readings: list[Reading],
    path: Path,
    cols: int = 6,
    scale: float = 1.5,
    marks: set[str] | None = None,
) -> None:
    """Faces enlarged ``scale`` times, under each: label -> reading (p), and the face id
    (its last characters; the sheet's CSV beside it lists the full ids by number)."""
    w, h = int(FACE_W * scale), int(FACE_H * scale)
    text_h = 34
    with path.with_suffix(".csv").open("w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["n", "source", "id", "label", "reading", "p_reading"])
        for n, r in enumerate(readings):
            wr.writerow([n, r.face.source, r.face.style, r.face.cls, r.top, f"{r.p_top:.3f}"])
    rows = (len(readings) + cols - 1) // cols
    sheet = np.full((rows * (h + text_h), cols * (w + 6), 3), 255, np.uint8)
    for n, r in enumerate(readings):
        y, x = (n // cols) * (h + text_h), (n % cols) * (w + 6)
        sheet[y : y + h, x : x + w] = cv2.resize(
            r.face.image, (w, h), interpolation=cv2.INTER_CUBIC
        )
        colour = (0, 0, 200) if not r.agrees else (0, 120, 0)
        if marks and r.ident in marks:
            cv2.rectangle(sheet, (x, y), (x + w - 1, y + h - 1), (200, 0, 200), 3)
        cv2.putText(
            sheet,
            f"#{n} {r.face.cls} -> {r.top} {r.p_top:.2f}",
            (x + 2, y + h + 13),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.42,
            colour,
            1,
            cv2.LINE_AA,
        )
        cv2.putText(
            sheet,
            r.ident[-30:],
            (x + 2, y + h + 28),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.32,
            (40, 40, 40),
            1,
            cv2.LINE_AA,
        )
    cv2.imwrite(str(path), sheet)


def write_sheets(
    readings: list[Reading],
    out: Path,
    name: str,
    per_sheet: int = 24,
    marks: set[str] | None = None,
    cols: int = 6,
    scale: float = 1.5,
) -> list[Path]:
    paths = []
    for k in range(0, len(readings), per_sheet):
        path = out / f"{name}_{k // per_sheet:02d}.png"
        contact_sheet(readings[k : k + per_sheet], path, cols, scale, marks)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out",
        type=Path,
        default=REPO / ".dev" / "bank_audit",
        help="folder for the CSV and the contact sheets",
    )
    ap.add_argument("--shared", type=Path, default=None, help="the shared datasets folder")
    ap.add_argument(
        "--models",
        type=Path,
        default=MODELS,
        help="folder with the shipped models (read as the product reads them)",
    )
    ap.add_argument(
        "--low",
        type=float,
        default=0.6,
        help="also list faces read as their label with probability below this",
    )
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--all",
        action="store_true",
        help="also draw every photo face (small, by source and label: a face that "
        "is not its label, or holds a neighbour tile, stands out among its "
        "class; the classifier learnt these very labels, so it agrees with "
        "many wrong ones)",
    )
    args = ap.parse_args(argv)

    clf = Recognizer(args.models, threads=args.threads).classifier
    root = args.shared or default_shared()
    print(f"building the face bank from {root} without exclusions ...", file=sys.stderr)
    bank = build_bank(root, exclusions=())
    faces = audited_faces(bank)
    readings = read_faces(clf, faces)
    excluded = {f"{e.source}:{e.key[1]}" for e in load_exclusions()}

    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "readings.csv").open("w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["source", "id", "label", "reading", "p_reading", "p_label", "excluded"])
        for r in readings:
            wr.writerow(
                [
                    r.face.source,
                    r.face.style,
                    r.face.cls,
                    r.top,
                    f"{r.p_top:.3f}",
                    f"{r.p_label:.3f}",
                    int(r.ident in excluded),
                ]
            )
    wrong = [r for r in readings if not r.agrees]
    low = [r for r in readings if r.agrees and r.p_top < args.low]
    print(
        f"{len(readings)} faces read: {len(wrong)} read as another class, "
        f"{len(low)} read as their label below p {args.low}"
    )
    for src in SOURCES:
        n = sum(r.face.source == src for r in readings)
        nw = sum(r.face.source == src for r in wrong)
        nl = sum(r.face.source == src for r in low)
        print(f"  {src:13s} {n:5d} faces  {nw:4d} disagree  {nl:4d} low")
    order = {s: i for i, s in enumerate(SOURCES)}
    for name, rows in (("disagree", wrong), ("low", low)):
        rows = sorted(rows, key=lambda r: (order[r.face.source], r.face.cls, r.top, r.face.style))
        for src in SOURCES:
            part = [r for r in rows if r.face.source == src]
            if part:
                paths = write_sheets(part, args.out, f"{name}_{src}", marks=excluded)
                print(f"  {name} {src}: {len(part)} faces on {len(paths)} sheets")
    if args.all:
        for src in ("camerash", "hk", "jp"):
            part = sorted(
                (r for r in readings if r.face.source == src),
                key=lambda r: (r.face.cls, r.face.style),
            )
            paths = write_sheets(
                part, args.out, f"all_{src}", per_sheet=60, marks=excluded, cols=10, scale=0.8
            )
            print(f"  all {src}: {len(part)} faces on {len(paths)} sheets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
