"""``sanma serve`` against slow and greedy clients: a read deadline (408) and connection caps
(503 at once), while other clients are still answered. A real server in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tmp_path: Path, **env: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sanma_lens.api.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env={
            **os.environ,
            "SANMA_MODELS": str(tmp_path / "no-models"),  # starts in a second, no photos
            "SANMA_DB_PATH": str(tmp_path / "games.sqlite3"),
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start")


def _half_sent(port: int, address: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection((address, port), timeout=10)
    s.sendall(b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    return s


def _answer(s: socket.socket) -> bytes:
    data = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return data
        data += chunk


def test_a_half_sent_request_is_answered_408_and_closed(tmp_path):
    proc, port = start(tmp_path, SANMA_READ_TIMEOUT_S="1")
    try:
        started = time.monotonic()
        s = _half_sent(port)
        silent = socket.create_connection(("127.0.0.1", port), timeout=10)  # sends nothing
        reply = _answer(s)
        assert reply.startswith(b"HTTP/1.1 408") and b"request_timeout" in reply
        assert _answer(silent).startswith(b"HTTP/1.1 408")
        assert time.monotonic() - started < 8
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(10)


def test_connection_caps_refuse_at_once_and_other_clients_are_served(tmp_path):
    proc, port = start(
        tmp_path,
        SANMA_READ_TIMEOUT_S="30",
        SANMA_MAX_CONNECTIONS_PER_CLIENT="5",
        SANMA_MAX_CONNECTIONS="8",
        FORWARDED_ALLOW_IPS="10.9.9.9",  # uvicorn trusts 127.0.0.1 as a proxy by default
    )
    held: list[socket.socket] = []
    try:
        held = [_half_sent(port) for _ in range(5)]  # slowloris from 127.0.0.1
        extra = socket.create_connection(("127.0.0.1", port), timeout=10)
        assert _answer(extra).startswith(b"HTTP/1.1 503")
        # another address (127.0.0.2 is loopback too) still gets /healthz
        other = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0)
        )
        other.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert _answer(other).startswith(b"HTTP/1.1 200")
        # the process-wide cap: 5 held + 3 from elsewhere fill the 8 places
        more = []
        for n in range(3):
            s = socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(f"127.0.0.{3 + n}", 0)
            )
            s.sendall(b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n{")
            more.append(s)
        time.sleep(0.3)
        last = socket.create_connection(
            ("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0)
        )
        assert _answer(last).startswith(b"HTTP/1.1 503")
        held += more
        for s in held:
            s.close()
        time.sleep(0.3)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(10)
