"""Reading the hand JSON (docs/api.md) into checked values; bad input is InputError.

Checks (docs/rules.md Tiles): only kinds of the rule set (no 2m–8m in sanma), no fifth tile of a
kind over hand + win + melds + kita + dora/ura indicators (a red five is a five, an aka-5-man
is a north), no more red fives than the set holds, the aka-5-man only under ``aka_5man``,
13 tiles counting each meld as 3, known fields of the right types, consistent situation flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.rules import Rules, rules_from_json
from sanma_lens.engine.tiles import FIVE_M, NORTH, SUIT, SUIT_LETTERS, WIND_LETTERS, name

RIICHI_KINDS: Final = ("none", "riichi", "double", "open", "double_open")
MELD_KINDS: Final = {"pon": 3, "chi": 3, "minkan": 4, "kakan": 4, "ankan": 4}
RON_ON: Final = (None, "kita", "ankan")
LAST_KAN: Final = (None, "ankan", "minkan", "kakan")

_BOOL_FIELDS: Final = (
    "tsumo",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "kanburi",
    "chankan",
    "tenhou",
    "chihou",
    "renhou",
    "first_draw",
    "discarder_riichi",
)
_INT_FIELDS: Final = ("kita", "kita_aka", "honba", "deposits")
_OTHER_FIELDS: Final = (
    "hand",
    "win",
    "melds",
    "dora",
    "ura",
    "seat",
    "round",
    "riichi",
    "aka5man_as",
    "rules",
    "discards",
    "ron_on",
    "last_kan",
)
KNOWN_FIELDS: Final = frozenset(_BOOL_FIELDS + _INT_FIELDS + _OTHER_FIELDS)
#: ability mahjong's fields (docs/rules/ability.md; read by ``engine.roles.read_role``): known,
#: but read only when a hand has one of them
ROLE_FIELDS: Final = frozenset(
    ("role", "byakko_declared", "kanpa", "discarder_genbu", "extra_dora", "kanpa_discards")
)
# the fields a photo gives (its corrected tiles): what lies on the table, not how the hand won
PHOTO_TILE_FIELDS: Final = ("hand", "win", "melds", "kita", "kita_aka", "dora")


class Tile(NamedTuple):
    """One physical tile: its kind index, whether it is a red five, whether it is the aka-5-man.

    The aka-5-man's ``kind`` is NORTH (§A4: in a hand it is a north). An immutable NamedTuple
    (parsing makes one per tile, so construction cost matters).
    """

    kind: int
    red: bool = False
    aka5man: bool = False

    def text(self) -> str:
        if self.aka5man:
            return "0m"
        if self.red:
            return "0" + name(self.kind)[1]
        return name(self.kind)


@dataclass(frozen=True)
class Meld:
    """A declared meld (no chi in sanma, §19). ``tile`` is the kind (the lowest for a chi)."""

    kind: str
    tile: int
    tiles: tuple[Tile, ...]

    @property
    def is_open(self) -> bool:
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.kind in ("minkan", "kakan", "ankan")

    @property
    def is_run(self) -> bool:
        return self.kind == "chi"


class Situation(NamedTuple):
    """Everything about the win that is not the tiles (docs/api.md Hand JSON).

    An immutable NamedTuple: the yaku evaluator keys its cache of situational yaku on it, and
    tuple hashing and equality are cheap.
    """

    tsumo: bool = False
    seat: int = WIND_LETTERS["S"]
    round: int = WIND_LETTERS["E"]
    riichi: str = "none"
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    kanburi: bool = False
    chankan: bool = False
    tenhou: bool = False
    chihou: bool = False
    renhou: bool = False
    first_draw: bool = False
    discarder_riichi: bool = False
    honba: int = 0
    deposits: int = 0
    ron_on: str | None = None

    @property
    def is_dealer(self) -> bool:
        return self.seat == WIND_LETTERS["E"]

    def as_tsumo(self, tsumo: bool) -> Situation:
        """The same moment, won by tsumo or by ron (for tenpai's per-wait values).

        Flags that belong to the other way of winning are cleared.
        """
        if tsumo == self.tsumo:
            return self
        # positional through tuple.__new__ (field order): the NamedTuple's keyword __new__
        # costs several times more, and tenpai builds one per hand
        return tuple.__new__(
            Situation,
            (
                tsumo,
                self.seat,
                self.round,
                self.riichi,
                self.ippatsu,
                self.haitei and tsumo,
                self.houtei and not tsumo,
                self.rinshan and tsumo,
                self.kanburi and not tsumo,
                self.chankan and not tsumo,
                self.tenhou and tsumo,
                self.chihou and tsumo,
                self.renhou and not tsumo,
                self.first_draw and tsumo,
                self.discarder_riichi,
                self.honba,
                self.deposits,
                self.ron_on if not tsumo else None,
            ),
        )


# _parse_situation builds a Situation positionally from _BOOL_FIELDS: keep the orders in step
# (checked at import, also under python -O, so a reordered field can never score silently)
if Situation._fields != (
    "tsumo", "seat", "round", "riichi", *_BOOL_FIELDS[1:], "honba", "deposits", "ron_on"
):  # fmt: skip
    raise RuntimeError("engine.parse: Situation's fields and _BOOL_FIELDS are out of order")


@dataclass(frozen=True, slots=True)
class HandInput:
    """The tiles of a hand JSON, checked. Counts are 34-arrays of shape kinds.

    Slotted: the engine reads its fields many times a hand (slot loads are cheap), and
    :func:`parse_hand` fills the slots directly (:func:`_new_hand`).
    """

    concealed: tuple[int, ...]  # the concealed part without the winning tile
    concealed_tiles: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win: Tile | None  # the physical winning tile
    win_kind: int | None  # its shape kind (5p/5s when an aka-5-man is taken as that five)
    kita: int
    kita_aka: int
    dora: tuple[Tile, ...]
    ura: tuple[Tile, ...]
    discards: tuple[int, ...]
    aka5man_as: str | None

    @property
    def is_closed(self) -> bool:
        """Closed = no pon, chi or open kan; ankan and kita keep a hand closed (docs/rules.md)."""
        return not any(m.is_open for m in self.melds)


@dataclass(frozen=True, slots=True)
class Parsed:
    """A checked hand JSON: the tiles, the situation and the rule set; ``role`` the winner's
    role in ability mahjong (``engine.roles.RoleHand``), None without one."""

    hand: HandInput
    situation: Situation
    rules: Rules
    role: Any = None


# A frozen dataclass's __init__ sets each field through object.__setattr__ (about 1.6k
# machine instructions a field: an eighth of reading a hand JSON); the slots' own setters
# do the same work at about half the cost. Used only by parse_hand, on checked values.
_HAND_SLOTS: Final = tuple(getattr(HandInput, f).__set__ for f in HandInput.__dataclass_fields__)
if tuple(HandInput.__dataclass_fields__) != (
    "concealed", "concealed_tiles", "melds", "win", "win_kind", "kita", "kita_aka", "dora",
    "ura", "discards", "aka5man_as",
):  # fmt: skip  (checked at import: _new_hand fills them in this order)
    raise RuntimeError("engine.parse: HandInput's fields and _new_hand are out of order")


def _new_hand(
    concealed: tuple[int, ...],
    concealed_tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    win: Tile | None,
    win_kind: int | None,
    kita: int,
    kita_aka: int,
    dora: tuple[Tile, ...],
    ura: tuple[Tile, ...],
    discards: tuple[int, ...],
    aka5man_as: str | None,
) -> HandInput:
    """``HandInput(...)`` (the same value, still frozen) with its slots filled directly."""
    # compiled, HandInput is a native class: its dataclass __init__ still runs as Python
    # (about 16k machine instructions), its __new__ and slot setters are C
    hand = HandInput.__new__(HandInput)
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 = _HAND_SLOTS
    s0(hand, concealed)
    s1(hand, concealed_tiles)
    s2(hand, melds)
    s3(hand, win)
    s4(hand, win_kind)
    s5(hand, kita)
    s6(hand, kita_aka)
    s7(hand, dora)
    s8(hand, ura)
    s9(hand, discards)
    s10(hand, aka5man_as)
    return hand


_PARSED_SLOTS: Final = tuple(
    getattr(Parsed, f).__set__ for f in ("hand", "situation", "rules", "role")
)


def _new_parsed(hand: HandInput, sit: Situation, rules: Rules, role: Any) -> Parsed:
    """``Parsed(hand, sit, rules, role)`` with its fields filled directly (as
    :func:`_new_hand`)."""
    parsed = Parsed.__new__(Parsed)
    s0, s1, s2, s3 = _PARSED_SLOTS
    s0(parsed, hand)
    s1(parsed, sit)
    s2(parsed, rules)
    s3(parsed, role)
    return parsed


def parse_tiles(text: Any, rules: Rules, where: str) -> list[Tile]:
    """MPSZ string → tiles. ``0p``/``0s`` red fives, ``0m`` the aka-5-man (a north).

    >>> from sanma_lens.engine.rules import rules_from_json
    >>> [t.text() for t in parse_tiles("120p0m", rules_from_json({"aka_5man": True}), "hand")]
    ['1p', '2p', '0p', '0m']
    """
    return list(tiles_of(text, rules, where))


def tiles_of(text: Any, rules: Rules, where: str) -> tuple[Tile, ...]:
    """:func:`parse_tiles` as a tuple; short strings are kept per rule set by the text
    (bounded): the win, dora and meld strings of one hand recur in the next. Errors are
    never kept."""
    if not isinstance(text, str):
        raise InputError("bad_type", f'{where} must be a string of tiles like "123p55z"')
    _, by_suit, by_text = _tables_of(rules)
    found = by_text.get(text)
    if found is None:
        found = _read_tiles(text, rules, where, by_suit)
        if len(text) <= _TEXT_KEPT:
            if len(by_text) >= _TEXTS_MAX:
                by_text.clear()
            by_text[text] = found
    return found


def _read_tiles(
    text: str, rules: Rules, where: str, by_suit: dict[str, dict[str, Tile]]
) -> tuple[Tile, ...]:
    """The tiles of an MPSZ string met for the first time (or an InputError); ``by_suit``:
    the rule set's tiles by suit letter and digit, filled as they are first met."""
    tiles: list[Tile] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        # decimal digits only (full-width ２ too): isdigit() also passes ² and ①, which
        # int() cannot read (a ValueError, i.e. a 500, instead of bad_tiles)
        if ch in _ASCII_DIGITS or ch.isdecimal():  # (the first test is the cheaper)
            digits.append(ch)
        elif ch in SUIT_LETTERS:
            if not digits:
                raise InputError("bad_tiles", f"{where}: suit letter {ch!r} without digits")
            table = by_suit[ch]
            for d in digits:
                tile = table.get(d)
                if tile is None:  # first sight in this rule set, or an error (never cached)
                    tile = table[d] = _make_tile(d, ch, rules, where)
                tiles.append(tile)
            digits = []
        else:
            raise InputError("bad_tiles", f"{where}: unexpected character {ch!r} in {text!r}")
    if digits:
        raise InputError("bad_tiles", f"{where}: digits {''.join(digits)!r} without a suit letter")
    return tuple(tiles)


_ASCII_DIGITS: Final = "0123456789"
TileTables = tuple[Rules, dict[str, dict[str, Tile]], dict[str, tuple[Tile, ...]]]
#: per rule set (by id, the Rules kept to check the id): its valid tiles by suit letter and
#: digit, and the tiles of whole strings read before
_TILE_TABLES: Final[dict[int, TileTables]] = {}
_TEXTS_MAX: Final = 4096  # strings kept per rule set (a server meets arbitrary hands)
#: the longest string kept: a tile, a meld, a few indicators (they recur from hand to hand);
#: a whole hand rarely does, and keeping every one would leave garbage that outlives its
#: call (more, and costlier, full collections of the garbage collector under load)
_TEXT_KEPT: Final = 8


def _tables_of(rules: Rules) -> TileTables:
    """The rule set's tile tables (filled as tiles and strings are first parsed)."""
    entry = _TILE_TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_TILE_TABLES) > 512:  # many one-off rule sets: stay bounded
            _TILE_TABLES.clear()
        entry = (rules, {suit: {} for suit in SUIT_LETTERS}, {})
        _TILE_TABLES[id(rules)] = entry
    return entry


