"""An independent, brute-force reading of docs/rules.md for sanma-1.3 (tests only).

Written from the rules text alone, sharing no code with ``engine`` (not even tile indices'
helpers): every decomposition by plain recursion, each yaku by its definition, the combination
rules, fu, limits and payments, and the §18 guarantee by trying every tile kind as the winning
tile. Slow and simple on purpose; ``test_reference.py`` compares the engine against it.

Scope: standard, chiitoitsu and kokushi wins (no shiisan puutaa, tenhou/chihou/renhou,
ron on kita, furiten); the base rule and the aka-5-man option (§A4–§A8).

Kinds are 0–33: 0–8 manzu (only 1m = 0 and 9m = 8 exist), 9–17 pinzu, 18–26 souzu,
27–33 E S W N haku hatsu chun.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SANMA = (0, 8, *range(9, 34))
E, S, W, N, HAKU, HATSU, CHUN = range(27, 34)
DRAGON = (HAKU, HATSU, CHUN)
WIND_OF = {"E": E, "S": S, "W": W}
TERMINAL = {0, 8, 9, 17, 18, 26}
HONOR = set(range(27, 34))
GREEN = {19, 20, 21, 23, 25, HATSU}  # 2s 3s 4s 6s 8s hatsu
BENI = {18, 22, 24, 26, CHUN}  # 1s 5s 7s 9s chun

# docs/rules.md yaku table: (closed, open); None = not available
TABLE: dict[str, tuple[int | None, int | None]] = {
    "menzen_tsumo": (1, None),
    "riichi": (1, None),
    "double_riichi": (2, None),
    "open_riichi": (2, None),
    "ippatsu": (1, None),
    "rinshan": (1, 1),
    "kanburi": (1, 1),
    "haitei": (1, 1),
    "houtei": (1, 1),
    "chankan": (1, 1),
    "paarenchan": (15, 15),
    "yakuhai": (1, 1),
    "pinfu": (1, None),
    "tanyao": (1, 1),
    "iipeikou": (1, None),
    "ittsu": (2, 1),
    "chiitoitsu": (2, 2),
    "toitoi": (None, 2),
    "chanta": (1, 1),
    "honroutou": (2, 2),
    "sanankou": (2, None),
    "sankantsu": (2, 2),
    "sanrenkou": (2, 2),
    "shousangen": (None, 2),
    "honitsu": (3, 2),
    "junchan": (3, 2),
    "ryanpeikou": (3, None),
    "chinitsu": (6, 5),
    "shousharin": (6, None),
    "sanshoku_doukou": (15, 15),
    "daisharin": (15, None),
    "suurenkou": (15, 15),
    "kokushi": (15, None),
    "suuankou": (15, None),
    "daisangen": (15, 15),
    "tsuuiisou": (15, 15),
    "suushii": (15, 15),
    "ryuuiisou": (15, 15),
    "chinroutou": (15, 15),
    "suukantsu": (15, 15),
    "chuuren": (15, None),
    "suuankou_tanki": (20, 20),
    "kokushi_13": (20, 20),
    "chuuren_9": (20, 20),
    "beni_kujaku": (20, 20),
    "manzu_honitsu": (15, 15),
}
STRONGER = (
    ("iipeikou", "ryanpeikou"),
    ("chanta", "junchan"),
    ("honitsu", "chinitsu"),
    ("honitsu", "manzu_honitsu"),
    ("sanankou", "suuankou"),
    ("sanankou", "suuankou_tanki"),
    ("suuankou", "suuankou_tanki"),
    ("sankantsu", "suukantsu"),
    ("sanrenkou", "suurenkou"),
    ("kokushi", "kokushi_13"),
    ("chuuren", "chuuren_9"),
    ("riichi", "double_riichi"),
)
COMPOSITES = (
    ("shousharin", ("honitsu", "chiitoitsu")),
    ("daisharin", ("pinfu", "tanyao", "ryanpeikou", "chinitsu")),
)


def suit_of(k: int) -> int:
    return k // 9 if k < 27 else 3


@dataclass
class Hand:
    """A hand: ``concealed`` 34 counts without the winning tile, melds as (kind, tile kind)
    with kind pon / minkan / kakan / ankan, extracted kita, red fives among concealed tiles
    and melds (``red``), dora / ura indicator kinds, the situation, and the aka-5-man option
    facts: ``kita_aka`` (payments doubled) and ``aka5man_as`` (+2 han)."""

    concealed: list[int]
    melds: list[tuple[str, int]]
    kita: int
    red: int
    dora: list[int]
    ura: list[int]
    seat: str = "S"
    round: str = "E"
    riichi: str = "none"
    tsumo: bool = False
    honba: int = 0
    flags: dict[str, bool] = field(default_factory=dict)
    discarder_riichi: bool = False
    kita_aka: int = 0
    aka5man_as: bool = False

    @property
    def closed(self) -> bool:
        return all(kind == "ankan" for kind, _ in self.melds)


@dataclass(frozen=True)
class Set:
    kind: str  # run | pung
    tile: int
    concealed: bool = True
    kan: bool = False


@dataclass(frozen=True)
class Reading:
    form: str  # standard | chiitoitsu | kokushi
    pair: int
    sets: tuple[Set, ...]
    wait: str  # ryanmen kanchan penchan tanki shanpon, kokushi / kokushi_13


def _splits(counts: list[int]) -> set[tuple[int, tuple[tuple[str, int], ...]]]:
    """Every split of the counts into one pair and sets (runs only in pinzu and souzu)."""
    out: set[tuple[int, tuple[tuple[str, int], ...]]] = set()

    def rec(pair: int, sets: list[tuple[str, int]]) -> None:
        i = next((i for i in range(34) if counts[i]), None)
        if i is None:
            if pair >= 0:
                out.add((pair, tuple(sorted(sets))))
            return
        if counts[i] >= 3:
            counts[i] -= 3
            rec(pair, [*sets, ("pung", i)])
            counts[i] += 3
        if counts[i] >= 2 and pair < 0:
            counts[i] -= 2
            rec(i, sets)
            counts[i] += 2
        if 9 <= i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
            for j in (i, i + 1, i + 2):
                counts[j] -= 1
            rec(pair, [*sets, ("run", i)])
            for j in (i, i + 1, i + 2):
                counts[j] += 1

    rec(-1, [])
    return out


def readings(hand: Hand, win: int) -> list[Reading]:
    counts = list(hand.concealed)
    counts[win] += 1
    melds = tuple(Set("pung", t, kind == "ankan", kind != "pon") for kind, t in hand.melds)
    out = []
    for pair, sets in _splits(list(counts)):
        roles: set[str] = set()
        if pair == win:
            roles.add("tanki")
        if ("pung", win) in sets:
            roles.add("shanpon")
        for kind, t in sets:
            if kind == "run" and t <= win <= t + 2:
                rank, place = t % 9, win - t
                if place == 1:
                    roles.add("kanchan")
                elif (place == 2 and rank == 0) or (place == 0 and rank == 6):
                    roles.add("penchan")
                else:
                    roles.add("ryanmen")
        for role in roles:
            opened = role == "shanpon" and not hand.tsumo  # ron completes that triplet
            own = tuple(
                Set(kind, t, not (opened and kind == "pung" and t == win)) for kind, t in sets
            )
            out.append(Reading("standard", pair, own + melds, role))
    if not hand.melds and sum(counts) == 14:
        if sum(1 for c in counts if c == 2) == 7:
            out.append(Reading("chiitoitsu", win, (), "tanki"))
        orphans = [k for k in SANMA if k in TERMINAL or k in HONOR]
        if all(counts[k] for k in orphans) and sum(counts[k] for k in orphans) == 14:
            thirteen = all(hand.concealed[k] == 1 for k in orphans)
            out.append(Reading("kokushi", -1, (), "kokushi_13" if thirteen else "kokushi"))
    return out


def _held_yaku(hand: Hand, r: Reading, win: int) -> dict[str, int]:
    """Every yaku that holds (yakuhai: its han), before availability and combination."""
    y: dict[str, int] = {}
    tsumo = hand.tsumo
    counts = list(hand.concealed)
    counts[win] += 1
    kinds = {k for k in range(34) if counts[k]} | {t for _, t in hand.melds}
    honors = bool(kinds & HONOR)
    terminals = bool(kinds & TERMINAL)
    suits = {suit_of(k) for k in kinds if k < 27}
    if tsumo:
        y["menzen_tsumo"] = 1
    if hand.riichi == "riichi":
        y["riichi"] = 1
    if hand.riichi == "double":
        y["double_riichi"] = 1
    if hand.riichi in ("open", "double_open"):
        y["open_riichi"] = 1
    for f in ("ippatsu", "rinshan", "haitei", "houtei", "chankan", "kanburi"):
        on_tsumo = f in ("rinshan", "haitei")
        if hand.flags.get(f) and (f == "ippatsu" or on_tsumo == tsumo):
            y[f] = 1
    if hand.seat == "E" and hand.honba >= 8:
        y["paarenchan"] = 1
    if r.form == "kokushi":
        y[r.wait] = 1
        return y
    if r.form == "chiitoitsu":
        y["chiitoitsu"] = 1
    else:
        _shape_yaku(hand, r, counts, honors, suits, y)
    if not honors and not terminals:
        y["tanyao"] = 1
    if kinds <= TERMINAL | HONOR and honors and terminals:
        y["honroutou"] = 1
    if len(suits) == 1 and honors:
        y["honitsu"] = 1
        if suits == {0}:
            y["manzu_honitsu"] = 1
    if len(suits) == 1 and not honors:
        y["chinitsu"] = 1
    if kinds <= HONOR:
        y["tsuuiisou"] = 1
    if kinds <= GREEN:
        y["ryuuiisou"] = 1
    if kinds <= TERMINAL:
        y["chinroutou"] = 1
    if kinds <= BENI:
        y["beni_kujaku"] = 1
    return y


def _shape_yaku(
    hand: Hand, r: Reading, counts: list[int], honors: bool, suits: set[int], y: dict[str, int]
) -> None:
    runs = sorted(s.tile for s in r.sets if s.kind == "run")
    pungs = [s for s in r.sets if s.kind == "pung"]
    pung_kinds = {s.tile for s in pungs}
    seat, round_wind = WIND_OF[hand.seat], WIND_OF[hand.round]
    value = dict.fromkeys(DRAGON, 1)
    value[seat] = value.get(seat, 0) + 1
    value[round_wind] = value.get(round_wind, 0) + 1
    yakuhai = sum(value.get(s.tile, 0) for s in pungs)
    if yakuhai:
        y["yakuhai"] = yakuhai
    if len(runs) == 4 and r.wait == "ryanmen" and r.pair not in value:
        y["pinfu"] = 1
    if len(set(runs)) < len(runs):
        y["iipeikou"] = 1
    if len(runs) == 4 and runs[0] == runs[1] and runs[2] == runs[3]:
        y["ryanpeikou"] = 1
    if any({b, b + 3, b + 6} <= set(runs) for b in (9, 18)):
        y["ittsu"] = 1
    if not runs:
        y["toitoi"] = 1
    outside = r.pair in TERMINAL | HONOR and all(
        s.tile in TERMINAL | HONOR if s.kind == "pung" else s.tile % 9 in (0, 6) for s in r.sets
    )
    if outside and runs:
        y["chanta" if honors else "junchan"] = 1
    concealed = sum(1 for s in pungs if s.concealed)
    if concealed >= 3:
        y["sanankou"] = 1
    if concealed == 4:
        y["suuankou_tanki" if r.wait == "tanki" else "suuankou"] = 1
    kans = sum(1 for s in pungs if s.kan)
    if kans >= 3:
        y["sankantsu"] = 1
    if kans == 4:
        y["suukantsu"] = 1
    chain = 0
    for k in pung_kinds:
        n = 0
        while k + n in pung_kinds and k + n < 27 and suit_of(k + n) == suit_of(k):
            n += 1
        chain = max(chain, n)
    if chain >= 3:
        y["sanrenkou"] = 1
    if chain >= 4:
        y["suurenkou"] = 1
    dragons = len(pung_kinds & set(DRAGON))
    if dragons == 2 and r.pair in DRAGON:
        y["shousangen"] = 1
    if dragons == 3:
        y["daisangen"] = 1
    if any({k, k + 9, k + 18} <= pung_kinds for k in (0, 8)):
        y["sanshoku_doukou"] = 1
    winds = len(pung_kinds & {E, S, W, N})
    if winds == 4 or (winds == 3 and r.pair in (E, S, W, N)):
        y["suushii"] = 1
    if not hand.melds and len(suits) == 1 and not honors:
        b = 9 * min(suits)
        need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
        if all(counts[b + i] >= need[i] for i in range(9)):
            nine = tuple(hand.concealed[b : b + 9]) == need
            y["chuuren_9" if nine else "chuuren"] = 1


def yaku(hand: Hand, r: Reading, win: int) -> dict[str, int]:
    """The yaku that count (id → han), after availability and the combination rules."""
    closed = hand.closed
    out: dict[str, int] = {}
    for y, n in _held_yaku(hand, r, win).items():
        han = TABLE[y][0 if closed else 1]
        if han is not None:
            out[y] = han * n
    if "open_riichi" in out:  # §21.1, open double riichi 3 [interp]
        out["open_riichi"] = 3 if hand.riichi == "double_open" else 2
        if not hand.tsumo and not hand.discarder_riichi:
            out["open_riichi"] = 15
    for weak, strong in STRONGER:
        if strong in out:
            out.pop(weak, None)
    for composite, parts in COMPOSITES:
        han = TABLE[composite][0 if closed else 1]
        if han is not None and all(p in out for p in parts):
            for p in parts:
                out.pop(p)
            out[composite] = han
    if "rinshan" in out:  # §40
        out.pop("haitei", None)
    if "kanburi" in out:
        out.pop("houtei", None)
    return out


def fu(hand: Hand, r: Reading) -> int:
    if r.form == "chiitoitsu":
        return 25
    closed, tsumo = hand.closed, hand.tsumo
    total = 20 + (2 if tsumo else 10 if closed else 0)
    if r.form == "standard":
        pinfu_shape = all(s.kind == "run" for s in r.sets) and r.wait == "ryanmen"
        seat, round_wind = WIND_OF[hand.seat], WIND_OF[hand.round]
        pair_fu = 2 * (r.pair in DRAGON) + 2 * (r.pair == seat) + 2 * (r.pair == round_wind)
        if closed and pinfu_shape and pair_fu == 0:
            return 20 if tsumo else 30
        total += 2 if r.wait in ("kanchan", "penchan", "tanki") else 0
        for s in r.sets:
            if s.kind == "pung":
                th = s.tile in TERMINAL | HONOR
                total += (4 if th else 2) * (2 if s.concealed else 1) * (4 if s.kan else 1)
        total += pair_fu
    total = -(-total // 10) * 10
    return 30 if not closed and total == 20 else total


def base_points(han: int, fu_: int) -> int:
    """§33: 5 mangan, 6–7 haneman, 8–10 baiman, 11–14 sanbaiman, 15+ yakuman ×(1 + (han−15)//5)."""
    if han >= 15:
        return 8000 * (1 + (han - 15) // 5)
    for least, base in ((11, 6000), (8, 4000), (6, 3000), (5, 2000)):
        if han >= least:
            return base
    return min(2000, fu_ * 2 ** (han + 2))


def _next(k: int) -> int:
    """§2: the dora an indicator of kind ``k`` indicates."""
    if k == 0:
        return 8
    if k == 8:
        return 0
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k <= N:
        return E + (k - E + 1) % 4
    return HAKU + (k - HAKU + 1) % 3


def dora_han(hand: Hand, win: int, win_red: int) -> int:
    """Dora + ura (with riichi) + red fives + kita (4 → 8) + the aka-5-man +2."""
    counts = list(hand.concealed)
    counts[win] += 1
    for kind, t in hand.melds:
        counts[t] += 3 if kind == "pon" else 4
    counts[N] += hand.kita  # extracted norths count when North is the dora [interp]
    indicators = hand.dora + (hand.ura if hand.riichi != "none" else [])
    han = sum(counts[_next(i)] for i in indicators)
    han += hand.red + win_red + (8 if hand.kita == 4 else hand.kita)
    return han + (2 if hand.aka5man_as else 0)


def best(hand: Hand, win: int, win_red: int) -> tuple[int, int, int, dict[str, int]] | None:
    """(base, yaku han, fu, yaku) of the highest-scoring reading (ties: yaku han, fu)."""
    extra = dora_han(hand, win, win_red)
    found = None
    for r in readings(hand, win):
        ys = yaku(hand, r, win)
        yh, f = sum(ys.values()), fu(hand, r)
        key = (base_points(yh + extra, f), yh, f, ys)
        if found is None or key[:3] > found[:3]:
            found = key
    return found


def waits(hand: Hand) -> list[int]:
    """§18, §29: kinds that complete the hand and are not all the player's own."""
    held = list(hand.concealed)
    for kind, t in hand.melds:
        held[t] += 3 if kind == "pon" else 4
    held[N] += hand.kita
    return [k for k in SANMA if held[k] < 4 and readings(hand, k)]


def score(hand: Hand, win: int, win_red: int) -> dict[str, object]:
    """valid / reason, han, yaku_han, fu, total (payments + no deposits), yaku, guarantee."""
    ev = best(hand, win, win_red)
    if ev is None:
        return {"valid": False, "reason": "no_win_shape"}
    values = {w: (ev if w == win else best(hand, w, 0)) for w in waits(hand)}
    minimum = min(v[1] for v in values.values() if v is not None)
    required = 3 if hand.honba >= 5 else 2
    _, yaku_han, fu_, ys = ev
    if hand.tsumo and hand.riichi == "none":  # §18.2
        ok = yaku_han >= required
    else:
        ok = yaku_han >= required and minimum >= required
    if not ok:
        return {"valid": False, "reason": "insufficient_yaku"}
    han = yaku_han + dora_han(hand, win, win_red)
    base = base_points(han, fu_)
    honba = hand.honba * 1000
    if not hand.tsumo:
        total = _up(base * (6 if hand.seat == "E" else 4)) + honba
    elif hand.seat == "E":
        total = 2 * (_up(2 * base) + 1000 + honba)
    else:
        total = _up(2 * base) + _up(base) + 2 * (1000 + honba)
    total *= 2 if hand.kita_aka else 1  # §A8
    return {
        "valid": True,
        "han": han,
        "yaku_han": yaku_han,
        "fu": fu_,
        "total": total,
        "yaku": ys,
        "minimum": minimum,
    }


def _up(amount: int) -> int:
    """§11: round a payment up to 1,000."""
    return -(-amount // 1000) * 1000


def tenpai(hand: Hand) -> tuple[list[tuple[int, int, int, bool, bool]], bool]:
    """Each wait (kind, ron yaku han, tsumo yaku han, valid ron, valid tsumo) and whether a
    riichi is no-ten (§18.1); no situational flags but riichi/ippatsu."""
    rows = []
    for w in waits(hand):
        han = []
        for tsumo in (False, True):
            h = Hand(**{**hand.__dict__, "tsumo": tsumo})
            ev = best(h, w, 0)
            assert ev is not None
            han.append(ev[1])
        rows.append((w, han[0], han[1]))
    required = 3 if hand.honba >= 5 else 2
    ron_ok = bool(rows) and min(r for _, r, _ in rows) >= required
    tsumo_ok = bool(rows) and min(t for _, _, t in rows) >= required
    open_tsumo = tsumo_ok or hand.riichi == "none"
    out = [(w, r, t, ron_ok and r >= required, open_tsumo and t >= required) for w, r, t in rows]
    return out, hand.riichi != "none" and not (ron_ok or tsumo_ok)
