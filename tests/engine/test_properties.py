"""Property tests (hypothesis): payments, waits, fifth tiles (STYLE.md invariants)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.engine import random_winning_hand
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.points import hand_base, ron_amount, tsumo_amounts
from sanma_lens.engine.rules import SANMA_13
from sanma_lens.engine.service import score_json, tenpai_json
from sanma_lens.engine.tiles import SANMA_KINDS, name
from tests.support import CONTRACT_HAND_FIELDS

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def hand_from(seed: int, honba: int = 0, deposits: int = 0) -> dict:
    h = random_winning_hand(random.Random(seed))
    return {**h, "honba": honba, "deposits": deposits}


@settings(max_examples=150, deadline=None)
@given(seeds, st.integers(0, 6), st.integers(0, 3))
def test_property_payments_sum_to_total_on_the_1000_grid(seed: int, honba: int, dep: int) -> None:
    r = score_json(hand_from(seed, honba, dep))
    amounts = [p["amount"] for p in r["payments"]]
    if r["valid"]:
        assert all(a >= 1000 and a % 1000 == 0 for a in amounts)
        assert sum(amounts) + dep * 1000 == r["total"]
        assert r["yaku_han"] >= r["guarantee"]["required"]
    else:
        assert all(a < 0 and a % 1000 == 0 for a in amounts) and sum(amounts) == r["total"]
        assert r["reason"] in ("insufficient_yaku", "no_win_shape")


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_property_every_reported_wait_completes_the_hand(seed: int) -> None:
    h = hand_from(seed)
    t = tenpai_json({k: v for k, v in h.items() if k != "win"})
    assert t["tenpai"] and h["win"] in [w["tile"] for w in t["waits"]]
    for w in t["waits"]:
        r = score_json({**h, "win": w["tile"], "dora": []})
        assert r["reason"] != "no_win_shape"
        assert r["yaku_han"] == w["yaku_han_tsumo" if h["tsumo"] else "yaku_han_ron"]


@settings(max_examples=100, deadline=None)
@given(seeds, st.sampled_from(sorted(SANMA_KINDS)))
def test_property_no_hand_with_a_fifth_tile_is_scored(seed: int, kind: int) -> None:
    h = hand_from(seed)
    extra = name(kind)
    # put four more of `kind` into the indicators: with any copy in hand/melds that is a fifth
    obj = {**h, "dora": [extra] * 4}
    tiles_text = h["hand"] + h["win"] + "".join(m.split(":")[1] for m in h["melds"])
    held = 0
    digits: list[str] = []
    for ch in tiles_text:
        if ch.isdigit():
            digits.append(ch)
        else:
            held += sum(1 for d in digits if d + ch == extra)
            digits = []
    if held:
        with pytest.raises(InputError) as info:
            score_json(obj)
        assert info.value.code == "fifth_tile"
    else:
        score_json(obj)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 30),
    st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
    st.booleans(),
    st.integers(0, 10),
)
def test_property_payment_helpers_grid_and_order(
    han: int, fu: int, dealer: bool, honba: int
) -> None:
    base, limit, multiple = hand_base(han, fu, SANMA_13)
    ron = ron_amount(base, dealer, honba, SANMA_13)
    tsumo = tsumo_amounts(base, dealer, honba, SANMA_13)
    assert ron % 1000 == 0 and ron >= 1000 + 1000 * honba
    assert all(a % 1000 == 0 and a >= 2000 + 1000 * honba for _, a in tsumo) and len(tsumo) == 2
    assert (limit == "yakuman") == (multiple > 0) == (han >= 15)
    if han < 15:
        assert hand_base(han + 1, fu, SANMA_13)[0] >= base


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_property_skip_conditions_are_necessary(seed: int) -> None:
    """The evaluator's skip gates (MIN_PUNGS, MIN_RUNS, one suit, all terminals, kans, honors,
    three suits) never skip a yaku whose pure test holds, so the fast path equals running every
    test."""
    from sanma_lens.engine.decompose import readings
    from sanma_lens.engine.evaluate import completed
    from sanma_lens.engine.parse import parse_hand
    from sanma_lens.engine.yaku import (
        ALL_TH,
        MIN_PUNGS,
        MIN_RUNS,
        NEEDS_HONOR,
        NO_HONOR,
        ONE_SUIT,
        TESTS,
        THREE_KANS,
        THREE_SUITS,
        Context,
    )

    p = parse_hand(hand_from(seed), need_win=True)
    assert p.hand.win_kind is not None
    ctx = Context(p.situation, p.rules)
    facts = completed(p.hand, p.hand.win_kind)
    for r in readings(facts, p.situation.tsumo, p.rules.tile_kinds):
        for yid, (fn, forms) in TESTS.items():
            if r.form not in forms or not fn(r, ctx):
                continue
            assert len(r.pungs) >= MIN_PUNGS.get(yid, 0) and len(r.runs) >= MIN_RUNS.get(yid, 0)
            assert yid not in ONE_SUIT or facts.n_suits <= 1
            assert yid not in ALL_TH or facts.all_th
            assert yid not in THREE_KANS or facts.n_kans >= 3
            assert yid not in NEEDS_HONOR or facts.has_honor
            assert yid not in NO_HONOR or not facts.has_honor
            assert yid not in THREE_SUITS or facts.n_suits == 3


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 9),
    st.floats(allow_nan=False, width=16),
    st.sampled_from(
        [
            "",
            "1p",
            "0m",
            "0p",
            "5m",
            "4z",
            "8z",
            "123p",
            "riichi",
            "E",
            "N",
            "5p",
            "pon:777z",
            "ankan:1111p",
            "chi:234p",
            "kita",
            "x",
        ]
    ),
    st.lists(st.sampled_from(["1p", "pon:777z", "4z", "0s", 3]), max_size=4),
    st.dictionaries(st.sampled_from(["preset", "aka_5man", "nope"]), st.booleans(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(
    seeds,
    st.dictionaries(
        st.sampled_from(sorted([*CONTRACT_HAND_FIELDS, "discards", "ron_on", "bogus"])),
        _values,
        max_size=4,
    ),
)
def test_property_bad_input_is_input_error_never_a_crash(seed: int, patch: dict) -> None:
    obj = {**hand_from(seed), **patch}
    for fn, o in ((score_json, obj), (tenpai_json, {k: v for k, v in obj.items() if k != "win"})):
        try:
            out = fn(o)
        except InputError as exc:
            assert exc.code and exc.message
        else:
            assert isinstance(out, dict)


@settings(max_examples=150, deadline=None)
@given(seeds, st.booleans())
def test_property_fast_han_sum_equals_the_yaku_list(seed: int, exclusive: bool) -> None:
    from sanma_lens.engine.decompose import readings
    from sanma_lens.engine.evaluate import completed
    from sanma_lens.engine.parse import parse_hand
    from sanma_lens.engine.yaku import Context
    from sanma_lens.engine.yaku_eval import yaku_han_of, yaku_of

    obj = {**hand_from(seed), "rules": {"yakuman_exclusive": exclusive}}
    p = parse_hand(obj, need_win=True)
    assert p.hand.win_kind is not None
    ctx = Context(p.situation, p.rules)
    memo: dict = {}
    for r in readings(completed(p.hand, p.hand.win_kind), p.situation.tsumo, p.rules.tile_kinds):
        assert yaku_han_of(r, ctx, memo) == sum(
            h for _, h in yaku_of(r, Context(ctx.sit, ctx.rules))
        )
