"""Every wait's yaku han in one pass over the 13-tile hand's per-suit groups (§18, §29).

The §18 guarantee (score) and tenpai need, for every wait, the yaku han of the completed
hand's best reading. The reading-by-reading path (:mod:`engine.waits`) builds each completed
hand's facts and readings and runs the yaku tests on them. Here each suit pattern (and the
honors), as an int code of three bits a rank, has a :class:`Group` in rank indices, shared by
the three suits: its decompositions, each packed into one int of features, and, once the
pattern takes a winning tile, each kind that completes it with the completed pattern's
Group; the winning tile's roles are read off the packed decomposition. A reading is then
the sum of at most four packed decompositions plus the melds, and its reading-level yaku are
looked up by a *signature* of what the plan's reading-level tests read: runs, pairs of
identical runs, ittsu, whether every set and the pair hold a terminal or honor, the honor
triplets as yakuhai han units, dragons and winds, the pair as yakuhai, dragon or wind, a
chain of three or four triplets, 三色同刻, the wait as ryanmen, tanki or other, three or four
concealed triplets, an honor held. The first reading of a signature runs the real tests
(:func:`engine.yaku_eval.reading_yaku`); later ones, in any hand, seat or round, reuse the answer
(one table per plan). The whole-hand yaku of a hand that opens no gate (more than one suit,
not all terminals/honors, fewer than three kans) are tanyao's alone, kept by whether an
honor and a terminal are held; of another, they are worked out from its facts.

Left to the reading-by-reading path: the whole hand (``None``) under ``yakuman_exclusive`` or
with ``pinfu_on_tsumo`` off, with a chi, with a kokushi shape, or under a rule table with
reading-level yaku outside :data:`COVERED` or ungated whole-hand yaku other than tanyao; a
single wait (its value ``None``): a chiitoitsu tanki, or one whose readings differ in yaku han
(dora and fu then rank them). For the actual win (``keep``) the fold also hands back its
reading, or its readings' decompositions and yaku, so that the win is not read again.

Groups and signature tables are kept per pattern and per plan (bounded): patterns and
signatures recur across different hands.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from sanma_lens.engine.decompose import (
    N_SUITS,
    ONLY_SUIT,
    RUN_WAITS,
    STANDARD,
    HandFacts,
    Pung,
    Reading,
    chiitoitsu_wait,
    kokushi_kinds,
)
from sanma_lens.engine.parse import HandInput, Meld
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.suits import (
    DECOMPS_BY_CODE,
    HONOR_TAG,
    RECEIVERS,
    GroupDecomp,
    code_flags,
    completing_code,
)
from sanma_lens.engine.tiles import (
    DRAGONS,
    IS_TERMINAL,
    IS_TH,
    NORTH,
    WINDS,
)
from sanma_lens.engine.values import Value
from sanma_lens.engine.yaku import Context, yakuhai_sets, yakuhai_table
from sanma_lens.engine.yaku_eval import (
    Plan,
    combined_han,
    combined_mask,
    reading_yaku,
    situational,
    whole_hand_yaku,
)

# The reading-level yaku whose tests read only what the signature holds (docs/rules.md "Yaku").
COVERED: Final = frozenset(
    {
        "yakuhai",
        "pinfu",
        "kui_pinfu",
        "iipeikou",
        "ittsu",
        "toitoi",
        "chanta",
        "junchan",
        "sanankou",
        "sanrenkou",
        "shousangen",
        "ryanpeikou",
        "sanshoku_doukou",
        "suurenkou",
        "suuankou",
        "daisangen",
        "suushii",
        "shousuushii",
        "daisuushii",
        "suuankou_tanki",
    }
)
#: whole-hand yaku a hand opening no gate may run (they read has_honor / has_terminal only)
UNGATED_HAND: Final = frozenset({"tanyao"})

# The winning tile's role in a reading (engine.decompose.readings' wait names).
TANKI: Final = 0
SHANPON: Final = 1
KANCHAN: Final = 2
PENCHAN: Final = 3
RYANMEN: Final = 4
ROLE_NAMES: Final = ("tanki", "shanpon", "kanchan", "penchan", "ryanmen")

# A decomposition's features, packed into one int so that the decompositions of different groups
# (and the melds) add up field by field; each field is wide enough for a whole hand's count.
_FIELD: Final = 7  # a 3-bit count
_RUN_SHIFT: Final = 0  # runs (3 bits)
_TRIP_SHIFT: Final = 3  # triplets (3 bits)
_RUN_PAIR_SHIFT: Final = 6  # pairs of identical runs, 一盃口 / 二盃口 (3 bits)
_ITTSU_SHIFT: Final = 9  # 一気通貫 (2 bits)
_INSIDE_SHIFT: Final = 11  # sets and pair without a terminal or honor (3 bits)
_RUN: Final = 1 << _RUN_SHIFT
_TRIP: Final = 1 << _TRIP_SHIFT
_RUN_PAIR: Final = 1 << _RUN_PAIR_SHIFT
_ITTSU: Final = 1 << _ITTSU_SHIFT
_INSIDE: Final = 1 << _INSIDE_SHIFT
_TRIPS: Final = _FIELD << _TRIP_SHIFT
_THREE_TRIPS: Final = 3 * _TRIP  # from three triplets on: 三連刻, 四連刻, 三色同刻 can hold

# A reading's *signature*: what the reading-level tests read of it, one int. Each class that
# is looked up in a table is stored there already shifted into its field (the hot loop only
# ORs them together).
#: runs, pairs of identical runs, ittsu, kept from the features as they are (the triplets
#: follow from the runs: four sets in all)
SIG_KEPT: Final = _FIELD << _RUN_SHIFT | _FIELD << _RUN_PAIR_SHIFT | 3 << _ITTSU_SHIFT
SIG_OUTSIDE: Final = 1 << 11  # every set and the pair hold a terminal or honor (chanta, junchan)
SIG_HONOR_SHIFT: Final = 12  # 8 bits: the honor triplets' class (yakuhai units, dragons, winds)
SIG_CHAIN_SHIFT: Final = 21  # 2 bits: a chain of three (三連刻) / four (四連刻) triplets
SIG_DOUKOU: Final = 1 << 23  # one rank's triplet in all three suits (三色同刻)
SIG_PAIR_SHIFT: Final = 24  # 3 bits: the pair's class (yakuhai, dragon, wind)
SIG_HAS_HONOR: Final = 1 << 27  # an honor held
SIG_ROLE_SHIFT: Final = 28  # 2 bits: the winning tile's role as the tests tell them apart
SIG_CONC_SHIFT: Final = 30  # 2 bits: the concealed triplets as the tests tell them apart
#: role → its signature field (pinfu reads ryanmen, suuankou tanki reads tanki)
_ROLE_SIG: Final = tuple(c << SIG_ROLE_SHIFT for c in (2, 0, 0, 0, 1))
#: concealed triplets → their signature field (sanankou 3, suuankou 4)
_CONC_SIG: Final = tuple(c << SIG_CONC_SHIFT for c in (0, 0, 0, 1, 2))

# A whole pattern's decomposition, packed into one int (rank indices): its features (above),
# its triplet ranks as bits, its pair rank + 1 (0: none) and its run start ranks as bits
# (a run twice is one bit: the winning tile's roles are what the fold reads of the runs).
_FEATURES: Final = (1 << 14) - 1
_TM_SHIFT: Final = 14  # 9 bits
_PAIR_SHIFT: Final = 23  # 4 bits
_STARTS_SHIFT: Final = 27  # 7 bits
#: the decompositions of a whole pattern, packed, in split order
Packed = tuple[int, ...]
#: a pattern code's bits of any rank (without the honors' tag) / of ranks 1 and 9 / of 2–8
_TILES: Final = HONOR_TAG - 1
_TERMINALS: Final = 0o700000007
_MIDDLE: Final = 0o077777770


def _chain(bits: int) -> int:
    """The longest run of consecutive set bits (consecutive-rank triplets, 三連刻)."""
    best = n = 0
    while bits:
        n = n + 1 if bits & 1 else 0
        best = max(best, n)
        bits >>= 1
    return max(best, n)


#: triplet rank bits of one suit → the chain's signature field (三連刻 1, 四連刻 2)
_CHAIN_SIG: Final = tuple(((c > 2) + (c > 3)) << SIG_CHAIN_SHIFT for c in map(_chain, range(512)))


def _pack(decomp: GroupDecomp, honor: bool) -> int:
    """A decomposition (rank indices, run starts ascending as :mod:`engine.suits` lists
    them) packed: features, triplet rank bits, pair rank + 1, run start bits."""
    pair, trips, runs = decomp
    n_runs = len(runs)
    features = n_runs * _RUN + len(trips) * _TRIP
    tm = starts = 0
    for t in trips:
        tm |= 1 << t
        if not (honor or t == 0 or t == 8):
            features += _INSIDE
    if pair >= 0 and not (honor or pair == 0 or pair == 8):
        features += _INSIDE
    if n_runs:
        for r in runs:
            starts |= 1 << r
            if r != 0 and r != 6:
                features += _INSIDE
        i = 0
        while i < n_runs - 1:  # pairs of identical runs (一盃口, 二盃口)
            if runs[i] == runs[i + 1]:
                features += _RUN_PAIR
                i += 2
            else:
                i += 1
        if n_runs >= 3 and 0 in runs and 3 in runs and 6 in runs:
            features += _ITTSU
    return features | tm << _TM_SHIFT | (pair + 1) << _PAIR_SHIFT | starts << _STARTS_SHIFT


#: the fold's role of a winning tile in a run, by the run's start rank and the tile's place
#: (:data:`engine.decompose.RUN_WAITS`, which :func:`engine.decompose.readings` reads)
_RUN_ROLE: Final = tuple(tuple(ROLE_NAMES.index(wait) for wait in row) for row in RUN_WAITS)


def _run_roles(rank: int, starts: int) -> int:
    roles = 0
    for s in range(max(rank - 2, 0), min(rank, 6) + 1):
        if starts >> s & 1:
            roles |= 1 << _RUN_ROLE[s][rank - s]
    return roles


#: rank << 7 | run start bits → the roles (bits) a winning tile of that rank takes in them
_RUN_ROLES: Final = tuple(_run_roles(r, s) for r in range(9) for s in range(128))
#: role bits → the roles, in role order (one shared tuple each)
_ROLE_LISTS: Final = tuple(tuple(r for r in range(5) if m >> r & 1) for m in range(32))


def roles(packed: int, rank: int) -> tuple[int, ...]:
    """The distinct roles of a winning tile of rank ``rank`` in a packed decomposition
    (those of :func:`engine.decompose.readings`, whose order the fold does not need)."""
    tm = packed >> _TM_SHIFT
    return _ROLE_LISTS[
        ((packed >> _PAIR_SHIFT & 15) == rank + 1) << TANKI
        | (tm >> rank & 1) << SHANPON
        | _RUN_ROLES[rank << 7 | packed >> _STARTS_SHIFT]
    ]


class Group:
    """What the fold knows of one group's count pattern (by its :func:`pattern_code`): its
    flags (:func:`engine.suits.group_flags`), its decompositions in rank indices and packed
    (:func:`_pack`; none for a pattern that is not whole), and, once it takes a winning
    tile, each kind completing it. One object per pattern seen (bounded), so that a hand's
    four groups cost four dictionary lookups and a completed pattern none: an addition
    holds its completed group."""

    __slots__ = ("code", "flags", "decomps", "whole", "adds")

    def __init__(self, code: int) -> None:
        decomps = DECOMPS_BY_CODE.get(code, ())
        honor = code >= HONOR_TAG
        self.code = code
        self.flags = code_flags(code)
        self.decomps: tuple[GroupDecomp, ...] = decomps
        self.whole: Packed = tuple([_pack(d, honor) for d in decomps])
        #: (rank | flags after << 4, the completed group) of each kind completing it
        self.adds: tuple[tuple[int, Group], ...] | None = None


_GROUPS: Final[dict[int, Group]] = {}
_GROUPS_MAX: Final = 1 << 15  # bounded: a server sees arbitrary hands


def group(code: int) -> Group:
    """The :class:`Group` of a pattern code, made on first sight."""
    found = _GROUPS.get(code)
    if found is None:
        if len(_GROUPS) > _GROUPS_MAX:
            _GROUPS.clear()
        found = _GROUPS[code] = Group(code)
    return found


def additions(g: Group) -> tuple[tuple[int, Group], ...]:
    """Each kind completing a group's pattern: (rank | flags after << 4, the completed
    group), by rank (:func:`engine.suits.completing_code`, worked out on first sight).

    >>> from sanma_lens.engine.suits import pattern_code
    >>> adds = additions(group(pattern_code((0, 1, 1, 0, 0, 0, 0, 0, 0))))
    >>> [(a & 15, a >> 4, c.decomps) for a, c in adds]
    [(0, 1, ((-1, (), (0,)),)), (3, 1, ((-1, (), (1,)),))]
    """
    adds = g.adds
    if adds is None:
        adds = g.adds = tuple([(a & 63, group(a >> 6)) for a in completing_code(g.code)])
    return adds


def plan_covered(plan: Plan) -> bool:
    """Whether the fold applies to a plan: its reading-level yaku are all :data:`COVERED`
    and a hand opening no gate runs only :data:`UNGATED_HAND` whole-hand yaku."""
    ok = plan.fold.get("ok")
    if ok is None:
        own = {plan.ids[b.bit_length() - 1] for b, *_ in plan.own}
        ungated = {plan.ids[b.bit_length() - 1] for b, _, _, gate in plan.hand if gate == 0}
        ok = plan.fold["ok"] = own <= COVERED and ungated <= UNGATED_HAND
    return bool(ok)


_BASES: Final = (0, 9, 18, 27)
#: the groups other than the taker, one decomposition each: features, triplet kind bits,
#: pair kind, each group's decomposition index (4 bits a group, by group index)
Other = tuple[int, int, int, int]
#: where a reading's sets are: the taker's group index, its completed group and
#: decomposition index, the pair kind, the others' decomposition indices
Where = tuple[int, Group, int, int, int]
#: (facts, decompositions, held yaku by (decomposition index, wait)) of a kept wait
Alternatives = tuple[HandFacts, list[GroupDecomp], dict[tuple[int, str], tuple[int, int]]]
Groups = tuple[Group, Group, Group, Group]  # man, pin, sou, honors


def _sets(groups: Groups, where: Where) -> tuple[list[int], list[int]]:
    """A reading's triplet and run kinds in group order (as :func:`engine.suits.combine`)."""
    taker, completed, ti, _, choice = where
    trips: list[int] = []
    runs: list[int] = []
    for gi in range(4):
        if gi == taker:
            pair, ts, rs = completed.decomps[ti]
        elif groups[gi].code & _TILES:
            pair, ts, rs = groups[gi].decomps[choice >> 4 * gi & 15]
        else:
            continue
        b = _BASES[gi]
        for t in ts:
            trips.append(t + b)
        for r in rs:
            runs.append(r + b)
    return trips, runs


