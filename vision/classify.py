"""Name each found tile: colour crops, turned upright, one batched onnxruntime call.

The classifier sees a 48×64 (w×h) colour crop — colour is kept all the way so a red five
(``0p``/``0s``) and the aka-5-man (``0m``) can be told from ordinary fives. It was trained to
give the same answer for a tile and the tile turned 180°, so a sideways box only needs a quarter
turn, either way. Besides the 37 face kinds it knows ``back`` (face-down), ``flower``
(HK flower/season tiles, never a riichi tile) and ``none`` (not a tile: a false detection).

Looser second looks: a crop that the network reads with top probability below ``wide_below`` is
read again cut with wider margins (``wide_margins``); when the looser looks agree on the
likeliest class, all the readings are averaged, otherwise the first reading stands. The network
learnt from boxes that are often loose (hk-hands' train photos are rotated copies whose boxes
grew around the turned tiles), so a tight detector box alone can hide what a tile's neighbours
and edges tell it. The settings were measured on real held-out photos and renders
(models/tile_classifier.md).

The entry point is :meth:`TileClassifier.classify_boxes` (photo, boxes, sideways flags): it
cuts every crop itself, so it can cut an unsure tile again looser. :meth:`TileClassifier.
probabilities` reads crops the caller cut (:func:`cut_tile`, as the training code does) once,
without looser looks: a bare crop does not know where it was cut.

Prior shift: the plain 5-man's logit is lowered by ``prior_shift`` before the softmax. Sanma
has no plain 5-man (§A4: a 5-man on a sanma table is the aka-5-man, its own class ``0m``), and on
a four-player set 5m is no likelier than the 3m and 7m beside it; yet the network leans to 5m
when it meets manzu glyphs it did not learn (the askew HK 七萬 and 三萬 of hk-hands valid's
IMG_27xx photos read 5m). The aka-5-man and the red 5s are lowered too: a table holds one red
five of a suit to three plain ones, while the training drew red fives far more often (rendered
red fives 3×), and HK fives with red ink read red (a red 5p's shift cost rendered red fives
and is left out).

Second opinion: a reading less sure than ``second_below`` is averaged (weight
``second_weight``) with that of a second classifier, when one is given: the same network
fine-tuned on more rendered table scenes (models/tile_classifier_second.md). Two
networks trained apart err apart, so where the first hesitates the second often tips the
reading (HK 西 read 南, rendered 4p read 2p); a sure reading is left alone, so the second
model costs one small batch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import cv2
import numpy as np

from sanma_lens.vision.settings import SETTINGS as S

CROP_W, CROP_H = 48, 64
# Order is the network's output order: 1m…9m 1p…9p 1s…9s 1z…7z, red fives, back, flower, none.
CLASSES: tuple[str, ...] = (
    tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
    + tuple(f"{n}z" for n in range(1, 8))
    + ("0m", "0p", "0s", "back", "flower", "none")
)
NOT_TILES = ("flower", "none")
MARGIN = 0.04  # crops take this share of the box size around it
CHUNK = 32  # crops per network call (vision/limits.py, ``classify_chunk``)


def _go_on() -> None:
    """A check that never stops the work (no deadline)."""


def prior_offsets(shift: Mapping[str, float]) -> np.ndarray:
    """The logit offsets of ``shift`` (class → offset) as a row over ``CLASSES``."""
    unknown = sorted(set(shift) - set(CLASSES))
    if unknown:
        raise ValueError(f"no such classes: {unknown}")
    return np.array([shift.get(c, 0.0) for c in CLASSES], np.float32)


def cut_tile(
    image: np.ndarray,
    box: Sequence[float],
    sideways: bool,
    scale: float = 1.0,
    margin: float = MARGIN,
) -> np.ndarray:
    """The box (in photo pixels × ``scale``) cut out with ``margin`` × its size around it
    (edges beyond the image repeat its border), turned upright (a quarter turn when
    ``sideways``: the network reads upright tiles), resized to 48×64 BGR."""
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    mw, mh = (x2 - x1) * margin, (y2 - y1) * margin
    ix1, iy1 = int(np.floor(x1 - mw)), int(np.floor(y1 - mh))
    ix2, iy2 = int(np.ceil(x2 + mw)), int(np.ceil(y2 + mh))
    ih, iw = image.shape[:2]
    ix2, iy2 = max(ix2, ix1 + 2), max(iy2, iy1 + 2)
    roi = image[max(iy1, 0) : min(iy2, ih), max(ix1, 0) : min(ix2, iw)]
    pads = (max(-iy1, 0), max(iy2 - ih, 0), max(-ix1, 0), max(ix2 - iw, 0))
    if roi.size == 0:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    if any(pads):
        roi = cv2.copyMakeBorder(roi, *pads, cv2.BORDER_REPLICATE)
    if sideways:
        roi = cv2.rotate(roi, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(roi, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def to_input(crops: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops → N×3×64×48 float32 RGB in 0…1 (the network's input)."""
    arr = np.stack(crops).astype(np.float32) * (1.0 / 255.0)
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2))


