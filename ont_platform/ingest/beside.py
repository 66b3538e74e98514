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

The call and its result travel pickled over the child's stdin and stdout. Both ends are this package, and the
only bytes unpickled are the ones the child this process started wrote; nothing from outside is unpickled.
The target is named as ``"module:function"`` text, so this module imports none of its callers.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import select
import subprocess
import sys
import threading
from typing import Any

from ont_platform.errors import OntError

_FAILED = b"!"
"""First byte on the child's stdout when the function reported a failure early."""
_RESULT = b"="
"""The byte before the pickled result."""
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

    def __init__(self, target: str, *args: Any) -> None:
        payload = pickle.dumps((target, args), protocol=pickle.HIGHEST_PROTOCOL)
        env = dict(os.environ)
        # the child imports this very copy of the package, wherever it was imported from
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_ROOT, env.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            close_fds=True,
            env=env,
        )
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

    def failed(self, wait: float = 0.0) -> bool:
        """Whether the function has reported a failure, waiting up to ``wait`` seconds for it to say anything."""
        if not self._head and self._done is None:
            stdout = self._proc.stdout
            assert stdout is not None
            ready, _, _ = select.select([stdout], [], [], wait)
            if ready:
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

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


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
        target, args = pickle.loads(sys.stdin.buffer.read())
        module, name = target.split(":")
        value = getattr(importlib.import_module(module), name)(*args, failed=failed)
        outcome = (True, value)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it as BesideError
        outcome = (False, f"{type(exc).__name__}: {exc}")
    data = _RESULT + pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(data)
    while view:
        view = view[os.write(out, view) :]
    os.close(out)


if __name__ == "__main__":
    _child()
