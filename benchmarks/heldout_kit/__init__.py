"""The held-out harness: build, score and report every held-out question set (see README.md beside this file).

``python -m benchmarks.heldout_kit build|score|report SET``. A set is a folder of data (``set.json``, its
questions with their meanings, ``questions.jsonl``, ``README.md``); the code is here: the gold rules (``gold``,
and ``gold_set1``, ``gold_set2``, ``gold_films`` for the sets that have their own), the judges (``judge``), the
scorer (``score``) and ``report``.
"""
