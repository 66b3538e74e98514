"""The HTTP service (``ont serve``): the library's questions, verification and guarded extraction over HTTP,
and the admin page. See docs/http-api.md.

``create_app`` needs the ``server`` extra (FastAPI, uvicorn, trafilatura) and is imported on first use; the
settings and the guarded URL fetcher need only the core dependencies.
"""

from typing import TYPE_CHECKING, Any

from ont_platform.service.fetch import (
    AddressPolicy,
    FetchedPage,
    Fetcher,
    FetchError,
    FetchFailed,
    URLRefused,
)
from ont_platform.service.settings import FetchLimits, LLMSettings, ServiceSettings

if TYPE_CHECKING:
    from ont_platform.service.app import create_app

__all__ = [
    "AddressPolicy",
    "FetchError",
    "FetchFailed",
    "FetchLimits",
    "FetchedPage",
    "Fetcher",
    "LLMSettings",
    "ServiceSettings",
    "URLRefused",
    "create_app",
]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        try:
            from ont_platform.service.app import create_app
        except ImportError as exc:
            from ont_platform.errors import MissingDependency

            raise MissingDependency(
                f"the HTTP service needs the server extra: pip install 'ont_platform[server]' ({exc.name} is missing)"
            ) from exc
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
