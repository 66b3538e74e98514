"""``ont validate FILE --validator NAME [--strict] [--domain D]``: check an LLM extraction from the shell.

Prints the validation result as one JSON object on stdout. Exit codes: 0 the extraction passed, 1 it did not
(with ``--strict``, warnings count too), 2 unusable input (unreadable file, not JSON, unknown validator).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ont_platform.errors import InputError, ValidationFailed

EXIT_OK, EXIT_NEGATIVE = 0, 1
MAX_FILE_BYTES = 64 * 1024 * 1024


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register the ``validate`` command on an ``add_subparsers()`` object; returns its parser."""
    p = sub.add_parser(
        "validate",
        help="check an LLM extraction (JSON) with a validator, before anything reaches a graph",
        description="Validate an extraction payload ({\"entities\": [...], \"relations\": [...]}) with the "
                    "lightweight, guardrails or ontocast validator (or a plugin's) and print the result as JSON: "
                    "validation_passed, validation_errors and warnings (each with code, path and message), and "
                    "a re-ask message for an LLM. Exit 0 when it passed, 1 when not, 2 for unusable input.",
    )
    p.add_argument("file", metavar="FILE", help="the extraction as a JSON file, or - to read stdin")
    p.add_argument("--validator", default="lightweight", metavar="NAME",
                   help="lightweight (default), guardrails, ontocast, or an installed plugin's name")
    p.add_argument("--strict", action="store_true",
                   help="strict guard; warnings also fail (exit 1)")
    p.add_argument("--domain", metavar="NAME",
                   help="also check classes, relations, domain/range and datatypes of this domain's ontology")
    p.add_argument("--data", type=Path, metavar="DIR",
                   help="check against the ontology of this dataset folder (its own ontology.ttl, or the bundled "
                        "domain whose tables it holds); nothing is loaded")
    p.set_defaults(func=cmd_validate)
    parser: argparse.ArgumentParser = p
    return parser


def _read(name: str) -> Any:
    if name == "-":
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        where = "stdin"
    else:
        path = Path(name)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise InputError(f"{path} is larger than {MAX_FILE_BYTES} bytes")
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise InputError(f"no such file: {path}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {path}: {exc}") from exc
        where = str(path)
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"{where} is larger than {MAX_FILE_BYTES} bytes")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise InputError(f"{where}: JSON nested too deeply") from exc


def cmd_validate(args: argparse.Namespace) -> int:
    from ont_platform.validation import OntologyGuard

    payload = _read(args.file)
    ontology = args.domain
    if args.data is not None:
        from ont_platform.domains import domain_of_folder

        spec = domain_of_folder(args.data)
        if args.domain is not None and args.domain != spec.name:
            raise InputError(f"--domain {args.domain} but {args.data} holds the {spec.name} domain")
        ontology = spec
    guard = OntologyGuard(args.validator, strict=args.strict, ontology=ontology)
    try:
        result = guard.validate_sync(payload)
    except ValidationFailed as exc:
        result = exc.result  # type: ignore[assignment]
    sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
    if not result.validation_passed:
        print(f"validation failed: {len(result.validation_errors)} error(s), {len(result.warnings)} warning(s)",
              file=sys.stderr)
        return EXIT_NEGATIVE
    if args.strict and result.warnings:
        print(f"--strict: {len(result.warnings)} warning(s)", file=sys.stderr)
        return EXIT_NEGATIVE
    return EXIT_OK


__all__ = ["add_parser", "cmd_validate"]
