"""The wait fold (engine.fold) gives the same waits and yaku han as scoring every wait
reading by reading (§18 guarantee, §29 tenpai), over random hands and option sets."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.engine import random_winning_hand, tiles_text
from sanma_lens.engine.decompose import chiitoitsu_wait
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.evaluate import completer
from sanma_lens.engine.fold import SHANPON, TANKI, additions, fold_waits, group, roles
from sanma_lens.engine.parse import Parsed, parse_hand
from sanma_lens.engine.suits import DECOMPS_BY_CODE, pattern_code
from sanma_lens.engine.tiles import SANMA_KINDS, name
from sanma_lens.engine.waits import WaitDora, ron_and_tsumo_values, wait_han, wait_shapes
from sanma_lens.engine.yaku import Context

OPTIONS: list[dict[str, Any]] = [
    {},
    {"north_is_yakuhai": True},
    {"chanta_needs_run": False, "honroutou_needs_terminals_and_honors": False},
    {"kita_counts_in_shape": True},
    {"used_up_waits_count": True},
    {"rinshan_haitei_combine": True},
    {"chiitoitsu_four_of_a_kind": True},
]


def _hands(n: int, seed: int) -> list[Parsed]:
    """Random winning hands of the benchmark and dense one-suit hands (many readings), in
    random situations and option sets, without their winning tile."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if rng.random() < 0.3:
            base = rng.choice([9, 18])
            counts = [0] * 34
            for t in rng.sample(list(range(base, base + 9)) * 4, 13):
                counts[t] += 1
            obj: dict[str, Any] = {"hand": tiles_text(counts), "melds": [], "dora": ["1z"]}
        else:
            obj = random_winning_hand(rng)
            obj.pop("win")
        obj.update(
            tsumo=rng.random() < 0.5,
            seat=rng.choice("ESW"),
            round=rng.choice("ES"),
            rules=rng.choice(OPTIONS),
        )
        if not obj.get("melds"):
            obj["riichi"] = rng.choice(["none", "riichi", "double"])
            obj["ippatsu"] = obj["riichi"] != "none" and rng.random() < 0.3
        if rng.random() < 0.2:
            obj["kita"] = rng.choice([1, 2])
        if rng.random() < 0.1:
            obj["haitei" if obj["tsumo"] else "houtei"] = True
        try:
            out.append(parse_hand(obj, need_win=False))
        except InputError:
            continue
    return out


def test_rule_18_fold_gives_every_wait_with_its_reading_by_reading_yaku_han() -> None:
    checked = 0
    for p in _hands(600, 18):
        ctx = Context(p.situation, p.rules)
        found = fold_waits(p.hand, p.rules, (ctx,))
        if found is None:
            continue
        shapes = wait_shapes(p.hand, p.rules)
        assert [w for w, _ in found.waits] == [w for w, _ in shapes]
        make = completer(p.hand, p.rules)
        dora = WaitDora(p.hand, p.situation, p.rules)
        for (w, hans), (_, decomps) in zip(found.waits, shapes, strict=True):
            if hans is not None:
                assert hans[0] == wait_han(w, decomps, make, ctx, dora), (p.hand, name(w))
                checked += 1
    assert checked > 500


def test_rule_29_fold_gives_ron_and_tsumo_han_of_every_wait() -> None:
    checked = 0
    for p in _hands(400, 29):
        hand, sit, rules = p.hand, p.situation, p.rules
        folded = ron_and_tsumo_values(hand, sit, rules)
        plain = ron_and_tsumo_values(hand, sit, rules, wait_shapes(hand, rules))
        assert folded == plain, hand
        checked += len(plain[0])
    assert checked > 300


