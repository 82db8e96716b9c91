"""The classifier's prior shift (vision/settings.py ``prior_shift``): the plain 5-man's logit
is lowered before the softmax, so a manzu crop the network reads 5m only by a little goes to the
runner-up, while a clear 5m, the aka-5-man and every other class keep their readings."""

from __future__ import annotations

import numpy as np
import pytest

from sanma_lens.vision.classify import CLASSES, TileClassifier, prior_offsets
from sanma_lens.vision.settings import SETTINGS


class _Logits:
    """A stand-in session that answers the same logits for every crop."""

    def __init__(self, logits: dict[str, float]) -> None:
        self.row = np.array([logits.get(c, 0.0) for c in CLASSES], np.float32)

    def get_inputs(self) -> list:
        return [type("I", (), {"name": "input"})()]

    def run(self, _names, feed):
        x = next(iter(feed.values()))
        return [np.tile(self.row, (x.shape[0], 1))]


CROP = np.zeros((64, 48, 3), np.uint8)


def _read(logits: dict[str, float], shift: dict[str, float] | None = None) -> str:
    return TileClassifier(_Logits(logits), prior_shift=shift).classify([CROP])[0][0]


def test_the_shipped_shift_lowers_the_plain_five_man_most_and_two_red_fives() -> None:
    assert set(SETTINGS.prior_shift) == {"5m", "0m", "0s"}
    assert SETTINGS.prior_shift["5m"] < SETTINGS.prior_shift["0m"] == SETTINGS.prior_shift["0s"] < 0
    offsets = prior_offsets(SETTINGS.prior_shift)
    assert offsets[CLASSES.index("5m")] == SETTINGS.prior_shift["5m"]
    assert np.count_nonzero(offsets) == 3 and offsets[CLASSES.index("0p")] == 0


def test_a_narrow_red_five_reading_goes_to_the_plain_five() -> None:
    # a table holds one red five of a suit to three plain ones
    assert _read({"0s": 8.0, "5s": 7.5}, shift={}) == "0s"
    assert _read({"0s": 8.0, "5s": 7.5}) == "5s"
    assert _read({"0s": 8.0, "5s": 6.0}) == "0s"  # a clear red five stays red


def test_a_narrow_five_man_reading_goes_to_the_runner_up() -> None:
    narrow = {"5m": 8.0, "7m": 7.5}
    assert _read(narrow, shift={}) == "5m"  # without the shift the network's 5m stands
    assert _read(narrow) == "7m"


def test_a_clear_five_man_and_the_aka_five_man_keep_their_readings() -> None:
    assert _read({"5m": 8.0, "7m": 6.0}) == "5m"
    assert _read({"0m": 8.0, "5m": 7.8}) == "0m"


def test_probabilities_still_sum_to_one() -> None:
    probs = TileClassifier(_Logits({"5m": 3.0, "3m": 2.0})).probabilities([CROP, CROP])
    assert probs.shape == (2, len(CLASSES))
    assert np.allclose(probs.sum(axis=1), 1.0)


def test_an_unknown_class_in_a_shift_is_refused() -> None:
    with pytest.raises(ValueError, match="no such classes"):
        prior_offsets({"5x": -1.0})
