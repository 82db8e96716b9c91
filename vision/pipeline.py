"""Photo → recognize JSON (docs/api.md): the stages of vision/__init__.py's diagram, in order.

``Recognizer`` loads the ONNX models once (CPU, 2 intra-op threads); ``default_recognizer()``
is the cached process-wide one. :meth:`Recognizer.recognize_image` reads as the list of
stages; one :class:`Detections` value flows through the first four, each returning it with its
part filled in and its own warnings added:

- **find** (:meth:`Recognizer.find`): the detector's hits, each read by the classifier (as cut
  and turned 180°, averaged: ``turn``; unsure crops cut again looser, vision/classify.py); a
  photo with few sure tiles is looked at again squashed (stretched photos). More hits than
  ``limits.max_tiles`` refuse the photo before any is read.
- **sift** (:meth:`Recognizer.sift`): the hits reported as tiles. ``flower`` readings (HK
  flower and season tiles) are left out (``flowers_ignored``), ``none`` readings and readings
  below ``min_tile_prob`` are not reported; a second hit on one tile is dropped
  (``double_iou``, ``double_sure``, ``double_inside``); weak peaks count only when read surely
  (``weak_heat``, ``weak_sure``; the blank white dragon from a lower heat, ``blank_heat``,
  ``blank_sure``). A face-up report showing no tile face is set aside (vision/faces.py), and a
  report read as haku or back is read again by its colour (vision/blanks.py). What is set
  aside stays as evidence for the second looks: unsure hits,
  hits read as no tile that may be backs, doubles that may be a kakan's added tile.
- **join** (:meth:`Recognizer.join`, vision/join.py): two small reports on parts of one tile,
  read as one (``parts_joined``).
- **lay out** (:func:`lay_out`, vision/layout/): the hand read from the tiles' places and the
  rules, with the layout's own warnings.
- **second looks** (:meth:`Recognizer.looks`, vision/decoder.py ``decode_hand``): the looks
  propose whole-hand edits (a tile in a hole of the row, the winning tile past its end, a box
  cut in two, a called tile's halves joined, an unsure hit put back, an ankan's face-down
  ends, a kakan's added tile, a tile lying askew read along its own axes, another player's
  discards dropped as doubles on a whole-table photo) and one verdict chooses among them; an
  edit taken brings its warnings.
- **report** (:func:`report`): the chosen reading's tiles, hand and warnings as the
  recognize JSON.

Every crop the stages cut is read once per photo (:meth:`Recognizer.reader`), and each stage
checks the photo's deadline (``limits.seconds``) before it starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sanma_lens.engine.errors import InputError
from sanma_lens.vision.axes import askew_edits
from sanma_lens.vision.backs import ankan_edits, maybe_backs
from sanma_lens.vision.blanks import read_blanks_by_colour
from sanma_lens.vision.classify import CLASSES, NOT_TILES, TileClassifier
from sanma_lens.vision.decode import decode
from sanma_lens.vision.decoder import Hypothesis, Look, decode_hand
from sanma_lens.vision.detect import (
    RawBox,
    TileDetector,
    covered_matrix,
    iou_matrix,
    squash,
    unsquash,
)
from sanma_lens.vision.detect import decode as decode_heat
from sanma_lens.vision.discards import pond_edits
from sanma_lens.vision.faces import set_aside_non_faces
from sanma_lens.vision.join import halves_edits, join_parts
from sanma_lens.vision.layout import Layout, reconstruct
from sanma_lens.vision.limits import NO_DEADLINE, Deadline, Limits, too_many_tiles
from sanma_lens.vision.models import PACKAGED, models_folder, session
from sanma_lens.vision.probe import hole_edits, kakan_edits, missed_edits, pons_called, win_edits
from sanma_lens.vision.refill import refill_edits
from sanma_lens.vision.settings import SETTINGS as S
from sanma_lens.vision.settings import Settings
from sanma_lens.vision.split import split_edits
from sanma_lens.vision.stacked import STACK_MODEL, StackClassifier
from sanma_lens.vision.tile_check import TILE_CHECK_MODEL, TileCheck, set_aside_non_tiles
from sanma_lens.vision.types import Box, Reader, Reading, TileDetection
from sanma_lens.vision.warning_catalogue import PhotoWarning, details

# the package's models; $SANMA_MODELS names another folder (vision/models.py)
MODELS = PACKAGED
DETECTOR = "tile_detector.onnx"
CLASSIFIER = "tile_classifier.onnx"
# The second opinion on unsure readings (vision/classify.py), used when the folder has it.
SECOND_CLASSIFIER = "tile_classifier_second.onnx"
# The blank white dragon: a face with nothing on it (or only a frame), which heats the detector
# least of all; a weak peak read as it counts from a lower heat (settings ``blank_heat``).
BLANK_TILE = "5z"


class Hit(NamedTuple):
    """A detector hit with its reading: box (image px), read sideways, class probabilities,
    heat, and how likely another tile lies on it or it on another (0 from a detector without
    the stacked map)."""

    box: tuple[float, float, float, float]
    sideways: bool
    probs: np.ndarray
    score: float
    stacked: float = 0.0


@dataclass(frozen=True)
class Detections:
    """The photo's detections as they flow through the stages (find → sift → join → lay out):
    each stage returns a new value with its part filled in. Boxes of ``tiles`` and the
    evidence are photo pixels; those of ``hits`` image pixels (``scale``: image px per photo
    px)."""

    hits: tuple[Hit, ...]  # find: every detector hit with its class probabilities
    scale: float = 1.0
    tiles: tuple[TileDetection, ...] = ()  # sift, join: the tiles reported
    unsure: tuple[TileDetection, ...] = ()  # sift: riichi-tile readings too unsure to report
    no_tiles: tuple[TileDetection, ...] = ()  # sift: hits read as no tile (maybe backs)
    doubles: tuple[TileDetection, ...] = ()  # sift: second hits on a tile (maybe added tiles)
    flowers: int = 0  # sift: flower and season tiles left out
    notes: tuple[PhotoWarning, ...] = ()  # the warnings of the stages that chose


def _confident(named: list[Hit], s: Settings) -> int:
    """How many hits read as a riichi tile (or a back) with probability ≥ ``confident``."""
    n = 0
    for hit in named:
        k = int(np.argmax(hit.probs))
        n += (
            CLASSES[k] not in NOT_TILES
            and hit.probs[k] >= s.confident
            and hit.score >= S.heat_threshold
        )
    return n


class Recognizer:
    """Both models, loaded once. ``recognize_bytes(data)`` → recognize JSON dict."""

    settings: Settings = S  # the knobs the find and sift stages read (benchmarks try others)
    stack: StackClassifier | None = None  # the stacked-tile network, when models/ has it
    check: TileCheck | None = None  # the tile-or-not network, when models/ has it
    limits: Limits = Limits()  # the work one photo may cost (vision/limits.py)

    def __init__(
        self,
        models: Path | str = MODELS,
        threads: int = 2,
        limits: Limits | None = None,
        settings: Settings | None = None,
    ) -> None:
        models = Path(models)
        self.limits = limits or self.limits
        self.settings = s = settings or self.settings
        # ModelError (exit 2 / HTTP 503) when a needed model is missing or unreadable
        self.detector = TileDetector(session(models, DETECTOR, threads))
        has = (models / SECOND_CLASSIFIER).is_file()
        self.classifier = TileClassifier(
            session(models, CLASSIFIER, threads),
            s.turn,
            s.wide_margins,
            s.wide_below,
            s.prior_shift,
            second=session(models, SECOND_CLASSIFIER, threads) if has else None,
            second_below=s.second_below,
            second_weight=s.second_weight,
            chunk=self.limits.classify_chunk,
        )
        if (models / STACK_MODEL).is_file():
            self.stack = StackClassifier(session(models, STACK_MODEL, threads))
        if (models / TILE_CHECK_MODEL).is_file():
            self.check = TileCheck(session(models, TILE_CHECK_MODEL, threads))

    def recognize_image(
        self,
        image: np.ndarray,
        size: tuple[int, int],
        scale: float = 1.0,
        deadline: Deadline | None = None,
    ) -> dict[str, Any]:
        """The recognize JSON of a decoded photo (``scale``: image px per photo px); given up
        with ``photo_timeout`` once ``deadline`` (default: ``limits.seconds`` from now) passes.
        The stages of vision/__init__.py's diagram, in order; one :class:`Detections` value
        flows through them."""
        deadline = deadline or Deadline(self.limits.seconds)
        read = self.reader(image, scale, deadline)  # the classifier on any crop, each read once
        found = self.find(image, scale, deadline)  # detect and classify every hit
        found = self.sift(found)  # the tiles to report; the rest kept as evidence
        found = self.look_at_faces(found, image)  # a tile's face at all? haku or back?
        found = self.join(found, read)  # two reports on parts of one tile, read as one
        first = lay_out(found, size, deadline)  # the hand from the tiles' places and the rules
        looks = self.looks(image, found, size, read)  # the second looks, proposing edits
        chosen = decode_hand(first, looks, size, deadline)  # one verdict chooses among them
        return report(chosen, size)

    def find(
        self, image: np.ndarray, scale: float = 1.0, deadline: Deadline = NO_DEADLINE
    ) -> Detections:
        """**find**: every detector hit read by the classifier (:meth:`hits`)."""
        return Detections(tuple(self.hits(image, deadline)), scale)

    def look_at_faces(self, found: Detections, image: np.ndarray) -> Detections:
        """The sift stage's checks on the photo itself, in order: a face-up report showing no
        tile face is set aside (vision/faces.py), a report read as haku or back is read again
        by its colour (vision/blanks.py), and a face-up report the tile check's network calls
        no tile is set aside (vision/tile_check.py, when the models folder holds it)."""
        found = set_aside_non_faces(found, image, self.settings)
        found = read_blanks_by_colour(found, image, self.settings)
        return set_aside_non_tiles(found, image, self.check, self.settings)

    def sift(self, found: Detections) -> Detections:
        """**sift**: the hits reported as tiles, and the rest set aside as the second looks'
        evidence. Hits too cold (:meth:`_hot`) and second hits on a tile (``drop_double_hits``)
        are weighed no further; of the others, ``flower`` readings are left out with a warning
        (``flowers_ignored``), ``none`` readings kept as maybe-backs, riichi-tile readings below
        ``min_tile_prob`` kept as unsure, the rest reported. The doubles that read a riichi
        tile are kept as maybe-kakan added tiles."""
        s, scale = self.settings, found.scale
        named = self._hot(list(found.hits))
        if s.double_iou is not None:
            weighed = self._drop_doubles(named)
            # only the second hits on a whole tile: a part of a tile inside a stronger hit
            # (settings ``double_inside``) is no kakan's added tile and is not handed on
            kept = {id(h) for h in self._drop_doubles(named, inside=False)}
            doubled = [h for h in named if id(h) not in kept]
        else:
            weighed, doubled = named, []
        tiles: list[TileDetection] = []
        unsure: list[TileDetection] = []
        no_tiles: list[TileDetection] = []
        flowers = 0
        for hit in weighed:
            k = int(np.argmax(hit.probs))
            label = CLASSES[k]
            if label == "flower":
                flowers += 1
            elif label == "none":
                no_tiles.append(_detection(hit, k, scale, s))
            elif hit.probs[k] < s.min_tile_prob:
                unsure.append(_detection(hit, k, scale, s))
            else:
                tiles.append(_detection(hit, k, scale, s))
        doubles = []
        for hit in doubled:
            k = int(np.argmax(hit.probs))
            if CLASSES[k] not in NOT_TILES and hit.probs[k] >= s.min_tile_prob:
                doubles.append(_detection(hit, k, scale, s))
        notes = (PhotoWarning("flowers_ignored", count=flowers),) if flowers else ()
        return replace(
            found,
            tiles=tuple(tiles),
            unsure=tuple(unsure),
            no_tiles=tuple(no_tiles),
            doubles=tuple(doubles),
            flowers=flowers,
            notes=found.notes + notes,
        )

    def join(self, found: Detections, read: Reader) -> Detections:
        """**join** (vision/join.py): two small reports on parts of one tile, read again as one
        (``parts_joined``); nothing with the ``join`` setting off."""
        if not self.settings.join:
            return found
        tiles, joined = join_parts(found.tiles, read)
        notes = tuple(PhotoWarning("parts_joined", tile=t.tile) for t in joined)
        return replace(found, tiles=tuple(tiles), notes=found.notes + notes)

    def tiles(
        self, image: np.ndarray, scale: float = 1.0, deadline: Deadline = NO_DEADLINE
    ) -> tuple[list[TileDetection], int]:
        """The tiles of a decoded BGR image as found, sifted and joined, before any layout
        (boxes divided by ``scale``), and the number of flower tiles left out."""
        found = self.look_at_faces(self.sift(self.find(image, scale, deadline)), image)
        found = self.join(found, self.reader(image, scale, deadline))
        return list(found.tiles), found.flowers

    def hits(self, image: np.ndarray, deadline: Deadline = NO_DEADLINE) -> list[Hit]:
        """Detector hits with their class probabilities (the squash pass included).

        A photo with more hits at tile heat than ``limits.max_tiles`` is refused
        (``too_many_tiles``) before any is classified; of the weak peaks, the hottest
        ``max_tiles`` are classified. A squashed look with too many hits is not taken."""
        s = self.settings
        weak = None if s.weak_heat is None else min(s.weak_heat, s.blank_heat)
        raw = self.detector.detect(image, weak=weak)
        hot = sum(r.score >= S.heat_threshold for r in raw)
        if hot > self.limits.max_tiles:
            raise too_many_tiles(hot, self.limits.max_tiles)
        weak_heats = sorted((r.score for r in raw if r.score < S.heat_threshold), reverse=True)
        if len(weak_heats) > self.limits.max_tiles:  # the hottest, in the detector's order
            floor = weak_heats[self.limits.max_tiles - 1]
            raw = [r for r in raw if r.score >= floor][: hot + self.limits.max_tiles]
        named = self._name(image, raw, deadline)
        good = _confident(named, s)
        if good < self.settings.few_tiles:
            best, best_good = named, max(2 * good, good + 2)
            for fx, fy in S.squashes:
                deadline.check()
                small = squash(image, fx, fy)
                found = decode_heat(*self.detector.raw(small))
                if len(found) > self.limits.max_tiles:
                    continue
                cand = self._name(small, found, deadline)
                cand_good = _confident(cand, s)
                if cand_good > best_good:
                    best_good = cand_good
                    best = [h._replace(box=unsquash(h.box, fx, fy)) for h in cand]
            named = best
        return named

    def _drop_doubles(self, named: list[Hit], inside: bool = True) -> list[Hit]:
        """``drop_double_hits`` with this recognizer's settings (``inside``: the part-of-a-tile
        rule too)."""
        # callers look first: with double_iou None the rule is off and this is never called
        s = self.settings
        assert s.double_iou is not None
        return drop_double_hits(
            named,
            s.double_iou,
            s.double_sure,
            s.double_inside if inside else None,
            s.double_inside_sure,
        )

    def stacked(self, named: list[Hit], scale: float = 1.0) -> list[tuple[Box, float]]:
        """Boxes (photo pixels) of hot hits the detector's stacked map calls a tile with
        another on it (at least ``stacked_map_warn``), with that probability: a kakan's called
        tile under its added one, seen as one tile (vision/probe.py ``stacked_tiles``)."""
        likely = [h for h in named if h.stacked >= S.stacked_map_warn]  # none without the map
        return [
            (tuple(float(v) / scale for v in h.box), h.stacked)  # type: ignore[misc]
            for h in self._hot(likely)
        ]

    def stacks(
        self, image: np.ndarray, scale: float, named: list[Hit]
    ) -> tuple[Callable[[Layout], list[tuple[Box, float]]], float]:
        """What lies on a pon's called tile, for a layout: boxes (photo pixels) with how likely
        another tile lies on them, and from what probability that is sure enough to read the
        kakan. The stacked-tile network's call on the layout's pons' called tiles when the
        models have it (each box asked once), else the detector's stacked map's (none in the
        shipped detector)."""
        if self.stack is None:
            found = self.stacked(named, scale)
            return (lambda _layout: found), S.stacked_map_sure
        stack = self.stack
        asked: dict[Box, float] = {}

        def on_called(layout: Layout) -> list[tuple[Box, float]]:
            called = [t.box for t in pons_called(layout.tiles, layout.melds)]
            new = [b for b in called if b not in asked]
            if new:
                asked.update(zip(new, stack.probabilities(image, new, scale), strict=True))
            return [(b, float(asked[b])) for b in called if asked[b] >= warn]

        warn = self.settings.stack_warn
        return on_called, self.settings.stack_sure

    def _hot(self, named: list[Hit]) -> list[Hit]:
        """The hits hot enough to report (``heat_threshold``), and the weaker ones read surely
        (:meth:`_sure_tile`)."""
        return [h for h in named if h.score >= S.heat_threshold or self._sure_tile(h)]

    def _sure_tile(self, hit: Hit) -> bool:
        """A weak hit worth reporting (only when ``weak_heat`` is set): at least ``weak_heat``
        hot and surely a tile, or a white dragon at least ``blank_heat`` hot and read with
        p ≥ ``blank_sure``."""
        k = int(np.argmax(hit.probs))
        s = self.settings
        if s.weak_heat is None or CLASSES[k] in NOT_TILES:
            return False
        p, heat = hit.probs[k], hit.score
        if CLASSES[k] == BLANK_TILE and heat >= s.blank_heat and p >= s.blank_sure:
            return True
        return bool(heat >= s.weak_heat and p >= s.weak_sure)

    def _name(
        self, image: np.ndarray, raw: list[RawBox], deadline: Deadline = NO_DEADLINE
    ) -> list[Hit]:
        """Classify each detector hit: (box, sideways, class probabilities, heat score). A
        hit is read turned upright when the detector calls it sideways and it is not clearly
        taller than wide; the classifier cuts the crops (and unsure ones again, looser)."""
        sideways = [
            r.sideways_prob >= self.settings.sideways_prob
            and r.box[2] - r.box[0] > 0.9 * (r.box[3] - r.box[1])
            for r in raw
        ]
        probs = self.classifier.classify_boxes(
            image, [r.box for r in raw], sideways, check=deadline.check
        )
        return [
            Hit(r.box, sw, p, r.score, r.stacked_prob)
            for r, sw, p in zip(raw, sideways, probs, strict=True)
        ]

    def looks(
        self, image: np.ndarray, found: Detections, size: tuple[int, int], read: Reader
    ) -> list[Look]:
        """**second looks** (vision/decoder.py): what each look proposes for a reading of this
        photo, from the sifted detections' evidence; none with ``probe`` off."""
        if not self.settings.probe:
            return []
        backs = maybe_backs(found.no_tiles)
        asked: dict[Box, tuple[str, float] | None] = {}  # the askew look's readings, by box
        stacked, sure = self.stacks(image, found.scale, list(found.hits))
        return [
            Look("hole", lambda now: hole_edits(now, size, read)),
            Look("win", lambda now: win_edits(now, size, read)),
            Look("missed", lambda now: missed_edits(now, size, read)),
            Look("halves", lambda now: halves_edits(now, read)),
            Look("split", lambda now: split_edits(now, read)),
            Look("refill", lambda now: refill_edits(now, found.unsure)),
            Look("ankan", lambda now: ankan_edits(now, backs)),
            Look("kakan", lambda now: kakan_edits(now, found.doubles, stacked(now.layout), sure)),
            Look(
                "askew",
                lambda now: askew_edits(
                    now, image, found.scale, self.classifier.probabilities, asked
                ),
            ),
            Look("pond", lambda now: pond_edits(now, found.doubles)),
        ]

    def reader(
        self, image: np.ndarray, scale: float, deadline: Deadline = NO_DEADLINE
    ) -> Callable[[list[tuple[Box, bool]]], list[Reading]]:
        """The classifier on crops cut from ``image`` at photo boxes (sideways: turned
        upright): each crop's best reading, its probability and the next-best readings. A crop
        read once is not read again."""
        known: dict[tuple[Box, bool], Reading] = {}

        def read(cuts: list[tuple[Box, bool]]) -> list[Reading]:
            new = list(dict.fromkeys(c for c in cuts if c not in known))
            if new:
                probs = self.classifier.classify_boxes(
                    image,
                    [box for box, _ in new],
                    [sideways for _, sideways in new],
                    scale,
                    check=deadline.check,
                )
                for cut, p in zip(new, probs, strict=True):
                    k = int(np.argmax(p))
                    known[cut] = (CLASSES[k], float(p[k]), _alternatives(p, k, self.settings))
            return [known[c] for c in cuts]

        return read

    def recognize_bytes(self, data: bytes) -> dict[str, Any]:
        """Recognize JSON of photo bytes, read within ``limits.seconds`` of the call."""
        deadline = Deadline(self.limits.seconds)
        dec = decode(data)
        return self.recognize_image(dec.image, dec.original_size, dec.scale, deadline)


