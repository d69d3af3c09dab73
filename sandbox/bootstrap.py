"""In-jail entry point: load the bot, then answer the host one message at a time.

Run as ``python -I -S -B -c <loader> IN_FD OUT_FD`` inside the jail, where the loader
execs this file compiled once per worker process by the jail's own interpreter
(``sandbox.runtime.PythonRuntime.bootstrap_hex``): compiling this text at every start
cost about 2 ms of CPU. It is self-contained (standard library only; the jail cannot see
the ``sandbox`` package) and imports only C modules before the bot, because every
millisecond here is paid at every jail start: ``json`` would pull in ``re`` and cost ~8 ms,
so it talks JSON through ``_json`` directly, and it calls ``prctl`` through ``_ctypes``
rather than the ``ctypes`` package.

Two steps, so that a jail can be started before its bot is chosen (``sandbox.pool``):

1. ``init``: install the exec-deny seccomp filter, clear the environment, apply the
   rlimits, then report ``prepared`` (or ``error``). Until that line the process runs only
   platform code, so a failure there is the platform's, never the bot's.
2. ``load`` (once, after the host has put the bot's files in ``/bot``): put the bot's
   directory first on ``sys.path``, ``import bot``, run ``on_match_start``, report
   ``ready``. Everything after ``import bot`` is untrusted: the bot shares this interpreter
   and can rewrite any of it, so the host treats every later message as a claim to check,
   never as a fact. A second ``load`` (or anything else) ends the process: a jail serves
   one bot once.

Faults are reported as a kind (the same strings as ``engine.players.FaultKind``) plus a
code the host turns into its own public sentence; the bot's traceback goes along as
``trace`` for the bot's owner only. Then the process exits.

Types are for mypy only and cost the jail nothing: a function's annotations are strings,
never evaluated (``from __future__ import annotations`` would itself be an import at every
start, ~0.2 ms; a local variable's annotation is never evaluated anyway), and the names
they use exist only under ``TYPE_CHECKING``, which is False when the file runs.
"""

import errno
import os
import sys
import time

_STARTED = time.monotonic()  # the interpreter is up: when start-up reached this file

EXIT_PROTOCOL_LOST = 97
# One read takes what a pipe holds (64 KiB). Not more: a bigger request is a buffer over
# glibc's mmap threshold, which the interpreter maps and unmaps around every read (the
# bytes object is shrunk by realloc, which never raises the threshold): ~60 us a read.
_CHUNK = 65536
_TRACE_CHARS = 8000

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _ctypes
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any, NoReturn, TextIO, TypeAlias, TypedDict

    class Init(TypedDict):
        """The host's first message (``sandbox.launch``)."""

        op: str
        exec_filter: str | None  # hex of the exec-deny BPF program, None in unsafe mode
        rlimits: dict[str, list[int]]  # "AS": [soft, hard], ...
        extra_paths: list[str]
        message_bytes: int

    class Load(TypedDict):
        """The host's second message, once the bot's files are in ``bot_dir``."""

        op: str
        bot_dir: str
        info: dict[str, Any]
        hooks: list[str]  # the hooks the game offers

    class Request(TypedDict, total=False):
        """Every later message: ``act`` (op, seq, obs) or ``hook`` (op, seq, hook, payload)."""

        op: str
        seq: int
        obs: dict[str, Any]
        hook: str
        payload: dict[str, Any]

    #: What ``_libc`` returns: the ``_ctypes`` module, ``struct sock_fprog``, prctl, mallopt.
    Libc: TypeAlias = tuple[ModuleType, type[_ctypes.Structure], _ctypes.CFuncPtr, _ctypes.CFuncPtr]


class _DecoderContext:
    # The attributes _json.make_scanner reads; host messages never contain NaN/Infinity.
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = None
    memo = None


def _not_json(value: "object") -> "NoReturn":
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _make_codec() -> "tuple[Callable[[str], Any], Callable[[object], str]]":
    import _json

    # typeshed wants a make_scanner for the context; the scanner only reads its attributes
    # (json.decoder passes a JSONDecoder).
    scan = _json.make_scanner(_DecoderContext())  # type: ignore[arg-type]

    def loads(text: "str") -> "Any":
        value, end = scan(text, 0)
        if end != len(text):
            raise ValueError("extra data")
        return value

    # One encoder for every message, without circular-reference markers (a dict kept for
    # every container): a cycle in what the bot returns still fails, with RecursionError,
    # and is bad output either way.
    encode = _json.make_encoder(
        None, _not_json, _json.encode_basestring_ascii, None, ":", ",", False, False, False
    )

    def dumps(value: "object") -> "str":
        return "".join(encode(value, 0))

    return loads, dumps


_loads, _dumps = _make_codec()


