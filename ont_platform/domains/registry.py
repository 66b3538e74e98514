"""Finding domains: the bundled three, the ones a program registers, and the ones a dataset folder brings.

The registry is the one place that knows the bundled domains by name. Everything else gets a :class:`Domain` from
:func:`get_domain` (by name), :func:`domain_of_folder` (by what a dataset folder holds) or from the graph that
stored it.

A name stands for one ontology in a process: registering a different ontology under a name already in use is an
error (two graphs answering ``films`` questions with two different ontologies would give answers nobody could
tell apart), while registering the same ontology again is a no-op.
"""

from __future__ import annotations

import threading
from pathlib import Path

from rdflib import Namespace

from ont_platform.domains.base import Domain, Source
from ont_platform.errors import InputError, OntologyError
from ont_platform.families import families
from ont_platform.namespaces import KG, OC, PG

_lock = threading.Lock()
_registered: dict[str, Domain] = {}

ONTOLOGY_FILE = "ontology.ttl"
SHAPES_FILE = "shapes.ttl"


def _bundled(name: str) -> Domain:
    from ont_platform.resources import ontology_file, shapes_file

    kinds: dict[str, tuple[str, Namespace]] = {
        "onchain": ("transfers", OC),
        "kg": ("entities", KG),
        "pages": ("inventory", PG),
    }
    family, ns = kinds[name]
    return Domain(
        name,
        family,
        (Source(f"ontologies/{name}.ttl", path=ontology_file(name)),),
        (Source(f"shapes/{name}.ttl", path=shapes_file(name)),),
        str(ns),
        bundled=True,
    )


BUNDLED: tuple[str, ...] = ("onchain", "kg", "pages")
"""The domains that come with the library (seed 000, 003 and 004)."""

DEFAULT_ENTITIES = "kg"
"""The entity–relation domain an extraction is ingested into when nothing else names one."""


def get_domain(name: str | Domain) -> Domain:
    """The domain called ``name`` (a bundled one, or one registered in this process); a :class:`Domain` is
    returned as it is. An unknown name is an :class:`~ont_platform.errors.InputError` listing the known ones."""
    if isinstance(name, Domain):
        return name
    if not isinstance(name, str):
        raise InputError(f"a domain is a name or a Domain, got {type(name).__name__}")
    with _lock:
        found = _registered.get(name)
        if found is None and name in BUNDLED:
            found = _registered[name] = _bundled(name)
    if found is None:
        raise InputError(f"unknown domain {name!r}; known: {', '.join(domain_names())}")
    return found


def register_domain(domain: Domain) -> Domain:
    """Make ``domain`` known by its name in this process and return the registered object (the one already
    there when it holds the same ontology). A different ontology under a name in use raises
    :class:`~ont_platform.errors.OntologyError`."""
    with _lock:
        have = _registered.get(domain.name)
        if have is None and domain.name in BUNDLED:
            have = _registered[domain.name] = _bundled(domain.name)
        if have is None:
            _registered[domain.name] = domain
            return domain
    if have is domain or (not have.bundled and have.fingerprint() == domain.fingerprint()):
        return have
    raise OntologyError(
        f"a different domain is already called {domain.name!r} in this process; give this "
        "one another name (ont:domainName in its ontology, or the name argument)"
    )


def domain_names() -> list[str]:
    """The bundled domains and every domain registered in this process, sorted."""
    with _lock:
        return sorted(set(BUNDLED) | set(_registered))


