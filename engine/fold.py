"""Every wait's yaku han in one pass over the 13-tile hand's per-suit records (§18, §29).

The §18 guarantee (score) and tenpai need, for every wait, the yaku han of the completed
hand's best reading. The reading-by-reading path (:mod:`engine.waits`) builds each completed
hand's facts and readings and runs the yaku tests on them. Here each suit pattern (and the
honors) has a record in rank indices, shared by the three suits: its decompositions'
features, and, once the pattern takes a winning tile, each kind that completes it with the
completed pattern's decompositions and the roles the winning tile takes in them. A reading
is then the sum of at most four records plus the melds, and its reading-level yaku are
looked up by a *signature* of what the plan's reading-level tests read: runs, pairs of
identical runs, ittsu, whether every set and the pair hold a terminal or honor, the honor
triplets as yakuhai han units, dragons and winds, the pair as yakuhai, dragon or wind, a
chain of three or four triplets, 三色同刻, the wait as ryanmen, tanki or other, three or four
concealed triplets, an honor held. The first reading of a signature runs the real tests
(:func:`engine.yaku_eval._own`); later ones, in any hand, seat or round, reuse the answer
(one table per plan). The whole-hand yaku of a hand that opens no gate (more than one suit,
not all terminals/honors, fewer than three kans) are tanyao's alone, kept by whether an
honor and a terminal are held; of another, they are worked out from its facts.

Left to the reading-by-reading path: the whole hand (``None``) under ``yakuman_exclusive``,
with a chi, with a kokushi shape, or under a rule table with reading-level yaku outside
:data:`COVERED` or ungated whole-hand yaku other than tanyao; a single wait (its value
``None``): a chiitoitsu tanki, or one whose readings differ in yaku han (dora and fu then
rank them). For the actual win (``keep``) the fold also hands back its reading, or its
readings' decompositions and yaku, so that the win is not read again.

Records and signature tables are kept per pattern and per plan (bounded): patterns and
signatures recur across different hands.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from engine.decompose import (
    STANDARD,
    HandFacts,
    Pung,
    Reading,
    _shape_kinds,
    kokushi_kinds,
)
from engine.parse import HandInput
from engine.rules import Rules
from engine.suits import GROUP_FLAGS, GroupDecomp, group_additions, rank_decomps, receivers
from engine.tiles import (
    DRAGONS,
    IS_TERMINAL,
    IS_TH,
    NORTH,
    WINDS,
)
from engine.yaku import Context, yakuhai_sets, yakuhai_table
from engine.yaku_eval import Plan, _combined_mask, _hand, _own, combined_han, situational

# The reading-level yaku whose tests read only what the signature holds (RULES.md "Yaku").
COVERED = frozenset(
    {
        "yakuhai",
        "pinfu",
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
UNGATED_HAND = frozenset({"tanyao"})

# The winning tile's role in a reading (engine.decompose.readings' wait names).
TANKI, SHANPON, KANCHAN, PENCHAN, RYANMEN = range(5)
ROLE_NAMES = ("tanki", "shanpon", "kanchan", "penchan", "ryanmen")

# A decomposition's features, packed so that the records of different groups add up:
# runs (bits 0-2), triplets (3-5), pairs of identical runs (6-8), ittsu (9-10), sets and
# pair without a terminal or honor (11-13).
_RUN, _TRIP, _RUN_PAIR, _ITTSU, _INSIDE = 1, 1 << 3, 1 << 6, 1 << 9, 1 << 11
_TRIPS = 7 << 3
#: kept in a signature as they are: runs, pairs of identical runs, ittsu (the triplets follow
#: from the runs: four sets in all)
_KEPT = 7 | 7 << 6 | 3 << 9
#: the roles and concealed-triplet counts as the tests tell them apart (pinfu: ryanmen,
#: suuankou tanki: tanki; sanankou 3, suuankou 4)
_ROLE_CLASS = (2, 0, 0, 0, 1)
_CONC_CLASS = (0, 0, 0, 1, 2)
_SUIT_TH = (True, False, False, False, False, False, False, False, True)

DecompRecord = tuple[int, int, int, GroupDecomp]  # (features, triplet rank bits, pair rank)
#: (features, triplet rank bits, pair rank, roles of the winning tile, decomposition)
TakerRecord = tuple[int, int, int, tuple[int, ...], GroupDecomp]
#: (flags, whole decompositions, info bits: holds tiles, a terminal, only terminals/honors,
#: the ranks held, the kinds held per group index (filled on first use, :func:`_kinds`))
GroupRecord = tuple[
    int, tuple[DecompRecord, ...], int, tuple[int, ...], list[frozenset[int] | None]
]
#: (rank, flags after, taker records) per kind that completes a pattern
Additions = tuple[tuple[int, int, tuple[TakerRecord, ...]], ...]
_INFO_TILES, _INFO_TERMINAL, _INFO_ALL_TH = 1, 2, 4
_N_SUITS = tuple(bin(b).count("1") for b in range(8))  # suit bits -> suits held
_ONLY_SUIT = (-1, 0, 1, -1, 2, -1, -1, -1)  # suit bits -> the one suit held, or -1

_RECORDS: dict[tuple[int, ...], GroupRecord] = {}
_ADDS: dict[tuple[int, ...], Additions] = {}
_RECORDS_MAX = 1 << 14  # bounded (about 0.7 kB a record): a server sees arbitrary hands


def _chain(bits: int) -> int:
    """The longest run of consecutive set bits (consecutive-rank triplets, 三連刻)."""
    best = n = 0
    while bits:
        n = n + 1 if bits & 1 else 0
        best = max(best, n)
        bits >>= 1
    return max(best, n)


_CHAIN = tuple(_chain(b) for b in range(512))


def _features(decomp: GroupDecomp, honor: bool) -> DecompRecord:
    """A decomposition's packed features, its triplet ranks as bits and its pair rank (run
    starts ascending, as :mod:`engine.suits` lists them)."""
    pair, trips, runs = decomp
    n_runs = len(runs)
    features = n_runs * _RUN + len(trips) * _TRIP
    tm = 0
    for t in trips:
        tm |= 1 << t
        if not (honor or t == 0 or t == 8):
            features += _INSIDE
    if pair >= 0 and not (honor or pair == 0 or pair == 8):
        features += _INSIDE
    if n_runs:
        for r in runs:
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
    return features, tm, pair, decomp


_WHOLE: dict[tuple[int, ...], tuple[DecompRecord, ...]] = {}


def _whole(counts: tuple[int, ...]) -> tuple[DecompRecord, ...]:
    """A whole pattern's decomposition features (none for another pattern), worked out on
    first sight and kept (bounded; 22,241 whole patterns in all)."""
    found = _WHOLE.get(counts)
    if found is None:
        found = _WHOLE[counts] = tuple(
            [_features(d, len(counts) == 7) for d in rank_decomps(counts)]
        )
    return found


def _roles(decomp: GroupDecomp, win: int) -> tuple[int, ...]:
    """The distinct roles of a winning tile of rank ``win`` in a decomposition (those of
    :func:`engine.decompose.readings`, whose order the fold does not need)."""
    pair, trips, runs = decomp
    roles = []
    if pair == win:
        roles.append(TANKI)
    if win in trips:
        roles.append(SHANPON)
    for s in runs:
        if s <= win <= s + 2:
            pos = win - s
            if pos == 1:
                role = KANCHAN
            elif (pos == 0 and s == 6) or (pos == 2 and s == 0):
                role = PENCHAN
            else:
                role = RYANMEN
            if role not in roles:
                roles.append(role)
    return tuple(roles)


def _build(counts: tuple[int, ...]) -> GroupRecord:
    honor = len(counts) == 7
    flags = GROUP_FLAGS.get(counts, 0)
    info = _INFO_TILES if any(counts) else 0
    if not honor and (counts[0] or counts[8]):
        info |= _INFO_TERMINAL
    if honor or not any(counts[1:8]):
        info |= _INFO_ALL_TH
    ranks = tuple([i for i, c in enumerate(counts) if c])
    return flags, _whole(counts) if flags else (), info, ranks, [None, None, None, None]


_NO_KINDS: frozenset[int] = frozenset()


def _kinds(recs: tuple[GroupRecord, ...]) -> frozenset[int]:
    """The kinds the four groups' patterns hold (each group's set kept in its record)."""
    out = _NO_KINDS
    for gi in range(4):
        rec = recs[gi]
        if rec[3]:
            held = rec[4][gi]
            if held is None:
                base = _BASES[gi]
                held = rec[4][gi] = frozenset([base + i for i in rec[3]])
            out = out | held if out else held
    return out


def additions(counts: tuple[int, ...]) -> Additions:
    """For a pattern: ``(rank, flags after, taker records)`` of each kind that completes it
    (the kinds of :func:`engine.suits.group_additions`), the completed pattern's
    decompositions with the winning tile's roles (worked out when the pattern first takes a
    winning tile, then kept; bounded)."""
    found = _ADDS.get(counts)
    if found is not None:
        return found
    adds = []
    for i, flags, after in group_additions(counts):
        whole = _whole(after)
        if whole:
            takers = tuple([(tf, tm, tp, _roles(d, i), d) for tf, tm, tp, d in whole])
            adds.append((i, flags, takers))
    if len(_ADDS) > _RECORDS_MAX:
        _ADDS.clear()
    found = _ADDS[counts] = tuple(adds)
    return found


def group_record(counts: tuple[int, ...]) -> GroupRecord:
    """The record of one suit's (or the honors') count pattern, in rank indices: its flags
    (:func:`engine.suits.group_flags`), its decompositions' features, and whether it holds
    tiles, a terminal, only terminals/honors."""
    rec = _RECORDS.get(counts)
    if rec is None:
        if len(_RECORDS) > _RECORDS_MAX:
            _RECORDS.clear()
        rec = _RECORDS[counts] = _build(counts)
    return rec


def plan_covered(plan: Plan) -> bool:
    """Whether the fold applies to a plan: its reading-level yaku are all :data:`COVERED`
    and a hand opening no gate runs only :data:`UNGATED_HAND` whole-hand yaku."""
    ok = plan.fold.get("ok")
    if ok is None:
        own = {plan.ids[b.bit_length() - 1] for b, *_ in plan.own}
        ungated = {plan.ids[b.bit_length() - 1] for b, _, _, gate in plan.hand if gate == 0}
        ok = plan.fold["ok"] = own <= COVERED and ungated <= UNGATED_HAND
    return bool(ok)


_BASES = (0, 9, 18, 27)
Parts = tuple[tuple[int, GroupDecomp], ...]  # (group base, rank decomposition) per group
Other = tuple[int, int, int, Parts]  # features, triplet kind bits, pair kind, parts
#: where a reading's sets are: the taker's base and decomposition, the pair kind, the others
Where = tuple[int, GroupDecomp, int, Parts]
#: (facts, decompositions, held yaku by (decomposition index, wait)) of a kept wait
Alternatives = tuple[HandFacts, list[GroupDecomp], dict[tuple[int, str], tuple[int, int]]]


def _sets(where: Where) -> tuple[list[int], list[int]]:
    """A reading's triplet and run kinds in group order (as :func:`engine.suits.combine`)."""
    base, taker, _, parts = where
    i = 0
    while i < len(parts) and parts[i][0] < base:
        i += 1
    trips: list[int] = []
    runs: list[int] = []
    for b, (_, ts, rs) in parts[:i] + ((base, taker),) + parts[i:]:
        for t in ts:
            trips.append(t + b)
        for r in rs:
            runs.append(r + b)
    return trips, runs