def _decomp(groups: Groups, where: Where) -> GroupDecomp:
    """A reading's decomposition in kind indices."""
    trips, runs = _sets(groups, where)
    return where[3], tuple(trips), tuple(runs)


def _others(groups: Groups, taker: int) -> list[Other]:
    """The groups other than ``taker`` (each whole) combined: one :data:`Other` for each
    combination of their decompositions (in ``product`` order)."""
    f = tm = 0
    pair = -1
    for gi in range(4):
        g = groups[gi]
        if gi != taker and g.code & _TILES:
            packed = g.whole
            if len(packed) != 1:
                return _other_products(groups, taker)
            d = packed[0]
            base = _BASES[gi]
            f += d & _FEATURES
            tm |= (d >> _TM_SHIFT & 511) << base
            p = d >> _PAIR_SHIFT & 15
            if p:
                pair = p - 1 + base
    return [(f, tm, pair, 0)]


def _other_products(groups: Groups, taker: int) -> list[Other]:
    out: list[Other] = [(0, 0, -1, 0)]
    for gi in range(4):
        g = groups[gi]
        if gi == taker or not g.code & _TILES:
            continue
        base = _BASES[gi]
        out = [
            (
                of + (d & _FEATURES),
                otm | (d >> _TM_SHIFT & 511) << base,
                (d >> _PAIR_SHIFT & 15) - 1 + base if d >> _PAIR_SHIFT & 15 else op,
                choice | j << 4 * gi,
            )
            for of, otm, op, choice in out
            for j, d in enumerate(g.whole)
        ]
    return out


