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
from sanma_lens.engine.frozen import refuse_assignment
from sanma_lens.engine.rules import Rules, rules_from_json
from sanma_lens.engine.tiles import FIVE_M, NORTH, SUIT, SUIT_LETTERS, WIND_LETTERS, name
from sanma_lens.engine.values import Value

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
#: a :class:`Situation`'s fields, in the order of its constructor
SITUATION_FIELDS: Final = (
    "tsumo", "seat", "round", "riichi", *_BOOL_FIELDS[1:], "honba", "deposits", "ron_on"
)  # fmt: skip
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


class Situation:
    """Everything about the win that is not the tiles (docs/api.md Hand JSON).

    An immutable value, a plain slotted class as :mod:`engine.values` says (compiled, it is
    built by a C constructor and read field by field), with equality and hashing by its
    fields. The yaku evaluator keys its cache of situational yaku on it, so the fields are
    also kept as one tuple with its hash, taken once; they refuse assignment (``Final``,
    :func:`engine.frozen.refuse_assignment`), so that no change can leave the cache keyed on
    a hash the fields no longer have.
    """

    __slots__ = (
        "tsumo",
        "seat",
        "round",
        "riichi",
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
        "honba",
        "deposits",
        "ron_on",
        "_values",
        "_hash",
    )  # SITUATION_FIELDS, then the fields as one tuple and its hash

    def __init__(
        self,
        tsumo: bool = False,
        seat: int = WIND_LETTERS["S"],
        round: int = WIND_LETTERS["E"],
        riichi: str = "none",
        ippatsu: bool = False,
        haitei: bool = False,
        houtei: bool = False,
        rinshan: bool = False,
        kanburi: bool = False,
        chankan: bool = False,
        tenhou: bool = False,
        chihou: bool = False,
        renhou: bool = False,
        first_draw: bool = False,
        discarder_riichi: bool = False,
        honba: int = 0,
        deposits: int = 0,
        ron_on: str | None = None,
    ) -> None:
        self.tsumo: Final = tsumo
        self.seat: Final = seat
        self.round: Final = round
        self.riichi: Final = riichi
        self.ippatsu: Final = ippatsu
        self.haitei: Final = haitei
        self.houtei: Final = houtei
        self.rinshan: Final = rinshan
        self.kanburi: Final = kanburi
        self.chankan: Final = chankan
        self.tenhou: Final = tenhou
        self.chihou: Final = chihou
        self.renhou: Final = renhou
        self.first_draw: Final = first_draw
        self.discarder_riichi: Final = discarder_riichi
        self.honba: Final = honba
        self.deposits: Final = deposits
        self.ron_on: Final = ron_on
        values = (
            tsumo,
            seat,
            round,
            riichi,
            ippatsu,
            haitei,
            houtei,
            rinshan,
            kanburi,
            chankan,
            tenhou,
            chihou,
            renhou,
            first_draw,
            discarder_riichi,
            honba,
            deposits,
            ron_on,
        )  # in the order of SITUATION_FIELDS
        self._values: Final = values
        self._hash: Final = hash(values)

    def _key(self) -> tuple[object, ...]:
        return self._values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Situation) and self._values == other._values

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in SITUATION_FIELDS)
        return f"Situation({fields})"

    @property
    def is_dealer(self) -> bool:
        return self.seat == WIND_LETTERS["E"]

    def as_tsumo(self, tsumo: bool) -> Situation:
        """The same moment, won by tsumo or by ron (for tenpai's per-wait values).

        Flags that belong to the other way of winning are cleared.
        """
        if tsumo == self.tsumo:
            return self
        return Situation(
            tsumo=tsumo,
            seat=self.seat,
            round=self.round,
            riichi=self.riichi,
            ippatsu=self.ippatsu,
            haitei=self.haitei and tsumo,
            houtei=self.houtei and not tsumo,
            rinshan=self.rinshan and tsumo,
            kanburi=self.kanburi and not tsumo,
            chankan=self.chankan and not tsumo,
            tenhou=self.tenhou and tsumo,
            chihou=self.chihou and tsumo,
            renhou=self.renhou and not tsumo,
            first_draw=self.first_draw and tsumo,
            discarder_riichi=self.discarder_riichi,
            honba=self.honba,
            deposits=self.deposits,
            ron_on=self.ron_on if not tsumo else None,
        )


