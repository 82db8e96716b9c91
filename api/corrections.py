"""Photos a player chose to keep with the tiles as corrected: the data loop's store.

On the phone page, after correcting the tiles of a photo, a player may tick "keep this photo"
(off unless ticked, said on the page). The page then sends the photo it uploaded and the tiles
as they now stand (tile, box in the photo's pixels, sideways or not, group) to
``POST /v1/corrections`` under an id it made for that photo; later edits send them again under
the same id (the record is replaced), and unticking sends ``DELETE /v1/corrections/{id}``.
Records live in the service's database (``kept_photos``, api/storage.py's migration 4), beside
the games.

``sanma export-corrections DIR`` (:func:`export`) writes them as the training readers read a
labelled photo set: ``images/``, ``labels/`` (YOLO txt: class cx cy w h, normalised),
``classes.json`` and ``corrections.json`` (per photo: its size, each tile's box in pixels,
angle and group, and how many tiles the player added without a box).
``datasets.train --corrections DIR`` trains on such a folder next to the shared sets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from sanma_lens.api.errors import ServiceError
from sanma_lens.api.games import get_storage
from sanma_lens.api.services import services
from sanma_lens.api.storage import Storage, StorageUnavailable, now
from sanma_lens.api.uploads import check_image
from sanma_lens.engine.errors import InputError
from sanma_lens.vision.classify import CLASSES, NOT_TILES
from sanma_lens.vision.types import GROUPS

PHOTO_ID = re.compile(r"^[0-9a-f]{32}$")
LABELS: tuple[str, ...] = tuple(c for c in CLASSES if c not in NOT_TILES)  # tiles and "back"
MAX_TILES = 200
EXPORT_FORMAT = "sanma-lens-corrections"
EXPORT_VERSION = 1
MEDIA_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


@dataclass(frozen=True)
class KeptTile:
    """One tile as the player left it: ``tile`` (MPSZ or ``back``), ``box`` (x1, y1, x2, y2 in
    the photo's pixels; None for a tile the player added by hand), ``angle`` 0 or 90
    (sideways) and the ``group`` it sits in."""

    tile: str
    box: tuple[float, float, float, float] | None
    angle: int
    group: str

    def to_json(self) -> dict[str, Any]:
        box = None if self.box is None else [round(v, 1) for v in self.box]
        return {"tile": self.tile, "box": box, "angle": self.angle, "group": self.group}


@dataclass(frozen=True)
class KeptPhoto:
    id: str
    kept_at: str
    image: bytes
    kind: str  # jpeg | png | webp
    width: int  # after the EXIF orientation, the boxes' frame
    height: int
    tiles: tuple[KeptTile, ...]

    @property
    def unboxed(self) -> int:
        return sum(t.box is None for t in self.tiles)


def check_tiles(raw: Any, width: int, height: int) -> tuple[KeptTile, ...]:
    """The page's tiles list, checked: each an object with a known tile, a box inside the
    photo (or null), an angle 0 or 90 and a known group; InputError otherwise."""
    if not isinstance(raw, list):
        raise InputError("invalid_request", "tiles must be a JSON list")
    if len(raw) > MAX_TILES:
        raise InputError("invalid_request", f"tiles holds more than {MAX_TILES} tiles")
    out = []
    for k, t in enumerate(raw):
        if not isinstance(t, dict) or set(t) - {"tile", "box", "angle", "group"}:
            raise InputError(
                "invalid_request", f"tiles[{k}] must be an object of tile, box, angle and group"
            )
        tile, box, angle, group = (
            t.get("tile"),
            t.get("box"),
            t.get("angle", 0),
            t.get("group", "other"),
        )
        if tile not in LABELS:
            raise InputError("unknown_tile", f"tiles[{k}].tile {tile!r} is not a tile")
        if angle not in (0, 90) or isinstance(angle, bool):
            raise InputError("invalid_request", f"tiles[{k}].angle must be 0 or 90")
        if group not in GROUPS:
            raise InputError(
                "invalid_request", f"tiles[{k}].group must be one of {', '.join(GROUPS)}"
            )
        out.append(KeptTile(tile, _box(box, width, height, k), int(angle), str(group)))
    return tuple(out)


def _box(box: Any, width: int, height: int, k: int) -> tuple[float, float, float, float] | None:
    if box is None:
        return None
    if not (
        isinstance(box, list)
        and len(box) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)
    ):
        raise InputError("invalid_request", f"tiles[{k}].box must be [x1, y1, x2, y2] or null")
    x1, y1, x2, y2 = (float(v) for v in box)
    slack = 0.02 * max(width, height)  # a detector box may reach a little past the edge
    if not (-slack <= x1 < x2 <= width + slack and -slack <= y1 < y2 <= height + slack):
        raise InputError(
            "invalid_request", f"tiles[{k}].box {box} does not lie in the {width}×{height} photo"
        )
    return (max(x1, 0.0), max(y1, 0.0), min(x2, float(width)), min(y2, float(height)))


class KeptPhotos:
    """The ``kept_photos`` table of the service's database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def keep(self, photo: KeptPhoto) -> bool:
        """Store ``photo``, replacing a record of the same id; True when it is new."""
        tiles = json.dumps([t.to_json() for t in photo.tiles], separators=(",", ":"))
        with self.storage.transaction() as cur:
            cur.execute(
                "UPDATE kept_photos SET kept_at = ?, image = ?, kind = ?, width = ?, height = ?,"
                " tiles = ? WHERE id = ?",
                (
                    photo.kept_at,
                    photo.image,
                    photo.kind,
                    photo.width,
                    photo.height,
                    tiles,
                    photo.id,
                ),
            )
            if cur.rowcount == 1:
                return False
            cur.execute(
                "INSERT INTO kept_photos (id, kept_at, image, kind, width, height, tiles)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    photo.id,
                    photo.kept_at,
                    photo.image,
                    photo.kind,
                    photo.width,
                    photo.height,
                    tiles,
                ),
            )
        return True

    def forget(self, photo_id: str) -> bool:
        """Delete the record; False when there was none."""
        with self.storage.transaction() as cur:
            cur.execute("DELETE FROM kept_photos WHERE id = ?", (photo_id,))
            return cur.rowcount == 1

    def ids(self) -> list[str]:
        with self.storage.transaction(write=False) as cur:
            cur.execute("SELECT id FROM kept_photos ORDER BY kept_at, id")
            return [str(r[0]) for r in cur.fetchall()]

    def get(self, photo_id: str) -> KeptPhoto | None:
        with self.storage.transaction(write=False) as cur:
            cur.execute(
                "SELECT id, kept_at, image, kind, width, height, tiles FROM kept_photos"
                " WHERE id = ?",
                (photo_id,),
            )
            row = cur.fetchone()
        if row is None:
            return None
        tiles = tuple(
            KeptTile(
                t["tile"], None if t["box"] is None else tuple(t["box"]), t["angle"], t["group"]
            )
            for t in json.loads(row[6])
        )
        return KeptPhoto(
            str(row[0]), str(row[1]), bytes(row[2]), str(row[3]), int(row[4]), int(row[5]), tiles
        )

    def all(self) -> Iterator[KeptPhoto]:
        """Every record, oldest first, one at a time (photos are large)."""
        for photo_id in self.ids():
            photo = self.get(photo_id)
            if photo is not None:
                yield photo


