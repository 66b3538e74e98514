"""The ``ont`` command line: a thin face over the library."""
