"""Rule sets as one frozen value (docs/rules.md; STYLE.md "one Rules value").

Every difference between rule sets lives in :class:`Rules`: which tile kinds exist, red fives,
whether chi exists, the minimum han and the guarantee (§18), the limit table (§33), rounding
(§11), honba (§12), the tsumo bonus (§13), the yaku han table and every **[interp]** choice of
docs/rules.md as a named option. Code elsewhere reads fields; it never tests a preset's name.

A hand JSON selects a preset and overrides options with
``"rules": {"preset": "sanma-1.3", "aka_5man": true, "<option>": value}`` (see
:func:`rules_from_json`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.tiles import ALL_KINDS, SANMA_KINDS


@dataclass(frozen=True)
class YakuSpec:
    """One row of the yaku table: id, Japanese name, han closed / open (None = not available)."""

    id: str
    name: str
    closed: int | None
    open: int | None


@dataclass(frozen=True)
class LimitStep:
    """A limit hand: from ``min_han`` han on, the base is ``base`` (§33)."""

    min_han: int
    base: int
    name: str


# docs/rules.md "Yaku (complete list)", in the order of the seed's tables.
SANMA_YAKU: Final[tuple[YakuSpec, ...]] = (
    YakuSpec("menzen_tsumo", "門前清自模和", 1, None),
    YakuSpec("riichi", "立直", 1, None),
    YakuSpec("double_riichi", "ダブル立直", 2, None),
    YakuSpec("open_riichi", "オープン立直", 2, None),
    YakuSpec("ippatsu", "一発", 1, None),
    YakuSpec("rinshan", "嶺上開花", 1, 1),
    YakuSpec("kanburi", "槓振り", 1, 1),
    YakuSpec("haitei", "海底撈月", 1, 1),
    YakuSpec("houtei", "河底撈魚", 1, 1),
    YakuSpec("chankan", "槍槓", 1, 1),
    YakuSpec("renhou", "人和", 8, None),
    YakuSpec("paarenchan", "八連荘", 15, 15),
    YakuSpec("shiisan_puutaa", "十三不塔", 15, 15),
    YakuSpec("tenhou", "天和", 15, None),
    YakuSpec("chihou", "地和", 15, None),
    YakuSpec("yakuhai", "役牌", 1, 1),
    YakuSpec("pinfu", "平和", 1, None),
    YakuSpec("tanyao", "断么九", 1, 1),
    YakuSpec("iipeikou", "一盃口", 1, None),
    YakuSpec("ittsu", "一気通貫", 2, 1),
    YakuSpec("chiitoitsu", "七対子", 2, 2),
    YakuSpec("toitoi", "対々和", None, 2),
    YakuSpec("chanta", "混全帯么九", 1, 1),
    YakuSpec("honroutou", "混老頭", 2, 2),
    YakuSpec("sanankou", "三暗刻", 2, None),
    YakuSpec("sankantsu", "三槓子", 2, 2),
    YakuSpec("sanrenkou", "三連刻", 2, 2),
    YakuSpec("shousangen", "小三元", None, 2),
    YakuSpec("honitsu", "混一色", 3, 2),
    YakuSpec("junchan", "純全帯么九", 3, 2),
    YakuSpec("ryanpeikou", "二盃口", 3, None),
    YakuSpec("chinitsu", "清一色", 6, 5),
    YakuSpec("shousharin", "小車輪", 6, None),
    YakuSpec("sanshoku_doukou", "三色同刻", 15, 15),
    YakuSpec("daisharin", "大車輪", 15, None),
    YakuSpec("suurenkou", "四連刻", 15, 15),
    YakuSpec("kokushi", "國士無双", 15, None),
    YakuSpec("suuankou", "四暗刻", 15, None),
    YakuSpec("daisangen", "大三元", 15, 15),
    YakuSpec("tsuuiisou", "字一色", 15, 15),
    YakuSpec("suushii", "四喜和", 15, 15),
    YakuSpec("ryuuiisou", "緑一色", 15, 15),
    YakuSpec("chinroutou", "清老頭", 15, 15),
    YakuSpec("suukantsu", "四槓子", 15, 15),
    YakuSpec("chuuren", "九蓮宝燈", 15, None),
    YakuSpec("suuankou_tanki", "単騎待ち四暗刻", 20, 20),
    YakuSpec("kokushi_13", "十三面待ち國士無双", 20, 20),
    YakuSpec("chuuren_9", "九面待ち九蓮宝燈", 20, 20),
    YakuSpec("beni_kujaku", "紅孔雀", 20, 20),
    YakuSpec("manzu_honitsu", "萬子の混一色", 15, 15),
)

# "A yaku never adds to its own stronger form" (docs/rules.md, How yaku combine):
# (weaker, stronger).
SANMA_STRONGER: Final[tuple[tuple[str, str], ...]] = (
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
    ("riichi", "open_riichi"),
    ("double_riichi", "open_riichi"),
)

# Composite yaku that replace their parts (§36, §37): (composite, parts).
SANMA_COMPOSITES: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("shousharin", ("honitsu", "chiitoitsu")),
    ("daisharin", ("pinfu", "tanyao", "ryanpeikou", "chinitsu")),
)

SANMA_LIMITS: Final[tuple[LimitStep, ...]] = (
    LimitStep(5, 2000, "mangan"),
    LimitStep(6, 3000, "haneman"),
    LimitStep(8, 4000, "baiman"),
    LimitStep(11, 6000, "sanbaiman"),
)


@dataclass(frozen=True, eq=False, repr=False)
class Rules:
    """A complete rule set. Defaults are sanma-1.3 as written in docs/rules.md.

    Options marked [interp] in docs/rules.md keep their documented default and may be overridden.

    Equality, hash and repr are a dataclass's (by the fields, in order), written once below
    rather than generated: ``dataclass`` writes and compiles the source of each method at
    every import, and for 90 fields ``__eq__``, ``__hash__`` and ``__repr__`` were most of
    the engine's start-up after its tables. ``dataclasses.fields`` and ``replace`` work as on
    any dataclass.
    """

    preset: str = "sanma-1.3"
    # --- tiles (§1, §3, §A1–A2) ---
    tile_kinds: frozenset[int] = SANMA_KINDS
    #: red fives in the base set per suit letter (one 0p and one 0s, §3)
    red_fives: tuple[tuple[str, int], ...] = (("p", 1), ("s", 1))
    #: option 赤五萬: all 5p/5s red, one north replaced by the aka-5-man (§A1–A2)
    aka_5man: bool = False
    chi_allowed: bool = False  # §19
    kita_enabled: bool = True  # §22
    kita_all_four_han: int = 8  # §22.2: all four norths by one player count 8
    seats: tuple[str, ...] = ("E", "S", "W")  # §4: no North seat
    rounds: tuple[str, ...] = ("E", "S")  # §6: East–South, no west round
    # --- minimum han (§18) ---
    min_yaku_han: int = 2
    min_yaku_han_many_honba: int = 3  # §18.4
    many_honba: int = 5
    guarantee: bool = True  # §18.1: the minimum must hold for every wait
    #: False: only an open hand needs the guarantee; a closed hand may win on any wait with
    #: the minimum (standard: 先づけ, 門前選択アリ [interp])
    guarantee_closed_hands: bool = True
    non_riichi_tsumo_exception: bool = True  # §18.2
    # --- hand value (§33) ---
    limits: tuple[LimitStep, ...] = SANMA_LIMITS
    #: limits a win may be given as by name only, for a yaku worth that limit whatever its han
    #: (ECIP's センター長, 倍満相当: baiman, above its mangan cap); the game keeper's entry
    named_limits: tuple[LimitStep, ...] = ()
    mangan_base: int = 2000
    yakuman_han: int = 15
    yakuman_base: int = 8000
    #: han per further yakuman multiple (20 = double); 0 = no multiples by han
    yakuman_step_han: int = 5
    #: counted (kazoe) yakuman cap in multiples; 0 = no cap (§33: every 5 han one more)
    kazoe_max_multiple: int = 0
    #: False: 13+ han without a yakuman yaku stays at the top limit below yakuman (sanbaiman)
    kazoe_yakuman: bool = True
    #: False: a double-yakuman yaku (20/26 han in the table) counts as a single yakuman
    double_yakuman: bool = True
    #: cap on the yakuman multiple of any hand, yakuman yaku included (0 = no cap)
    yakuman_max_multiple: int = 0
    kiriage_mangan: bool = False  # [interp] no kiriage mangan
    # --- payments (§11–§14) ---
    rounding_unit: int = 1000  # §11: round every payment up to 1,000
    tsumo_bonus_per_payer: int = 1000  # §13
    honba_ron: int = 1000  # §12: per stick, from the discarder
    honba_tsumo_each: int = 1000  # §12: per stick, from each payer
    riichi_deposit: int = 1000  # [interp] one deposit stick is 1,000
    chombo_child_each: int = 4000  # §R1.3: a child offender pays each other child this
    chombo_child_to_dealer: int = 4000  # ... and the dealer this
    chombo_dealer_each: int = 6000
    aka5man_payment_multiplier: int = 2  # §A8: winner who extracted an aka-5-man
    aka5man_doubles_deposits: bool = False  # [interp] §A8 doubles amounts, not deposits
    aka5man_as_bonus_han: int = 2  # §A6.1: discarded aka-5-man taken as 5p/5s
    # --- fu ---
    chiitoitsu_fu: int = 25  # §20
    double_wind_pair_fu: int = 4  # [interp] standard riichi fu
    pinfu_tsumo_fu: int = 20
    open_pinfu_fu: int = 30
    #: False: pinfu never holds on a tsumo, which keeps its 2 fu (ECIP ツモピン)
    pinfu_on_tsumo: bool = True
    #: a hand of 1 han in all with fewer fu is paid as this many (ECIP: 20 fu 1 han as 30 fu);
    #: 0 = no such rule
    one_han_min_fu: int = 0
    #: False: a rinshan kaihou win gets no tsumo fu (standard proposal)
    rinshan_tsumo_fu: bool = True
    # --- yaku ---
    yaku: tuple[YakuSpec, ...] = SANMA_YAKU
    stronger: tuple[tuple[str, str], ...] = SANMA_STRONGER
    composites: tuple[tuple[str, tuple[str, ...]], ...] = SANMA_COMPOSITES
    yakuman_exclusive: bool = False  # [interp] False: yakuman yaku add up with everything
    #: with a yakuman yaku, do dora / red fives / kita still add han? (§33.1: yes)
    dora_with_yakuman: bool = True
    north_is_yakuhai: bool = False  # [interp] no North seat or round
    open_double_riichi_han: int = 3  # [interp]
    open_riichi_vs_non_riichi_han: int = 15  # §21.1 (0 = no such rule)
    ryuuiisou_requires_hatsu: bool = False  # [interp]
    beni_kujaku_requires_chun: bool = False  # [interp] "only 1s 5s 7s 9s and chun"
    tsuuiisou_chiitoitsu: bool = True  # [interp] seven honor pairs are tsuuiisou
    #: chiitoitsu may hold a concealed four of a kind as two of its pairs (standard proposal
    #: §和了役 七対子 option 四枚使い); False: seven distinct kinds
    chiitoitsu_four_of_a_kind: bool = False
    #: honroutou's han, closed and open, when above the yaku table's (standard proposal
    #: §和了役 混老頭 option: "2飜を基本として…それ以上"); 0: the table's han
    honroutou_han: int = 0
    #: renhou's han when not the yaku table's (standard proposal §和了役 人和: 4 han "を基本",
    #: its variations, e.g. mangan at 5 or yakuman at ``yakuman_han``); 0: the table's han
    renhou_han: int = 0
    #: han of 喰い平和, an open hand of pinfu's shape (standard proposal §点数計算: the
    #: alternative to 30 fu is 20 fu, ``open_pinfu_fu``, with this yaku); 0: no such yaku.
    #: Only a table with its row (standard) has it.
    kui_pinfu_han: int = 0
    honroutou_needs_terminals_and_honors: bool = True  # [interp]
    chanta_needs_run: bool = True  # [interp] all-triplet hands are honroutou instead
    rinshan_haitei_combine: bool = False  # §40: count one of the pair
    #: §40 allows claiming haitei with rinshan (and houtei with chankan) and counts one;
    #: False refuses the pair as inconsistent (riichi-4p, as the mahjong library)
    last_tile_and_kan_win_together: bool = True
    kanburi_houtei_combine: bool = False  # §40
    #: [interp] shiisan puutaa is not a regular win shape, so it never adds tenhou/chihou
    shiisan_puutaa_with_tenhou: bool = False
    #: §27–§28: an ankan (or a north extraction) does not break tenhou/chihou/renhou
    first_turn_after_ankan: bool = True
    #: ties between readings worth the same points: False keeps the first of the most yaku
    #: han and fu; True (riichi-4p, as the mahjong library) prefers a yakuman yaku, then
    #: yaku han, fu, and fu before rounding
    tie_break_by_raw_fu: bool = False
    paarenchan_honba: int = 8  # §35
    # --- dora (§2, §3, §22, §A5, §A9) ---
    #: False: on a chankan the robbed kan's indicator does not count (the kan never stands)
    kan_dora_on_chankan: bool = True
    #: False: on a ron of the discard right after a kan (``kanburi``), that kan's indicator
    #: does not count yet (ECIP: a kan dora counts once the kan is established)
    kan_dora_on_kan_discard: bool = True
    #: True: the indicator of an open kan (minkan, kakan) is turned up only once the kan is
    #: established, so it is not on the table at a chankan or kanburi ron (ECIP)
    open_kan_dora_turned_late: bool = False
    #: han per north held, as a dora that needs no indicator (ECIP three-player: 北は常時ドラ)
    north_dora: int = 0
    kita_count_as_dora_when_north_indicated: bool = True  # [interp]
    #: [interp] extracted kita are not part of the shape (never break tanyao, honitsu, ...)
    kita_counts_in_shape: bool = False
    # --- tenpai at ryuukyoku (§29) ---
    formal_tenpai: bool = True  # [interp] shape tenpai counts, with or without yaku
    #: [interp] a wait whose four tiles are all the player's own does not count
    used_up_waits_count: bool = False
    aka5man_kita_is_red_dora: bool = False  # [interp] an extracted aka-5-man is no extra red five
    #: [interp] ron on an extracted north / robbed ankan needs a yakuman-valued hand (§23–§24);
    #: True would require a yakuman *yaku* instead of 15 han in total.
    kita_ron_needs_yakuman_yaku: bool = False
    #: False: no one may rob a concealed kan, not even with kokushi (standard proposal)
    ankan_robbable: bool = True
    # --- ability mahjong (能力麻雀 ver 1.1, docs/rules/ability.md): the winner's role ---
    #: ¶2.5: the suzaku's minimum is this many han from yaku in the actual hand (no §18
    #: guarantee), and ``suzaku_min_yaku_han_many_honba`` with ``many_honba`` or more honba
    suzaku_min_yaku_han: int = 1
    suzaku_min_yaku_han_many_honba: int = 2
    #: ¶2.6: the suzaku receives 1/this of a win's payments, each rounded up (1: no halving;
    #: the game keeper scores with 1 and halves in its fold, after the §A8 doubling)
    suzaku_payment_divisor: int = 2
    suzaku_halves_honba: bool = True  # [interp] honba and the tsumo bonus halved with the value
    suzaku_halves_deposits: bool = False  # [interp] deposits are received in full
    suzaku_halves_chombo: bool = False  # [interp] a suzaku's chombo payments are not halved
    #: [interp] with the §A8 doubling, the suzaku receives half of the doubled amount
    #: (False: the halved amount is doubled)
    suzaku_halves_after_aka5man: bool = True
    #: ¶2.7 (i)/(ii): a declared byakko's win of this many han or more counts one limit
    #: higher; below it, the byakko makes a mangan payment after being paid
    byakko_upgrade_min_han: int = 6
    #: [interp] the seiryuu's "kan dora / kan ura" are the next, not yet revealed kan-dora
    #: indicator and its ura (``extra_dora``); False: the role adds no kan indicators
    seiryuu_next_kan_indicators: bool = True
    #: [interp] a win on the kanpa tile that ¶10 forbids is a false win paid as chombo
    #: (False: it is refused without payments)
    kanpa_false_win_chombo: bool = True
    #: [interp] a wait on the kanpa tile still counts for tenpai at an exhaustive draw
    kanpa_wait_counts_for_tenpai: bool = True

    def max_red(self, suit: str) -> int:
        """How many red fives of a suit the set holds (4 of 5p/5s under aka_5man, §A2)."""
        if self.aka_5man and suit in "ps":
            return 4
        return dict(self.red_fives).get(suit, 0)

    @property
    def all_fives_red(self) -> bool:
        """Under the aka-5-man option every 5p and 5s is red (§A2, "全赤")."""
        return self.aka_5man

    @property
    def aka5man_tiles(self) -> int:
        """Number of aka-5-man tiles in the set (§A1): one under the option, else none."""
        return 1 if self.aka_5man else 0

    def min_han(self, honba: int) -> int:
        """§18, §18.4: 2 han from yaku, 3 with five or more honba."""
        return self.min_yaku_han_many_honba if honba >= self.many_honba else self.min_yaku_han

    def yaku_han(self, yaku_id: str, closed: bool) -> int | None:
        """The table's han for a yaku, closed or open; None when not available."""
        spec = self.yaku_index.get(yaku_id)
        if spec is None:
            return None
        return self.spec_han(spec, closed)

    def spec_han(self, spec: YakuSpec, closed: bool) -> int | None:
        """A table row's han, closed or open, with the options that set a yaku's han
        (``honroutou_han``, ``renhou_han``, ``kui_pinfu_han``); None when not available."""
        han = spec.closed if closed else spec.open
        if spec.id == "kui_pinfu":  # the option gives its han; the table has none
            return None if closed or not self.kui_pinfu_han else self.kui_pinfu_han
        if han is None:
            return None
        if spec.id == "honroutou" and self.honroutou_han:
            return self.honroutou_han
        if spec.id == "renhou" and self.renhou_han:
            return self.renhou_han
        return han

    @property
    def yaku_index(self) -> dict[str, YakuSpec]:
        return _yaku_index(self.yaku)

    def _values(self) -> tuple[object, ...]:
        """The fields' values in order (:data:`RULE_FIELDS`), as a dataclass compares them."""
        return tuple([getattr(self, name) for name in RULE_FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not Rules or not isinstance(other, Rules):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in RULE_FIELDS])
        return f"Rules({shown})"