# ---------------------------------------------------------------- export


def export(photos: KeptPhotos, out: Path) -> int:
    """Write every kept photo under ``out`` as a labelled photo set (see the module's notes);
    returns how many. Images are written as decoded with their EXIF orientation applied, so
    the boxes fit them. A folder that already holds an export is added to (same ids replace
    their files)."""
    import cv2

    from sanma_lens.vision.decode import decode

    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(exist_ok=True)
    index = {c: k for k, c in enumerate(LABELS)}
    classes = {
        "format": "YOLO txt: class cx cy w h (normalised)",
        "classes": {str(k): c for k, c in enumerate(LABELS)},
    }
    (out / "classes.json").write_text(json.dumps(classes, indent=1))
    manifest_path = out / "corrections.json"
    entries: dict[str, dict[str, Any]] = {}
    if manifest_path.is_file():
        old = json.loads(manifest_path.read_text())
        entries = {Path(e["image"]).stem: e for e in old.get("photos", [])}
    n = 0
    for photo in photos.all():
        image = decode(photo.image, work_side=10**6).image  # full size, upright
        h, w = image.shape[:2]
        name = f"images/{photo.id}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = []
        for t in photo.tiles:
            if t.box is None:
                continue
            x1, y1, x2, y2 = t.box
            lines.append(
                f"{index[t.tile]} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
                f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
            )
        (out / "labels" / f"{photo.id}.txt").write_text("".join(s + "\n" for s in lines))
        entries[photo.id] = {
            "image": name,
            "width": w,
            "height": h,
            "kept_at": photo.kept_at,
            "tiles": [t.to_json() for t in photo.tiles],
            "unboxed": photo.unboxed,
        }
        n += 1
    manifest = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "photos": [entries[k] for k in sorted(entries)],
    }
    manifest_path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    return n


