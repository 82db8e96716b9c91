"""The ``sanma`` command: score, tenpai, recognize, serve (shared/CONTRACT.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from engine.errors import InputError

EXIT_BAD_INPUT = 2


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


def _read_text(path: str | None) -> str:
    if path is None or path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise InputError("unreadable_file", f"cannot read {path}: {exc.strerror}") from exc


def _parse_json(text: str, where: str = "input") -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            "bad_json", f"{where} is not valid JSON: {exc.msg} at {exc.lineno}:{exc.colno}"
        ) from exc


def _run_one(fn: Callable[[Any], dict[str, Any]], path: str | None, out: TextIO) -> int:
    try:
        _emit(fn(_parse_json(_read_text(path))), out)
        return 0
    except InputError as exc:
        _emit(exc.to_json(), out)
        return EXIT_BAD_INPUT


class Progress:
    """``done/total what`` on stderr, at most a few times a second, so stdout stays pure JSON.

    Shown when asked (``--progress``) or when stderr is a terminal; silent otherwise, so pipes
    and scripts see nothing extra.
    """

    def __init__(self, total: int, what: str, shown: bool) -> None:
        self.total, self.what, self.shown = total, what, shown
        self.done = 0
        self._last = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.shown and (now - self._last >= 0.25 or self.done == self.total):
            self._last = now
            end = "\n" if self.done == self.total else ""
            sys.stderr.write(f"\r{self.done}/{self.total} {self.what}{end}")
            sys.stderr.flush()


def _show_progress(args: argparse.Namespace) -> bool:
    return bool(args.progress) or sys.stderr.isatty()


def _run_batch(
    fn: Callable[[Any], dict[str, Any]], lines: Iterable[str], out: TextIO, progress: Progress
) -> int:
    """JSON Lines in, JSON Lines out, same order; a bad line gets an error object, exit 2."""
    status = 0
    for n, line in enumerate(lines, start=1):
        progress.step()
        if not line.strip():
            continue
        try:
            _emit(fn(_parse_json(line, f"line {n}")), out)
        except InputError as exc:
            _emit(exc.to_json(), out)
            status = EXIT_BAD_INPUT
    return status


def _json_command(fn: Callable[[Any], dict[str, Any]], args: argparse.Namespace) -> int:
    """One hand JSON (or JSON Lines with ``--batch``) through ``fn``, results to stdout."""
    if not args.batch:
        return _run_one(fn, args.file, sys.stdout)
    try:
        text = _read_text(args.file)
    except InputError as exc:
        _emit(exc.to_json(), sys.stdout)
        return EXIT_BAD_INPUT
    lines = text.splitlines()
    progress = Progress(len(lines), "lines", _show_progress(args))
    return _run_batch(fn, lines, sys.stdout, progress)


def _cmd_score(args: argparse.Namespace) -> int:
    from engine.service import score_json

    return _json_command(score_json, args)


def _cmd_tenpai(args: argparse.Namespace) -> int:
    from engine.service import tenpai_json

    return _json_command(tenpai_json, args)


def _cmd_recognize(args: argparse.Namespace) -> int:
    from vision.pipeline import recognize_path

    status = 0
    several = len(args.photos) > 1
    progress = Progress(len(args.photos), "photos", several and _show_progress(args))
    for path in args.photos:
        progress.step()
        try:
            result = recognize_path(path)
        except InputError as exc:
            result = exc.to_json()
            status = EXIT_BAD_INPUT
        if several:
            result = {"image": path, **result}
        if args.json or several:
            _emit(result, sys.stdout)
        else:
            _print_recognition(result)
    return status


def _print_recognition(result: dict[str, Any]) -> None:
    if "error" in result:
        _emit(result, sys.stdout)
        return
    hand = result.get("hand", {})
    print("hand:", hand.get("hand", ""), " win:", hand.get("win") or "-")
    if hand.get("melds"):
        print("melds:", " ".join(hand["melds"]))
    if hand.get("kita"):
        print("kita:", hand["kita"], f"(aka-5-man {hand.get('kita_aka', 0)})")
    for w in result.get("warnings", []):
        print("warning:", w)


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run("api.app:create_app", factory=True, host=args.host, port=args.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sanma", description="Sanma scoring and recognition.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("score", help="score a hand given as JSON")
    p.add_argument("file", nargs="?", help="hand JSON (default: stdin)")
    p.add_argument("--batch", action="store_true", help="JSON Lines in, JSON Lines out")
    p.add_argument("--progress", action="store_true", help="count lines done on stderr")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("tenpai", help="waits of a 13-tile hand given as JSON")
    p.add_argument("file", nargs="?", help="hand JSON without win (default: stdin)")
    p.add_argument("--batch", action="store_true", help="JSON Lines in, JSON Lines out")
    p.add_argument("--progress", action="store_true", help="count lines done on stderr")
    p.set_defaults(func=_cmd_tenpai)

    p = sub.add_parser("recognize", help="recognize the tiles in photos")
    p.add_argument("photos", nargs="+", help="JPEG/PNG files")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines for several)")
    p.add_argument("--progress", action="store_true", help="count photos done on stderr")
    p.set_defaults(func=_cmd_recognize)

    p = sub.add_parser("serve", help="run the HTTP API and the phone page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=_cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