#: HandInput's fields, in the order its constructor takes them
HAND_FIELDS: Final = (
    "concealed",
    "concealed_tiles",
    "melds",
    "win",
    "win_kind",
    "kita",
    "kita_aka",
    "dora",
    "ura",
    "discards",
    "aka5man_as",
)


class HandInput(Value):
    """The tiles of a hand JSON, checked. Counts are 34-arrays of shape kinds.

    An immutable value (:mod:`engine.values`): a plain slotted class whose fields are set
    once and refuse assignment, with equality, hashing and a repr by its fields. Compiled it
    is a native class, built by a C constructor, its fields read straight from the struct
    (a frozen dataclass's ``__init__`` stayed Python, setting each field through
    ``object.__setattr__``: an eighth of reading a hand JSON).
    """

    __slots__ = HAND_FIELDS

    def __init__(
        self,
        concealed: tuple[int, ...],  # the concealed part without the winning tile
        concealed_tiles: tuple[Tile, ...],
        melds: tuple[Meld, ...],
        win: Tile | None,  # the physical winning tile
        win_kind: int | None,  # its shape kind (5p/5s when an aka-5-man is taken as that five)
        kita: int,
        kita_aka: int,
        dora: tuple[Tile, ...],
        ura: tuple[Tile, ...],
        discards: tuple[int, ...],
        aka5man_as: str | None,
    ) -> None:
        self.concealed: Final = concealed
        self.concealed_tiles: Final = concealed_tiles
        self.melds: Final = melds
        self.win: Final = win
        self.win_kind: Final = win_kind
        self.kita: Final = kita
        self.kita_aka: Final = kita_aka
        self.dora: Final = dora
        self.ura: Final = ura
        self.discards: Final = discards
        self.aka5man_as: Final = aka5man_as

    def _key(self) -> tuple[object, ...]:
        return (
            self.concealed,
            self.concealed_tiles,
            self.melds,
            self.win,
            self.win_kind,
            self.kita,
            self.kita_aka,
            self.dora,
            self.ura,
            self.discards,
            self.aka5man_as,
        )  # in the order of HAND_FIELDS

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={v!r}" for f, v in zip(HAND_FIELDS, self._key(), strict=True))
        return f"HandInput({fields})"

    @property
    def is_closed(self) -> bool:
        """Closed = no pon, chi or open kan; ankan and kita keep a hand closed (docs/rules.md)."""
        return not any(m.is_open for m in self.melds)


class Parsed(Value):
    """A checked hand JSON: the tiles, the situation and the rule set; ``role`` the winner's
    role in ability mahjong (``engine.roles.RoleHand``), None without one. An immutable
    value, as :class:`HandInput`."""

    __slots__ = ("hand", "situation", "rules", "role")

    def __init__(
        self, hand: HandInput, situation: Situation, rules: Rules, role: Any = None
    ) -> None:
        self.hand: Final = hand
        self.situation: Final = situation
        self.rules: Final = rules
        self.role: Final = role

    def _key(self) -> tuple[object, ...]:
        return (self.hand, self.situation, self.rules, self.role)

    def __repr__(self) -> str:
        return (
            f"Parsed(hand={self.hand!r}, situation={self.situation!r}, "
            f"rules={self.rules!r}, role={self.role!r})"
        )


refuse_assignment(Situation)
refuse_assignment(HandInput)
refuse_assignment(Parsed)


def parse_tiles(text: Any, rules: Rules, where: str) -> list[Tile]:
    """MPSZ string → tiles. ``0p``/``0s`` red fives, ``0m`` the aka-5-man (a north).

    >>> from sanma_lens.engine.rules import rules_from_json
    >>> [t.text() for t in parse_tiles("120p0m", rules_from_json({"aka_5man": True}), "hand")]
    ['1p', '2p', '0p', '0m']
    """
    return list(tiles_of(text, rules, where))


def tiles_of(text: Any, rules: Rules, where: str) -> tuple[Tile, ...]:
    """:func:`parse_tiles` as a tuple (through the rule set's :class:`TileReader`)."""
    return reader_of(rules).tiles(text, where)


