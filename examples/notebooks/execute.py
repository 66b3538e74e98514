"""Run every notebook of this folder top to bottom and store it with its outputs (``make notebooks``).

    .venv/bin/python examples/notebooks/execute.py                   # every notebook here
    .venv/bin/python examples/notebooks/execute.py kg_people.ipynb   # only some

Each notebook runs with nbclient in a fresh IPython kernel on this interpreter (the built-in ``python3`` kernel
spec, whatever kernels the user's Jupyter folders hold), with this folder as the working directory, as Jupyter
does; nothing in them needs the network. A failing cell stops the run and nothing is written.

The stored file must not change when nothing it shows has changed, so that a diff of a notebook is a change of
what it shows. What would differ between two runs is normalised here, before writing:

- no timing metadata (``record_timing`` off, any ``execution`` metadata dropped);
- execution counts numbered 1, 2, 3 … over the code cells, in order, and the same number on each cell's result;
- consecutive stream outputs of one name merged (the kernel may flush one ``print`` as two messages);
- the kernel's ``language_info`` without the interpreter's version, and the standard ``python3`` kernelspec.

Outputs themselves are never edited: a cell whose output would vary between runs (a duration, a temporary
path) must not print it. ``tests/notebooks/test_notebooks.py`` runs the notebooks again through :func:`execute`
and fails when a stored output differs from a fresh one.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nbclient
import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager

HERE = Path(__file__).resolve().parent
CELL_TIMEOUT_S = 120
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


class ThisPython(AsyncKernelManager):  # type: ignore[misc]  # jupyter_client ships no type hints
    """The built-in ``python3`` kernel spec only: ipykernel on this interpreter. A kernel named python3 in the
    user's Jupyter folders must not decide which Python runs the notebooks."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("kernel_spec_manager", KernelSpecManager(kernel_dirs=[]))
        super().__init__(**kwargs)


def notebooks() -> list[Path]:
    """The notebooks of this folder, by name."""
    return sorted(HERE.glob("*.ipynb"))


def execute(path: str | Path) -> Any:
    """The notebook at ``path`` (a name in this folder, or a path), run top to bottom and normalised.

    Raises nbclient's CellExecutionError on the first failing cell."""
    path = HERE / path if not Path(path).is_absolute() else Path(path)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=ThisPython,
        timeout=CELL_TIMEOUT_S,
        allow_errors=False,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return normalise(nb)


def normalise(nb: Any) -> Any:
    """Remove from ``nb`` (in place, and returned) what changes between two runs of the same notebook."""
    language = {k: v for k, v in nb.metadata.get("language_info", {"name": "python"}).items() if k != "version"}
    nb.metadata = nbformat.NotebookNode({"kernelspec": dict(KERNELSPEC), "language_info": language})
    count = 0
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        outputs: list[Any] = []
        for out in cell.outputs:
            if out.output_type == "execute_result":
                out.execution_count = count
            previous = outputs[-1] if outputs else None
            if (
                out.output_type == "stream"
                and previous is not None
                and previous.output_type == "stream"
                and previous.name == out.name
            ):
                previous.text += out.text
            else:
                outputs.append(out)
        cell.outputs = outputs
    nbformat.validate(nb)
    return nb


def main(argv: list[str]) -> int:
    paths = [HERE / name for name in argv] if argv else notebooks()
    for path in paths:
        print(f"{path.name}: running", flush=True)
        text = nbformat.writes(execute(path))
        text += "" if text.endswith("\n") else "\n"  # as nbformat.write ends the file
        if path.read_text(encoding="utf-8") == text:
            print(f"{path.name}: unchanged")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"{path.name}: written with its outputs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