def _decomp(where: Where) -> GroupDecomp:
    """A reading's decomposition in kind indices."""
    trips, runs = _sets(where)
    return where[2], tuple(trips), tuple(runs)


def _others(recs: tuple[GroupRecord, ...], taker: int) -> list[Other]:
    """The groups other than ``taker`` combined: (features, triplet kind bits, pair kind,
    parts) for each combination of their decompositions (in ``product`` order)."""
    f = tm = 0
    pair = -1
    parts = []
    for gi in range(4):
        if gi != taker:
            whole = recs[gi][1]
            if len(whole) != 1:
                return _other_products(recs, taker)
            wf, wtm, wp, d = whole[0]
            if wf or wp >= 0:  # holds tiles
                base = _BASES[gi]
                f += wf
                tm |= wtm << base
                if wp >= 0:
                    pair = wp + base
                parts.append((base, d))
    return [(f, tm, pair, tuple(parts))]


def _other_products(recs: tuple[GroupRecord, ...], taker: int) -> list[Other]:
    out: list[Other] = [(0, 0, -1, ())]
    for gi in range(4):
        if gi == taker:
            continue
        base = _BASES[gi]
        out = [
            (of + f, otm | tm << base, p + base if p >= 0 else op, parts + ((base, d),))
            for of, otm, op, parts in out
            for f, tm, p, d in recs[gi][1]
            if f or p >= 0
        ] or out
    return out


