"""Typed settings of the HTTP service: which URLs may be fetched, size and time limits, an optional LLM.

Everything has a safe default: no private address is fetched, every fetch is bounded in bytes, time and
redirects, and no LLM is called unless one is configured. :meth:`ServiceSettings.from_env` reads the few
values an operator sets from the environment (``ONT_*`` variables), so secrets never go on a command line.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ont_platform.errors import InputError
from ont_platform.redaction import check_headers

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """Bounds on one URL fetch (all redirect hops together)."""

    max_bytes: int = 5 * 1024 * 1024
    """Largest response body read; a bigger page is refused, not truncated."""
    timeout_s: float = 10.0
    """Longest the whole fetch may take, redirects included."""
    connect_timeout_s: float = 5.0
    """Longest one connection attempt may take."""
    max_redirects: int = 5
    """Most redirects followed; every hop is checked again."""
    user_agent: str = "ont-platform/0.1 (+https://w3id.org/ont-platform)"

    def __post_init__(self) -> None:
        if self.max_bytes <= 0 or self.timeout_s <= 0 or self.connect_timeout_s <= 0 or self.max_redirects < 0:
            raise InputError("fetch limits must be positive (max_redirects may be 0)")


@dataclass(frozen=True, slots=True)
class LLMSettings:
    """An OpenAI-compatible chat completions endpoint for the optional LLM extractor.

    ``base_url`` is the API root (``https://api.example.com/v1``); requests go to ``{base_url}/chat/completions``.
    The API key is kept out of ``repr`` and never written to a response, a log line or an error message.
    """

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_reasks: int = 2
    max_response_bytes: int = 2 * 1024 * 1024
    temperature: float = 0.0

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InputError("the LLM base URL must be an http(s) URL")
        if parts.username or parts.password:
            raise InputError("put the LLM API key in ONT_LLM_API_KEY, not in the URL")
        if not self.model.strip():
            raise InputError("the LLM model name must not be empty")
        if not 0 <= self.max_reasks <= 10:
            raise InputError("max_reasks must be from 0 to 10")
        if self.api_key is not None:  # refused here by name: an HTTP client refusing it would quote it
            check_headers({"Authorization": f"Bearer {self.api_key}"}, "the LLM API key (ONT_LLM_API_KEY)")


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """Everything ``create_app`` needs besides the graphs.

    * ``allow_private_urls``: fetch URLs whose host is loopback, private, link-local or otherwise not public.
      Off by default; turn it on only for a service that nobody outside the machine can reach.
    * ``allowed_networks``: addresses or networks fetched even though they are not public (an intranet
      wiki, a test server on 127.0.0.1), without opening every private address.
    * ``fetch``: byte, time and redirect limits of URL fetches.
    * ``max_text_chars``: longest text the extractors read; longer main text is cut, with a warning.
    * ``max_body_bytes``: largest request body the service accepts.
    * ``validator``: the guard's validator for extraction output (``lightweight``, ``guardrails``, ...).
    * ``llm``: the optional LLM extractor's endpoint; ``None`` means only the built-in extractor.
    * ``extract_time_s``: longest the built-in extractor reads one text; the rest is left unread, with a warning.
    * ``verify_max_rows``: most rows of an answer's ``generated_query`` that ``/api/v1/verify`` reads back (an
      answer's query names a path's nodes, not thousands of rows; each row read back costs the server's
      interpreter time every other request shares). More rows fail the ``query`` check.
    * ``max_active``: requests to ``/api/`` worked on at once; ``max_waiting`` more may wait for a turn, each at
      most ``wait_s`` seconds. A request beyond that is answered at once with 503 and ``Retry-After``, so a
      flood queues nowhere: not in the service, not in its thread pool.
    """

    allow_private_urls: bool = False
    allowed_networks: tuple[Network, ...] = ()
    fetch: FetchLimits = field(default_factory=FetchLimits)
    max_text_chars: int = 200_000
    max_body_bytes: int = 4 * 1024 * 1024
    validator: str = "lightweight"
    llm: LLMSettings | None = None
    extract_time_s: float = 5.0
    verify_max_rows: int = 1_000
    max_active: int = 8
    max_waiting: int = 64
    wait_s: float = 10.0
    api_token: str | None = field(default=None, repr=False)
    """Writes (``/api/v1/ingest``, ``/api/v1/extract/url?ingest=true``) need it as a Bearer token; ``None``: the
    service is read-only."""
    write_rate_per_min: int = 30
    """Writes one client address may make a minute."""

    def __post_init__(self) -> None:
        if self.max_text_chars <= 0 or self.max_body_bytes <= 0:
            raise InputError("max_text_chars and max_body_bytes must be positive")
        if (
            self.verify_max_rows <= 0
            or self.extract_time_s <= 0
            or self.max_active <= 0
            or self.max_waiting < 0
            or self.wait_s <= 0
        ):
            raise InputError(
                "verify_max_rows, extract_time_s, max_active and wait_s must be positive, max_waiting at least 0"
            )

    @staticmethod
    def networks(values: Iterable[str]) -> tuple[Network, ...]:
        """Parse ``"127.0.0.1"``, ``"10.0.0.0/8"``, ``"::1"`` ... into networks (InputError when one is not)."""
        out: list[Network] = []
        for value in values:
            try:
                out.append(ipaddress.ip_network(value.strip(), strict=False))
            except ValueError as exc:
                raise InputError(f"not an IP address or network: {value!r}") from exc
        return tuple(out)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, /, **overrides: Any) -> ServiceSettings:
        """Settings from ``ONT_ALLOW_PRIVATE_URLS`` (1/true), ``ONT_ALLOWED_NETWORKS`` (comma separated),
        ``ONT_LLM_BASE_URL``, ``ONT_LLM_MODEL``, ``ONT_LLM_API_KEY`` and ``ONT_API_TOKEN``; keyword ``overrides``
        win."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        flag = env.get("ONT_ALLOW_PRIVATE_URLS", "").strip().lower()
        if flag:
            values["allow_private_urls"] = flag in ("1", "true", "yes", "on")
        nets = [n for n in env.get("ONT_ALLOWED_NETWORKS", "").split(",") if n.strip()]
        if nets:
            values["allowed_networks"] = cls.networks(nets)
        base_url, model = env.get("ONT_LLM_BASE_URL", "").strip(), env.get("ONT_LLM_MODEL", "").strip()
        if base_url or model:
            if not (base_url and model):
                raise InputError("set both ONT_LLM_BASE_URL and ONT_LLM_MODEL to use an LLM extractor")
            values["llm"] = LLMSettings(base_url=base_url, model=model, api_key=env.get("ONT_LLM_API_KEY") or None)
        token = env.get("ONT_API_TOKEN", "").strip()
        if token:
            values["api_token"] = token
        values.update(overrides)
        return cls(**values)


DEFAULT_SETTINGS = ServiceSettings()

__all__ = ["DEFAULT_SETTINGS", "FetchLimits", "LLMSettings", "Network", "ServiceSettings"]