def domain_of_folder(
    folder: str | Path, *, ontology: str | Path | None = None, shapes: str | Path | None = None
) -> Domain:
    """The domain of a dataset: its own (an ontology beside kg tables or RDF data, named by the ontology's
    ``ont:domainName`` or else by the folder or file), or the bundled domain whose tables it holds.

    ``folder`` is a folder of tables, or RDF data (a file, or a folder of files) of a family that reads it
    (``triples``). Exactly one family must recognise it. The ontology is ``ontology.ttl`` in the folder, or the
    ``ontology`` file given (and ``shapes.ttl`` / ``shapes`` likewise); a given file wins over the folder's."""
    path = Path(folder)
    if not path.exists():
        raise InputError(f"not a dataset folder or RDF file: {path}")
    known = list(families())
    found = [f for f in known if f.recognises(path)]
    if len(found) != 1:
        expected = ", ".join(f.tables[0] if f.tables else f"{f.name} data" for f in known)
        what = "none" if not found else " and ".join(f.name for f in found)
        raise InputError(f"{path}: a dataset folder holds one of {expected}; found {what}")
    family = found[0]
    here = path if path.is_dir() else path.parent
    own = Path(ontology) if ontology is not None else (here / ONTOLOGY_FILE if path.is_dir() else None)
    shapes_path = Path(shapes) if shapes is not None else (here / SHAPES_FILE if path.is_dir() else None)
    if shapes_path is not None and not shapes_path.is_file():
        if shapes is not None:
            raise InputError(f"no shapes file {shapes_path}")
        shapes_path = None
    if own is not None and own.is_file():
        if not family.own_ontology:
            takes = " or ".join(", ".join(f.tables) or f"{f.name} data" for f in known if f.own_ontology)
            raise InputError(
                f"{path}: an {ONTOLOGY_FILE} of its own goes with the kg tables or RDF data ({takes}); "
                f"this folder holds {family.tables[0] if family.tables else family.name}"
            )
        name = None if _declares_name(own) else _folder_name(path)
        same = _registered_same(name, own, shapes_path, family.name)
        if same is not None:
            return same  # the same files again: checked when first read
        try:
            return register_domain(Domain.from_files(name, own, shapes_path, family=family.name))
        except OntologyError as exc:  # the folder's own ontology is the user's input: exit code 2, not 3
            raise InputError(f"{path}: {exc}") from exc
    if ontology is not None:
        raise InputError(f"no ontology file {own}")
    if shapes_path is not None:
        raise InputError(f"{path}: {SHAPES_FILE} is used only with an {ONTOLOGY_FILE} beside it")
    if family.bundled_domain is None:
        raise InputError(
            f"{path}: {family.name} data needs an ontology: an {ONTOLOGY_FILE} beside it, or give one "
            "(--ontology FILE, ontology=...)"
        )
    return get_domain(family.bundled_domain)


def _registered_same(name: str | None, ontology: Path, shapes: Path | None, family: str) -> Domain | None:
    """The registered domain of ``family`` made from exactly these files' text, if any."""
    if name is None:
        return None
    with _lock:
        have = _registered.get(name)
    if have is None or have.bundled or have.family != family:
        return None
    try:
        texts = [ontology.read_text(encoding="utf-8")] + ([shapes.read_text(encoding="utf-8")] if shapes else [])
    except (OSError, UnicodeDecodeError):
        return None
    mine = [s.read() for s in (*have.ontology_sources, *have.shapes_sources)]
    return have if mine == texts else None


def _declares_name(ontology: Path) -> bool:
    from ont_platform.domains.base import declared_name, parse_turtle, turtle_of

    try:
        text = turtle_of(ontology)  # an RDF/XML ontology is read as RDF/XML, not as Turtle
        return declared_name(parse_turtle((Source(str(ontology), text=text),), "ontology")) is not None
    except OntologyError:
        return False  # Domain.from_files reports the file's own error


def _folder_name(path: Path) -> str:
    """The folder's (or a file's, without its suffix) name as a domain name: lower-case, other characters as
    '-' ("My Data" → "my-data", "people.ttl" → "people")."""
    resolved = path.resolve()
    raw = (resolved.name if resolved.is_dir() else resolved.stem).lower()
    name = "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "-" for c in raw).strip("-")
    if not name or not name[0].isalpha():
        name = f"d-{name}" if name else "dataset"
    return name[:40]


def forget_domain(name: str) -> None:
    """Drop a registered (not bundled) domain from this process: for tests and long-lived notebooks that rebuild
    an ontology under the same name. Graphs that use it keep their own reference."""
    with _lock:
        have = _registered.get(name)
        if have is not None and not have.bundled:
            del _registered[name]