def _tables(plan: Plan, c: Context) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For ``c``'s seat and round: the classes of honor triplets (yakuhai han units,
    dragons, winds: what the reading-level tests tell apart of the honor-triplet bits) and
    of pair kinds (yakuhai, dragon, wind). Through these classes a signature holds all that
    the tests read of the seat and round, so one table of signatures serves them all."""
    key = (c.sit.seat, c.sit.round)
    classes = plan.fold.get(key)
    if classes is None:
        classes = plan.fold[key] = _class_tables(c.sit.seat, c.sit.round,
                                                 c.rules.north_is_yakuhai)
    return classes


@cache
def _class_tables(seat: int, round_wind: int, north: bool
                  ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`_tables` by seat, round and the North option (at most 4·4·2 pairs), shared by
    every plan: a new rule set's plan must not build them again (about 0.75 ms each)."""
    table = yakuhai_table(seat, round_wind, north)
    honor_class = tuple(
        sum(table.get(27 + i, 0) for i in range(7) if m >> i & 1)
        | sum(1 for i in range(4, 7) if m >> i & 1) << 4
        | sum(1 for i in range(4) if m >> i & 1) << 6
        for m in range(128)
    )
    pair_class = tuple(
        (k in table) | (k in DRAGONS) << 1 | (k in WINDS) << 2 for k in range(34)
    )
    return honor_class, pair_class


