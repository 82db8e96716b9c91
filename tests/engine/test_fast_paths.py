"""The engine's fast paths agree with the plain definitions they replace (§18 guarantee and
tenpai evaluate every wait, so these shortcuts carry most of the engine's work)."""

from __future__ import annotations

import itertools
import random

from benchmarks.engine import random_winning_hand
from benchmarks.ref4p import random_deal
from sanma_lens.engine.decompose import (
    completions,
    is_chiitoitsu,
    is_kokushi,
    readings,
    standard_decomps,
)
from sanma_lens.engine.evaluate import best, best_yaku_han, completed, completer, readings_in
from sanma_lens.engine.fu import FuItem, fu_of, fu_value
from sanma_lens.engine.parse import parse_hand
from sanma_lens.engine.suits import (
    DECOMPS_BY_CODE,
    HONOR_TAG,
    group_additions,
    group_decomps,
    group_flags,
    pattern_code,
)
from sanma_lens.engine.waits import waits
from sanma_lens.engine.yaku import Context


def _splits(c: tuple[int, ...], pair_free: bool) -> list[tuple[int, tuple, tuple]]:
    """Plain recursive split of one group (rank indices) into sets and at most one pair: at
    the lowest rank held a triplet, a pair or a run starting there, in that order."""
    i = next((i for i, n in enumerate(c) if n), len(c))
    if i == len(c):
        return [(-1, (), ())]
    out = []
    if c[i] >= 3:
        rest = c[:i] + (c[i] - 3,) + c[i + 1 :]
        out += [(p, (i, *t), r) for p, t, r in _splits(rest, pair_free)]
    if c[i] >= 2 and pair_free:
        rest = c[:i] + (c[i] - 2,) + c[i + 1 :]
        out += [(i, t, r) for _, t, r in _splits(rest, False)]
    if len(c) == 9 and i + 2 < 9 and c[i + 1] and c[i + 2]:
        rest = c[:i] + (c[i] - 1, c[i + 1] - 1, c[i + 2] - 1) + c[i + 3 :]
        out += [(p, t, (i, *r)) for p, t, r in _splits(rest, pair_free)]
    return out


def _by_splitting(counts: tuple[int, ...]) -> tuple:
    if sum(counts) % 3 == 1:
        return ()
    return tuple(dict.fromkeys(_splits(counts, True)))  # first occurrence of each split


def _flags_of(decomps: tuple) -> int:
    flags = 0
    for pair, _, _ in decomps:
        flags |= 2 if pair >= 0 else 1
    return flags


def _check_tables(counts: tuple[int, ...]) -> None:
    expected = _by_splitting(counts)
    assert group_decomps(0, counts) == expected, counts
    assert group_flags(counts) == _flags_of(expected), counts


def test_suit_tables_equal_splitting_on_every_small_pattern() -> None:
    """The per-suit tables enumerated at import equal splitting each pattern, decompositions
    in the same order (ties between readings go to the first)."""
    checked = 0
    for length, most in ((9, 8), (7, 11)):
        for c in itertools.product(range(5), repeat=length):
            if sum(c) <= most:
                _check_tables(c)
                checked += 1
    assert checked > 20_000


def _by_multisets(ranks: int) -> dict[int, tuple]:
    """Every pattern of at most four sets and one pair of a group of ``ranks`` kinds, from
    the multisets of sets, with its decompositions sorted in split order (the lowest rank's
    triplet before its pair before its runs, rank by rank)."""
    n_runs = ranks - 2 if ranks == 9 else 0
    found: dict[int, list] = {}
    for n_sets in range(5):
        for sets in itertools.combinations_with_replacement(range(ranks + n_runs), n_sets):
            c = [0] * ranks
            for s in sets:
                for r in (s,) * 3 if s < ranks else (s - ranks, s - ranks + 1, s - ranks + 2):
                    c[r] += 1
            trips = tuple(s for s in sets if s < ranks)
            runs = tuple(s - ranks for s in sets if s >= ranks)
            for pair in range(-1, ranks):
                counts = c[:]
                if pair >= 0:
                    counts[pair] += 2
                if max(counts) <= 4:
                    found.setdefault(pattern_code(tuple(counts)), []).append((pair, trips, runs))

    def split_order(d: tuple) -> list[int]:
        pair, trips, runs = d
        return sorted(
            [3 * t for t in trips] + [3 * r + 2 for r in runs] + [3 * pair + 1] * (pair >= 0)
        )

    return {code: tuple(sorted(ds, key=split_order)) for code, ds in found.items()}


