"""Table-driven hand decomposition and shape waits (integer kind indices throughout).

Each suit (and the honors) is decomposed on its own from its count tuple through the
per-suit tables of :mod:`engine.suits`. A hand is complete when exactly one group supplies the
pair and the others are whole sets. :func:`completions` reads the 13 tiles once and gives every
wait (§18, §29) with the decompositions of its completed tiles: the groups that do not take the
winning tile keep theirs.
Chiitoitsu (7 distinct pairs, §20; a concealed four of a kind may be two of them under the
option ``chiitoitsu_four_of_a_kind``) and kokushi are the two other win shapes; shiisan puutaa
(§"十三不塔") is checked separately by :func:`is_shiisan_puutaa`.

>>> c = [0] * 34
>>> for k in (9, 10, 11, 12, 13, 14, 15, 16, 17, 27, 27, 33, 33):
...     c[k] += 1
>>> [k for k in shape_waits(tuple(c), frozenset(range(34)))]
[27, 33]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import compress
from typing import Final

from sanma_lens.engine.parse import Meld
from sanma_lens.engine.suits import (
    GROUP_BASES,
    RECEIVERS,
    GroupDecomp,
    combine,
    combine3,
    group_additions,
    group_decomps,
    group_flags,
)
from sanma_lens.engine.tiles import HONORS, IS_TERMINAL, TERMINALS, TERMINALS_HONORS
from sanma_lens.engine.values import Value


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
    return combine(per_group) if pair_groups == 1 else ()


def is_chiitoitsu(counts: tuple[int, ...], fours: bool = False) -> bool:
    """Seven distinct pairs; with ``fours`` (option ``chiitoitsu_four_of_a_kind``, 七対子の
    四枚使い) a four of a kind counts as two pairs, so any 14 tiles of even counts."""
    if counts.count(2) == 7:
        return True
    return fours and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def chiitoitsu_wait(counts: tuple[int, ...], fours: bool = False) -> int:
    """The kind a 13-tile concealed hand waits on for chiitoitsu (tanki on its one odd
    kind), or -1; with ``fours`` a four of a kind held counts as two pairs, and a three of a
    kind waits on its fourth."""
    if counts.count(2) == 6 and counts.count(1) == 1:
        return counts.index(1)
    if not fours or sum(counts) != 13 or sum(c // 2 for c in counts) != 6:
        return -1
    return next(k for k, c in enumerate(counts) if c % 2)  # (13 tiles: exactly one odd)


_KOKUSHI: Final[dict[frozenset[int], tuple[int, ...]]] = {}  # by rule set's kinds (a few)


def kokushi_kinds(kinds: frozenset[int]) -> tuple[int, ...]:
    """The kinds a kokushi takes among ``kinds`` (a plain dict: the fold asks on every
    hand, and a cached function's call costs several dictionary lookups)."""
    found = _KOKUSHI.get(kinds)
    if found is None:
        found = _KOKUSHI[kinds] = tuple(sorted(k for k in TERMINALS_HONORS if k in kinds))
    return found


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


Completion = tuple[int, tuple[GroupDecomp, ...]]  # (winning kind, its standard decompositions)


def completions(
    counts: tuple[int, ...], kinds: frozenset[int], fours: bool = False
) -> list[Completion]:
    """Each kind that completes the concealed tiles (13 − 3·melds of them), by shape alone,
    with the standard decompositions of the completed tiles (empty for a chiitoitsu or
    kokushi wait only): one pass over the 13 tiles gives every wait's decompositions.
    ``fours``: option ``chiitoitsu_four_of_a_kind`` (:func:`chiitoitsu_wait`).

    The groups that do not take the winning tile keep their decompositions; the one that
    takes it looks its new pattern up. The caller removes kinds the player already holds all
    four of (docs/rules.md §18, §29).
    """
    groups = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    flags = (
        group_flags(groups[0]),
        group_flags(groups[1]),
        group_flags(groups[2]),
        group_flags(groups[3]),
    )
    found: dict[int, tuple[GroupDecomp, ...]] = {}
    takers = RECEIVERS[flags[0] | flags[1] << 2 | flags[2] << 4 | flags[3] << 6]
    if takers:
        # each held whole group's decompositions, looked up once for every taker (written
        # out: a comprehension costs more than the four lookups)
        g0, g1, g2, g3 = groups
        held = (
            group_decomps(0, g0) if flags[0] and any(g0) else None,
            group_decomps(9, g1) if flags[1] and any(g1) else None,
            group_decomps(18, g2) if flags[2] and any(g2) else None,
            group_decomps(27, g3) if flags[3] and any(g3) else None,
        )
    for gi, accept in takers:
        base = GROUP_BASES[gi]
        # the other groups keep their decompositions: combined once, before and after the
        # taker's in group order (the order ``product`` gives, which ties between readings
        # depend on)
        before = combine([d for d in held[:gi] if d is not None])
        after = combine([d for d in held[gi + 1 :] if d is not None])
        for i, f, added in group_additions(groups[gi]):
            if f & accept:
                found[base + i] = combine3(before, group_decomps(base, added), after)
    if sum(counts) == 13:  # chiitoitsu and kokushi waits (quick rejects by kinds held)
        distinct = len(counts) - counts.count(0)
        if distinct == 7 and counts.count(2) == 6:  # chiitoitsu tanki (the 7th kind single)
            found.setdefault(counts.index(1), ())
        elif fours and distinct < 7:  # a four of a kind as two pairs (or three and the 4th)
            seven = chiitoitsu_wait(counts, True)
            if seven >= 0:
                found.setdefault(seven, ())
        kk = kokushi_kinds(kinds)
        if distinct >= len(kk) - 1 and sum([counts[k] for k in kk]) == 13:
            missing = [k for k in kk if counts[k] == 0]
            if len(missing) <= 1:  # 13-sided with none missing, else the missing one
                for k in missing or kk:
                    found.setdefault(k, ())
    if len(found) == 1:
        k = next(iter(found))
        return [(k, found[k])] if k in kinds else []
    return [(k, found[k]) for k in sorted(found) if k in kinds]


def shape_waits(counts: tuple[int, ...], kinds: frozenset[int], fours: bool = False) -> list[int]:
    """Kinds that complete the concealed tiles, by shape alone (see :func:`completions`)."""
    return [k for k, _ in completions(counts, kinds, fours)]


# --------------------------------------------------------------------------------------------
# Readings: one decomposition of a completed hand together with the role of the winning tile.
# HandFacts, Pung and Reading are engine.values.Value classes (plain, slotted, never changed
# once built: native classes when compiled).

STANDARD: Final = "standard"
CHIITOITSU: Final = "chiitoitsu"
KOKUSHI: Final = "kokushi"
SHIISAN: Final = "shiisan_puutaa"


class Pung(Value):
    """A triplet or kan in a reading: kind, concealed (ankou/ankan), kan."""

    __slots__ = ("kind", "concealed", "kan")

    def __init__(self, kind: int, concealed: bool, kan: bool) -> None:
        self.kind = kind
        self.concealed = concealed
        self.kan = kan

    def _key(self) -> tuple[object, ...]:
        return self.kind, self.concealed, self.kan


class HandFacts(Value):
    """What every reading of one completed hand shares (no reading-specific structure).

    ``counts`` are the concealed shape kinds including the winning tile; ``extra_kinds``
    the kinds that join the shape besides hand and melds (option ``kita_counts_in_shape``: a
    north for the extracted kita; otherwise extracted kita are not part of the shape,
    docs/rules.md Notes). The set of kinds itself (:attr:`all_kinds`) is worked out only when a
    test reads it: two one-suit yaku do, and a frozenset per completed hand is among the
    costliest parts of building one.

    The fields after ``n_kans`` are derived from the kinds held (computed once; the yaku
    tests read them): ``only_suit`` is the one suit used (0 m, 1 p, 2 s) or -1;
    ``meld_runs`` and ``meld_pungs`` are the melds as parts of every reading (chi start
    kinds, pon/kan triplets).
    """

    __slots__ = (
        "counts", "melds", "win", "closed", "extra_kinds", "n_kans", "has_honor",
        "has_terminal", "all_honor", "all_terminal", "all_th", "n_suits", "only_suit",
        "meld_runs", "meld_pungs",
    )  # fmt: skip

    def __init__(
        self,
        counts: tuple[int, ...],
        melds: tuple[Meld, ...],
        win: int,
        closed: bool,
        extra_kinds: tuple[int, ...],
        n_kans: int,
        has_honor: bool = False,
        has_terminal: bool = False,
        all_honor: bool = False,
        all_terminal: bool = False,
        all_th: bool = False,
        n_suits: int = 0,
        only_suit: int = -1,
        meld_runs: tuple[int, ...] = (),
        meld_pungs: tuple[Pung, ...] = (),
    ) -> None:
        self.counts = counts
        self.melds = melds
        self.win = win
        self.closed = closed
        self.extra_kinds = extra_kinds
        self.n_kans = n_kans
        self.has_honor = has_honor
        self.has_terminal = has_terminal
        self.all_honor = all_honor
        self.all_terminal = all_terminal
        self.all_th = all_th
        self.n_suits = n_suits
        self.only_suit = only_suit
        self.meld_runs = meld_runs
        self.meld_pungs = meld_pungs

    def _key(self) -> tuple[object, ...]:
        return (
            self.counts, self.melds, self.win, self.closed, self.extra_kinds, self.n_kans,
            self.has_honor, self.has_terminal, self.all_honor, self.all_terminal, self.all_th,
            self.n_suits, self.only_suit, self.meld_runs, self.meld_pungs,
        )  # fmt: skip

    @property
    def all_kinds(self) -> frozenset[int]:
        """The kinds in hand and melds, and ``extra_kinds`` (ryuuiisou, beni kujaku)."""
        return shape_kinds(self.counts, self.melds, self.extra_kinds)

    @property
    def pre_win(self) -> tuple[int, ...]:
        c = list(self.counts)
        c[self.win] -= 1
        return tuple(c)


class Reading(Value):
    """One way to read a completed hand (docs/rules.md: the highest-scoring reading wins).

    ``wait`` is the winning tile's role: ryanmen, kanchan, penchan, tanki, shanpon (standard),
    tanki (chiitoitsu), kokushi / kokushi_13, or none (shiisan puutaa).
    """

    __slots__ = ("facts", "form", "pair", "runs", "pungs", "wait")

    def __init__(
        self,
        facts: HandFacts,
        form: str,
        pair: int,
        runs: tuple[int, ...],
        pungs: tuple[Pung, ...],
        wait: str,
    ) -> None:
        self.facts = facts
        self.form = form
        self.pair = pair
        self.runs = runs
        self.pungs = pungs
        self.wait = wait

    def _key(self) -> tuple[object, ...]:
        return self.facts, self.form, self.pair, self.runs, self.pungs, self.wait

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
    fk = shape_kinds(counts, melds, extra_kinds)
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
        extra_kinds,
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


_SUIT_SETS: Final = (frozenset(range(0, 9)), frozenset(range(9, 18)), frozenset(range(18, 27)))
# suit bits (man 1, pin 2, sou 4) → suits
N_SUITS: Final = tuple(bin(b).count("1") for b in range(8))
ONLY_SUIT: Final = (-1, 0, 1, -1, 2, -1, -1, -1)  # suit bits → the one suit held, or -1


def shape_kinds(
    counts: tuple[int, ...], melds: tuple[Meld, ...], extra_kinds: tuple[int, ...]
) -> frozenset[int]:
    """The kinds in the hand's shape: held tiles, every meld's tiles, ``extra_kinds``."""
    if not (melds or extra_kinds):
        return frozenset(compress(range(34), counts))
    kinds = set(compress(range(34), counts))
    kinds.update(extra_kinds)
    for m in melds:
        kinds.update((m.tile, m.tile + 1, m.tile + 2) if m.is_run else (m.tile,))
    return frozenset(kinds)


def facts_maker(
    concealed: tuple[int, ...], melds: tuple[Meld, ...], extra_kinds: tuple[int, ...] = ()
) -> Callable[[int], HandFacts]:
    """``win → hand_facts(concealed + win, melds, win, extra_kinds)`` for many winning kinds of
    one 13-tile hand: what does not depend on the winning tile is worked out once."""
    # the fields of hand_facts(concealed, melds, -1, extra_kinds), without building it
    fk0 = shape_kinds(concealed, melds, extra_kinds)
    man, pin, sou = _SUIT_SETS  # the suits held, as bits (written out: cheaper than a loop)
    suits0 = (
        (not fk0.isdisjoint(man)) | (not fk0.isdisjoint(pin)) << 1 | (not fk0.isdisjoint(sou)) << 2
    )
    has_honor, has_terminal = not fk0.isdisjoint(HONORS), not fk0.isdisjoint(TERMINALS)
    all_honor, all_terminal, all_th = fk0 <= HONORS, fk0 <= TERMINALS, fk0 <= TERMINALS_HONORS
    if melds:
        closed = not any(m.is_open for m in melds)
        n_kans = sum(1 for m in melds if m.is_kan)
        meld_runs = tuple(m.tile for m in melds if m.is_run)
        meld_pungs = tuple(Pung(m.tile, not m.is_open, m.is_kan) for m in melds if not m.is_run)
    else:
        closed, n_kans, meld_runs, meld_pungs = True, 0, (), ()

    def make(win: int) -> HandFacts:
        counts = list(concealed)
        counts[win] += 1
        honor, terminal = win >= 27, IS_TERMINAL[win]
        suits = suits0 if honor else suits0 | 1 << (win // 9)
        return HandFacts(
            tuple(counts),
            melds,
            win,
            closed,
            extra_kinds,
            n_kans,
            has_honor or honor,
            has_terminal or terminal,
            all_honor and honor,
            all_terminal and terminal,
            all_th and (honor or terminal),
            N_SUITS[suits],
            ONLY_SUIT[suits],
            meld_runs,
            meld_pungs,
        )

    return make


@lru_cache(maxsize=4096)
def _pungs(trips: tuple[int, ...], opened: int) -> tuple[Pung, ...]:
    """The concealed triplets of a decomposition; the one of kind ``opened`` (a shanpon
    completed by ron) counts as open."""
    return tuple(Pung(t, t != opened, False) for t in trips)


#: The wait a winning tile makes in a run, by the run's start rank (0–6) and the tile's
#: place in it: kanchan in the middle, penchan as the 3 of 12-3 or the 7 of 7-89, else
#: ryanmen (docs/rules.md fu: kanchan/penchan +2). Shared with :mod:`engine.fold`.
RUN_WAITS: Final = tuple(
    tuple(
        "kanchan"
        if pos == 1
        else "penchan"
        if (pos == 0 and start == 6) or (pos == 2 and start == 0)
        else "ryanmen"
        for pos in range(3)
    )
    for start in range(7)
)
_TANKI, _SHANPON_TSUMO = ("tanki", -1), ("shanpon", -1)
#: (wait, kind of the pung opened by ron or -1) of a run's wait, by kind of the run's start
#: and place (:data:`RUN_WAITS`; honor starts never occur)
_RUN_ROLES: Final = tuple(
    tuple((wait, -1) for wait in RUN_WAITS[start % 9]) if start < 27 and start % 9 < 7 else ()
    for start in range(34)
)


def readings(
    facts: HandFacts,
    tsumo: bool,
    kinds: frozenset[int],
    allow_shiisan: bool = False,
    decomps: tuple[GroupDecomp, ...] | None = None,
    fours: bool = False,
) -> list[Reading]:
    """Every reading of a completed hand; empty when the tiles are not a win shape.

    ``decomps``: the standard decompositions of ``facts.counts`` when already known
    (:func:`completions`); ``fours``: option ``chiitoitsu_four_of_a_kind``
    (:func:`is_chiitoitsu`)."""
    win = facts.win
    meld_runs, meld_pungs = facts.meld_runs, facts.meld_pungs
    out: list[Reading] = []
    counts = facts.counts
    if decomps is None:
        decomps = standard_decomps(counts)
    shanpon = _SHANPON_TSUMO if tsumo else ("shanpon", win)
    for pair, trips, runs in decomps:
        all_runs = runs + meld_runs if meld_runs else runs
        roles: list[tuple[str, int]] = []  # (wait, kind of the pung opened by ron or -1)
        if pair == win:
            roles.append(_TANKI)
        if win in trips:
            roles.append(shanpon)
        first, other = -1, False  # the (first) run the winning tile is in; another one?
        for s in runs:
            if s <= win <= s + 2:
                if first < 0:
                    first = s
                elif s != first:
                    other = True
        if first >= 0:
            # in two runs: each run once, in ``set`` order (ties between readings go to the
            # first reading, so the order is kept as it always was)
            taking = [s for s in set(runs) if s <= win <= s + 2] if other else (first,)
            for s in taking:
                role = _RUN_ROLES[s][win - s]
                if role not in roles:
                    roles.append(role)
        for wait, opened in roles:
            pungs = _pungs(trips, opened) if trips else ()
            if meld_pungs:
                pungs += meld_pungs
            out.append(Reading(facts, STANDARD, pair, all_runs, pungs, wait))
    if not facts.melds and sum(counts) == 14:
        # chiitoitsu (a standard shape too when it is ryanpeikou)
        if counts.count(2) == 7 or (fours and is_chiitoitsu(counts, True)):
            out.append(Reading(facts, CHIITOITSU, win, (), (), "tanki"))
        # kokushi and shiisan puutaa hold no run or triplet: never a standard shape
        if not decomps:
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
