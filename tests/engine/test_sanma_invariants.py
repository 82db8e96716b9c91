"""Invariants of the sanma-1.3 preset that no outside library can check (docs/rules.md §11, §18).

Random legal sanma tenpai hands in the style of ``benchmarks/ref4p.py`` (a 108-tile wall with
one red 5p and one red 5s, closed and open hands with pon/kan, kita, riichi, honba, dora):

- every wait of ``tenpai`` completes the hand (scoring it never says ``no_win_shape``);
- the §18 guarantee reported with a win equals scoring each wait separately: each wait's
  yaku han is that wait's own best reading's, and ``ok`` holds exactly when every wait
  reaches the minimum (2, or 3 with 5+ honba); tenpai's ron/tsumo values agree too;
- a valid win is §18-guaranteed (or the §18.2 non-riichi tsumo exception applies);
- every payment is on the 1,000 grid (§11), positive for a win and negative for chombo, and
  ``total`` is the payments plus deposits.
"""

from __future__ import annotations

import random
from typing import Any

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.service import score_json, tenpai_json
from sanma_lens.engine.tiles import SANMA_KINDS, name

N = 400
KINDS = sorted(SANMA_KINDS)
RUN_STARTS = [s * 9 + n for s in (1, 2) for n in range(7)]  # no manzu runs in sanma (§19)
NORTH = 30


def _text(kinds: list[int], red: set[int]) -> str:
    """MPSZ of kinds; one tile of each kind in ``red`` is written as the red five."""
    by_suit: dict[str, str] = {}
    left = set(red)
    for k in sorted(kinds):
        n = name(k)
        digit = n[0]
        if k in left:
            digit, left = "0", left - {k}
        by_suit[n[1]] = by_suit.get(n[1], "") + digit
    return "".join(by_suit[s] + s for s in "mpsz" if s in by_suit)


def random_sanma_tenpai(rng: random.Random) -> tuple[dict[str, Any], int]:
    """A legal 13-tile sanma hand JSON (no ``win``) and the kind that was taken out of it."""
    while True:
        left = {k: 4 for k in KINDS}
        kita = rng.choice([0, 0, 0, 1, 2, 4])
        left[NORTH] -= kita

        def take(k: int, n: int = 1, left: dict[int, int] = left) -> None:
            if left[k] < n:
                raise ValueError
            left[k] -= n

        try:
            concealed: list[int] = []
            melds: list[str] = []
            n_open = rng.choice([0, 0, 0, 1, 2])
            for i in range(4):
                if rng.random() < 0.5:
                    s = rng.choice(RUN_STARTS)
                    for k in (s, s + 1, s + 2):
                        take(k)
                    concealed += [s, s + 1, s + 2]
                    continue
                k = rng.choice(KINDS)
                kind = rng.choice(["pon", "pon", "minkan", "kakan"]) if i < n_open else None
                if kind is None and rng.random() < 0.1:
                    kind = "ankan"
                size = 3 if kind in (None, "pon") else 4
                take(k, size)
                if kind is None:
                    concealed += [k] * 3
                else:
                    melds.append(f"{kind}:{name(k)[0] * size}{name(k)[1]}")
            pair = rng.choice(KINDS)
            take(pair, 2)
            concealed += [pair, pair]
            dora = [k for k in KINDS if left[k] > 0]
            indicator = rng.choice(dora)
            take(indicator)
        except ValueError:
            continue
        out = rng.choice(concealed)
        concealed.remove(out)
        closed = all(m.startswith("ankan") for m in melds)
        red = {k for k in (13, 22) if k in concealed and rng.random() < 0.5}
        hand = {
            "hand": _text(concealed, red),
            "melds": melds,
            "kita": kita,
            "dora": [name(indicator)],
            "riichi": rng.choice(["none", "riichi", "double"]) if closed else "none",
            "seat": rng.choice("ESW"),
            "round": rng.choice("ES"),
            "honba": rng.choice([0, 0, 1, 5]),
            "deposits": rng.choice([0, 1]),
        }
        return hand, out


def _hands() -> list[tuple[dict[str, Any], int]]:
    rng = random.Random(20261122)
    return [random_sanma_tenpai(rng) for _ in range(N)]


def _score_wait(hand: dict[str, Any], tile: str, tsumo: bool) -> dict[str, Any] | None:
    """Score the hand won on ``tile``; None when the tile cannot physically come (a fifth
    tile counting the dora indicator)."""
    try:
        return score_json({**hand, "win": tile, "tsumo": tsumo})
    except InputError as e:
        assert e.code == "fifth_tile", e
        return None


def _check_payments(r: dict[str, Any], deposits: int) -> None:
    amounts = [p["amount"] for p in r["payments"]]
    assert amounts and all(a % 1000 == 0 for a in amounts), r  # §11
    if r["valid"]:
        assert all(a > 0 for a in amounts)
        assert r["total"] == sum(amounts) + 1000 * deposits
    else:
        assert all(a < 0 for a in amounts) and r["total"] == sum(amounts)


def test_rule_18_every_wait_completes_and_guarantee_matches_each_wait_scored_alone() -> None:
    checked_waits = 0
    valid_wins = 0
    for hand, out in _hands():
        t = tenpai_json(hand)
        waits = [w["tile"] for w in t["waits"]]
        assert name(out) in waits, (hand, out)  # the tile taken out completes the hand
        for tsumo in (False, True):
            scored = {w: _score_wait(hand, w, tsumo) for w in waits}
            for w, r in scored.items():
                if r is None:
                    continue
                checked_waits += 1
                assert r["reason"] != "no_win_shape", (hand, w)
                _check_payments(r, hand["deposits"])
                key = "yaku_han_tsumo" if tsumo else "yaku_han_ron"
                assert next(x[key] for x in t["waits"] if x["tile"] == w) == r["yaku_han"]
                g = r["guarantee"]
                assert [x["tile"] for x in g["waits"]] == waits
                for x in g["waits"]:
                    alone = scored[x["tile"]]
                    if alone is not None:
                        assert x["yaku_han"] == alone["yaku_han"], (hand, w, x)
                required = g["required"]
                assert required == (3 if hand["honba"] >= 5 else 2)
                assert g["ok"] == all(x["yaku_han"] >= required for x in g["waits"])
                if r["valid"]:
                    valid_wins += 1
                    exception = tsumo and hand["riichi"] == "none"
                    assert exception or g["ok"], (hand, w)
                    assert r["yaku_han"] >= required
    assert checked_waits > 2 * N and valid_wins > N // 10, (checked_waits, valid_wins)