#: the names of :class:`Rules`' fields, in order
RULE_FIELDS: Final = tuple([f.name for f in fields(Rules)])


_INDEX_CACHE: Final[dict[int, tuple[tuple[YakuSpec, ...], dict[str, YakuSpec]]]] = {}


def _yaku_index(table: tuple[YakuSpec, ...]) -> dict[str, YakuSpec]:
    """id → spec, cached by the table's identity (hashing the table each call is slow)."""
    entry = _INDEX_CACHE.get(id(table))
    if entry is not None and entry[0] is table:
        return entry[1]
    index = {spec.id: spec for spec in table}
    if len(_INDEX_CACHE) > 256:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[id(table)] = (table, index)
    return index


SANMA_13: Final = Rules()

# ---- riichi-4p: standard four-player riichi as the `mahjong` library (2.1.0) computes it ------
# with OptionalRules(has_open_tanyao=True, has_aka_dora=True): 1 han from any yaku, chi, all
# 136 tiles with one red five per suit, 13-han yakuman (kazoe capped at one yakuman), double
# yakuman hands, yakuman exclusive (no dora on a yakuman), payments rounded to 100, honba 300.
# Checked hand by hand against the library by tests/test_differential.py.

RIICHI_4P_YAKU: Final[tuple[YakuSpec, ...]] = (
    YakuSpec("menzen_tsumo", "門前清自摸和", 1, None),
    YakuSpec("riichi", "立直", 1, None),
    YakuSpec("double_riichi", "ダブル立直", 2, None),
    YakuSpec("open_riichi", "オープン立直", 2, None),
    YakuSpec("ippatsu", "一発", 1, None),
    YakuSpec("rinshan", "嶺上開花", 1, 1),
    YakuSpec("haitei", "海底摸月", 1, 1),
    YakuSpec("houtei", "河底撈魚", 1, 1),
    YakuSpec("chankan", "槍槓", 1, 1),
    YakuSpec("renhou", "人和", 5, None),
    YakuSpec("yakuhai", "役牌", 1, 1),
    YakuSpec("pinfu", "平和", 1, None),
    YakuSpec("tanyao", "断么九", 1, 1),
    YakuSpec("iipeikou", "一盃口", 1, None),
    YakuSpec("sanshoku_doujun", "三色同順", 2, 1),
    YakuSpec("ittsu", "一気通貫", 2, 1),
    YakuSpec("chanta", "混全帯么九", 2, 1),
    YakuSpec("chiitoitsu", "七対子", 2, None),
    YakuSpec("toitoi", "対々和", 2, 2),
    YakuSpec("sanankou", "三暗刻", 2, 2),
    YakuSpec("sankantsu", "三槓子", 2, 2),
    YakuSpec("sanshoku_doukou", "三色同刻", 2, 2),
    YakuSpec("honroutou", "混老頭", 2, 2),
    YakuSpec("shousangen", "小三元", 2, 2),
    YakuSpec("honitsu", "混一色", 3, 2),
    YakuSpec("junchan", "純全帯么九", 3, 2),
    YakuSpec("ryanpeikou", "二盃口", 3, None),
    YakuSpec("chinitsu", "清一色", 6, 5),
    YakuSpec("tenhou", "天和", 13, None),
    YakuSpec("chihou", "地和", 13, None),
    YakuSpec("kokushi", "國士無双", 13, None),
    YakuSpec("suuankou", "四暗刻", 13, None),
    YakuSpec("daisangen", "大三元", 13, 13),
    YakuSpec("tsuuiisou", "字一色", 13, 13),
    YakuSpec("shousuushii", "小四喜", 13, 13),
    YakuSpec("ryuuiisou", "緑一色", 13, 13),
    YakuSpec("chinroutou", "清老頭", 13, 13),
    YakuSpec("suukantsu", "四槓子", 13, 13),
    YakuSpec("chuuren", "九蓮宝燈", 13, None),
    YakuSpec("daisuushii", "大四喜", 26, 26),
    YakuSpec("suuankou_tanki", "四暗刻単騎", 26, None),
    YakuSpec("kokushi_13", "國士無双十三面待ち", 26, None),
    YakuSpec("chuuren_9", "純正九蓮宝燈", 26, None),
)

