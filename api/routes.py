"""Thin routers: HTTP in, ``engine.service`` / ``vision.pipeline`` calls, JSON out."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError

from sanma_lens.api import jsonio, schemas
from sanma_lens.api.errors import ServiceError
from sanma_lens.api.responses import JsonResponse
from sanma_lens.api.services import Services, services
from sanma_lens.api.uploads import check_image
from sanma_lens.engine.errors import InputError
from sanma_lens.engine.parse import check_situation, check_tiles

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorOut, "description": "Malformed JSON or request."},
    403: {"model": schemas.ErrorOut, "description": "A write from a page of another site."},
    413: {"model": schemas.ErrorOut, "description": "Body larger than the limit."},
    422: {"model": schemas.ErrorOut, "description": "Wrong types, unknown tiles, impossible hand."},
    429: {
        "model": schemas.ErrorOut,
        "description": "Too many requests from this address (see Retry-After).",
    },
}
PHOTO_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    415: {"model": schemas.ErrorOut, "description": "The upload is not a JPEG/PNG/WebP image."},
    503: {
        "model": schemas.ErrorOut,
        "description": "The recognition model is not loaded, or the photo queue is full.",
    },
}
TILE_FIELDS = ("hand", "win", "melds", "kita", "kita_aka")
IN_MEMORY_PHOTO = 1024 * 1024  # smaller photos wait in memory (starlette spools larger to disk)

PhotoFile = Annotated[
    UploadFile, File(description="JPEG, PNG or WebP photo of one player's tiles.")
]
# The JSON fields are read as text or as a file part: `requests`/`httpx` send a plain string
# given in `files=` (and `curl -F situation=@sit.json` sends a file) as a part with a filename.
SituationForm = Annotated[
    str | UploadFile,
    Form(
        description="JSON object: the hand JSON fields other than the tiles "
        "(tsumo, seat, round, riichi, dora, honba, …); a text field or a file part."
    ),
]
HandForm = Annotated[
    str | UploadFile | None,
    Form(
        description="Optional JSON object of corrected tiles (hand, win, melds, kita, "
        "kita_aka, dora; no other field) to score instead of what was recognized; a text "
        "field or a file part. Unknown fields and unreadable tiles are a 422."
    ),
]


class StrictJsonRequest(Request):
    """A request whose JSON body is read by :func:`api.jsonio.loads_bounded`: no NaN or
    Infinity, no number past a double, at most ``jsonio.MAX_DEPTH`` deep (pydantic fails at
    255 levels when it writes a model back out, which was a 500)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            # FastAPI turns this InputError into a 400 whose cause api.errors answers with
            self._json = jsonio.loads_bounded(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """An APIRoute whose handler reads JSON bodies with :class:`StrictJsonRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict


router = APIRouter(route_class=StrictJsonRoute)
# Opt-in: the explanation reads the hand a second time (engine.explain).
ExplainQuery = Annotated[
    bool,
    Query(
        description="Add `explain` to the result: the chosen split into sets, the wait, the "
        "yakuhai tiles, each payment before and after rounding with the tsumo bonus and honba "
        "apart, and a false win's reason and failing waits (engine/explain.py)."
    ),
]


@router.get("/healthz", response_model=schemas.HealthOut, tags=["service"])
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/v1/info", response_model=schemas.InfoOut, tags=["service"])
async def info(request: Request) -> dict[str, Any]:
    """What this server offers (model loaded, limits, game scoreboard)."""
    svc = services(request.app)
    return {
        "model_loaded": svc.recognizer is not None,
        "model_error": svc.recognizer_error,
        "max_upload_mb": svc.settings.max_upload_bytes / (1024 * 1024),
        "max_megapixels": svc.settings.max_pixels / 1e6,
        "games": svc.games,
    }


@router.post(
    "/v1/score",
    response_model=None,
    responses={200: {"model": schemas.ResultOut}, **ERRORS},
    tags=["hands"],
)
async def score(hand: schemas.HandIn, explain: ExplainQuery = False) -> JsonResponse:
    """Score a hand JSON (docs/api.md) → result JSON. A non-winning hand is still a 200
    result with `valid: false`; unreadable input is a 4xx error."""
    return JsonResponse(_scorer(explain)(_plain(hand)))


@router.post(
    "/v1/tenpai",
    response_model=None,
    responses={200: {"model": schemas.TenpaiOut}, **ERRORS},
    tags=["hands"],
)
async def tenpai(hand: schemas.HandIn) -> JsonResponse:
    """Waits of a 13-tile hand (hand JSON without `win`) → tenpai JSON."""
    from sanma_lens.engine.service import tenpai_json

    return JsonResponse(tenpai_json(_plain(hand)))


@router.post(
    "/v1/recognize",
    response_model=None,
    responses={200: {"model": schemas.RecognizeOut}, **PHOTO_ERRORS},
    tags=["photos"],
)
async def recognize(
    request: Request,
    image: PhotoFile,
) -> JsonResponse:
    """Recognize the tiles in a photo → recognize JSON (tiles, rebuilt hand, warnings)."""
    await _single_parts(request, ("image",))
    svc = services(request.app)
    data = await _read_photo(image, svc)
    return JsonResponse(await svc.recognize(data))


@router.post(
    "/v1/photo/score",
    response_model=None,
    responses={200: {"model": schemas.PhotoScoreOut}, **PHOTO_ERRORS},
    tags=["photos"],
)
async def photo_score(
    request: Request,
    image: PhotoFile,
    situation: SituationForm = "{}",
    hand: HandForm = None,
    explain: ExplainQuery = False,
) -> JsonResponse:
    """Recognize a photo and evaluate it: recognize JSON + `score` (see PhotoScoreOut).

    14 tiles (a winning tile found) → `score` is the result JSON; 13 tiles → the tenpai
    JSON (waits with their value); `score_kind` says which."""
    await _single_parts(request, ("image", "situation", "hand"))
    situation_obj = _json_form(await _form_text(situation), "situation", schemas.SituationIn)
    # a situation that is wrong whatever the tiles (unknown field, seat N in sanma, a 2m dora)
    # is the client's error: a 4xx before the photo is read, not a score_error beside it
    check_situation(situation_obj)
    override = None
    if hand is not None:
        override = _json_form(await _form_text(hand), "hand", schemas.TilesOverrideIn)
        # likewise corrected tiles that cannot be read (an unknown field, a 2m, a bad meld):
        # a 4xx as in /v1/score, not a 200 with a score_error; counts stay the score_error
        try:
            check_tiles(override, situation_obj.get("rules"))
        except InputError as exc:
            raise InputError(exc.code, f"hand: {exc.message}") from exc
    svc = services(request.app)
    data = await _read_photo(image, svc)
    recognized = await svc.recognize(data)
    tiles = override if override is not None else dict(recognized.get("hand") or {})
    # The situation's fields win over the photo's (its dora list replaces dora read from it).
    merged = {**tiles, **{k: v for k, v in situation_obj.items() if k not in TILE_FIELDS}}
    return JsonResponse({**recognized, **evaluate(merged, explain)})


def _scorer(explain: bool) -> Any:
    """``engine.service.score_json``, or with ``explain`` its explained form."""
    if explain:
        from sanma_lens.engine.explain import explained_score

        return explained_score
    from sanma_lens.engine.service import score_json

    return score_json


def evaluate(hand: dict[str, Any], explain: bool = False) -> dict[str, Any]:
    """Score a hand with a winning tile, or list the waits of one without; errors as data."""
    from sanma_lens.engine.service import tenpai_json

    kind = "result" if hand.get("win") else "tenpai"
    if kind == "tenpai":
        hand = {k: v for k, v in hand.items() if k != "win"}
    try:
        result = _scorer(explain)(hand) if kind == "result" else tenpai_json(hand)
    except InputError as exc:
        return {
            "score": None,
            "score_kind": None,
            "score_error": {"code": exc.code, "message": exc.message},
            "scored_hand": hand,
        }
    return {"score": result, "score_kind": kind, "score_error": None, "scored_hand": hand}


def _plain(model: schemas.BaseModel) -> dict[str, Any]:
    """The fields the client sent (plus unknown extras), as plain JSON values."""
    return model.model_dump(mode="json", exclude_unset=True)


async def _form_text(value: str | UploadFile) -> str | bytes:
    """A form field's text, or a file part's bytes (json.loads reads UTF-8 bytes itself)."""
    return value if isinstance(value, str) else await value.read()


def _json_form(text: str | bytes, field: str, model: type[schemas.BaseModel]) -> dict[str, Any]:
    """A form field holding a JSON object, type-checked with ``model``."""
    obj = jsonio.loads_bounded(text, f"form field {field!r}")
    if not isinstance(obj, dict):
        raise InputError("invalid_request", f"form field {field!r} must be a JSON object")
    try:
        return _plain(model.model_validate(obj))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError("invalid_request", f"{field}.{loc}: {first['msg']}") from exc


async def _single_parts(request: Request, names: tuple[str, ...]) -> None:
    """Refuse a form that repeats one of ``names``: with two ``image`` parts the last one
    silently won, which was not always the photo the client meant."""
    form = await request.form()  # already parsed for the endpoint's parameters: no re-read
    for name in names:
        if len(form.getlist(name)) > 1:
            raise InputError("duplicate_field", f"the form has more than one {name!r} part")


async def _read_photo(image: UploadFile, svc: Services) -> Callable[[], bytes]:
    """Check the upload (type by magic bytes, pixels, completeness) and answer how to read it
    when its turn comes. A photo waits in the queue as the form's temporary file (on disk past
    1 MB), not as bytes in memory: 16 queued 14 MB uploads held 224 MB."""
    data = await image.read()
    if len(data) > svc.settings.max_upload_bytes:  # the middleware caps the body already
        raise ServiceError(413, "upload_too_large", "the photo is larger than the upload limit")
    check_image(data, svc.settings.max_pixels)
    if len(data) <= IN_MEMORY_PHOTO:
        small = data
        return lambda: small
    del data  # a large photo is read again from its file
    upload = image.file

    def read_again() -> bytes:
        upload.seek(0)
        return upload.read()

    return read_again
