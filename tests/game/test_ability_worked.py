"""Worked hanchan of ability mahjong with all six roles, computed by hand in the comments: the
first hanchan of a block with seiryuu, suzaku and byakko, the next with tenshi, genbu and
kouryuu (three players hold three roles at a time). Each hand is entered as the table would
enter it (``resolve_hand``) and folded; the comments give each transfer and the table after."""

from __future__ import annotations

from typing import Any

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game import (
    GameState,
    apply,
    game_rules_from_json,
    new_game,
    resolve_hand,
    settle,
)

# 123p 456p 789p 11z 78s: closed ittsu, waits 6s and 9s
ITTSU = "123p456p789p11z78s"


def game(*roles: str) -> GameState:
    return new_game(None, game_rules_from_json({"ability": True, "roles": list(roles)}))


def play(state: GameState, obj: dict[str, Any]) -> GameState:
    return apply(state, resolve_hand(state, obj))


def test_ability_worked_hanchan_seiryuu_suzaku_byakko() -> None:
    state = game("seiryuu", "suzaku", "byakko")  # 30,000 each; oka 30
    # E1 (dealer 0). The byakko declares. Seiryuu 0 puts up 2,000. Suzaku 1 rons byakko 2:
    # 3 han 30 fu, 3,840 → 4,000, halved 2,000; the 2,000 deposit in full. Byakko 2 did not
    # win: mangan payment, 4,000 to its shimocha 0, then 4,000 to 1.
    state = play(
        state,
        {
            "outcome": "ron",
            "discarder": 2,
            "wins": [{"winner": 1, "han": 3, "fu": 30}],
            "byakko_declared": [2],
        },
    )
    assert state.scores == (32_000, 38_000, 20_000) and state.deposits == 0
    # E2 (dealer 1). Seiryuu 0 puts up 2,000 and tsumo 4 han 30 fu, its role-only indicators
    # adding 1 han: the dealer pays 3,840 → 4,000 + 1,000, the child 1,920 → 2,000 + 1,000;
    # 0 takes the 2,000 back. The next deposit stays 2,000.
    state = play(
        state,
        {"outcome": "tsumo", "wins": [{"winner": 0, "han": 4, "fu": 30, "seiryuu_han": 1}]},
    )
    assert state.scores == (40_000, 33_000, 17_000) and state.round_label == "E3"
    # E3 (dealer 2). Deposit 2,000 from 0. Byakko 2 declares and rons 1 with 6 han: a dealer's
    # haneman 18,000 counted as baiman, 24,000; and the 2,000 deposit.
    state = play(
        state,
        {
            "outcome": "ron",
            "discarder": 1,
            "wins": [{"winner": 2, "han": 6}],
            "byakko_declared": [2],
        },
    )
    assert state.scores == (38_000, 9_000, 43_000) and state.honba == 1
    # E3, 1 honba. Deposit 2,000 from 0. Draw, 0 and 1 tenpai: the dealer pays 1,000 to each
    # (0 first). The byakko stays silent (one hand). 2,000 stays on the table.
    state = play(state, {"outcome": "draw", "tenpai": [0, 1]})
    assert state.scores == (37_000, 10_000, 41_000) and state.deposits == 2000
    assert state.round_label == "S1" and state.honba == 2
    # S1, 2 honba. Suzaku 1 calls a chombo: the hand is rewound (the seiryuu's deposit too),
    # 1 pays 4,000 to its shimocha 2 and 4,000 to the dealer 0, not halved; replayed.
    state = play(state, {"outcome": "chombo", "offenders": [1]})
    assert state.scores == (41_000, 2_000, 45_000) and state.deposits == 2000
    assert (state.round_label, state.honba) == ("S1", 2)
    # S1 again. Deposit 2,000 from 0 (4,000 on the table). The byakko declares; nobody is
    # tenpai at the draw: the byakko pays 4,000 to 0, then 4,000 to 1.
    state = play(state, {"outcome": "draw", "byakko_declared": [2]})
    assert state.scores == (43_000, 6_000, 37_000) and state.deposits == 4000
    assert (state.round_label, state.honba) == ("S1", 3)  # a draw in the South: renchan
    # S1, 3 honba. Deposit 2,000 from 0 (6,000). Suzaku 1 tsumo 2 han 30 fu: each payer owes
    # 480/960 → 1,000 + 1,000 + 3,000 honba = 5,000, halved 3,000; 2 pays first. The 6,000 in
    # full.
    state = play(state, {"outcome": "tsumo", "wins": [{"winner": 1, "han": 2, "fu": 30}]})
    assert state.scores == (38_000, 18_000, 34_000) and state.deposits == 0
    # S2 (dealer 1). Deposit 2,000 from 0. Seiryuu 0 rons 2, 2 han 30 fu: 1,920 → 2,000, its
    # role-only indicators adding nothing; and its own 2,000 back.
    state = play(
        state,
        {
            "outcome": "ron",
            "discarder": 2,
            "wins": [{"winner": 0, "han": 2, "fu": 30, "seiryuu_han": 0}],
        },
    )
    assert state.scores == (40_000, 18_000, 32_000) and state.round_label == "S3"
    # S3 (dealer 2). The byakko has been silent for two hands (S1 and S2; the chombo's deal is
    # the same hand as its replay): it must declare.
    s3 = {"outcome": "ron", "discarder": 0, "wins": [{"winner": 1, "limit": "mangan"}]}
    with pytest.raises(InputError) as info:
        play(state, s3)
    assert info.value.code == "byakko_must_declare"
    # The seiryuu's deposit is 4,000 now. Suzaku 1 rons 0 for mangan: 8,000, halved 4,000;
    # the 4,000 deposit in full. Byakko 2, the dealer, declared and did not win: 6,000 to 0,
    # then 6,000 to 1. The dealer did not win: the game ends.
    state = play(state, {**s3, "byakko_declared": [2]})
    assert state.log[-1].transfers[0].amount == 4000
    assert state.scores == (38_000, 32_000, 20_000) and state.finished
    # 0: −2 + oka 30 + uma 10 = 38; 1: −8; 2: −20 − 10 = −30
    final = {s.player: (s.rank, s.total) for s in settle(state)}
    assert final == {0: (1, 38), 1: (2, -8), 2: (3, -30)}


