"""Differential test: the ``ecip`` and ``standard`` profiles against the `mahjong` library.

What is compared (``benchmarks.ref_profiles``): N seeded random legal four-player winning
hands (``benchmarks.ref4p``), red fives written as plain fives and open riichi as riichi,
scored by our profile and by the library set to the profile's nearest rules (open tanyao, no
red fives; ECIP: renhou a yakuman; standard: no double yakuman, kazoe to sanbaiman). The yaku
and their han, han, fu, dora, limit, yakuman multiple, payments and total must agree, and a
hand without yaku must be our ``insufficient_yaku`` — except where the profile's rule differs
from the library's by design (``ref_profiles.RULE_DIFFERENCES``: ECIP's 役の確定, 2-han rule,
mangan cap, tsumo-pin, 20 fu open pinfu; standard's 先づけ, 2-fu double wind pair, no rinshan
tsumo fu, 4-han renhou, one yakuman at most, chankan kan dora), and then our side must show
what the rule says. ``benchmarks/differential.py --profile …`` runs the same for many hands.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("mahjong")

from benchmarks.ref4p import random_deal  # noqa: E402
from benchmarks.ref_profiles import RULE_DIFFERENCES, compare_profile  # noqa: E402

pytestmark = pytest.mark.differential

N = 1500
SEED = 20261127


@pytest.mark.parametrize(
    ("profile", "rules"),
    [
        ("ecip", {"guarantee", "two_han", "tenpane", "tsumo_pinfu"}),
        ("standard", {"guarantee", "rinshan_fu", "one_yakuman", "renhou_4"}),
    ],
)
def test_differential_profile_agrees_with_the_library_but_for_its_rules(
    profile: str, rules: set[str]
) -> None:
    rng = random.Random(SEED)
    verdicts = [compare_profile(random_deal(rng), profile) for _ in range(N)]
    bad = [v for v in verdicts if not v.agrees]
    assert not bad, f"{len(bad)} of {N} disagree under {profile}; first: {bad[0]}"
    counts = Counter(v.category for v in verdicts)
    assert counts["agree"] > N // 3 and counts["agree_no_yaku"] > N // 20
    seen = Counter(r for v in verdicts for r in v.rules)
    assert rules <= set(seen), f"never exercised: {rules - set(seen)}"
    assert set(seen) <= set(RULE_DIFFERENCES)
