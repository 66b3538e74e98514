"""Work beside a load: one function run by a second Python interpreter, so that a load and its checks use two
cores.

A large load spends its time in two places that do not depend on each other: the stream of checked rows that the
store takes in (one core), and the SHACL row checks (another core's worth). The checks run here, in a child
interpreter that reads the same folder with the same code, and the two meet before the store keeps the write: it
is kept only if the checks passed and saw exactly the text the store took in (a digest of it).

Why a fresh interpreter (``sys.executable -m ont_platform.ingest.beside``) and not :mod:`multiprocessing`:
``fork`` would copy a process that may hold threads (an HTTP server's) and a store; ``spawn`` and
``forkserver`` import the caller's ``__main__`` again, which runs a script's top level a second time when it
has no ``if __name__ == "__main__"`` guard. A fresh interpreter imports this package only.

With ``data=True`` the child also gets the write end of a pipe (keyword ``out``, a file descriptor) for what it
produces as it goes: :func:`send` writes one piece, :func:`finish` says there is no more, :meth:`Beside.read`
reads the pieces. A load uses it to take in the very text the checks produced, instead of reading the tables a
second time (see :mod:`ont_platform.ingest.datasets`). Each piece goes with its length and the last is an empty
one, so the reader knows a finished stream from one cut short, whether or not another process forked meanwhile
still holds the pipe's write end (a fork copies every descriptor).

The call and its result travel pickled over the child's stdin and stdout. Both ends are this package, and the
only bytes unpickled are the ones the child this process started wrote; nothing from outside is unpickled.
The target is named as ``"module:function"`` text, so this module imports none of its callers.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
from typing import Any

from ont_platform.errors import OntError

_FAILED = b"!"
"""First byte on the child's stdout when the function reported a failure early."""
_RESULT = b"="
"""The byte before the pickled result."""
_PIPE_BYTES = 1 << 20
"""Size asked for the data pipe (Linux allows up to 1 MB to an unprivileged process) and of each read."""
_LENGTH = struct.Struct("<Q")
"""Length of each piece on the data pipe."""
_POLL_S = 1.0
"""How long a read of the data pipe waits before it looks whether the child still runs."""
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The folder holding the ``ont_platform`` package."""


class BesideError(OntError):
    """The second process ended without a result (killed, out of memory, or an error in the function)."""


class Beside:
    """``module:function(*args, failed=callback)`` running in a child interpreter from the moment this is made.

    ``failed`` is a callable the function may call (once or more) as soon as it knows its outcome is a failure;
    :meth:`failed` tells the caller without waiting for the end. :meth:`result` waits for the return value.
    :meth:`stop` kills the child if it still runs; use the object as a context manager to stop it on any exit.
    """

    def __init__(self, target: str, *args: Any, data: bool = False) -> None:
        self._data: int | None = None
        kwargs: dict[str, Any] = {}
        write_end = None
        if data:
            self._data, write_end = os.pipe()
            with contextlib.suppress(OSError, AttributeError):  # a larger pipe: fewer wake-ups on each side
                fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
            kwargs["out"] = write_end
        payload = pickle.dumps((target, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        env = dict(os.environ)
        # the child imports this very copy of the package, wherever it was imported from
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH")]))
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", __name__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                pass_fds=() if write_end is None else (write_end,),
                env=env,
            )
        except BaseException:
            if self._data is not None:
                os.close(self._data)
            raise
        finally:
            if write_end is not None:
                os.close(write_end)  # the child holds it: the pipe ends when the child closes it or ends
        self.pid = self._proc.pid
        """The child's process id."""
        self._head = b""
        self._done: tuple[bool, Any] | None = None
        # written by a thread: the pipe holds 64 KB and the child reads only once its interpreter has started
        threading.Thread(target=self._send, args=(payload,), daemon=True, name="beside-send").start()

    def _send(self, payload: bytes) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        with contextlib.suppress(OSError):  # the child is gone: result() says so
            stdin.write(payload)
        with contextlib.suppress(OSError):
            stdin.close()

    def read(self) -> bytes | None:
        """The next piece the child sent (``data=True``), ``b""`` once it said there is no more, or ``None`` when it
        ended (or closed the pipe) without saying so: :meth:`result` then says why."""
        head = self._exactly(_LENGTH.size)
        if head is None:
            return None
        (size,) = _LENGTH.unpack(head)
        return b"" if size == 0 else self._exactly(size)

    def _exactly(self, size: int) -> bytes | None:
        if self._data is None:
            raise RuntimeError("this child was started without data=True, or was stopped")
        parts: list[bytes] = []
        left = size
        while left:
            if not _ready(self._data, _POLL_S):
                if self._proc.poll() is None:
                    continue  # still working
                if not _ready(self._data, 0):
                    return None  # ended; what it wrote has been read
            part = os.read(self._data, min(left, _PIPE_BYTES))
            if not part:
                return None
            parts.append(part)
            left -= len(part)
        return b"".join(parts)

    def failed(self, wait: float = 0.0) -> bool:
        """Whether the function has reported a failure, waiting up to ``wait`` seconds for it to say anything."""
        if not self._head and self._done is None:
            stdout = self._proc.stdout
            assert stdout is not None
            if _ready(stdout.fileno(), wait):
                self._head = os.read(stdout.fileno(), 1)
        return self._head == _FAILED or (self._done is not None and not self._done[0])

    def result(self) -> Any:
        """The function's return value; waits for the child. Raises :class:`BesideError` when the child ended
        without one (the function raised, or the process was killed)."""
        if self._done is None:
            stdout = self._proc.stdout
            assert stdout is not None
            data = self._head + stdout.read()
            code = self._proc.wait()
            stdout.close()
            data = data.removeprefix(_FAILED)
            if not data.startswith(_RESULT):
                self._done = (False, f"the process ended without a result (exit code {code})")
            else:
                self._done = pickle.loads(data[1:])
        ok, value = self._done
        if not ok:
            raise BesideError(f"the checks run beside the load failed: {value}")
        return value

    def stop(self) -> None:
        """Kill the child if it still runs (a load that ended early); a finished child is left as it is."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        if self._data is not None:
            os.close(self._data)
            self._data = None

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _ready(fd: int, wait: float) -> bool:
    """Whether ``fd`` can be read (data or its end) within ``wait`` seconds. ``poll``, not ``select``: a process
    holding a large on-disk store has many files open, and ``select`` refuses descriptors above 1023."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    return bool(poller.poll(wait * 1000))


def send(out: int, data: bytes) -> None:
    """Write one piece (not empty) to the data pipe of a child started with ``data=True``."""
    if data:
        _write_all(out, _LENGTH.pack(len(data)))
        _write_all(out, data)


def finish(out: int) -> None:
    """Say on the data pipe that nothing more follows, and close it."""
    _write_all(out, _LENGTH.pack(0))
    os.close(out)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _child() -> None:
    """The child's side: read the call from stdin, run it, write the outcome to stdout."""
    out = os.dup(1)
    os.dup2(2, 1)  # anything the function prints goes to stderr, not into the result
    said = False

    def failed() -> None:
        nonlocal said
        if not said:
            said = True
            os.write(out, _FAILED)

    outcome: tuple[bool, Any]
    try:
        target, args, kwargs = pickle.loads(sys.stdin.buffer.read())
        module, name = target.split(":")
        value = getattr(importlib.import_module(module), name)(*args, failed=failed, **kwargs)
        outcome = (True, value)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it as BesideError
        outcome = (False, f"{type(exc).__name__}: {exc}")
    _write_all(out, _RESULT + pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
    os.close(out)


if __name__ == "__main__":
    _child()