def lay_out(
    found: Detections, size: tuple[int, int], deadline: Deadline = NO_DEADLINE
) -> Hypothesis:
    """**lay out** (vision/layout/): the first whole-hand reading of the reported tiles, led
    by the warnings of the stages that chose them."""
    deadline.check()
    return Hypothesis(found.tiles, reconstruct(list(found.tiles), image_size=size), found.notes)


def report(chosen: Hypothesis, size: tuple[int, int]) -> dict[str, Any]:
    """**report**: the recognize JSON of the chosen reading, its tiles, hand and warnings
    (each made by the step that chose: sift, join, the decoder's edits, the layout)."""
    warnings = chosen.warnings
    return {
        "tiles": [t.to_json() for t in chosen.layout.tiles],
        "hand": dict(chosen.layout.hand),
        "warnings": [str(w) for w in warnings],
        "warning_details": details(warnings),
        "image_size": list(size),
    }


def drop_double_hits(
    named: list[Hit],
    limit: float,
    sure: float,
    inside: float | None = None,
    inside_sure: float = 0.0,
) -> list[Hit]:
    """Hits overlapping a stronger tile hit (higher heat score) by IoU ≥ ``limit`` are dropped
    when they read the same tile as it or are read with probability below ``sure``; with
    ``inside``, so is a hit whose area a stronger tile hit covers by ≥ ``inside`` when it is
    read with probability below ``inside_sure`` (part of a tile seen beside the whole)."""
    order = sorted(named, key=lambda h: -h.score)
    boxes = np.array([h.box for h in order], dtype=float).reshape(-1, 4)
    overlap = iou_matrix(boxes)
    inside_of = covered_matrix(boxes) if inside is not None else None
    best = [int(np.argmax(h.probs)) for h in order]
    classes = np.array(best, dtype=int)
    is_tile = np.zeros(len(order), dtype=bool)  # kept tile hits (only a tile makes a double)
    kept: list[Hit] = []
    for n, hit in enumerate(order):
        k = best[n]
        p = hit.probs[k]
        doubled = is_tile & (overlap[n] >= limit)
        if p >= sure:
            doubled &= classes == k
        if doubled.any():
            continue
        if (
            inside_of is not None
            and inside is not None
            and p < inside_sure
            and (is_tile & (inside_of[n] >= inside)).any()
        ):
            continue
        kept.append(hit)
        is_tile[n] = CLASSES[k] not in NOT_TILES
    return kept


