"""The engine against an independent brute-force reading of docs/rules.md (``reference.py``).

Seeded random sanma hands (pinzu/souzu/honor-heavy, pon/kan melds, kita, red fives, riichi
kinds, situational yaku, honba, dora and ura) are scored by both: validity and its reason,
han, yaku han, fu, the payments' total and every yaku with its han (the §18 guarantee over
every wait included); tenpai JSON waits with their ron/tsumo yaku han, valid flags and the
no-ten riichi of §18.1; and the aka-5-man option (a north written as 0m, an extracted
aka-5-man doubling the payments, a discarded aka-5-man taken as 5p/5s for +2 han).
"""

from __future__ import annotations

import random
from typing import Any

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.service import score_json, tenpai_json
from tests.engine import reference as ref
from tests.engine.reference import SANMA, Hand, N


def _name(k: int) -> str:
    return f"{k - 26}z" if k >= 27 else f"{k % 9 + 1}{'mps'[k // 9]}"


def _random_win(rng: random.Random) -> tuple[list[int], list[tuple[str, int]], int] | None:
    """Concealed counts (13 − 3 × melds), melds and the winning kind of a random win."""
    left = dict.fromkeys(SANMA, 4)
    concealed = [0] * 34
    melds: list[tuple[str, int]] = []
    focus = rng.choice([None, 9, 18, 27])

    def pick() -> int:
        if focus is not None and rng.random() < 0.7:
            return focus + rng.randrange(7 if focus == 27 else 9)
        return rng.choice(SANMA)

    def take(k: int, n: int) -> bool:
        if left[k] < n:
            return False
        left[k] -= n
        return True

    if rng.random() < 0.08:  # chiitoitsu
        kinds: set[int] = set()
        while len(kinds) < 7:
            kinds.add(pick())
        for k in kinds:
            take(k, 2)
            concealed[k] += 2
    else:
        n_melds = rng.choice([0, 0, 0, 1, 1, 2, 3])
        for i in range(4):
            if i >= n_melds and rng.random() < 0.5:
                start = (focus if focus in (9, 18) else rng.choice([9, 18])) + rng.randrange(7)
                if not all(take(start + j, 1) for j in range(3)):
                    return None
                for j in range(3):
                    concealed[start + j] += 1
                continue
            k = pick()
            if i < n_melds:
                kind = rng.choice(["pon", "pon", "minkan", "ankan", "kakan"])
                if not take(k, 3 if kind == "pon" else 4):
                    return None
                melds.append((kind, k))
            else:
                if not take(k, 3):
                    return None
                concealed[k] += 3
        k = pick()
        if not take(k, 2):
            return None
        concealed[k] += 2
    win = rng.choice([k for k in range(34) for _ in range(concealed[k])])
    concealed[win] -= 1
    return concealed, melds, win


def _situation(rng: random.Random, closed: bool) -> dict[str, Any]:
    sit: dict[str, Any] = {
        "tsumo": rng.random() < 0.5,
        "seat": rng.choice("ESW"),
        "round": rng.choice("ES"),
        "honba": rng.choice([0, 0, 1, 5, 8]),
        "riichi": "none",
    }
    if closed:
        sit["riichi"] = rng.choice(["none", "riichi", "riichi", "double", "open", "double_open"])
        if sit["riichi"] != "none" and rng.random() < 0.2:
            sit["ippatsu"] = True
    if not sit["tsumo"]:
        sit["discarder_riichi"] = rng.random() < 0.5
    return sit


def _hand_text(concealed: list[int], red: dict[int, int], north_as_0m: bool = False) -> str:
    out = []
    for k in range(34):
        for i in range(concealed[k]):
            if i < red.get(k, 0):
                out.append("0" + _name(k)[1])
            elif k == N and north_as_0m and i == 0:
                out.append("0m")
            else:
                out.append(_name(k))
    return "".join(out)


def _melds_text(melds: list[tuple[str, int]]) -> list[str]:
    return [f"{kind}:{_name(t)[0] * (3 if kind == 'pon' else 4)}{_name(t)[1]}" for kind, t in melds]


def _compare(engine: dict[str, Any], want: dict[str, Any], obj: dict[str, Any]) -> None:
    assert engine["valid"] == want["valid"], (obj, engine["reason"], want)
    if not want["valid"]:
        assert engine["reason"] == want["reason"], obj
        return
    got_yaku: dict[str, int] = {}
    for y in engine["yaku"]:
        got_yaku[y["id"]] = got_yaku.get(y["id"], 0) + y["han"]
    got = (engine["han"], engine["yaku_han"], engine["fu"], engine["total"], got_yaku)
    assert got == (want["han"], want["yaku_han"], want["fu"], want["total"], want["yaku"]), obj
    assert engine["guarantee"]["minimum_over_waits"] == want["minimum"], obj


