"""``ont validate FILE [--jsonl] --validator NAME [--strict] [--domain D]``: check LLM extractions from the shell.

The command reads text and hands it, as text, to :meth:`OntologyGuard.validate_sync`: whatever the Python guard
accepts (plain JSON, JSON inside a Markdown code fence) the command accepts, through the same code path, and
what the guard reports as a finding (``invalid_json`` for text that is not JSON, ``too_large``) is a result
here too, not unusable input. One parser, so the shell and the library can never disagree about a payload.

Prints the validation result as one JSON object on stdout. With ``--jsonl`` (implied by a FILE ending in
``.jsonl``) each non-blank line is one payload and one result line, with its ``line`` number, is printed per
payload. Exit codes: 0 every payload passed, 1 one did not (with ``--strict``, warnings count too), 2 unusable
input (unreadable file or not UTF-8 text, a batch without payloads, unknown validator).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ont_platform.errors import InputError, ValidationFailed

if TYPE_CHECKING:
    from ont_platform.validation.result import ValidationResult

EXIT_OK, EXIT_NEGATIVE = 0, 1
MAX_FILE_BYTES = 64 * 1024 * 1024


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register the ``validate`` command on an ``add_subparsers()`` object; returns its parser."""
    p = sub.add_parser(
        "validate",
        help="check an LLM extraction (JSON) with a validator, before anything reaches a graph",
        description='Validate an extraction payload ({"entities": [...], "relations": [...]}) with the '
        "lightweight, guardrails or ontocast validator (or a plugin's) and print the result as JSON: "
        "validation_passed, validation_errors and warnings (each with code, path and message), and "
        "a re-ask message for an LLM. Text that is not JSON is an invalid_json result, as in the Python "
        "guard. Exit 0 when it passed (every line of a --jsonl batch), 1 when not, 2 for unusable "
        "input.",
    )
    p.add_argument(
        "file",
        metavar="FILE",
        help="the extraction as JSON (a Markdown code fence around it is accepted), or - to read stdin",
    )
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="JSON Lines batch: one payload per line, one result per line with its line number "
        "(implied by a FILE ending in .jsonl)",
    )
    p.add_argument(
        "--validator",
        default="lightweight",
        metavar="NAME",
        help="lightweight (default), guardrails, ontocast, or an installed plugin's name",
    )
    p.add_argument("--strict", action="store_true", help="strict guard; warnings also fail (exit 1)")
    p.add_argument(
        "--domain",
        metavar="NAME",
        help="also check classes, relations, domain/range and datatypes of this domain's ontology",
    )
    p.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="check against the ontology of this dataset folder (its own ontology.ttl, or the bundled "
        "domain whose tables it holds); nothing is loaded",
    )
    p.set_defaults(func=cmd_validate)
    parser: argparse.ArgumentParser = p
    return parser


def _read(name: str) -> tuple[str, str]:
    """The text of FILE (or stdin) and a name for it in messages.

    Only what stops the text from being read at all is unusable input (exit 2): a missing or unreadable file,
    bytes that are not UTF-8, more than :data:`MAX_FILE_BYTES`. Whether the text is JSON is the guard's
    call, so it is not parsed here. A UTF-8 byte order mark is an artefact of the file, not of the payload,
    and is dropped.
    """
    if name == "-":
        try:
            text = sys.stdin.read(MAX_FILE_BYTES + 1)
        except UnicodeDecodeError as exc:
            raise InputError(f"cannot read stdin: not UTF-8 text ({exc.reason})") from exc
        where = "stdin"
    else:
        path = Path(name)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise InputError(f"{path} is larger than {MAX_FILE_BYTES} bytes")
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError as exc:
            raise InputError(f"no such file: {path}") from exc
        except UnicodeDecodeError as exc:
            raise InputError(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
        where = str(path)
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"{where} is larger than {MAX_FILE_BYTES} bytes")
    return text.removeprefix("\ufeff"), where


def is_batch(args: argparse.Namespace) -> bool:
    """JSON Lines mode: ``--jsonl``, or a FILE whose name ends in ``.jsonl`` (any case)."""
    return bool(getattr(args, "jsonl", False)) or (args.file != "-" and args.file.lower().endswith(".jsonl"))


def batch_lines(text: str) -> list[tuple[int, str]]:
    """(line number from 1, text) of each non-blank line of a JSON Lines batch.

    Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (a file is read with universal newlines, stdin is not, and a
    raw carriage return cannot be inside a JSON string anyway). ``str.splitlines`` is not used because it also
    breaks at U+2028, U+0085 and other characters that JSON strings may hold raw.

    >>> batch_lines('{"a": 1}\\r\\n\\n  \\r{"b": "x\\u2028y"}\\n')
    [(1, '{"a": 1}'), (4, '{"b": "x\\u2028y"}')]
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip()]


def _guard(args: argparse.Namespace) -> Any:
    from ont_platform.validation import OntologyGuard

    ontology = args.domain
    if args.data is not None:
        from ont_platform.domains import domain_of_folder

        spec = domain_of_folder(args.data)
        if args.domain is not None and args.domain != spec.name:
            raise InputError(f"--domain {args.domain} but {args.data} holds the {spec.name} domain")
        ontology = spec
    # An unknown --validator raises UnknownValidator (an InputError: exit 2) naming the available validators,
    # entry-point plugins included.
    return OntologyGuard(args.validator, strict=args.strict, ontology=ontology)


def _check(guard: Any, payload: str) -> ValidationResult:
    try:
        result: ValidationResult = guard.validate_sync(payload)
    except ValidationFailed as exc:
        result = cast("ValidationResult", exc.result)  # the guard raises it with its own result
    return result


def _fails(result: ValidationResult, strict: bool) -> bool:
    return not result.validation_passed or (strict and bool(result.warnings))


def cmd_validate(args: argparse.Namespace) -> int:
    text, where = _read(args.file)
    batch = is_batch(args)
    lines = batch_lines(text) if batch else []
    if batch and not lines:
        raise InputError(f"{where} holds no payload: a JSON Lines batch needs one non-blank line per payload")
    guard = _guard(args)
    if batch:
        return _validate_batch(guard, lines, where, args.strict)
    result = _check(guard, text)
    sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
    if not result.validation_passed:
        first = result.validation_errors[0]
        print(
            f"validation failed: {len(result.validation_errors)} error(s), {len(result.warnings)} warning(s); "
            f"first: {first}",
            file=sys.stderr,
        )
        return EXIT_NEGATIVE
    if args.strict and result.warnings:
        print(f"--strict: {len(result.warnings)} warning(s)", file=sys.stderr)
        return EXIT_NEGATIVE
    return EXIT_OK


def _validate_batch(guard: Any, lines: list[tuple[int, str]], where: str, strict: bool) -> int:
    """One result line per payload line, ``{"line": n, ...result.as_dict()}``, written as soon as it is known.

    A line that is not JSON is that line's ``invalid_json`` result, as the guard gives for such a string; it
    does not stop the batch.
    """
    failed: list[int] = []
    for n, line in lines:
        result = _check(guard, line)
        if _fails(result, strict):
            failed.append(n)
        sys.stdout.write(json.dumps({"line": n, **result.as_dict()}, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    if failed:
        shown = ", ".join(map(str, failed[:20])) + (", ..." if len(failed) > 20 else "")
        print(f"validation failed: {len(failed)} of {len(lines)} payload(s) in {where} (line {shown})", file=sys.stderr)
        return EXIT_NEGATIVE
    return EXIT_OK


__all__ = ["add_parser", "batch_lines", "cmd_validate", "is_batch"]