def _input_name(session: object) -> str:
    return session.get_inputs()[0].name  # type: ignore[attr-defined]


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class TileClassifier:
    """The ONNX classifier: ``classify_boxes(image, boxes, sideways)`` → class probabilities
    of the tiles in a photo; ``classify(crops)`` → (label, probability) of cut crops.

    With ``turn`` (test-time augmentation) each crop is also read turned 180° — the network
    was trained to read a tile and the tile upside down alike — and the two readings'
    probabilities are averaged (one batched call, twice the crops). With ``wide`` margins, a
    tile read with top probability below ``wide_below`` is cut again with each margin (a
    second batched call); when those looser looks agree on the likeliest class, all its
    readings are averaged, otherwise the first reading stands (module docstring).
    ``prior_shift`` (class → logit offset) replaces ``prior_shift``; ``{}`` reads the bare
    network. With a ``second`` session, a reading whose top probability is below
    ``second_below`` (after the looser looks) is averaged with the second network's reading of
    its first crop (weight ``second_weight``; module docstring). The network reads ``chunk``
    crops a call.
    """

    def __init__(
        self,
        session: object,
        turn: bool = False,
        wide: Sequence[float] = S.wide_margins,
        wide_below: float = S.wide_below,
        prior_shift: Mapping[str, float] | None = None,
        second: object | None = None,
        second_below: float = S.second_below,
        second_weight: float = S.second_weight,
        chunk: int = CHUNK,
    ) -> None:
        self.session = session
        self.chunk = max(1, chunk)
        self.offsets = prior_offsets(S.prior_shift if prior_shift is None else prior_shift)
        self.turn = turn
        self.wide = tuple(wide)
        self.wide_below = wide_below
        self.second = second
        self.second_below = second_below
        self.second_weight = second_weight
        self.input_name = _input_name(session)
        self.second_input = _input_name(second) if second is not None else ""

    def _run(
        self,
        session: object,
        name: str,
        crops: Sequence[np.ndarray],
        check: Callable[[], None] = _go_on,
    ) -> np.ndarray:
        """One network's class probabilities of ``crops`` (each also turned, with ``turn``);
        ``name``: its input's. Read ``chunk`` crops a call (``check`` runs before each), so the
        network's working memory is the same for a photo of 200 tiles as for one of 20."""
        parts = []
        for start in range(0, len(crops), self.chunk):
            check()
            part = crops[start : start + self.chunk]
            batch = list(part) + ([c[::-1, ::-1] for c in part] if self.turn else [])
            (logits,) = session.run(None, {name: to_input(batch)})  # type: ignore[attr-defined]
            probs = softmax(np.asarray(logits, np.float32) + self.offsets)
            if self.turn:
                n = len(part)
                probs = 0.5 * (probs[:n] + probs[n:])
            parts.append(probs)
        if not parts:
            return np.zeros((0, len(CLASSES)), np.float32)
        return np.concatenate(parts)

    def _read(self, crops: Sequence[np.ndarray], check: Callable[[], None] = _go_on) -> np.ndarray:
        return self._run(self.session, self.input_name, crops, check)

    def _second_opinion(
        self, probs: np.ndarray, crops: Sequence[np.ndarray], check: Callable[[], None] = _go_on
    ) -> np.ndarray:
        """``probs`` with each row still unsure (below ``second_below``) averaged with the
        second network's reading of its crop (one batched call for all)."""
        if self.second is None:
            return probs
        unsure = np.flatnonzero(probs.max(axis=1) < self.second_below)
        if len(unsure):
            again = [crops[int(i)] for i in unsure]
            other = self._run(self.second, self.second_input, again, check)
            w = self.second_weight
            probs[unsure] = (1.0 - w) * probs[unsure] + w * other
        return probs

    def classify_boxes(
        self,
        image: np.ndarray,
        boxes: Sequence[Sequence[float]],
        sideways: Sequence[bool],
        scale: float = 1.0,
        check: Callable[[], None] = _go_on,
    ) -> np.ndarray:
        """N×len(CLASSES) class probabilities of the tiles in ``boxes`` (photo pixels; the
        image is the photo × ``scale``), each cut with ``MARGIN`` and turned upright when its
        ``sideways`` flag is set; a tile read unsure is cut again with the ``wide`` margins
        (the looser second looks, module docstring). ``check`` runs before each network call
        (a photo's deadline, vision/limits.py)."""
        if len(boxes) != len(sideways):
            raise ValueError(f"{len(boxes)} boxes but {len(sideways)} sideways flags")
        if not boxes:
            return np.zeros((0, len(CLASSES)), np.float32)
        crops = [cut_tile(image, b, s, scale) for b, s in zip(boxes, sideways, strict=True)]
        probs = self._second_looks(
            self._read(crops, check),
            lambda i, m: cut_tile(image, boxes[i], sideways[i], scale, m),
            check,
        )
        return self._second_opinion(probs, crops, check)

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """N×len(CLASSES) class probabilities of crops the caller cut (48×64 BGR), each read
        once (and turned, with ``turn``): no looser looks, a crop does not know its photo."""
        if not crops:
            return np.zeros((0, len(CLASSES)), np.float32)
        return self._second_opinion(self._read(crops), crops)

    def _second_looks(
        self,
        probs: np.ndarray,
        recut: Callable[[int, float], np.ndarray],
        check: Callable[[], None] = _go_on,
    ) -> np.ndarray:
        """``probs`` with each unsure row averaged with its looser looks (``recut(i, margin)``,
        one batched call for all) when those looks agree."""
        unsure = [i for i in range(len(probs)) if probs[i].max() < self.wide_below]
        if not self.wide or not unsure:
            return probs
        looks = [recut(i, m) for i in unsure for m in self.wide]
        more = self._read(looks, check).reshape(len(unsure), len(self.wide), -1)
        for n, i in enumerate(unsure):
            if len(set(more[n].argmax(axis=1).tolist())) == 1:  # the looks agree
                probs[i] = (probs[i] + more[n].sum(axis=0)) / (1 + len(self.wide))
        return probs

    def classify(self, crops: Sequence[np.ndarray]) -> list[tuple[str, float]]:
        probs = self.probabilities(crops)
        idx = probs.argmax(axis=1)
        return [(CLASSES[i], float(probs[n, i])) for n, i in enumerate(idx)]
