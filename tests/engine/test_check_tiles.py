"""engine.parse.check_tiles: a photo's corrected tiles read field by field, before the
situation and the whole hand are known (the HTTP API refuses them as 4xx, docs/api.md)."""

from __future__ import annotations

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.parse import PHOTO_TILE_FIELDS, check_tiles

TILES = {"hand": "234p456p789s1z", "win": "1z", "melds": ["pon:222z"], "kita": 1, "dora": ["3p"]}


def _code(obj: object, rules: object = None) -> str:
    with pytest.raises(InputError) as err:
        check_tiles(obj, rules)
    return err.value.code


def test_readable_tiles_pass_whatever_their_count() -> None:
    check_tiles(TILES)
    check_tiles({"hand": "1p"})  # counts are parse_hand's (a score_error beside the photo)
    check_tiles({"hand": "234p", "win": None, "melds": None, "dora": "3p1z"})


@pytest.mark.parametrize("field", ["tsumo", "riichi", "seat", "hnad", "ura"])
def test_only_the_tile_fields_are_known(field: str) -> None:
    assert field not in PHOTO_TILE_FIELDS
    assert _code({**TILES, field: None}) == "unknown_field"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"hand": "234p5m"}, "invalid_tile"),  # §1: no 2m-8m
        ({"win": "1p2p"}, "bad_tiles"),
        ({"melds": ["chi:234p"]}, "chi_not_allowed"),  # §19
        ({"melds": "pon:222z"}, "bad_type"),
        ({"dora": ["9z"]}, "unknown_tile"),
        ({"kita": -1}, "bad_type"),
        ({"kita_aka": True}, "bad_type"),
    ],
)
def test_unreadable_field_is_refused(change: dict, code: str) -> None:
    assert _code({**TILES, **change}) == code


def test_rule_a1_the_aka_5man_is_a_tile_only_under_its_option() -> None:
    assert _code({**TILES, "dora": "0m"}) == "invalid_tile"
    check_tiles({**TILES, "dora": "0m"}, {"aka_5man": True})
    assert _code(TILES, {"preset": "sanma-9"}) == "unknown_preset"
    assert _code(["1p"]) == "bad_type"