RIICHI_4P_STRONGER: Final[tuple[tuple[str, str], ...]] = (
    ("iipeikou", "ryanpeikou"),
    ("chanta", "junchan"),
    ("honitsu", "chinitsu"),
    ("sanankou", "suuankou"),
    ("sanankou", "suuankou_tanki"),
    ("suuankou", "suuankou_tanki"),
    ("sankantsu", "suukantsu"),
    ("shousuushii", "daisuushii"),
    ("kokushi", "kokushi_13"),
    ("chuuren", "chuuren_9"),
    ("riichi", "double_riichi"),
    ("riichi", "open_riichi"),
    ("double_riichi", "open_riichi"),
)

RIICHI_4P: Final = Rules(
    preset="riichi-4p",
    tile_kinds=ALL_KINDS,
    red_fives=(("m", 1), ("p", 1), ("s", 1)),
    chi_allowed=True,
    kita_enabled=False,
    seats=("E", "S", "W", "N"),
    rounds=("E", "S", "W", "N"),
    min_yaku_han=1,
    min_yaku_han_many_honba=1,
    guarantee=False,
    yakuman_han=13,
    yakuman_step_han=13,
    kazoe_max_multiple=1,
    rounding_unit=100,
    tsumo_bonus_per_payer=0,
    honba_ron=300,
    honba_tsumo_each=100,
    chombo_child_each=2000,
    chombo_child_to_dealer=4000,
    chombo_dealer_each=4000,
    yaku=RIICHI_4P_YAKU,
    stronger=RIICHI_4P_STRONGER,
    composites=(),
    yakuman_exclusive=True,
    dora_with_yakuman=False,
    open_double_riichi_han=3,
    open_riichi_vs_non_riichi_han=0,  # 0 = off: no sashikomi yakuman (library default)
    first_turn_after_ankan=False,  # tenhou/chihou/renhou need a hand with no meld at all
    tie_break_by_raw_fu=True,
    last_tile_and_kan_win_together=False,
)