class Folded(NamedTuple):
    """:func:`fold_waits`' answer: each wait with its yaku han per context (None: left to
    the reading-by-reading path); for the kept wait, when it is read one way only, that
    reading and its held yaku bits in the first context (else None, 0), and when it is read
    several ways (one decomposition of the other groups), ``alternatives``: its facts, its
    decompositions in :func:`engine.decompose.readings`' order and each reading's held yaku
    (``engine.yaku_eval.held``'s value in the first context) by decomposition index and
    wait."""

    waits: list[tuple[int, tuple[int, ...] | None]]
    reading: Reading | None
    mask: int
    alternatives: Alternatives | None


def fold_waits(
    hand: HandInput, rules: Rules, ctxs: tuple[Context, ...], keep: int = -1
) -> Folded | None:
    """Each wait (as :func:`engine.waits.wait_shapes`, in order) with its best reading's yaku
    han in each context of ``ctxs`` (contexts of one seat and round), or ``None`` for a wait
    left to the reading-by-reading path; ``keep``: a wait whose single reading the caller
    wants (the actual win). ``None`` in all: the hand is not covered (see the module
    docstring)."""
    if rules.yakuman_exclusive:
        return None
    concealed, melds = hand.concealed, hand.melds
    meld_f = meld_tm = meld_conc = n_kans = meld_suits = 0
    closed = meld_th = True
    meld_honor = meld_terminal = False
    if melds:
        for meld in melds:
            kind = meld.kind  # (Meld's is_run / is_open / is_kan, without the property calls)
            if kind == "chi":
                return None
            k = meld.tile
            meld_tm |= 1 << k
            if k >= 27:
                meld_honor = True
                meld_f += _TRIP
            else:
                meld_suits |= 1 << (k // 9)
                if IS_TERMINAL[k]:
                    meld_terminal = True
                    meld_f += _TRIP
                else:
                    meld_th = False
                    meld_f += _TRIP + _INSIDE
            if kind == "ankan":
                meld_conc += 1
                n_kans += 1
            else:
                closed = False
                if kind != "pon":
                    n_kans += 1
    elif 34 - concealed.count(0) >= len(kokushi_kinds(rules.tile_kinds)) - 1:
        return None  # a kokushi wait may be among them
    # a chiitoitsu tanki wait (six pairs and a single): left to the reading-by-reading path
    seven = concealed.index(1) if not melds and concealed.count(2) == 6 else -1
    c0 = ctxs[0]
    entry = c0.cache.get((closed, STANDARD)) or situational(c0, closed, STANDARD)
    plan = entry[0]
    fold = plan.fold
    if not fold.get("ok", False) and not plan_covered(plan):
        return None
    used: list[int] | None = None
    if not rules.used_up_waits_count and (melds or hand.kita):
        used = list(concealed)
        for meld in melds:
            used[meld.tile] += len(meld.tiles)
        used[NORTH] += hand.kita
    get = _RECORDS.get
    r0 = get(concealed[0:9]) or group_record(concealed[0:9])
    r1 = get(concealed[9:18]) or group_record(concealed[9:18])
    r2 = get(concealed[18:27]) or group_record(concealed[18:27])
    r3 = get(concealed[27:34]) or group_record(concealed[27:34])
    recs = (r0, r1, r2, r3)
    takers = receivers((r0[0], r1[0], r2[0], r3[0]))
    if not takers:
        if seven >= 0 and seven in rules.tile_kinds and (used is None or used[seven] < 4):
            return Folded([(seven, None)], None, 0, None)
        return Folded([], None, 0, None)
    by_sig = fold.get("sig")
    if by_sig is None or len(by_sig) > 1 << 16:  # bounded
        by_sig = fold["sig"] = {}
    sit = c0.sit
    honor_class, pair_class = fold.get((sit.seat, sit.round)) or _tables(plan, c0)
    # the kinds of the shape before the win (the extracted kita as a north, by option)
    extra = (NORTH,) if rules.kita_counts_in_shape and hand.kita else ()
    i0, i1, i2, i3 = r0[2], r1[2], r2[2], r3[2]
    has_honor0 = bool(i3 & _INFO_TILES) or meld_honor or bool(extra)
    has_terminal0 = bool((i0 | i1 | i2) & _INFO_TERMINAL) or meld_terminal
    all_th0 = bool(i0 & i1 & i2 & _INFO_ALL_TH) and meld_th
    suits0 = (i0 & 1) | (i1 & 1) << 1 | (i2 & 1) << 2 | meld_suits
    tile_kinds = rules.tile_kinds
    sits = [(entry[1], c0)] + [(situational(c, closed, STANDARD)[1], c) for c in ctxs[1:]]
    post = plan.post
    shared = (closed, n_kans, has_honor0, has_terminal0, all_th0, suits0)
    slow = _Slow(hand, plan, c0, extra, shared, recs)
    reading: Reading | None = None
    mask = 0
    alternatives: Alternatives | None = None
    kept: list[tuple[int, int, Where, int, int]] = []  # the kept wait's readings
    out: list[tuple[int, tuple[int, ...] | None]] = []
    for gi, accept in takers:
        base = _BASES[gi]
        others: list[Other] | None = None
        pattern = concealed[base : base + 9] if base < 27 else concealed[27:34]
        for rank, f, tk in _ADDS.get(pattern) or additions(pattern):
            if not f & accept:
                continue
            w = base + rank
            if w not in tile_kinds or (used is not None and used[w] >= 4):
                continue
            if w == seven:
                out.append((w, None))
                continue
            if others is None:
                others = _others(recs, gi)
            honor = w >= 27
            hh = has_honor0 or honor
            suits = suits0 if honor else suits0 | 1 << (w // 9)
            if suits in (0, 1, 2, 4) or (all_th0 and IS_TH[w]) or n_kans >= 3:
                # a whole-hand gate is open (one suit, all terminals/honors, three kans):
                # the whole-hand yaku from the completed hand's facts
                hand_yaku: tuple[int, int] | None = slow.hand_yaku(w)
                hkey = None
            else:  # tanyao's: kept by whether an honor and a terminal are held
                hkey = (hh, has_terminal0 or IS_TERMINAL[w])
                hand_yaku = fold.get(hkey)
            sig_hand = hh << 27
            first: list[int] | None = None  # the first reading's han per context
            differ = False  # another reading's differ
            count = 0
            keeping = w == keep
            for ti, (tf, ttm, tp, roles, td) in enumerate(tk):
                ttm <<= base
                tpk = tp + base if tp >= 0 else -1
                for of, otm, op, parts in others:
                    both = tf + of
                    feats = both + meld_f
                    tm = ttm | otm | meld_tm
                    pair = tpk if tpk >= 0 else op
                    sig0 = (
                        feats & _KEPT
                        | (feats < _INSIDE) << 11
                        | honor_class[tm >> 27] << 12
                        | pair_class[pair] << 24
                        | sig_hand
                    )
                    if feats & _TRIPS >= 3 * _TRIP:  # 三連刻, 四連刻, 三色同刻
                        chain = max(_CHAIN[tm & 511], _CHAIN[tm >> 9 & 511], _CHAIN[tm >> 18 & 511])
                        sig0 |= (chain > 2) + (chain > 3) << 21
                        if tm & tm >> 9 & tm >> 18 & 511:
                            sig0 |= 1 << 23
                    n_trips = (both >> 3 & 7) + meld_conc
                    for role in roles:
                        count += 1
                        sig1 = sig0 | _ROLE_CLASS[role] << 28
                        hans = []
                        for (s_mask, s_han), c in sits:
                            opened = role == SHANPON and not c.sit.tsumo
                            key = sig1 | _CONC_CLASS[n_trips - opened] << 30
                            own = by_sig.get(key)
                            if own is None or hand_yaku is None:
                                r = slow.reading(w, role, opened, (base, td, pair, parts))
                                if hand_yaku is None:
                                    hand_yaku = fold[hkey] = _hand(plan, r, c)
                                if own is None:
                                    own = by_sig[key] = _own_yaku(plan, r, c)
                            m = s_mask | hand_yaku[0] | own[0]
                            if m & post:
                                hans.append(combined_han(plan, m, own[2], c))
                            else:
                                hans.append(s_han + hand_yaku[1] + own[1])
                            if keeping and c is c0:
                                kept.append((ti, role, (base, td, pair, parts), m, hans[0]))
                        if first is None:
                            first = hans
                        elif hans != first:
                            differ = True
                            if not keeping:
                                break
                    if differ and not keeping:
                        break
                if differ and not keeping:
                    break
            out.append((w, None if differ or first is None else tuple(first)))
            if keeping and kept:
                if count == 1:
                    _, role, where, m, _ = kept[0]
                    reading = slow.reading(w, role, role == SHANPON and not c0.sit.tsumo, where)
                    mask = _combined_mask(plan, m, rules) if m & post else m
                elif len(others) == 1:  # the taker's decompositions in readings' order
                    decomps = [_decomp(where) for _, _, where, _, _ in kept]
                    helds = {
                        (ti, ROLE_NAMES[role]): (_combined_mask(plan, m, rules), han)
                        for ti, role, _, m, han in kept
                    }
                    by_index = dict(zip([ti for ti, *_ in kept], decomps, strict=True))
                    alternatives = (slow.facts(w), [by_index[i] for i in sorted(by_index)], helds)
    seven_ok = seven >= 0 and seven in tile_kinds and (used is None or used[seven] < 4)
    if seven_ok and all(w != seven for w, _ in out):  # not a standard wait too
        out.append((seven, None))
        out.sort(key=_first)
    return Folded(out, reading, mask, alternatives)


def _first(item: tuple[int, tuple[int, ...] | None]) -> int:
    return item[0]


def _own_yaku(plan: Plan, r: Reading, c: Context) -> tuple[int, int, int]:
    """A reading's reading-level yaku: bits, han, and the yakuhai's share of the han."""
    m, h = _own(plan, r, c)
    yk = 0
    if m & plan.yakuhai:
        yk = plan.han[plan.yakuhai.bit_length() - 1] * sum(n for _, n in yakuhai_sets(r, c))
    return m, h, yk


class _Slow:
    """What :func:`fold_waits` needs of the reading-by-reading path: a reading's real facts
    and sets (a signature met for the first time, the kept wait's reading) and the
    whole-hand yaku of a hand that opens a gate."""

    __slots__ = ("hand", "plan", "ctx", "extra", "shared", "recs", "kinds", "meld_pungs")

    def __init__(
        self,
        hand: HandInput,
        plan: Plan,
        ctx: Context,
        extra: tuple[int, ...],
        shared: tuple[bool, int, bool, bool, bool, int],
        recs: tuple[GroupRecord, ...],
    ):
        self.hand, self.plan, self.ctx, self.extra = hand, plan, ctx, extra
        #: closed, kans, an honor, a terminal, only terminals/honors, suit bits (13 tiles)
        self.shared = shared
        self.recs = recs  # the concealed tiles' group records
        self.kinds: frozenset[int] | None = None
        self.meld_pungs: tuple[Pung, ...] = ()

    def facts(self, w: int) -> HandFacts:
        """``facts_maker(concealed, melds, extra)(w)`` from what the fold knows."""
        hand = self.hand
        if self.kinds is None:
            self.kinds = _kinds(self.recs)
            if hand.melds or self.extra:
                self.kinds = self.kinds | _shape_kinds((), hand.melds, self.extra)
                new = tuple.__new__
                self.meld_pungs = tuple(
                    [new(Pung, (m.tile, m.kind == "ankan", m.kind != "pon")) for m in hand.melds]
                )
        closed, n_kans, honor0, terminal0, th0, suits0 = self.shared
        counts = list(hand.concealed)
        counts[w] += 1
        honor, terminal = w >= 27, IS_TERMINAL[w]
        kinds = self.kinds if w in self.kinds else self.kinds | {w}
        suits = suits0 if honor else suits0 | 1 << (w // 9)
        return tuple.__new__(  # HandFacts positionally (its field order)
            HandFacts,
            (
                tuple(counts),
                hand.melds,
                w,
                closed,
                kinds,
                n_kans,
                honor0 or honor,
                terminal0 or terminal,
                not suits,
                not (honor0 or honor) and th0 and terminal,
                th0 and (honor or terminal),
                _N_SUITS[suits],
                _ONLY_SUIT[suits],
                (),
                self.meld_pungs,
            ),
        )

    def hand_yaku(self, w: int) -> tuple[int, int]:
        stub = Reading(self.facts(w), STANDARD, -1, (), (), "none")
        return _hand(self.plan, stub, self.ctx)

    def reading(self, w: int, role: int, opened: bool, where: Where) -> Reading:
        """The real reading (as :func:`engine.decompose.readings` builds it: sets in group
        order, then the melds')."""
        trips, runs = _sets(where)
        facts = self.facts(w)
        new = tuple.__new__  # Pung(...), Reading(...) without the NamedTuple's __new__
        pungs = []
        for t in trips:
            pungs.append(new(Pung, (t, not (opened and t == w), False)))
        if self.meld_pungs:
            pungs += self.meld_pungs
        wait = ROLE_NAMES[role]
        return new(Reading, (facts, STANDARD, where[2], tuple(runs), tuple(pungs), wait))