def _cases(seed: int, n: int) -> list[tuple[random.Random, list[int], list[tuple[str, int]], int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        found = _random_win(rng)
        if found is not None:
            out.append((rng, *found))
    return out


def _situational_flags(rng: random.Random, sit: dict[str, Any], melds: list, kita: int) -> None:
    roll = rng.random()
    if sit["tsumo"]:
        if roll < 0.1:
            sit["haitei"] = True
        elif roll < 0.2 and (kita or any(kind != "pon" for kind, _ in melds)):
            sit["rinshan"] = True
    elif roll < 0.1:
        sit["houtei"] = True
    elif roll < 0.15:
        sit["chankan"] = True
    elif roll < 0.2:
        sit["kanburi"] = True


def test_rule_18_score_agrees_with_an_independent_reading_of_the_rules() -> None:
    checked = 0
    for rng, concealed, melds, win in _cases(20261123, 300):
        held_north = concealed[N] + (win == N) + sum(4 for kind, t in melds if t == N)
        kita = rng.randint(1, 4 - held_north) if held_north < 4 and rng.random() < 0.3 else 0
        closed = all(kind == "ankan" for kind, _ in melds)
        sit = _situation(rng, closed)
        _situational_flags(rng, sit, melds, kita)
        red = {k: 1 for k in (13, 22) if concealed[k] and rng.random() < 0.5}
        win_red = int(win in (13, 22) and not concealed[win] and rng.random() < 0.5)
        dora = [rng.choice(SANMA) for _ in range(rng.choice([1, 2]))]
        ura = [rng.choice(SANMA)] if sit["riichi"] != "none" else []
        obj = {
            "hand": _hand_text(concealed, red),
            "win": ("0" + _name(win)[1]) if win_red else _name(win),
            "melds": _melds_text(melds),
            "kita": kita,
            "dora": [_name(d) for d in dora],
            "ura": [_name(u) for u in ura],
            **sit,
        }
        try:
            engine = score_json(obj)
        except InputError:
            continue  # e.g. a fifth tile counting the indicators
        flags = {
            f: True
            for f in ("ippatsu", "haitei", "rinshan", "houtei", "chankan", "kanburi")
            if sit.get(f)
        }
        hand = Hand(
            concealed,
            melds,
            kita,
            red=sum(red.values()),
            dora=dora,
            ura=ura,
            seat=sit["seat"],
            round=sit["round"],
            riichi=sit["riichi"],
            tsumo=sit["tsumo"],
            honba=sit["honba"],
            flags=flags,
            discarder_riichi=sit.get("discarder_riichi", False),
        )
        _compare(engine, ref.score(hand, win, win_red), obj)
        checked += 1
    assert checked > 200, checked


def test_rule_29_tenpai_agrees_with_an_independent_reading_of_the_rules() -> None:
    checked = 0
    for rng, concealed, melds, _ in _cases(20261124, 120):
        closed = all(kind == "ankan" for kind, _ in melds)
        sit = _situation(rng, closed)
        sit.pop("discarder_riichi", None)
        sit["tsumo"] = False
        sit["discarder_riichi"] = True  # a ron from a riichi player: open riichi stays 2
        kita = 1 if concealed[N] < 3 and rng.random() < 0.3 else 0
        obj = {"hand": _hand_text(concealed, {}), "melds": _melds_text(melds), "kita": kita, **sit}
        try:
            engine = tenpai_json(obj)
        except InputError:
            continue
        hand = Hand(
            concealed,
            melds,
            kita,
            red=0,
            dora=[],
            ura=[],
            seat=sit["seat"],
            round=sit["round"],
            riichi=sit["riichi"],
            honba=sit["honba"],
            flags={"ippatsu": bool(sit.get("ippatsu"))},
            discarder_riichi=True,
        )
        rows, noten = ref.tenpai(hand)
        got = [
            (w["tile"], w["yaku_han_ron"], w["yaku_han_tsumo"], w["valid_ron"], w["valid_tsumo"])
            for w in engine["waits"]
        ]
        assert got == [(_name(w), *rest) for w, *rest in rows], obj
        assert engine["noten_riichi"] == noten, obj
        checked += 1
    assert checked > 80, checked


def test_rule_a8_aka5man_option_agrees_with_an_independent_reading_of_the_rules() -> None:
    checked = taken = 0
    for rng, concealed, melds, win in _cases(20261125, 200):
        closed = all(kind == "ankan" for kind, _ in melds)
        sit = _situation(rng, closed)
        norths = concealed[N] + (win == N) + sum(4 for kind, t in melds if t == N)
        kita = rng.randint(1, 4 - norths) if norths < 4 and rng.random() < 0.4 else 0
        kita_aka = int(bool(kita) and rng.random() < 0.5)
        north_as_0m = not kita_aka and bool(concealed[N]) and rng.random() < 0.5
        as_five = (
            not sit["tsumo"] and win in (13, 22) and not kita_aka and not north_as_0m
            and norths + kita < 4 and rng.random() < 0.6
        )  # fmt: skip
        # every 5p/5s is red (§A2): in the hand, the melds and the winning tile
        red = sum(concealed[k] for k in (13, 22))
        red += sum(3 if kind == "pon" else 4 for kind, t in melds if t in (13, 22))
        obj: dict[str, Any] = {
            "hand": _hand_text(concealed, {}, north_as_0m),
            "win": "0m" if as_five else _name(win),
            "melds": _melds_text(melds),
            "kita": kita,
            "kita_aka": kita_aka,
            "rules": {"aka_5man": True},
            **sit,
        }
        if as_five:
            obj["aka5man_as"] = _name(win)
        try:
            engine = score_json(obj)
        except InputError:
            continue
        hand = Hand(
            concealed,
            melds,
            kita,
            red=red,
            dora=[],
            ura=[],
            seat=sit["seat"],
            round=sit["round"],
            riichi=sit["riichi"],
            tsumo=sit["tsumo"],
            honba=sit["honba"],
            flags={"ippatsu": bool(sit.get("ippatsu"))},
            discarder_riichi=sit.get("discarder_riichi", False),
            kita_aka=kita_aka,
            aka5man_as=as_five,
        )
        win_red = int(win in (13, 22) and not as_five)
        _compare(engine, ref.score(hand, win, win_red), obj)
        checked += 1
        taken += as_five
    assert checked > 120 and taken > 5, (checked, taken)