# ---- ecip: the ECIP four-player rules (seeds/004, docs/rules/ecip.md) ------------------------
# 1 han guaranteed for every wait (役の確定), 2 from 5 honba; tenpane capped at mangan (no
# haneman and above: 5 han or base 2,000 is mangan, and that is the top below yakuman);
# 20 fu 1 han paid as 30 fu; no pinfu on a tsumo; honba 300; no red fives; chombo a mangan to
# each [interp]; its yaku table (double yakuman: daisuushii, junsei chuuren, kokushi 13-sided,
# suuankou tanki).

ECIP_YAKU: Final[tuple[YakuSpec, ...]] = (
    # 一飜役
    YakuSpec("ippatsu", "一発", 1, None),
    YakuSpec("riichi", "立直", 1, None),
    YakuSpec("pinfu", "平和", 1, None),
    YakuSpec("iipeikou", "一盃口", 1, None),
    YakuSpec("menzen_tsumo", "門前清自模", 1, None),
    YakuSpec("tanyao", "断公九", 1, 1),
    YakuSpec("yakuhai", "風牌・三元牌 (連風牌 2)", 1, 1),
    YakuSpec("rinshan", "嶺上開花", 1, 1),
    YakuSpec("chankan", "槍槓", 1, 1),
    YakuSpec("haitei", "海底撈月", 1, 1),
    YakuSpec("houtei", "河底撈魚", 1, 1),
    # 二飜役
    YakuSpec("double_riichi", "ダブル立直", 2, None),
    YakuSpec("chiitoitsu", "七対子", 2, None),
    YakuSpec("sanshoku_doujun", "三色同順", 2, 1),
    YakuSpec("chanta", "全帯公九", 2, 1),
    YakuSpec("ittsu", "一気通貫", 2, 1),
    YakuSpec("toitoi", "対々和", 2, 2),
    YakuSpec("sanshoku_doukou", "三色同刻", 2, 2),
    YakuSpec("sankantsu", "三槓子", 2, 2),
    YakuSpec("sanankou", "三暗刻", 2, 2),
    YakuSpec("shousangen", "小三元", 2, 2),
    YakuSpec("honroutou", "混老頭", 2, 2),
    # 三飜役, 六飜役
    YakuSpec("ryanpeikou", "二盃口", 3, None),
    YakuSpec("junchan", "純全帯公九", 3, 2),
    YakuSpec("honitsu", "混一色", 3, 2),
    YakuSpec("chinitsu", "清一色", 6, 5),
    # 役満. ECIP names a child's first-draw tsumo 人和 and a ron on the dealer's first discard
    # 地和: the ids keep the hand JSON's flags (chihou: first-draw tsumo, renhou: that ron).
    YakuSpec("tenhou", "天和", 13, None),
    YakuSpec("chihou", "人和", 13, None),
    YakuSpec("renhou", "地和", 13, None),
    YakuSpec("kokushi", "国士無双", 13, None),
    YakuSpec("chuuren", "九連宝塔", 13, None),
    YakuSpec("shiisan_puutaa", "十三不塔", 13, None),
    YakuSpec("suuankou", "四暗刻", 13, None),
    YakuSpec("tsuuiisou", "字一色", 13, 13),
    YakuSpec("ryuuiisou", "緑一色", 13, 13),
    YakuSpec("chinroutou", "清老頭", 13, 13),
    YakuSpec("daisangen", "大三元", 13, 13),
    YakuSpec("shousuushii", "小四喜", 13, 13),
    YakuSpec("suukantsu", "四槓子", 13, 13),
    # ダブル換算
    YakuSpec("daisuushii", "大四喜", 26, 26),
    YakuSpec("chuuren_9", "純正九連宝塔", 26, None),
    YakuSpec("kokushi_13", "国士無双十三面聴", 26, None),
    YakuSpec("suuankou_tanki", "四暗刻単騎", 26, None),
)

