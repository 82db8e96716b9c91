"""Waits, the guaranteed minimum (§18) and tenpai (§29, docs/rules.md Ryuukyoku).

A wait is a tile kind that completes the concealed tiles, exists in the rule set, and is not
used up by the player's own tiles (hand + melds + kita). For each wait the completed hand's
best reading gives its yaku han; the guarantee holds when every wait reaches the minimum
(2 han from yaku, 3 with 5+ honba, §18.4). Situational yaku that hold for any winning tile
(riichi, ippatsu, menzen tsumo on a tsumo, haitei, houtei, rinshan, kanburi, chankan,
tenhou/chihou/renhou) count, since they come from the situation the waits are judged in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sanma_lens.engine.decompose import Completion, HandFacts, Reading, completions, readings
from sanma_lens.engine.evaluate import (
    Evaluation,
    best,
    best_yaku_han,
    completer,
    evaluation,
    hand_counts,
    indicator_hits,
    readings_in,
)
from sanma_lens.engine.fold import fold_waits
from sanma_lens.engine.parse import HandInput, Parsed, Situation
from sanma_lens.engine.roles import furiten_discards
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.suits import GroupDecomp
from sanma_lens.engine.tiles import NAMES, NORTH, next_kind
from sanma_lens.engine.values import Value
from sanma_lens.engine.yaku import Context
from sanma_lens.engine.yaku_eval import held, held_ron_tsumo


def held_counts(hand: HandInput) -> list[int]:
    """How many of each kind the player holds: concealed, melds (kans 4) and kita."""
    counts = hand_counts(hand)
    counts[NORTH] += hand.kita
    return counts


def wait_shapes(hand: HandInput, rules: Rules) -> list[Completion]:
    """The waits (:func:`waits`), each with the standard decompositions of its completed
    tiles: the 13 tiles are decomposed once for all of them."""
    found = completions(hand.concealed, rules.tile_kinds, rules.chiitoitsu_four_of_a_kind)
    if rules.used_up_waits_count or not (hand.melds or hand.kita):
        return found  # a wait is never a fifth concealed tile: only melds and kita use one up
    held = held_counts(hand)
    return [c for c in found if held[c[0]] < 4]


def waits(hand: HandInput, rules: Rules) -> list[int]:
    """Winning kinds of the 13-tile hand that can still come (docs/rules.md §18, §29 [interp])."""
    return [w for w, _ in wait_shapes(hand, rules)]


class WaitValue(Value):
    """A wait's kind and the yaku han of its best reading."""

    __slots__ = ("tile", "yaku_han")

    def __init__(self, tile: int, yaku_han: int) -> None:
        self.tile = tile
        self.yaku_han = yaku_han

    def _key(self) -> tuple[object, ...]:
        return self.tile, self.yaku_han


class Guarantee(Value):
    """§18: the required yaku han, each wait's yaku han, their minimum (None without a
    wait) and whether it holds."""

    __slots__ = ("required", "waits", "minimum")

    def __init__(self, required: int, waits: tuple[WaitValue, ...], minimum: int | None) -> None:
        self.required = required
        self.waits = waits
        self.minimum = minimum

    def _key(self) -> tuple[object, ...]:
        return self.required, self.waits, self.minimum

    @property
    def ok(self) -> bool:
        return self.minimum is not None and self.minimum >= self.required

    def to_json(self) -> dict[str, object]:
        rows = []
        for v in self.waits:
            rows.append({"tile": NAMES[v.tile], "yaku_han": v.yaku_han})
        return {
            "required": self.required,
            "minimum_over_waits": self.minimum,
            "ok": self.ok,
            "waits": rows,
        }


def _base_dora(hand: HandInput, sit: Situation, rules: Rules) -> tuple[list[int], int]:
    """Per-kind dora value of one more tile of that kind, and the 13 tiles' own dora han.

    Only used to rank a wait's readings (dora are the same for all of them).
    """
    counts = hand_counts(hand)
    indicators = hand.dora + hand.ura if sit.riichi != "none" else hand.dora
    base = indicator_hits(indicators, counts, hand.kita, rules)
    per_kind = [0] * 34
    for ind in indicators:
        if ind.aka5man:  # §A9 free choice: one more tile of the best kind may raise the max
            top = max(counts)
            for k in range(34):
                per_kind[k] += 1 if counts[k] == top else 0
        else:
            per_kind[next_kind(ind.kind, rules.tile_kinds)] += 1
    if rules.north_dora:  # every north held is a dora (ECIP three-player)
        per_kind[NORTH] += rules.north_dora
        base += rules.north_dora * counts[NORTH]
    return per_kind, base


