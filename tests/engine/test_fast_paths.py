"""The engine's fast paths agree with the plain definitions they replace (§18 guarantee and
tenpai evaluate every wait, so these shortcuts carry most of the engine's work)."""

from __future__ import annotations

import itertools
import random

from benchmarks.engine import random_winning_hand
from benchmarks.ref4p import random_deal
from engine.decompose import group_decomps, group_flags, readings
from engine.evaluate import completed, completer, raw_fu
from engine.fu import fu_of, fu_value
from engine.parse import parse_hand
from engine.waits import waits
from engine.yaku import Context


def _flags_by_enumeration(base: int, counts: tuple[int, ...]) -> int:
    flags = 0
    for pair, _, _ in group_decomps.__wrapped__(base, counts):
        flags |= 2 if pair >= 0 else 1
    return flags


def test_group_flags_match_the_decompositions_on_every_small_pattern() -> None:
    """group_flags decides 'whole sets' / 'sets plus a pair' without enumerating splits."""
    checked = 0
    for length, base, most in ((9, 9, 8), (7, 27, 11)):
        for c in itertools.product(range(5), repeat=length):
            if sum(c) <= most:
                assert group_flags.__wrapped__(c) == _flags_by_enumeration(base, c), c
                checked += 1
    assert checked > 20_000


def test_group_flags_match_the_decompositions_on_random_full_suits() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        c = [0] * 9
        for _ in range(rng.randint(9, 14)):
            k = rng.randrange(9)
            if c[k] < 4:
                c[k] += 1
        t = tuple(c)
        assert group_flags.__wrapped__(t) == _flags_by_enumeration(18, t), t


def _hands(n: int) -> list:
    rng = random.Random(11)
    out = []
    for i in range(n):
        h = random_winning_hand(rng)
        if i % 3 == 0:
            h = {**random_deal(rng).hand_json()}
        out.append(parse_hand({k: v for k, v in h.items() if k != "win"}, need_win=False))
    return out


def test_facts_shared_across_waits_equal_each_completed_hand() -> None:
    for p in _hands(600):
        make = completer(p.hand, p.rules)
        for w in waits(p.hand, p.rules):
            assert make(w) == completed(p.hand, w, p.rules)


def test_fu_value_is_fu_of_and_its_raw_fu() -> None:
    for p in _hands(600):
        for tsumo in (False, True):
            ctx = Context(p.situation.as_tsumo(tsumo), p.rules)
            for w in waits(p.hand, p.rules):
                for r in readings(completed(p.hand, w, p.rules), tsumo, p.rules.tile_kinds):
                    fu, items = fu_of(r, ctx)
                    assert fu_value(r, ctx) == (fu, raw_fu(items))