class Channel:
    """The two protocol pipes, one JSON object per line."""

    def __init__(self, in_fd: "int", out_fd: "int", limit: "int") -> "None":
        self.in_fd = in_fd
        self.out_fd = out_fd
        self.limit = limit
        self.buffer = b""

    def receive(self) -> "Any":
        """The host's next message (its shape is the caller's to name: Init, Load, Request)."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
                return _loads(line.decode("utf-8"))
            try:
                chunk = os.read(self.in_fd, _CHUNK)
            except OSError:
                os._exit(EXIT_PROTOCOL_LOST)  # the bot closed or replaced our pipe
            if not chunk:
                os._exit(0)  # the host is gone or closed the match
            self.buffer += chunk

    def send_line(self, line: "str") -> "None":
        data = line.encode("ascii") + b"\n"
        try:
            while data:
                data = data[os.write(self.out_fd, data) :]
        except OSError:
            os._exit(EXIT_PROTOCOL_LOST)  # the bot closed or replaced our pipe

    def send(self, message: "dict[str, object]") -> "None":
        self.send_line(_dumps(message))


def _classify(exc: "BaseException") -> "tuple[str, str]":
    """(fault kind, code) for an exception that escaped the bot."""
    if isinstance(exc, MemoryError):
        return "memory", "memory_error"
    if isinstance(exc, OSError):
        code = exc.errno
        if code in (errno.EPERM, errno.EACCES, errno.EROFS):
            return "forbidden", "permission"
        if code in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
            return "forbidden", "disk_limit"
        if code in (errno.EMFILE, errno.ENFILE):
            return "forbidden", "fd_limit"
        if code == errno.ENOMEM:
            return "memory", "memory_error"
    if isinstance(exc, RuntimeError) and "can't start new thread" in _text(exc):
        return "forbidden", "thread_limit"
    if isinstance(exc, SystemExit):
        return "crash", "exit"
    return "crash", "exception"


def _text(exc: "BaseException") -> "str":
    try:
        return str(exc)
    except BaseException:  # a hostile __str__ must not stop the report
        return ""


def _format_trace(exc: "BaseException") -> "str":
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == "<string>":
        tb = tb.tb_next  # drop the bootstrap's own frames
    try:
        import traceback

        text = "".join(traceback.format_exception(type(exc), exc, tb))
    except BaseException:
        try:
            text = f"{type(exc).__name__}: {exc!r}"
        except BaseException:
            text = type(exc).__name__
    return text[-_TRACE_CHARS:]


def _fault(
    channel: "Channel",
    kind: "str",
    code: "str",
    phase: "str",
    trace: "str" = "",
    exc_type: "str" = "",
) -> "NoReturn":
    """Report the bot's failure and exit without running any more bot code."""
    _flush_output()
    message = {"t": "fault", "kind": kind, "code": code, "phase": phase, "trace": trace}
    if exc_type:
        message["exc_type"] = exc_type
    while True:
        try:
            line = _dumps(message)
        except BaseException:
            line = '{"t":"fault","kind":"crash","code":"exception"}'
        if len(line) + 1 <= channel.limit or not message["trace"]:
            break
        message["trace"] = message["trace"][len(message["trace"]) // 2 :]
    channel.send_line(line)
    os._exit(1)


def _fault_from(channel: "Channel", exc: "BaseException", phase: "str") -> "NoReturn":
    kind, code = _classify(exc)
    trace = _format_trace(exc)
    _flush_output()
    _write_stderr(trace)  # also in the owner's output
    name = type(exc).__name__
    _fault(channel, kind, code, phase, trace, name if isinstance(name, str) else "")


def _flush_output() -> "None":
    _flush(sys.stdout)
    _flush(sys.stderr)


def _flush(stream: "TextIO") -> "bool":
    try:
        stream.flush()
    except BaseException:  # the bot may have replaced or closed it
        return False
    return True


def _write_stderr(text: "str") -> "bool":
    try:
        os.write(2, text.encode("utf-8", "replace"))
    except BaseException:  # stderr may be closed
        return False
    return True


def _libc() -> "Libc":
    """prctl and mallopt through ``_ctypes`` alone: the ``ctypes`` package costs ~2.5 ms."""
    import _ctypes

    # _SimpleCData is generic in typeshed only: at run time it takes no type argument.
    class CInt(_ctypes._SimpleCData):  # type: ignore[type-arg]
        _type_ = "i"

    class CUShort(_ctypes._SimpleCData):  # type: ignore[type-arg]
        _type_ = "H"

    class CCharP(_ctypes._SimpleCData):  # type: ignore[type-arg]
        _type_ = "z"

    class SockFprog(_ctypes.Structure):
        _fields_ = [("len", CUShort), ("filter", CCharP)]

    class Libc:
        # dlopen(NULL): the program itself, libc included; typeshed allows only a path.
        _handle = _ctypes.dlopen(None, 0)  # type: ignore[arg-type]

    class Function(_ctypes.CFuncPtr):
        _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
        _restype_ = CInt

    # Any object with a ``_handle`` names the library; typeshed allows only a ctypes.CDLL.
    prctl = Function(("prctl", Libc))  # type: ignore[arg-type]
    mallopt = Function(("mallopt", Libc))  # type: ignore[arg-type]
    return _ctypes, SockFprog, prctl, mallopt


def _install_exec_filter(libc: "Libc", program: "bytes") -> "None":
    """Stack the exec-deny seccomp program on this process (and its future threads)."""
    _ctypes, sock_fprog, prctl, _ = libc
    fprog = sock_fprog(len(program) // 8, program)  # keeps a reference to ``program``
    if prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS (bwrap set it already)
        raise OSError(_ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if prctl(22, 2, _ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(_ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


def _limit_malloc_arenas(libc: "Libc") -> "None":
    # glibc reserves 64 MiB of address space per thread arena; under a 512 MiB RLIMIT_AS a
    # bot with a few threads would hit MemoryError on reservations, not on real use.
    libc[3](-8, 1)  # mallopt(M_ARENA_MAX, 1)


def _apply_rlimits(limits: "dict[str, list[int]]") -> "None":
    import resource

    for name, (soft, hard) in limits.items():
        which = getattr(resource, "RLIMIT_" + name)
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY:
            hard = min(hard, current_hard)  # never try to raise (unsafe mode, non-root)
        resource.setrlimit(which, (min(soft, hard), hard))


def _prepare(channel: "Channel", init: "Init") -> "None":
    """Everything before the bot's code runs. Failures here are the platform's, not the bot's."""
    try:
        libc = _libc()
        exec_filter = init.get("exec_filter")
        if exec_filter:
            _install_exec_filter(libc, bytes.fromhex(exec_filter))
        _limit_malloc_arenas(libc)
        os.environ.clear()
        # numpy's OpenBLAS would start a thread per host CPU when loaded: the bot's CPU time
        # counts every thread and the jail allows few tasks, so one thread, as documented
        # (docs/sandbox.md). The only variables a bot sees; none of the host's.
        os.environ.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        _apply_rlimits(init["rlimits"])
        sys.path.extend(init.get("extra_paths", []))
        sys.argv = ["bot.py"]
    except BaseException as exc:
        channel.send({"t": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]})
        os._exit(2)


def _serve(channel: "Channel", bot: "ModuleType", hooks: "list[str]") -> "NoReturn":
    act = bot.act
    while True:
        request: Request = channel.receive()
        op = request.get("op")
        if op == "act":
            try:
                action = act(request["obs"])
            except BaseException as exc:
                _fault_from(channel, exc, "act")
            _flush_output()
            if not isinstance(action, dict):
                _fault(channel, "bad_output", "not_object", "act")
            try:
                line = _dumps({"t": "action", "action": action, "seq": request["seq"]})
            except MemoryError:
                _fault(channel, "memory", "memory_error", "act")
            except BaseException:
                _fault(channel, "bad_output", "not_json", "act")
            if len(line) + 1 > channel.limit:
                _fault(channel, "bad_output", "too_big", "act")
            channel.send_line(line)
        elif op == "hook" and request.get("hook") in hooks:
            name = request["hook"]
            try:
                getattr(bot, name)(request["payload"])
            except BaseException as exc:
                _fault_from(channel, exc, name)
            _flush_output()
            channel.send({"t": "done", "seq": request["seq"]})
        else:
            os._exit(2)  # a request this bootstrap does not know: a host bug


def main() -> "NoReturn":
    channel = Channel(int(sys.argv[1]), int(sys.argv[2]), 65536)
    init: Init = channel.receive()
    received = time.monotonic()
    channel.limit = int(init["message_bytes"])
    _prepare(channel, init)
    # "clock": when the interpreter reached this file and when the host's init arrived (the
    # host's monotonic clock: the jail has no time namespace), for the start-up breakdown.
    channel.send({"t": "prepared", "clock": [_STARTED, received]})

    load: Load = channel.receive()  # sent once the host has put the bot's files in /bot
    if load.get("op") != "load":
        os._exit(2)  # a request this bootstrap does not know: a host bug
    sys.path[:0] = [load["bot_dir"]]
    hooks_offered = load["hooks"]

    # From here on, the bot's code runs: nothing below can be trusted by the host.
    try:
        bot = __import__("bot")
    except BaseException as exc:
        _fault_from(channel, exc, "import")
    try:
        act = getattr(bot, "act", None)
        hooks = [name for name in hooks_offered if callable(getattr(bot, name, None))]
    except BaseException as exc:
        _fault_from(channel, exc, "import")
    _flush_output()
    if not callable(act):
        _fault(channel, "crash", "no_act", "import")
    if "on_match_start" in hooks:
        try:
            bot.on_match_start(load["info"])
        except BaseException as exc:
            _fault_from(channel, exc, "on_match_start")
        _flush_output()
    channel.send({"t": "ready", "hooks": hooks})
    _serve(channel, bot, hooks)


if __name__ == "__main__":
    main()