def _make_tile(digit: str, suit: str, rules: Rules, where: str) -> Tile:
    d = int(digit)
    if suit == "z":
        if not 1 <= d <= 7:
            raise InputError("unknown_tile", f"{where}: {digit}z is not a tile (1z–7z)")
        return Tile(26 + d)
    s = SUIT_LETTERS.index(suit)
    if d == 0:
        if suit == "m" and rules.aka_5man:
            return Tile(NORTH, aka5man=True)
        if rules.max_red(suit) == 0:
            if suit == "m" and FIVE_M not in rules.tile_kinds:
                raise InputError(
                    "invalid_tile",
                    f"{where}: 0m is the aka-5-man, which needs the rule option aka_5man",
                )
            raise InputError("invalid_tile", f"{where}: this rule set has no red 5{suit}")
        kind = s * 9 + 4
        if kind not in rules.tile_kinds:
            raise InputError("invalid_tile", f"{where}: 5{suit} is not used in this rule set")
        return Tile(kind, red=True)
    kind = s * 9 + d - 1
    if kind not in rules.tile_kinds:
        raise InputError(
            "invalid_tile", f"{where}: {digit}{suit} is not used in this rule set (no 2m–8m)"
        )
    return Tile(kind)


def parse_one_tile(text: Any, rules: Rules, where: str) -> Tile:
    tiles = tiles_of(text, rules, where)
    if len(tiles) != 1:
        raise InputError("bad_tiles", f"{where} must be exactly one tile, got {text!r}")
    return tiles[0]