ECIP: Final = Rules(
    preset="ecip",
    tile_kinds=ALL_KINDS,
    red_fives=(),
    chi_allowed=True,
    kita_enabled=False,
    seats=("E", "S", "W", "N"),
    rounds=("E", "S", "W", "N"),
    min_yaku_han=1,
    min_yaku_han_many_honba=2,
    many_honba=5,
    guarantee=True,
    non_riichi_tsumo_exception=False,
    limits=(LimitStep(5, 2000, "mangan"),),
    named_limits=(LimitStep(0, 4000, "baiman"),),  # センター長 (倍満相当役)
    yakuman_han=13,
    yakuman_step_han=13,
    kazoe_yakuman=False,
    rounding_unit=100,
    tsumo_bonus_per_payer=0,
    honba_ron=300,
    honba_tsumo_each=100,
    chombo_child_each=8000,
    chombo_child_to_dealer=8000,
    chombo_dealer_each=12000,
    open_pinfu_fu=20,
    pinfu_on_tsumo=False,
    one_han_min_fu=30,
    yaku=ECIP_YAKU,
    stronger=RIICHI_4P_STRONGER,
    composites=(),
    yakuman_exclusive=True,
    dora_with_yakuman=False,
    open_riichi_vs_non_riichi_han=0,
    first_turn_after_ankan=False,
    tie_break_by_raw_fu=True,
    last_tile_and_kan_win_together=False,
    shiisan_puutaa_with_tenhou=False,
    kan_dora_on_chankan=False,
    kan_dora_on_kan_discard=False,
    open_kan_dora_turned_late=True,
)