def test_suit_tables_are_every_multiset_of_sets_in_split_order() -> None:
    """The per-suit tables, enumerated rank by rank at import, hold exactly the patterns of
    at most four sets and one pair, each with all its decompositions in split order."""
    for ranks, tag in ((9, 0), (7, HONOR_TAG)):
        expected = _by_multisets(ranks)
        table = {c: ds for c, ds in DECOMPS_BY_CODE.items() if (c >= HONOR_TAG) == bool(tag)}
        assert table == expected
    assert len(DECOMPS_BY_CODE) == 21_743 + 498


def test_suit_tables_equal_splitting_on_random_full_suits() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        c = [0] * 9
        for _ in range(rng.randint(9, 14)):
            k = rng.randrange(9)
            if c[k] < 4:
                c[k] += 1
        _check_tables(tuple(c))


def test_group_decomps_of_a_suit_are_its_rank_decomps_moved() -> None:
    c = (3, 3, 3, 2, 0, 0, 0, 0, 0)
    moved = tuple(
        (p + 18 if p >= 0 else -1, tuple(t + 18 for t in ts), tuple(r + 18 for r in rs))
        for p, ts, rs in group_decomps(0, c)
    )
    assert len(moved) > 1 and group_decomps(18, c) == moved


def test_group_additions_equal_trying_every_kind() -> None:
    """Only kinds near a held tile are tried; the rest can never complete a group."""
    checked = 0
    for length, most in ((9, 8), (7, 10)):
        for c in itertools.product(range(5), repeat=length):
            if sum(c) > most:
                continue
            every = []
            for i in range(length):
                if c[i] < 4:
                    after = c[:i] + (c[i] + 1,) + c[i + 1 :]
                    if group_flags(after):
                        every.append((i, group_flags(after), after))
            assert group_additions.__wrapped__(c) == tuple(every), c
            checked += 1
    assert checked > 20_000


def _hands(n: int) -> list:
    rng = random.Random(11)
    out = []
    for i in range(n):
        h = random_winning_hand(rng)
        if i % 3 == 0:
            h = {**random_deal(rng).hand_json()}
        out.append(parse_hand({k: v for k, v in h.items() if k != "win"}, need_win=False))
    return out


def test_rule_18_completions_give_every_wait_and_its_decompositions() -> None:
    """One pass over the 13 tiles finds the same waits as completing the hand with every kind
    and decomposing each completed hand on its own, in the same order (ties between readings
    go to the first)."""
    for p in _hands(600):
        counts, kinds = p.hand.concealed, p.rules.tile_kinds
        found = completions(counts, kinds)
        every = []
        for k in sorted(kinds):
            if counts[k] >= 4:
                continue
            after = counts[:k] + (counts[k] + 1,) + counts[k + 1 :]
            decomps = standard_decomps(after)
            if decomps or is_chiitoitsu(after) or is_kokushi(after, kinds):
                every.append((k, decomps))
        assert found == every, p.hand


def test_facts_shared_across_waits_equal_each_completed_hand() -> None:
    for p in _hands(600):
        make = completer(p.hand, p.rules)
        for w in waits(p.hand, p.rules):
            assert make(w) == completed(p.hand, w, p.rules)


def raw_fu(items: list[FuItem]) -> int:
    """Fu before rounding up, an open pinfu-shaped hand counting 22 (20 + 2, the usual
    "no 20-fu open hand" addition) rather than the rounded 30 of its ``open_pinfu`` item."""
    total = 0
    for reason, fu in items:
        total += 2 if reason == "open_pinfu" else fu
    return total


def test_fu_value_is_fu_of_and_its_raw_fu() -> None:
    for p in _hands(600):
        for tsumo in (False, True):
            ctx = Context(p.situation.as_tsumo(tsumo), p.rules)
            for w in waits(p.hand, p.rules):
                for r in readings(completed(p.hand, w, p.rules), tsumo, p.rules.tile_kinds):
                    fu, items = fu_of(r, ctx)
                    assert fu_value(r, ctx) == (fu, raw_fu(items))


