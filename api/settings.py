"""Service settings, read once from the environment at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass

from sanma_lens.vision.decode import MAX_PIXELS as DECODER_MAX_PIXELS

MB = 1024 * 1024


def _env_number(name: str, default: float, zero_is_off: bool = False) -> float:
    """A positive number from the environment (0 too where it turns a limit off)."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {raw!r}") from exc
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be a finite number, got {raw!r}")
    if value < 0 or (value == 0 and not zero_is_off):
        also = " or 0 (off)" if zero_is_off else ""
        raise ValueError(f"{name} must be positive{also}, got {raw!r}")
    return value


def _env_names(name: str) -> tuple[str, ...]:
    raw = os.environ.get(name, "")
    return tuple(part.strip() for part in raw.split(",") if part.strip())


@dataclass(frozen=True)
class Settings:
    """Limits of the HTTP service.

    - ``max_upload_bytes``: largest multipart body (photo + fields); env ``SANMA_MAX_UPLOAD_MB``
      (default 15).
    - ``max_json_bytes``: largest JSON body of ``/v1/score`` and ``/v1/tenpai``; env
      ``SANMA_MAX_JSON_KB`` (default 256).
    - ``max_pixels``: largest photo, width × height, checked from the file header before
      decoding; env ``SANMA_MAX_MEGAPIXELS`` (default 50, the vision decoder's own limit, which
      a setting may lower but not raise: a larger value is refused at start-up).
    - ``recognize_concurrency``: photos recognised at once per process (the rest queue);
      env ``SANMA_RECOGNIZE_CONCURRENCY`` (default: half the CPU cores, at least 1, since
      each recognition already runs the models on 2 threads).
    - ``max_photo_queue``: photos waiting for their turn before new ones get a quick 503
      ``busy`` (memory stays bounded under a flood); env ``SANMA_MAX_PHOTO_QUEUE`` (16).
    """

    max_upload_bytes: int = 15 * MB
    max_json_bytes: int = 256 * 1024
    max_pixels: int = 50_000_000
    recognize_concurrency: int = 1
    max_photo_queue: int = 16
    read_timeout_s: float = 30.0
    max_connections: int = 512
    max_connections_per_client: int = 32
    rate_limit_per_minute: int = 600
    games_per_hour: int = 60
    max_events_per_game: int = 1000
    max_event_bytes: int = 16 * 1024
    allowed_hosts: tuple[str, ...] = ()

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            max_upload_bytes=int(_env_number("SANMA_MAX_UPLOAD_MB", 15) * MB),
            max_json_bytes=int(_env_number("SANMA_MAX_JSON_KB", 256) * 1024),
            max_pixels=_max_pixels(),
            recognize_concurrency=int(
                _env_number("SANMA_RECOGNIZE_CONCURRENCY", max(1, (os.cpu_count() or 2) // 2))
            ),
            max_photo_queue=int(_env_number("SANMA_MAX_PHOTO_QUEUE", 16)),
            read_timeout_s=_env_number("SANMA_READ_TIMEOUT_S", 30),
            max_connections=int(_env_number("SANMA_MAX_CONNECTIONS", 512)),
            max_connections_per_client=int(
                _env_number("SANMA_MAX_CONNECTIONS_PER_CLIENT", 32, zero_is_off=True)
            ),
            rate_limit_per_minute=int(_env_number("SANMA_RATE_LIMIT", 600, zero_is_off=True)),
            games_per_hour=int(_env_number("SANMA_MAX_GAMES_PER_HOUR", 60, zero_is_off=True)),
            max_events_per_game=int(_env_number("SANMA_MAX_EVENTS_PER_GAME", 1000)),
            max_event_bytes=int(_env_number("SANMA_MAX_EVENT_KB", 16) * 1024),
            allowed_hosts=_env_names("SANMA_ALLOWED_HOSTS"),
        )


def _max_pixels() -> int:
    """``SANMA_MAX_MEGAPIXELS`` in pixels. The decoder refuses bigger photos whatever the
    setting (their pixels cost memory before any check could help), so a value above its limit
    would promise what the service does not do: it is an error, not silently ignored."""
    pixels = int(_env_number("SANMA_MAX_MEGAPIXELS", DECODER_MAX_PIXELS / 1e6) * 1_000_000)
    if pixels > DECODER_MAX_PIXELS:
        raise ValueError(
            f"SANMA_MAX_MEGAPIXELS may lower the photo decoder's limit of "
            f"{DECODER_MAX_PIXELS / 1e6:g} megapixels, not raise it"
        )
    return pixels
