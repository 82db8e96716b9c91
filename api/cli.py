"""The ``sanma`` command: score, tenpai, recognize, serve (docs/api.md)."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import select
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import orjson

from sanma_lens.api import jsonio
from sanma_lens.engine.errors import InputError

# hand JSON flags that ``sanma score --photo`` takes as options (docs/api.md)
SITUATION_FLAGS = (
    "ippatsu", "haitei", "houtei", "rinshan", "kanburi", "chankan", "tenhou", "chihou",
    "renhou", "first_draw", "discarder_riichi",
)  # fmt: skip
RIICHI_CHOICES = ("none", "riichi", "double", "open", "double_open")

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1  # not in docs/api.md (0 and 2 are): a failure of ours, never bad input
EXIT_BROKEN_PIPE = 128 + 13  # a shell's status for a process ended by SIGPIPE (13)
#: the garbage collector's youngest-generation threshold during a batch (Python's is 700).
#: A line's objects die by reference counting as soon as it is answered, so a collection
#: finds almost nothing to free, yet at 700 allocations it ran several times a hand; every
#: 100,000 it runs once in a few dozen hands, and garbage in cycles, if a line ever makes
#: any, is still freed within that many allocations: memory stays bounded.
BATCH_GC_THRESHOLD = 100_000


def _emit(obj: Any, out: TextIO) -> None:
    out.write(jsonio.dumps(obj).decode() + "\n")


def _line_writer(out: TextIO) -> Callable[[Any], None]:
    """Writes one JSON line to ``out``: as bytes to its buffer when it has one (no decoding
    and re-encoding of every line), else as text."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        return lambda obj: _emit(obj, out)
    out.flush()  # what went through the text layer first stays first
    return jsonio.line_writer(buffer.write)


def _read_text(path: str | None) -> str:
    """The input as text. Bytes are decoded here, not by the stream, so text that is not
    UTF-8 is bad input (exit 2) under any locale; a leading byte-order mark is skipped."""
    if path is None or path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes under it (tests, embedding)
            return sys.stdin.read().removeprefix("\ufeff")
        data = stream.read()
        where = "standard input"
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise InputError("unreadable_file", f"cannot read {path}: {exc.strerror}") from exc
        where = path
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            "bad_json", f"{where} is not UTF-8 text: byte {exc.start} cannot be read"
        ) from exc


def _parse_json(text: str, where: str = "input") -> Any:
    """Strict JSON (no NaN or Infinity; api.jsonio), bad_json naming ``where``."""
    return jsonio.loads(text, where)


def _answer(
    fn: Callable[[Any], dict[str, Any]], text: str, where: str, parse: bool = True
) -> tuple[Any, int]:
    """``fn`` of the JSON ``text`` (of ``text`` itself without ``parse``) and the exit status:
    0, 2 for bad input, 1 for a failure of ours (reported in the same error shape, with the
    traceback on stderr, so a batch or the next photo goes on)."""
    try:
        value = _parse_json(text, where) if parse else text
    except InputError as exc:
        return exc.to_json(), EXIT_BAD_INPUT
    return _evaluated(fn, value, where)


def _evaluated(fn: Callable[[Any], dict[str, Any]], value: Any, where: str) -> tuple[Any, int]:
    """``fn(value)`` and the exit status, as :func:`_answer` says."""
    try:
        return fn(value), 0
    except InputError as exc:
        return exc.to_json(), EXIT_BAD_INPUT
    except Exception:  # noqa: BLE001 - a bug must not lose the other lines of a batch
        return _internal_error(where), EXIT_FAILURE


def _internal_error(where: str) -> dict[str, Any]:
    """The answer for a failure of ours while evaluating ``where`` (its traceback on
    stderr, so that a batch goes on)."""
    import traceback

    traceback.print_exc(file=sys.stderr)
    message = f"{where} could not be evaluated: an internal error (details on stderr)"
    return {"error": {"code": "internal_error", "message": message}}


def _worst(status: int, new: int) -> int:
    """The exit status of several answers: bad input (2) outranks a failure of ours (1)."""
    return new if new == EXIT_BAD_INPUT or not status else status


def _run_one(fn: Callable[[Any], dict[str, Any]], path: str | None, out: TextIO) -> int:
    try:
        text = _read_text(path)
    except InputError as exc:
        _emit(exc.to_json(), out)
        return EXIT_BAD_INPUT
    result, status = _answer(fn, text, "input")
    _emit(result, out)
    return status