def _chiitoitsu_hands(n: int, seed: int) -> list[Parsed]:
    """Chiitoitsu hands holding a four of a kind (or a three waiting on its fourth), less a
    tile, under the option ``chiitoitsu_four_of_a_kind``, in random situations."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        six = rng.sample(sorted(SANMA_KINDS), 6)
        counts = [0] * 34
        for k in [*six, rng.choice(six)]:
            counts[k] += 2
        counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
        obj: dict[str, Any] = {
            "hand": tiles_text(counts),
            "tsumo": rng.random() < 0.5,
            "seat": rng.choice("ESW"),
            "riichi": rng.choice(["none", "riichi"]),
            "rules": {"chiitoitsu_four_of_a_kind": True},
        }
        out.append(parse_hand(obj, need_win=False))
    return out


def test_fold_leaves_a_chiitoitsu_wait_with_a_four_of_a_kind_to_the_reading_path() -> None:
    """Under ``chiitoitsu_four_of_a_kind`` the fold gives the chiitoitsu wait of a hand
    holding a four (or a three) no value of its own, and its answers are the plain path's."""
    checked = 0
    for p in _chiitoitsu_hands(150, 26):
        hand, sit, rules = p.hand, p.situation, p.rules
        ctx = Context(sit, rules)
        found = fold_waits(hand, rules, (ctx,))
        assert found is not None
        shapes = wait_shapes(hand, rules)
        assert [w for w, _ in found.waits] == [w for w, _ in shapes]
        seven = chiitoitsu_wait(hand.concealed, True)
        assert seven >= 0 and dict(found.waits)[seven] is None
        folded = ron_and_tsumo_values(hand, sit, rules)
        assert folded == ron_and_tsumo_values(hand, sit, rules, shapes), hand
        assert folded[1][folded[0].index(seven)] >= 2  # chiitoitsu's 2 han at least
        checked += 1
    assert checked == 150


def test_rule_18_fold_keeps_the_wins_single_reading() -> None:
    """The kept wait's reading is the one reading the reading-by-reading path makes."""
    from sanma_lens.engine.evaluate import readings_in

    seen = 0
    for p in _hands(300, 7):
        ctx = Context(p.situation, p.rules)
        for w in range(34):
            found = fold_waits(p.hand, p.rules, (ctx,), w)
            if found is None or found.reading is None:
                continue
            rs = readings_in(completer(p.hand, p.rules)(w), ctx)
            assert rs == [found.reading]
            seen += 1
    assert seen > 100


def test_pattern_additions_and_roles_of_a_shanpon_and_tanki() -> None:
    """55 + 77 (ranks 4 and 6): a 5 or a 7 completes it as a shanpon triplet, a 6 does not;
    555 + 77 is a triplet and a pair; a single 7 waits on itself (tanki)."""
    two_pairs = group(pattern_code((0, 0, 0, 0, 2, 0, 2, 0, 0)))
    assert not two_pairs.whole and two_pairs.flags == 0  # two pairs are not a whole group
    by_rank = {a & 15: g for a, g in additions(two_pairs)}
    assert sorted(by_rank) == [4, 6]
    assert by_rank[4].code == pattern_code((0, 0, 0, 0, 3, 0, 2, 0, 0))
    assert {r for d in by_rank[4].whole for r in roles(d, 4)} == {SHANPON}
    assert [(pair, trips) for pair, trips, _ in by_rank[4].decomps] == [(6, (4,))]
    single = additions(group(pattern_code((0, 0, 0, 0, 0, 0, 1, 0, 0))))
    assert [(a & 15, {r for d in g.whole for r in roles(d, 6)}) for a, g in single] == [
        (6, {TANKI})
    ]


def test_packed_roles_are_those_of_the_readings() -> None:
    """Every whole suit pattern's packed decompositions give, for each rank held, the
    roles the reading-by-reading path gives a winning tile of that rank (engine.decompose
    RUN_WAITS: 12 + 3 is a penchan, 13 + 2 a kanchan, 23 + 1 or 4 a ryanmen)."""
    from sanma_lens.engine.decompose import RUN_WAITS
    from sanma_lens.engine.fold import ROLE_NAMES

    checked = 0
    for code, decomps in DECOMPS_BY_CODE.items():
        if code >= 1 << 27:
            continue
        for d, packed in zip(decomps, group(code).whole, strict=True):
            pair, trips, runs = d
            for rank in {pair, *trips, *(r + i for r in runs for i in range(3))} - {-1}:
                want = {"tanki"} if pair == rank else set()
                want |= {"shanpon"} if rank in trips else set()
                want |= {RUN_WAITS[s][rank - s] for s in runs if s <= rank <= s + 2}
                assert {ROLE_NAMES[r] for r in roles(packed, rank)} == want, (d, rank)
                checked += 1
    assert checked > 50_000


