"""The built wheel, installed in a fresh virtual environment outside the checkout, works:
it holds every model with its card, every page and every module (the migrations are code in
``api/storage.py``), and there ``sanma score``, ``sanma recognize`` and ``sanma serve``
answer as the checkout does.

Runs when ``SANMA_WHEEL`` names a built wheel (``scripts/test`` builds one with
``pip wheel --no-deps .``); the fresh environment installs it with its dependencies.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
WHEEL = os.environ.get("SANMA_WHEEL", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not WHEEL, reason="SANMA_WHEEL names no built wheel (scripts/test)"),
]

HAND = {"hand": "234p456p789s11z22z", "win": "2z", "seat": "S", "round": "E", "riichi": "riichi"}


@dataclass(frozen=True)
class Installed:
    """The fresh environment: its folder, its python, and a work folder outside the checkout."""

    venv: Path
    work: Path

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def sanma(self) -> str:
        return str(self.venv / "bin" / "sanma")

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "SANMA_MODELS", "SANMA_PURE_PYTHON", "VIRTUAL_ENV")
        }
        env["SANMA_DB_PATH"] = str(self.work / "games.sqlite3")
        return {**env, **extra}

    def run(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(args),
            input=stdin,
            cwd=self.work,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    assert ROOT not in base.parents
    venv, work = base / "venv", base / "work"
    work.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", WHEEL],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert pip.returncode == 0, pip.stderr[-3000:]
    return Installed(venv, work)


def _checkout_files() -> set[str]:
    """What the wheel must hold, as paths inside it: every module, page, model and card."""
    wanted = set()
    for folder in ("engine", "vision", "api"):
        for path in (ROOT / folder).rglob("*"):
            if (
                path.is_file()
                and "__pycache__" not in path.parts
                and (path.suffix == ".py" or path.is_relative_to(ROOT / "api" / "web"))
            ):
                wanted.add(f"sanma_lens/{path.relative_to(ROOT)}")
    for path in (ROOT / "models").iterdir():
        if path.suffix in (".onnx", ".md"):
            wanted.add(f"sanma_lens/models/{path.name}")
    return wanted


def test_the_wheel_holds_every_model_card_page_and_module() -> None:
    held = set(zipfile.ZipFile(WHEEL).namelist())
    missing = sorted(_checkout_files() - held)
    assert missing == []
    assert any(name.startswith("sanma_lens/models/") and name.endswith(".onnx") for name in held)
    # one top-level package (and the compiled engine's shared library, named after it)
    tops = {name.split("/")[0] for name in held}
    assert all(
        top == "sanma_lens"
        or top.startswith("sanma_lens_engine__mypyc.")
        or top.endswith(".dist-info")
        for top in tops
    ), tops


def test_installed_package_stands_alone_with_its_models_and_migrations(
    installed: Installed,
) -> None:
    probe = installed.run(
        installed.python,
        "-c",
        """
import importlib.util, json
from importlib import resources
from sanma_lens.api.storage import MIGRATIONS
from sanma_lens.engine import native
from sanma_lens.vision.models import models_folder
print(json.dumps({
    "models": str(models_folder()), "compiled": native.COMPILED,
    "stray": [n for n in ("engine", "vision", "api") if importlib.util.find_spec(n)],
    "migrations": MIGRATIONS,
}))
""",
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert Path(found["models"]).is_relative_to(installed.venv)
    assert found["stray"] == []
    from sanma_lens.api.storage import MIGRATIONS

    assert found["migrations"] == json.loads(json.dumps(MIGRATIONS))
    compiled = any(n.endswith(".so") for n in zipfile.ZipFile(WHEEL).namelist())
    assert found["compiled"] is compiled


def test_installed_sanma_score(installed: Installed) -> None:
    from sanma_lens.engine.service import score_json

    done = installed.run(installed.sanma, "score", stdin=json.dumps(HAND))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(score_json(HAND)))


@pytest.fixture(scope="module")
def photo(installed: Installed) -> tuple[Path, dict[str, object]]:
    """A rendered photo, and what the checkout's recognizer answers for it."""
    from datasets.synth.scene import render_scene
    from sanma_lens.vision.pipeline import Recognizer

    scene = render_scene(np.random.default_rng(11), size=(1280, 960))
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    path = installed.work / "hand.jpg"
    path.write_bytes(buf.tobytes())
    expected = json.loads(json.dumps(Recognizer().recognize_bytes(buf.tobytes())))
    assert expected["tiles"]
    return path, expected


def test_installed_sanma_recognize_reads_a_rendered_photo(
    installed: Installed, photo: tuple[Path, dict[str, object]]
) -> None:
    path, expected = photo
    done = installed.run(installed.sanma, "recognize", path.name, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _request(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@pytest.fixture(scope="module")
def server(installed: Installed) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [installed.sanma, "serve", "--port", str(port)],
        cwd=installed.work,
        env=installed.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if _request(f"{url}/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "sanma serve did not answer /healthz"
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_installed_sanma_serve_answers_healthz_pages_recognize_and_games(
    server: str, photo: tuple[Path, dict[str, object]]
) -> None:
    status, body = _request(f"{server}/healthz")
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    status, body = _request(f"{server}/v1/info")
    assert status == 200 and json.loads(body)["model_loaded"] is True
    for page in ("/", "/docs"):
        status, body = _request(f"{server}{page}")
        assert status == 200 and b"<html" in body.lower(), page

    path, expected = photo
    boundary = uuid.uuid4().hex
    form = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; '
        f'filename="hand.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
    ).encode()
    form += path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    status, body = _request(
        f"{server}/v1/recognize",
        form,
        {"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    assert status == 200, body[:500]
    assert json.loads(body) == expected

    # a new game writes to a new SQLite database: every migration runs there
    status, body = _request(f"{server}/v1/games", b"{}", {"Content-Type": "application/json"})
    assert status == 201, body[:500]
    game = json.loads(body)
    status, body = _request(f"{server}/v1/games/{game['id']}")
    assert status == 200 and json.loads(body)["id"] == game["id"]
