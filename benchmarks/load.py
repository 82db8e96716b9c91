"""Load test of the HTTP service: requests/s and latency under concurrent clients.

Starts ``uvicorn sanma_lens.api.app:create_app --factory`` (uvloop/httptools when installed) on
a free 127.0.0.1 port, then drives it from a separate process with a small keep-alive HTTP/1.1
client on raw asyncio sockets (cheap, so the client steals little CPU from the server):

- ``/v1/score``: a mix of real hands (ron, tsumo, riichi, melds, kita, dora), 32 clients;
- ``/healthz``: the same, to show the server's own ceiling;
- ``/v1/recognize``: a rendered photo, 4 clients (skipped when no model is loaded), compared
  with the recognizer called directly in one process.

Bounded by time and count; stops by itself. Prints requests/s, p50/p90/p99/max latency and
error counts, and the server's peak memory (VmHWM, one worker). The machine may be shared: the
load average is printed first. The server runs with ``SANMA_RATE_LIMIT=0`` (one address makes
every request here) and, where the checkout has it, ``api.server``'s bounded protocol.

``--root DIR`` serves another checkout's code with this one's client (e.g. a ``git worktree``
of an older commit), so that before and after are measured in one run on one machine;
``--photo-clients 32`` floods the photo queue (each client reconnects after a refusal).

    .venv/bin/python benchmarks/load.py [--workers 1,2] [--seconds 10] [--clients 32]
        [--photo-clients 4] [--photo-mb 14] [--root DIR] [--no-photos]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0]).resolve() == ROOT / "benchmarks":
    sys.path[0] = str(ROOT)  # run as a script: import the packages, not benchmarks/engine.py

HANDS = [
    {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "round": "E", "riichi": "riichi"},
    {
        "hand": "234p456p789s11z22z",
        "win": "1z",
        "seat": "S",
        "tsumo": True,
        "riichi": "riichi",
        "dora": ["1p"],
        "honba": 1,
        "deposits": 1,
    },
    {
        "hand": "123p789p345s66s11z",
        "win": "1z",
        "melds": [],
        "seat": "E",
        "round": "E",
        "riichi": "riichi",
        "kita": 1,
        "dora": ["5s"],
    },
    {"hand": "1199p3355s44677z", "win": "6z", "riichi": "riichi", "seat": "W"},
    {"hand": "234p456p78s11z", "win": "9s", "melds": ["pon:777z"], "kita": 2, "seat": "S"},
    {"hand": "1122334455667p", "win": "7p", "tsumo": True, "seat": "E"},
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def _package_prefix(root: Path) -> str:
    """``sanma_lens.`` for a checkout installed as one package, ``""`` for one from before
    2026-11-27, whose packages were ``api``, ``vision`` and ``engine`` themselves."""
    return "sanma_lens." if "sanma_lens" in (root / "pyproject.toml").read_text() else ""


def start_server(port: int, workers: int, root: Path = ROOT) -> subprocess.Popen:
    prefix = _package_prefix(root)
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        f"{prefix}api.app:create_app",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    if importlib.util.find_spec("uvloop"):
        cmd += ["--loop", "uvloop"]
    if (root / "api" / "server.py").exists():
        cmd += ["--http", f"{prefix}api.server:BoundedHttpProtocol"]
    elif importlib.util.find_spec("httptools"):
        cmd += ["--http", "httptools"]
    env = {**os.environ, "PYTHONPATH": str(root), "SANMA_RATE_LIMIT": "0"}
    proc = subprocess.Popen(cmd, cwd=root, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if _get_json(f"http://127.0.0.1:{port}/healthz") == {"status": "ok"}:
                return proc
        except OSError:
            time.sleep(0.2)
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the server did not start")


# ---------------------------------------------------------------- the client (own process)


def _request(method: str, path: str, body: bytes, content_type: str) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


async def _client(
    port: int,
    reqs: list[bytes],
    stop_at: float,
    max_n: int,
    lat: list[float],
    status: dict[int, int],
    counter: list[int],
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = 0
    try:
        while time.perf_counter() < stop_at and counter[0] < max_n:
            counter[0] += 1
            req = reqs[i % len(reqs)]
            i += 1
            t0 = time.perf_counter()
            try:
                writer.write(req)
                head = await reader.readuntil(b"\r\n\r\n")
                code = int(head[9:12])
                length = 0
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:":
                        length = int(line[15:])
                await reader.readexactly(length)
            except (OSError, asyncio.IncompleteReadError):
                # a refusal before the upload was read may reset the connection mid-write
                status[-1] = status.get(-1, 0) + 1
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                continue
            lat.append(time.perf_counter() - t0)
            status[code] = status.get(code, 0) + 1
            lower = head.lower()
            if b"connection: close" in lower:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if code in (429, 503) and b"\r\nretry-after:" in lower:
                # a well-behaved client waits as told before it tries again
                wait = float(lower.split(b"\r\nretry-after:")[1].split(b"\r\n")[0])
                await asyncio.sleep(min(wait, max(0.0, stop_at - time.perf_counter())))
    except OSError as exc:
        status[-1] = status.get(-1, 0) + 1
        print(f"  client error: {exc!r}", file=sys.stderr)
    finally:
        writer.close()


async def _drive(port: int, reqs: list[bytes], clients: int, seconds: float, max_n: int) -> dict:
    # warm-up (not counted)
    warm: list[float] = []
    await asyncio.gather(
        *(
            _client(port, reqs, time.perf_counter() + 1.0, 200, warm, {}, [0])
            for _ in range(min(clients, 4))
        )
    )
    lat: list[float] = []
    status: dict[int, int] = {}
    counter = [0]
    t0 = time.perf_counter()
    await asyncio.gather(
        *(_client(port, reqs, t0 + seconds, max_n, lat, status, counter) for _ in range(clients))
    )
    wall = time.perf_counter() - t0
    lat.sort()

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "n": len(lat),
        "wall_s": wall,
        "rps": len(lat) / wall,
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": 1000 * lat[-1] if lat else 0,
        "status": status,
    }


def _drive_process(args: tuple) -> dict:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(_drive(*args))


def run_load(port: int, reqs: list[bytes], clients: int, seconds: float, max_n: int) -> dict:
    """Drive the server from another process (the client does not share the server's loop)."""
    with mp.get_context("spawn").Pool(1) as pool:
        return pool.apply(_drive_process, ((port, reqs, clients, seconds, max_n),))


# ---------------------------------------------------------------- photos


def _photo() -> tuple[bytes, str]:
    import cv2
    import numpy as np

    try:
        from datasets.synth.scene import render_scene

        img = render_scene(np.random.default_rng(3), size=(1280, 960)).image
        what = "rendered 1280×960 scene"
    except Exception as exc:  # noqa: BLE001 - renderer or its face bank missing
        img = np.full((960, 1280, 3), 90, np.uint8)
        what = f"plain 1280×960 image (renderer unavailable: {exc})"
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes(), what


def _multipart(data: bytes) -> tuple[bytes, str]:
    boundary = "sanmaLoadBoundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="p.jpg"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def _direct_recognition(data: bytes, n: int) -> float:
    """Photos/s of the recognizer called directly, one at a time, in this process."""
    from sanma_lens.vision.pipeline import default_recognizer

    rec = default_recognizer()
    rec.recognize_bytes(data)
    t0 = time.perf_counter()
    for _ in range(n):
        rec.recognize_bytes(data)
    return n / (time.perf_counter() - t0)


def _print(name: str, r: dict) -> None:
    ok = sum(v for k, v in r["status"].items() if 200 <= k < 300)
    errors = r["n"] - ok + r["status"].get(-1, 0)
    print(
        f"{name:<34} {r['rps']:>8.1f} req/s  {ok / r['wall_s']:>8.1f} ok/s  "
        f"p50 {r['p50_ms']:6.1f} ms  "
        f"p90 {r['p90_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms  "
        f"n={r['n']} errors={errors} status={dict(sorted(r['status'].items()))}"
    )


def _peak_memory_mb(pid: int) -> float:
    """VmHWM of a process (its peak resident memory), in MB; 0 where /proc cannot say."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _serve_and_drive(args: argparse.Namespace, workers: int, photos: bool) -> None:
    port = _free_port()
    server = start_server(port, workers, Path(args.root).resolve())
    try:
        info = _get_json(f"http://127.0.0.1:{port}/v1/info")
        print(
            f"== server: {workers} worker(s), uvloop={bool(importlib.util.find_spec('uvloop'))}"
            f" httptools={bool(importlib.util.find_spec('httptools'))}"
            f" model_loaded={info['model_loaded']} loadavg={os.getloadavg()}"
        )
        score_reqs = [
            _request("POST", "/v1/score", json.dumps(h).encode(), "application/json") for h in HANDS
        ]
        health = [_request("GET", "/healthz", b"", "")]
        _print(
            f"GET /healthz x{args.clients}",
            run_load(port, health, args.clients, args.seconds, args.max_requests),
        )
        _print(
            f"POST /v1/score x{args.clients}",
            run_load(port, score_reqs, args.clients, args.seconds, args.max_requests),
        )
        if not photos:
            return
        if not info["model_loaded"]:
            print(f"POST /v1/recognize: skipped (no model: {info['model_error']})")
            return
        data, what = _photo()
        if args.photo_mb:  # bytes after the JPEG's end: the same photo, a bigger upload
            data += b"\0" * max(0, int(args.photo_mb * 1024 * 1024) - len(data))
            what += f", padded to {args.photo_mb:g} MB"
        body, ctype = _multipart(data)
        photo_req = [_request("POST", "/v1/recognize", body, ctype)]
        print(f"photo: {what}, {len(data) // 1024} KiB")
        r = run_load(port, photo_req, args.photo_clients, max(args.seconds, 15), 20_000)
        _print(f"POST /v1/recognize x{args.photo_clients}", r)
        if workers == 1:
            print(f"server peak memory (VmHWM): {_peak_memory_mb(server.pid):.0f} MB")
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    ok_rate = sum(v for k, v in r["status"].items() if 200 <= k < 300) / r["wall_s"]
    direct = _direct_recognition(data, 10)
    print(
        f"recognizer called directly in one process, one photo at a time: {direct:.2f} photos/s"
        f" (over HTTP, {workers} worker(s), {args.photo_clients} clients: {ok_rate:.2f} photos/s"
        " recognized)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="2", help="worker counts to try, e.g. 1,2")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--photo-clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--max-requests", type=int, default=200_000)
    ap.add_argument("--no-photos", action="store_true", help="skip /v1/recognize")
    ap.add_argument("--root", default=str(ROOT), help="checkout whose server code is run")
    ap.add_argument(
        "--photo-mb", type=float, default=0, help="pad the photo upload to this many MB"
    )
    args = ap.parse_args(argv)

    print(f"cpus={os.cpu_count()} loadavg={os.getloadavg()} (the machine may be shared)")
    print(f"server code: {Path(args.root).resolve()}")
    counts = [int(w) for w in str(args.workers).split(",") if w.strip()]
    for k, workers in enumerate(counts):
        _serve_and_drive(args, workers, photos=not args.no_photos and k == len(counts) - 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