class WaitDora:
    """A wait's dora han (:func:`_base_dora` plus kita), worked out on first use: dora only
    rank a wait's readings, and most waits have one reading."""

    __slots__ = ("hand", "sit", "rules", "table")

    def __init__(self, hand: HandInput, sit: Situation, rules: Rules) -> None:
        self.hand, self.sit, self.rules = hand, sit, rules
        self.table: tuple[list[int], int] | None = None

    def of(self, kind: int) -> int:
        if self.table is None:
            self.table = _base_dora(self.hand, self.sit, self.rules)
        per_kind, base = self.table
        return base + per_kind[kind] + self.hand.kita


def wait_values(
    hand: HandInput,
    sit: Situation,
    rules: Rules,
    shapes: list[Completion],
    known: dict[int, Evaluation | None] | None = None,
    ctx: Context | None = None,
    make: Callable[[int], HandFacts] | None = None,
) -> list[WaitValue]:
    """Yaku han of the best reading for each wait, won in situation ``sit``.

    ``known`` holds evaluations already made in the same situation (the actual win's);
    ``ctx`` is the caller's Context for ``sit`` (its cached situational yaku are reused);
    ``make`` the caller's :func:`completer` of the hand.
    """
    if ctx is None or ctx.sit is not sit or ctx.rules is not rules:
        ctx = Context(sit, rules)
    dora = WaitDora(hand, sit, rules)
    out = []
    for w, decomps in shapes:
        if known is not None and w in known:
            ev = known[w]
            han = ev.yaku_han if ev is not None else 0
        else:
            if make is None:
                make = completer(hand, rules)
            han = wait_han(w, decomps, make, ctx, dora)
        out.append(WaitValue(w, han))
    return out


def wait_han(
    w: int,
    decomps: tuple[GroupDecomp, ...] | None,
    make: Callable[[int], HandFacts],
    ctx: Context,
    dora: WaitDora,
) -> int:
    """One wait's yaku han read reading by reading (``decomps``: its standard
    decompositions, or None to work them out)."""
    f = make(w)
    rs = readings_in(f, ctx, decomps)
    if len(rs) == 1 and not ctx.rules.yakuman_exclusive:  # best_yaku_han's shortcut
        return held(rs[0], ctx)[1]
    return best_yaku_han(f, ctx, dora.of(w) if len(rs) > 1 else 0, rs) or 0


def win_and_guarantee(
    parsed: Parsed, ctx: Context, extra_han: int
) -> tuple[Evaluation | None, Guarantee, list[int]]:
    """The actual win's evaluation (:func:`engine.evaluate.best`, ``extra_han``: its dora),
    the §18 guarantee of the hand before its winning tile in ``ctx`` (the win's situation)
    and the wait kinds: every wait folded in one pass over the hand
    (:func:`engine.fold.fold_waits`) where it can be, the win among them."""
    hand, sit, rules = parsed.hand, parsed.situation, parsed.rules
    win = hand.win_kind if hand.win_kind is not None else -1
    found = fold_waits(hand, rules, (ctx,), win)
    make: Callable[[int], HandFacts] | None = None
    if found is not None and found.reading is not None:
        ev: Evaluation | None = evaluation(found.reading, ctx, found.mask)
    elif found is not None and found.alternatives is not None:
        facts, decomps, by_wait = found.alternatives
        rs: list[Reading] = []
        helds = []
        fours = rules.chiitoitsu_four_of_a_kind
        for i, d in enumerate(decomps):  # readings' order, one decomposition at a time
            for r in readings(facts, sit.tsumo, rules.tile_kinds, False, (d,), fours):
                rs.append(r)
                helds.append(by_wait[i, r.wait])
        ev = best(facts, ctx, extra_han, rs, None, helds)
    else:
        make = completer(hand, rules)
        facts = make(win)
        ev = best(facts, ctx, extra_han, readings_in(facts, ctx))
    if found is None:
        shapes = wait_shapes(hand, rules)
        g = guarantee(parsed, shapes, {win: ev}, ctx, make)
        return ev, g, [w for w, _ in shapes]
    values = []
    kinds = []
    minimum: int | None = None
    dora: WaitDora | None = None
    for w, hans in found.waits:
        if w == win:  # its evaluation is the guarantee's value of that wait
            han = ev.yaku_han if ev is not None else 0
        elif hans is not None:
            han = hans[0]
        else:
            if dora is None:
                dora = WaitDora(hand, sit, rules)
            if make is None:
                make = completer(hand, rules)
            han = wait_han(w, None, make, ctx, dora)
        values.append(WaitValue(w, han))
        kinds.append(w)
        if minimum is None or han < minimum:
            minimum = han
    g = Guarantee(rules.min_han(sit.honba), tuple(values), minimum)
    return ev, g, kinds