def test_rule_18_wait_value_is_the_yaku_han_of_the_best_reading() -> None:
    """best_yaku_han skips the points ranking when every reading has the same yaku han; its
    value is still that of the reading :func:`best` chooses (one-suit hands: many readings)."""
    rng = random.Random(5)
    parsed = _hands(300)
    for _ in range(300):
        base = rng.choice([9, 18])
        tiles = rng.sample([k for k in range(base, base + 9) for _ in range(4)], 13)
        hand = "".join(str(t - base + 1) for t in sorted(tiles)) + ("p" if base == 9 else "s")
        parsed.append(
            parse_hand({"hand": hand, "riichi": rng.choice(["none", "riichi"])}, need_win=False)
        )
    multi = 0
    for p in parsed:
        for tsumo in (False, True):
            ctx = Context(p.situation.as_tsumo(tsumo), p.rules)
            for w in waits(p.hand, p.rules):
                f = completed(p.hand, w, p.rules)
                rs = readings_in(f, ctx)
                for extra in (0, 3):
                    ev = best(f, ctx, extra, rs)
                    assert best_yaku_han(f, ctx, extra, rs) == (ev.yaku_han if ev else None)
                multi += len(rs) > 1
    assert multi > 100


def test_rule_29_as_tsumo_clears_the_flags_of_the_other_way_of_winning() -> None:
    """Tenpai judges each wait won by ron and by tsumo: as_tsumo keeps every field but the
    flags of the other way of winning (compared field by field)."""
    from sanma_lens.engine.parse import SITUATION_FIELDS, Situation

    def replaced(sit: Situation, **changes: object) -> Situation:
        return Situation(**{**{f: getattr(sit, f) for f in SITUATION_FIELDS}, **changes})

    ron_only = {"houtei", "kanburi", "chankan", "renhou"}
    tsumo_only = {"haitei", "rinshan", "tenhou", "chihou", "first_draw"}
    sit = Situation(
        tsumo=False, seat=28, round=27, riichi="riichi", ippatsu=True, houtei=True,
        kanburi=True, chankan=True, renhou=True, discarder_riichi=True, honba=3, deposits=2,
        ron_on="kita",
    )  # fmt: skip
    as_tsumo = sit.as_tsumo(True)
    expected = replaced(sit, tsumo=True, ron_on=None, **{f: False for f in ron_only})
    assert as_tsumo == expected and type(as_tsumo) is Situation
    tsumo_sit = Situation(tsumo=True, haitei=True, rinshan=True, first_draw=True, honba=1)
    assert tsumo_sit.as_tsumo(False) == replaced(
        tsumo_sit, tsumo=False, **{f: False for f in tsumo_only}
    )
    assert sit.as_tsumo(False) is sit
    assert sit._key() == tuple(getattr(sit, f) for f in SITUATION_FIELDS)  # hash, equality


def test_rule_29_ron_and_tsumo_yaku_han_of_one_reading_share_its_yaku() -> None:
    """held_ron_tsumo (tenpai's per-wait values) equals held in each of the two contexts."""
    from sanma_lens.engine.yaku_eval import held, held_ron_tsumo

    checked = 0
    for p in _hands(600):
        ron = Context(p.situation.as_tsumo(False), p.rules)
        tsumo = Context(p.situation.as_tsumo(True), p.rules)
        for w in waits(p.hand, p.rules):
            for r in readings(completed(p.hand, w, p.rules), False, p.rules.tile_kinds):
                assert held_ron_tsumo(r, ron, tsumo) == (held(r, ron)[1], held(r, tsumo)[1])
                checked += 1
    assert checked > 500


def test_held_without_a_memo_equals_the_memo_path() -> None:
    """Without a memo a reading's whole-hand and reading-level tests run as one list
    (_tiles_yaku); with a memo they run apart (whole_hand_yaku, reading_yaku) so that
    readings share the whole-hand part. Both give the same yaku."""
    from sanma_lens.engine.yaku_eval import held

    checked = 0
    for p in _hands(600):
        for tsumo in (False, True):
            ctx = Context(p.situation.as_tsumo(tsumo), p.rules)
            for w in waits(p.hand, p.rules):
                memo: dict = {}
                for r in readings(completed(p.hand, w, p.rules), tsumo, p.rules.tile_kinds):
                    assert held(r, ctx) == held(r, ctx, memo)
                    checked += 1
    assert checked > 1000