def parse_meld(text: Any, rules: Rules, n: int) -> Meld:
    """``pon:777z``, ``minkan:XXXX``, ``kakan:XXXX``, ``ankan:XXXX`` (``chi:234m`` if allowed)."""
    where = f"melds[{n}]"
    if not isinstance(text, str) or ":" not in text:
        raise InputError("bad_meld", f'{where} must look like "pon:777z", got {text!r}')
    kind, _, body = text.partition(":")
    kind = kind.strip().lower()
    if kind not in MELD_KINDS:
        raise InputError(
            "bad_meld", f"{where}: unknown meld type {kind!r} (pon/minkan/kakan/ankan)"
        )
    if kind == "chi" and not rules.chi_allowed:
        raise InputError("chi_not_allowed", f"{where}: there is no chi in this rule set (§19)")
    tiles = tiles_of(body, rules, where)
    if len(tiles) != MELD_KINDS[kind]:
        raise InputError(
            "bad_meld", f"{where}: a {kind} has {MELD_KINDS[kind]} tiles, got {len(tiles)}"
        )
    kinds = sorted(t.kind for t in tiles)
    if kind == "chi":
        a = kinds[0]
        if a >= 27 or kinds != [a, a + 1, a + 2] or SUIT[a] != SUIT[a + 2]:
            raise InputError("bad_meld", f"{where}: a chi is three consecutive tiles of one suit")
    elif len(set(kinds)) != 1:
        raise InputError("bad_meld", f"{where}: a {kind} is {len(tiles)} tiles of one kind")
    return Meld(kind, kinds[0], tiles)


