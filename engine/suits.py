"""One suit's (or the honors') count pattern → its decompositions, whether it can be whole
sets or sets plus a pair, and which added kinds complete it: the per-suit tables of the
table-driven decomposition (:mod:`engine.decompose`).

Every pattern that splits into sets and at most one pair (21,743 for a suit of 9 ranks, a few
dozen for the 7 honors, which form no runs) is enumerated once at import from the multisets of
at most four sets plus an optional pair (about 50 ms): a whole pattern's decompositions and
its flags are then one dictionary lookup. Any other pattern of at most 14 tiles (all a hand
holds in one suit) is not a whole group. Which kinds complete a part-hand pattern is still
worked out on first sight and cached. The three suits share the rank tables.

>>> group_decomps(9, (3, 1, 1, 1, 0, 0, 0, 0, 0))
((-1, (9,), (10,)),)
>>> [(i, f) for i, f, _ in group_additions((0, 1, 1, 0, 0, 0, 0, 0, 0))]
[(0, 1), (3, 1)]
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Final

# A group decomposition: (pair kind or -1, triplet kinds, run start kinds)
GroupDecomp = tuple[int, tuple[int, ...], tuple[int, ...]]
GROUP_BASES: Final = (0, 9, 18, 27)
NO_TILES: Final[tuple[GroupDecomp, ...]] = ((-1, (), ()),)  # the one split of no tiles

_TRIPLET, _PAIR, _RUN = 0, 1, 2  # the order in which a split tries the sets at a rank


def _split_order(pair: int, trips: tuple[int, ...], runs: tuple[int, ...]) -> list[int]:
    """The position of a decomposition in the order ties between readings depend on: rank by
    rank, the lowest rank's triplet before its pair before its runs (a depth-first split that
    tries a triplet, a pair, then a run at the lowest rank left; a decomposition appears where
    its first such split does). Two decompositions of one pattern first differ at the lowest
    rank left, so sorting the sets as ``3·rank + kind`` gives that order."""
    key = [3 * t + _TRIPLET for t in trips] + [3 * r + _RUN for r in runs]
    if pair >= 0:
        key.append(3 * pair + _PAIR)
    key.sort()
    return key


#: the tag of an honors pattern's code (:func:`pattern_code`), above a suit's 27 bits
HONOR_TAG: Final = 1 << 27


def pattern_code(counts: tuple[int, ...]) -> int:
    """One group's count pattern (counts 0–4: a kind has four tiles) as one int, three bits
    a rank (rank 0 lowest), honors tagged: the fold's tables are keyed by it (an int hashes
    and compares at once, a tuple of nine counts element by element), and a kind added is
    ``+ 1 << 3 * rank``.

    >>> pattern_code((3, 1, 1, 1, 0, 0, 0, 0, 0)) == 3 | 1 << 3 | 1 << 6 | 1 << 9
    True
    """
    code = 0
    for i in range(len(counts) - 1, -1, -1):
        code = code << 3 | counts[i]
    return code | HONOR_TAG if len(counts) == 7 else code


def _enumerate(ranks: int) -> dict[int, tuple[GroupDecomp, ...]]:
    """Every whole pattern of a group of ``ranks`` kinds (9: a suit, 7: the honors, no runs)
    by its :func:`pattern_code`, with its decompositions in split order (rank indices)."""
    n_runs = ranks - 2 if ranks == 9 else 0
    tag = HONOR_TAG if ranks == 7 else 0
    found: dict[int, list[GroupDecomp]] = {}
    for n_sets in range(5):
        for sets in combinations_with_replacement(range(ranks + n_runs), n_sets):
            c = [0] * ranks
            code = tag
            for s in sets:
                if s < ranks:
                    c[s] += 3
                    code += 3 << 3 * s
                else:
                    c[s - ranks] += 1
                    c[s - ranks + 1] += 1
                    c[s - ranks + 2] += 1
                    code += 0o111 << 3 * (s - ranks)
            if max(c, default=0) > 4:
                continue
            trips = tuple(s for s in sets if s < ranks)
            runs = tuple(s - ranks for s in sets if s >= ranks)
            for pair in range(-1, ranks):
                if pair >= 0 and c[pair] > 2:
                    continue
                key = code + (2 << 3 * pair if pair >= 0 else 0)
                entry = found.get(key)
                if entry is None:
                    entry = found[key] = []
                entry.append((pair, trips, runs))
    return {
        key: tuple(sorted(d, key=lambda x: _split_order(*x))) if len(d) > 1 else (d[0],)
        for key, d in found.items()
    }


#: :func:`pattern_code` → the whole pattern's decompositions in rank indices
DECOMPS_BY_CODE: Final = {**_enumerate(9), **_enumerate(7)}
#: :func:`pattern_code` → :func:`group_flags` of the whole patterns (bit 1: whole sets, bit
#: 2: sets plus one pair, as its decompositions hold a pair or not)
FLAGS_BY_CODE: Final = {code: 2 if ds[0][0] >= 0 else 1 for code, ds in DECOMPS_BY_CODE.items()}
#: group base → {whole pattern: its decompositions in kind indices}, filled as asked for
_BY_GROUP: Final[dict[int, dict[tuple[int, ...], tuple[GroupDecomp, ...]]]] = {
    b: {} for b in GROUP_BASES
}


def group_decomps(base: int, counts: tuple[int, ...]) -> tuple[GroupDecomp, ...]:
    """All ways to split one suit's (or the honors') tiles into sets and at most one pair.

    ``base`` is the group's first kind index (27 = honors, which form no runs). The kind-index
    form of a whole pattern is kept per group once asked for (bounded by the whole patterns:
    a plain dict per group, cheaper to look up than a cache keyed by ``(base, counts)``).

    >>> group_decomps(9, (3, 1, 1, 1, 0, 0, 0, 0, 0))
    ((-1, (9,), (10,)),)
    >>> group_decomps(9, (3, 1, 1, 0, 0, 0, 0, 0, 0))
    ((9, (), (9,)),)
    >>> group_decomps(9, (1, 1, 0, 0, 0, 0, 0, 0, 0))
    ()
    """
    table = _BY_GROUP[base]
    found = table.get(counts)
    if found is not None:
        return found
    ranked = DECOMPS_BY_CODE.get(pattern_code(counts))
    if ranked is None:
        return ()  # not a whole pattern (not stored: a server sees arbitrary hands)
    found = table[counts] = tuple(
        (
            pair + base if pair >= 0 else -1,
            tuple(t + base for t in trips),
            tuple(r + base for r in runs),
        )
        for pair, trips, runs in ranked
    )
    return found


def group_flags(counts: tuple[int, ...]) -> int:
    """Bit 1: the group can be whole sets; bit 2: whole sets plus one pair (0: neither).

    ``counts`` are one suit's 9 kinds or the 7 honors; the answer does not depend on which
    suit. A tile count ≡ 0 mod 3 can only be whole sets, ≡ 2 only sets plus a pair.

    >>> group_flags((3, 1, 1, 1, 0, 0, 0, 0, 0)), group_flags((3, 1, 1, 0, 0, 0, 0, 0, 0))
    (1, 2)
    """
    return FLAGS_BY_CODE.get(pattern_code(counts), 0)


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


def completing_code(code: int) -> tuple[int, ...]:
    """Each kind whose addition leaves a decomposable group, for a :func:`pattern_code`:
    ``rank | flags after << 4 | code after << 6`` (:func:`group_flags`).

    Only a kind within two ranks of a held one (honors: a held one) can complete anything,
    and a whole-sets group plus one tile never can. A kind added is a sum on the code: a
    pattern met for the first time pays up to nine lookups of an int.
    """
    total = near = 0
    n = 7 if code >= HONOR_TAG else 9
    spread = 0b100 if n == 7 else 0b11111  # ranks i-2 … i+2 / i alone, shifted by 2
    for i in range(n):
        c = code >> 3 * i & 7
        if c:
            near |= spread << i
            total += c
    if total % 3 == 0:
        return ()
    near = near >> 2 & (1 << n) - 1
    out = []
    for i in range(n):
        if near >> i & 1 and code >> 3 * i & 7 < 4:
            after = code + (1 << 3 * i)
            flags = FLAGS_BY_CODE.get(after, 0)
            if flags:
                out.append(i | flags << 4 | after << 6)
    return tuple(out)


@lru_cache(maxsize=1 << 16)  # bounded: a server sees arbitrary hands
def group_additions(counts: tuple[int, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """For one group (suits share the table): ``(rank index, flags, counts after)`` of each
    kind whose addition leaves a decomposable group (:func:`completing_code`, kept)."""
    out = []
    for a in completing_code(pattern_code(counts)):
        after = list(counts)
        after[a & 15] += 1
        out.append((a & 15, a >> 4 & 3, tuple(after)))
    return tuple(out)


def _receivers(flags: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
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


#: for the four groups' flags packed two bits a group (``f0 | f1 << 2 | f2 << 4 | f3 << 6``):
#: ``(group, accept)`` of each group that may take the winning tile, where a kind added to it
#: counts when its new flags meet ``accept`` (2: the group must then hold the pair, the others
#: being whole sets; 1: whole sets, another group holding the pair)
RECEIVERS: Final = tuple(
    _receivers((m & 3, m >> 2 & 3, m >> 4 & 3, m >> 6 & 3)) for m in range(256)
)
