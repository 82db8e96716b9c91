"""The table between hands: the game's options, what moved in each hand, and the scores
(docs/rules.md "Seats, rounds, flow", "Points", "End of game")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.events import HandResult
from sanma_lens.engine.game.seats import dealer_of, round_label, round_wind, seat_winds
from sanma_lens.engine.roles import ROLE_NAMES
from sanma_lens.engine.rules import Rules, rules_from_json

#: engine amounts that must be whole multiples of the table's point unit (§9: 1,000 at sanma)
UNIT_OPTIONS = (
    "rounding_unit",
    "tsumo_bonus_per_payer",
    "honba_ron",
    "honba_tsumo_each",
    "riichi_deposit",
    "chombo_child_each",
    "chombo_child_to_dealer",
    "chombo_dealer_each",
)
#: the values of the text options (checked here; listed for the API schema by ``options``)
TEXT_CHOICES: dict[str, tuple[str, ...]] = {
    "double_ron_honba": ("each", "first"),
    "rank_ties": ("seat", "split"),
    "last_hand_deposits": ("top", "winners"),
    "nagashi": ("yakuman", "mangan", "none"),
    "settle_rounding": ("exact", "toward_origin"),
}
#: GameRules' options of ability mahjong (docs/rules/ability.md): shown and stored only for a
#: game with roles, so that a game without them is stored as it always was
ABILITY_OPTIONS = (
    "ability",
    "genbu_start_offset",
    "kouryuu_start_offset",
    "ability_oka_from_starts",
    "roles_may_repeat",
    "seiryuu_deposit",
    "seiryuu_deposit_after_blank",
    "seiryuu_deposit_below_zero",
    "byakko_declare_within",
    "byakko_chombo_hand_counts",
    "byakko_pays_after_chombo",
    "byakko_upgrade_earns_prize",
    "byakko_count_across_hanchan",
    "kouryuu_collection",
    "kouryuu_collects_after_chombo",
    "kouryuu_bust_prize",
    "kouryuu_before_byakko",
    "kanpa_at_once",
)
#: the most hands a byakko's count carried into a hanchan may hold (a block is four hanchan,
#: each far shorter than this)
MAX_SILENT = 1_000
#: names of the players when a new game is given none
DEFAULT_NAMES = "ABCD"


@dataclass(frozen=True)
class GameRules:
    """Options of the game keeper (docs/rules.md; defaults are sanma-1.3).

    - ``aka_5man``: the 赤五萬 option (§A); enables the aka-5-man payments of §A8.
    - ``double_ron_honba``: ``"each"`` — every ron of a double ron adds the honba (§12 reads
      "on a ron, +1,000 per stick" and §14.1 singles out only the deposits) **[interp]**;
      ``"first"`` — only the first winner in turn order gets the honba.
    - ``riichi_min_points``: a player needs this many points to declare riichi **[interp]**
      (the common rule; the seed is silent).
    - ``noten_payment``: at an exhaustive draw each no-ten player pays this to each tenpai
      player **[interp]** (docs/rules.md Ryuukyoku: 1,000; the seed is silent).
    - ``aka5man_doubles_prizes``: whether the §A8 doubling for a winner who extracted the
      aka-5-man also doubles their §32 yakuman prize (docs/rules.md: "deposits and prizes are not"
      **[interp]**; default False).
    - ``rank_ties``: players tied on points at the end **[interp]** (docs/rules.md End of game):
      ``"seat"`` — the earlier seat from the first dealer ranks higher; ``"split"`` — the
      tied players share the rank and the oka and uma of the places they occupy equally (the
      leftover deposits still go to the earlier seat). ``"split"`` needs an even uma and oka,
      so that every share is a whole point.
    - ``hand_options``: options of the engine's rule value (``engine.rules``, every **[interp]**
      of docs/rules.md, e.g. ``riichi_deposit``, ``kiriage_mangan``, ``aka5man_payment_multiplier``)
      as ``(name, value)`` pairs sorted by name, read by ``rules_from_json`` as a hand JSON's
      ``rules`` is, under the game's ``preset``. ``aka_5man`` is set above, not here; amounts of
      the table (payments, honba, deposits, chombo) must stay whole multiples of
      ``point_unit``, and ``aka5man_doubles_deposits`` is refused: the game keeper does not
      double deposits.

    The four-player systems (``engine.game.presets``: ``ecip``, ``standard``;
    docs/rules/ecip.md, docs/rules/standard.md) set the rest:

    - ``preset``: the rule system, which also scores the hands (its engine preset); the number
      of players is its number of seats.
    - ``point_unit``: every payment is a multiple of it (1,000 at sanma, 100 at four players).
    - ``uma_second``: at four players, uma from third to second place (``uma`` is from last to
      first).
    - ``noten_pool``: ``noten_payment`` is the total the no-ten players share and the tenpai
      players split (3,000), not a payment per pair.
    - ``bust_ends_game``: whether the game ends with the hand in which a player goes below zero.
    - ``rounds_played``: rounds of the game (2: East–South hanchan, 1: East only).
    - ``extension_target``: while the top player has fewer points after the last round, play
      the West round, then the North round, which ends after any hand that leaves the top
      player with this many (ECIP 西入, sudden death); 0: no extension.
    - ``south_draw_keeps_dealer``: in the South (and North) round the dealer keeps the deal at
      any draw; otherwise only when tenpai, as in the East round.
    - ``max_ron_winners``: winners one discard may have (2: double ron; 1: head bump).
    - ``deposits_need_closed_win``: only a winner with a closed hand takes the deposits (ECIP).
    - ``last_hand_deposits``: who takes the deposits left when the game ends: ``"top"``, or
      ``"winners"`` (ECIP: the single winner; the closed one of two, else the first from the
      discarder; with no winner the top player).
    - ``pao``: a yakuman tsumo fed by a call (``Win.pao``) is paid by that player alone (ECIP).
    - ``chombo_rewinds``: a chombo rewinds the hand and replays it with the same honba;
      otherwise (ECIP) it ends the hand as a draw: riichi sticks stay, honba + 1.
    - ``abortive_draws``: whether outcome ``abortive`` (九種九牌, 四家立直, …) exists.
    - ``nagashi``: ``"yakuman"`` (sanma's nagashi yakuman), ``"mangan"`` (ECIP's nagashi
      mangan, a win for the flow) or ``"none"``.
    - ``noten_riichi_is_chombo``: a no-ten riichi shown at the draw is a chombo; otherwise the
      player is simply no-ten (standard).
    - ``manemann``: whether manemann (§34) is played.
    - ``settle_rounding``: final points ``"exact"`` (scores in whole 1,000s) or
      ``"toward_origin"`` (each (score − return) / 1,000 rounded toward zero; the top player
      balances the table).

    Ability mahjong (能力麻雀 ver 1.1, docs/rules/ability.md; applied by ``engine.game.ability``):

    - ``ability``: the players have roles; ``roles``: each player's role, in player order
      (``engine.roles.Role`` names).
    - ``genbu_start_offset`` / ``kouryuu_start_offset``: a genbu starts 5,000 and a kouryuu
      20,000 below ``start_points`` (¶8, ¶11).
    - ``ability_oka_from_starts``: ruling 1, the first place's oka changes with the starts:
      Σ (return − start) / 1,000 over the players **[interp]**; off: each player's return
      point moves with their start and the oka stays as without roles.
    - ``roles_may_repeat``: two players may hold the same role **[interp]**.
    - ``seiryuu_deposit`` / ``seiryuu_deposit_after_blank``: the seiryuu puts 2,000 into the
      deposits at each hand's start, 4,000 after a seiryuu win whose role-only indicators
      added no han (¶2.1, ¶2.3); ``seiryuu_deposit_below_zero``: owed even when it busts the
      seiryuu **[interp]** (off: the seiryuu puts up what it has).
    - ``byakko_declare_within``: a byakko declares at least once in every this many
      consecutive hands (ver 1.1; 0: no such rule); ``byakko_chombo_hand_counts``: a hand
      replayed after a chombo is the same hand **[interp]** (on: the chombo's deal counts
      too); ``byakko_pays_after_chombo``: a chombo triggers no byakko mangan payment
      **[interp]**; ``byakko_upgrade_earns_prize``: a sanbaiman counted as yakuman earns the
      §32 prize of a yakuman (a choice where docs/rules/ability.md is silent);
      ``byakko_count_across_hanchan``: in a block (roles held for four hanchan) the count of
      hands without a declaration runs on from one hanchan into the next **[interp]** (off: it
      restarts with each hanchan); ``byakko_silent_before``: each player's hands without a
      declaration carried into this hanchan, in player order (set by the block from the
      hanchan before; empty for a game outside a block or with the count restarting).
    - ``kouryuu_collection``: 1,000 from each other player to each kouryuu at a hand's end
      (¶12); ``kouryuu_collects_after_chombo`` **[interp]** (off: the hand did not end);
      ``kouryuu_bust_prize``: a collection that busts a payer is a bust by the kouryuu, with
      its prize **[interp]**; ``kouryuu_before_byakko``: the order at a hand's end
      **[interp]** (off: byakko payments, then kouryuu collections).
    - ``kanpa_at_once``: of two kanpa declared at once, the one that holds is the declarer's
      nearer the discarder in turn order (``"nearer"``, the "upstream" of ¶10.2.1 as read
      here) or the other (``"farther"``).
    """

    preset: str = "sanma-1.3"
    aka_5man: bool = False
    start_points: int = 30_000  # §9
    return_points: int = 40_000  # §9 (丘)
    uma: int = 10  # §10: 10 points from 3rd to 1st
    bust_prize: int = 10  # §16: per level
    double_bust_bonus: int = 10  # §16.2
    yakuman_prize_tsumo: int = 10  # §32: from each other player
    yakuman_prize_ron: int = 20  # §32: from the discarder
    double_ron_honba: str = "each"
    riichi_min_points: int = 1_000
    noten_payment: int = 1_000
    rank_ties: str = "seat"
    aka5man_doubles_prizes: bool = False
    point_unit: int = 1_000
    uma_second: int = 0
    noten_pool: bool = False
    bust_ends_game: bool = True
    rounds_played: int = 2
    extension_target: int = 0
    south_draw_keeps_dealer: bool = True
    max_ron_winners: int = 2
    deposits_need_closed_win: bool = False
    last_hand_deposits: str = "top"
    pao: bool = False
    chombo_rewinds: bool = True
    abortive_draws: bool = False
    nagashi: str = "yakuman"
    noten_riichi_is_chombo: bool = True
    manemann: bool = True
    settle_rounding: str = "exact"
    ability: bool = False
    roles: tuple[str, ...] = ()
    genbu_start_offset: int = 5_000  # ¶8
    kouryuu_start_offset: int = 20_000  # ¶11
    ability_oka_from_starts: bool = True  # ruling 1 [interp]
    roles_may_repeat: bool = True  # [interp]
    seiryuu_deposit: int = 2_000  # ¶2.1
    seiryuu_deposit_after_blank: int = 4_000  # ¶2.3
    seiryuu_deposit_below_zero: bool = True  # [interp]
    byakko_declare_within: int = 3  # ver 1.1
    byakko_chombo_hand_counts: bool = False  # [interp]
    byakko_pays_after_chombo: bool = False  # [interp]
    byakko_upgrade_earns_prize: bool = True
    byakko_count_across_hanchan: bool = True  # [interp]
    byakko_silent_before: tuple[int, ...] = ()
    kouryuu_collection: int = 1_000  # ¶12
    kouryuu_collects_after_chombo: bool = False  # [interp]
    kouryuu_bust_prize: bool = True  # [interp]
    kouryuu_before_byakko: bool = False  # [interp]
    kanpa_at_once: str = "nearer"
    hand_options: tuple[tuple[str, bool | int | str], ...] = ()

    def __post_init__(self) -> None:
        for name, choices in TEXT_CHOICES.items():
            if getattr(self, name) not in choices:
                words = " or ".join(repr(c) for c in choices)
                raise InputError("bad_rules", f"{name} must be {words}")
        if self.point_unit not in (100, 1000):
            raise InputError("bad_rules", "point_unit must be 100 or 1000")
        if self.settle_rounding == "exact" and self.point_unit != 1000:
            raise InputError(
                "bad_rules", "settle_rounding 'exact' needs scores in whole 1,000s (point_unit)"
            )
        if self.start_points <= 0 or self.start_points % 1000:
            raise InputError("bad_rules", "start_points must be a positive multiple of 1,000")
        if self.rank_ties == "split" and (self.uma % 2 or self.uma_second % 2 or self.oka % 2):
            raise InputError("bad_rules", "rank_ties 'split' needs an even uma and oka")
        if self.noten_payment < 0 or self.noten_payment % self.point_unit:
            raise InputError(
                "bad_rules",
                f"noten_payment must be a multiple of {self.point_unit:,}, at least 0",
            )
        if self.noten_pool and self.noten_payment % 12:
            raise InputError(
                "bad_rules",
                "a no-ten pool (noten_pool) must split evenly among any tenpai and no-ten "
                "players: a multiple of 12 such as 3,000",
            )
        if self.rounds_played not in (1, 2):
            raise InputError("bad_rules", "rounds_played must be 1 (East only) or 2 (hanchan)")
        if not 1 <= self.max_ron_winners <= 2:
            raise InputError("bad_rules", "max_ron_winners must be 1 (head bump) or 2")
        if self.extension_target < 0 or self.extension_target % self.point_unit:
            raise InputError(
                "bad_rules",
                f"extension_target must be 0 or a positive multiple of {self.point_unit}",
            )
        if self.return_points < self.start_points or self.return_points % 1000:
            raise InputError(
                "bad_rules", "return_points must be a multiple of 1,000, at least start_points"
            )
        for name in (
            "uma",
            "uma_second",
            "bust_prize",
            "yakuman_prize_tsumo",
            "yakuman_prize_ron",
        ):
            if getattr(self, name) < 0:
                raise InputError("bad_rules", f"{name} must be 0 or more")
        if self.double_bust_bonus < 0 or self.double_bust_bonus % 2:
            raise InputError(
                "bad_rules", "double_bust_bonus must be even and 0 or more (half from each)"
            )
        self._check_hand_options()
        self._check_ability()
        if self.riichi_min_points < self.hand_rules.riichi_deposit:
            raise InputError(
                "bad_rules",
                f"riichi_min_points must be at least the riichi deposit "
                f"({self.hand_rules.riichi_deposit}), so that riichi never takes a player "
                "below zero",
            )

    def _check_hand_options(self) -> None:
        """The engine options a game can play with (see the class docstring)."""
        options = dict(self.hand_options)
        if len(options) != len(self.hand_options):
            raise InputError("bad_rules", "hand_options name each option once")
        # one order, so that equal options make equal GameRules (stored, folded, compared)
        object.__setattr__(self, "hand_options", tuple(sorted(options.items())))
        if options.get("preset", self.preset) != self.preset:
            raise InputError(
                "bad_rules", f"a game's hands are scored under its own preset ({self.preset})"
            )
        if "aka_5man" in options:
            raise InputError(
                "bad_rules", "aka_5man is a game option: set it next to hand_rules, not in it"
            )
        rules = self.hand_rules  # unknown options and wrong types: rules_from_json refuses
        if self.aka_5man and not rules.kita_enabled:
            raise InputError("bad_rules", "aka_5man needs a rule set with kita (sanma)")
        if self.uma_second and len(rules.seats) != 4:
            raise InputError("bad_rules", "uma_second needs four players")
        for name in UNIT_OPTIONS:
            if getattr(rules, name) % self.point_unit:
                raise InputError(
                    "bad_rules",
                    f"{name} must be a multiple of {self.point_unit:,}: every payment at "
                    "this table is",
                )
        if rules.aka5man_doubles_deposits:
            raise InputError(
                "bad_rules",
                "aka5man_doubles_deposits is not played by the game keeper: "
                "deposits go to the winner undoubled (§A8 [interp])",
            )
        if rules.aka5man_payment_multiplier < 1:
            raise InputError("bad_rules", "aka5man_payment_multiplier must be at least 1")

    def _check_ability(self) -> None:
        """Ability mahjong's options and the players' roles (see the class docstring)."""
        object.__setattr__(self, "roles", tuple(self.roles))
        object.__setattr__(self, "byakko_silent_before", tuple(self.byakko_silent_before))
        if not self.ability:
            if self.roles or self.byakko_silent_before:
                raise InputError(
                    "bad_rules", "roles and byakko_silent_before are for ability mahjong"
                )
            return
        if self.players != 3:
            raise InputError(
                "bad_rules", "ability mahjong is an option of the sanma rules: three players"
            )
        if len(self.roles) != self.players or not all(r in ROLE_NAMES for r in self.roles):
            raise InputError(
                "bad_roles",
                f"an ability game needs roles: {self.players} role names in player order, "
                f"each one of {list(ROLE_NAMES)}",
            )
        if not self.roles_may_repeat and len(set(self.roles)) != len(self.roles):
            raise InputError("bad_roles", "each player takes another role (roles_may_repeat)")
        for name in (
            "genbu_start_offset",
            "kouryuu_start_offset",
            "seiryuu_deposit",
            "seiryuu_deposit_after_blank",
            "kouryuu_collection",
        ):
            value = getattr(self, name)
            if value < 0 or value % 1000:
                raise InputError("bad_rules", f"{name} must be a multiple of 1,000, at least 0")
        if min(self.starting_scores) < 0:
            raise InputError("bad_rules", "a role's start points must not be below zero")
        if self.byakko_declare_within < 0:
            raise InputError("bad_rules", "byakko_declare_within must be 0 or more")
        carried = self.byakko_silent_before
        if carried and (
            len(carried) != self.players
            or not all(type(n) is int and 0 <= n <= MAX_SILENT for n in carried)
        ):
            raise InputError(
                "bad_rules",
                f"byakko_silent_before holds each player's hands without a byakko declaration, "
                f"in player order: {self.players} integers from 0 to {MAX_SILENT}",
            )
        if self.kanpa_at_once not in ("nearer", "farther"):
            raise InputError("bad_rules", "kanpa_at_once must be 'nearer' or 'farther'")
        if self.rank_ties == "split" and self.oka % 2:
            raise InputError("bad_rules", "rank_ties 'split' needs an even uma and oka")

    def role_of(self, player: int) -> str | None:
        """The player's role in ability mahjong, None in a game without roles."""
        return self.roles[player] if self.ability else None

    def start_of(self, player: int) -> int:
        """The player's start points: ``start_points``, less 5,000 for a genbu and 20,000 for
        a kouryuu in ability mahjong (¶8, ¶11)."""
        role = self.role_of(player)
        if role == "genbu":
            return self.start_points - self.genbu_start_offset
        if role == "kouryuu":
            return self.start_points - self.kouryuu_start_offset
        return self.start_points

    @property
    def starting_scores(self) -> tuple[int, ...]:
        return tuple(self.start_of(p) for p in range(self.players))

    def return_of(self, player: int) -> int:
        """The points a player's final score is measured from (§9): ``return_points``; with
        roles and ``ability_oka_from_starts`` off, moved with the player's start."""
        if self.ability and not self.ability_oka_from_starts:
            return self.return_points - (self.start_points - self.start_of(player))
        return self.return_points

    @property
    def hand_rules(self) -> Rules:
        """The engine's rule value used for every amount (points, deposits, chombo payments)."""
        return rules_from_json(
            {**dict(self.hand_options), "preset": self.preset, "aka_5man": self.aka_5man}
        )

    @property
    def players(self) -> int:
        """How many sit at the table: one per seat of the hand rules (3 for sanma, §4)."""
        return len(self.hand_rules.seats)

    @property
    def total_points(self) -> int:
        """Points on the table (scores + deposits) at every moment: 90,000 by default."""
        return sum(self.starting_scores)

    @property
    def oka(self) -> int:
        """Oka in final points (§9): (return − start) × players / 1,000, all to first place;
        with roles Σ (return − each start) / 1,000 (ruling 1 [interp]), so that the
        settlement still sums to zero."""
        if self.ability and self.ability_oka_from_starts:
            return sum(self.return_points - s for s in self.starting_scores) // 1000
        return self.players * (self.return_points - self.start_points) // 1000


