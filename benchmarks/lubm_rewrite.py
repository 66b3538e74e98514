"""Query rewriting, the alternative to materialising that ``benchmarks/lubm.py`` measures: a query's triple
patterns are replaced by the unions of everything that entails them, and the rewritten query runs over the
stated triples alone.

It reads the same rules as the materialiser (:func:`ont_platform.reasoning.compile_rules`) and rewrites
SELECT queries whose pattern is one basic graph pattern (the LUBM queries):

* ``?s p ?o`` becomes one property path: the alternatives of every property whose facts entail ``p``'s
  (sub-properties, inverses written ``^q``, symmetric properties both ways), with ``+`` where the property is
  transitive (``q+`` inside, or the whole alternative when ``p`` itself is).
* ``?x a C`` becomes a ``UNION`` over every way to be a ``C``: a stated type of ``C`` or a class below it, the
  domain or range of a property (through its own path), a ``someValuesFrom`` restriction (the property's path to
  a fresh variable, and that variable's own union for the restriction's class), and an ``intersectionOf``
  definition (the join of its parts' unions). A class being expanded for the same term further up is not
  expanded again (a derivation of ``C(x)`` that needs ``C(x)`` adds nothing), which keeps the union finite for
  LUBM; a class defined through a restriction whose class leads back to it for *another* term (``C ≡ ∃p.C``)
  would need recursion that a union cannot express, and is refused.

The query is made ``DISTINCT`` (the unions overlap where a fact is both stated and entailed; a basic graph
pattern's answers are a set). A prototype for measuring, not a supported feature.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from rdflib import RDF, Variable
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from ont_platform.reasoning import Rules

RDF_TYPE = f"<{RDF.type}>"
THING = "<http://www.w3.org/2002/07/owl#Thing>"


class NotRewritable(ValueError):
    """The query or ontology is outside what this prototype rewrites."""


class Rewriter:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.subclasses: dict[str, set[str]] = defaultdict(set)
        for c, supers in rules.class_supers.items():
            for d in supers:
                self.subclasses[d].add(c)
        self.parts: dict[str, tuple[str, ...]] = {}
        for defs in rules.intersections.values():
            for defined, parts in defs:
                self.parts[defined] = parts
        self.restriction: dict[str, tuple[str, str]] = {}
        for filler, pairs in rules.some_values.items():
            for p, r in pairs:
                self.restriction[r] = (p, filler)
        for p, rs in rules.some_thing.items():
            for r in rs:
                self.restriction[r] = (p, THING)
        self.domain_of: dict[str, set[str]] = defaultdict(set)
        self.range_of: dict[str, set[str]] = defaultdict(set)
        for p, cs in rules.domains.items():
            for c in cs:
                self.domain_of[c].add(p)
        for p, cs in rules.ranges.items():
            for c in cs:
                self.range_of[c].add(p)
        self.subproperties: dict[str, set[str]] = defaultdict(set)
        for p, supers in rules.property_supers.items():
            for q in supers:
                self.subproperties[q].add(p)
        self._fresh = itertools.count()

    # -- properties --

    def ways(self, p: str) -> set[tuple[str, bool]]:
        """(property, reversed) pairs whose triples entail ``p``'s."""
        found = {(p, False)}
        todo = [(p, False)]
        while todo:
            q, rev = todo.pop()
            nxt = [(r, rev) for r in self.subproperties.get(q, ())]
            nxt += [(r, not rev) for r in self.rules.inverses.get(q, ())]
            if q in self.rules.symmetric:
                nxt.append((q, not rev))
            for w in nxt:
                if w not in found:
                    found.add(w)
                    todo.append(w)
        return found

    def path(self, p: str) -> str:
        """The property path for ``p``'s facts, stated and entailed."""
        alternatives = []
        for q, rev in sorted(self.ways(p)):
            step = f"{q}+" if q in self.rules.transitive and q != p else q
            alternatives.append(f"^{step}" if rev else step)
        body = "|".join(alternatives)
        if p in self.rules.transitive:
            return f"({body})+"
        return f"({body})" if len(alternatives) > 1 else body

    # -- classes --

    def below(self, c: str) -> set[str]:
        seen, todo = {c}, [c]
        while todo:
            for s in self.subclasses.get(todo.pop(), ()):
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def var(self) -> str:
        return f"?_r{next(self._fresh)}"

    def member(self, c: str, x: str, stack: frozenset[tuple[str, str]] = frozenset()) -> list[str] | None:
        """The branches of ``x``'s membership of ``c`` (each a group pattern's text), or None when ``c`` is
        being expanded for ``x`` further up."""
        if (c, x) in stack:
            return None
        stack = stack | {(c, x)}
        branches: list[str] = []
        for s in sorted(self.below(c)):
            if s.startswith("<"):
                branches.append(f"{x} {RDF_TYPE} {s} .")
            for p in sorted(self.domain_of.get(s, ())):
                branches.append(f"{x} {self.path(p)} {self.var()} .")
            for p in sorted(self.range_of.get(s, ())):
                branches.append(f"{self.var()} {self.path(p)} {x} . FILTER(!isLiteral({x}))")
            if s in self.restriction:
                p, filler = self.restriction[s]
                y = self.var()
                if filler == THING:
                    branches.append(f"{x} {self.path(p)} {y} .")
                else:
                    if any(d == filler for d, _ in stack):
                        raise NotRewritable(f"{s} leads back to {filler} through another resource")
                    inner = self.member(filler, y, stack)
                    if inner:
                        branches.append(f"{x} {self.path(p)} {y} . {_union(inner)}")
            if s in self.parts:
                joined = []
                for part in self.parts[s]:
                    inner = self.member(part, x, stack)
                    if not inner:  # cut (a derivation of c(x) through c(x)) or nothing entails the part
                        joined = []
                        break
                    joined.append(_union(inner))
                if joined:
                    branches.append(" ".join(joined))
        return list(dict.fromkeys(branches))

    # -- queries --

    def rewrite(self, query: str) -> str:
        parsed = translateQuery(parseQuery(query))
        algebra = parsed.algebra
        if algebra.name != "SelectQuery":
            raise NotRewritable("only SELECT")
        project = algebra.p
        if project.name != "Project" or project.p.name != "BGP":
            raise NotRewritable("only one basic graph pattern")
        parts = []
        for s, p, o in project.p.triples:
            st, pt, ot = _term(s), _term(p), _term(o)
            if pt == RDF_TYPE and not isinstance(o, Variable):
                branches = self.member(ot, st)
                if not branches:
                    return f"SELECT {' '.join(_term(v) for v in project.PV)} WHERE {{ FILTER(false) }}"
                parts.append(_union(branches))
            elif not isinstance(p, Variable):
                parts.append(f"{st} {self.path(pt)} {ot} .")
            else:
                raise NotRewritable("a variable property")
        return f"SELECT DISTINCT {' '.join(_term(v) for v in project.PV)} WHERE {{ {' '.join(parts)} }}"


def _union(branches: list[str]) -> str:
    if len(branches) == 1:
        return f"{{ {branches[0]} }}"
    return "{ " + " UNION ".join(f"{{ {b} }}" for b in branches) + " }"


def _term(t: object) -> str:
    if isinstance(t, Variable):
        return f"?{t}"
    if isinstance(t, CompValue):
        raise NotRewritable("a property path in the query")
    return str(t.n3())  # type: ignore[attr-defined]