#: ECIP at a three-player table [interp]: the sanma tile set (no 2m–8m), three seats, and
#: every north an ordinary dora (北は常時ドラ, not extracted); everything else as ``ecip``
ECIP_3P: Final = replace(
    ECIP,
    preset="ecip-3p",
    tile_kinds=SANMA_KINDS,
    seats=("E", "S", "W"),
    north_dora=1,
)

# ---- standard: the standard proposal (seeds/003, docs/rules/standard.md) ---------------------
# always 1 han, open tanyao, 136 tiles without red fives, haneman … sanbaiman, every yakuman
# single (四倍満) and never more than one, kazoe stops at sanbaiman, payments rounded to 100,
# no fu for a rinshan tsumo, a double wind pair 2 fu [interp], 人和 4 han, kan dora at once
# (not on a chankan), no one robs an ankan.

STANDARD_YAKU: Final[tuple[YakuSpec, ...]] = (
    YakuSpec("menzen_tsumo", "門前清摸和", 1, None),
    YakuSpec("riichi", "立直", 1, None),
    YakuSpec("yakuhai", "飜牌", 1, 1),
    YakuSpec("pinfu", "平和", 1, None),
    YakuSpec("kui_pinfu", "喰い平和", None, None),  # only with the option kui_pinfu_han
    YakuSpec("tanyao", "断么九", 1, 1),
    YakuSpec("iipeikou", "一盃口", 1, None),
    YakuSpec("rinshan", "嶺上開花", 1, 1),
    YakuSpec("chankan", "搶槓", 1, 1),
    YakuSpec("haitei", "海底摸月", 1, 1),
    YakuSpec("houtei", "河底撈魚", 1, 1),
    YakuSpec("ippatsu", "一発", 1, None),
    YakuSpec("double_riichi", "ダブル立直", 2, None),
    YakuSpec("chanta", "混全帯么", 2, 1),
    YakuSpec("sanshoku_doujun", "三色同順", 2, 1),
    YakuSpec("ittsu", "一気通貫", 2, 1),
    YakuSpec("sanshoku_doukou", "三色同刻", 2, 2),
    YakuSpec("sanankou", "三暗刻", 2, 2),
    YakuSpec("sankantsu", "三槓子", 2, 2),
    YakuSpec("shousangen", "小三元", 2, 2),
    YakuSpec("toitoi", "対々和", 2, 2),
    YakuSpec("chiitoitsu", "七対子", 2, None),
    YakuSpec("honroutou", "混老頭", 2, 2),
    YakuSpec("ryanpeikou", "二盃口", 3, None),
    YakuSpec("honitsu", "混一色", 3, 2),
    YakuSpec("junchan", "純全帯么", 3, 2),
    YakuSpec("renhou", "人和", 4, None),
    YakuSpec("chinitsu", "清一色", 6, 5),
    YakuSpec("tenhou", "天和", 13, None),
    YakuSpec("chihou", "地和", 13, None),
    YakuSpec("suuankou", "四暗刻", 13, None),
    YakuSpec("daisangen", "大三元", 13, 13),
    YakuSpec("kokushi", "国士無双", 13, None),
    YakuSpec("ryuuiisou", "緑一色", 13, 13),
    YakuSpec("shousuushii", "小四喜", 13, 13),
    YakuSpec("tsuuiisou", "字一色", 13, 13),
    YakuSpec("chinroutou", "清老頭", 13, 13),
    YakuSpec("daisuushii", "大四喜", 13, 13),
    YakuSpec("chuuren", "九連宝灯", 13, None),
    YakuSpec("suukantsu", "四槓子", 13, 13),
)

