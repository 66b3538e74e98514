"""Page questions (seed 004): a Korean filter question → conditions on columns → SPARQL → ``PageFilterResult``.

Reading is offline and deterministic: the same question over the same inventory always becomes the same filter,
and the answer's rows come only from running that filter, so clarify and unsupported answers never carry rows.
One idea per module:

* ``vocabulary`` — the columns, vague phrases and ontology concepts of the loaded inventory, added to the lexicon;
* ``terms`` — where those words occur in a question;
* ``numbers``, ``dates`` and ``ranks`` — values, dates and rank expressions with the comparison words around them;
* ``values`` — what a boolean or text column's mention asks for;
* ``predicates`` — which row of the predicate dictionary a phrase takes on the column it modifies;
* ``slots`` — column mentions and the rules values attach to them by;
* ``reader`` — the question read into conditions, or into why it needs a clarification or is unsupported;
* ``account`` — the words of the question the reading does not explain;
* ``wording`` — how columns and values are written in hedges;
* ``results`` — the filter run and the ``PageFilterResult`` with its hedge.

See docs/pages.md.
"""

from __future__ import annotations

from ont_platform.qa.pages.reader import read_question
from ont_platform.qa.pages.results import answer
from ont_platform.qa.pages.terms import find_terms
from ont_platform.qa.pages.vocabulary import dataset_vocabulary

__all__ = ["answer", "dataset_vocabulary", "find_terms", "read_question"]
