"""What the families of CSV tables share: a folder is theirs when it holds their first table, and it is read
by :class:`~ont_platform.ingest.datasets.DatasetLoad` (which calls the family's ``read_tables``).

Its own module, imported by the table families' packages only: the registry and the protocol
(:mod:`ont_platform.families.base`) stay free of the loader, which itself asks the registry for families.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ont_platform.domains import Domain
    from ont_platform.families.base import Dataset
    from ont_platform.limits import Limits


class TablesDataset:
    """What the families of CSV tables share: a folder is theirs when it holds their first table, and it is
    read by :class:`~ont_platform.ingest.datasets.DatasetLoad` (which calls the family's ``read_tables``)."""

    tables: tuple[str, ...]

    def recognises(self, path: Path) -> bool:
        return path.is_dir() and bool(self.tables) and (path / self.tables[0]).is_file()

    def open_dataset(self, path: Path, spec: Domain, limits: Limits, mode: str) -> Dataset:
        from ont_platform.ingest.datasets import table_dataset

        return table_dataset(path, spec, limits, mode)
