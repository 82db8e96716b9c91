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
from itertools import product
from typing import Final

# A group decomposition: (pair kind or -1, triplet kinds, run start kinds)
GroupDecomp = tuple[int, tuple[int, ...], tuple[int, ...]]
GROUP_BASES: Final = (0, 9, 18, 27)
NO_TILES: Final[tuple[GroupDecomp, ...]] = ((-1, (), ()),)  # the one split of no tiles

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


def _enumerate(*groups: int) -> dict[int, tuple[GroupDecomp, ...]]:
    """Every whole pattern of each group of ``ranks`` kinds (9: a suit, 7: the honors, no
    runs) by its :func:`pattern_code`, with its decompositions in split order (rank indices),
    all in one dictionary (an honors code is tagged, so no two groups share a code; filled in
    place rather than merged from one dictionary a group: a copy of 22,000 entries less at
    every start-up).

    Split order is the order of a depth-first split that tries, at the lowest rank left, a
    triplet, then a pair, then a run starting there, keeping each decomposition where it first
    appears: the order ties between readings depend on. Two decompositions of one pattern
    first differ in the sets they start at some rank, every lower rank alike; there the one
    with a triplet comes first, then the one with the pair, then the one with more runs. So
    choosing rank by rank, lowest first, the triplet before none, the pair before none and
    more runs before fewer, meets every pattern's decompositions already in that order.
    """
    found: dict[int, tuple[GroupDecomp, ...]] = {}
    for ranks in groups:
        _choose(found, ranks, 0, HONOR_TAG if ranks == 7 else 0, 4, -1, (), ())
    return found


def _choose(
    found: dict[int, tuple[GroupDecomp, ...]],
    ranks: int,
    rank: int,
    code: int,
    sets_left: int,
    pair: int,
    trips: tuple[int, ...],
    runs: tuple[int, ...],
) -> None:
    """The sets starting at ``rank`` and above, on top of those chosen below it (``code``:
    the pattern so far, runs from below included; a kind has four tiles). Written for the
    compiled engine, where it runs at every start-up: native loops and no calls of builtins."""
    while rank < ranks and (sets_left or pair < 0):
        shift = 3 * rank
        held = code >> shift & 7
        # runs start at most at the seventh rank (the honors form none), a tile on the next
        next_room = 4 - (code >> shift + 3 & 7) if ranks == 9 and rank < 7 else 0
        for trip in range(1, -1, -1):  # a triplet here, then none
            if trip and (sets_left == 0 or held > 1):
                continue
            for with_pair in range(1, -1, -1):  # the pair here, then not
                own = held + 3 * trip + 2 * with_pair
                if with_pair and (pair >= 0 or own > 4):
                    continue
                most = sets_left - trip  # runs here, as many as fit, then fewer
                if most > 4 - own:
                    most = 4 - own
                if most > next_room:
                    most = next_room
                # no set at this rank at all comes last: the loop goes on to the next rank
                least = 0 if trip or with_pair else 1
                for n_runs in range(most, least - 1, -1):
                    _choose(
                        found,
                        ranks,
                        rank + 1,
                        code + (own - held << shift) + n_runs * (0o111 << shift),
                        sets_left - trip - n_runs,
                        rank if with_pair else pair,
                        trips + (rank,) if trip else trips,
                        runs + (rank,) * n_runs if n_runs else runs,
                    )
        rank += 1
    # nothing more to choose (most patterns have one decomposition: a tuple at once)
    before = found.get(code)
    found[code] = ((pair, trips, runs),) if before is None else (*before, (pair, trips, runs))


#: :func:`pattern_code` → the whole pattern's decompositions in rank indices
DECOMPS_BY_CODE: Final = _enumerate(9, 7)


def code_flags(code: int) -> int:
    """:func:`group_flags` of a :func:`pattern_code`: bit 1, whole sets; bit 2, sets plus one
    pair (as its decompositions hold a pair or not: all of them alike, by its tile count mod 3);
    0, neither. Read off the decompositions rather than kept in a table of its own: filling
    one with 22,000 entries cost more at every start-up than the few patterns a hand meets
    for the first time."""
    ds = DECOMPS_BY_CODE.get(code)
    if ds is None:
        return 0
    return 2 if ds[0][0] >= 0 else 1


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
    return code_flags(pattern_code(counts))


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
            flags = code_flags(after)
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
    # (bit tests rather than all()/any() over generator expressions: compiled, each of those
    # is an object and calls; this runs 256 times at every start-up)
    out = []
    for gi in range(4):
        others = [flags[j] for j in range(4) if j != gi]
        if 0 in others:
            continue
        a, b, c = others
        all_sets = bool(a & b & c & 1)
        # one other can take the pair, the other two whole sets
        one_pair = bool(a & 2 and b & c & 1 or b & 2 and a & c & 1 or c & 2 and a & b & 1)
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