def ron_and_tsumo_values(
    hand: HandInput, sit: Situation, rules: Rules, shapes: list[Completion] | None = None
) -> tuple[list[int], list[int], list[int]]:
    """The waits and each one's yaku han won by ron and by tsumo (in the order of
    ``shapes``, or of :func:`engine.fold.fold_waits` without them); per wait the two share
    the completed hand, its readings (unless a shanpon triplet is concealed on tsumo only)
    and reading-level yaku."""
    ron_sit, tsumo_sit = sit.as_tsumo(False), sit.as_tsumo(True)
    ron_ctx, tsumo_ctx = Context(ron_sit, rules), Context(tsumo_sit, rules)
    folded = None if shapes is not None else fold_waits(hand, rules, (ron_ctx, tsumo_ctx))
    if folded is not None:
        found = folded.waits
        decomps_of = {}
    else:
        if shapes is None:
            shapes = wait_shapes(hand, rules)
        found = [(w, None) for w, _ in shapes]
        decomps_of = dict(shapes)
    kinds = rules.tile_kinds
    fours = rules.chiitoitsu_four_of_a_kind
    shiisan = tsumo_ctx.first_turn and not hand.melds  # 十三不塔 on tsumo only
    exclusive = rules.yakuman_exclusive  # then yaku lists decide (yaku_han_of)
    dora: WaitDora | None = None  # only for waits read more than one way
    waits_: list[int] = []
    ron: list[int] = []
    tsumo: list[int] = []
    make: Callable[[int], HandFacts] | None = None
    for w, hans in found:
        waits_.append(w)
        if hans is not None:
            ron.append(hans[0])
            tsumo.append(hans[1])
            continue
        if make is None:
            make = completer(hand, rules)
        f = make(w)
        decomps = decomps_of.get(w)
        rs_ron = readings(f, False, kinds, False, decomps, fours)
        rs_tsumo = rs_ron
        if shiisan:
            rs_tsumo = readings(f, True, kinds, True, decomps, fours)
        else:
            for r in rs_ron:
                if r.wait == "shanpon":  # the triplet is concealed on tsumo (sanankou, fu)
                    rs_tsumo = readings(f, True, kinds, False, decomps, fours)
                    break
        if len(rs_ron) == 1 and rs_tsumo is rs_ron and not exclusive:  # most waits
            ron_han, tsumo_han = held_ron_tsumo(rs_ron[0], ron_ctx, tsumo_ctx)
            ron.append(ron_han)
            tsumo.append(tsumo_han)
            continue
        memo: dict[Any, Any] = {}
        extra = 0
        if len(rs_ron) > 1 or len(rs_tsumo) > 1:
            if dora is None:
                dora = WaitDora(hand, sit, rules)
            extra = dora.of(w)
        ron.append(best_yaku_han(f, ron_ctx, extra, rs_ron, memo) or 0)
        tsumo.append(best_yaku_han(f, tsumo_ctx, extra, rs_tsumo, memo) or 0)
    return waits_, ron, tsumo


