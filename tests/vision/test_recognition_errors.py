"""benchmarks/recognition.py --errors: what keeps a photo from being exactly right, by kind."""

from __future__ import annotations

import numpy as np

from benchmarks import recognition as br
from sanma_lens.vision.types import TileDetection


def _det(tile: str, box: tuple[float, float, float, float], conf: float = 0.9) -> TileDetection:
    return TileDetection(tile, box, 0, conf, "other", ())


def test_each_error_of_a_photo_is_listed_by_kind() -> None:
    boxes = np.array(
        [
            [0, 0, 40, 60],
            [50, 0, 90, 60],
            [100, 0, 140, 60],
            [150, 0, 190, 60],
            [200, 0, 240, 60],
            [250, 0, 290, 60],
        ],
        np.float32,
    )
    labels = ["1m", "2m", "3m", "flower", "unlabelled", "partial"]
    pred = [
        _det("1m", (0, 0, 40, 60)),  # right
        _det("5m", (50, 0, 90, 60), 0.41),  # 2m read 5m
        _det("9p", (150, 0, 190, 60), 0.3),  # on a flower
        _det("4s", (200, 0, 240, 60)),  # on an unlabelled tile: no error
        _det("7z", (250, 0, 290, 60)),  # on a cut-off tile: no error
        _det("6p", (400, 0, 440, 60), 0.55),
    ]  # on nothing
    errs = br.photo_errors(pred, boxes, labels)
    assert errs == [
        "NAME 2m→5m p 0.41 [50, 0, 90, 60]",
        "MISS 3m [100, 0, 140, 60]",
        "EXTRA 9p p 0.30 [150, 0, 190, 60] on a flower",
        "EXTRA 6p p 0.55 [400, 0, 440, 60]",
    ]
    t = br.Tally()
    br.score_photo(t, pred, boxes, labels)
    assert t.exact == 0
    # the photo is exactly right once the errors are gone, and then none is listed
    right = [pred[0], _det("2m", (50, 0, 90, 60)), _det("3m", (100, 0, 140, 60)), pred[3]]
    assert br.photo_errors(right, boxes, labels) == []
    br.score_photo(t, right, boxes, labels)
    assert t.exact == 1


def test_the_error_summary_counts_kinds_and_photos() -> None:
    line = br._error_summary(
        [
            ["MISS 3m [0, 0, 1, 1]", "EXTRA 6p p 0.55 [0, 0, 1, 1]"],
            ["NAME 2m→5m p 0.41 [0, 0, 1, 1]"],
            ["EXTRA 1p p 0.2 [0, 0, 1, 1]"],
        ]
    )
    assert line == "EXTRA 2, MISS 1, NAME 1 | photos with: EXTRA 1, EXTRA+MISS 1, NAME 1"
