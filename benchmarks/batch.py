"""``sanma score --batch`` end to end against the mahjong library, on the same hands.

The target (issue #28): ``sanma score --batch`` scores at least 3× the hands per second of the
``mahjong`` library 2.1.0 ``HandCalculator.estimate_hand_value``, end to end: the command in a
child process, start-up included, a JSON Lines file in and the results out.

Generates N random sanma winning hands (``benchmarks.engine.random_winning_hand``, seeded),
writes them as JSON Lines, then in each of ``--rounds`` rounds
  1. times the library on those hands exactly as ``benchmarks/engine.py`` does (its inputs
     built beforehand, the process's CPU time of the calls alone),
  2. runs each ``--sanma`` command as ``CMD score --batch FILE > OUT`` and takes the child's
     CPU time (user + system) and the wall time, start-up included; its output must be N
     lines of JSON,
alternating the order from round to round so that a change of load on the shared cores
moves both sides alike. It also times each command's start-up alone (an empty batch), so the
share start-up takes of N hands is printed beside the ratios: with N = 40,000 it is a few
per cent, so the answer does not hinge on it.

The ratio the target is set on is CPU time (``hands/s CPU``), the steadier of the two on a
loaded machine; wall time is printed too. Several ``--sanma`` commands (say, the install of an
earlier commit and this one) are timed in the same rounds, so that before and after compare
on one machine in one run.

``--callgrind M``: instead, count the instructions each command runs under valgrind's
callgrind (they repeat exactly whatever the load): on an empty batch (start-up) and on the
first M hands, so that ``(hands − empty) / M`` is the instructions a hand costs end to end
(read, parse, score, JSON out), with the inclusive share of the main steps per hand; and the
library's on the same M hands, for the ratio on N hands counted in instructions.

Usage: ``.venv/bin/python benchmarks/batch.py [--n 40000] [--seed 3] [--rounds 3]
[--sanma PATH ...] [--callgrind 2000]`` (default: the ``sanma`` beside this Python).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

if __name__ == "__main__":  # run as a script: the repository root on sys.path, not this folder
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path.insert(0, os.path.dirname(here))

from benchmarks.engine import _lib_inputs, random_winning_hand  # noqa: E402


def library_seconds(lib_in: list[tuple[Any, ...]]) -> float:
    """CPU seconds of the library's ``estimate_hand_value`` over the hands (engine.py's way)."""
    from mahjong.hand_calculating.hand import HandCalculator

    calc = HandCalculator()
    estimate = calc.estimate_hand_value
    t0 = time.process_time()
    for tiles, win, melds, dora, cfg in lib_in:
        estimate(tiles, win, melds=melds, dora_indicators=dora, config=cfg)
    return time.process_time() - t0


def child_env() -> dict[str, str]:
    """The command's environment: this one, but writing and reading cached bytecode as an
    installed command does (``PYTHONDONTWRITEBYTECODE`` would have every start-up compile
    the sources of the modules it imports again)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def batch_seconds(sanma: str, path: str, expect: int) -> tuple[float, float]:
    """``sanma score --batch path``: the child's CPU seconds (user + system) and wall seconds.
    Its output is checked: ``expect`` lines, each a JSON object. It runs in the file's folder,
    so that no package in the working directory shadows the installed one."""
    with tempfile.TemporaryFile() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        run = subprocess.run(
            [sanma, "score", "--batch", path],
            cwd=os.path.dirname(path),
            env=child_env(),
            stdout=out,
            stderr=subprocess.PIPE,
            check=False,
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        lines = out.read().splitlines()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if len(lines) != expect or (lines and not isinstance(json.loads(lines[-1]), dict)):
        raise SystemExit(
            f"{sanma}: {len(lines)} lines for {expect} hands (exit {run.returncode}): "
            f"{run.stderr[-500:].decode(errors='replace')}"
        )
    return cpu, wall


#: the steps of a line whose inclusive instructions ``--callgrind`` shows (function names of
#: the compiled engine; the plain one runs through the interpreter and shows none of them)
STEPS = (
    ("parse_hand", "CPyDef_parse___parse_hand"),
    ("score", "CPyDef_score___score"),
    ("orjson.loads", "loads"),
    ("orjson.dumps", "dumps"),
)


def callgrind(sanma: str, path: str, out_file: str) -> tuple[int, dict[str, int]]:
    """Instructions of ``sanma score --batch path`` under callgrind: the total, and the
    inclusive count of each of :data:`STEPS` found (``callgrind_annotate``)."""
    return _callgrind([sanma, "score", "--batch", path], os.path.dirname(path), out_file)


# The library on the first lines of a JSON Lines file, in a child (argv: the repository root,
# the file, 0 to build its inputs only, 1 to score them too): the difference is its work.
_LIBRARY = (
    "import json, sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from benchmarks.batch import library_seconds\n"
    "from benchmarks.engine import _lib_inputs\n"
    "with open(sys.argv[2], encoding='utf-8') as f:\n"
    "    lib_in = [_lib_inputs(json.loads(line)) for line in f]\n"
    "if sys.argv[3] == '1':\n"
    "    library_seconds(lib_in)\n"
)


def library_callgrind(path: str, out_file: str) -> int:
    """The library's instructions on the hands of ``path`` (``estimate_hand_value`` alone)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    totals = [
        _callgrind([sys.executable, "-c", _LIBRARY, root, path, run], root, out_file)[0]
        for run in ("0", "1")
    ]
    return totals[1] - totals[0]


def _callgrind(argv: list[str], cwd: str, out_file: str) -> tuple[int, dict[str, int]]:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", *argv],
        cwd=cwd, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        check=False,
    )  # fmt: skip
    if run.returncode not in (0, 2):
        raise SystemExit(f"{argv[0]} under callgrind: exit {run.returncode}: {run.stderr[-500:]!r}")
    total = 0
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    annotate = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    steps: dict[str, int] = {}
    for line in annotate.stdout.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S+)", line)
        if found is None:
            continue
        function = found.group(2).rpartition(":")[2]
        for label, name in STEPS:
            if label not in steps and function == name:
                steps[label] = int(found.group(1).replace(",", ""))
    return total, steps


def callgrind_report(commands: list[str], hands: list[dict[str, Any]], m: int) -> None:
    """``--callgrind``: instructions at start-up and per hand, for each command, and the
    library's per hand on the same hands: their ratio on N hands (start-up spread over N) is
    the target's ratio counted in instructions, the same under any load (a proxy: an
    instruction of the interpreter and one of compiled code need not take the same time)."""
    n = len(hands)
    print(f"callgrind: instructions on the first {m} hands (start-up: an empty batch)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hands.jsonl")
        empty = os.path.join(tmp, "empty.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(h) + "\n" for h in hands[:m])
        open(empty, "w").close()
        library = library_callgrind(path, os.path.join(tmp, "library.out")) / m
        print(f"library estimate_hand_value: {library / 1e3:.1f}k instructions a hand", flush=True)
        for c in commands:
            batch_seconds(c, empty, 0)  # its bytecode cached, as after any first run
            start, _ = callgrind(c, empty, os.path.join(tmp, "empty.out"))
            total, steps = callgrind(c, path, os.path.join(tmp, "hands.out"))
            per_hand = (total - start) / m
            each = ", ".join(f"{label} {v / m / 1e3:.1f}k" for label, v in steps.items())
            print(
                f"{c}: start-up {start / 1e6:.0f}M; per hand {per_hand / 1e3:.1f}k instructions "
                f"({each or 'no compiled steps found'}); on {n} hands the library's "
                f"{library / (per_hand + start / n):.2f}x in instructions",
                flush=True,
            )


def spread(values: list[float]) -> str:
    """``median (min–max)`` of a few rates."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40_000, help="hands (40,000)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--sanma",
        action="append",
        help="a sanma command to time (repeatable; default: the one beside this Python)",
    )
    ap.add_argument(
        "--callgrind", type=int, metavar="M", help="count instructions on M hands instead"
    )
    args = ap.parse_args(argv)
    commands = args.sanma or [os.path.join(os.path.dirname(sys.executable), "sanma")]
    # (the commands run in the hands' folder: a relative path is taken from here)
    commands = [os.path.abspath(c) if os.sep in c else c for c in commands]

    rng = random.Random(args.seed)
    hands = [random_winning_hand(rng) for _ in range(args.n)]
    if args.callgrind:
        callgrind_report(commands, hands, args.callgrind)
        return
    lib_in = [_lib_inputs(h) for h in hands]
    print(
        f"{args.n} random sanma winning hands (seed {args.seed}), {args.rounds} rounds; "
        "rates in hands/s, CPU time unless said",
        flush=True,
    )
    lib_rates: list[float] = []
    cpu_rates: dict[str, list[float]] = {c: [] for c in commands}
    wall_rates: dict[str, list[float]] = {c: [] for c in commands}
    ratios: dict[str, list[float]] = {c: [] for c in commands}
    startup: dict[str, list[float]] = {c: [] for c in commands}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hands.jsonl")
        empty = os.path.join(tmp, "empty.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(h) + "\n" for h in hands)
        open(empty, "w").close()
        for c in commands:
            batch_seconds(c, empty, 0)  # its bytecode cached, as after any first run
        for r in range(args.rounds):
            order = ["library", *commands]
            if r % 2:
                order.reverse()
            cli: dict[str, tuple[float, float]] = {}
            lib = 0.0
            for what in order:
                if what == "library":
                    lib = library_seconds(lib_in)
                else:
                    cli[what] = batch_seconds(what, path, args.n)
                    startup[what].append(batch_seconds(what, empty, 0)[0])
            lib_rates.append(args.n / lib)
            line = [f"round {r + 1}: library {args.n / lib:7.0f}"]
            for c in commands:
                cpu, wall = cli[c]
                cpu_rates[c].append(args.n / cpu)
                wall_rates[c].append(args.n / wall)
                ratios[c].append(lib / cpu)
                line.append(f"{c}: {args.n / cpu:7.0f} ({args.n / wall:.0f} wall) {lib / cpu:.2f}x")
            print("; ".join(line), flush=True)
    print(f"library estimate_hand_value: {spread(lib_rates)}")
    for c in commands:
        share = statistics.median(startup[c]) * statistics.median(cpu_rates[c]) / args.n
        print(
            f"{c} score --batch: {spread(cpu_rates[c])} CPU, {spread(wall_rates[c])} wall; "
            f"vs library {spread(ratios[c])}x (target 3x); start-up "
            f"{1e3 * statistics.median(startup[c]):.0f} ms CPU, {100 * share:.1f}% of the batch"
        )


if __name__ == "__main__":
    main()
