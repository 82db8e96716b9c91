"""A scored hand in players' words: the reading the engine chose, its wait, the yakuhai tiles,
the payments before and after rounding, and why a false win is chombo (§11–§13, §18, §R1).

:func:`explained_score` is :func:`engine.service.score_json` plus an ``explain`` field. It is
opt-in (``sanma score --explain``, ``POST /v1/score?explain=true``): the explanation reads the
hand a second time, so ``sanma score --batch`` without it keeps the engine's speed. Plain
Python, not compiled (``setup.py``): it runs once per shown hand, never in a batch's hot loop.

The ``explain`` object (README, "Command line")::

    {"form": "standard", "sets": [{"type": "run", "tiles": ["2p", "3p", "4p"],
                                   "concealed": true, "called": false, "win_at": null}, …],
     "wait": {"shape": "shanpon", "tile": "2z", "waits": ["1z", "2z"]},
     "yakuhai": [{"tile": "2z", "han": 1, "as": ["seat"]}],
     "points": {"fu": 40, "han": 2, "base_raw": 640, "base": 640, "limit": null,
                "call": {"how": "ron", "winner": "child", "amounts": [3000]},
                "payments": [{"from": "discarder", "seat": null, "times": 4, "share": 2560,
                              "rounded": 3000, "tsumo_bonus": 0, "honba": 0, "factor": 1,
                              "amount": 3000}]},
     "chombo": null}

``call`` is what is said at the table: a ron's amount (子ロン 8,000), a child's tsumo as
``[child pays, dealer pays]`` (2,000-4,000) and a dealer's as ``[each pays]`` (4,000オール),
rounded, before the tsumo bonus, honba and the §A8 doubling, which each payment shows apart.
A suzaku receives half of each payment, its tsumo bonus and honba halved with the rest
(docs/rules/ability.md ¶2.6): its call says what it receives from each payer (``halved``:
true), and ``before_halving`` the call as it would be without the role; each payment then
gives its ``before_halving`` amount beside the ``amount`` received.
``chombo`` (a false win, 錯和) names the reason and the waits that fail it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sanma_lens.engine.decompose import CHIITOITSU, KOKUSHI, RUN_WAITS, STANDARD, Reading
from sanma_lens.engine.evaluate import dora_of
from sanma_lens.engine.parse import HandInput, Parsed, Tile, parse_hand
from sanma_lens.engine.points import round_up
from sanma_lens.engine.score import score
from sanma_lens.engine.tiles import DRAGONS, EAST, NAMES, NORTH
from sanma_lens.engine.waits import win_and_guarantee
from sanma_lens.engine.yaku import Context, yakuhai_sets


def explained_score(obj: Any) -> dict[str, Any]:
    """Score one hand JSON (with ``win``) → Result JSON with an ``explain`` field."""
    parsed = parse_hand(obj, need_win=True)
    result = score(parsed)
    result["explain"] = explanation(parsed, result)
    return result


def explanation(parsed: Parsed, result: dict[str, Any]) -> dict[str, Any]:
    """The ``explain`` object of ``result`` (:func:`engine.score.score` of ``parsed``)."""
    hand, sit = parsed.hand, parsed.situation
    assert hand.win is not None and hand.win_kind is not None
    ctx = Context(sit, parsed.rules)
    dora = dora_of(hand, hand.win, hand.win_kind, sit, parsed.rules)
    # the very call score() makes: the same reading, the same guarantee
    ev, g, wait_kinds = win_and_guarantee(parsed, ctx, dora.total)
    reading = ev.reading if ev is not None else None
    yaku_ids = {y["id"] for y in result["yaku"]}
    return {
        "form": reading.form if reading is not None else None,
        "sets": sets_of(hand, reading) if reading is not None else [],
        "wait": {
            "shape": reading.wait if reading is not None else None,
            "tile": hand.win.text(),
            "waits": [NAMES[k] for k in wait_kinds],
        },
        "yakuhai": yakuhai_of(reading, ctx)
        if reading is not None and "yakuhai" in yaku_ids
        else [],
        "points": points_of(result, parsed) if result["valid"] else None,
        "chombo": None if result["valid"] else chombo_of(result, hand, wait_kinds),
    }


# ---------------------------------------------------------------- the split into sets


def sets_of(hand: HandInput, r: Reading) -> list[dict[str, Any]]:
    """The reading's sets with the hand's own tiles (red fives where they are), the winning tile
    at ``win_at`` of the set it completes, called sets (melds) last as they were declared."""
    pool = _Pool(hand.concealed_tiles)
    win, win_kind = hand.win, hand.win_kind  # the kind: 5p/5s for an aka-5-man taken as one
    assert win is not None and win_kind is not None
    kinds = _concealed_sets(r)
    place = _win_set(r, kinds, win_kind)
    out = []
    for i, (kind_name, ks) in enumerate(kinds):
        win_at = None
        tiles: list[str] = []
        for j, k in enumerate(ks):
            if i == place and win_at is None and k == win_kind:
                win_at = j
                tiles.append(win.text())
            else:
                tiles.append(pool.take(k))
        out.append(
            {
                "type": kind_name,
                "tiles": tiles,
                "concealed": _concealed(r, kind_name, ks, i == place),
                "called": False,
                "win_at": win_at,
            }
        )
    for m in hand.melds:
        out.append(
            {
                "type": "kan" if m.is_kan else "run" if m.is_run else "triplet",
                "tiles": [t.text() for t in m.tiles],
                "concealed": not m.is_open,
                "called": True,
                "meld": m.kind,
                "win_at": None,
            }
        )
    return out


def _concealed_sets(r: Reading) -> list[tuple[str, tuple[int, ...]]]:
    """The concealed part's sets as (type, kinds): pair, runs, triplets in tile order (standard);
    seven pairs (a four of a kind as two); kokushi or shiisan puutaa as one group of fourteen."""
    if r.form == STANDARD:
        n_meld_pungs = len(r.facts.meld_pungs)
        n_meld_runs = len(r.facts.meld_runs)
        hand_pungs = r.pungs[: len(r.pungs) - n_meld_pungs]
        hand_runs = r.runs[: len(r.runs) - n_meld_runs]
        groups: list[tuple[str, tuple[int, ...]]] = [("pair", (r.pair, r.pair))]
        groups += [("run", (s, s + 1, s + 2)) for s in hand_runs]
        groups += [("triplet", (p.kind,) * 3) for p in hand_pungs]
        return [groups[0], *sorted(groups[1:], key=lambda g: g[1])]
    counts = r.facts.counts
    if r.form == CHIITOITSU:
        # a four of a kind is two pairs (option chiitoitsu_four_of_a_kind)
        return [("pair", (k, k)) for k, c in enumerate(counts) for _ in range(c // 2)]
    every = tuple(k for k, c in enumerate(counts) for _ in range(c))
    return [("kokushi" if r.form == KOKUSHI else "none", every)]


def _win_set(r: Reading, groups: list[tuple[str, tuple[int, ...]]], win: int) -> int | None:
    """Index of the set the winning tile completes, as the reading's wait says."""
    for i, (kind_name, ks) in enumerate(groups):
        if win not in ks:
            continue
        if r.wait == "tanki" and kind_name == "pair":
            return i
        if r.wait == "shanpon" and kind_name == "triplet":
            return i
        if kind_name == "run" and RUN_WAITS[ks[0] % 9][win - ks[0]] == r.wait:
            return i
        if kind_name in ("kokushi", "none"):
            return i
    return None