# ---------------------------------------------------------------- HTTP

router = APIRouter()
KeptStore = Annotated[Storage, Depends(get_storage)]


async def _stored(fn: Any, *args: Any) -> Any:
    """Run the blocking database work off the event loop; an unreachable database is a 503."""
    try:
        return await run_in_threadpool(fn, *args)
    except StorageUnavailable as exc:
        raise ServiceError(503, "storage_unavailable", "the database cannot be reached") from exc


def _photo_id(photo_id: str) -> str:
    if not PHOTO_ID.match(photo_id):
        raise InputError("invalid_request", "id must be 32 lowercase hex digits")
    return photo_id


@router.post(
    "/v1/corrections",
    tags=["corrections"],
    status_code=201,
    responses={
        200: {"description": "A record of this id was replaced."},
        201: {"description": "The photo was kept."},
        415: {"description": "The upload is not a JPEG/PNG/WebP image."},
        422: {"description": "A bad id, tile, box, angle or group."},
    },
)
async def keep_photo(
    request: Request,
    storage: KeptStore,
    id: Annotated[str, Form(description="The page's id for this photo: 32 hex digits.")],
    image: Annotated[UploadFile, File(description="The photo as recognized (JPEG/PNG/WebP).")],
    tiles: Annotated[
        str,
        Form(
            description="JSON list of {tile, box, angle, group}: the "
            "tiles as corrected; box [x1, y1, x2, y2] in the "
            "photo's pixels, null for a tile added by hand."
        ),
    ],
) -> JSONResponse:
    """Keep a photo with its corrected tiles for training (the player opted in on the page).
    The same id again replaces the record."""
    photo_id = _photo_id(id)
    data = await image.read()
    svc = services(request.app)
    if len(data) > svc.settings.max_upload_bytes:
        raise ServiceError(413, "upload_too_large", "the photo is larger than the upload limit")
    info = check_image(data, svc.settings.max_pixels)
    width, height = info.width, info.height
    if _turned(data, info.kind):
        width, height = height, width
    try:
        raw = json.loads(tiles)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputError("bad_json", "form field 'tiles' is not valid JSON") from exc
    kept = check_tiles(raw, width, height)
    photo = KeptPhoto(photo_id, now(), data, info.kind, width, height, kept)
    new = await _stored(KeptPhotos(storage).keep, photo)
    body = {"id": photo_id, "kept": True, "tiles": len(kept), "unboxed": photo.unboxed}
    return JSONResponse(body, status_code=201 if new else 200)


@router.delete(
    "/v1/corrections/{photo_id}",
    tags=["corrections"],
    responses={404: {"description": "No photo kept under this id."}},
)
async def forget_photo(photo_id: str, storage: KeptStore) -> JSONResponse:
    """Delete a kept photo (the player unticked "keep")."""
    _photo_id(photo_id)
    if not await _stored(KeptPhotos(storage).forget, photo_id):
        raise ServiceError(404, "not_found", "no photo is kept under this id")
    return JSONResponse({"id": photo_id, "kept": False})


def _turned(data: bytes, kind: str) -> bool:
    """The photo's EXIF orientation turns it a quarter (its header's width is its height)."""
    from sanma_lens.vision.decode import header_size

    return header_size(data, kind)[2] in (5, 6, 7, 8)