def _get_int(obj: dict[str, Any], key: str) -> int:
    v = obj.get(key, 0)
    if type(v) is int and v >= 0:  # the usual case first (a bool is not an int here)
        return v
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError("bad_type", f"{key} must be a non-negative integer")
    return v


def _get_tile_list(obj: dict[str, Any], key: str, rules: Rules) -> tuple[Tile, ...]:
    v = obj.get(key)
    if v is None:
        return ()
    if isinstance(v, str):
        return tiles_of(v, rules, key)
    if not isinstance(v, list):
        raise InputError("bad_type", f'{key} must be a list of tiles like ["3p"]')
    if len(v) == 1 and isinstance(v[0], str):  # the usual one indicator
        return tiles_of(v[0], rules, f"{key}[0]")
    out: list[Tile] = []
    for i, item in enumerate(v):
        out.extend(tiles_of(item, rules, f"{key}[{i}]"))
    return tuple(out)


def _wind(obj: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> int:
    v = obj.get(key, default)
    if v is None:
        v = default
    if v not in allowed:
        raise InputError("bad_value", f"{key} must be one of {list(allowed)}, got {v!r}")
    return WIND_LETTERS[v]


def parse_hand(obj: Any, *, need_win: bool) -> Parsed:
    """Hand JSON → checked :class:`Parsed`. ``need_win``: score (True) or tenpai (False)."""
    rules, role_fields = _object_rules(obj, "the hand")
    role: Any = None
    if role_fields:  # ability mahjong (engine.roles): the winner's role and its facts
        from sanma_lens.engine.roles import read_role

        role, rules = read_role(obj, rules)
    if "hand" not in obj:
        raise InputError("missing_field", "hand is required (the concealed tiles, MPSZ)")
    hand_tiles = tiles_of(obj["hand"], rules, "hand")
    win_raw = obj.get("win")
    win = None if win_raw is None else parse_one_tile(win_raw, rules, "win")
    if need_win and win is None:
        raise InputError("missing_field", "win is required to score a hand")
    if not need_win and win is not None:
        raise InputError("unexpected_win", "tenpai takes the hand without the winning tile")
    melds = _get_melds(obj, rules)
    dora = _get_tile_list(obj, "dora", rules)
    ura = _get_tile_list(obj, "ura", rules)
    discards_tiles = _get_tile_list(obj, "discards", rules)

    sit = _parse_situation(obj, rules)
    kita, kita_aka = _get_int(obj, "kita"), _get_int(obj, "kita_aka")
    aka5man_as = obj.get("aka5man_as")
    if aka5man_as not in (None, "5p", "5s"):
        raise InputError("bad_value", f'aka5man_as must be null, "5p" or "5s", got {aka5man_as!r}')

    _check_counts(hand_tiles, melds, need_win)
    indicators = dora + ura if role is None else dora + ura + role.extra_dora
    concealed = _check_physical(hand_tiles, win, melds, kita, kita_aka, indicators, rules)
    win_kind = None
    if win is not None:
        win_kind = win.kind
        if aka5man_as is not None:
            if not win.aka5man or sit.tsumo:
                raise InputError(
                    "inconsistent_situation",
                    'aka5man_as applies only to a ron on a discarded aka-5-man (win "0m")',
                )
            win_kind = 13 if aka5man_as == "5p" else 22
    elif aka5man_as is not None:
        raise InputError("inconsistent_situation", "aka5man_as needs a winning tile")
    _check_situation(sit, melds, win, ura, rules)
    if (sit.chankan and not rules.kan_dora_on_chankan) or (
        sit.kanburi and not rules.kan_dora_on_kan_discard
    ):
        dora, ura = counted_indicators(obj, sit, dora, ura, rules)
    elif "last_kan" in obj:
        _last_kan(obj)
    discards = tuple([t.kind for t in discards_tiles]) if discards_tiles else ()
    if role is not None:
        from sanma_lens.engine.roles import check_role_situation

        check_role_situation(role, sit, discards)
    hand = _new_hand(
        concealed, hand_tiles, melds, win, win_kind, kita, kita_aka, dora, ura, discards,
        aka5man_as,
    )  # fmt: skip
    return _new_parsed(hand, sit, rules, role)


def _get_melds(obj: dict[str, Any], rules: Rules) -> tuple[Meld, ...]:
    melds_raw = obj.get("melds")
    if melds_raw is None:
        return ()
    if not isinstance(melds_raw, list):  # ({} or "" were read as no melds)
        raise InputError("bad_type", 'melds must be a list like ["pon:777z"]')
    return tuple([parse_meld(m, rules, i) for i, m in enumerate(melds_raw)])


def check_tiles(obj: Any, rules_json: Any = None) -> None:
    """Tiles alone (a photo's corrected tiles: only the fields of :data:`PHOTO_TILE_FIELDS`), each
    read as :func:`parse_hand` reads it under the rules of ``rules_json`` (a situation's
    ``rules``): field names, tiles, melds, kita counts. What needs the whole hand and its
    situation (tile counts, fifth tiles, flags that fit the win) is left to :func:`parse_hand`."""
    if not isinstance(obj, dict):
        raise InputError("bad_type", "the tiles must be a JSON object")
    unknown = sorted(str(k) for k in obj if k not in PHOTO_TILE_FIELDS)
    if unknown:
        raise InputError(
            "unknown_field",
            f"unknown tile field(s): {', '.join(unknown)} (the tiles are "
            f"{', '.join(PHOTO_TILE_FIELDS)}; the rest of the hand JSON is the situation)",
        )
    rules = rules_from_json(rules_json)
    if obj.get("hand") is not None:
        tiles_of(obj["hand"], rules, "hand")
    if obj.get("win") is not None:
        parse_one_tile(obj["win"], rules, "win")
    _get_melds(obj, rules)
    _get_tile_list(obj, "dora", rules)
    _get_int(obj, "kita")
    _get_int(obj, "kita_aka")


def _object_rules(obj: Any, what: str) -> tuple[Rules, bool]:
    """The rules of a hand or situation JSON ``obj``, after checking it is an object of known
    fields (``what`` names it in the error), and whether it has ability mahjong's fields
    (:data:`ROLE_FIELDS`)."""
    if not isinstance(obj, dict):
        raise InputError("bad_type", f"{what} must be a JSON object")
    role_fields = False
    if not KNOWN_FIELDS.issuperset(obj):
        unknown = sorted(k for k in obj if k not in KNOWN_FIELDS and k not in ROLE_FIELDS)
        if unknown:
            raise InputError("unknown_field", f"unknown field(s): {', '.join(map(str, unknown))}")
        role_fields = True
    return rules_from_json(obj.get("rules")), role_fields


def check_situation(obj: Any) -> None:
    """The situation alone (the hand JSON's fields other than the tiles), checked as
    :func:`parse_hand` checks them, before any tiles are known: field names, rules, seat and
    round of the rule set, riichi, flag and count types, indicator and discard tiles,
    ``aka5man_as``, ``ron_on``. Tile fields in ``obj`` are not looked at. What needs the tiles
    (counts, fifth tiles, which flags fit the win) is left to :func:`parse_hand`."""
    rules, role_fields = _object_rules(obj, "the situation")
    for key in ("dora", "ura", "discards"):
        _get_tile_list(obj, key, rules)
    sit = _parse_situation(obj, rules)
    if role_fields:
        from sanma_lens.engine.roles import read_role

        role, _ = read_role(obj, rules)
        if role is not None and role.discarder_genbu and sit.tsumo:
            raise InputError(
                "inconsistent_situation", "discarder_genbu describes a ron; set tsumo false"
            )
    aka5man_as = obj.get("aka5man_as")
    if aka5man_as not in (None, "5p", "5s"):
        raise InputError("bad_value", f'aka5man_as must be null, "5p" or "5s", got {aka5man_as!r}')
    _last_kan(obj)


def _last_kan(obj: dict[str, Any]) -> str | None:
    """The hand JSON's ``last_kan``: the kind of the kan a chankan robs or a kanburi ron's
    discard follows (null when not said)."""
    last_kan = obj.get("last_kan")
    if last_kan not in LAST_KAN:
        raise InputError(
            "bad_value", f'last_kan must be null, "ankan", "minkan" or "kakan", got {last_kan!r}'
        )
    return last_kan


def counted_indicators(
    obj: dict[str, Any], sit: Situation, dora: tuple[Tile, ...], ura: tuple[Tile, ...], rules: Rules
) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """The dora and ura indicators that count (the newest kan's indicator is the last of
    ``dora``, its ura the last of ``ura`` when there are as many).

    On a chankan (``kan_dora_on_chankan`` off) or a ron of the discard right after a kan
    (``kanburi``, ``kan_dora_on_kan_discard`` off) that kan is not established, so its
    indicator does not count — if it is on the table: an ankan's is turned up at once, an
    open kan's only once established under ``open_kan_dora_turned_late`` (ECIP). ``last_kan``
    names that kan: on a chankan it defaults to kakan (ankan with ``ron_on: "ankan"``), on a
    kanburi to minkan."""
    kan = _last_kan(obj)
    if kan is None:
        kan = "ankan" if sit.ron_on == "ankan" else "kakan" if sit.chankan else "minkan"
    shown = kan == "ankan" or not rules.open_kan_dora_turned_late
    if not shown or len(dora) < 2:
        return dora, ura
    return dora[:-1], ura[:-1] if len(ura) == len(dora) else ura


def _parse_situation(obj: dict[str, Any], rules: Rules) -> Situation:
    riichi = obj.get("riichi", "none")
    if riichi is None:
        riichi = "none"
    if riichi not in RIICHI_KINDS:
        raise InputError("bad_value", f"riichi must be one of {list(RIICHI_KINDS)}, got {riichi!r}")
    ron_on = obj.get("ron_on")
    if ron_on not in RON_ON:
        raise InputError("bad_value", f'ron_on must be null, "kita" or "ankan", got {ron_on!r}')
    # the flags, checked first as they always were: only those present are read (a hand
    # names few), and a null or a value of another type goes the way of one check per field
    flags = list(_NO_FLAGS)
    for key in _FLAG_INDEX.keys() & obj.keys():
        v = obj[key]
        if v is True:
            flags[_FLAG_INDEX[key]] = True
        elif v is not False:
            flags = _checked_flags(obj)
            break
    seat = _wind(obj, "seat", "S", rules.seats)
    round_wind = _wind(obj, "round", "E", rules.rounds)
    honba, deposits = _get_int(obj, "honba"), _get_int(obj, "deposits")
    # positional in field order (tuple.__new__): the keyword __new__ costs several times more
    return tuple.__new__(
        Situation,
        (
            flags[0],  # tsumo
            seat,
            round_wind,
            riichi,
            *flags[1:],  # ippatsu … discarder_riichi
            honba,
            deposits,
            ron_on,
        ),
    )


_NO_FLAGS: Final = (False,) * len(_BOOL_FIELDS)
_FLAG_INDEX: Final = {key: i for i, key in enumerate(_BOOL_FIELDS)}


def _checked_flags(obj: dict[str, Any]) -> list[bool]:
    """The flags one field at a time: a null is false, another non-boolean an error."""
    flags = []
    get = obj.get
    for key in _BOOL_FIELDS:
        v = get(key, False)
        if v is None:
            v = False
        elif v is not True and v is not False:
            raise InputError("bad_type", f"{key} must be true or false")
        flags.append(v)
    return flags


def _check_counts(hand: tuple[Tile, ...], melds: tuple[Meld, ...], need_win: bool) -> None:
    """13 tiles before the win, each meld counting 3 (a kan's fourth tile is its replacement)."""
    n = len(hand) + 3 * len(melds)
    if len(melds) > 4 or n != 13:
        raise InputError(
            "tile_count",
            f"the hand has {len(hand)} tiles and {len(melds)} meld(s); it needs "
            f"{max(0, 13 - 3 * len(melds))} concealed tiles besides the "
            f"{'winning tile' if need_win else 'melds'} (13 counting each meld as 3)",
        )


def _check_physical(
    hand: tuple[Tile, ...],
    win: Tile | None,
    melds: tuple[Meld, ...],
    kita: int,
    kita_aka: int,
    indicators: tuple[Tile, ...],
    rules: Rules,
) -> tuple[int, ...]:
    """No fifth tile, no more red fives or aka-5-man than the set holds (§1, §3, §A1–A2).
    Returns the concealed tiles' counts by kind (counted on the way)."""
    if kita and not rules.kita_enabled:
        raise InputError("bad_value", "this rule set has no kita (north extraction)")
    if kita > 4:
        raise InputError("fifth_tile", f"kita {kita}: there are only four norths")
    if kita_aka > kita:
        raise InputError("bad_value", "kita_aka counts aka-5-man among kita, so kita_aka <= kita")
    if kita_aka and kita_aka > rules.aka5man_tiles:
        raise InputError(
            "too_many_red",
            "kita_aka needs the aka_5man rule option, and there is only one aka-5-man",
        )
    counts = [0] * 34
    specials: list[Tile] = []  # red fives and aka-5-man
    for tile in hand:
        kind, red, aka5man = tile  # (unpacked: cheaper than the attributes)
        counts[kind] += 1
        if red or aka5man:
            specials.append(tile)
    concealed = tuple(counts)
    others = list(indicators)
    for m in melds:
        others += m.tiles
    if win is not None:
        others.append(win)
    for tile in others:
        kind, red, aka5man = tile
        counts[kind] += 1
        if red or aka5man:
            specials.append(tile)
    counts[NORTH] += kita
    if any(c > 4 for c in counts):  # (compiled as a loop; max() is a generic call)
        for k, c in enumerate(counts):
            if c > 4:
                raise InputError(
                    "fifth_tile",
                    f"{c} tiles of {name(k)} (hand, win, melds, kita and indicators together); "
                    "there are only four",
                )
    aka5 = kita_aka
    if specials:
        reds = {"m": 0, "p": 0, "s": 0}
        for kind, red, aka5man in specials:
            if red:
                reds[SUIT_LETTERS[SUIT[kind]]] += 1
            if aka5man:
                aka5 += 1
        for suit, n in reds.items():
            if n and n > rules.max_red(suit):
                raise InputError(
                    "too_many_red", f"{n} red 5{suit}; this rule set has {rules.max_red(suit)}"
                )
    if aka5 and aka5 > rules.aka5man_tiles:
        raise InputError(
            "too_many_red", f"{aka5} aka-5-man tiles; the set has {rules.aka5man_tiles}"
        )
    if FIVE_M not in rules.tile_kinds and counts[FIVE_M]:
        raise InputError("invalid_tile", "5m is not used in this rule set")
    return concealed


def _check_situation(
    sit: Situation,
    melds: tuple[Meld, ...],
    win: Tile | None,
    ura: tuple[Tile, ...],
    rules: Rules,
) -> None:
    """Flags that cannot be true together are refused rather than scored (never a silent guess)."""
    (
        tsumo, seat, _, riichi_kind, ippatsu, haitei, houtei, rinshan, kanburi, chankan,
        tenhou, chihou, renhou, first_draw, _, _, _, ron_on,
    ) = sit  # the fields once (a NamedTuple's attributes cost more than locals)  # fmt: skip
    is_open = bool(melds) and any(m.is_open for m in melds)
    riichi = riichi_kind != "none"
    if riichi and is_open:
        raise _inconsistent("riichi needs a closed hand (no pon or open kan)")
    if ippatsu and not riichi:
        raise _inconsistent("ippatsu needs riichi")
    # ura indicators without riichi are no contradiction: they exist, they just count 0
    # (evaluate.dora_of, waits): a hand that can be evaluated is a result (docs/api.md, exit 0)
    if not tsumo and win is not None and (haitei or rinshan or tenhou or chihou or first_draw):
        for f in ("haitei", "rinshan", "tenhou", "chihou", "first_draw"):  # the first set
            if getattr(sit, f):
                raise _inconsistent(f"{f} is a win by tsumo; set tsumo true")
    if tsumo and (houtei or kanburi or chankan or renhou):
        for f in ("houtei", "kanburi", "chankan", "renhou"):
            if getattr(sit, f):
                raise _inconsistent(f"{f} is a win by ron; set tsumo false")
    if not rules.last_tile_and_kan_win_together:
        if haitei and rinshan:
            raise _inconsistent("haitei and rinshan cannot both hold in this rule set")
        if houtei and chankan:
            raise _inconsistent("houtei and chankan cannot both hold in this rule set")
    if ron_on is not None and tsumo:
        raise _inconsistent("ron_on describes a ron; set tsumo false")
    if ron_on == "kita" and win is not None and win.kind != NORTH:
        raise _inconsistent("ron_on kita: the winning tile is the extracted north (4z or 0m)")
    dealer = seat == _EAST
    if tenhou and not dealer:
        raise _inconsistent("tenhou is the dealer's win (seat E)")
    if (chihou or renhou) and dealer:
        raise _inconsistent("chihou and renhou are a child's win (seat not E)")
    first_turn = tenhou or chihou or renhou or first_draw
    if first_turn and (riichi or is_open):
        raise _inconsistent(
            "tenhou/chihou/renhou/first_draw: no riichi and no call can come before"
        )
    if first_turn and melds and not rules.first_turn_after_ankan:
        raise _inconsistent(
            "tenhou/chihou/renhou/first_draw: no kan can come before in this rule set"
        )
    if ron_on is not None and rules.kita_enabled is False and ron_on == "kita":
        raise _inconsistent("this rule set has no kita to ron on")
    if ron_on == "ankan" and not rules.ankan_robbable:
        raise _inconsistent("no one may rob a concealed kan in this rule set, not even kokushi")
    if riichi_kind in ("open", "double_open") and "open_riichi" not in rules.yaku_index:
        raise InputError("bad_value", "this rule set has no open riichi")


_EAST: Final = WIND_LETTERS["E"]  # the dealer's seat (Situation.is_dealer)


def _inconsistent(msg: str) -> InputError:
    return InputError("inconsistent_situation", msg)
