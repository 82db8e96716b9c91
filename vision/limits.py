"""Bounds on the work one photo may cost: how many tiles it may show, how long it may take and
how many crops the classifier reads at once.

A hand photo shows a few dozen tiles and a whole table about 150; a photo with more tile-like
things than ``max_tiles`` (a grid of rectangles, a noise picture) is refused with the error
``too_many_tiles`` before any tile is classified. A photo still being read after ``seconds`` is
given up with ``photo_timeout`` (checked between the stages, each of which is bounded), so a
slow photo holds a worker for a bounded time. The classifier reads ``classify_chunk`` crops per
call, so its memory (onnxruntime keeps the largest batch's buffers) does not grow with the
number of tiles.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from sanma_lens.engine.errors import InputError


@dataclass(frozen=True)
class Limits:
    """Work bounds of one photo.

    - ``max_tiles``: most tile-like detector hits a photo may have; env ``SANMA_MAX_TILES``
      (default 200).
    - ``seconds``: most wall time to read one photo; env ``SANMA_PHOTO_SECONDS`` (default 10).
    - ``classify_chunk``: crops per classifier call (memory per call stays flat).
    """

    max_tiles: int = 200
    seconds: float = 10.0
    classify_chunk: int = 32

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults with ``SANMA_MAX_TILES`` and ``SANMA_PHOTO_SECONDS`` applied; a value
        that is not a positive number is a ValueError naming the variable."""
        return cls(
            max_tiles=int(_positive("SANMA_MAX_TILES", cls.max_tiles)),
            seconds=_positive("SANMA_PHOTO_SECONDS", cls.seconds),
        )


def _positive(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {raw!r}") from exc
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{name} must be a positive number, got {raw!r}")
    return value


class Deadline:
    """The time by which a photo must be read; :meth:`check` raises ``photo_timeout`` after it.

    ``clock`` (seconds, monotonic) is injectable for tests.
    """

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.until = None if seconds is None else clock() + seconds

    def check(self) -> None:
        if self.until is not None and self.clock() > self.until:
            raise InputError(
                "photo_timeout",
                f"reading the photo took longer than the limit of {self.seconds:g} s: try a "
                "photo of the hand alone, closer",
            )


NO_DEADLINE = Deadline(None)


def too_many_tiles(found: int, limit: int) -> InputError:
    """The error for a photo with more tile-like hits than ``limit``."""
    return InputError(
        "too_many_tiles",
        f"the photo shows {found} tile-like shapes, over the limit of {limit}: photograph the "
        "hand (or the table) alone, closer",
    )
