"""``sanma serve --workers 2`` on one PostgreSQL: concurrent appends from many clients, one
worker killed with SIGKILL mid-way; no acknowledged hand lost, none recorded twice."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DRAW = json.dumps({"outcome": "draw", "tenpai": [0, 1, 2]}).encode()  # changes no score


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=body,
        method=method,
        headers={"content-type": "application/json", "connection": "close"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _workers(pid: int) -> list[int]:
    """The supervisor's worker processes (not multiprocessing's resource tracker)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    pids = [int(p) for p in children.read_text().split()] if children.exists() else []
    out = []
    for child in pids:
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            out.append(child)
    return out


@pytest.fixture
def server(db_url, tmp_path):
    if not db_url.startswith("postgresql"):
        pytest.skip("several workers share a PostgreSQL database")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sanma_lens.api.cli", "serve"]
        + ["--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": db_url,
            "SANMA_MODELS": str(tmp_path / "no-models"),
            "SANMA_RATE_LIMIT": "0",
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and len(_workers(proc.pid)) < 2:
        time.sleep(0.2)
    while time.monotonic() < deadline:
        try:
            if _call(port, "GET", "/healthz")[0] == 200:
                break
        except OSError:
            time.sleep(0.2)
    yield proc, port
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_two_workers_one_killed_no_hand_lost_or_doubled(server):
    proc, port = server
    status, game = _call(port, "POST", "/v1/games", b"{}")
    assert status == 201, game
    acknowledged: list[int] = []  # the seq each 200 answered with
    refused: list[int] = []
    unanswered = [0]  # requests cut off with the killed worker: stored or not, never both
    lock = threading.Lock()

    def client(n_hands: int, with_seq: bool) -> None:
        for _ in range(n_hands):
            body = DRAW
            if with_seq:
                try:
                    seq = _call(port, "GET", f"/v1/games/{game['id']}")[1]["seq"]
                except (OSError, KeyError):
                    continue
                body = json.dumps({"outcome": "draw", "tenpai": [0, 1, 2], "seq": seq}).encode()
            try:
                code, answer = _call(port, "POST", f"/v1/games/{game['id']}/hands", body)
            except OSError:
                with lock:
                    unanswered[0] += 1
                continue
            with lock:
                (acknowledged if code == 200 else refused).append(
                    answer["seq"] if code == 200 else code
                )

    threads = [threading.Thread(target=client, args=(12, n % 2 == 0)) for n in range(8)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    victims = _workers(proc.pid)
    assert len(victims) == 2
    os.kill(victims[0], signal.SIGKILL)
    for t in threads:
        t.join(120)

    # the supervisor starts a new worker; the game answers from either
    status, final = _call(port, "GET", f"/v1/games/{game['id']}")
    assert status == 200, final
    stored = final["hand_count"]
    assert len(set(acknowledged)) == len(acknowledged), "two answers for one event"
    assert max(acknowledged) <= final["seq"]
    assert len(acknowledged) <= stored <= len(acknowledged) + unanswered[0]
    assert set(refused) <= {409}  # only stale seq given by a client
    assert [h["seq"] for h in final["hands"]] == list(range(1, stored + 1))
    assert len(acknowledged) > 40  # the load went on through the kill
