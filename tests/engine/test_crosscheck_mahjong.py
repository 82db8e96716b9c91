"""Cross-check with the ``mahjong`` library where four-player rules agree with ours.

Agreed parts: which tiles complete a hand (win shapes and waits), the fu of a reading
(standard riichi fu [interp], chiitoitsu 25) and dora from indicators with the sanma wrap
(``is_three_player``). The library is a test-only dependency; engine/ never imports it.
"""

from __future__ import annotations

import random

import pytest

mahjong = pytest.importorskip("mahjong")

from mahjong.agari import Agari  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from benchmarks.engine import _lib_inputs, random_winning_hand  # noqa: E402
from sanma_lens.engine.decompose import readings, shape_waits  # noqa: E402
from sanma_lens.engine.evaluate import completed  # noqa: E402
from sanma_lens.engine.fu import fu_of  # noqa: E402
from sanma_lens.engine.parse import parse_hand  # noqa: E402
from sanma_lens.engine.rules import SANMA_13  # noqa: E402
from sanma_lens.engine.service import score_json  # noqa: E402
from sanma_lens.engine.tiles import SANMA_KINDS  # noqa: E402
from sanma_lens.engine.yaku import Context  # noqa: E402

N = 300


def hands() -> list[dict]:
    rng = random.Random(20261122)
    return [random_winning_hand(rng) for _ in range(N)]


def test_crosscheck_waits_against_mahjong_agari() -> None:
    agari = Agari()
    for h in hands():
        p = parse_hand({k: v for k, v in h.items() if k != "win"}, need_win=False)
        ours = set(shape_waits(p.hand.concealed, SANMA_KINDS))
        theirs = set()
        for k in SANMA_KINDS:
            c = list(p.hand.concealed)
            if c[k] >= 4:
                continue
            c[k] += 1
            if agari.is_agari(c):
                theirs.add(k)
        assert ours == theirs, h


def test_crosscheck_fu_and_dora_against_mahjong_hand_calculator() -> None:
    calc = HandCalculator()
    compared = 0
    for h in hands():
        tiles, win, melds, dora, cfg = _lib_inputs(h)
        res = calc.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=cfg)
        if res.error or res.han is None or res.han >= 13:
            continue
        p = parse_hand(h, need_win=True)
        ctx = Context(p.situation, SANMA_13)
        assert p.hand.win_kind is not None
        facts = completed(p.hand, p.hand.win_kind)
        ours_fu = {fu_of(r, ctx)[0] for r in readings(facts, h["tsumo"], SANMA_13.tile_kinds)}
        assert res.fu in ours_fu, (h, res.fu, ours_fu)
        lib_dora = sum(
            y.han_closed if not melds or all(not m.opened for m in melds) else y.han_open
            for y in res.yaku
            if y.name == "Dora"
        )
        assert score_json(h)["dora"]["dora"] == lib_dora, h
        compared += 1
    assert compared > N // 3