def _tables(plan: Plan, c: Context) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For ``c``'s seat and round: the classes of honor triplets (yakuhai han units,
    dragons, winds: what the reading-level tests tell apart of the honor-triplet bits) and
    of pair kinds (yakuhai, dragon, wind), each already in its signature field. Through
    these classes a signature holds all that the tests read of the seat and round, so one
    table of signatures serves them all."""
    key = (c.sit.seat, c.sit.round)
    classes = plan.fold.get(key)
    if classes is None:
        classes = plan.fold[key] = _class_tables(c.sit.seat, c.sit.round, c.rules.north_is_yakuhai)
    return classes


@cache
def _class_tables(
    seat: int, round_wind: int, north: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`_tables` by seat, round and the North option (at most 4·4·2 pairs), shared by
    every plan: a new rule set's plan must not build them again (about 0.75 ms each)."""
    table = yakuhai_table(seat, round_wind, north)
    honor_class = tuple(
        (
            sum(table.get(27 + i, 0) for i in range(7) if m >> i & 1)  # yakuhai units
            | sum(1 for i in range(4, 7) if m >> i & 1) << 4  # dragon triplets
            | sum(1 for i in range(4) if m >> i & 1) << 6  # wind triplets
        )
        << SIG_HONOR_SHIFT
        for m in range(128)
    )
    pair_class = tuple(
        ((k in table) | (k in DRAGONS) << 1 | (k in WINDS) << 2) << SIG_PAIR_SHIFT
        for k in range(34)
    )
    return honor_class, pair_class