STANDARD_STRONGER: Final[tuple[tuple[str, str], ...]] = (
    ("iipeikou", "ryanpeikou"),
    ("chanta", "junchan"),
    ("honitsu", "chinitsu"),
    ("sanankou", "suuankou"),
    ("sankantsu", "suukantsu"),
    ("shousuushii", "daisuushii"),
    ("riichi", "double_riichi"),
)

STANDARD: Final = Rules(
    preset="standard",
    tile_kinds=ALL_KINDS,
    red_fives=(),
    chi_allowed=True,
    kita_enabled=False,
    seats=("E", "S", "W", "N"),
    rounds=("E", "S", "W", "N"),
    min_yaku_han=1,
    min_yaku_han_many_honba=1,
    guarantee=True,
    guarantee_closed_hands=False,
    non_riichi_tsumo_exception=False,
    yakuman_han=13,
    yakuman_step_han=13,
    kazoe_yakuman=False,
    double_yakuman=False,
    yakuman_max_multiple=1,
    rounding_unit=100,
    tsumo_bonus_per_payer=0,
    honba_ron=300,
    honba_tsumo_each=100,
    chombo_child_each=2000,
    chombo_child_to_dealer=4000,
    chombo_dealer_each=4000,
    double_wind_pair_fu=2,
    rinshan_tsumo_fu=False,
    yaku=STANDARD_YAKU,
    stronger=STANDARD_STRONGER,
    composites=(),
    yakuman_exclusive=True,
    dora_with_yakuman=False,
    open_riichi_vs_non_riichi_han=0,
    first_turn_after_ankan=False,
    tie_break_by_raw_fu=True,
    last_tile_and_kan_win_together=False,
    used_up_waits_count=True,
    kan_dora_on_chankan=False,
    ankan_robbable=False,
)