def test_rule_18_win_evaluated_through_the_fold_is_best_of_its_readings() -> None:
    """The actual win's evaluation (one reading, or several ranked with the fold's yaku) is
    :func:`engine.evaluate.best` of the completed hand (highest points, ties as it breaks
    them), and the guarantee's value of that wait is its yaku han."""
    from sanma_lens.engine.evaluate import best, dora_of, readings_in
    from sanma_lens.engine.waits import win_and_guarantee

    rng = random.Random(33)
    several = 0
    for _ in range(600):
        obj = random_winning_hand(rng)
        obj["rules"] = rng.choice(OPTIONS)
        p = parse_hand(obj, need_win=True)
        hand, win = p.hand, p.hand.win_kind
        assert win is not None
        ctx = Context(p.situation, p.rules)
        extra = dora_of(hand, hand.win, win, p.situation, p.rules).total
        found = fold_waits(hand, p.rules, (ctx,), win)
        several += found is not None and found.alternatives is not None
        ev, g, _ = win_and_guarantee(p, Context(p.situation, p.rules), extra)
        facts = completer(hand, p.rules)(win)
        assert ev == best(facts, ctx, extra, readings_in(facts, ctx)), obj
        assert [v.yaku_han for v in g.waits if v.tile == win] in ([], [ev.yaku_han if ev else 0])
    assert several > 30


def _fold_matches(objs: list[dict[str, Any]]) -> int:
    """Fold every hand of ``objs`` in order in one process (the signature table shared) and
    compare each wait's han with the reading-by-reading path; the number of waits checked."""
    checked = 0
    for obj in objs:
        p = parse_hand(obj, need_win=False)
        ctx = Context(p.situation, p.rules)
        found = fold_waits(p.hand, p.rules, (ctx,))
        assert found is not None, obj
        make = completer(p.hand, p.rules)
        dora = WaitDora(p.hand, p.situation, p.rules)
        for (w, hans), (_, decomps) in zip(found.waits, wait_shapes(p.hand, p.rules), strict=True):
            if hans is not None:
                assert hans[0] == wait_han(w, decomps, make, ctx, dora), (obj, name(w))
                checked += 1
    return checked


def _fresh_plans() -> None:
    """Empty the rule-set and plan caches, so the next hand meets an empty signature table."""
    from sanma_lens.engine.rules import clear_rules_cache
    from sanma_lens.engine.yaku_eval import clear_plans

    clear_rules_cache()
    clear_plans()


def test_rule_18_fold_signatures_tell_apart_hands_alike_but_for_one_feature() -> None:
    """Pairs that share every signature feature but one, folded one after the other both
    ways round: a cached signature answer must never serve the other hand (found by
    breaking the fold one feature at a time)."""
    kita_shape = {"hand": "12378999p12379s", "rules": {"kita_counts_in_shape": True}}
    doukou = {"hand": "111p111s234p5s", "melds": ["pon:111m"]}
    three_kans = {"hand": "123p4s", "melds": ["ankan:1111z", "minkan:2222z", "minkan:9999p"]}
    pairs = [
        (kita_shape, {**kita_shape, "kita": 1}),
        (doukou, {**doukou, "melds": ["pon:999m"]}),
        (
            three_kans,
            {**three_kans, "melds": ["ankan:1111z", "minkan:2222z", "pon:999p"], "hand": "123p4s"},
        ),
    ]
    for a, b in pairs:
        for order in ([a, b], [b, a]):
            _fresh_plans()
            assert _fold_matches(order) > 0


# Situations the random hands above never meet: open riichi (§21.1: 15 han on a ron from a
# player not in riichi, open double riichi 3 [interp]), rinshan and chankan (§18.3: they hold
# for every wait), and 8+ honba (§18.4: 3 han required from 5 honba; §35 paarenchan for the
# dealer). Each set of hands is checked wait by wait (score's single context and tenpai's ron
# and tsumo contexts) and as whole score/tenpai results against the engine with the fold off.
SITUATIONS: dict[str, list[dict[str, Any]]] = {
    "open_riichi": [
        {"riichi": r, "tsumo": t, "discarder_riichi": d}
        for r in ("open", "double_open")
        for t, d in ((True, False), (False, False), (False, True))
    ],
    "rinshan_chankan": [
        {"rinshan": True, "tsumo": True},
        {"chankan": True, "tsumo": False},
        {"rinshan": True, "haitei": True, "tsumo": True},
    ],
    "honba_8": [{"honba": h, "seat": s} for h in (8, 9, 12) for s in ("E", "S", "W")],
}