def _detection(hit: Hit, k: int, scale: float, s: Settings) -> TileDetection:
    """A named hit reported as class ``k``, its box back in the photo's pixels; the confidence
    is the reading's probability, lowered for a hit the detector barely heats (under 0.5)."""
    box, sideways, p, score = hit.box, hit.sideways, hit.probs, hit.score
    x1, y1, x2, y2 = (float(v) / scale for v in box)
    conf = round(float(p[k]) * min(1.0, score / 0.5), 4)
    return TileDetection(
        CLASSES[k], (x1, y1, x2, y2), 90 if sideways else 0, conf, "other", _alternatives(p, k, s)
    )


def _alternatives(p: np.ndarray, best: int, s: Settings) -> tuple[tuple[str, float], ...]:
    """The likeliest other riichi-tile (or back) readings of one hit, best first."""
    order = np.argsort(-p)
    out: list[tuple[str, float]] = []
    for k in order:
        if len(out) == s.max_alternatives or p[k] < s.alternative_prob:
            break
        if k != best and CLASSES[k] not in NOT_TILES:
            out.append((CLASSES[k], round(float(p[k]), 4)))
    return tuple(out)


@lru_cache(maxsize=1)
def default_recognizer() -> Recognizer:
    """The process-wide recognizer (models from $SANMA_MODELS or the package's own, limits
    from the environment: vision/limits.py)."""
    return Recognizer(models_folder(), limits=Limits.from_env())


def recognize_bytes(data: bytes) -> dict[str, Any]:
    return default_recognizer().recognize_bytes(data)


def recognize_path(path: str | Path) -> dict[str, Any]:
    """Read a photo file and recognize it; unreadable files are InputError."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError("unreadable_file", f"cannot read {path}: {exc.strerror}") from exc
    return recognize_bytes(data)