def _concealed(r: Reading, kind_name: str, ks: tuple[int, ...], completes: bool) -> bool:
    """A triplet completed by ron on a shanpon wait counts as open (docs/rules.md fu)."""
    if kind_name != "triplet":
        return True
    for p in r.pungs:
        if p.kind == ks[0] and not p.kan:
            return p.concealed or not completes
    return True


class _Pool:
    """The concealed tiles still to be placed in sets, by kind (red fives kept)."""

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        self.left: dict[int, list[Tile]] = {}
        for t in tiles:
            self.left.setdefault(t.kind, []).append(t)

    def take(self, kind: int) -> str:
        got = self.left.get(kind)
        if got:
            return got.pop().text()
        return NAMES[kind]  # not expected: the reading is of these very tiles


# ---------------------------------------------------------------- yakuhai, points, chombo


def yakuhai_of(r: Reading, ctx: Context) -> list[dict[str, Any]]:
    """Each yakuhai set's tile, han and why it counts (dragon, seat wind, round wind, north)."""
    out = []
    for kind, han in yakuhai_sets(r, ctx):
        why = []
        if kind in DRAGONS:
            why.append("dragon")
        if kind == ctx.sit.seat:
            why.append("seat")
        if kind == ctx.sit.round:
            why.append("round")
        if kind == NORTH and not why:
            why.append("north")
        out.append({"tile": NAMES[kind], "han": han, "as": why})
    return out