class TileReader:
    """A rule set's tiles, read from MPSZ strings; its tables fill as tiles are first met.

    ``by_code``: the tiles by ``10 × suit + digit`` (suits in ``mpsz`` order), where a string
    of ASCII digits and suit letters whose tiles were all met before is read in one pass;
    ``by_suit``: the same by suit letter and digit, for the first sight of a tile and for
    anything else (full-width digits, spaces, errors), read one character at a time. Short
    strings are also kept whole (``by_text``, bounded): the win, dora and meld strings of
    one hand recur in the next; so are melds (``melds``). Errors are never kept.
    """

    __slots__ = ("rules", "by_code", "by_suit", "by_text", "melds")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.by_code: list[Tile | None] = [None] * (10 * len(SUIT_LETTERS))
        self.by_suit: dict[str, dict[str, Tile]] = {suit: {} for suit in SUIT_LETTERS}
        self.by_text: dict[str, tuple[Tile, ...]] = {}
        self.melds: dict[str, Meld] = {}

    def tiles(self, text: Any, where: str) -> tuple[Tile, ...]:
        """The tiles of ``text`` (an InputError naming ``where`` if it cannot be read)."""
        if not isinstance(text, str):
            raise InputError("bad_type", f'{where} must be a string of tiles like "123p55z"')
        short = len(text) <= _TEXT_KEPT
        if short:
            found = self.by_text.get(text)
            if found is not None:
                return found
        found = self._scan(text)
        if found is None:
            found = _read_tiles(text, self.rules, where, self.by_suit, self.by_code)
        if short:
            if len(self.by_text) >= _TEXTS_MAX:
                self.by_text.clear()
            self.by_text[text] = found
        return found

    def known(self, text: Any) -> tuple[Tile, ...] | None:
        """The tiles of a short string read before, or None."""
        if isinstance(text, str) and len(text) <= _TEXT_KEPT:
            return self.by_text.get(text)
        return None

    def _scan(self, text: str) -> tuple[Tile, ...] | None:
        """The tiles of ASCII digits and suit letters whose tiles were all met before; None
        for anything else (the slow reading then says what is wrong, or fills the tables)."""
        by_code = self.by_code
        tiles: list[Tile] = []
        start = 0
        n = len(text)
        for i in range(n):
            c = ord(text[i])
            if 48 <= c <= 57:  # an ASCII digit
                continue
            if c == 109:  # m
                base = 0
            elif c == 112:  # p
                base = 10
            elif c == 115:  # s
                base = 20
            elif c == 122:  # z
                base = 30
            else:
                return None
            if i == start:
                return None
            for j in range(start, i):
                tile = by_code[base + ord(text[j]) - 48]
                if tile is None:
                    return None
                tiles.append(tile)
            start = i + 1
        if start != n:
            return None
        return tuple(tiles)


def _read_tiles(
    text: str,
    rules: Rules,
    where: str,
    by_suit: dict[str, dict[str, Tile]],
    by_code: list[Tile | None],
) -> tuple[Tile, ...]:
    """The tiles of an MPSZ string one character at a time (or an InputError); the tiles
    met are kept in the rule set's tables (:class:`TileReader`)."""
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
                    if d in _ASCII_DIGITS:
                        by_code[10 * SUIT_LETTERS.index(ch) + int(d)] = tile
                tiles.append(tile)
            digits = []
        else:
            raise InputError("bad_tiles", f"{where}: unexpected character {ch!r} in {text!r}")
    if digits:
        raise InputError("bad_tiles", f"{where}: digits {''.join(digits)!r} without a suit letter")
    return tuple(tiles)


_ASCII_DIGITS: Final = "0123456789"
_MISSING: Final = object()  # a field absent (not null)
#: per rule set (by id, the reader holding the Rules to check the id)
_READERS: Final[dict[int, TileReader]] = {}
_TEXTS_MAX: Final = 4096  # strings (and melds) kept per rule set: a server meets any hands
#: the longest string kept: a tile, a meld, a few indicators (they recur from hand to hand);
#: a whole hand rarely does, and keeping every one would leave garbage that outlives its
#: call (more, and costlier, full collections of the garbage collector under load)
_TEXT_KEPT: Final = 8


def reader_of(rules: Rules) -> TileReader:
    """The rule set's :class:`TileReader` (one per rule set, bounded)."""
    reader = _READERS.get(id(rules))
    if reader is None or reader.rules is not rules:
        if len(_READERS) > 512:  # many one-off rule sets: stay bounded
            _READERS.clear()
        reader = _READERS[id(rules)] = TileReader(rules)
    return reader


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
    return _one_tile(reader_of(rules), text, where)


def _one_tile(reader: TileReader, text: Any, where: str) -> Tile:
    tiles = reader.tiles(text, where)
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


