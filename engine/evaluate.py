"""The best reading of a completed hand and its dora (docs/rules.md: highest points wins;
§2, §3, §22).

:func:`best` scores every reading (yaku, fu) and keeps the one with the most points, ties going
to more yaku han and then more fu. Dora, red fives and kita are the same for every reading;
they are passed in as ``extra_han`` so that limits are compared correctly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sanma_lens.engine.decompose import (
    GroupDecomp,
    HandFacts,
    Reading,
    facts_maker,
    hand_facts,
    readings,
)
from sanma_lens.engine.fu import FuItem, fu_of, fu_value
from sanma_lens.engine.parse import HandInput, Situation, Tile
from sanma_lens.engine.points import limited_base
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.tiles import FIVE_M, FIVE_P, FIVE_S, NORTH, next_kind
from sanma_lens.engine.values import Value
from sanma_lens.engine.yaku import Context
from sanma_lens.engine.yaku_eval import has_yakuman_yaku, held, yaku_han_of, yaku_of, yaku_of_mask


class Evaluation(Value):
    """The chosen reading with its yaku, yaku han and fu."""

    __slots__ = ("reading", "yaku", "yaku_han", "fu", "fu_items")

    def __init__(
        self,
        reading: Reading,
        yaku: tuple[tuple[str, int], ...],
        yaku_han: int,
        fu: int,
        fu_items: tuple[FuItem, ...],
    ) -> None:
        self.reading = reading
        self.yaku = yaku
        self.yaku_han = yaku_han
        self.fu = fu
        self.fu_items = fu_items

    def _key(self) -> tuple[object, ...]:
        return self.reading, self.yaku, self.yaku_han, self.fu, self.fu_items


def readings_in(
    facts: HandFacts, ctx: Context, decomps: tuple[GroupDecomp, ...] | None = None
) -> list[Reading]:
    """The readings of a completed hand as won in ``ctx`` (ron/tsumo, first draw);
    ``decomps``: its standard decompositions when already known."""
    rules = ctx.rules
    return readings(
        facts,
        ctx.sit.tsumo,
        rules.tile_kinds,
        ctx.first_turn and not facts.melds,
        decomps,
        rules.chiitoitsu_four_of_a_kind,
    )


def best(
    facts: HandFacts,
    ctx: Context,
    extra_han: int,
    rs: list[Reading] | None = None,
    memo: dict[Any, Any] | None = None,
    helds: list[tuple[int, int]] | None = None,
) -> Evaluation | None:
    """The highest-scoring reading, or None when the tiles are not a win shape.

    Ties in points go to more yaku han, then more fu, then the first reading; with
    ``rules.tie_break_by_raw_fu`` (riichi-4p, the ``mahjong`` library's order) to a yakuman
    yaku, more yaku han, more fu, then more fu before rounding up.

    ``rs``: the readings if already made (``readings_in``); ``memo``: see ``yaku_of``;
    ``helds``: each reading's ``held`` value when already known (not under
    ``yakuman_exclusive``).
    """
    if rs is None:
        rs = readings_in(facts, ctx)
    if not rs:
        return None
    i = 0
    if len(rs) > 1:
        if memo is None:
            memo = {}  # the chosen reading's yaku are read again below
        i = _best_index(rs, ctx, extra_han, memo, helds)[0]
    r = rs[i]
    yaku = yaku_of(r, ctx, memo) if helds is None else yaku_of_mask(r, ctx, helds[i][0])
    fu, items = fu_of(r, ctx)
    return Evaluation(r, tuple(yaku), _han_of(yaku), fu, tuple(items))


def evaluation(r: Reading, ctx: Context, mask: int) -> Evaluation:
    """The evaluation of a hand read one way only: ``r``, whose held yaku bits are ``mask``
    (:func:`best` of a single reading)."""
    yaku = yaku_of_mask(r, ctx, mask)
    fu, items = fu_of(r, ctx)
    return Evaluation(r, tuple(yaku), _han_of(yaku), fu, tuple(items))


def _han_of(yaku: list[tuple[str, int]]) -> int:
    total = 0
    for _, h in yaku:
        total += h
    return total


def _best_index(
    rs: list[Reading],
    ctx: Context,
    extra_han: int,
    memo: dict[Any, Any],
    helds: list[tuple[int, int]] | None = None,
) -> tuple[int, int]:
    """Index and yaku han of the highest-scoring reading (the ranking of :func:`best`),
    without building yaku lists (unless ``yakuman_exclusive``) or fu breakdowns."""
    rules = ctx.rules
    ym_han = rules.yakuman_han
    by_raw_fu = rules.tie_break_by_raw_fu
    exclusive = rules.yakuman_exclusive
    dora_with_ym = rules.dora_with_yakuman
    found, found_han = 0, 0
    found_key: tuple[int, ...] = (-1,)
    for i, r in enumerate(rs):
        if exclusive:
            yaku = yaku_of(r, ctx, memo)
            yaku_han = sum(h for _, h in yaku)
            has_ym = yaku_han >= ym_han and any(h >= ym_han for _, h in yaku)
        else:
            h = held(r, ctx, memo) if helds is None else helds[i]
            yaku_han = h[1]
            has_ym = has_yakuman_yaku(r, ctx, h)
        fu, raw = fu_value(r, ctx)
        extra = extra_han if dora_with_ym or not has_ym else 0
        base = limited_base(yaku_han + extra, fu, has_ym, rules)[0]
        if by_raw_fu:
            key: tuple[int, ...] = (base, has_ym, yaku_han, fu, raw)
        else:
            key = (base, yaku_han, fu)
        if key > found_key:
            found_key = key
            found, found_han = i, yaku_han
    return found, found_han


def best_yaku_han(
    facts: HandFacts,
    ctx: Context,
    extra_han: int,
    rs: list[Reading] | None = None,
    memo: dict[Any, Any] | None = None,
) -> int | None:
    """Yaku han of the best reading (as :func:`best`), or None for no win shape.

    Only the winner's yaku han is wanted: when every reading has the same (a single reading,
    or a wait read two ways with the same yaku), whichever wins gives it, so fu and points
    are not computed.
    """
    if rs is None:
        rs = readings_in(facts, ctx)
    if not rs:
        return None
    if len(rs) == 1:
        if ctx.rules.yakuman_exclusive:
            return yaku_han_of(rs[0], ctx, memo)
        return held(rs[0], ctx, memo)[1]
    if memo is None:
        memo = {}  # the ranking below reads the same readings' yaku again
    if ctx.rules.yakuman_exclusive:
        first = yaku_han_of(rs[0], ctx, memo)
        same = all(yaku_han_of(r, ctx, memo) == first for r in rs[1:])
    else:  # held's han is yaku_han_of's without the yakuman_exclusive filter
        first = held(rs[0], ctx, memo)[1]
        same = all(held(r, ctx, memo)[1] == first for r in rs[1:])
    return first if same else _best_index(rs, ctx, extra_han, memo)[1]


def completed(hand: HandInput, win_kind: int, rules: Rules | None = None) -> HandFacts:
    """The completed hand: the concealed part plus a winning tile of kind ``win_kind``.

    With ``rules.kita_counts_in_shape`` extracted kita count as norths in the shape's kinds.
    """
    counts = list(hand.concealed)
    counts[win_kind] += 1
    return hand_facts(tuple(counts), hand.melds, win_kind, _kita_in_shape(hand, rules))


def completer(hand: HandInput, rules: Rules | None = None) -> Callable[[int], HandFacts]:
    """``win_kind → completed(hand, win_kind, rules)``, sharing the work across the waits."""
    return facts_maker(hand.concealed, hand.melds, _kita_in_shape(hand, rules))


def _kita_in_shape(hand: HandInput, rules: Rules | None) -> tuple[int, ...]:
    """The extra shape kinds of the extracted kita: one north under ``kita_counts_in_shape``."""
    return (NORTH,) if rules is not None and rules.kita_counts_in_shape and hand.kita else ()


class Dora(Value):
    """Dora han by source (Result JSON ``dora``)."""

    __slots__ = ("dora", "ura", "aka", "kita", "aka5man_bonus")

    def __init__(
        self, dora: int = 0, ura: int = 0, aka: int = 0, kita: int = 0, aka5man_bonus: int = 0
    ) -> None:
        self.dora = dora
        self.ura = ura
        self.aka = aka
        self.kita = kita
        self.aka5man_bonus = aka5man_bonus

    def _key(self) -> tuple[object, ...]:
        return self.dora, self.ura, self.aka, self.kita, self.aka5man_bonus

    @property
    def total(self) -> int:
        return self.dora + self.ura + self.aka + self.kita + self.aka5man_bonus

    def to_json(self) -> dict[str, int]:
        return {
            "dora": self.dora,
            "ura": self.ura,
            "aka": self.aka,
            "kita": self.kita,
            "aka5man_bonus": self.aka5man_bonus,
        }


def shape_tiles(hand: HandInput, win: Tile | None, win_kind: int | None) -> list[Tile]:
    """The tiles of hand, melds and winning tile (not the kita), the win as its shape kind."""
    tiles = list(hand.concealed_tiles) + [t for m in hand.melds for t in m.tiles]
    if win is not None and win_kind is not None:
        tiles.append(win if win.kind == win_kind else Tile(win_kind, aka5man=True))
    return tiles


def indicator_hits(indicators: tuple[Tile, ...], counts: list[int], kita: int, rules: Rules) -> int:
    """Dora han from indicators (§2): the indicated kind's tiles, norths incl. kita [interp];
    an aka-5-man indicator lets the winner name any kind (§A9: take the best)."""
    if not indicators:
        return 0
    if kita and rules.kita_count_as_dora_when_north_indicated:
        counts = list(counts)
        counts[NORTH] += kita
    total = 0
    for ind in indicators:
        if ind.aka5man:
            total += max(counts)
        else:
            total += counts[next_kind(ind.kind, rules.tile_kinds)]
    return total


def hand_counts(hand: HandInput) -> list[int]:
    """How many of each kind the concealed tiles and melds (kans 4) hold (no winning tile,
    no kita)."""
    counts = list(hand.concealed)
    for m in hand.melds:
        for t in m.tiles:
            counts[t.kind] += 1
    return counts


def _shape_count(hand: HandInput, kind: int, win_kind: int | None) -> int:
    """How many tiles of ``kind`` hand, melds (kans 4) and the winning tile's shape kind
    hold: :func:`hand_counts`' entry without counting every kind."""
    n = hand.concealed[kind]
    if kind == win_kind:
        n += 1
    for m in hand.melds:
        if m.kind == "chi":
            if m.tile <= kind <= m.tile + 2:
                n += 1
        elif m.tile == kind:
            n += len(m.tiles)
    return n


