"""Fu of a reading with an explanation list (docs/rules.md Hand value, "Fu" [interp]: standard).

20 base; closed ron +10; tsumo +2 except pinfu tsumo (20 fu) and, under ``rinshan_tsumo_fu``
off, a rinshan kaihou; open pinfu-shaped ron 30 (``open_pinfu_fu``);
kanchan/penchan/tanki +2; triplets 2/4 open (simple / terminal-honor), concealed ×2, kans ×4;
a triplet completed by ron on a shanpon wait is open; pair of dragon / seat wind / round wind
+2 each (double wind pair +4); round up to 10. Chiitoitsu is a fixed 25 fu (§20). Kita carry
no fu.
"""

from __future__ import annotations

from typing import Final

from sanma_lens.engine.decompose import CHIITOITSU, STANDARD, Reading
from sanma_lens.engine.tiles import DRAGONS, IS_TH, NAMES, NORTH
from sanma_lens.engine.yaku import Context, pinfu

FuItem = tuple[str, int]


def _pung_item(kind: int, concealed: bool, kan: bool) -> FuItem:
    """A triplet's or kan's breakdown item: 2 (simple) or 4 (terminal/honor), ×2 concealed,
    ×4 kan."""
    fu = 2 * (2 if IS_TH[kind] else 1) * (2 if concealed else 1) * (4 if kan else 1)
    what = ("ankan" if concealed else "minkan") if kan else ("ankou" if concealed else "minkou")
    return f"{what}_{NAMES[kind]}", fu


#: every triplet's item by ``kind << 2 | concealed << 1 | kan`` (the items are shared values)
_PUNG_ITEMS: Final = tuple(_pung_item(k >> 2, bool(k & 2), bool(k & 1)) for k in range(34 << 2))
_PAIR_REASONS: Final = tuple(f"pair_{n}" for n in NAMES)
#: the waits worth 2 fu and their items
_WAIT_ITEMS: Final = {w: (f"wait_{w}", 2) for w in ("kanchan", "penchan", "tanki")}


def fu_of(r: Reading, c: Context) -> tuple[int, list[FuItem]]:
    """``(fu, breakdown)``; the breakdown's fu add up to the fu before rounding."""
    rules = c.rules
    form = r.form
    if form == CHIITOITSU:
        return rules.chiitoitsu_fu, [("chiitoitsu", rules.chiitoitsu_fu)]
    tsumo = c.sit.tsumo
    closed = r.facts.closed
    if form != STANDARD:
        items: list[FuItem] = [("base", 20)]
        items.append(("tsumo", 2) if tsumo else ("closed_ron", 10) if closed else ("ron", 0))
        return _round(items), items
    if closed and pinfu(r, c):
        if tsumo:
            return rules.pinfu_tsumo_fu, [("pinfu_tsumo", rules.pinfu_tsumo_fu)]
        return 30, [("base", 20), ("closed_ron", 10)]
    items = [("base", 20)]
    total = 20
    if tsumo:
        if rules.rinshan_tsumo_fu or not c.sit.rinshan:
            items.append(("tsumo", 2))
            total += 2
    elif closed:
        items.append(("closed_ron", 10))
        total += 10
    wait = _WAIT_ITEMS.get(r.wait)
    if wait is not None:
        items.append(wait)
        total += 2
    for p in r.pungs:
        item = _PUNG_ITEMS[p.kind << 2 | p.concealed << 1 | p.kan]
        items.append(item)
        total += item[1]
    pair = r.pair
    if pair >= 27:  # a suit pair is worth nothing
        pair_fu = _pair_fu(pair, c)
        if pair_fu:
            items.append((_PAIR_REASONS[pair], pair_fu))
            total += pair_fu
    fu = -(-total // 10) * 10
    if not closed and fu == 20 and rules.open_pinfu_fu != 20:
        items.append(("open_pinfu", rules.open_pinfu_fu - 20))
        fu = rules.open_pinfu_fu
    return fu, items


def _pair_fu(kind: int, c: Context) -> int:
    if kind in DRAGONS:
        return 2
    seat, rnd = kind == c.sit.seat, kind == c.sit.round
    if seat and rnd:
        return c.rules.double_wind_pair_fu
    if seat or rnd:
        return 2
    if kind == NORTH and c.rules.north_is_yakuhai:
        return 2
    return 0


def _round(items: list[FuItem]) -> int:
    total = sum(f for _, f in items)
    return -(-total // 10) * 10


def fu_value(r: Reading, c: Context) -> tuple[int, int]:
    """``(fu, raw fu)`` of :func:`fu_of` without the breakdown (ranking readings of a wait).

    The raw fu is the breakdown's sum before rounding up, an open pinfu-shaped hand counting
    22 (20 + 2) rather than the 30 of its ``open_pinfu`` item.
    """
    rules = c.rules
    if r.form == CHIITOITSU:
        return rules.chiitoitsu_fu, rules.chiitoitsu_fu
    tsumo = c.sit.tsumo
    closed = r.facts.closed
    if r.form != STANDARD:
        total = 22 if tsumo else 30 if closed else 20
        return -(-total // 10) * 10, total
    if closed and pinfu(r, c):
        if tsumo:
            return rules.pinfu_tsumo_fu, rules.pinfu_tsumo_fu
        return 30, 30
    total = 22 if tsumo else 30 if closed else 20
    if tsumo and not rules.rinshan_tsumo_fu and c.sit.rinshan:
        total -= 2
    if r.wait in _WAIT_ITEMS:
        total += 2
    for p in r.pungs:
        total += _PUNG_ITEMS[p.kind << 2 | p.concealed << 1 | p.kan][1]
    if r.pair >= 27:
        total += _pair_fu(r.pair, c)
    fu = -(-total // 10) * 10
    if not closed and fu == 20 and rules.open_pinfu_fu != 20:
        return rules.open_pinfu_fu, total + 2
    return fu, total