PRESETS: Final[dict[str, Rules]] = {
    "sanma-1.3": SANMA_13,
    "riichi-4p": RIICHI_4P,
    "ecip": ECIP,
    "ecip-3p": ECIP_3P,
    "standard": STANDARD,
}

# Options a hand JSON may override (plain bool/int fields); structural fields are preset-only.
_STRUCTURAL: Final = {
    "preset",
    "tile_kinds",
    "red_fives",
    "seats",
    "rounds",
    "limits",
    "named_limits",
    "yaku",
    "stronger",
    "composites",
}
OPTION_TYPES: Final[dict[str, type]] = {
    f.name: (bool if f.type in ("bool", bool) else int)
    for f in fields(Rules)
    if f.name not in _STRUCTURAL
}

_POSITIVE: Final = {
    "rounding_unit",
    "yakuman_han",
    "mangan_base",
    "yakuman_base",
    "suzaku_payment_divisor",
}

#: options that give a yaku its han: the preset's table must have the yaku's row
_YAKU_OF_OPTION: Final = {
    "honroutou_han": "honroutou",
    "renhou_han": "renhou",
    "kui_pinfu_han": "kui_pinfu",
}

#: how many option sets :func:`rules_from_json` keeps: a server meets arbitrary ones, and a
#: bounded cache must still serve the sets in use (least recently used evicted first)
RULES_CACHE_SIZE: Final = 256
_RULES_CACHE: Final[OrderedDict[tuple[tuple[str, str, Any], ...], Rules]] = OrderedDict()


def clear_rules_cache() -> None:
    """Forget every cached option set (tests that need a rule set built afresh)."""
    _RULES_CACHE.clear()


def cached_rule_sets() -> int:
    """How many option sets are cached now (at most :data:`RULES_CACHE_SIZE`)."""
    return len(_RULES_CACHE)


def rules_from_json(obj: Any) -> Rules:
    """Rules from the hand JSON's ``rules`` field: ``{"preset": ..., <option>: value}``.

    Absent → sanma-1.3. Unknown presets/options and wrongly typed values are InputError.

    >>> rules_from_json({"aka_5man": True}).max_red("p")
    4
    """
    if obj is None:
        return SANMA_13
    if not isinstance(obj, dict):
        raise InputError("bad_rules", 'rules must be an object like {"preset": "sanma-1.3"}')
    key = tuple(sorted(((str(k), type(v).__name__, v) for k, v in obj.items()), key=str))
    try:
        cached = _RULES_CACHE.get(key)
    except TypeError:  # unhashable values: validated below
        cached = None
    if cached is not None:
        _RULES_CACHE.move_to_end(key)  # the most recently used
        return cached
    preset = obj.get("preset", "sanma-1.3")
    if not isinstance(preset, str):  # a list or object is unhashable: no dict lookup
        raise InputError("bad_rules", 'rules.preset must be a string like "sanma-1.3"')
    if preset not in PRESETS:
        raise InputError(
            "unknown_preset", f"unknown rules preset {preset!r}; known: {sorted(PRESETS)}"
        )
    overrides: dict[str, Any] = {}
    for name, value in obj.items():
        if name == "preset":
            continue
        want = OPTION_TYPES.get(name)
        if want is None:
            raise InputError("unknown_rule_option", f"unknown rule option {name!r}")
        if want is bool and not isinstance(value, bool):
            raise InputError("bad_rule_option", f"rule option {name!r} must be true or false")
        if want is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise InputError(
                "bad_rule_option", f"rule option {name!r} must be a non-negative integer"
            )
        if name in _POSITIVE and value < 1:
            raise InputError("bad_rule_option", f"rule option {name!r} must be at least 1")
        yaku_id = _YAKU_OF_OPTION.get(name)
        if yaku_id is not None and value and yaku_id not in PRESETS[preset].yaku_index:
            raise InputError(
                "bad_rule_option",
                f"rule option {name!r} needs a preset whose yaku table has {yaku_id} "
                f"(preset {preset!r} has none)",
            )
        overrides[name] = value
    rules = replace(PRESETS[preset], **overrides)
    _RULES_CACHE[key] = rules
    if len(_RULES_CACHE) > RULES_CACHE_SIZE:
        _RULES_CACHE.popitem(last=False)  # the least recently used
    return rules