def _hits(indicators: tuple[Tile, ...], hand: HandInput, win_kind: int | None, rules: Rules) -> int:
    """:func:`indicator_hits` on the shape's tiles (hand, melds, winning tile), counting only
    the indicated kinds (all of them for an aka-5-man indicator, §A9)."""
    total = 0
    for ind in indicators:
        if ind.aka5man:
            counts = hand_counts(hand)
            if win_kind is not None:
                counts[win_kind] += 1
            return indicator_hits(indicators, counts, hand.kita, rules)
        k = next_kind(ind.kind, rules.tile_kinds)
        total += _shape_count(hand, k, win_kind)
        if k == NORTH and hand.kita and rules.kita_count_as_dora_when_north_indicated:
            total += hand.kita  # §2 [interp]: extracted norths count as indicated norths
    return total


def dora_of(
    hand: HandInput, win: Tile | None, win_kind: int | None, sit: Situation, rules: Rules
) -> Dora:
    """All non-yaku han of a hand: dora, ura (with riichi), red fives, kita, aka-5-man bonus."""
    if win is None:
        win_kind = None
    dora = _hits(hand.dora, hand, win_kind, rules) if hand.dora else 0
    if rules.north_dora:  # every north held is a dora, no indicator needed (ECIP three-player)
        dora += rules.north_dora * _shape_count(hand, NORTH, win_kind)
    ura = _hits(hand.ura, hand, win_kind, rules) if hand.ura and sit.riichi != "none" else 0
    if rules.all_fives_red:
        tiles = shape_tiles(hand, win, win_kind)
        aka = sum(1 for t in tiles if t.kind in (FIVE_P, FIVE_S) and not t.aka5man)
    else:  # the red fives among hand, melds and the winning tile (the shape's tiles)
        held = hand.concealed
        aka = 0
        if held[FIVE_M] or held[FIVE_P] or held[FIVE_S]:  # a red five is a 5m, 5p or 5s
            for t in hand.concealed_tiles:
                if t[1]:  # its ``red`` (by index: a Tile NamedTuple's attribute is a lookup)
                    aka += 1
        for m in hand.melds:
            for t in m.tiles:
                if t[1]:
                    aka += 1
        if win is not None and win_kind is not None and win.kind == win_kind:
            aka += win.red
    if rules.aka5man_kita_is_red_dora:
        aka += hand.kita_aka
    kita = rules.kita_all_four_han if hand.kita == 4 else hand.kita
    bonus = rules.aka5man_as_bonus_han if hand.aka5man_as else 0
    return Dora(dora, ura, aka, kita, bonus)