class Progress:
    """``done/total what`` on stderr, at most a few times a second, so stdout stays pure JSON.

    Shown when asked (``--progress``) or when stderr is a terminal; silent otherwise, so pipes
    and scripts see nothing extra.
    """

    def __init__(self, total: int | None, what: str, shown: bool) -> None:
        self.total, self.what, self.shown = total, what, shown  # total None: not known
        self.done = 0
        self._last = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.shown and (now - self._last >= 0.25 or self.done == self.total):
            self._last = now
            self._show("\n" if self.done == self.total else "")

    def finish(self) -> None:
        """The last count and a newline, when the total was not known up front."""
        if self.shown and self.total is None and self.done:
            self._show("\n")

    def _show(self, end: str) -> None:
        of = "" if self.total is None else f"/{self.total}"
        sys.stderr.write(f"\r{self.done}{of} {self.what}{end}")
        sys.stderr.flush()


def _show_progress(args: argparse.Namespace) -> bool:
    return bool(args.progress) or sys.stderr.isatty()


def _run_batch(
    fn: Callable[[Any], dict[str, Any]], lines: Iterable[bytes], out: TextIO, progress: Progress
) -> int:
    """JSON Lines in, JSON Lines out, same order: one answer for every line, so answer k is
    line k's. A bad line (blank, not JSON, not UTF-8, no hand) gets an error object, exit 2;
    each line is decoded and answered on its own, so the other lines are still scored.

    A line is read straight from its bytes (orjson checks the UTF-8 itself); only a line that
    does not read goes the long way, which says exactly why (:func:`_line_error`). The loop
    is the command's whole work for a large batch: it calls as little as it can per line."""
    status = 0
    emit = _line_writer(out)  # (it flushes what went through the text layer before)
    buffer = getattr(out, "buffer", None)
    write = buffer.write if buffer is not None else None  # the bytes under it, as emit's
    encode, newline = orjson.dumps, orjson.OPT_APPEND_NEWLINE
    loads = jsonio.loads_fast
    step = progress.step if progress.shown else None
    n = 0
    for raw in lines:
        n += 1
        if step is not None:
            step()
        if n == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            value = loads(raw.removesuffix(b"\r"))
        except ValueError:
            emit(_line_error(raw, n))
            status = EXIT_BAD_INPUT
            continue
        try:
            result = fn(value)
        except InputError as exc:
            result = exc.to_json()
            status = EXIT_BAD_INPUT
        except Exception:  # noqa: BLE001 - a bug must not lose the other lines of a batch
            result = _internal_error(f"line {n}")
            status = _worst(status, EXIT_FAILURE)
        if write is None:
            emit(result)
            continue
        try:  # jsonio.dumps_line, written out here: a call less a line
            line = encode(result, option=newline)
        except TypeError:
            line = jsonio.dumps(result) + b"\n"
        write(line)
    progress.finish()
    return status


def _line_error(raw: bytes, n: int) -> dict[str, Any]:
    """Why line ``n`` cannot be read: not UTF-8, blank, or not JSON (where, and how)."""
    try:
        line = _line_text(raw, n)
        if not line.strip():
            # docs/api.md: one result a line, same order; skipping a blank line shifted every
            # later answer against its hand. A blank line is no JSON value (JSON Lines).
            message = f"line {n} is empty: JSON Lines has one hand JSON on every line"
            return {"error": {"code": "bad_json", "message": message}}
        _parse_json(line, f"line {n}")
    except InputError as exc:
        return exc.to_json()
    message = f"line {n} is not valid JSON"  # orjson refused the bytes, and then the text
    return {"error": {"code": "bad_json", "message": message}}


def _line_text(raw: bytes, n: int) -> str:
    """One JSON Lines line as text (a byte-order mark before the first skipped, a \\r at the
    end of a CRLF line dropped)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            "bad_json", f"line {n} is not UTF-8 text: byte {exc.start} cannot be read"
        ) from exc
    if n == 1:
        line = line.removeprefix("\ufeff")
    return line.removesuffix("\r")


def json_lines(data: bytes) -> list[bytes]:
    """The lines of JSON Lines: split at \\n only, not at the other breaks str.splitlines
    knows (U+2028, form feed, …), which may sit inside a JSON string and would shift every
    later answer against its line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    return lines