class Folded:
    """:func:`fold_waits`' answer: each wait with its yaku han per context (None: left to
    the reading-by-reading path); for the kept wait, when it is read one way only, that
    reading and its held yaku bits in the first context (else None, 0), and when it is read
    several ways (one decomposition of the other groups), ``alternatives``: its facts, its
    decompositions in :func:`engine.decompose.readings`' order and each reading's held yaku
    (``engine.yaku_eval.held``'s value in the first context) by decomposition index and
    wait."""

    __slots__ = ("waits", "reading", "mask", "alternatives")

    def __init__(
        self,
        waits: list[tuple[int, tuple[int, ...] | None]],
        reading: Reading | None,
        mask: int,
        alternatives: Alternatives | None,
    ) -> None:
        self.waits = waits
        self.reading = reading
        self.mask = mask
        self.alternatives = alternatives


class MeldPart(Value):
    """What the fold needs of the declared pons and kans (a chi leaves the hand to the
    reading-by-reading path): their packed features and triplet kind bits as a
    decomposition's, the concealed kans (san/suuankou), the kans (sankantsu, §18 gates),
    the suits held, and whether the hand stays closed, holds only terminals/honors in the
    melds, an honor, a terminal."""

    __slots__ = (
        "features", "trip_bits", "concealed", "kans", "suits", "closed", "all_th", "honor",
        "terminal",
    )  # fmt: skip

    def __init__(
        self,
        features: int,
        trip_bits: int,
        concealed: int,
        kans: int,
        suits: int,
        closed: bool,
        all_th: bool,
        honor: bool,
        terminal: bool,
    ) -> None:
        self.features = features
        self.trip_bits = trip_bits
        self.concealed = concealed
        self.kans = kans
        self.suits = suits
        self.closed = closed
        self.all_th = all_th
        self.honor = honor
        self.terminal = terminal

    def _key(self) -> tuple[object, ...]:
        return (
            self.features, self.trip_bits, self.concealed, self.kans, self.suits, self.closed,
            self.all_th, self.honor, self.terminal,
        )  # fmt: skip