def _get_tile_list(obj: dict[str, Any], key: str, reader: TileReader) -> tuple[Tile, ...]:
    v = obj.get(key)
    if v is None:
        return ()
    if isinstance(v, str):
        return reader.tiles(v, key)
    if not isinstance(v, list):
        raise InputError("bad_type", f'{key} must be a list of tiles like ["3p"]')
    if len(v) == 1:  # the usual one indicator, most often read before
        found = reader.known(v[0])
        return found if found is not None else reader.tiles(v[0], f"{key}[0]")
    out: list[Tile] = []
    for i, item in enumerate(v):
        out.extend(reader.tiles(item, f"{key}[{i}]"))
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
    fields, rules, role_fields = _object_rules(obj, "the hand")
    role: Any = None
    if role_fields:  # ability mahjong (engine.roles): the winner's role and its facts
        from sanma_lens.engine.roles import read_role

        role, rules = read_role(fields, rules)
    reader = reader_of(rules)
    hand_raw = fields.get("hand", _MISSING)
    if hand_raw is _MISSING:
        raise InputError("missing_field", "hand is required (the concealed tiles, MPSZ)")
    hand_tiles = reader.tiles(hand_raw, "hand")
    win_raw = fields.get("win")
    win = None
    if win_raw is not None:
        known = reader.known(win_raw)
        if known is not None and len(known) == 1:
            win = known[0]
        else:
            win = _one_tile(reader, win_raw, "win")
    if need_win and win is None:
        raise InputError("missing_field", "win is required to score a hand")
    if not need_win and win is not None:
        raise InputError("unexpected_win", "tenpai takes the hand without the winning tile")
    melds = _get_melds(fields, reader)
    dora = _get_tile_list(fields, "dora", reader)
    ura = _get_tile_list(fields, "ura", reader)
    discards_tiles = _get_tile_list(fields, "discards", reader)

    sit = _parse_situation(fields, rules)
    kita, kita_aka = _get_int(fields, "kita"), _get_int(fields, "kita_aka")
    aka5man_as = fields.get("aka5man_as")
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
        dora, ura = counted_indicators(fields, sit, dora, ura, rules)
    elif "last_kan" in fields:
        _last_kan(fields)
    discards = tuple([t.kind for t in discards_tiles]) if discards_tiles else ()
    if role is not None:
        from sanma_lens.engine.roles import check_role_situation

        check_role_situation(role, sit, discards)
    hand = HandInput(
        concealed, hand_tiles, melds, win, win_kind, kita, kita_aka, dora, ura, discards,
        aka5man_as,
    )  # fmt: skip
    return Parsed(hand, sit, rules, role)


def _get_melds(obj: dict[str, Any], reader: TileReader) -> tuple[Meld, ...]:
    melds_raw = obj.get("melds")
    if melds_raw is None:
        return ()
    if not isinstance(melds_raw, list):  # ({} or "" were read as no melds)
        raise InputError("bad_type", 'melds must be a list like ["pon:777z"]')
    if not melds_raw:
        return ()
    kept = reader.melds
    melds = []
    for i, text in enumerate(melds_raw):
        meld = kept.get(text) if isinstance(text, str) else None
        if meld is None:  # first sight (a meld is a value: the same text, the same meld)
            meld = parse_meld(text, reader.rules, i)
            if len(kept) >= _TEXTS_MAX:
                kept.clear()
            kept[text] = meld
        melds.append(meld)
    return tuple(melds)


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
    reader = reader_of(rules_from_json(rules_json))
    if obj.get("hand") is not None:
        reader.tiles(obj["hand"], "hand")
    if obj.get("win") is not None:
        _one_tile(reader, obj["win"], "win")
    _get_melds(obj, reader)
    _get_tile_list(obj, "dora", reader)
    _get_int(obj, "kita")
    _get_int(obj, "kita_aka")


def _object_rules(obj: Any, what: str) -> tuple[dict[str, Any], Rules, bool]:
    """A hand or situation JSON ``obj`` checked to be an object of known fields (``what``
    names it in the error), its rules, and whether it has ability mahjong's fields
    (:data:`ROLE_FIELDS`)."""
    if not isinstance(obj, dict):
        raise InputError("bad_type", f"{what} must be a JSON object")
    fields: dict[str, Any] = obj
    role_fields = False
    for key in fields:
        if key not in KNOWN_FIELDS:
            unknown = sorted(k for k in obj if k not in KNOWN_FIELDS and k not in ROLE_FIELDS)
            if unknown:
                raise InputError(
                    "unknown_field", f"unknown field(s): {', '.join(map(str, unknown))}"
                )
            role_fields = True
            break
    return fields, rules_from_json(fields.get("rules")), role_fields