def test_ability_worked_hanchan_tenshi_genbu_kouryuu() -> None:
    state = game("tenshi", "genbu", "kouryuu")
    # starts 30,000 / 25,000 / 10,000 (65,000 on the table); oka 10 + 15 + 30 = 55
    assert state.scores == (30_000, 25_000, 10_000) and state.rules.oka == 55
    # E1 (dealer 0). Genbu 1 names 9s against 0. Dealer 0 tsumo on 6s (menzen tsumo + ittsu,
    # 3 han; 20 + 2 tsumo + 4 double-east pair = 30 fu): 1,920 → 2,000 + 1,000 from each.
    # Kouryuu 2 collects 1,000 from 0, then from 1.
    kanpa = [{"by": 1, "target": 0, "tile": "9s"}]
    state = play(
        state,
        {
            "outcome": "tsumo",
            "wins": [{"winner": 0, "hand": {"hand": ITTSU, "win": "6s"}}],
            "kanpa": kanpa,
        },
    )
    assert state.log[-1].result.wins[0].han == 3
    assert state.scores == (35_000, 21_000, 9_000) and state.honba == 1
    # E1, 1 honba. The genbu names 9s against 0 again: a tsumo on 9s is no win.
    with pytest.raises(InputError):
        play(
            state,
            {
                "outcome": "tsumo",
                "wins": [{"winner": 0, "hand": {"hand": ITTSU, "win": "9s"}}],
                "kanpa": kanpa,
            },
        )
    # Kouryuu 2 rons genbu 1 instead: 1 han 30 fu, 960 → 1,000 + 1,000 honba; then collects
    # 1,000 from 0 and from 1.
    state = play(
        state,
        {
            "outcome": "ron",
            "discarder": 1,
            "wins": [{"winner": 2, "han": 1, "fu": 30}],
            "kanpa": kanpa,
        },
    )
    assert state.scores == (34_000, 18_000, 13_000) and state.round_label == "E2"
    # E2 (dealer 1). Draw, 1 tenpai: 1,000 from its shimocha 2, then from 0; the kouryuu
    # collects from 0 and 1.
    state = play(state, {"outcome": "draw", "tenpai": [1]})
    assert state.scores == (32_000, 19_000, 14_000) and state.honba == 1
    # E2, 1 honba. Dealer genbu 1 rons kouryuu 2 with a yakuman: 48,000 + 1,000 honba. The
    # kouryuu goes to −35,000 (busted by 1, two levels) and, busted, collects nothing.
    state = play(
        state, {"outcome": "ron", "discarder": 2, "wins": [{"winner": 1, "limit": "yakuman"}]}
    )
    assert state.scores == (32_000, 68_000, -35_000) and state.finished
    # 1: +28, oka 55, uma 10, bust prize 2 × 10, yakuman prize 20 = 133; 0: −8;
    # 2: −75 − 10 − 20 − 20 = −125
    final = {s.player: s.total for s in settle(state)}
    assert final == {1: 133, 0: -8, 2: -125}