def guarantee(
    parsed: Parsed,
    shapes: list[Completion] | None = None,
    known: dict[int, Evaluation | None] | None = None,
    ctx: Context | None = None,
    make: Callable[[int], HandFacts] | None = None,
) -> Guarantee:
    """The §18 guarantee of the hand before its winning tile, in the win's situation."""
    hand, sit, rules = parsed.hand, parsed.situation, parsed.rules
    if shapes is None:
        shapes = wait_shapes(hand, rules)
    values = wait_values(hand, sit, rules, shapes, known, ctx, make)
    minimum = min([v.yaku_han for v in values]) if values else None
    return Guarantee(rules.min_han(sit.honba), tuple(values), minimum)


def is_furiten(hand: HandInput, wait_kinds: list[int], exempt: tuple[int, ...] = ()) -> bool:
    """Ron is furiten when any wait is among the player's own discards (extension field);
    ``exempt``: discards that made no furiten because of a kanpa (docs/rules/ability.md ¶10.3)."""
    discards = hand.discards
    if exempt:
        discards = furiten_discards(discards, exempt)
    return bool(discards) and not set(discards).isdisjoint(wait_kinds)


def tenpai(parsed: Parsed) -> dict[str, object]:
    """Tenpai JSON (docs/api.md): every wait with its yaku han by ron and by tsumo."""
    hand, sit, rules = parsed.hand, parsed.situation, parsed.rules
    kinds, ron, tsumo = ron_and_tsumo_values(hand, sit, rules)
    required = rules.min_han(sit.honba)
    ron_min = min(ron) if ron else None
    tsumo_min = min(tsumo) if tsumo else None
    if rules.guarantee and (rules.guarantee_closed_hands or not hand.is_closed):
        ron_ok = ron_min is not None and ron_min >= required
        tsumo_ok = tsumo_min is not None and tsumo_min >= required
    else:  # no §18 guarantee: any wait may be won
        ron_ok = tsumo_ok = bool(kinds)
    role = parsed.role
    furiten = is_furiten(hand, kinds, role.kanpa_discards if role is not None else ())
    exception = sit.riichi == "none" and rules.non_riichi_tsumo_exception
    ron_open = not furiten and ron_ok
    tsumo_open = tsumo_ok or exception
    out_waits = [
        {
            "tile": NAMES[w],
            "yaku_han": r,
            "yaku_han_ron": r,
            "yaku_han_tsumo": t,
            "valid_ron": ron_open and r >= required,
            "valid_tsumo": tsumo_open and t >= required,
        }
        for w, r, t in zip(kinds, ron, tsumo, strict=True)
    ]
    counted = kinds
    if role is not None and role.kanpa is not None:
        counted = _kanpa_waits(role, kinds, out_waits, rules)
    if rules.formal_tenpai:
        is_tenpai = bool(counted)
    else:  # [interp] off: only a wait that could be won counts
        is_tenpai = any(
            w["valid_ron"] or w["valid_tsumo"]
            for k, w in zip(kinds, out_waits, strict=True)
            if k in counted
        )
    out: dict[str, object] = {
        "tenpai": is_tenpai,
        "waits": out_waits,
        "guarantee_ok": ron_ok,
        "guarantee_ok_tsumo": tsumo_ok,
        "required": required,
        "minimum_over_waits": ron_min,
        "furiten": furiten,
        "noten_riichi": sit.riichi != "none" and not (ron_ok or tsumo_ok),
    }
    if role is not None:
        out["ability"] = {
            "role": role.role.value,
            "kanpa": NAMES[role.kanpa] if role.kanpa is not None else None,
        }
    return out


def _kanpa_waits(
    role: Any, kinds: list[int], out_waits: list[dict[str, Any]], rules: Rules
) -> list[int]:
    """Ability mahjong ¶10: a wait on the kanpa tile cannot be won by tsumo, nor by ron when a
    genbu discards it (``discarder_genbu``); marked ``kanpa: true``. Returns the waits that count
    for tenpai at an exhaustive draw: all of them [interp], or without the kanpa tile when
    ``rules.kanpa_wait_counts_for_tenpai`` is off."""
    for kind, row in zip(kinds, out_waits, strict=True):
        if kind == role.kanpa:
            row["kanpa"] = True
            row["valid_tsumo"] = False
            if role.discarder_genbu:
                row["valid_ron"] = False
    if rules.kanpa_wait_counts_for_tenpai:
        return kinds
    return [k for k in kinds if k != role.kanpa]