def check_situation(obj: Any) -> None:
    """The situation alone (the hand JSON's fields other than the tiles), checked as
    :func:`parse_hand` checks them, before any tiles are known: field names, rules, seat and
    round of the rule set, riichi, flag and count types, indicator and discard tiles,
    ``aka5man_as``, ``ron_on``. Tile fields in ``obj`` are not looked at. What needs the tiles
    (counts, fifth tiles, which flags fit the win) is left to :func:`parse_hand`."""
    fields, rules, role_fields = _object_rules(obj, "the situation")
    reader = reader_of(rules)
    for key in ("dora", "ura", "discards"):
        _get_tile_list(fields, key, reader)
    sit = _parse_situation(fields, rules)
    if role_fields:
        from sanma_lens.engine.roles import read_role

        role, _ = read_role(fields, rules)
        if role is not None and role.discarder_genbu and sit.tsumo:
            raise InputError(
                "inconsistent_situation", "discarder_genbu describes a ron; set tsumo false"
            )
    aka5man_as = fields.get("aka5man_as")
    if aka5man_as not in (None, "5p", "5s"):
        raise InputError("bad_value", f'aka5man_as must be null, "5p" or "5s", got {aka5man_as!r}')
    _last_kan(fields)


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
    flags = _flags(obj)
    seat = _wind(obj, "seat", "S", rules.seats)
    round_wind = _wind(obj, "round", "E", rules.rounds)
    honba, deposits = _get_int(obj, "honba"), _get_int(obj, "deposits")
    return _situation(flags, seat, round_wind, riichi, honba, deposits, ron_on)


def _situation(
    flags: list[bool],
    seat: int,
    round_wind: int,
    riichi: str,
    honba: int,
    deposits: int,
    ron_on: str | None,
) -> Situation:
    """The Situation of the flags of :data:`_BOOL_FIELDS` (in that order) and the rest."""
    return Situation(
        tsumo=flags[0],
        seat=seat,
        round=round_wind,
        riichi=riichi,
        ippatsu=flags[1],
        haitei=flags[2],
        houtei=flags[3],
        rinshan=flags[4],
        kanburi=flags[5],
        chankan=flags[6],
        tenhou=flags[7],
        chihou=flags[8],
        renhou=flags[9],
        first_draw=flags[10],
        discarder_riichi=flags[11],
        honba=honba,
        deposits=deposits,
        ron_on=ron_on,
    )


_FLAG_INDEX: Final = {key: i for i, key in enumerate(_BOOL_FIELDS)}


def _check_flag_order() -> None:
    """_situation reads the flags by their place in _BOOL_FIELDS: checked at import (also
    under python -O), each flag alone, so that a reordered field can never score silently."""
    for i, key in enumerate(_BOOL_FIELDS):
        one = _situation([j == i for j in range(len(_BOOL_FIELDS))], 0, 0, "none", 0, 0, None)
        if [getattr(one, f) for f in _BOOL_FIELDS] != [f == key for f in _BOOL_FIELDS]:
            raise RuntimeError("engine.parse: _BOOL_FIELDS and _situation are out of step")


_check_flag_order()


def _flags(obj: dict[str, Any]) -> list[bool]:
    """The flags of :data:`_BOOL_FIELDS` in that order: only those present are read (a hand
    names few); a null or a value of another type goes the way of one check per field, so
    the first bad flag in that order is the one an error names."""
    flags = [False] * len(_BOOL_FIELDS)
    for key in obj:  # (the keys alone: no (key, value) tuple made for every field)
        i = _FLAG_INDEX.get(key)
        if i is not None:
            v = obj[key]
            if v is True:
                flags[i] = True
            elif v is not False:
                return _checked_flags(obj)
    return flags


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
        counts[kind] = counts[kind] + 1  # (compiled, += on a list item is a generic add)
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
        counts[kind] = counts[kind] + 1
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
    tsumo, seat, riichi_kind, ippatsu = sit.tsumo, sit.seat, sit.riichi, sit.ippatsu
    haitei, houtei, rinshan, kanburi = sit.haitei, sit.houtei, sit.rinshan, sit.kanburi
    chankan, tenhou, chihou, renhou = sit.chankan, sit.tenhou, sit.chihou, sit.renhou
    first_draw, ron_on = sit.first_draw, sit.ron_on
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
