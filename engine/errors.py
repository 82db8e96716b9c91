"""Errors for input that cannot be evaluated (bad JSON, unknown tiles, impossible counts)."""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be read or is impossible; never scored.

    ``code`` is a stable machine-readable string (e.g. ``unknown_tile``, ``fifth_tile``,
    ``tile_count``); ``message`` says in plain words what is wrong and where.
    The CLI turns it into exit status 2 and the API into an HTTP 4xx, both with
    ``{"error": {"code": ..., "message": ...}}``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}