def _batch_input(path: str | None) -> tuple[Iterable[bytes], int | None]:
    """The batch's lines (bytes, without their \\n) and how many, when known up front.

    A FILE, or a standard input that is a file, is read whole. A pipe or a terminal is read
    line by line as the lines come, and the answers so far are flushed before waiting for
    more: a caller that writes one hand and waits for its result is never left hanging."""
    if path is not None and path != "-":
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise InputError("unreadable_file", f"cannot read {path}: {exc.strerror}") from exc
    else:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes under it (tests, embedding)
            data = sys.stdin.read().encode("utf-8", "surrogatepass")
        else:
            fd = _waitable(stream)
            if fd is not None:
                return _lines_as_they_come(stream, fd), None
            data = stream.read()
    lines = json_lines(data)
    return lines, len(lines)


def _waitable(stream: Any) -> int | None:
    """The descriptor of a pipe or terminal that select() can wait on; None for a regular
    file (read whole) or where that cannot be told (not POSIX, no descriptor)."""
    if os.name != "posix":
        return None
    try:
        fd = int(stream.fileno())
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (OSError, ValueError, AttributeError):
        return None
    return None if regular else fd


def _lines_as_they_come(stream: Any, fd: int) -> Iterator[bytes]:
    while True:
        if not select.select([fd], [], [], 0)[0]:
            sys.stdout.flush()  # nothing to read yet: the writer may wait for these answers
        raw = stream.readline()
        if not raw:
            return
        yield raw.removesuffix(b"\n")


def _json_command(fn: Callable[[Any], dict[str, Any]], args: argparse.Namespace) -> int:
    """One hand JSON (or JSON Lines with ``--batch``) through ``fn``, results to stdout."""
    if not args.batch:
        return _run_one(fn, args.file, sys.stdout)
    try:
        lines, total = _batch_input(args.file)
    except InputError as exc:
        _emit(exc.to_json(), sys.stdout)
        return EXIT_BAD_INPUT
    progress = Progress(total, "lines", _show_progress(args))
    with _batch_collection():
        return _run_batch(fn, lines, sys.stdout, progress)


