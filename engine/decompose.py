"""Table-driven hand decomposition and shape waits (integer kind indices throughout).

Each suit (and the honors) is decomposed on its own from its count tuple; the per-suit tables
(flags, decompositions, which added kinds complete the group) are filled lazily and keyed by
the counts alone, so the three suits share them and every count pattern is worked out once per
process. A hand is complete when exactly one group supplies the pair and the others are whole
sets. :func:`completions` reads the 13 tiles once and gives every wait (§18, §29) with the
decompositions of its completed tiles: the groups that do not take the winning tile keep theirs.
Chiitoitsu (7 distinct pairs, §20) and kokushi are the two other win shapes; shiisan puutaa
(§"十三不塔") is checked separately by :func:`is_shiisan_puutaa`.

>>> c = [0] * 34
>>> for k in (9, 10, 11, 12, 13, 14, 15, 16, 17, 27, 27, 33, 33):
...     c[k] += 1
>>> [k for k in shape_waits(tuple(c), frozenset(range(34)))]
[27, 33]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from itertools import compress, product
from operator import mul
from typing import NamedTuple

from engine.parse import Meld
from engine.tiles import HONORS, IS_TERMINAL, TERMINALS, TERMINALS_HONORS

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
        return _NOTHING
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


def standard_decomps(counts: tuple[int, ...]) -> tuple[GroupDecomp, ...]:
    """Every split of the concealed tiles into sets plus exactly one pair (may be empty),
    from the per-group tables."""
    per_group = []
    pair_groups = 0
    for base in GROUP_BASES:
        g = counts[base : base + 9] if base < 27 else counts[27:34]
        rest = sum(g) % 3  # ≡ 2: every split of the group has the pair, ≡ 0: none has
        if rest == 1:
            return ()
        if rest == 2:
            pair_groups += 1
        if any(g):
            if not group_flags(g):
                return ()
            per_group.append(group_decomps(base, g))
    return _combine(per_group) if pair_groups == 1 else ()


_NOTHING: tuple[GroupDecomp, ...] = ((-1, (), ()),)  # the one split of no tiles


def _combine(per_group: list[tuple[GroupDecomp, ...]]) -> tuple[GroupDecomp, ...]:
    """The hand's decompositions from its groups' (in group order, as ``product``)."""
    if len(per_group) == 1:
        return per_group[0]
    if not per_group:
        return _NOTHING
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


def _join(
    before: tuple[GroupDecomp, ...], mid: tuple[GroupDecomp, ...], after: tuple[GroupDecomp, ...]
) -> tuple[GroupDecomp, ...]:
    """:func:`_combine` of three parts (each already combined), in ``product`` order."""
    out = []
    for bp, bt, br in before:
        for mp, mt, mr in mid:
            for ap, at, ar in after:
                pair = ap if ap >= 0 else mp if mp >= 0 else bp
                out.append((pair, bt + mt + at, br + mr + ar))
    return tuple(out)


def is_chiitoitsu(counts: tuple[int, ...]) -> bool:
    """Seven distinct pairs (a four of a kind is not two pairs)."""
    return counts.count(2) == 7


@cache
def kokushi_kinds(kinds: frozenset[int]) -> tuple[int, ...]:
    return tuple(sorted(k for k in TERMINALS_HONORS if k in kinds))


def is_kokushi(counts: tuple[int, ...], kinds: frozenset[int]) -> bool:
    """One of each terminal and honor plus a pair of one of them (國士無双)."""
    kk = kokushi_kinds(kinds)
    if len(counts) - counts.count(0) != len(kk):  # quick reject: one of each kind
        return False
    return (
        sum(counts) == 14 and all(counts[k] >= 1 for k in kk) and sum(counts[k] for k in kk) == 14
    )


def is_shiisan_puutaa(counts: tuple[int, ...]) -> bool:
    """十三不塔: 14 tiles, exactly one pair, no other pair, no two suit tiles 1 or 2 apart."""
    if sum(counts) != 14:
        return False
    pairs = 0
    for c in counts:
        if c > 2:
            return False
        if c == 2:
            pairs += 1
    if pairs != 1:
        return False
    for base in (0, 9, 18):
        last = -9
        for i in range(9):
            if counts[base + i]:
                if i - last <= 2:
                    return False
                last = i
    return True


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
def _receivers(flags: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
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


Completion = tuple[int, tuple[GroupDecomp, ...]]  # (winning kind, its standard decompositions)


def completions(counts: tuple[int, ...], kinds: frozenset[int]) -> list[Completion]:
    """Each kind that completes the concealed tiles (13 − 3·melds of them), by shape alone,
    with the standard decompositions of the completed tiles (empty for a chiitoitsu or
    kokushi wait only): one pass over the 13 tiles gives every wait's decompositions.

    The groups that do not take the winning tile keep their decompositions; the one that
    takes it looks its new pattern up. The caller removes kinds the player already holds all
    four of (RULES.md §18, §29).
    """
    groups = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    flags = (
        group_flags(groups[0]),
        group_flags(groups[1]),
        group_flags(groups[2]),
        group_flags(groups[3]),
    )
    found: dict[int, tuple[GroupDecomp, ...]] = {}
    for gi, accept in _receivers(flags):
        base = GROUP_BASES[gi]
        # the other groups keep their decompositions: combined once, before and after the
        # taker's in group order (the order ``product`` gives, which ties between readings
        # depend on)
        before = _combine(
            [group_decomps(GROUP_BASES[j], groups[j]) for j in range(gi) if any(groups[j])]
        )
        after = _combine(
            [group_decomps(GROUP_BASES[j], groups[j]) for j in range(gi + 1, 4) if any(groups[j])]
        )
        for i, f, added in group_additions(groups[gi]):
            if f & accept:
                found[base + i] = _join(before, group_decomps(base, added), after)
    if sum(counts) == 13:
        if counts.count(2) == 6 and counts.count(1) == 1:  # chiitoitsu tanki
            found.setdefault(counts.index(1), ())
        kk = kokushi_kinds(kinds)
        distinct = len(counts) - counts.count(0)
        if distinct >= len(kk) - 1 and sum(counts[k] for k in kk) == 13:
            missing = [k for k in kk if counts[k] == 0]
            if len(missing) <= 1:  # 13-sided with none missing, else the missing one
                for k in missing or kk:
                    found.setdefault(k, ())
    return [(k, found[k]) for k in sorted(found) if k in kinds]


def shape_waits(counts: tuple[int, ...], kinds: frozenset[int]) -> list[int]:
    """Kinds that complete the concealed tiles, by shape alone (see :func:`completions`)."""
    return [k for k, _ in completions(counts, kinds)]


# --------------------------------------------------------------------------------------------
# Readings: one decomposition of a completed hand together with the role of the winning tile.
# HandFacts, Pung and Reading are immutable NamedTuples: value types that are cheap to build
# in the hot loop (a frozen dataclass's __init__ costs several times more).

STANDARD, CHIITOITSU, KOKUSHI, SHIISAN = "standard", "chiitoitsu", "kokushi", "shiisan_puutaa"


class Pung(NamedTuple):
    """A triplet or kan in a reading: kind, concealed (ankou/ankan), kan."""

    kind: int
    concealed: bool
    kan: bool


class HandFacts(NamedTuple):
    """What every reading of one completed hand shares (no reading-specific structure).

    ``counts`` are the concealed shape kinds including the winning tile; ``all_kinds`` the
    kinds in hand and melds (extracted kita are not part of the shape, RULES.md Notes).
    """

    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win: int
    closed: bool
    all_kinds: frozenset[int]
    n_kans: int
    # derived from all_kinds (computed once; the yaku tests read them)
    has_honor: bool = False
    has_terminal: bool = False
    all_honor: bool = False
    all_terminal: bool = False
    all_th: bool = False
    n_suits: int = 0
    only_suit: int = -1  # the one suit used (0 m, 1 p, 2 s), or -1
    # the melds as parts of every reading: chi start kinds and pon/kan triplets
    meld_runs: tuple[int, ...] = ()
    meld_pungs: tuple[Pung, ...] = ()

    @property
    def pre_win(self) -> tuple[int, ...]:
        c = list(self.counts)
        c[self.win] -= 1
        return tuple(c)


class Reading(NamedTuple):
    """One way to read a completed hand (RULES.md: the highest-scoring reading wins).

    ``wait`` is the winning tile's role: ryanmen, kanchan, penchan, tanki, shanpon (standard),
    tanki (chiitoitsu), kokushi / kokushi_13, or none (shiisan puutaa).
    """

    facts: HandFacts
    form: str
    pair: int
    runs: tuple[int, ...]
    pungs: tuple[Pung, ...]
    wait: str

    @property
    def concealed_pungs(self) -> int:
        n = 0
        for p in self.pungs:
            if p.concealed:
                n += 1
        return n


def hand_facts(
    counts: tuple[int, ...], melds: tuple[Meld, ...], win: int, extra_kinds: tuple[int, ...] = ()
) -> HandFacts:
    """Facts of a completed hand; ``extra_kinds`` join the shape's kinds (option
    ``kita_counts_in_shape``: a north for the extracted kita)."""
    if melds or extra_kinds:
        kinds = set(compress(range(34), counts))
        kinds.update(extra_kinds)
        for m in melds:
            kinds.update((m.tile, m.tile + 1, m.tile + 2) if m.is_run else (m.tile,))
        fk = frozenset(kinds)
    else:
        fk = frozenset(compress(range(34), counts))
    suits = [i for i, ss in enumerate(_SUIT_SETS) if not fk.isdisjoint(ss)]
    if melds:
        closed = not any(m.is_open for m in melds)
        n_kans = sum(1 for m in melds if m.is_kan)
        meld_runs = tuple(m.tile for m in melds if m.is_run)
        meld_pungs = tuple(Pung(m.tile, not m.is_open, m.is_kan) for m in melds if not m.is_run)
    else:
        closed, n_kans, meld_runs, meld_pungs = True, 0, (), ()
    return HandFacts(  # positional: the field order of HandFacts
        counts,
        melds,
        win,
        closed,
        fk,
        n_kans,
        not fk.isdisjoint(HONORS),
        not fk.isdisjoint(TERMINALS),
        fk <= HONORS,
        fk <= TERMINALS,
        fk <= TERMINALS_HONORS,
        len(suits),
        suits[0] if len(suits) == 1 else -1,
        meld_runs,
        meld_pungs,
    )


_SUIT_SETS = (frozenset(range(0, 9)), frozenset(range(9, 18)), frozenset(range(18, 27)))


def facts_maker(
    concealed: tuple[int, ...], melds: tuple[Meld, ...], extra_kinds: tuple[int, ...] = ()
) -> Callable[[int], HandFacts]:
    """``win → hand_facts(concealed + win, melds, win, extra_kinds)`` for many winning kinds of
    one 13-tile hand: what does not depend on the winning tile is worked out once."""
    base = hand_facts(concealed, melds, -1, extra_kinds)
    fk0 = base.all_kinds
    suits0 = frozenset([i for i, ss in enumerate(_SUIT_SETS) if not fk0.isdisjoint(ss)])
    closed, n_kans = base.closed, base.n_kans
    has_honor, has_terminal = base.has_honor, base.has_terminal
    all_honor, all_terminal, all_th = base.all_honor, base.all_terminal, base.all_th
    meld_runs, meld_pungs = base.meld_runs, base.meld_pungs
    new = tuple.__new__

    def make(win: int) -> HandFacts:
        counts = list(concealed)
        counts[win] += 1
        honor, terminal = win >= 27, IS_TERMINAL[win]
        if win in fk0:
            fk, suits = fk0, suits0
        else:
            fk = fk0 | {win}
            suits = suits0 if honor else suits0 | {win // 9}
        # HandFacts without its Python-level __new__ (one per wait): the field order
        return new(
            HandFacts,
            (
                tuple(counts),
                melds,
                win,
                closed,
                fk,
                n_kans,
                has_honor or honor,
                has_terminal or terminal,
                all_honor and honor,
                all_terminal and terminal,
                all_th and (honor or terminal),
                len(suits),
                min(suits) if len(suits) == 1 else -1,
                meld_runs,
                meld_pungs,
            ),
        )

    return make


@lru_cache(maxsize=4096)
def _pungs(trips: tuple[int, ...], opened: int) -> tuple[Pung, ...]:
    """The concealed triplets of a decomposition; the one of kind ``opened`` (a shanpon
    completed by ron) counts as open."""
    return tuple(Pung(t, t != opened, False) for t in trips)


_TANKI, _SHANPON_TSUMO = ("tanki", -1), ("shanpon", -1)
_KANCHAN, _PENCHAN, _RYANMEN = ("kanchan", -1), ("penchan", -1), ("ryanmen", -1)


def readings(
    facts: HandFacts,
    tsumo: bool,
    kinds: frozenset[int],
    allow_shiisan: bool = False,
    decomps: tuple[GroupDecomp, ...] | None = None,
) -> list[Reading]:
    """Every reading of a completed hand; empty when the tiles are not a win shape.

    ``decomps``: the standard decompositions of ``facts.counts`` when already known
    (:func:`completions`)."""
    win = facts.win
    meld_runs, meld_pungs = facts.meld_runs, facts.meld_pungs
    out: list[Reading] = []
    counts = facts.counts
    if decomps is None:
        decomps = standard_decomps(counts)
    new = tuple.__new__  # Reading(...) without the NamedTuple's Python-level __new__
    for pair, trips, runs in decomps:
        all_runs = runs + meld_runs if meld_runs else runs
        roles: list[tuple[str, int]] = []  # (wait, kind of the pung opened by ron or -1)
        if pair == win:
            roles.append(_TANKI)
        if win in trips:
            roles.append(_SHANPON_TSUMO if tsumo else ("shanpon", win))
        for s in set(runs):
            if s <= win <= s + 2:
                pos = win - s
                if pos == 1:
                    roles.append(_KANCHAN)
                elif (pos == 0 and s % 9 == 6) or (pos == 2 and s % 9 == 0):
                    roles.append(_PENCHAN)
                else:
                    roles.append(_RYANMEN)
        for wait, opened in dict.fromkeys(roles) if len(roles) > 1 else roles:
            pungs = _pungs(trips, opened)
            if meld_pungs:
                pungs += meld_pungs
            out.append(new(Reading, (facts, STANDARD, pair, all_runs, pungs, wait)))
    if not facts.melds and sum(counts) == 14:
        if is_chiitoitsu(counts):
            out.append(Reading(facts, CHIITOITSU, win, (), (), "tanki"))
        if is_kokushi(counts, kinds):
            pre = facts.pre_win
            thirteen = all(pre[k] == 1 for k in kokushi_kinds(kinds))
            pair = next(k for k in kokushi_kinds(kinds) if counts[k] == 2)
            out.append(
                Reading(facts, KOKUSHI, pair, (), (), "kokushi_13" if thirteen else "kokushi")
            )
        if allow_shiisan and is_shiisan_puutaa(counts):
            pair = next(k for k, c in enumerate(counts) if c == 2)
            out.append(Reading(facts, SHIISAN, pair, (), (), "none"))
    return out
