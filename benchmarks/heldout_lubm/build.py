"""Held-out LUBM question set: the questions and their meanings.

Each question is written as a user would type it, with a machine-readable meaning: a SPARQL query over the
LUBM data (University 0) and the univ-bench ontology, the gold kind, and the names the question uses. Gold is
never written here: ``gold.py`` computes it from the data (stated graph and its RDFS + OWL-RL closure), and this
script writes ``questions.jsonl`` from what ``gold.py`` returns.

    python build.py [--data DIR] [--cache PATH | --no-cache]

The data folder defaults to ``../shared/data/lubm`` relative to the repository root's parent
(``/work/shared/data/lubm`` here); ``LUBM_DIR`` or ``--data`` overrides it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

PREFIXES = (
    "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    "PREFIX owl: <http://www.w3.org/2002/07/owl#>\n"
    "PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\n"
)

U0 = "<http://www.University0.edu>"


def D(n: int) -> str:
    """A department of University 0."""
    return f"<http://www.Department{n}.University0.edu>"


def E(n: int, local: str) -> str:
    """A resource minted under department n (person, course, research group, publication path)."""
    return f"<http://www.Department{n}.University0.edu/{local}>"


def in_dept(n: int) -> str:
    """Qualifier "of DepartmentN" for a person: member of (worksFor is a sub-property of memberOf)."""
    return f"?x ub:memberOf {D(n)} ."


def sub_of(n: int) -> str:
    """Qualifier "of DepartmentN" for a research group."""
    return f"?x ub:subOrganizationOf {D(n)} ."


def by(author: str) -> str:
    """Qualifier "PublicationK by AUTHOR" for a publication."""
    return f"?x ub:publicationAuthor {author} ."


def N(text: str, expect: str, where: str | None = None) -> dict:
    """A name the question uses.

    text: the name as typed in the question (matched ignoring case and white space on ub:name or on the IRI's
    last path segment; a text starting with http is an IRI). expect: the IRI it must resolve to (``<...>``),
    or "many" (ambiguous) or "none" (unknown). where: a SPARQL pattern on ?x that the question's qualifier
    adds ("of Department11").
    """
    return {"text": text, "expect": expect.strip("<>") if expect.startswith("<") else expect, "where": where}


QUESTIONS: list[dict] = []


def q(question: str, kind: str, gold_kind: str, sparql: str | None, names=(), *, check: str | None = None,
      why: str | None = None, hops: int | None = None, graph: str = "closure") -> None:
    QUESTIONS.append({
        "question": question,
        "kind": kind,
        "gold_kind": gold_kind,
        "sparql": (PREFIXES + sparql.strip()) if sparql else None,
        "names": list(names),
        "check": check,
        "why": why,
        "hops": hops,
        "graph": graph,
    })


# ---------------------------------------------------------------------------------------------------------
# Answerable: one hop, forward
# ---------------------------------------------------------------------------------------------------------
GS146 = E(11, "GraduateStudent146")
GS147 = E(11, "GraduateStudent147")
AP13 = E(11, "AssociateProfessor13")
FP4_11 = E(11, "FullProfessor4")
FP0_0 = E(0, "FullProfessor0")
FP7_0 = E(0, "FullProfessor7")
ASP9_11 = E(11, "AssistantProfessor9")
PUB4 = E(11, "AssistantProfessor9/Publication4")
L5_7 = E(7, "Lecturer5")
L0_0 = E(0, "Lecturer0")
L3_0 = E(0, "Lecturer3")
L4_0 = E(0, "Lecturer4")
C62 = E(7, "Course62")
GC60 = E(0, "GraduateCourse60")
GC63 = E(0, "GraduateCourse63")
UG500 = E(0, "UndergraduateStudent500")
UG477 = E(0, "UndergraduateStudent477")
UG531 = E(0, "UndergraduateStudent531")
GS79_7 = E(7, "GraduateStudent79")

q("Who is the advisor of GraduateStudent146?", "one_hop", "answer",
  f"SELECT ?a WHERE {{ {GS146} ub:advisor ?a }}",
  [N("GraduateStudent146", GS146)])

q("whos graduatestudent147's adviser", "one_hop", "answer",
  f"SELECT ?a WHERE {{ {GS147} ub:advisor ?a }}",
  [N("graduatestudent147", GS147)])

q("which corses does lecturer5 of department7 teach", "one_hop", "multi",
  f"SELECT ?c WHERE {{ {L5_7} ub:teacherOf ?c }}",
  [N("Lecturer5", L5_7, in_dept(7)), N("Department7", D(7))])

q("hi, I'm helping with enrollment audits - what courses is UndergraduateStudent500 enrolled in?", "one_hop", "multi",
  f"SELECT ?c WHERE {{ {UG500} ub:takesCourse ?c }}",
  [N("UndergraduateStudent500", UG500)])

q("which department is graduate student 146 a member of?", "one_hop", "answer",
  f"SELECT ?d WHERE {{ {GS146} ub:memberOf ?d . ?d a ub:Department }}",
  [N("graduate student 146", GS146)])

q("where did Full Professor 0 of Department 0 do his phd", "one_hop", "answer",
  f"SELECT ?u WHERE {{ {FP0_0} ub:doctoralDegreeFrom ?u }}",
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0))])

q("what university did AssociateProfessor13 in Department11 get their masters from", "one_hop", "answer",
  f"SELECT ?u WHERE {{ {AP13} ub:mastersDegreeFrom ?u }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("undergrad degree of GraduateStudent147 - which universty was it from??", "one_hop", "answer",
  f"SELECT ?u WHERE {{ {GS147} ub:undergraduateDegreeFrom ?u }}",
  [N("GraduateStudent147", GS147)])

q("Which university is Department11 part of?", "one_hop", "answer",
  f"SELECT ?u WHERE {{ {D(11)} ub:subOrganizationOf ?u . ?u a ub:University }}",
  [N("Department11", D(11))])

q("Who wrote Publication4 by AssistantProfessor9 of Department11? I need every author on it", "one_hop", "multi",
  f"SELECT ?a WHERE {{ {PUB4} ub:publicationAuthor ?a }}",
  [N("Publication4", PUB4, by(ASP9_11)), N("AssistantProfessor9", ASP9_11, in_dept(11)),
   N("Department11", D(11))])

q("what does Lecturer0 from Department0 teach??", "one_hop", "multi",
  f"SELECT ?c WHERE {{ {L0_0} ub:teacherOf ?c }}",
  [N("Lecturer0", L0_0, in_dept(0)), N("Department0", D(0))])

q("which course is GraduateStudent79 of Department7 a teaching asistant for?", "one_hop", "answer",
  f"SELECT ?c WHERE {{ {GS79_7} ub:teachingAssistantOf ?c }}",
  [N("GraduateStudent79", GS79_7, in_dept(7)), N("Department7", D(7))])

q("quick one: what publications has GraduateStudent146 (co)authored?", "inverse", "answer",
  f"SELECT ?p WHERE {{ ?p ub:publicationAuthor {GS146} }}",
  [N("GraduateStudent146", GS146)])

# ---------------------------------------------------------------------------------------------------------
# Answerable: inverse direction
# ---------------------------------------------------------------------------------------------------------
q("who takes GRADUATECOURSE63?", "inverse", "multi",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {GC63} }}",
  [N("GraduateCourse63", GC63)])

q("Who teaches GraduateCourse60?", "inverse", "answer",
  f"SELECT ?t WHERE {{ ?t ub:teacherOf {GC60} }}",
  [N("GraduateCourse60", GC60)])

q("whos advised by associateprofessor13 from department11", "inverse", "multi",
  f"SELECT ?s WHERE {{ ?s ub:advisor {AP13} }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("who is the head of Department4", "inverse", "answer",
  f"SELECT ?h WHERE {{ ?h ub:headOf {D(4)} }}",
  [N("Department4", D(4))])

q("Department9's chair, who's that?", "inverse", "answer",
  f"SELECT ?h WHERE {{ ?h ub:headOf {D(9)} }}",
  [N("Department9", D(9))])

q("hey so who runs department 12", "inverse", "answer",
  f"SELECT ?h WHERE {{ ?h ub:headOf {D(12)} }}",
  [N("department 12", D(12))])

q("list the reserach groups of Department0", "inverse", "multi",
  f"SELECT ?g WHERE {{ ?g ub:subOrganizationOf {D(0)} . ?g a ub:ResearchGroup }}",
  [N("Department0", D(0))])

q("Who is the TA for course 62?", "inverse", "answer",
  f"SELECT ?t WHERE {{ ?t ub:teachingAssistantOf {C62} }}",
  [N("Course62", C62)])

q("which departmnets are in University0?", "inverse", "multi",
  f"SELECT ?d WHERE {{ ?d ub:subOrganizationOf {U0} . ?d a ub:Department }}",
  [N("University0", U0)])

q("who is taking http://www.Department0.University0.edu/GraduateCourse0 ?", "inverse", "multi",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {E(0, 'GraduateCourse0')} }}",
  [N("http://www.Department0.University0.edu/GraduateCourse0", E(0, "GraduateCourse0"))])

q("who teaches http://www.Department3.University0.edu/Course10", "inverse", "answer",
  f"SELECT ?t WHERE {{ ?t ub:teacherOf {E(3, 'Course10')} }}",
  [N("http://www.Department3.University0.edu/Course10", E(3, "Course10"))])

q("Which ppl list FullProfessor4 of Department11 as their advisor?", "inverse", "multi",
  f"SELECT ?s WHERE {{ ?s ub:advisor {FP4_11} }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

# ---------------------------------------------------------------------------------------------------------
# Answerable: multi-hop
# ---------------------------------------------------------------------------------------------------------
q("what courses does GraduateStudent146's advisor teach? asking for a friend", "multi_hop", "multi",
  f"SELECT ?c WHERE {{ {GS146} ub:advisor ?a . ?a ub:teacherOf ?c }}",
  [N("GraduateStudent146", GS146)])

q("whats the email of the person advising graduate student 147", "multi_hop", "value",
  f"SELECT ?e WHERE {{ {GS147} ub:advisor ?a . ?a ub:emailAddress ?e }}",
  [N("graduate student 147", GS147)])

q("Which department does the advisor of  GraduateStudent146 work for ?", "multi_hop", "answer",
  f"SELECT ?d WHERE {{ {GS146} ub:advisor ?a . ?a ub:worksFor ?d }}",
  [N("GraduateStudent146", GS146)])

q("Who is the head of the department UndergraduateStudent500 is in?", "multi_hop", "answer",
  f"SELECT ?h WHERE {{ {UG500} ub:memberOf ?d . ?d a ub:Department . ?h ub:headOf ?d }}",
  [N("UndergraduateStudent500", UG500)])

q("who teaches the courses that undergraduatestudent531 takes", "multi_hop", "multi",
  f"SELECT ?t WHERE {{ {UG531} ub:takesCourse ?c . ?t ub:teacherOf ?c }}",
  [N("UndergraduateStudent531", UG531)])

q("where did the chair of Department5 get their doctrate?", "multi_hop", "answer",
  f"SELECT ?u WHERE {{ ?h ub:headOf {D(5)} . ?h ub:doctoralDegreeFrom ?u }}",
  [N("Department5", D(5))])

q("I'm organizing a dinner for the chair's group. which graduate students does the head of Department1 advise?", "multi_hop", "multi",
  f"SELECT ?s WHERE {{ ?h ub:headOf {D(1)} . ?s ub:advisor ?h . ?s a ub:GraduateStudent }}",
  [N("Department1", D(1))])

q("The people who co-wrote Publication4 with AssistantProfessor9 of Department11 - which department are they "
  "members of?", "multi_hop", "answer",
  f"SELECT DISTINCT ?d WHERE {{ {PUB4} ub:publicationAuthor ?x . FILTER(?x != {ASP9_11}) "
  f"?x ub:memberOf ?d . ?d a ub:Department }}",
  [N("Publication4", PUB4, by(ASP9_11)), N("AssistantProfessor9", ASP9_11, in_dept(11)),
   N("Department11", D(11))])

q("What are the emails of the grad students that FullProfessor4 in Department11 advises?", "multi_hop", "value",
  f"SELECT ?e WHERE {{ ?s ub:advisor {FP4_11} . ?s a ub:GraduateStudent . ?s ub:emailAddress ?e }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

q("Who advises the TA of Course62?", "multi_hop", "answer",
  f"SELECT ?a WHERE {{ ?t ub:teachingAssistantOf {C62} . ?t ub:advisor ?a }}",
  [N("Course62", C62)])

q("what's the research interest of GraduateStudent146's advisor?", "multi_hop", "value",
  f"SELECT ?r WHERE {{ {GS146} ub:advisor ?a . ?a ub:researchInterest ?r }}",
  [N("GraduateStudent146", GS146)])

q("which univeristy did the head of Department0 get his undergrad degree from", "multi_hop", "answer",
  f"SELECT ?u WHERE {{ ?h ub:headOf {D(0)} . ?h ub:undergraduateDegreeFrom ?u }}",
  [N("Department0", D(0))])

q("who else takes the Course18 that UndergraduateStudent477 is taking?", "multi_hop", "multi",
  f"SELECT ?o WHERE {{ {UG477} ub:takesCourse ?c . ?c ub:name \"Course18\" . ?o ub:takesCourse ?c . "
  f"FILTER(?o != {UG477}) }}",
  [N("Course18", E(0, "Course18"), f"{UG477} ub:takesCourse ?x ."), N("UndergraduateStudent477", UG477)])

q("which research groups are there in the department GraduateStudent147 belongs to?", "multi_hop", "multi",
  f"SELECT ?g WHERE {{ {GS147} ub:memberOf ?d . ?d a ub:Department . ?g ub:subOrganizationOf ?d . "
  f"?g a ub:ResearchGroup }}",
  [N("GraduateStudent147", GS147)])

q("For a course-evaluation report I'm putting together: who are the instructors of the courses "
  "GraduateStudent146 is taking?", "multi_hop", "multi",
  f"SELECT ?t WHERE {{ {GS146} ub:takesCourse ?c . ?t ub:teacherOf ?c }}",
  [N("GraduateStudent146", GS146)])

q("what department is the teacher of GraduateCourse60 in", "multi_hop", "answer",
  f"SELECT ?d WHERE {{ ?t ub:teacherOf {GC60} . ?t ub:worksFor ?d }}",
  [N("GraduateCourse60", GC60)])

q("the TA of Course62 - which courses does their advisor teach?", "multi_hop", "multi",
  f"SELECT ?c WHERE {{ ?t ub:teachingAssistantOf {C62} . ?t ub:advisor ?a . ?a ub:teacherOf ?c }}",
  [N("Course62", C62)])

q("Where did the people who teach GraduateCourse63 get their masters degree?", "multi_hop", "answer",
  f"SELECT ?u WHERE {{ ?t ub:teacherOf {GC63} . ?t ub:mastersDegreeFrom ?u }}",
  [N("GraduateCourse63", GC63)])

# ---------------------------------------------------------------------------------------------------------
# Answerable: counts
# ---------------------------------------------------------------------------------------------------------
q("how many studnets take Course62?", "count", "count",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {C62} . ?s a ub:Student }}",
  [N("Course62", C62)])

q("How many departments does University0 have?", "count", "count",
  f"SELECT ?d WHERE {{ ?d ub:subOrganizationOf {U0} . ?d a ub:Department }}",
  [N("University0", U0)])

q("how many research groups r there in department0", "count", "count",
  f"SELECT ?g WHERE {{ ?g ub:subOrganizationOf {D(0)} . ?g a ub:ResearchGroup }}",
  [N("Department0", D(0))])

q("I'm compiling staffing numbers for my boss - how many profesors work in Department0?", "count", "count",
  f"SELECT ?p WHERE {{ ?p ub:worksFor {D(0)} . ?p a ub:Professor }}",
  [N("Department0", D(0))])

q("how many grad students does FullProfessor4 of Department11 advise?", "count", "count",
  f"SELECT ?s WHERE {{ ?s ub:advisor {FP4_11} . ?s a ub:GraduateStudent }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

q("how many publications has AssociateProfessor13 in Department11 written", "count", "count",
  f"SELECT ?p WHERE {{ ?p ub:publicationAuthor {AP13} }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("How many courses is Lecturer0 of Department0 teaching?", "count", "count",
  f"SELECT ?c WHERE {{ {L0_0} ub:teacherOf ?c }}",
  [N("Lecturer0", L0_0, in_dept(0)), N("Department0", D(0))])

q("number of teaching assistants in Department4?", "count", "count",
  f"SELECT ?t WHERE {{ ?t a ub:TeachingAssistant . ?t ub:memberOf {D(4)} }}",
  [N("Department4", D(4))])

q("how many research groups does University0 have in total, across all departments?", "count", "count",
  f"SELECT ?g WHERE {{ ?g a ub:ResearchGroup . ?g ub:subOrganizationOf {U0} }}",
  [N("University0", U0)])

q("how many faculty memebrs does Department3 have?", "count", "count",
  f"SELECT ?f WHERE {{ ?f a ub:Faculty . ?f ub:worksFor {D(3)} }}",
  [N("Department3", D(3))])

q("how many ppl are taking graduate course 60", "count", "count",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {GC60} }}",
  [N("GraduateCourse60", GC60)])

q("How many undergraduate students are members of Department14?", "count", "count",
  f"SELECT ?s WHERE {{ ?s a ub:UndergraduateStudent . ?s ub:memberOf {D(14)} }}",
  [N("Department14", D(14))])

q("how many lecturers does department 6 have", "count", "count",
  f"SELECT ?l WHERE {{ ?l a ub:Lecturer . ?l ub:worksFor {D(6)} }}",
  [N("department 6", D(6))])

q("how many authors does Publication4 by AssistantProfessor9 of Department11 have?", "count", "count",
  f"SELECT ?a WHERE {{ {PUB4} ub:publicationAuthor ?a }}",
  [N("Publication4", PUB4, by(ASP9_11)), N("AssistantProfessor9", ASP9_11, in_dept(11)),
   N("Department11", D(11))])

q("how many students does AssociateProfessor13 of Department11 advise in total (grad and undergrad)?",
  "count", "count",
  f"SELECT ?s WHERE {{ ?s ub:advisor {AP13} . ?s a ub:Student }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

# ---------------------------------------------------------------------------------------------------------
# Answerable: yes / no
# ---------------------------------------------------------------------------------------------------------
q("Does Lecturer3 of Department0 teach GraduateCourse60?", "boolean", "boolean",
  f"ASK {{ {L3_0} ub:teacherOf {GC60} }}",
  [N("Lecturer3", L3_0, in_dept(0)), N("Department0", D(0)), N("GraduateCourse60", GC60)])

q("does lecturer 4 of department 0 teach graduatecourse60", "boolean", "boolean",
  f"ASK {{ {L4_0} ub:teacherOf {GC60} }}",
  [N("Lecturer4", L4_0, in_dept(0)), N("Department0", D(0)), N("GraduateCourse60", GC60)])

q("is GraduateStudent146 a member of Department11?", "boolean", "boolean",
  f"ASK {{ {GS146} ub:memberOf {D(11)} }}",
  [N("GraduateStudent146", GS146), N("Department11", D(11))])

q("Is GraduateStudent147 a member of Department3", "boolean", "boolean",
  f"ASK {{ {GS147} ub:memberOf {D(3)} }}",
  [N("GraduateStudent147", GS147), N("Department3", D(3))])

q("is FullProfessor7 of Department0 the head of Department0, or am I mixing people up?", "boolean", "boolean",
  f"ASK {{ {FP7_0} ub:headOf {D(0)} }}",
  [N("FullProfessor7", FP7_0, in_dept(0)), N("Department0", D(0))])

q("Is FullProfessor4 of Department11 the advisor of graduatestudent147?", "boolean", "boolean",
  f"ASK {{ {GS147} ub:advisor {FP4_11} }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11)), N("graduatestudent147", GS147)])

q("does UndergraduateStudent500 take GraduateCourse60 too?", "boolean", "boolean",
  f"ASK {{ {UG500} ub:takesCourse {GC60} }}",
  [N("UndergraduateStudent500", UG500), N("GraduateCourse60", GC60)])

q("Is Department4 part of University0?", "boolean", "boolean",
  f"ASK {{ {D(4)} ub:subOrganizationOf {U0} }}",
  [N("Department4", D(4)), N("University0", U0)])

q("is ResearchGroup2 of Department4 part of University0?", "hierarchy", "boolean",
  f"ASK {{ {E(4, 'ResearchGroup2')} ub:subOrganizationOf {U0} }}",
  [N("ResearchGroup2", E(4, "ResearchGroup2"), sub_of(4)), N("Department4", D(4)), N("University0", U0)])

q("Is GraduateStudent147 a studnet?", "hierarchy", "boolean",
  f"ASK {{ {GS147} a ub:Student }}",
  [N("GraduateStudent147", GS147)])

q("is AssociateProfessor13 of Department11 a professor", "hierarchy", "boolean",
  f"ASK {{ {AP13} a ub:Professor }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("is GraduateStudent146 a teachng assistant?", "boolean", "boolean",
  f"ASK {{ {GS146} a ub:TeachingAssistant }}",
  [N("GraduateStudent146", GS146)])

q("Is GraduateStudent146 advised by FullProfessor4 of Department11?", "boolean", "boolean",
  f"ASK {{ {GS146} ub:advisor {FP4_11} }}",
  [N("GraduateStudent146", GS146), N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

q("is UndergraduateStudent500 a graduate student?", "boolean", "boolean",
  f"ASK {{ {UG500} a ub:GraduateStudent }}",
  [N("UndergraduateStudent500", UG500)])

q("Is the head of Department2 a full professor?", "boolean", "boolean",
  f"ASK {{ ?h ub:headOf {D(2)} . ?h a ub:FullProfessor }}",
  [N("Department2", D(2))])

q("did FullProfessor0 of Department0 get a degree from http://www.University241.edu ?", "hierarchy", "boolean",
  f"ASK {{ {FP0_0} ub:degreeFrom <http://www.University241.edu> }}",
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0)),
   N("http://www.University241.edu", "<http://www.University241.edu>")])

q("is GraduateStudent146 one of the authors of Publication4 by AssistantProfessor9 of Department11?",
  "boolean", "boolean",
  f"ASK {{ {PUB4} ub:publicationAuthor {GS146} }}",
  [N("GraduateStudent146", GS146), N("Publication4", PUB4, by(ASP9_11)),
   N("AssistantProfessor9", ASP9_11, in_dept(11)), N("Department11", D(11))])

q("is AssociateProfessor13 of Department11 a member of Department11?", "hierarchy", "boolean",
  f"ASK {{ {AP13} ub:memberOf {D(11)} }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("quick check - is the chair of Department9 an employee?", "hierarchy", "boolean",
  f"ASK {{ ?h ub:headOf {D(9)} . ?h a ub:Employee }}",
  [N("Department9", D(9))])

q("does the advisor of GraduateStudent146 teach GraduateCourse31 of Department11, i.e. "
  "http://www.Department11.University0.edu/GraduateCourse31 ?", "boolean", "boolean",
  f"ASK {{ {GS146} ub:advisor ?a . ?a ub:teacherOf {E(11, 'GraduateCourse31')} }}",
  [N("GraduateStudent146", GS146),
   N("http://www.Department11.University0.edu/GraduateCourse31", E(11, "GraduateCourse31"))])

q("is UndergraduateStudent531 taking any course taught by Lecturer4 of Department0?", "boolean", "boolean",
  f"ASK {{ {UG531} ub:takesCourse ?c . {L4_0} ub:teacherOf ?c }}",
  [N("UndergraduateStudent531", UG531), N("Lecturer4", L4_0, in_dept(0)), N("Department0", D(0))])

# ---------------------------------------------------------------------------------------------------------
# Answerable: literal values
# ---------------------------------------------------------------------------------------------------------
q("What's the email address of FullProfessor7 of Department0?", "value", "value",
  f"SELECT ?e WHERE {{ {FP7_0} ub:emailAddress ?e }}",
  [N("FullProfessor7", FP7_0, in_dept(0)), N("Department0", D(0))])

q("phone number for GraduateStudent146?", "value", "value",
  f"SELECT ?t WHERE {{ {GS146} ub:telephone ?t }}",
  [N("GraduateStudent146", GS146)])

q("what is AssociateProfessor13 in Department11 researching?", "value", "value",
  f"SELECT ?r WHERE {{ {AP13} ub:researchInterest ?r }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("what's the name of the head of Department4?", "value", "value",
  f"SELECT ?n WHERE {{ ?h ub:headOf {D(4)} . ?h ub:name ?n }}",
  [N("Department4", D(4))])

q("tell me the email of UndergraduateStudent500 pls", "value", "value",
  f"SELECT ?e WHERE {{ {UG500} ub:emailAddress ?e }}",
  [N("UndergraduateStudent500", UG500)])

q("My advisor asked me to map research topics across the university. what research interests do the proffessors of Department11 have?", "value", "value",
  f"SELECT DISTINCT ?r WHERE {{ ?p a ub:Professor . ?p ub:worksFor {D(11)} . ?p ub:researchInterest ?r }}",
  [N("Department11", D(11))])

q("name of the person who teaches Course62?", "value", "value",
  f"SELECT ?n WHERE {{ ?t ub:teacherOf {C62} . ?t ub:name ?n }}",
  [N("Course62", C62)])

q("telephone of the head of department 6", "value", "value",
  f"SELECT ?t WHERE {{ ?h ub:headOf {D(6)} . ?h ub:telephone ?t }}",
  [N("department 6", D(6))])

q("What are the email addresses of everyone taking GraduateCourse63? I want to send them a reminder.",
  "value", "value",
  f"SELECT ?e WHERE {{ ?s ub:takesCourse {GC63} . ?s ub:emailAddress ?e }}",
  [N("GraduateCourse63", GC63)])

q("what is the name of the department GraduateStudent146 belongs to", "value", "value",
  f"SELECT ?n WHERE {{ {GS146} ub:memberOf ?d . ?d a ub:Department . ?d ub:name ?n }}",
  [N("GraduateStudent146", GS146)])

q("research intrest of FullProfessor0 in Department0?", "value", "value",
  f"SELECT ?r WHERE {{ {FP0_0} ub:researchInterest ?r }}",
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0))])

q("can you give me the emial address for Lecturer5 of Department7", "value", "value",
  f"SELECT ?e WHERE {{ {L5_7} ub:emailAddress ?e }}",
  [N("Lecturer5", L5_7, in_dept(7)), N("Department7", D(7))])

# ---------------------------------------------------------------------------------------------------------
# Answerable: a filter or class restriction at the end
# ---------------------------------------------------------------------------------------------------------
q("which of FullProfessor0 of Department0's courses are graduate courses?", "filter", "multi",
  f"SELECT ?c WHERE {{ {FP0_0} ub:teacherOf ?c . ?c a ub:GraduateCourse }}",
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0))])

q("which courses taught by Lecturer0 of Department0 are graduate-level courses", "filter", "answer",
  f"SELECT ?c WHERE {{ {L0_0} ub:teacherOf ?c . ?c a ub:GraduateCourse }}",
  [N("Lecturer0", L0_0, in_dept(0)), N("Department0", D(0))])

q("which of the people advised by FullProfessor4 of Department11 are undergrads?", "filter", "multi",
  f"SELECT ?s WHERE {{ ?s ub:advisor {FP4_11} . ?s a ub:UndergraduateStudent }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

q("of the people taking GraduateCourse60, which ones are research assistants", "filter", "multi",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {GC60} . ?s a ub:ResearchAssistant }}",
  [N("GraduateCourse60", GC60)])

q("the authors of Publication4 by AssistantProfessor9 of Department11 - which of them are graduate students?",
  "filter", "multi",
  f"SELECT ?a WHERE {{ {PUB4} ub:publicationAuthor ?a . ?a a ub:GraduateStudent }}",
  [N("Publication4", PUB4, by(ASP9_11)), N("AssistantProfessor9", ASP9_11, in_dept(11)),
   N("Department11", D(11))])

q("which profs in Department11 are interested in Research16", "filter", "multi",
  f"SELECT ?p WHERE {{ ?p a ub:Professor . ?p ub:worksFor {D(11)} . ?p ub:researchInterest \"Research16\" }}",
  [N("Department11", D(11))])

q("of the professors in department0, which are assistant profesors", "filter", "multi",
  f"SELECT ?p WHERE {{ ?p ub:worksFor {D(0)} . ?p a ub:AssistantProfessor }}",
  [N("Department0", D(0))])

q("which students in Department7 are teaching assistants for a course that Lecturer5 of Department7 teaches?",
  "filter", "multi",
  f"SELECT DISTINCT ?s WHERE {{ {L5_7} ub:teacherOf ?c . ?s ub:teachingAssistantOf ?c . "
  f"?s ub:memberOf {D(7)} . ?s a ub:Student }}",
  [N("Lecturer5", L5_7, in_dept(7)), N("Department7", D(7))])

q("which of the courses UndergraduateStudent531 takes are taught by a lecturer?", "filter", "multi",
  f"SELECT DISTINCT ?c WHERE {{ {UG531} ub:takesCourse ?c . ?t ub:teacherOf ?c . ?t a ub:Lecturer }}",
  [N("UndergraduateStudent531", UG531)])

# ---------------------------------------------------------------------------------------------------------
# Answerable: type questions (the most specific named classes, in the closure)
# ---------------------------------------------------------------------------------------------------------
def asserted(x: str) -> str:
    """The classes the data asserts for x (run on the stated graph: see README, type questions)."""
    return f"SELECT ?c WHERE {{ {x} a ?c . FILTER(STRSTARTS(STR(?c), STR(ub:))) }}"


q("what kind of person is GraduateStudent146?", "type", "multi", asserted(GS146),
  [N("GraduateStudent146", GS146)], graph="stated")

q("What type of thing is Course62?", "type", "answer", asserted(C62),
  [N("Course62", C62)], graph="stated")

q("what kind of professor advises GraduateStudent147?", "type", "answer",
  f"SELECT ?c WHERE {{ {GS147} ub:advisor ?x . ?x a ?c . ?c rdfs:subClassOf ub:Professor . "
  f"FILTER(?c != ub:Professor) }}",
  [N("GraduateStudent147", GS147)])

q("what is ResearchGroup5 of Department1, what kind of thing?", "type", "answer",
  asserted(E(1, "ResearchGroup5")),
  [N("ResearchGroup5", E(1, "ResearchGroup5"), sub_of(1)), N("Department1", D(1))], graph="stated")

q("What kind of organisation is Department3?", "type", "answer", asserted(D(3)),
  [N("Department3", D(3))], graph="stated")

q("what roles does GraduateStudent79 of Department7 have - what kind of person is he", "type", "multi",
  asserted(GS79_7),
  [N("GraduateStudent79", GS79_7, in_dept(7)), N("Department7", D(7))], graph="stated")

q("what sort of thing is University0", "type", "answer", asserted(U0),
  [N("University0", U0)], graph="stated")

# ---------------------------------------------------------------------------------------------------------
# Answerable: class hierarchy and sub-properties
# ---------------------------------------------------------------------------------------------------------
q("list the professors of Department5 pls, all ranks", "hierarchy", "multi",
  f"SELECT ?p WHERE {{ ?p a ub:Professor . ?p ub:worksFor {D(5)} }}",
  [N("Department5", D(5))])

q("who are the students advised by AssociateProfessor13 of Department11", "hierarchy", "multi",
  f"SELECT ?s WHERE {{ ?s ub:advisor {AP13} . ?s a ub:Student }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))])

q("Who are all the employees of Department1?", "hierarchy", "multi",
  f"SELECT ?e WHERE {{ ?e a ub:Employee . ?e ub:worksFor {D(1)} }}",
  [N("Department1", D(1))])

q("where did FullProfessor0 of Department0 get their degrees? all of them", "hierarchy", "multi",
  f"SELECT ?u WHERE {{ {FP0_0} ub:degreeFrom ?u }}",
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0))])

q("who are the faculty members of Department 10", "hierarchy", "multi",
  f"SELECT ?f WHERE {{ ?f a ub:Faculty . ?f ub:worksFor {D(10)} }}",
  [N("Department10", D(10))])

q("show me all the chairs in University0", "hierarchy", "multi",
  f"SELECT ?c WHERE {{ ?c a ub:Chair . ?c ub:worksFor ?d . ?d ub:subOrganizationOf {U0} }}",
  [N("University0", U0)])

q("Which professors are members of Department2?", "hierarchy", "multi",
  f"SELECT ?p WHERE {{ ?p a ub:Professor . ?p ub:memberOf {D(2)} }}",
  [N("Department2", D(2))])

q("who are University0's alumni?", "hierarchy", "answer",
  f"SELECT ?a WHERE {{ {U0} ub:hasAlumnus ?a }}",
  [N("University0", U0)])

q("who got a degree from University0", "hierarchy", "answer",
  f"SELECT ?a WHERE {{ ?a ub:degreeFrom {U0} }}",
  [N("University0", U0)])

q("ResearchGroup3 in Department2 - what organizations is it part of, all the way up?", "hierarchy", "multi",
  f"SELECT ?o WHERE {{ {E(2, 'ResearchGroup3')} ub:subOrganizationOf ?o }}",
  [N("ResearchGroup3", E(2, "ResearchGroup3"), sub_of(2)), N("Department2", D(2))])

q("which university is ResearchGroup3 of Department2 ultimately part of?", "hierarchy", "answer",
  f"SELECT ?u WHERE {{ {E(2, 'ResearchGroup3')} ub:subOrganizationOf ?u . ?u a ub:University }}",
  [N("ResearchGroup3", E(2, "ResearchGroup3"), sub_of(2)), N("Department2", D(2))])

q("Which students does FullProfessor4 of Department11 advise?", "hierarchy", "multi",
  f"SELECT ?s WHERE {{ ?s ub:advisor {FP4_11} . ?s a ub:Student }}",
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))])

q("who are the teaching assistents in Department7?", "hierarchy", "multi",
  f"SELECT ?t WHERE {{ ?t a ub:TeachingAssistant . ?t ub:memberOf {D(7)} }}",
  [N("Department7", D(7))])

q("how many people are members of Department0? count staff too, not just students", "hierarchy", "count",
  f"SELECT ?p WHERE {{ ?p a ub:Person . ?p ub:memberOf {D(0)} }}",
  [N("Department0", D(0))])

q("which people work for Department13?", "hierarchy", "multi",
  f"SELECT ?p WHERE {{ ?p ub:worksFor {D(13)} }}",
  [N("Department13", D(13))])

q("for my thesis acknowledgements i need the full professors of department 8, can you list them", "hierarchy",
  "multi",
  f"SELECT ?p WHERE {{ ?p a ub:FullProfessor . ?p ub:worksFor {D(8)} }}",
  [N("department 8", D(8))])

q("which Department11 students are enrolled in http://www.Department11.University0.edu/GraduateCourse2 ?",
  "hierarchy", "multi",
  f"SELECT ?s WHERE {{ ?s ub:takesCourse {E(11, 'GraduateCourse2')} . ?s a ub:Student . ?s ub:memberOf {D(11)} }}",
  [N("Department11", D(11)),
   N("http://www.Department11.University0.edu/GraduateCourse2", E(11, "GraduateCourse2"))])

# ---------------------------------------------------------------------------------------------------------
# Declines: properties the ontology lacks, or declares without any data
# ---------------------------------------------------------------------------------------------------------
def no_property(pattern: str) -> str:
    kinds = ("owl:ObjectProperty", "owl:DatatypeProperty", "owl:TransitiveProperty", "rdf:Property")
    union = " UNION ".join(f"{{ ?p a {k} }}" for k in kinds)
    return f"SELECT ?p WHERE {{ {union} FILTER(REGEX(STR(?p), \"{pattern}\", \"i\")) }}"


q("for a budget report I'm writing, what's the salary of FullProfessor7 of Department0?", "missing_property", "decline",
  no_property("salar|wage|pay|income"),
  [N("FullProfessor7", FP7_0, in_dept(0)), N("Department0", D(0))],
  check="empty", why="the ontology has no salary property")

q("which office is AssociateProfessor13 of Department11 in? I need to drop off a form", "missing_property",
  "decline",
  f"SELECT ?o WHERE {{ {AP13} ub:officeNumber ?o }}",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))],
  check="empty", why="ub:officeNumber is declared but no resource has an office number")

q("how old is GraduateStudent146", "missing_property", "decline",
  "SELECT ?a WHERE { ?x ub:age ?a }",
  [N("GraduateStudent146", GS146)],
  check="empty", why="ub:age is declared but no one in the data has an age")

q("when was Publication4 by AssistantProfessor9 of Department11 published?", "missing_property", "decline",
  "SELECT ?d WHERE { ?p ub:publicationDate ?d }",
  [N("Publication4", PUB4, by(ASP9_11)), N("AssistantProfessor9", ASP9_11, in_dept(11)),
   N("Department11", D(11))],
  check="empty", why="ub:publicationDate is declared but no publication has a date")

q("what's the GPA of UndergraduateStudent500?", "missing_property", "decline",
  no_property("gpa|grade|mark|score"),
  [N("UndergraduateStudent500", UG500)],
  check="empty", why="no grade or GPA property in the ontology")

q("hey, what time and room does GraduateCourse63 meet in?", "missing_property", "decline",
  f"SELECT ?s WHERE {{ ?s ub:listedCourse {GC63} }} ",
  [N("GraduateCourse63", GC63)],
  check="empty", why="no schedule, time or room data for courses (ub:listedCourse is never used)")

q("how many credits is Course62 worth", "missing_property", "decline",
  no_property("credit|ects|unit"),
  [N("Course62", C62)],
  check="empty", why="no credit property in the ontology")

q("whats the home address of FullProfessor4 in Department11?", "missing_property", "decline",
  no_property("home|street|postal|residence"),
  [N("FullProfessor4", FP4_11, in_dept(11)), N("Department11", D(11))],
  check="empty", why="no postal or home address in the ontology (only an email address)")

q("is GraduateStudent147 male or female?", "missing_property", "decline",
  no_property("gender|sex"),
  [N("GraduateStudent147", GS147)],
  check="empty", why="no gender property in the ontology")

q("When did Lecturer5 of Department7 start working there?", "missing_property", "decline",
  no_property("hire|start|since|employ"),
  [N("Lecturer5", L5_7, in_dept(7)), N("Department7", D(7))],
  check="empty", why="no hiring or start date in the ontology")

# ---------------------------------------------------------------------------------------------------------
# Declines: unknown names (including misspelled names)
# ---------------------------------------------------------------------------------------------------------
q("Who advises GraduateStudent9999?", "unknown_name", "decline", None,
  [N("GraduateStudent9999", "none")], check="names", why="no GraduateStudent9999 in the data")

q("what courses are offered by Department15?", "unknown_name", "decline", None,
  [N("Department15", "none")], check="names", why="University0 has Department0 to Department14 only")

q("who is the advisor of GraduateStudnet146", "unknown_name", "decline", None,
  [N("GraduateStudnet146", "none")], check="names",
  why="misspelled name (GraduateStudnet146); no resource has that name")

q("Is Jeff Heflin a member of Department0?", "unknown_name", "decline", None,
  [N("Jeff Heflin", "none")], check="names", why="no person named Jeff Heflin in the data")

q("which courses does Lecturer20 of Department0 teach?", "unknown_name", "decline", None,
  [N("Lecturer20", "none")], check="names", why="no Lecturer20 anywhere in the data")

q("email of the chair of Deparment3?", "unknown_name", "decline", None,
  [N("Deparment3", "none")], check="names", why="misspelled department name (Deparment3)")

q("what does AssociateProffesor13 of Department11 teach", "unknown_name", "decline", None,
  [N("AssociateProffesor13", "none")], check="names",
  why="misspelled name (AssociateProffesor13); the library does not take look-alike names")

q("who is taking the Machine Learning course in Department0?", "unknown_name", "decline", None,
  [N("Machine Learning", "none")], check="names", why="no course named Machine Learning; courses are CourseN")

# ---------------------------------------------------------------------------------------------------------
# Declines: ambiguous names (the same name in several departments, no department given)
# ---------------------------------------------------------------------------------------------------------
q("who's graduatestudent12's advisor", "ambiguous_name", "decline", None,
  [N("GraduateStudent12", "many")], check="names", why="GraduateStudent12 exists in several departments")

q("what courses does FullProfessor3 teach?", "ambiguous_name", "decline", None,
  [N("FullProfessor3", "many")], check="names", why="FullProfessor3 exists in every department")

q("who takes Course5? need the list asap", "ambiguous_name", "decline", None,
  [N("Course5", "many")], check="names", why="Course5 exists in every department")

q("what's the email address of Lecturer2?", "ambiguous_name", "decline", None,
  [N("Lecturer2", "many")], check="names", why="Lecturer2 exists in several departments")

q("how many students take GraduateCourse10", "ambiguous_name", "decline", None,
  [N("GraduateCourse10", "many")], check="names", why="GraduateCourse10 exists in several departments")

q("is AssistantProfessor4 interested in Research7?", "ambiguous_name", "decline", None,
  [N("AssistantProfessor4", "many")], check="names", why="AssistantProfessor4 exists in several departments")

q("How many publications does associate professor 2 have?", "ambiguous_name", "decline", None,
  [N("associate professor 2", "many")], check="names", why="AssociateProfessor2 exists in every department")

q("which department is ResearchGroup4 in?", "ambiguous_name", "decline", None,
  [N("ResearchGroup4", "many")], check="names", why="ResearchGroup4 exists in several departments")

q("who wrote Publication7?", "ambiguous_name", "decline", None,
  [N("Publication7", "many")], check="names", why="hundreds of publications are named Publication7")

q("is UndergraduateStudent40 taking Course3?", "ambiguous_name", "decline", None,
  [N("UndergraduateStudent40", "many"), N("Course3", "many")], check="names",
  why="both UndergraduateStudent40 and Course3 exist in every department")

# ---------------------------------------------------------------------------------------------------------
# Declines: negation (the graph states what is, not what is not)
# ---------------------------------------------------------------------------------------------------------
q("which courses in Department0 does nobody take?", "negation", "decline",
  f"SELECT ?c WHERE {{ ?t ub:worksFor {D(0)} . ?t ub:teacherOf ?c . FILTER NOT EXISTS {{ ?s ub:takesCourse ?c }} }}",
  [N("Department0", D(0))],
  check="policy", why="negation: absence of takesCourse triples does not show that nobody takes a course")

q("which professors in Department3 have no publications at all?", "negation", "decline",
  f"SELECT ?p WHERE {{ ?p a ub:Professor . ?p ub:worksFor {D(3)} . "
  f"FILTER NOT EXISTS {{ ?x ub:publicationAuthor ?p }} }}",
  [N("Department3", D(3))],
  check="policy", why="negation over an open-world graph")

q("who in Department11 isn't advised by anybody?", "negation", "decline",
  f"SELECT ?s WHERE {{ ?s ub:memberOf {D(11)} . ?s a ub:Student . FILTER NOT EXISTS {{ ?s ub:advisor ?a }} }}",
  [N("Department11", D(11))],
  check="policy", why="negation over an open-world graph")

q("list the grad students in Department2 who are NOT teaching assistants", "negation", "decline",
  f"SELECT ?s WHERE {{ ?s a ub:GraduateStudent . ?s ub:memberOf {D(2)} . "
  f"FILTER NOT EXISTS {{ ?s a ub:TeachingAssistant }} }}",
  [N("Department2", D(2))],
  check="policy", why="negation over an open-world graph")

# ---------------------------------------------------------------------------------------------------------
# Declines: superlatives and rankings without data
# ---------------------------------------------------------------------------------------------------------
q("who is the best teacher in Department4", "superlative", "decline",
  no_property("rating|rank|score|evaluation|review"),
  [N("Department4", D(4))],
  check="empty", why="no rating or evaluation data to rank teachers")

q("whats the most cited publication of FullProfessor0 in Department0?", "superlative", "decline",
  no_property("cit"),
  [N("FullProfessor0", FP0_0, in_dept(0)), N("Department0", D(0))],
  check="empty", why="no citation data")

q("who's the oldest professor in Department2?", "superlative", "decline",
  "SELECT ?a WHERE { ?x ub:age ?a }",
  [N("Department2", D(2))],
  check="empty", why="no ages in the data")

q("which department has the biggest budget?", "superlative", "decline",
  no_property("budget|fund|money|cost"),
  [], check="empty", why="no budget data")

q("who is the most recently hired lecturer in Department6?", "superlative", "decline",
  no_property("hire|start|since|employ"),
  [N("Department6", D(6))],
  check="empty", why="no hiring dates")

q("what is the newest publication by AssociateProfessor13 of Department11?", "superlative", "decline",
  "SELECT ?d WHERE { ?p ub:publicationDate ?d }",
  [N("AssociateProfessor13", AP13, in_dept(11)), N("Department11", D(11))],
  check="empty", why="publications carry no dates")

# ---------------------------------------------------------------------------------------------------------
# Declines: chit-chat and requests outside the graph
# ---------------------------------------------------------------------------------------------------------
q("hi! how are you today?", "chitchat", "decline", None, [], check="policy", why="greeting, no question")

q("thanks, that's all i needed :)", "chitchat", "decline", None, [], check="policy", why="thanks, no question")

q("can you write me a short poem about grad school?", "chitchat", "decline", None, [], check="policy",
  why="creative request, not a question about the graph")

q("What's the weather like in Bethlehem PA right now?", "chitchat", "decline", None, [], check="policy",
  why="nothing in the graph about weather")

q("should I do a PhD or go into industry?", "chitchat", "decline", None, [], check="policy",
  why="advice, not a question about the graph")

# ---------------------------------------------------------------------------------------------------------
# Declines: other universities (not described in the data)
# ---------------------------------------------------------------------------------------------------------
q("how many departments does http://www.University5.edu have?", "other_university", "decline",
  "SELECT ?d WHERE { ?d ub:subOrganizationOf <http://www.University5.edu> }",
  [N("http://www.University5.edu", "<http://www.University5.edu>")],
  check="empty", why="University5 appears only as where someone got a degree; its departments are not in the data")

q("who is the head of computer science at MIT?", "other_university", "decline", None,
  [N("MIT", "none")], check="names", why="MIT is not in the data")

q("list the grad students of http://www.University1.edu", "other_university", "decline",
  "SELECT ?s WHERE { ?s ub:memberOf ?d . ?d ub:subOrganizationOf <http://www.University1.edu> }",
  [N("http://www.University1.edu", "<http://www.University1.edu>")],
  check="empty", why="only University0's members are in the data")

q("Which professors work at Lehigh University?", "other_university", "decline", None,
  [N("Lehigh University", "none")], check="names", why="Lehigh University is not in the data")

q("how many students does University3 have?", "other_university", "decline",
  "SELECT ?s WHERE { ?s ub:memberOf ?d . ?d ub:subOrganizationOf <http://www.University3.edu> }",
  [N("University3", "none")], check="empty",
  why="University3 is only a degree-granting IRI without a name; none of its students or departments are in "
      "the data")

# ---------------------------------------------------------------------------------------------------------
# Declines: the relation exists in the ontology but not for these nodes
# ---------------------------------------------------------------------------------------------------------
q("who advises UndergraduateStudent477?", "missing_edge", "decline",
  f"SELECT ?a WHERE {{ {UG477} ub:advisor ?a }}",
  [N("UndergraduateStudent477", UG477)],
  check="empty", why="UndergraduateStudent477 has no advisor in the data")

q("which course is GraduateStudent147 a TA for?", "missing_edge", "decline",
  f"SELECT ?c WHERE {{ {GS147} ub:teachingAssistantOf ?c }}",
  [N("GraduateStudent147", GS147)],
  check="empty", why="GraduateStudent147 is not a teaching assistant of any course")

q("what's GraduateStudent146's research interest?", "missing_edge", "decline",
  f"SELECT ?r WHERE {{ {GS146} ub:researchInterest ?r }}",
  [N("GraduateStudent146", GS146)],
  check="empty", why="no research interest recorded for GraduateStudent146")

q("which research group does GraduateStudent146 work for?", "missing_edge", "decline",
  f"SELECT ?g WHERE {{ {GS146} ub:worksFor ?g }}",
  [N("GraduateStudent146", GS146)],
  check="empty", why="GraduateStudent146 is a research assistant, but no worksFor link names the group")

q("who is the dean of University0?", "missing_edge", "decline",
  f"SELECT ?x WHERE {{ {{ ?x a ub:Dean }} UNION {{ ?x ub:headOf {U0} }} }}",
  [N("University0", U0)],
  check="empty", why="no dean and no head of University0 in the data")

q("which publications did UndergraduateStudent500 write?", "missing_edge", "decline",
  f"SELECT ?p WHERE {{ ?p ub:publicationAuthor {UG500} }}",
  [N("UndergraduateStudent500", UG500)],
  check="empty", why="UndergraduateStudent500 authored nothing")

q("what courses does GraduateStudent146 teach", "missing_edge", "decline",
  f"SELECT ?c WHERE {{ {{ {GS146} ub:teacherOf ?c }} UNION {{ {GS146} ub:teachingAssistantOf ?c }} }}",
  [N("GraduateStudent146", GS146)],
  check="empty", why="GraduateStudent146 teaches nothing and assists in nothing")

q("who are the members of ResearchGroup0 in Department0?", "missing_edge", "decline",
  f"SELECT ?m WHERE {{ {{ ?m ub:memberOf {E(0, 'ResearchGroup0')} }} UNION {{ {E(0, 'ResearchGroup0')} ub:member ?m }} }}",
  [N("ResearchGroup0", E(0, "ResearchGroup0"), sub_of(0)), N("Department0", D(0))],
  check="empty", why="no one is recorded as a member of any research group")

# ---------------------------------------------------------------------------------------------------------
# Declines: chains longer than the documented default hop limit (3)
# ---------------------------------------------------------------------------------------------------------
q("Where did the head of the department that GraduateStudent146's advisor works for get his PhD?",
  "hop_limit", "decline",
  f"SELECT ?u WHERE {{ {GS146} ub:advisor ?a . ?a ub:worksFor ?d . ?h ub:headOf ?d . ?h ub:doctoralDegreeFrom ?u }}",
  [N("GraduateStudent146", GS146)],
  check="hops", hops=4, why="four relations in a chain: over the default hop limit of 3")

q("who advises the TAs of the courses taught by the advisor of GraduateStudent79 of Department7?",
  "hop_limit", "decline",
  f"SELECT DISTINCT ?b WHERE {{ {GS79_7} ub:advisor ?a . ?a ub:teacherOf ?c . ?t ub:teachingAssistantOf ?c . "
  f"?t ub:advisor ?b }}",
  [N("GraduateStudent79", GS79_7, in_dept(7)), N("Department7", D(7))],
  check="hops", hops=4, why="four relations in a chain: over the default hop limit of 3")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="LUBM folder (default: $LUBM_DIR or ../shared/data/lubm from the repo root)")
    ap.add_argument("--cache", help="closure cache file (default: $LUBM_CLOSURE_CACHE or ~/.cache/...)")
    ap.add_argument("--no-cache", action="store_true", help="compute the closure afresh and store nothing")
    ap.add_argument("--out", default=str(HERE / "questions.jsonl"))
    args = ap.parse_args()

    import gold  # beside this file

    graphs = gold.load_graphs(args.data, cache=args.cache, use_cache=not args.no_cache)
    rows = []
    for i, spec in enumerate(QUESTIONS, 1):
        qid = f"lubm_{i:03d}"
        rows.append(gold.make_row(qid, spec, graphs))
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    print(f"wrote {len(rows)} questions to {args.out}")


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(HERE))
    main()
