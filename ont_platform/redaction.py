"""Keeping configured secrets (API keys, tokens in headers) out of error messages and logs.

HTTP libraries quote a header they refuse: h11 raises ``Illegal header value b'Bearer <token>\\n'`` when a value
holds a line break, and that text travels on in the error message and in the chained traceback a service logs.
Header values are therefore checked here before any client sees them, and the error names the header, never its
value. The HTTP libraries' own log records (httpx logs each request's full URL at INFO) are scrubbed of the
credentials a client registers with :func:`protect`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Mapping

from ont_platform.errors import InputError

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VALUE = re.compile(r"[\x20-\x7e\t]*")


def check_headers(headers: Mapping[str, str] | None, what: str) -> dict[str, str]:
    """``headers`` as a plain dict, or :class:`InputError` for a name that is not an HTTP token or a value with a
    line break, a control character or a non-ASCII character. The message names the header, never its value.

    >>> check_headers({"Authorization": "Bearer abc"}, "endpoint")
    {'Authorization': 'Bearer abc'}
    """
    out: dict[str, str] = {}
    for name, value in (headers or {}).items():
        if not isinstance(name, str) or not _TOKEN.fullmatch(name):
            raise InputError(f"{what}: {name!r} is not a valid HTTP header name")
        if not isinstance(value, str):
            raise InputError(f"{what}: the value of header {name!r} must be text, got {type(value).__name__}")
        if not _VALUE.fullmatch(value):
            raise InputError(
                f"{what}: the value of header {name!r} holds a line break, a control character or a "
                "non-ASCII character, which HTTP headers cannot carry (the value is not shown)"
            )
        out[name] = value
    return out


def scrub(text: str, secrets: list[str] | tuple[str, ...]) -> str:
    """``text`` with every secret of at least four characters replaced by ``***`` (longest first, so a token
    inside a longer header value goes with it)."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


class SecretScrubber(logging.Filter):
    """A logging filter that replaces secrets (of at least four characters) with ``***`` in a record's message
    and in its traceback, chained causes included.

    Used twice: on the HTTP libraries' loggers (httpx logs every request at INFO as ``HTTP Request: POST
    http://user:password@host/path?token=...``), fed by :func:`protect`; and by the service on its own logger,
    with every secret it was configured with. The traceback is formatted here, scrubbed, and kept as the
    record's text in place of the live exception, so no handler formats the unscrubbed one later.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.secrets: set[str] = set()
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        """Scrub these too, from now on."""
        with self.lock:
            self.secrets |= {s for s in secrets if s and len(s) >= 4}

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            secrets = tuple(self.secrets)
        if not secrets:
            return True
        text = record.getMessage()
        cleaned = scrub(text, secrets)
        if cleaned != text:
            record.msg, record.args = cleaned, None
        if record.exc_info:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info), secrets)
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = scrub(record.exc_text, secrets)
        return True


_SCRUBBER = SecretScrubber()
LIBRARY_LOGGERS = (
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    "urllib3",
    "urllib3.connectionpool",
    "urllib3.util.retry",
    "h11",
)
"""Loggers of the HTTP libraries underneath whose records :func:`protect` scrubs. A logger's filters do not see its
children's records (those go straight to the handlers), so every logger that writes is listed by name."""


def protect(secrets: Iterable[str]) -> None:
    """Keep ``secrets`` (of at least four characters) out of the HTTP libraries' log records for the rest of the
    process. Called with the credentials a client is configured with, before it sends anything."""
    found = {s for s in secrets if s and len(s) >= 4}
    if not found:
        return
    _SCRUBBER.add(found)
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if _SCRUBBER not in logger.filters:
            logger.addFilter(_SCRUBBER)


__all__ = ["LIBRARY_LOGGERS", "SecretScrubber", "check_headers", "protect", "scrub"]
