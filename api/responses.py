"""The JSON answer of the HTTP API, written by :func:`sanma_lens.api.jsonio.dumps` (orjson).

Apart from ``jsonio`` so that the CLI, which reads and writes JSON too, does not import the
web framework at start-up (70 ms of every ``sanma score``)."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from sanma_lens.api.jsonio import dumps


class JsonResponse(JSONResponse):
    """A JSON answer written by orjson (starlette's own uses ``json.dumps``)."""

    def render(self, content: Any) -> bytes:
        return dumps(content)