@dataclass(frozen=True)
class Transfer:
    """Points moved: ``payer`` → ``receiver``; ``None`` is the table (the deposits)."""

    payer: int | None
    receiver: int | None
    amount: int
    reason: str


@dataclass(frozen=True)
class BustEvent:
    """``player`` went below zero (§15.1); ``by`` received the payment that did it (§16.1)."""

    player: int
    by: int | None


@dataclass(frozen=True)
class YakumanPrize:
    """A §32 prize in final points: each of ``payers`` pays ``points`` to ``winner``."""

    winner: int
    payers: tuple[int, ...]
    points: int
    reason: str


@dataclass(frozen=True)
class HandRecord:
    """One applied event: where it happened, what moved, and the table afterwards."""

    number: int
    round: str
    dealer: int
    honba: int
    result: HandResult
    transfers: tuple[Transfer, ...]
    scores_after: tuple[int, ...]
    deposits_after: int
    busts: tuple[BustEvent, ...] = ()


@dataclass(frozen=True)
class GameState:
    """The table between hands. Invariant: ``sum(scores) + deposits == rules.total_points``."""

    rules: GameRules
    names: tuple[str, ...]
    scores: tuple[int, ...]
    round_index: int = 0
    honba: int = 0
    deposits: int = 0
    finished: bool = False
    busts: tuple[BustEvent, ...] = ()
    prizes: tuple[YakumanPrize, ...] = ()
    log: tuple[HandRecord, ...] = field(default=())

    @property
    def players(self) -> int:
        """How many sit at the table (3 at sanma, 4 at a four-player game)."""
        return len(self.scores)

    @property
    def dealer(self) -> int:
        """E1/S1 player 0, E2/S2 player 1, E3/S3 player 2, … (§4, §6)."""
        return dealer_of(self.round_index, self.players)

    @property
    def round_label(self) -> str:
        return round_label(self.round_index, self.players)

    @property
    def round_wind(self) -> str:
        return round_wind(self.round_index, self.players)

    def seat_wind(self, player: int) -> str:
        """Seat wind this hand: the dealer is East, then South, then West (, North) (§4)."""
        return seat_winds(self.players)[(player - self.dealer) % self.players]

    def is_dealer(self, player: int) -> bool:
        return player == self.dealer


def new_game(names: Iterable[str] | None = None, rules: GameRules | None = None) -> GameState:
    """A fresh hanchan: E1, no honba, no deposits, everyone at the start points (§9)."""
    rules = rules or GameRules()
    players = rules.players
    defaults = DEFAULT_NAMES[:players]
    name_list = list(names) if names is not None else []
    if len(name_list) not in (0, players):
        raise InputError("bad_players", f"give {players} player names or none")
    if not name_list:
        name_list = list(defaults)
    name_list = [str(n).strip() or default for n, default in zip(name_list, defaults, strict=True)]
    return GameState(rules=rules, names=tuple(name_list), scores=rules.starting_scores)
