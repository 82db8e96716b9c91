"""Which yaku count for a reading (docs/rules.md "How yaku combine"), compiled once per rule set.

The tests of :mod:`engine.yaku` define each yaku. This module runs them for a reading and
applies the combination rules: "a yaku never adds to its own stronger form"
(``Rules.stronger``), the composites that replace their parts (``Rules.composites``:
shousharin §36, daisharin §37), §40 (rinshan/haitei and kanburi/houtei count once), §21.1
(open riichi ron from a non-riichi player) and the option ``yakuman_exclusive``.

A rule set, closedness and win form compile to a :class:`Plan` in which every yaku of the
table is one bit (bit ``i`` = row ``i`` of ``Rules.yaku``, so ascending bits are table order).
The yaku held by a reading are an ``int`` mask and their han a running sum: the §18 guarantee
and tenpai score every wait, so this is the engine's innermost loop, and masks cost a
fraction of the dicts they replace. Lists of ``(id, han)`` are built only for the reading a
result shows (:func:`yaku_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sanma_lens.engine.decompose import HandFacts, Reading
from sanma_lens.engine.parse import Situation
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.tiles import IS_TH
from sanma_lens.engine.yaku import (
    ALL_TH,
    HAND_TESTS,
    MIN_PUNGS,
    MIN_RUNS,
    NEEDS_HONOR,
    NO_HONOR,
    ONE_SUIT,
    SITUATION_TESTS,
    TERMINAL_PAIR,
    TESTS,
    THREE_KANS,
    THREE_SUITS,
    Context,
    YakuTest,
    yakuhai_sets,
)

Held = tuple[int, int]  # (mask of held yaku bits, their total han; yakuhai once per set)


@dataclass(frozen=True, eq=False)
class Plan:
    """What to run for one rule set, closedness and form (built once, then cached). A class,
    not a NamedTuple: compiled code reads a class's fields directly, a NamedTuple's through
    Python attribute lookup."""

    situation: tuple[tuple[int, int, YakuTest], ...]  # (bit, han, test): once per context
    #: whole-hand tests (bit, han, test, gate): gate 1 one suit, 2 all terminals/honors,
    #: 3 three kans, 0 none (necessary conditions only, never sufficient)
    hand: tuple[tuple[int, int, YakuTest, int], ...]
    #: reading-level tests (bit, han, test, least pungs, least runs, needs a terminal pair,
    #: honor gate: 1 needs an honor in the hand, 2 needs none, 0 either; needs three suits)
    own: tuple[tuple[int, int, YakuTest, int, int, bool, int, bool], ...]
    han: tuple[int, ...]  # han of each bit (composites: their own han; 0 when unavailable)
    ids: tuple[str, ...]  # yaku id of each bit
    items: tuple[tuple[str, int], ...]  # (id, han) of each bit (yakuhai: per set)
    weaker: tuple[tuple[int, int], ...]  # (stronger form's bit, mask of the weaker forms)
    composites: tuple[tuple[int, int], ...]  # (mask of all parts, the composite's bit)
    #: bits of which one must be held for any combination rule to change the held mask
    post: int
    yakuhai: int  # bits of these yaku (0 when the table lacks them)
    open_riichi: int
    rinshan_haitei: tuple[int, int]
    kanburi_houtei: tuple[int, int]
    #: (one suit | all terminals/honors << 1 | three kans << 2) → the ``hand`` tests such a
    #: hand can pass
    hand_by_gates: dict[int, tuple[tuple[int, int, YakuTest], ...]]
    #: the skip conditions' inputs as one int (see ``reading_yaku``) → the ``own`` tests to run
    own_by_shape: dict[int, tuple[tuple[int, int, YakuTest], ...]]
    #: (hand gates << 9 | own shape) → the ``hand`` then the ``own`` tests (``_tiles_yaku``)
    tiles_by_key: dict[int, tuple[tuple[int, int, YakuTest], ...]]
    #: the wait fold's caches for this plan (:mod:`engine.fold`): whether it applies, the
    #: whole-hand yaku by facts and the reading-level yaku by signature per seat and round
    fold: dict[Any, Any]


# Keyed by id(rules) (hashing a Rules value hashes every field); the entry keeps the Rules
# object so that a reused id can never pick up another rule set's plan.
_PLAN_CACHE: Final[dict[tuple[int, bool, str], tuple[Rules, Plan]]] = {}


def clear_plans() -> None:
    """Forget every compiled plan and its fold tables (tests that need them built afresh)."""
    _PLAN_CACHE.clear()
    _SIT_CACHE.clear()


def plan_of(rules: Rules, closed: bool, form: str) -> Plan:
    """The compiled tests of a rule set for a closed or open hand of one win form."""
    key = (id(rules), closed, form)
    cached = _PLAN_CACHE.get(key)
    if cached is not None and cached[0] is rules:
        return cached[1]
    plan = _compile(rules, closed, form)
    if len(_PLAN_CACHE) > 4096:  # many one-off rule sets: stay bounded
        _PLAN_CACHE.clear()
        _SIT_CACHE.clear()  # (it holds plans too)
    _PLAN_CACHE[key] = (rules, plan)
    return plan


def _compile(rules: Rules, closed: bool, form: str) -> Plan:
    """Sort the table's available tests by what they look at (situation, whole hand,
    reading) and turn the combination rules into bit masks."""
    bit = {spec.id: 1 << i for i, spec in enumerate(rules.yaku)}
    composite_ids = {cid for cid, _ in rules.composites}
    han = [0] * len(rules.yaku)
    situation, hand, own = [], [], []
    for i, spec in enumerate(rules.yaku):
        h = rules.spec_han(spec, closed)
        if h is not None and not rules.double_yakuman and spec.id not in composite_ids:
            h = min(h, rules.yakuman_han)  # option: double-yakuman hands count single
        han[i] = h or 0
        entry = TESTS.get(spec.id)
        if h is None or entry is None or spec.id in composite_ids:
            continue
        fn, forms = entry
        if form not in forms:
            continue
        b = 1 << i
        if spec.id in SITUATION_TESTS:
            situation.append((b, h, fn))
        elif spec.id in HAND_TESTS:
            gate = (
                1
                if spec.id in ONE_SUIT
                else 2
                if spec.id in ALL_TH
                else (3 if spec.id in THREE_KANS else 0)
            )
            hand.append((b, h, fn, gate))
        else:
            needs = (MIN_PUNGS.get(spec.id, 0), MIN_RUNS.get(spec.id, 0))
            honor_gate = 1 if spec.id in NEEDS_HONOR else 2 if spec.id in NO_HONOR else 0
            own.append(
                (b, h, fn, *needs, spec.id in TERMINAL_PAIR, honor_gate, spec.id in THREE_SUITS)
            )
    weaker: dict[int, int] = {}
    for weak, strong in rules.stronger:
        if strong in bit:
            weaker[bit[strong]] = weaker.get(bit[strong], 0) | bit.get(weak, 0)
    composites = []
    post = 0
    for cid, parts in rules.composites:
        if rules.yaku_han(cid, closed) is None or any(p not in bit for p in parts):
            continue  # unavailable, or a part the table lacks: it can never apply
        composites.append((sum(bit[p] for p in parts), bit[cid]))
        post |= bit[parts[-1]]
    for b in weaker:
        post |= b
    post |= bit.get("haitei", 0) | bit.get("houtei", 0) | bit.get("open_riichi", 0)
    return Plan(
        situation=tuple(situation),
        hand=tuple(hand),
        own=tuple(own),
        han=tuple(han),
        ids=tuple(spec.id for spec in rules.yaku),
        items=tuple((spec.id, h) for spec, h in zip(rules.yaku, han, strict=True)),
        weaker=tuple(weaker.items()),
        composites=tuple(composites),
        post=post,
        yakuhai=bit.get("yakuhai", 0),
        open_riichi=bit.get("open_riichi", 0),
        rinshan_haitei=(bit.get("rinshan", 0), bit.get("haitei", 0)),
        kanburi_houtei=(bit.get("kanburi", 0), bit.get("houtei", 0)),
        hand_by_gates={},
        own_by_shape={},
        tiles_by_key={},
        fold={},
    )


# The plan and situational yaku by rule set, situation, closedness and form: they depend on
# nothing else (the Context cache holds them per Context; this one serves new Contexts of
# equal situations, one per evaluated hand, without compiling or even looking up the plan).
_SIT_CACHE: Final[dict[tuple[int, Situation, bool, str], tuple[Rules, tuple[Plan, Held]]]] = {}


def _situational(plan: Plan, closed: bool, form: str, c: Context) -> Held:
    """The situational yaku of ``c`` for a hand of this closedness and form."""
    mask = han = 0
    stub = _form_reading(closed, form)  # situational tests read the form only
    for b, h, fn in plan.situation:
        if fn(stub, c):
            mask |= b
            han += h
    return mask, han


def _form_reading(closed: bool, form: str) -> Reading:
    """A reading with only its form and closedness (what situational tests may read)."""
    facts = HandFacts((), (), -1, closed, (), 0)
    return Reading(facts, form, -1, (), (), "none")


def situational(c: Context, closed: bool, form: str) -> tuple[Plan, Held]:
    """The plan of ``c``'s rule set for a closed or open hand of one form, and the
    situational yaku of ``c`` (kept in ``c.cache``)."""
    key = (closed, form)
    entry = c.cache.get(key)
    if entry is None:
        rules = c.rules
        shared_key = (id(rules), c.sit, closed, form)
        shared = _SIT_CACHE.get(shared_key)
        if shared is not None and shared[0] is rules:
            entry = shared[1]
        else:
            plan = plan_of(rules, closed, form)
            entry = (plan, _situational(plan, closed, form, c))
            if len(_SIT_CACHE) > 4096:  # stay bounded
                _SIT_CACHE.clear()
            _SIT_CACHE[shared_key] = (rules, entry)
        c.cache[key] = entry
    return entry


def held(r: Reading, c: Context, memo: dict[Any, Any] | None = None) -> Held:
    """The yaku that count for a reading as ``(mask, total han)`` after the combination
    rules; yakuhai counts once per set (a double wind's set twice).

    ``memo`` (optional, one dict per completed hand) keeps the whole-hand yaku per form and
    the reading-level yaku per reading object. Reading-level tests look at the situation only
    through seat, round and rules, so one memo may serve the ron and the tsumo contexts of
    the same hand (tenpai); it must not be shared between seats, rounds or rule sets.
    """
    form = r.form
    entry = c.cache.get((r.facts.closed, form))  # (plan, situational yaku) of this context
    if entry is None:
        entry = situational(c, r.facts.closed, form)
    plan, (mask, han) = entry
    if memo is None:
        hm, hh = _tiles_yaku(plan, r, c)
        om = oh = 0
    else:
        hand = memo.get(form)
        if hand is None:
            hand = memo[form] = whole_hand_yaku(plan, r, c)
        hm, hh = hand
        own = memo.get(id(r))
        if own is not None and own[0] is r:
            _, om, oh = own
        else:
            om, oh = reading_yaku(plan, r, c)
            memo[id(r)] = (r, om, oh)
    mask |= hm | om
    han += hh + oh
    if mask & plan.post:
        return _combine(plan, mask, r, c)
    return mask, han


def held_ron_tsumo(r: Reading, ron: Context, tsumo: Context) -> tuple[int, int]:
    """``(held(r, ron)[1], held(r, tsumo)[1])`` for the ron and the tsumo context of one
    moment (tenpai, §29): only the situational yaku differ, so the whole-hand and
    reading-level yaku are worked out once (they look at the situation only through seat,
    round and rules)."""
    closed, form = r.facts.closed, r.form
    entry = ron.cache.get((closed, form))
    if entry is None:
        entry = situational(ron, closed, form)
    t_entry = tsumo.cache.get((closed, form))
    if t_entry is None:
        t_entry = situational(tsumo, closed, form)
    plan, (ron_mask, ron_han) = entry
    _, (tsumo_mask, tsumo_han) = t_entry
    shared, shared_han = _tiles_yaku(plan, r, ron)
    post = plan.post
    ron_mask |= shared
    tsumo_mask |= shared
    ron_value = _combine(plan, ron_mask, r, ron)[1] if ron_mask & post else ron_han + shared_han
    tsumo_value = (
        _combine(plan, tsumo_mask, r, tsumo)[1] if tsumo_mask & post else tsumo_han + shared_han
    )
    return ron_value, tsumo_value


def _tiles_yaku(plan: Plan, r: Reading, c: Context) -> Held:
    """:func:`whole_hand_yaku` and :func:`reading_yaku` together (one lookup and one loop
    over the tests both would run): the yaku a reading holds by its tiles, without a memo."""
    f = r.facts
    key = _gates(f) << 9 | _shape(r)
    tests = plan.tiles_by_key.get(key)
    if tests is None:
        tests = plan.tiles_by_key[key] = _hand_tests(plan, f) + _own_tests(plan, r)
    return _run(tests, plan, r, c)


def whole_hand_yaku(plan: Plan, r: Reading, c: Context) -> Held:
    """Whole-hand yaku, skipping tests whose gate (one suit, all terminals/honors, three
    kans) the hand fails."""
    f = r.facts
    gates = _gates(f)
    tests = plan.hand_by_gates.get(gates)
    if tests is None:
        tests = plan.hand_by_gates[gates] = _hand_tests(plan, f)
    return _run(tests, plan, r, c)


def reading_yaku(plan: Plan, r: Reading, c: Context) -> Held:
    """Reading-level yaku, skipping tests whose necessary conditions fail: least pungs and
    runs, a terminal/honor pair, an honor in the hand (or none), all three suits."""
    shape = _shape(r)
    tests = plan.own_by_shape.get(shape)
    if tests is None:
        tests = plan.own_by_shape[shape] = _own_tests(plan, r)
    return _run(tests, plan, r, c)


# The caches above are keyed by ints (cheaper to hash than tuples) of what the skips read.
def _gates(f: HandFacts) -> int:
    """The whole-hand gates: one suit, all terminals/honors, three kans."""
    return (f.n_suits <= 1) | f.all_th << 1 | (f.n_kans >= 3) << 2


def _shape(r: Reading) -> int:
    """What the reading-level skips read: pungs, runs, a terminal/honor pair, an honor held,
    all three suits."""
    f = r.facts
    return (
        len(r.pungs) << 6
        | len(r.runs) << 3
        | IS_TH[r.pair] << 2
        | f.has_honor << 1
        | (f.n_suits == 3)
    )


def _hand_tests(plan: Plan, f: HandFacts) -> tuple[tuple[int, int, YakuTest], ...]:
    """The whole-hand tests whose gate this hand opens."""
    open_gates = (True, f.n_suits <= 1, f.all_th, f.n_kans >= 3)  # gate 0: always run
    return tuple((b, h, fn) for b, h, fn, gate in plan.hand if open_gates[gate])


def _run(tests: tuple[tuple[int, int, YakuTest], ...], plan: Plan, r: Reading, c: Context) -> Held:
    """The yaku among ``tests`` that ``r`` holds in ``c``: their bits and han."""
    mask = han = 0
    yakuhai = plan.yakuhai
    for b, h, fn in tests:
        if fn(r, c):
            mask |= b
            if b == yakuhai:  # once per set, twice for a double wind's set
                han += h * sum(n for _, n in yakuhai_sets(r, c))
            else:
                han += h
    return mask, han


def _own_tests(plan: Plan, r: Reading) -> tuple[tuple[int, int, YakuTest], ...]:
    """The reading-level tests whose necessary conditions a reading of this shape meets."""
    f = r.facts
    n_pungs, n_runs = len(r.pungs), len(r.runs)
    th_pair, honor, three_suits = IS_TH[r.pair], f.has_honor, f.n_suits == 3
    return tuple(
        (b, h, fn)
        for b, h, fn, least_pungs, least_runs, needs_th, honor_gate, needs_suits in plan.own
        if n_pungs >= least_pungs
        and n_runs >= least_runs
        and (th_pair or not needs_th)
        and (honor_gate == 0 or (honor_gate == 1) == honor)
        and (three_suits or not needs_suits)
    )


def _combine(plan: Plan, mask: int, r: Reading, c: Context) -> Held:
    """Stronger forms remove their weaker ones, composites replace their parts, §40 counts
    rinshan/haitei and kanburi/houtei once, §21.1 sets open riichi's han."""
    mask = combined_mask(plan, mask, c.rules)
    yakuhai_han = 0
    if mask & plan.yakuhai:
        yakuhai_han = plan.han[plan.yakuhai.bit_length() - 1] * sum(
            n for _, n in yakuhai_sets(r, c)
        )
    return mask, _mask_han(plan, mask, yakuhai_han, c)


def combined_han(plan: Plan, mask: int, yakuhai_han: int, c: Context) -> int:
    """:func:`_combine`'s han for held bits ``mask`` whose yakuhai (if held) are worth
    ``yakuhai_han`` in all (once per set)."""
    return _mask_han(plan, combined_mask(plan, mask, c.rules), yakuhai_han, c)


def combined_mask(plan: Plan, mask: int, rules: Rules) -> int:
    """The held bits after the combination rules (see :func:`_combine`)."""
    drop = 0
    for strong, weak in plan.weaker:
        if mask & strong:
            drop |= weak
    mask &= ~drop
    for parts, composite in plan.composites:
        if mask & parts == parts:
            mask = (mask & ~parts) | composite
    rinshan, haitei = plan.rinshan_haitei
    if mask & rinshan and mask & haitei and not rules.rinshan_haitei_combine:
        mask &= ~haitei
    kanburi, houtei = plan.kanburi_houtei
    if mask & kanburi and mask & houtei and not rules.kanburi_houtei_combine:
        mask &= ~houtei
    return mask


def _mask_han(plan: Plan, mask: int, yakuhai_han: int, c: Context) -> int:
    """The han of held bits: the table's, yakuhai as given, open riichi by §21.1."""
    total = 0
    while mask:
        b = mask & -mask  # the lowest held bit
        mask ^= b
        if b == plan.yakuhai:
            total += yakuhai_han
        elif b == plan.open_riichi:
            total += _open_riichi_han(plan.han[b.bit_length() - 1], c)
        else:
            total += plan.han[b.bit_length() - 1]
    return total


def _items(plan: Plan, mask: int, r: Reading, c: Context) -> list[tuple[str, int]]:
    """``(id, han)`` of each held bit in table order (yakuhai once per set, §21.1 applied)."""
    out: list[tuple[str, int]] = []
    items = plan.items
    special = plan.yakuhai | plan.open_riichi
    while mask:
        b = mask & -mask  # the lowest held bit
        mask ^= b
        i = b.bit_length() - 1
        if not b & special:
            out.append(items[i])
        elif b == plan.yakuhai:
            out.extend(("yakuhai", plan.han[i] * n) for _, n in yakuhai_sets(r, c))
        else:
            out.append((plan.ids[i], _open_riichi_han(plan.han[i], c)))
    return out


def has_yakuman_yaku(r: Reading, c: Context, h: Held) -> bool:
    """Whether one held yaku (one yakuhai set) is worth a yakuman on its own."""
    ym = c.rules.yakuman_han
    if h[1] < ym:
        return False
    plan = plan_of(c.rules, r.facts.closed, r.form)
    return any(han >= ym for _, han in _items(plan, h[0], r, c))


def yaku_of(r: Reading, c: Context, memo: dict[Any, Any] | None = None) -> list[tuple[str, int]]:
    """The yaku that count for a reading as ``[(id, han), ...]`` in table order (yakuhai once
    per set); under ``yakuman_exclusive`` only the yakuman yaku when there is one."""
    return yaku_of_mask(r, c, held(r, c, memo)[0])


def yaku_of_mask(r: Reading, c: Context, mask: int) -> list[tuple[str, int]]:
    """:func:`yaku_of` for a reading whose held bits (after the combination rules) are
    known."""
    if not mask:
        return []
    entry = c.cache.get((r.facts.closed, r.form))  # (plan, situational yaku) of this context
    plan = entry[0] if entry is not None else plan_of(c.rules, r.facts.closed, r.form)
    out = _items(plan, mask, r, c)
    rules = c.rules
    if rules.yakuman_exclusive and any(h >= rules.yakuman_han for _, h in out):
        out = [(y, h) for y, h in out if h >= rules.yakuman_han]
    return out


def yaku_han_of(r: Reading, c: Context, memo: dict[Any, Any] | None = None) -> int:
    """``sum(han for _, han in yaku_of(r, c))`` without building the list (waits, tenpai)."""
    if c.rules.yakuman_exclusive:
        return sum(h for _, h in yaku_of(r, c, memo))
    return held(r, c, memo)[1]


def _open_riichi_han(han: int, c: Context) -> int:
    """§21.1: 15 han on a ron from a player not in riichi; open double riichi 3 [interp]."""
    vs_non_riichi = c.rules.open_riichi_vs_non_riichi_han
    if vs_non_riichi and not c.sit.tsumo and not c.sit.discarder_riichi:
        return vs_non_riichi
    if c.sit.riichi == "double_open":
        return c.rules.open_double_riichi_han
    return han
