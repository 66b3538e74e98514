"""The documentation does what it says.

* Every ```python block of docs/getting-started.md runs, in order and in one namespace, from a scratch folder
  where ``examples/`` is the repository's; a ``print(...)`` followed by a ``# comment`` (on its line or the next)
  must print that comment's text.
* Every ``ont`` command and ``ont eval`` subcommand that docs/cli.md mentions exists in the parser, every option a
  command's section names is an option of that command, and every command of the parser has a section.
* Every page in docs/ is listed in docs/index.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from pathlib import Path

import pytest

from ont_platform.cli.main import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
PRINT_WITH_COMMENT = re.compile(r"^\s*print\(.*\)\s+#\s?(?P<expected>.+?)\s*$")
COMMENT_LINE = re.compile(r"^\s*#\s?(?P<expected>.+?)\s*$")


def python_blocks(page: Path) -> list[str]:
    return PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))


def expected_outputs(block: str) -> list[str]:
    """The text a block's comments promise that its prints print."""
    lines = block.splitlines()
    out = []
    for n, line in enumerate(lines):
        m = PRINT_WITH_COMMENT.match(line)
        if m is None and line.lstrip().startswith("print(") and n + 1 < len(lines):
            m = COMMENT_LINE.match(lines[n + 1])
        if m is not None:
            out.append(m["expected"])
    return out


def test_getting_started_python_blocks_run_and_print_what_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = python_blocks(DOCS / "getting-started.md")
    assert len(blocks) >= 5
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    checked = 0
    try:
        for number, block in enumerate(blocks, 1):
            stdout = io.StringIO()
            with contextlib.redirect_stdout(stdout):
                exec(compile(block, f"getting-started.md python block {number}", "exec"), namespace)  # noqa: S102
            for expected in expected_outputs(block):
                assert expected in stdout.getvalue(), (
                    f"block {number} should print {expected!r}; it printed:\n{stdout.getvalue()}"
                )
                checked += 1
    finally:
        for value in namespace.values():  # release stores a failing block left open
            close = getattr(value, "close", None)
            if callable(close) and type(value).__name__ == "KnowledgeGraph":
                close()
    assert checked >= 10
    assert (tmp_path / "onchain.ttl").is_file() and (tmp_path / "onchain.db").is_dir()


def test_expected_output_comments_are_found() -> None:
    block = 'print(1, 2)   # 1 2\nx = 3\nprint({"a": x})\n# {\'a\': 3}\nprint("no comment")\n'
    assert expected_outputs(block) == ["1 2", "{'a': 3}"]


# ---------------------------------------------------------------------------------------------------------
# docs/cli.md against the parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser._option_string_actions)


def cli_sections() -> dict[tuple[str, ...], str]:
    """The text of each section of docs/cli.md whose heading is a command: ("ask",) or ("eval", "gold")."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    sections: dict[tuple[str, ...], str] = {}
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.MULTILINE)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        if m := re.fullmatch(r"#{2,3} `ont ([a-z][a-z-]*(?: [a-z][a-z-]*)?)`", heading.strip()):
            words = tuple(m[1].split())
            # "## `ont eval`" introduces the subcommands; its own text stops at the first "###"
            sections[words] = body
    return sections


def test_every_command_in_cli_md_exists_in_the_parser() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    commands = subcommands(build_parser())
    mentioned = set(re.findall(r"\bont ([a-z][a-z-]*)", text))
    assert mentioned, "docs/cli.md mentions no command"
    missing = sorted(mentioned - set(commands))
    assert not missing, f"docs/cli.md mentions commands the parser does not have: {missing}"
    eval_sub = subcommands(commands["eval"])
    mentioned_eval = set(re.findall(r"\bont eval ([a-z][a-z-]*)", text))
    assert mentioned_eval and not mentioned_eval - set(eval_sub), sorted(mentioned_eval - set(eval_sub))


def test_every_parser_command_has_a_section_in_cli_md() -> None:
    sections = cli_sections()
    commands = subcommands(build_parser())
    assert not sorted(set(commands) - {words[0] for words in sections}), "commands without a section in docs/cli.md"
    for name in subcommands(commands["eval"]):
        assert ("eval", name) in sections, f"ont eval {name} has no section in docs/cli.md"


def test_options_named_in_a_command_section_exist() -> None:
    commands = subcommands(build_parser())
    for words, body in cli_sections().items():
        if words[0] not in commands:
            continue  # reported by the test above
        parser = commands[words[0]]
        if len(words) == 2:
            parser = subcommands(parser)[words[1]]
        named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", body))
        unknown = sorted(named - options(parser))
        assert not unknown, f"docs/cli.md, ont {' '.join(words)}: options the command does not have: {unknown}"


def test_every_store_option_in_cli_md_exists() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    store = text.split("## Choosing the store", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", store)) - {"--data"}
    from ont_platform.cli.common import store_args

    parser = argparse.ArgumentParser()
    store_args(parser)
    assert named == options(parser) - {"-h", "--help"}  # each store option documented, none invented
    for name in ("ask", "load", "export", "verify"):
        assert named <= options(subcommands(build_parser())[name]), name


# ---------------------------------------------------------------------------------------------------------
# docs/index.md


def test_index_lists_every_page() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w.-]+\.md)\)", index))
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert not sorted(pages - linked), "pages missing from docs/index.md"
