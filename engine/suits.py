"""One suit's (or the honors') count pattern → its decompositions, whether it can be whole
sets or sets plus a pair, and which added kinds complete it: the per-suit tables of the
table-driven decomposition (:mod:`engine.decompose`).

The tables are filled lazily and keyed by the counts alone, so the three suits share them and
every pattern is worked out once per process (bounded: a server sees arbitrary hands). A
pattern seen for the first time mostly reuses known work: its decompositions are built from
cached splits of what is left above its lowest sets, and whole-set tests run a small
automaton over the ranks.

>>> group_decomps(9, (3, 1, 1, 1, 0, 0, 0, 0, 0))
((-1, (9,), (10,)),)
>>> [(i, f) for i, f, _ in group_additions((0, 1, 1, 0, 0, 0, 0, 0, 0))]
[(0, 1), (3, 1)]
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product
from operator import mul

# A group decomposition: (pair kind or -1, triplet kinds, run start kinds)
GroupDecomp = tuple[int, tuple[int, ...], tuple[int, ...]]
GROUP_BASES = (0, 9, 18, 27)


@lru_cache(maxsize=1 << 16)  # bounded: a server sees arbitrary hands
def group_decomps(base: int, counts: tuple[int, ...]) -> tuple[GroupDecomp, ...]:
    """All ways to split one suit's (or the honors') tiles into sets and at most one pair.

    ``base`` is the group's first kind index (27 = honors, which form no runs).

    >>> group_decomps(9, (3, 1, 1, 1, 0, 0, 0, 0, 0))
    ((-1, (9,), (10,)),)
    >>> group_decomps(9, (3, 1, 1, 0, 0, 0, 0, 0, 0))
    ((9, (), (9,)),)
    >>> group_decomps(9, (1, 1, 0, 0, 0, 0, 0, 0, 0))
    ()
    """
    if base == 0:
        return _rank_decomps(counts)
    return tuple(
        (
            pair + base if pair >= 0 else -1,
            tuple(t + base for t in trips),
            tuple(r + base for r in runs),
        )
        for pair, trips, runs in _rank_decomps(counts)
    )


@lru_cache(maxsize=1 << 16)  # bounded: a server sees arbitrary hands
def _rank_decomps(counts: tuple[int, ...]) -> tuple[GroupDecomp, ...]:
    """:func:`group_decomps` in rank indices (0–8; honors 0–6, by the length 7): the suits
    share one table."""
    if sum(counts) % 3 == 1:
        return ()
    return tuple(dict.fromkeys(_splits(counts, 0, True, len(counts) == 7)))


@lru_cache(maxsize=1 << 17)  # bounded: a server sees arbitrary hands
def _splits(c: tuple[int, ...], i: int, pair_free: bool, honors: bool) -> tuple[GroupDecomp, ...]:
    """Every split of the tiles from rank ``i`` on (none below it) into sets and, when
    ``pair_free``, at most one pair: at the lowest rank held, a triplet, a pair or a run
    starting there, in that order (the order ties between readings depend on).

    Cached by the tiles left: many count patterns share what is left after their lowest
    sets, so a pattern seen for the first time mostly reuses known splits.
    """
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return NO_TILES
    out: list[GroupDecomp] = []
    ci = c[i]
    if ci >= 3:
        for p, t, r in _splits(c[:i] + (ci - 3,) + c[i + 1 :], i, pair_free, honors):
            out.append((p, (i, *t), r))
    if ci >= 2 and pair_free:
        for _, t, r in _splits(c[:i] + (ci - 2,) + c[i + 1 :], i, False, honors):
            out.append((i, t, r))
    if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
        rest = c[:i] + (ci - 1, c[i + 1] - 1, c[i + 2] - 1) + c[i + 3 :]
        for p, t, r in _splits(rest, i, pair_free, honors):
            out.append((p, t, (i, *r)))
    return tuple(out)


@lru_cache(maxsize=1 << 17)  # bounded: a server sees arbitrary hands
def group_flags(counts: tuple[int, ...]) -> int:
    """Bit 1: the group can be whole sets; bit 2: whole sets plus one pair.

    ``counts`` are one suit's 9 kinds or the 7 honors (which form no runs); the answer does
    not depend on which suit, so the suits share one table. The same as collecting the pairs
    of :func:`group_decomps`, without enumerating the decompositions (a tile count ≡ 0 mod 3
    can only be whole sets, ≡ 2 only sets plus a pair).

    >>> group_flags((3, 1, 1, 1, 0, 0, 0, 0, 0)), group_flags((3, 1, 1, 0, 0, 0, 0, 0, 0))
    (1, 2)
    """
    return _flags(list(counts), sum(counts) % 3, sum(map(mul, _RANKS, counts)), len(counts) == 7)


def _flags(c: list[int], rest: int, weighted: int, honors: bool) -> int:
    """:func:`group_flags` of the counts ``c`` (left as they were) from their tile count
    mod 3 and their rank-weighted sum Σ i·c_i."""
    if rest == 0:
        return 1 if _whole_sets(c, honors) else 0
    if rest == 2:
        # Runs (3i+3) and triplets (3i) have rank sums ≡ 0 mod 3, so a pair of rank r
        # leaves Σ i·c_i ≡ 2r: only ranks r ≡ 2·Σ i·c_i (mod 3) can hold the pair.
        for r in range(2 * weighted % 3, len(c), 3):
            if c[r] >= 2:
                c[r] -= 2
                whole = _whole_sets(c, honors)
                c[r] += 2
                if whole:
                    return 2
    return 0


_RANKS = range(9)


def _whole_sets(c: list[int] | tuple[int, ...], honors: bool) -> bool:
    """Whether the counts split into triplets and (suits only) runs.

    At the lowest kind left, ``count mod 3`` of its tiles must start runs: three equal runs
    are the same tiles as three triplets, so trying only that many loses no split. Scanning
    the ranks in order, that rule is a small automaton (:data:`_RUN_STEP`).
    """
    if honors:
        return all(n == 0 or n == 3 for n in c)
    state = 0
    for n in c:
        state = _RUN_STEP[state][n]
    return state == 0


def _run_step(state: int, n: int) -> int:
    """One rank of :func:`_whole_sets`: ``state = 3·a + b`` where ``a`` runs already started
    need a tile of this rank and ``b`` of the next one; ``n`` tiles of this rank. The ``r``
    tiles left over after ``a`` (mod 3) start runs. 15 = no split."""
    a, b = divmod(state, 3)
    if state == _NO_SPLIT or n < a:
        return _NO_SPLIT
    r = (n - a) % 3
    return (b + r) * 3 + r


_NO_SPLIT = 15  # a ≤ 4, b ≤ 2: states 0–14; at the end, state 0 = no run left open
_RUN_STEP = tuple(tuple(_run_step(state, n) for n in range(5)) for state in range(16))


NO_TILES: tuple[GroupDecomp, ...] = ((-1, (), ()),)  # the one split of no tiles


def combine(per_group: list[tuple[GroupDecomp, ...]]) -> tuple[GroupDecomp, ...]:
    """The hand's decompositions from its groups' (in group order, as ``product``)."""
    if len(per_group) == 1:
        return per_group[0]
    if not per_group:
        return NO_TILES
    out: list[GroupDecomp] = []
    for combo in product(*per_group):
        pair = -1
        trips: tuple[int, ...] = ()
        runs: tuple[int, ...] = ()
        for p, t, r in combo:
            if p >= 0:
                pair = p
            trips += t
            runs += r
        out.append((pair, trips, runs))
    return tuple(out)


def combine3(
    before: tuple[GroupDecomp, ...], mid: tuple[GroupDecomp, ...], after: tuple[GroupDecomp, ...]
) -> tuple[GroupDecomp, ...]:
    """:func:`combine` of three parts (each already combined), in ``product`` order."""
    out = []
    for bp, bt, br in before:
        for mp, mt, mr in mid:
            for ap, at, ar in after:
                pair = ap if ap >= 0 else mp if mp >= 0 else bp
                out.append((pair, bt + mt + at, br + mr + ar))
    return tuple(out)


@lru_cache(maxsize=1 << 16)  # bounded: a server sees arbitrary hands
def group_additions(counts: tuple[int, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """For one group (suits share the table): ``(rank index, flags, counts after)`` of each
    kind whose addition leaves a decomposable group.

    Only a kind within two ranks of a held one (honors: a held one) can complete anything,
    and a whole-sets group plus one tile never can.
    """
    total = sum(counts)
    if total % 3 == 0:
        return ()
    honors = len(counts) == 7
    reach = 0 if honors else 2
    weighted = sum(map(mul, _RANKS, counts))
    out = []
    g = list(counts)
    for i in range(len(g)):
        if g[i] >= 4 or not any(counts[max(i - reach, 0) : i + reach + 1]):
            continue
        g[i] += 1
        f = _flags(g, (total + 1) % 3, weighted + i, honors)
        g[i] -= 1
        if f:
            out.append((i, f, counts[:i] + (counts[i] + 1,) + counts[i + 1 :]))
    return tuple(out)


@cache
def receivers(flags: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """For the four groups' flags: ``(group, accept)`` of each group that may take the winning
    tile, where a kind added to it counts when its new flags meet ``accept`` (2: the group
    must then hold the pair, the others being whole sets; 1: whole sets, another group
    holding the pair). At most 256 keys."""
    out = []
    for gi in range(4):
        others = [flags[j] for j in range(4) if j != gi]
        if 0 in others:
            continue
        all_sets = all(f & 1 for f in others)
        one_pair = any(
            others[i] & 2 and all(others[j] & 1 for j in range(3) if j != i) for i in range(3)
        )
        accept = (2 if all_sets else 0) | (1 if one_pair else 0)
        if accept:
            out.append((gi, accept))
    return tuple(out)