def points_of(result: dict[str, Any], parsed: Parsed) -> dict[str, Any]:
    """Each payment of a valid win taken apart: base × its multiple, rounded up (§11), the tsumo
    bonus (§13), the honba (§12) and the §A8 doubling; and the table's call of the hand."""
    hand, rules = parsed.hand, parsed.rules
    tsumo, honba = parsed.situation.tsumo, parsed.situation.honba
    dealer = parsed.situation.seat == EAST  # as score() has it
    base = result["base"]
    fu, han, limit = result["fu"], result["han"], result["limit"]
    factor = rules.aka5man_payment_multiplier if hand.kita_aka else 1
    unit = rules.rounding_unit
    # ability mahjong: a suzaku receives half of each payment (docs/rules/ability.md ¶2.6);
    # the payments are explained as they were before the halving, then halved
    suzaku = (result.get("ability") or {}).get("suzaku") or {}
    before = suzaku.get("payments_before_halving")
    rows = []
    for k, p in enumerate(before or result["payments"]):
        if tsumo:
            times = 2 if dealer or p["from"] == "dealer" else 1
            bonus, sticks = rules.tsumo_bonus_per_payer, honba * rules.honba_tsumo_each
        else:
            times = 6 if dealer else 4
            bonus, sticks = 0, honba * rules.honba_ron
        share = base * times
        rounded = round_up(share, unit)
        amount = (rounded + bonus + sticks) * factor
        if amount != p["amount"]:  # the explanation must add up to what the engine charged
            raise AssertionError(f"explained {amount} for a payment of {p['amount']}")
        row = {
            "from": p["from"],
            "seat": p.get("seat"),
            "times": times,
            "share": share,
            "rounded": rounded,
            "tsumo_bonus": bonus,
            "honba": sticks,
            "factor": factor,
            "amount": amount,
        }
        if before:
            row["before_halving"] = amount
            row["halved"] = result["payments"][k]["amount"]
            row["amount"] = row["halved"]
        rows.append(row)
    return {
        "fu": fu,
        "han": han,
        "base_raw": fu * 2 ** (han + 2) if limit is None else None,
        "base": base,
        "limit": limit,
        "call": _suzaku_call(rows, tsumo, dealer) if before else _call(rows, tsumo, dealer),
        "payments": rows,
    }


def _call(
    rows: list[dict[str, Any]], tsumo: bool, dealer: bool, key: str = "rounded"
) -> dict[str, Any]:
    """The table's words for the hand: ron 8,000; tsumo 2,000-4,000; 4,000 all (each payer's
    ``key`` amount)."""
    winner = "dealer" if dealer else "child"
    if not tsumo:
        return {"how": "ron", "winner": winner, "amounts": [rows[0][key]]}
    if dealer:
        return {"how": "tsumo", "winner": winner, "amounts": [rows[0][key]]}
    child = [r[key] for r in rows if r["from"] == "child"]
    by_dealer = [r[key] for r in rows if r["from"] == "dealer"]
    return {"how": "tsumo", "winner": winner, "amounts": [*child[:1], *by_dealer[:1]]}


def _suzaku_call(rows: list[dict[str, Any]], tsumo: bool, dealer: bool) -> dict[str, Any]:
    """¶2.6: a suzaku's call is what it receives from each payer (each payment halved and
    rounded up, bonus and honba in it), and the call without the role beside it."""
    call = _call(rows, tsumo, dealer, key="amount")
    before = _call(rows, tsumo, dealer)["amounts"]
    return {**call, "halved": True, "before_halving": before}


def chombo_of(result: dict[str, Any], hand: HandInput, wait_kinds: list[int]) -> dict[str, Any]:
    """Why a claimed win is a false win (誤栄/誤自模, paid as chombo §R1) and which waits fail.

    ``insufficient_yaku``: the waits whose yaku han fall short of the minimum (§18), or the
    winning tile itself when the hand as won falls short; ``furiten``: the waits among the
    player's own discards; ``no_win_shape`` and ``yakuman_only`` name no wait."""
    reason = result["reason"]
    g = result["guarantee"]
    failing: list[dict[str, Any]] = []
    if reason == "insufficient_yaku":
        failing = [w for w in g["waits"] if w["yaku_han"] < g["required"]]
        if not failing:
            assert hand.win_kind is not None
            failing = [{"tile": NAMES[hand.win_kind], "yaku_han": result["yaku_han"]}]
    elif reason == "furiten":
        discarded = Counter(hand.discards)
        failing = [{"tile": NAMES[k], "yaku_han": None} for k in wait_kinds if discarded[k]]
    return {"reason": reason, "required": g["required"], "failing_waits": failing}