@contextmanager
def _batch_collection() -> Iterator[None]:
    """The garbage collector's thresholds for a batch (:data:`BATCH_GC_THRESHOLD`), the
    process's own restored after it."""
    before = gc.get_threshold()
    gc.set_threshold(BATCH_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _cmd_score(args: argparse.Namespace) -> int:
    if args.photo is not None:
        return _score_photo(args)
    with _engine_loading():
        if args.explain:
            from sanma_lens.engine.explain import explained_score as score_json
        else:
            from sanma_lens.engine.service import score_json

    return _json_command(score_json, args)


def _situation(args: argparse.Namespace) -> dict[str, Any]:
    """The hand JSON's situation fields given as ``sanma score --photo`` options."""
    sit: dict[str, Any] = {
        "tsumo": args.tsumo,
        "seat": args.seat,
        "round": args.round,
        "riichi": args.riichi,
        "honba": args.honba,
        "deposits": args.deposits,
    }
    for key in ("dora", "ura"):
        if getattr(args, key):
            sit[key] = list(getattr(args, key))  # each word MPSZ ("3p", or "3p4s"), as in JSON
    for key in SITUATION_FLAGS:
        if getattr(args, key):
            sit[key] = True
    if args.aka5man_as:
        sit["aka5man_as"] = args.aka5man_as
    if args.aka_5man:
        sit["rules"] = {"preset": "sanma-1.3", "aka_5man": True}
    return sit


def _score_photo(args: argparse.Namespace) -> int:
    """``sanma score --photo hand.jpg [flags]``: recognize the photo and score it with the
    situation given as options; prints what ``POST /v1/photo/score`` answers."""
    from sanma_lens.api.routes import evaluate
    from sanma_lens.engine.parse import check_situation
    from sanma_lens.vision.pipeline import recognize_path

    if args.file is not None or args.batch:
        return _usage_error("score --photo reads the photo: give no FILE and no --batch")
    sit = _situation(args)
    try:
        check_situation(sit)
    except InputError as exc:
        _emit(exc.to_json(), sys.stdout)
        return EXIT_BAD_INPUT
    recognized, status = _answer(recognize_path, args.photo, args.photo, parse=False)
    if status:
        _emit(recognized, sys.stdout)
        return status
    # as POST /v1/photo/score: the options' dora (when given) replace those read from the photo
    merged = {**(recognized.get("hand") or {}), **sit}
    _emit({**recognized, **evaluate(merged, args.explain)}, sys.stdout)
    return 0


@contextmanager
def _engine_loading() -> Iterator[None]:
    """Around the engine's import, which builds its tables (engine.suits' patterns above
    all): the garbage collector is paused meanwhile, since building them makes no garbage,
    and what start-up built is then left out of its later passes (``gc.freeze``): it lives
    as long as the process, and a batch's collections need only walk the batch's objects."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _usage_error(message: str) -> int:
    _emit({"error": {"code": "bad_usage", "message": message}}, sys.stdout)
    return EXIT_BAD_INPUT


def _cmd_tenpai(args: argparse.Namespace) -> int:
    with _engine_loading():
        from sanma_lens.engine.service import tenpai_json

    return _json_command(tenpai_json, args)


def _cmd_recognize(args: argparse.Namespace) -> int:
    from sanma_lens.vision.pipeline import recognize_path

    status = 0
    several = len(args.photos) > 1
    progress = Progress(len(args.photos), "photos", several and _show_progress(args))
    for path in args.photos:
        progress.step()
        result, photo_status = _answer(recognize_path, path, path, parse=False)
        status = _worst(status, photo_status)
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
    print(_tiles_line(result.get("tiles", [])))
    hand = result.get("hand", {})
    print("hand:", hand.get("hand", ""), " win:", hand.get("win") or "-")
    if hand.get("melds"):
        print("melds:", " ".join(hand["melds"]))
    if hand.get("kita"):
        print("kita:", hand["kita"], f"(aka-5-man {hand.get('kita_aka', 0)})")
    for w in result.get("warnings", []):
        print("warning:", w)


def _tiles_line(tiles: list[dict[str, Any]]) -> str:
    """The recognized tiles by group, left to right in the photo within each group:
    ``tiles (5): hand 1p 2p 3p 4p; win 4p`` (docs/api.md: recognize prints the recognized tiles
    and the reconstructed hand; ``--json`` has each tile's box, angle and confidence)."""
    by_group: dict[str, list[str]] = {}
    from sanma_lens.vision.types import GROUPS

    for t in sorted(tiles, key=_left_edge):
        group = t.get("group", "other")
        by_group.setdefault(group if group in GROUPS else "other", []).append(str(t.get("tile")))
    parts = [f"{g} {' '.join(by_group[g])}" for g in GROUPS if g in by_group]
    return f"tiles ({len(tiles)}): " + ("; ".join(parts) if parts else "none")


def _left_edge(tile: dict[str, Any]) -> float:
    box = tile.get("box")
    return float(box[0]) if isinstance(box, list) and box else 0.0


def _cmd_serve(args: argparse.Namespace) -> int:
    from sanma_lens.api.server import serve
    from sanma_lens.api.settings import Settings
    from sanma_lens.vision.limits import Limits

    try:  # a bad SANMA_* limit is said in one line before the server starts, not as a traceback
        Settings.from_env()
        Limits.from_env()
    except ValueError as exc:
        print(f"sanma serve: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.workers < 1:
        print("sanma serve: --workers must be 1 or more", file=sys.stderr)
        return EXIT_BAD_INPUT
    from sanma_lens.api.lan import print_banner

    print_banner(args.host, args.port, sys.stdout)
    serve(args.host, args.port, args.workers)
    return 0


def _cmd_export_corrections(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sanma_lens.api.corrections import KeptPhotos, export
    from sanma_lens.api.storage import Storage, StorageUnavailable

    try:
        n = export(KeptPhotos(Storage()), Path(args.dir))
    except ValueError as exc:  # a DATABASE_URL of no known kind
        print(f"sanma export-corrections: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StorageUnavailable:
        print("sanma export-corrections: the database cannot be reached", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"sanma export-corrections: cannot write the folder: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{n} kept photos written")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sanma", description="Sanma scoring and recognition.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "score",
        help="score a hand given as JSON, or a photo with --photo",
        description="Score a hand JSON (FILE or stdin). With --photo, recognize the photo and "
        "score the hand in it, the situation given by the options below.",
    )
    p.add_argument("file", nargs="?", help="hand JSON (default: stdin)")
    p.add_argument("--batch", action="store_true", help="JSON Lines in, JSON Lines out")
    p.add_argument("--progress", action="store_true", help="count lines done on stderr")
    p.add_argument(
        "--explain",
        action="store_true",
        help="add the split into sets, the wait, yakuhai tiles and each payment taken apart",
    )
    photo = p.add_argument_group("a photo (the situation as options)")
    photo.add_argument("--photo", metavar="PHOTO", help="JPEG/PNG/WebP photo of the hand")
    photo.add_argument("--tsumo", action="store_true", help="won by tsumo (default ron)")
    photo.add_argument("--riichi", default="none", choices=RIICHI_CHOICES)
    photo.add_argument("--seat", default="S", choices=("E", "S", "W"), help="seat wind (S)")
    photo.add_argument("--round", default="E", choices=("E", "S"), help="round wind (E)")
    photo.add_argument("--honba", type=int, default=0)
    photo.add_argument("--deposits", type=int, default=0, help="riichi sticks on the table")
    photo.add_argument("--dora", nargs="*", metavar="TILES", help="dora indicators, e.g. 3p")
    photo.add_argument("--ura", nargs="*", metavar="TILES", help="ura indicators")
    for key in SITUATION_FLAGS:
        photo.add_argument(f"--{key.replace('_', '-')}", dest=key, action="store_true")
    photo.add_argument("--aka-5man", action="store_true", help="the aka-5-man option")
    photo.add_argument("--aka5man-as", choices=("5p", "5s"), help="a discarded aka-5-man taken as")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("tenpai", help="waits of a 13-tile hand given as JSON")
    p.add_argument("file", nargs="?", help="hand JSON without win (default: stdin)")
    p.add_argument("--batch", action="store_true", help="JSON Lines in, JSON Lines out")
    p.add_argument("--progress", action="store_true", help="count lines done on stderr")
    p.set_defaults(func=_cmd_tenpai)

    p = sub.add_parser("recognize", help="recognize the tiles in photos")
    p.add_argument("photos", nargs="+", help="JPEG/PNG/WebP photos")
    p.add_argument("--json", action="store_true", help="print JSON (JSON Lines for several)")
    p.add_argument("--progress", action="store_true", help="count photos done on stderr")
    p.set_defaults(func=_cmd_recognize)

    p = sub.add_parser(
        "serve",
        help="run the HTTP API and the phone page",
        description="Run the HTTP API and the phone page. With --host 0.0.0.0 it prints the "
        "address a phone on the same Wi-Fi opens, and a QR code of it.",
    )
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to serve the local network")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes on the port (more than 1 wants PostgreSQL: docs/deploy.md)",
    )
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser(
        "export-corrections",
        help="write the photos players kept with their corrected tiles as a "
        "training set (YOLO labels, as datasets.train reads them)",
    )
    p.add_argument(
        "dir",
        help="folder to write (images/, labels/, classes.json, "
        "corrections.json); an earlier export there is added to",
    )
    p.set_defaults(func=_cmd_export_corrections)
    return parser


def _utf8_stdout() -> None:
    """Write stdout as UTF-8 (JSON's encoding, RFC 8259) whatever the locale says: under a
    latin-1 or ASCII locale the en dash of "no 2m–8m" was a UnicodeEncodeError (exit 1)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if encoding != "utf8" and reconfigure is not None:
        reconfigure(encoding="utf-8")


def _reader_went_away() -> int:
    """stdout's reader closed the pipe (``sanma score --batch < many.jsonl | head -1``): stop
    quietly with the status a shell shows for a Unix tool ended by SIGPIPE, not a traceback.
    stdout is pointed at /dev/null so that Python's own flush at exit finds no broken pipe
    and prints no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a stdout without a descriptor (tests)
        pass
    return EXIT_BROKEN_PIPE


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _utf8_stdout()
    try:
        status = int(args.func(args))
        if argv is None and getattr(args, "batch", False):
            _end_of_batch(status)
        return status
    except BrokenPipeError:
        return _reader_went_away()


def _end_of_batch(status: int) -> None:
    """The process's end after a batch on the command line: its answers flushed, it exits at
    once rather than through the interpreter's teardown, which frees object by object all
    that start-up built (about 1k instructions a hand of a 40,000-line batch). Nothing is
    lost: the output is flushed first and the batch registers no exit handler; with one
    registered (by an embedding program, a coverage tool) the teardown runs as usual."""
    sys.stdout.flush()
    sys.stderr.flush()
    if atexit._ncallbacks() == 0:  # noqa: SLF001 - CPython's count of exit handlers
        os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