NO_MELDS: Final = MeldPart(0, 0, 0, 0, 0, True, True, False, False)


def meld_part(melds: tuple[Meld, ...]) -> MeldPart | None:
    """The melds' :class:`MeldPart`, or None with a chi."""
    if not melds:
        return NO_MELDS
    features = trip_bits = concealed = kans = suits = 0
    closed = all_th = True
    honor = terminal = False
    for meld in melds:
        kind = meld.kind  # (Meld's is_run / is_open / is_kan, without the property calls)
        if kind == "chi":
            return None
        k = meld.tile
        trip_bits |= 1 << k
        features += _TRIP
        if k >= 27:
            honor = True
        else:
            suits |= 1 << (k // 9)
            if IS_TERMINAL[k]:
                terminal = True
            else:
                all_th = False
                features += _INSIDE
        if kind == "ankan":
            concealed += 1
            kans += 1
        else:
            closed = False
            if kind != "pon":
                kans += 1
    return MeldPart(features, trip_bits, concealed, kans, suits, closed, all_th, honor, terminal)


def _used(hand: HandInput, rules: Rules) -> list[int] | None:
    """The tiles of each kind the player's melds and kita use up with the concealed ones
    (docs/rules.md §18: a wait must still exist), or None when nothing but concealed tiles could
    (a wait is never a fifth concealed tile) or the option counts used-up waits."""
    if rules.used_up_waits_count or not (hand.melds or hand.kita):
        return None
    used = list(hand.concealed)
    for meld in hand.melds:
        used[meld.tile] += len(meld.tiles)
    used[NORTH] += hand.kita
    return used


def _can_come(w: int, rules: Rules, used: list[int] | None) -> bool:
    """Whether a wait of kind ``w`` is one (§18): in the rule set and not used up."""
    return w in rules.tile_kinds and (used is None or used[w] < 4)


class _Pass:
    """One hand's fold, built once: what every wait's loop reads (the plan's signature and
    class tables, each context's situational yaku, the melds, the 13 tiles' honors,
    terminals and suits) and what it needs of the reading-by-reading path (a reading's
    real facts and sets: a signature met for the first time, the kept wait's reading; the
    whole-hand yaku of a hand that opens a gate). A slotted class: the loop reads its
    fields as cheap slot loads."""

    __slots__ = (
        "hand", "plan", "fold", "post", "by_sig", "honor_class", "pair_class", "sits",
        "ctx", "melds", "extra", "closed", "has_honor", "has_terminal", "all_th", "suits",
        "meld_pungs", "groups",
    )  # fmt: skip

    def __init__(
        self,
        hand: HandInput,
        rules: Rules,
        ctxs: tuple[Context, ...],
        entry: tuple[Plan, tuple[int, int]],
        melds: MeldPart,
        groups: Groups,
    ) -> None:
        self.hand = hand
        self.plan = plan = entry[0]
        self.fold = fold = plan.fold
        self.post = plan.post
        by_sig = fold.get("sig")
        if by_sig is None or len(by_sig) > 1 << 16:  # bounded
            by_sig = fold["sig"] = {}
        self.by_sig: dict[int, tuple[int, int, int]] = by_sig
        self.ctx = c0 = ctxs[0]
        sit = c0.sit
        classes: tuple[tuple[int, ...], tuple[int, ...]] = fold.get(
            (sit.seat, sit.round)
        ) or _tables(plan, c0)
        self.honor_class, self.pair_class = classes
        meld_suits, closed, meld_th = melds.suits, melds.closed, melds.all_th
        meld_honor, meld_terminal = melds.honor, melds.terminal
        sits = [(entry[1], c0)]
        for c in ctxs[1:]:  # (a loop: a comprehension would be a call of its own)
            sits.append((situational(c, closed, STANDARD)[1], c))
        #: (situational yaku (mask, han), context) per context
        self.sits: list[tuple[tuple[int, int], Context]] = sits
        self.melds, self.closed = melds, closed
        # the kinds of the shape before the win (the extracted kita as a north, by option)
        self.extra = extra = (NORTH,) if rules.kita_counts_in_shape and hand.kita else ()
        self.groups = groups
        k0, k1, k2 = groups[0].code, groups[1].code, groups[2].code
        self.has_honor = groups[3].code != HONOR_TAG or meld_honor or bool(extra)
        self.has_terminal = bool((k0 | k1 | k2) & _TERMINALS) or meld_terminal
        self.all_th = not (k0 | k1 | k2) & _MIDDLE and meld_th
        self.suits = (k0 != 0) | (k1 != 0) << 1 | (k2 != 0) << 2 | meld_suits
        self.meld_pungs: tuple[Pung, ...] = ()

    def hand_yaku(self, w: int) -> tuple[int, int]:
        """The completed hand's whole-hand yaku (bits, han). A hand opening no gate (more
        than one suit, not all terminals/honors, fewer than three kans) holds tanyao's at
        most: kept per plan by whether an honor and a terminal are held; another's are
        worked out from its facts."""
        honor = w >= 27
        suits = self.suits if honor else self.suits | 1 << (w // 9)
        if suits in (0, 1, 2, 4) or (self.all_th and IS_TH[w]) or self.melds.kans >= 3:
            return self._hand_yaku(w)
        # (an int key: the plan's other fold entries are keyed by strings and tuples)
        key = _TANYAO_CLASS | (self.has_honor or honor) | (self.has_terminal or IS_TERMINAL[w]) << 1
        found = self.fold.get(key)
        if found is None:
            found = self.fold[key] = self._hand_yaku(w)
        return found

    def _hand_yaku(self, w: int) -> tuple[int, int]:
        stub = Reading(self.facts(w), STANDARD, -1, (), (), "none")
        return whole_hand_yaku(self.plan, stub, self.ctx)

    def facts(self, w: int) -> HandFacts:
        """``facts_maker(concealed, melds, extra)(w)`` from what the fold knows."""
        hand = self.hand
        if hand.melds and not self.meld_pungs:
            self.meld_pungs = tuple(
                [Pung(m.tile, m.kind == "ankan", m.kind != "pon") for m in hand.melds]
            )
        honor0, terminal0, th0, suits0 = self.has_honor, self.has_terminal, self.all_th, self.suits
        counts = list(hand.concealed)
        counts[w] += 1
        honor, terminal = w >= 27, IS_TERMINAL[w]
        suits = suits0 if honor else suits0 | 1 << (w // 9)
        return HandFacts(
            tuple(counts),
            hand.melds,
            w,
            self.closed,
            self.extra,
            self.melds.kans,
            honor0 or honor,
            terminal0 or terminal,
            not suits,
            not (honor0 or honor) and th0 and terminal,
            th0 and (honor or terminal),
            N_SUITS[suits],
            ONLY_SUIT[suits],
            (),
            self.meld_pungs,
        )

    def reading(self, w: int, role: int, opened: bool, where: Where) -> Reading:
        """The real reading (as :func:`engine.decompose.readings` builds it: sets in group
        order, then the melds')."""
        trips, runs = _sets(self.groups, where)
        facts = self.facts(w)
        pungs = []
        for t in trips:
            pungs.append(Pung(t, not (opened and t == w), False))
        if self.meld_pungs:
            pungs += self.meld_pungs
        return Reading(facts, STANDARD, where[3], tuple(runs), tuple(pungs), ROLE_NAMES[role])


_TANYAO_CLASS: Final = 1 << 8  # the key of a hand opening no gate: | an honor | a terminal << 1


def _codes(concealed: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """The :func:`engine.suits.pattern_code` of the man, pin, sou and honor groups, the
    kinds held and the pairs held."""
    m = p = s = z = held = pairs = 0
    for i in range(8, -1, -1):
        m = m << 3 | concealed[i]
        p = p << 3 | concealed[9 + i]
        s = s << 3 | concealed[18 + i]
    for i in range(33, 26, -1):
        z = z << 3 | concealed[i]
    for c in concealed:
        if c:
            held += 1
            if c == 2:
                pairs += 1
    return m, p, s, z | HONOR_TAG, held, pairs


def fold_waits(
    hand: HandInput, rules: Rules, ctxs: tuple[Context, ...], keep: int = -1
) -> Folded | None:
    """Each wait (as :func:`engine.waits.wait_shapes`, in order) with its best reading's yaku
    han in each context of ``ctxs`` (contexts of one seat and round), or ``None`` for a wait
    left to the reading-by-reading path; ``keep``: a wait whose single reading the caller
    wants (the actual win). ``None`` in all: the hand is not covered (see the module
    docstring)."""
    if rules.yakuman_exclusive or not rules.pinfu_on_tsumo:
        return None  # (pinfu then depends on tsumo, which the signatures do not hold)
    concealed = hand.concealed
    melds = meld_part(hand.melds) if hand.melds else NO_MELDS
    if melds is None:
        return None
    m, p_, s_, z, held, pairs = _codes(concealed)
    if not hand.melds and held >= len(kokushi_kinds(rules.tile_kinds)) - 1:
        return None  # a kokushi wait may be among them
    c0 = ctxs[0]
    closed = melds.closed
    entry = c0.cache.get((closed, STANDARD)) or situational(c0, closed, STANDARD)
    plan = entry[0]
    if not plan.fold.get("ok", False) and not plan_covered(plan):
        return None
    # a chiitoitsu tanki wait (six pairs and a single; option chiitoitsu_four_of_a_kind: a
    # four of a kind as two of the pairs): left to the reading-by-reading path
    seven = concealed.index(1) if not hand.melds and pairs == 6 else -1
    if seven < 0 and rules.chiitoitsu_four_of_a_kind and not hand.melds:
        seven = chiitoitsu_wait(concealed, True)  # a four of a kind as two pairs
    used = _used(hand, rules) if hand.melds or hand.kita else None
    groups = (group(m), group(p_), group(s_), group(z))  # man, pin, sou, honors
    out: list[tuple[int, tuple[int, ...] | None]] = []
    reading: Reading | None = None
    mask = 0
    alternatives: Alternatives | None = None
    # each group that can take the winning tile (group index, accepted flags), each kind
    # completing it
    takers = RECEIVERS[
        groups[0].flags | groups[1].flags << 2 | groups[2].flags << 4 | groups[3].flags << 6
    ]
    p: _Pass | None = None  # built with the first standard wait
    tile_kinds = rules.tile_kinds
    kept: list[Kept] = []
    for gi, accept in takers:
        base = _BASES[gi]
        others: list[Other] | None = None
        g = groups[gi]
        for add, completed in g.adds if g.adds is not None else additions(g):
            if not add >> 4 & accept:  # its flags
                continue
            w = base + (add & 15)  # its rank
            if w not in tile_kinds or (used is not None and used[w] >= 4):  # _can_come
                continue
            if w == seven:
                out.append((w, None))
                continue
            if others is None:
                others = _others(groups, gi)
            if p is None:
                p = _Pass(hand, rules, ctxs, entry, melds, groups)
            keeping = kept if w == keep else None
            hans, count = _fold_wait(p, w, gi, add & 15, completed, others, keeping)
            out.append((w, hans))
            if keeping:
                reading, mask, alternatives = _kept_answer(p, w, kept, count, len(others))
    if seven >= 0 and _can_come(seven, rules, used) and all(w != seven for w, _ in out):
        out.append((seven, None))  # not a standard wait too
        out.sort(key=_first)
    return Folded(out, reading, mask, alternatives)


#: a reading of the kept wait: taker decomposition index, role, where its sets are, held
#: bits and yaku han in the first context
Kept = tuple[int, int, Where, int, int]


def _fold_wait(
    p: _Pass,
    w: int,
    gi: int,
    rank: int,
    completed: Group,
    others: list[Other],
    kept: list[Kept] | None,
) -> tuple[tuple[int, ...] | None, int]:
    """One wait ``w`` (of ``rank``) completing group ``gi`` into ``completed``: the yaku han
    per context of its readings when they all agree (else None: dora and fu rank them,
    reading by reading), and the number of readings. Each reading's reading-level yaku come
    from its signature (:data:`SIG_KEPT` …), worked out on first sight by the real tests on
    the real reading. ``kept``: the list to receive the readings of the caller's kept wait
    (all of them are then read)."""
    plan, post, by_sig, sits = p.plan, p.post, p.by_sig, p.sits
    honor_class, pair_class = p.honor_class, p.pair_class
    hand_m, hand_h = p.hand_yaku(w)
    melds = p.melds
    meld_f, meld_tm, meld_conc = melds.features, melds.trip_bits, melds.concealed
    sig_hand = SIG_HAS_HONOR if p.has_honor or w >= 27 else 0
    first: list[int] | None = None  # the first reading's han per context
    count = 0
    base = _BASES[gi]
    taker = completed.whole
    for ti in range(len(taker)):  # the completed pattern's decompositions
        d = taker[ti]
        tf = d & _FEATURES
        ttm = (d >> _TM_SHIFT & 511) << base
        tp = d >> _PAIR_SHIFT & 15
        tpk = tp - 1 + base if tp else -1
        its_roles = roles(d, rank)
        for of, otm, op, choice in others:
            both = tf + of
            feats = both + meld_f
            tm = ttm | otm | meld_tm
            pair = tpk if tpk >= 0 else op
            sig0 = (
                feats & SIG_KEPT
                | (SIG_OUTSIDE if feats < _INSIDE else 0)
                | honor_class[tm >> 27]
                | pair_class[pair]
                | sig_hand
            )
            if feats & _TRIPS >= _THREE_TRIPS:  # 三連刻, 四連刻, 三色同刻
                sig0 |= max(
                    _CHAIN_SIG[tm & 511], _CHAIN_SIG[tm >> 9 & 511], _CHAIN_SIG[tm >> 18 & 511]
                )
                if tm & tm >> 9 & tm >> 18 & 511:
                    sig0 |= SIG_DOUKOU
            n_trips = (both >> _TRIP_SHIFT & _FIELD) + meld_conc
            for role in its_roles:
                count += 1
                sig1 = sig0 | _ROLE_SIG[role]
                hans = []
                for (s_mask, s_han), c in sits:
                    opened = role == SHANPON and not c.sit.tsumo
                    key = sig1 | _CONC_SIG[n_trips - opened]
                    own = by_sig.get(key)
                    if own is None:
                        where = (gi, completed, ti, pair, choice)
                        own = by_sig[key] = _own_yaku(plan, p.reading(w, role, opened, where), c)
                    m = s_mask | hand_m | own[0]
                    if m & post:
                        hans.append(combined_han(plan, m, own[2], c))
                    else:
                        hans.append(s_han + hand_h + own[1])
                    if kept is not None and c is sits[0][1]:
                        kept.append((ti, role, (gi, completed, ti, pair, choice), m, hans[0]))
                if first is None:
                    first = hans
                elif hans != first:
                    if kept is None:
                        return None, count
                    first = []  # they differ: go on reading the kept wait
    return (tuple(first) if first else None), count


def _kept_answer(
    p: _Pass, w: int, kept: list[Kept], count: int, n_others: int
) -> tuple[Reading | None, int, Alternatives | None]:
    """The kept wait's answer: its one reading and held bits (after the combination rules),
    or, read several ways with one decomposition of the other groups, its facts,
    decompositions in readings' order and each reading's held yaku."""
    plan, post, rules = p.plan, p.post, p.ctx.rules
    if count == 1:
        _, role, where, m, _ = kept[0]
        reading = p.reading(w, role, role == SHANPON and not p.ctx.sit.tsumo, where)
        return reading, (combined_mask(plan, m, rules) if m & post else m), None
    if n_others != 1:
        return None, 0, None
    decomps = [_decomp(p.groups, where) for _, _, where, _, _ in kept]
    helds = {
        (ti, ROLE_NAMES[role]): (combined_mask(plan, m, rules), han) for ti, role, _, m, han in kept
    }
    by_index = dict(zip([ti for ti, *_ in kept], decomps, strict=True))
    return None, 0, (p.facts(w), [by_index[i] for i in sorted(by_index)], helds)


def _first(item: tuple[int, tuple[int, ...] | None]) -> int:
    return item[0]


def _own_yaku(plan: Plan, r: Reading, c: Context) -> tuple[int, int, int]:
    """A reading's reading-level yaku: bits, han, and the yakuhai's share of the han."""
    m, h = reading_yaku(plan, r, c)
    yk = 0
    if m & plan.yakuhai:
        yk = plan.han[plan.yakuhai.bit_length() - 1] * sum(n for _, n in yakuhai_sets(r, c))
    return m, h, yk
