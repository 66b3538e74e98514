"""The one exception tree of ont_platform.

Every error a user can meet is a subclass of :class:`OntError`, so ``except OntError`` catches all of them
and nothing else. Errors of the engines underneath (pyoxigraph, rdflib, pyshacl, HTTP clients) are translated
into these at the boundary where they happen, with the original kept as ``__cause__``::

    OntError
    ├── InputError            bad input from a user: a file, a CSV row, an argument, a question
    │   ├── DatasetError      a dataset folder that breaks the ontology or the shapes (carries every problem)
    │   └── RDFSyntaxError    RDF text that does not parse, or that declares a DOCTYPE/ENTITY
    ├── QueryError            a SPARQL query that is refused or fails
    │   ├── QueryRefused      a query that is not a bounded read (SERVICE, LOAD, FROM, updates, p*)
    │   └── QueryTimeout      a query stopped at its time limit (the limit is in the message)
    ├── StoreError            the storage backend failed
    │   ├── StoreLockedError  an on-disk store is already open for writing by another process
    │   └── EndpointError     a remote SPARQL endpoint answered with an error or not at all
    ├── OntologyError         an ontology or shapes file that cannot be used
    ├── ValidationFailed      a strict OntologyGuard refused a payload (carries the ValidationResult)
    ├── ValidatorError        a validator that cannot be created or that broke while checking
        ├── UnknownValidator  no validator of that name (built in, registered or from an entry point);
        │                     also an InputError, since the name came from the user
    │   └── MissingDependency an optional package a validator needs is not installed (the message says
    │                         which extra to install); also an ImportError
    └── FetchError            a URL that could not be fetched (``code`` names the reason)
        ├── URLRefused        the URL or an address it leads to is not allowed; also an InputError
        └── FetchFailed       the site gave no usable page (no answer, error status, too big, too slow)

    NotFound (an InputError)  a domain or node the HTTP service does not hold
"""

from __future__ import annotations

from dataclasses import dataclass


class OntError(Exception):
    """Base of every error raised by ont_platform."""


class InputError(OntError, ValueError):
    """Input from a user that cannot be used. Nothing was changed."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a dataset row or file was refused: where it is and why."""

    file: str
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.reason}"


class DatasetError(InputError):
    """A dataset that was refused as a whole; :attr:`problems` lists every reason found."""

    def __init__(self, problems: list[Problem], *, max_shown: int = 20) -> None:
        self.problems = list(problems)
        shown = "\n".join(f"  {p}" for p in self.problems[:max_shown])
        more = len(self.problems) - max_shown
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"dataset refused, nothing was loaded ({len(self.problems)} problem(s)):\n{shown}{tail}")


class RDFSyntaxError(InputError):
    """RDF text that does not parse (or that declares a DOCTYPE or ENTITY, refused before parsing)."""


class QueryError(OntError):
    """A SPARQL query failed or was refused."""


class QueryRefused(QueryError):
    """A query that is not a bounded read and so is never run."""


class QueryTimeout(QueryError):
    """A query that did not finish within its time limit and was stopped; nothing was returned.

    The store is unchanged and answers the next query. :attr:`limit` is the limit in seconds.
    """

    def __init__(self, message: str, *, limit: float) -> None:
        super().__init__(message)
        self.limit = limit


class StoreError(OntError):
    """The storage backend failed."""


class StoreLockedError(StoreError):
    """An on-disk store is already open for writing by another process."""


class EndpointError(StoreError):
    """A remote SPARQL endpoint answered with an error, or did not answer."""


class OntologyError(OntError):
    """An ontology or shapes file that cannot be loaded or used."""


class ValidationFailed(OntError):
    """A strict :class:`~ont_platform.validation.OntologyGuard` refused a payload.

    :attr:`result` is the full :class:`~ont_platform.validation.ValidationResult` (errors, warnings, re-ask
    message), the same object a non-strict guard would have returned.
    """

    def __init__(self, result: object) -> None:
        self.result = result
        errors = list(getattr(result, "validation_errors", []) or [])
        shown = "\n".join(f"  {e}" for e in errors[:10])
        more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"validation failed ({len(errors)} error(s)):\n{shown}{more}")

    @property
    def errors(self) -> list[object]:
        """The validation errors, as on the result."""
        return list(getattr(self.result, "validation_errors", []) or [])


class ValidatorError(OntError):
    """A validator that cannot be created, or that failed while checking (a bug, not a bad payload)."""


class UnknownValidator(ValidatorError, InputError):
    """No validator is known under the requested name."""


class MissingDependency(ValidatorError, ImportError):
    """An optional dependency is not installed; the message names the extra that provides it."""


class FetchError(OntError):
    """A URL that could not be fetched. :attr:`code` names the reason for machines."""

    code = "fetch_failed"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class URLRefused(FetchError, InputError):
    """The URL, or an address it leads to, is not allowed: nothing was sent to it."""

    code = "url_refused"


class FetchFailed(FetchError):
    """The URL was allowed but the site did not give a usable page (no answer, an error status, too big, too
    slow, not HTML or text). ``code`` is one of ``unresolvable``, ``connect``, ``timeout``, ``status``,
    ``too_large``, ``content_type``, ``redirects``, ``bad_response``."""


class NotFound(InputError):
    """A domain or node the service does not hold."""
