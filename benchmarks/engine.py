"""Engine speed: score (with the §18 guarantee) and tenpai per hand, against the mahjong library.

Generates N random legal sanma winning hands (seeded), then times
  1. ``engine`` scoring of each hand (``score`` on the parsed hand, guarantee included),
  2. ``engine`` tenpai of the 13-tile hand (every wait scored by ron and by tsumo),
  3. the ``mahjong`` library 2.1.0 ``HandCalculator.estimate_hand_value`` (three-player flag)
     on the same hands,
and prints hands/s for each and the ratio. Also times the JSON entry points.

Usage: ``.venv/bin/python benchmarks/engine.py [--n 10000] [--seed 1] [--phases] [--cli]``
(``--phases``: afterwards, time growing prefixes of ``score``'s work on the same hands;
``--cli``: afterwards, ``sanma score --batch`` end to end on N other hands, a JSON Lines file in
and out, in a child process: its CPU time, start-up included, against the library's rate of
this run. ``benchmarks/batch.py`` measures that target on its own: the library and the
command on the same hands, in alternating rounds).
Rates use process CPU time (``time.process_time``), which is steadier than wall time on the
2 shared cores; contention from other processes still moves the numbers, so compare the
ratio taken in one run rather than absolute rates across runs. The library and ``score``
(the ratio the target is set on) are timed in alternating blocks of 500 hands, so that a
change of load during the run moves both alike.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

if __name__ == "__main__":  # run as a script: the repository root on sys.path, not this folder
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:] = [
        p
        for p in sys.path
        if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))
    ]
    sys.path.insert(0, root)

from sanma_lens.engine.tiles import SANMA_KINDS, name  # noqa: E402

SUIT_RUN_STARTS = [b + i for b in (9, 18) for i in range(7)]
KINDS = sorted(SANMA_KINDS)


def tiles_text(counts: list[int]) -> str:
    """MPSZ text of 34 kind counts, e.g. ``123p55z`` (also used by the engine's tests)."""
    groups: dict[str, str] = {}
    for k, c in enumerate(counts):
        if c:
            n = name(k)
            groups[n[1]] = groups.get(n[1], "") + n[0] * c
    return "".join(groups[s] + s for s in "mpsz" if s in groups)


def random_winning_hand(rng: random.Random) -> dict[str, Any]:
    """A random legal sanma winning hand JSON (standard shape mostly, some chiitoitsu/kokushi).

    Tiles respect four of a kind over hand, melds and the dora indicator; no red fives, no kita
    (so that the same hand is meaningful to the four-player library).
    """
    while True:
        counts = [0] * 34
        melds: list[str] = []
        meld_kinds: list[int] = []
        form = rng.random()
        concealed = [0] * 34
        if form < 0.06:
            kinds = rng.sample(KINDS, 7)
            for k in kinds:
                concealed[k] += 2
        elif form < 0.08:
            kk = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
            for k in kk:
                concealed[k] += 1
            concealed[rng.choice(kk)] += 1
        else:
            n_melds = rng.choice([0, 0, 0, 1, 1, 2])
            ok = True
            for i in range(4):
                if rng.random() < 0.55:
                    s = rng.choice(SUIT_RUN_STARTS)
                    for k in (s, s + 1, s + 2):
                        concealed[k] += 1
                else:
                    k = rng.choice(KINDS)
                    if i < n_melds:
                        kind = rng.choice(["pon", "pon", "pon", "minkan", "ankan", "kakan"])
                        size = 3 if kind == "pon" else 4
                        counts[k] += size
                        melds.append(f"{kind}:{name(k)[0] * size}{name(k)[1]}")
                        meld_kinds.append(k)
                    else:
                        concealed[k] += 3
            pair = rng.choice(KINDS)
            concealed[pair] += 2
            if not ok:
                continue
        total = [a + b for a, b in zip(counts, concealed, strict=True)]
        if any(c > 4 for c in total):
            continue
        tiles = [k for k, c in enumerate(concealed) for _ in range(c)]
        win = rng.choice(tiles)
        concealed[win] -= 1
        dora = rng.choice([k for k in KINDS if total[k] < 4])
        closed = all(m.startswith("ankan") for m in melds)
        tsumo = rng.random() < 0.4
        riichi = rng.choice(["none", "riichi", "riichi"]) if closed else "none"
        return {
            "hand": tiles_text(concealed),
            "win": name(win),
            "melds": melds,
            "dora": [name(dora)],
            "tsumo": tsumo,
            "riichi": riichi,
            "seat": rng.choice("ESW"),
            "round": rng.choice("ES"),
        }


def _lib_inputs(obj: dict[str, Any]) -> tuple[Any, ...]:
    """The same hand for the mahjong library: 136-tile ids, melds, win tile, config."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as LMeld

    from sanma_lens.engine.parse import parse_hand
    from sanma_lens.engine.tiles import WIND_LETTERS

    p = parse_hand(obj, need_win=True)
    used = [0] * 34
    tiles: list[int] = []

    def take(k: int) -> int:
        t = k * 4 + used[k]
        used[k] += 1
        return t

    melds = []
    for m in p.hand.melds:
        ids = [take(m.tile) for _ in m.tiles]
        tiles.extend(ids[:4])
        if m.kind == "pon":
            melds.append(LMeld(LMeld.PON, ids, opened=True))
        else:
            melds.append(LMeld(LMeld.KAN, ids, opened=m.kind != "ankan"))
    for k, c in enumerate(p.hand.concealed):
        for _ in range(c):
            tiles.append(take(k))
    win = take(p.hand.win_kind or 0)
    tiles.append(win)
    dora = [p.hand.dora[0].kind * 4 + 3]
    w = {v: k for k, v in WIND_LETTERS.items()}
    winds = {"E": 27, "S": 28, "W": 29, "N": 30}
    cfg = HandConfig(
        is_tsumo=obj["tsumo"],
        is_riichi=obj["riichi"] != "none",
        player_wind=winds[w[p.situation.seat]],
        round_wind=winds[w[p.situation.round]],
        options=OptionalRules(has_open_tanyao=True, is_three_player=True),
    )
    return tiles, win, melds, dora, cfg


def _single_evaluation(p: Any) -> Any:
    """What the library does per hand: the best reading and the dora, no guarantee."""
    from sanma_lens.engine.evaluate import best, completed, dora_of
    from sanma_lens.engine.yaku import Context

    h = p.hand
    dora = dora_of(h, h.win, h.win_kind, p.situation, p.rules)
    return best(completed(h, h.win_kind), Context(p.situation, p.rules), dora.total)


def _score_prefixes() -> list[tuple[str, Any]]:
    """Growing prefixes of ``score``'s work (``--phases``): the differences between
    consecutive lines are what each step adds."""
    from sanma_lens.engine.evaluate import dora_of
    from sanma_lens.engine.fold import fold_waits
    from sanma_lens.engine.score import score
    from sanma_lens.engine.waits import win_and_guarantee
    from sanma_lens.engine.yaku import Context

    def folded(p: Any) -> Any:
        return fold_waits(p.hand, p.rules, (Context(p.situation, p.rules),), p.hand.win_kind)

    def win(p: Any) -> Any:
        h = p.hand
        dora = dora_of(h, h.win, h.win_kind, p.situation, p.rules)
        return win_and_guarantee(p, Context(p.situation, p.rules), dora.total)

    return [
        ("every wait's yaku han folded (engine.fold)", folded),
        ("+ dora, the win's evaluation, the guarantee", win),
        ("score (+ limits, payments, JSON)", score),
    ]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--phases", action="store_true", help="also time growing prefixes of score's work"
    )
    ap.add_argument("--cli", action="store_true", help="also time `sanma score --batch` end to end")
    args = ap.parse_args(argv)

    from mahjong.hand_calculating.hand import HandCalculator

    from sanma_lens.engine import native
    from sanma_lens.engine.parse import parse_hand
    from sanma_lens.engine.score import score
    from sanma_lens.engine.service import score_json, tenpai_json
    from sanma_lens.engine.waits import tenpai

    rng = random.Random(args.seed)
    hands = [random_winning_hand(rng) for _ in range(args.n)]
    how = "mypyc-compiled" if native.COMPILED else f"plain Python ({native.WHY_NOT})"
    print(f"{args.n} random sanma winning hands (seed {args.seed}); engine: {how}", flush=True)
    parsed = [parse_hand(h, need_win=True) for h in hands]
    # Score fills the engine's lazy caches on the hands it meets; tenpai and the JSON entry
    # points are timed on other hands of the same kind, so no line meets a hand warm.
    fresh = random.Random(args.seed + 1_000_003)
    hands_b = [random_winning_hand(fresh) for _ in range(args.n)]
    hands_c = [random_winning_hand(fresh) for _ in range(args.n)]
    hands_d = [random_winning_hand(fresh) for _ in range(args.n)]
    parsed_13 = [
        parse_hand({k: v for k, v in h.items() if k != "win"}, need_win=False) for h in hands_b
    ]
    lib_in = [_lib_inputs(h) for h in hands]

    def rate(label: str, fn: Any, items: list[Any]) -> float:
        t0 = time.process_time()
        for i, x in enumerate(items):
            fn(x)
            if (i + 1) % 2000 == 0:
                print(f"  {label}: {i + 1}/{len(items)}", file=sys.stderr, flush=True)
        dt = time.process_time() - t0
        r = len(items) / dt
        print(f"{label:<40} {r:>10.0f} hands/s  ({dt * 1e6 / len(items):.0f} µs/hand)", flush=True)
        return r

    def show(label: str, n: int, dt: float) -> float:
        print(f"{label:<40} {n / dt:>10.0f} hands/s  ({dt * 1e6 / n:.0f} µs/hand)", flush=True)
        return n / dt

    def paired(fn_a: Any, items_a: list[Any], fn_b: Any, items_b: list[Any]) -> tuple[float, ...]:
        """CPU time of two functions over the same hands, taken in alternating blocks of
        500 hands so that both see the same load on the shared cores (the ratio is the
        target); each hand is still met for the first time by each function."""
        spent = [0.0, 0.0]
        for start in range(0, len(items_a), 500):
            for j, (fn, items) in enumerate(((fn_a, items_a), (fn_b, items_b))):
                t0 = time.process_time()
                for x in items[start : start + 500]:
                    fn(x)
                spent[j] += time.process_time() - t0
            done = min(start + 500, len(items_a))
            print(f"  paired: {done}/{len(items_a)}", file=sys.stderr, flush=True)
        return tuple(spent)

    calc = HandCalculator()
    lib_time, eng_time = paired(
        lambda x: calc.estimate_hand_value(
            x[0], x[1], melds=x[2], dora_indicators=x[3], config=x[4]
        ),
        lib_in,
        score,
        parsed,
    )
    lib = show("mahjong 2.1.0 estimate_hand_value", len(lib_in), lib_time)
    eng = show("engine score (with guarantee)", len(parsed), eng_time)
    # what a running service sees once its per-pattern tables hold the patterns it meets
    warm = rate("engine score (same hands again, warm)", score, parsed)
    one = rate("engine one evaluation (same hands again)", _single_evaluation, parsed)
    ten = rate("engine tenpai (every wait, ron+tsumo)", tenpai, parsed_13)
    eng_json = rate("engine score_json (parse+score)", score_json, hands_c)
    rate(
        "engine tenpai_json (parse+tenpai)",
        tenpai_json,
        [{k: v for k, v in h.items() if k != "win"} for h in hands_d],
    )
    valid = sum(1 for p in parsed if score(p)["valid"])
    print(f"valid wins: {valid}/{len(parsed)} (the rest fail §18 and are chombo results)")
    print(
        f"score vs library: {eng / lib:.2f}x (warm {warm / lib:.2f}x; score_json "
        f"{eng_json / lib:.2f}x; one evaluation without the §18 guarantee {one / lib:.2f}x); "
        f"tenpai {ten:.0f} hands/s (target 20,000)"
    )
    if args.cli:
        cli_batch(
            [random_winning_hand(fresh) for _ in range(args.n)],
            lib,
        )
    if args.phases:
        print("score phases, growing prefixes (same hands again: per-suit tables warm):")
        for label, fn in _score_prefixes():
            t0 = time.process_time()
            for p in parsed:
                fn(p)
            dt = time.process_time() - t0
            print(f"  {label:<42} {dt * 1e6 / len(parsed):6.1f} µs/hand")


def cli_batch(hands: list[dict[str, Any]], lib_rate: float) -> None:
    """End to end through the CLI: ``sanma score --batch`` (the one beside this Python) on
    the hands in a child process, its CPU time with start-up. ``benchmarks/batch.py`` measures
    the target itself: the library and the command on the same hands, in alternating rounds."""
    import json
    import tempfile

    from benchmarks.batch import batch_seconds

    sanma = os.path.join(os.path.dirname(sys.executable), "sanma")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hands.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(h) + "\n" for h in hands)
        cpu, wall = batch_seconds(sanma, path, len(hands))
    rate = len(hands) / cpu
    print(
        f"sanma score --batch: {rate:>8.0f} hands/s CPU, {len(hands) / wall:.0f} wall; "
        f"{rate / lib_rate:.2f}x the library",
        flush=True,
    )


if __name__ == "__main__":
    main()
