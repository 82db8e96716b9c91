"""Differential benchmark: our ``riichi-4p`` preset against the `mahjong` library, N hands.

Draws N random legal four-player winning hands (``benchmarks.ref4p.random_deal``, seeded per
chunk), scores each with our engine and with the library (``OptionalRules(has_open_tanyao=True,
has_aka_dora=True)``), and compares the yaku set, han, fu, dora, limit, every payment and the
total (and no-yaku ↔ our ``valid: false``). Prints the count, the agreement rate, how many
hands agreed only thanks to a documented difference (``ref4p.DOCUMENTED``), and a table of
disagreement categories with an example hand JSON each.

``--profile ecip`` / ``--profile standard`` compares those profiles instead
(``benchmarks.ref_profiles``): the same deals, red fives as plain fives, the library set to the
profile's nearest rules; a hand that differs by one of the profile's documented rules
(``ref_profiles.RULE_DIFFERENCES``, checked on our side) counts as agreeing and is tallied by
that rule.

Usage: ``nice .venv/bin/python benchmarks/differential.py [--n 1000000] [--workers 2]
[--seed 1] [--chunk 2000] [--profile ecip]``. Exit status 1 when any hand disagrees.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ref4p import DOCUMENTED, VARIANTS, compare, random_deal  # noqa: E402
from benchmarks.ref_profiles import RULE_DIFFERENCES, compare_profile, profile_hand  # noqa: E402

AGREEING = ("agree", "rule:")


@dataclass
class Tally:
    """Counts of one chunk (or of all chunks merged)."""

    n: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    documented: Counter[str] = field(default_factory=Counter)
    yaku: Counter[str] = field(default_factory=Counter)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.n += other.n
        self.categories.update(other.categories)
        self.documented.update(other.documented)
        self.yaku.update(other.yaku)
        for k, v in other.examples.items():
            self.examples.setdefault(k, v)

    @property
    def agreed(self) -> int:
        return sum(n for c, n in self.categories.items() if c.startswith(AGREEING))


def run_chunk(seed: int, n: int, variant: str = "default", profile: str | None = None) -> Tally:
    """Compare ``n`` deals drawn from ``random.Random(seed)`` under a rule variant (riichi-4p)
    or as ``profile`` (ecip, standard)."""
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(n):
        deal = random_deal(rng)
        verdict: Any
        try:
            verdict = compare_profile(deal, profile) if profile else compare(deal, variant)
            category = verdict.category
        except Exception as exc:  # a crash is a disagreement too, with its hand
            category = f"crash: {type(exc).__name__}: {exc}"[:200]
            verdict = None
        tally.n += 1
        tally.categories[category] += 1
        if verdict is not None:
            tally.documented.update(verdict.rules if profile else verdict.documented)
            if verdict.agrees:
                tally.yaku.update(verdict.library.get("yaku", {}).keys())
        if not category.startswith(AGREEING) and category not in tally.examples:
            hand = profile_hand(deal, profile) if profile else None
            tally.examples[category] = {
                "hand": hand or deal.hand_json(options=VARIANTS[variant][0]),
                "library": verdict.library if verdict else None,
                "ours": verdict.ours if verdict else None,
            }
            # shown at once too, so that a long run's first example is not lost if cut short
            print(f"DISAGREE {category}: {json.dumps(tally.examples[category])}", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="default")
    ap.add_argument("--profile", choices=["ecip", "standard"], default=None)
    args = ap.parse_args(argv)

    chunks = [
        (args.seed * 1_000_003 + i, min(args.chunk, args.n - i * args.chunk))
        for i in range((args.n + args.chunk - 1) // args.chunk)
    ]
    total = Tally()
    start = time.monotonic()
    last_print = 0.0

    def progress(final: bool = False) -> None:
        nonlocal last_print
        now = time.monotonic()
        if not final and now - last_print < 10:
            return
        last_print = now
        rate = total.n / max(now - start, 1e-9)
        print(
            f"[{now - start:7.0f}s] {total.n:>9,}/{args.n:,} hands, "
            f"{total.n - total.agreed} disagreements, {rate:,.0f} hands/s",
            flush=True,
        )

    if args.workers <= 1:
        for seed, n in chunks:
            total.merge(run_chunk(seed, n, args.variant, args.profile))
            progress()
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = [
                pool.submit(run_chunk, seed, n, args.variant, args.profile) for seed, n in chunks
            ]
            for fut in as_completed(futures):
                total.merge(fut.result())
                progress()
    progress(final=True)
    elapsed = time.monotonic() - start

    what = args.profile or args.variant
    print(f"\ncompared: {total.n:,} hands in {elapsed:,.0f} s (seed {args.seed}, {what})")
    print(f"agreed:   {total.agreed:,} ({100.0 * total.agreed / max(total.n, 1):.4f} %)")
    print(f"  both valid and equal: {total.categories['agree']:,}")
    print(f"  both no yaku:         {total.categories['agree_no_yaku']:,}")
    reasons = RULE_DIFFERENCES if args.profile else DOCUMENTED
    for name, n in sorted(total.documented.items()):
        print(f"  with documented difference {name!r}: {n:,} — {reasons[name]}")
    bad = {c: n for c, n in total.categories.items() if not c.startswith(AGREEING)}
    print(f"disagreements: {sum(bad.values()):,}")
    if bad:
        print(f"\n{'count':>9}  category")
        for c, n in sorted(bad.items(), key=lambda kv: -kv[1]):
            print(f"{n:>9,}  {c}")
            print("           e.g. " + json.dumps(total.examples.get(c), default=str)[:1500])
    print("\nyaku seen in agreeing hands:")
    print("  " + ", ".join(f"{y} {n:,}" for y, n in total.yaku.most_common()))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
