"""Pydantic models of the HTTP API; they are also its OpenAPI schema (docs/api.md).

Request models check JSON types strictly (no "1" for 1, no "true" for true) and let unknown
fields through to the engine, which does the real validation of tiles and counts and raises
``InputError`` for anything impossible. Response models document the engine's JSON; extra
fields are allowed because the contract may grow.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Riichi = Literal["none", "riichi", "double", "open", "double_open"]
Wind = Literal["E", "S", "W", "N"]
Role = Literal["tenshi", "seiryuu", "suzaku", "byakko", "genbu", "kouryuu"]

HAND_EXAMPLE: dict[str, Any] = {
    "hand": "23455p678s11z",
    "win": "1p",
    "melds": ["pon:777z"],
    "kita": 1,
    "dora": ["3p"],
    "tsumo": False,
    "seat": "S",
    "round": "E",
    "riichi": "none",
}

_IN = ConfigDict(strict=True, extra="allow")
_OUT = ConfigDict(extra="allow")


class _NullIsAbsent(BaseModel):
    """A ``null`` for a field with a default is that field left out, as ``sanma score``
    reads it (engine.parse): ``{"seat": null}`` is seat "S", not a 422 here and a result
    there. ``hand`` (required) and unknown fields keep their null, so they are still refused."""

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        if not isinstance(data, dict) or None not in data.values():
            return data
        fields = cls.model_fields
        return {
            k: v
            for k, v in data.items()
            if v is not None or k not in fields or fields[k].is_required()
        }


class RulesIn(BaseModel):
    """Rule set: a preset and options on top of it (docs/rules.md)."""

    model_config = ConfigDict(strict=True, extra="allow")
    preset: str = Field("sanma-1.3", description="Rule preset id, e.g. `sanma-1.3`.")
    aka_5man: bool = Field(
        False, description="The 赤五萬 option: all 5p/5s red, one north replaced by a red 5-man."
    )


class SituationIn(_NullIsAbsent):
    """Everything about a win except the tiles: how, when and where it happened."""

    model_config = _IN
    # a list of tiles, or one MPSZ string of them ("3p1z"), as sanma score reads them
    dora: list[str] | str = Field(
        default_factory=list, description="Dora indicators in MPSZ (kan dora included)."
    )
    ura: list[str] | str = Field(
        default_factory=list, description="Ura-dora indicators (count only with riichi)."
    )
    tsumo: bool = Field(False, description="Won by self-draw (true) or on a discard (false).")
    seat: Wind = Field("S", description="Winner's seat wind; `E` is the dealer.")
    round: Wind = Field("E", description="Round wind.")
    riichi: Riichi = Field("none", description="Riichi kind of the winner.")
    ippatsu: bool = Field(False, description="Win within one go-around after riichi (一発).")
    haitei: bool = Field(False, description="Tsumo on the last draw (海底撈月).")
    houtei: bool = Field(False, description="Ron on the last discard (河底撈魚).")
    rinshan: bool = Field(
        False, description="Tsumo on a replacement draw after kan/kita (嶺上開花)."
    )
    kanburi: bool = Field(
        False, description="Ron on the discard right after a replacement draw (槓振り)."
    )
    chankan: bool = Field(False, description="Ron by robbing a kan (槍槓).")
    tenhou: bool = Field(False, description="Dealer wins on the dealt hand (天和).")
    chihou: bool = Field(False, description="Child wins on the first draw (地和).")
    renhou: bool = Field(False, description="Child wins by ron before the first draw (人和).")
    first_draw: bool = Field(
        False, description="The win is on the player's first draw with no call before it."
    )
    discarder_riichi: bool = Field(
        False, description="The discarder is in riichi (matters for open riichi, §21.1)."
    )
    aka5man_as: Literal["5p", "5s"] | None = Field(
        None, description="When the winning discard is an aka-5-man: take it as this five."
    )
    honba: int = Field(0, ge=0, le=1000, description="Honba sticks (1,000 each, §12).")
    deposits: int = Field(
        0, ge=0, le=1_000_000, description="Riichi deposits on the table (received by the winner)."
    )
    rules: RulesIn = Field(
        default_factory=lambda: RulesIn.model_validate({}), description="Rule preset and options."
    )
    # ability mahjong (能力麻雀 ver 1.1, docs/rules/ability.md); every field needs `role`
    role: Role | None = Field(
        None,
        description="Ability mahjong: the winner's role (null: none). A suzaku may have "
        "`chi:XXX` melds (pinzu/souzu), needs 1 han from yaku in the actual hand (2 at 5+ "
        "honba) and receives half; a seiryuu counts extra indicators.",
    )
    byakko_declared: bool = Field(
        False,
        description="Ability mahjong: the byakko declared this hand (白虎宣言): 6+ han one "
        "limit higher; 5 han or less paid, then a mangan payment.",
    )
    kanpa: str | None = Field(
        None,
        max_length=8,
        description="Ability mahjong: the tile the winner is under kanpa for (看破): no tsumo "
        "on it, no ron on it from a genbu.",
    )
    discarder_genbu: bool = Field(
        False, description="Ability mahjong: the winning discard came from a genbu player."
    )
    extra_dora: list[str] | str = Field(
        default_factory=list,
        description="Ability mahjong: the seiryuu's next kan-dora indicator and its ura "
        "(counted for a closed seiryuu win).",
    )
    kanpa_discards: list[str] | str = Field(
        default_factory=list,
        description="Ability mahjong: own discards of the kanpa tile made while under kanpa on "
        "it; they make no furiten.",
    )


class TilesIn(_NullIsAbsent):
    """The tiles of a hand, in MPSZ notation (docs/rules.md, Notation)."""

    model_config = _IN
    hand: str = Field(
        ...,
        max_length=200,
        description="Concealed tiles WITHOUT the winning tile, e.g. `23455p678s11z`; "
        "`0p`/`0s` red fives, `0m` aka-5-man.",
    )
    win: str | None = Field(
        None, max_length=8, description="The winning tile (omit for /v1/tenpai), e.g. `1p`."
    )
    melds: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Calls: `pon:XXX`, `minkan:XXXX`, `kakan:XXXX`, `ankan:XXXX` (no chi; "
        "`chi:XXX` only with role suzaku).",
    )
    kita: int = Field(0, ge=0, le=8, description="Extracted norths in total (each +1 dora).")
    kita_aka: int = Field(0, ge=0, le=8, description="How many extracted norths are aka-5-man.")


class HandIn(SituationIn, TilesIn):
    """Hand JSON (docs/api.md): tiles plus situation; absent fields take their defaults."""

    model_config = ConfigDict(
        strict=True, extra="allow", json_schema_extra={"example": HAND_EXAMPLE}
    )


class TilesOverrideIn(TilesIn):
    """Corrected tiles sent with a photo (the page's corrections)."""

    model_config = _IN
    dora: list[str] | str | None = Field(None, description="Dora indicators, if corrected.")


# ---- responses (documentation of the engine's and the recognizer's JSON) ----


class ErrorDetail(BaseModel):
    code: str = Field(..., description="Stable machine-readable code, e.g. `unknown_tile`.")
    message: str = Field(..., description="What is wrong, in plain words.")


class ErrorOut(BaseModel):
    """Every error answer (4xx, 5xx)."""

    error: ErrorDetail


class YakuOut(BaseModel):
    model_config = _OUT
    id: str = Field(..., description="Yaku id from the docs/rules.md table.")
    han: int


class DoraOut(BaseModel):
    model_config = _OUT
    dora: int = 0
    ura: int = 0
    aka: int = 0
    kita: int = 0
    aka5man_bonus: int = 0
    extra: int | None = Field(
        None, description="Ability mahjong: han of the seiryuu's next kan-dora and its ura."
    )


class PaymentOut(BaseModel):
    model_config = _OUT
    from_: str = Field(..., alias="from", description="`discarder`, `dealer` or `child`.")
    amount: int


class WaitHanOut(BaseModel):
    model_config = _OUT
    tile: str
    yaku_han: int


class GuaranteeOut(BaseModel):
    model_config = _OUT
    required: int
    minimum_over_waits: int | None = None
    ok: bool
    waits: list[WaitHanOut] = []


class FuOut(BaseModel):
    model_config = _OUT
    reason: str
    fu: int


class SeiryuuOut(BaseModel):
    model_config = _OUT
    ura: int = Field(..., description="Han of the ura indicators counted only for the seiryuu.")
    extra_dora: int = Field(..., description="Han of the next kan-dora indicator and its ura.")
    han: int = Field(
        ...,
        description="Han the role-only indicators added (0: the next hand's deposit is 4,000).",
    )


class SuzakuOut(BaseModel):
    model_config = _OUT
    payments_before_halving: list[PaymentOut] | None = Field(
        None, description="What the win would pay anyone else (null for a false win)."
    )


class LimitChangeOut(BaseModel):
    model_config = _OUT
    from_: str | None = Field(..., alias="from")
    to: str | None


class ByakkoPaymentOut(BaseModel):
    model_config = _OUT
    to: str = Field(..., description="`dealer` or `child`.")
    seat: str
    amount: int


class ByakkoOut(BaseModel):
    model_config = _OUT
    declared: bool
    upgrade: LimitChangeOut | None = Field(
        None, description="A declared byakko's 6+ han win counted one limit higher."
    )
    mangan_payment: list[ByakkoPaymentOut] = Field(
        [], description="What a declared byakko pays after a win of 5 han or less."
    )
    paid: int = 0


class KanpaOut(BaseModel):
    model_config = _OUT
    tile: str
    discarder_genbu: bool
    refused: bool = Field(..., description="The win is on the kanpa tile the rule forbids.")


class AbilityOut(BaseModel):
    """What the winner's role changed (ability mahjong); present when `role` is given."""

    model_config = _OUT
    role: Role
    seiryuu: SeiryuuOut | None = None
    suzaku: SuzakuOut | None = None
    byakko: ByakkoOut | None = None
    kanpa: KanpaOut | None = None
    net: int = Field(..., description="`total` less the byakko's mangan payment.")


class ResultOut(BaseModel):
    """Result JSON (docs/api.md)."""

    model_config = _OUT
    valid: bool
    reason: str | None = Field(
        None,
        description="`no_win_shape`, `insufficient_yaku`, `furiten`, `yakuman_only`, `kanpa` "
        "(ability mahjong: a win on the kanpa tile).",
    )
    han: int
    yaku_han: int
    fu: int
    limit: str | None = None
    yakuman_multiple: int = 0
    yaku: list[YakuOut] = []
    dora: DoraOut | None = None
    payments: list[PaymentOut] = []
    total: int
    guarantee: GuaranteeOut | None = None
    fu_breakdown: list[FuOut] = []
    ability: AbilityOut | None = None


class WaitOut(BaseModel):
    model_config = _OUT
    tile: str
    yaku_han: int
    valid_ron: bool
    valid_tsumo: bool
    kanpa: bool = Field(False, description="Ability mahjong: the wait is the kanpa tile.")


class TenpaiAbilityOut(BaseModel):
    model_config = _OUT
    role: Role
    kanpa: str | None = None


class TenpaiOut(BaseModel):
    """Tenpai JSON (docs/api.md)."""

    model_config = _OUT
    tenpai: bool
    waits: list[WaitOut] = []
    guarantee_ok: bool
    noten_riichi: bool
    ability: TenpaiAbilityOut | None = None


class AlternativeOut(BaseModel):
    model_config = _OUT
    tile: str
    red: bool
    confidence: float


class TileOut(BaseModel):
    model_config = _OUT
    tile: str = Field(..., description="MPSZ (`0p`/`0s`/`0m` red) or `back`.")
    red: bool
    box: list[float] = Field(..., description="[x1, y1, x2, y2] in pixels of the photo.")
    angle: int = Field(..., description="0 upright, 90 sideways (a called tile).")
    confidence: float
    face_down: bool
    group: str = Field(..., description="`hand`, `win`, `meld`, `kita`, `dora` or `other`.")
    alternatives: list[AlternativeOut] = Field(
        [],
        description="Extension: the classifier's next-best readings, likeliest first "
        "(what the phone page offers first when a tile is corrected).",
    )


class RecognizedHandOut(BaseModel):
    model_config = _OUT
    hand: str
    win: str | None = None
    melds: list[str] = []
    kita: int = 0
    kita_aka: int = 0


class WarningDetailOut(BaseModel):
    model_config = _OUT
    code: str = Field(..., description="Stable code (vision/warning_catalogue.py).")
    params: dict[str, Any] = Field(
        ..., description="What the message names: tiles, confidences, where the tile sits, …"
    )
    message: str = Field(..., description="The English message, as in `warnings`.")


class RecognizeOut(BaseModel):
    """Recognize JSON (docs/api.md)."""

    model_config = _OUT
    tiles: list[TileOut]
    hand: RecognizedHandOut
    warnings: list[str] = []
    warning_details: list[WarningDetailOut] = Field(
        [],
        description="Extension: each warning as a code with parameters, aligned with "
        "`warnings`, for a page to say it in the player's language.",
    )


class PhotoScoreOut(RecognizeOut):
    """Recognize JSON plus the evaluation of the (recognized or corrected) hand.

    ``score`` holds the result JSON when the hand has a winning tile (14 tiles), or the
    tenpai JSON when it has none (13 tiles); ``score_kind`` says which (`result` or
    `tenpai`). When the hand cannot be evaluated (e.g. a misread made a fifth tile),
    ``score`` is null and ``score_error`` says why, so the tiles can still be corrected.
    ``scored_hand`` is the hand JSON that was evaluated (tiles merged with the situation).
    """

    score: ResultOut | TenpaiOut | None = None
    score_kind: Literal["result", "tenpai"] | None = None
    score_error: ErrorDetail | None = None
    scored_hand: dict | None = None


class HealthOut(BaseModel):
    status: Literal["ok"]


class InfoOut(BaseModel):
    """What this server can do, for the page."""

    model_loaded: bool = Field(..., description="Whether the photo endpoints can answer.")
    model_error: str | None = Field(None, description="Why the model is not loaded.")
    max_upload_mb: float
    max_megapixels: float
    games: bool = Field(..., description="Whether the game scoreboard (/v1/games) is served.")