def _situated(kind: str, n: int, seed: int, win: bool) -> list[dict[str, Any]]:
    """``n`` hand JSONs of the benchmark's and dense one-suit shapes (with their winning tile
    when ``win``), each in one of ``SITUATIONS[kind]`` and a random option set (hands the
    situation cannot hold, such as open riichi with a pon, are drawn again)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        if rng.random() < 0.3:
            base = rng.choice([9, 18])
            tiles = rng.sample(list(range(base, base + 9)) * 4, 14)
            counts = [0] * 34
            for t in tiles:
                counts[t] += 1
            counts[tiles[0]] -= 1
            obj: dict[str, Any] = {"hand": tiles_text(counts), "win": name(tiles[0])}
        else:
            obj = random_winning_hand(rng)
        obj.update(
            riichi="none",
            seat=rng.choice("ESW"),
            round=rng.choice("ES"),
            rules=rng.choice(OPTIONS),
            honba=rng.choice([0, 3]),
        )
        obj.update(rng.choice(SITUATIONS[kind]))
        if kind == "rinshan_chankan" and rng.random() < 0.3:
            obj["honba"] = 5
        if obj["riichi"] != "none" and rng.random() < 0.3:
            obj["ippatsu"] = True
        if not win:
            obj.pop("win")
        try:
            parse_hand(obj, need_win=win)
        except InputError:
            continue
        out.append(obj)
    return out


def _no_fold(*_: Any, **__: Any) -> None:
    """``fold_waits`` switched off: every wait read reading by reading."""
    return None


def _check_waits(objs: list[dict[str, Any]]) -> int:
    """Each hand's folded waits (score's context; tenpai's ron and tsumo contexts) equal the
    reading-by-reading values; the number of folded waits checked."""
    checked = 0
    for obj in objs:
        p = parse_hand(obj, need_win=False)
        ctx = Context(p.situation, p.rules)
        found = fold_waits(p.hand, p.rules, (ctx,))
        if found is None:
            continue
        shapes = wait_shapes(p.hand, p.rules)
        assert [w for w, _ in found.waits] == [w for w, _ in shapes], obj
        make = completer(p.hand, p.rules)
        dora = WaitDora(p.hand, p.situation, p.rules)
        for (w, hans), (_, decomps) in zip(found.waits, shapes, strict=True):
            if hans is not None:
                assert hans[0] == wait_han(w, decomps, make, ctx, dora), (obj, name(w))
                checked += 1
        folded = ron_and_tsumo_values(p.hand, p.situation, p.rules)
        assert folded == ron_and_tsumo_values(p.hand, p.situation, p.rules, shapes), obj
    return checked


def _check_results(objs: list[dict[str, Any]], monkeypatch: Any) -> None:
    """score() (hands with a win) or tenpai() (without) are the same with the fold off."""
    from sanma_lens.engine import waits
    from sanma_lens.engine.score import score

    win = "win" in objs[0]
    run = score if win else waits.tenpai
    folded = [run(parse_hand(obj, need_win=win)) for obj in objs]
    with monkeypatch.context() as m:
        m.setattr(waits, "fold_waits", _no_fold)
        plain = [run(parse_hand(obj, need_win=win)) for obj in objs]
    for obj, a, b in zip(objs, folded, plain, strict=True):
        assert a == b, obj


def test_rule_21_1_fold_open_riichi_and_open_double_riichi(monkeypatch: Any) -> None:
    """Open riichi is 15 han on a ron from a player not in riichi (2 on tsumo or from a
    riichi player), open double riichi 3 [interp]: a combination-rule yaku the fold must
    value per context, never from a signature."""
    assert _check_waits(_situated("open_riichi", 300, 211, False)) > 300
    _check_results(_situated("open_riichi", 200, 212, True), monkeypatch)
    _check_results(_situated("open_riichi", 150, 213, False), monkeypatch)


def test_rule_18_3_fold_rinshan_and_chankan_hold_for_every_wait(monkeypatch: Any) -> None:
    """Rinshan (tsumo) and chankan (ron) count for every wait (§18.3); rinshan with haitei
    counts once unless the option combines them (§40)."""
    assert _check_waits(_situated("rinshan_chankan", 300, 183, False)) > 300
    _check_results(_situated("rinshan_chankan", 200, 184, True), monkeypatch)
    _check_results(_situated("rinshan_chankan", 150, 185, False), monkeypatch)


def test_rule_18_4_fold_eight_honba_three_han_and_paarenchan(monkeypatch: Any) -> None:
    """With 8+ honba the guarantee needs 3 han (§18.4) and the dealer holds paarenchan
    (§35, 15 han, counted for every wait)."""
    assert _check_waits(_situated("honba_8", 300, 184, False)) > 300
    _check_results(_situated("honba_8", 200, 185, True), monkeypatch)
    _check_results(_situated("honba_8", 150, 186, False), monkeypatch)
