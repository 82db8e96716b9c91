"""The second opinion (vision/classify.py SETTINGS.second_below, SECOND_WEIGHT): a reading the first
network is unsure of is averaged with a second network's; a sure one is left alone, and the
second network is not even asked for it."""

from __future__ import annotations

import numpy as np

from sanma_lens.vision.classify import CLASSES, TileClassifier
from sanma_lens.vision.settings import SETTINGS
from tests.vision.test_classify_prior import CROP, _Logits


class _Counting(_Logits):
    """A stand-in session that also counts the crops it was asked to read."""

    def __init__(self, logits: dict[str, float]) -> None:
        super().__init__(logits)
        self.seen = 0

    def run(self, names, feed):
        self.seen += next(iter(feed.values())).shape[0]
        return super().run(names, feed)


def _classifier(
    first: dict[str, float], second: dict[str, float]
) -> tuple[TileClassifier, _Counting]:
    other = _Counting(second)
    return TileClassifier(_Logits(first), prior_shift={}, second=other), other


def test_an_unsure_reading_is_tipped_by_the_second_network() -> None:
    # the first network hesitates between 3z and 2z (2z by a little); the second reads 3z
    first = {"2z": 5.0, "3z": 4.8}
    alone = TileClassifier(_Logits(first), prior_shift={}).classify([CROP])[0]
    clf, other = _classifier(first, {"3z": 6.0, "2z": 2.0})
    ((tile, p),) = clf.classify([CROP])
    assert alone[0] == "2z" and alone[1] < SETTINGS.second_below
    assert tile == "3z" and other.seen == 1


def test_a_sure_reading_is_left_alone_and_the_second_network_not_asked() -> None:
    clf, other = _classifier({"2z": 12.0, "3z": 4.0}, {"3z": 12.0})
    ((tile, p),) = clf.classify([CROP])
    alone = TileClassifier(_Logits({"2z": 12.0, "3z": 4.0}), prior_shift={}).classify([CROP])
    assert (tile, p) == alone[0] and other.seen == 0


def test_averaged_readings_still_sum_to_one() -> None:
    clf, _ = _classifier({"2z": 5.0, "3z": 4.8}, {"3z": 6.0, "1z": 5.0})
    probs = clf.probabilities([CROP, CROP, CROP])
    assert probs.shape == (3, len(CLASSES)) and np.allclose(probs.sum(axis=1), 1.0)
