"""Held-out question set 6: questions and their meanings; the gold is computed by ``heldout_gold``.

How this set was written
------------------------
The writer had not seen how the library reads questions. What was read: the example tables
(``examples/kg``, ``examples/onchain``, ``examples/pages`` with ``pages.csv``, ``meta.json``, ``columns.csv`` and
``predicates.csv``, and the CSV files of ``examples/films``) with the README files of those folders; the class and
property names, ``rdfs:label``, ``rdfs:comment``, domain and range of ``ontologies/kg.ttl``,
``ontologies/onchain.ttl``, ``ontologies/pages.ttl`` and ``examples/films/ontology.ttl`` (with the
``skos:altLabel`` statements filtered out); ``/work/shared/SPEC.md``; ``docs/limits.md``;
``benchmarks/heldout_gold.py``; and the scorers ``benchmarks/heldout2/score.py`` and ``benchmarks/heldout5/score.py``.
What was not read: the package's question-answering code, its tests, ``docs/questions.md``, ``docs/pages.md``,
any other held-out set, any question file, and the synonym lists (``skos:altLabel``, cue and lexicon files).

Each question below carries only what it means (start name as written, relation chain with directions, asked
class, hop limit; on-chain start, target and limit; page filter conditions or the kind of decline). The gold
outcome is computed from the example tables by ``heldout_gold`` -- no gold was typed by hand -- and no question
was run through the library while the set was written.

Do not use this set for tuning: once the library is changed to pass these questions, they no longer measure how it
reads questions it was not built on.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout6/build.py       # write questions.jsonl
  .venv/bin/python benchmarks/heldout6/build.py -v    # also print every gold
"""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import (  # noqa: E402
    A, B, BR, C, CLK, CTR, D, F, IMP, L, NOT, P, PUB, S, SES, UPD, X, Pages, write_set,
)

HERE = Path(__file__).resolve().parent
PG = Pages()  # only for as_of: relative dates in the meanings below are resolved against the dataset's date


def R(q: str, kind: str, conds: list[tuple]) -> dict:
    """A page question that runs: its filter conditions (column, operator, value), all of them ANDed."""
    return {"q": q, "kind": kind, "conds": conds}


def Q(q: str, kind: str, status: str, concept: str | None = None) -> dict:
    """A page question the filter must not run: ``clarify`` or ``unsupported`` (concept: the measure without a column)."""
    return {"q": q, "kind": kind, "status": status, "concept": concept}


def day(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


# ---------------------------------------------------------------------------------------------------------
# kg: people, organisations, places

KG = [
    # --- answers: one relation
    S("김철수 이사님이 다니시는 회사가 어디죠?", "김철수", [("worksFor", F)], "one_hop", A, cls="Company"),
    S("정하늘은 어떤 조직에서 일하나요?", "정하늘", [("worksFor", F)], "one_hop", A, cls="Organization"),
    S("한빛재단 사무실 위치 좀 알려줘", "한빛재단", [("locatedIn", F)], "one_hop", A),
    S("에이크미에서 일하는 사람을 전부 알려 주세요.", "에이크미", [("worksFor", B)], "backward_multi", A,
      cls="Person"),
    S("회사 중에서 서울에 본사가 있는 곳은?", "서울", [("locatedIn", B)], "class_first_multi", A, cls="Company"),
    S("감마랩스 창업자가 누구야?", "감마랩스", [("foundedBy", B)], "backward", A),
    S("엡실론소프트를 사들인 회사가 어디냐?", "엡실론소프트", [("acquired", B)], "backward", A),
    S("부산에 본사를 둔 회사는?", "부산", [("locatedIn", B)], "noun_ending", A, cls="Company"),
    S("대한민국에 속한 도시를 모두 찾아줘", "대한민국", [("partOf", B)], "backward_multi", A, cls="City"),
    S("도시 하나만 물어볼게. 일본에 있는 도시는 뭐야?", "일본", [("within", B)], "context_before", A, cls="City"),
    S("아시아에 있는 나라들 알려줘", "아시아", [("within", B)], "backward_multi", A, cls="Country"),
    S("도쿄에 본사있는 회사가 뭐지?", "도쿄", [("locatedIn", B)], "missing_space", A, cls="Company"),
    S("델타물산은 어느 나라 회사예요?", "델타물산", [("locatedIn", F)], "within_extend", A, cls="Country"),
    S("판교는 어느 도시에 속해 있나요?", "판교", [("partOf", F)], "one_hop", A, cls="City"),
    S("성남시는 어디에 속해 있어?", "성남시", [("partOf", F)], "alias", A),
    S("경기도는 어느 나라에 있습니까?", "경기도", [("partOf", F)], "one_hop", A, cls="Country"),
    S("홍 대표가 세운 회사는 뭐예요?", "홍 대표", [("foundedBy", F)], "alias", A),
    S("홍 팀장님은 어느 회사에 다니세요?", "홍 팀장", [("worksFor", F)], "alias_honorific", A, cls="Company"),
    S("부산광역시는 어느 나라에 속하니?", "부산광역시", [("partOf", F)], "alias", A, cls="Country"),
    S("where is ACME Corp headquartered", "ACME Corp", [("locatedIn", F)], "en_lower_nopunct", A),
    S("List everyone who works at Acme.", "Acme", [("worksFor", B)], "en_imperative_multi", A, cls="Person"),
    S("Which company did Gamma Labs acquire?", "Gamma Labs", [("acquired", F)], "en_one_hop", A),
    S("Quick question: which country is Seoul in?", "Seoul", [("partOf", F)], "en_quick", A, cls="Country"),
    S("what city is Beta Inc. in", "Beta Inc.", [("locatedIn", F)], "en_lower_nopunct", A, cls="City"),
    S("Do you happen to know who founded ACME Corp?", "ACME Corp", [("foundedBy", B)], "en_happen_to_know", A),
    S("Name the organisation Haneul Jung works for.", "Haneul Jung", [("worksFor", F)], "en_imperative", A,
      cls="Organization"),
    S("Could you tell me which continent South Korea is part of?", "South Korea", [("partOf", F)], "en_could_you",
      A, cls="Continent"),
    S("Show me the companies headquartered in Seoul.", "Seoul", [("locatedIn", B)], "en_imperative_multi", A,
      cls="Company"),
    # --- answers: two or three relations
    S("김철수가 일하는 회사 본사는 어느 도시에 잇어?", "김철수", [("worksFor", F), ("locatedIn", F)], "chain2", A,
      cls="City"),
    S("이민지네 회사 사무실이 어느 도시에 있는지 궁금해요.", "이민지", [("worksFor", F), ("locatedIn", F)],
      "within_extend", A, cls="City"),
    S("윤준호가 공동 창업한 회사는 어디에 있더라?", "윤준호", [("foundedBy", F), ("locatedIn", F)], "chain2_deora",
      A),
    S("감마랩스가 인수한 회사 본사가 있는 도시는 어디입니까?", "감마랩스", [("acquired", F), ("locatedIn", F)],
      "chain2_formal", A, cls="City"),
    S("엡실론소프트를 인수한 회사에 다니는 직원 이름 말해 봐", "엡실론소프트", [("acquired", B), ("worksFor", B)],
      "backward_chain2", A, cls="Person"),
    S("홍길순이 다니는 회사가 있는 나라가 어딘지 궁금해요", "홍길순", [("worksFor", F), ("locatedIn", F)],
      "within_extend", A, cls="Country"),
    S("서울에 있는 회사를 인수한 회사는 어디지?", "서울", [("locatedIn", B, "Company"), ("acquired", B)],
      "mixed_class_filter", A, cls="Company"),
    S("대한민국 도시에 본사를 둔 회사들 다 말해줘", "대한민국", [("partOf", B, "City"), ("locatedIn", B)],
      "backward_chain2_multi", A, cls="Company"),
    S("엡실론소프트를 인수한 회사를 세운 사람은 누구인가요", "엡실론소프트", [("acquired", B), ("foundedBy", B)],
      "backward_chain2", A, cls="Person"),
    S("윤준호가 세운 회사가 인수한 회사는 어느 도시에 있어요?", "윤준호",
      [("foundedBy", F), ("acquired", F), ("locatedIn", F)], "chain3", A, cls="City"),
    S("4단계까지 봐도 괜찮으니까, 홍길동이 세운 회사가 있는 도시가 속한 나라는 어느 대륙에 있는지 알려줘", "홍길동",
      [("foundedBy", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "stated_limit4", A, cls="Continent",
      limit=4),
    S("Which city is the company Gildong Hong works for based in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F)], "en_relative_clause", A, cls="City"),
    S("In which city is the company that acquired Epsilon Soft located?", "Epsilon Soft",
      [("acquired", B), ("locatedIn", F)], "en_relative_within", A, cls="City"),
    S("Who works for an organisation located in Seoul?", "Seoul", [("locatedIn", B), ("worksFor", B)],
      "en_backward_multi", A, cls="Person"),
    S("I'm looking at Japanese firms. Which company has its head office in a city of Japan?", "Japan",
      [("partOf", B, "City"), ("locatedIn", B)], "en_two_sentences", A, cls="Company"),
    S("The company Junho Yoon founded - which company did it acquire?", "Junho Yoon",
      [("foundedBy", F), ("acquired", F)], "en_topicalised", A),
    S("Gilsun Hong's employer is in which city?", "Gilsun Hong", [("worksFor", F), ("locatedIn", F)],
      "en_possessive", A, cls="City"),
    S("I'd like to know who founded the company that bought Epsilon Soft.", "Epsilon Soft",
      [("acquired", B), ("foundedBy", B)], "en_id_like", A, cls="Person"),
    # --- declines
    S("박지민이 다니는 회사는 어디야?", "박지민", [("worksFor", F)], "missing_node", D),
    S("이수현 님께서 창업하신 회사가 어디에 있나요?", "이수현", [("foundedBy", F), ("locatedIn", F)], "missing_node",
      D),
    S("홍길둥이 세운 회사 어디 있어?", "홍길둥", [("foundedBy", F), ("locatedIn", F)], "near_miss", D),
    S("Where does Minji Leee work?", "Minji Leee", [("worksFor", F)], "en_near_miss", D),
    S("감마렙스가 인수한 회사가 궁금해요", "감마렙스", [("acquired", F)], "near_miss", D),
    S("홍 사장이 다니는 회사는?", "홍 사장", [("worksFor", F)], "near_alias", D),
    S("최수진 씨가 다니는 회사는 어느 도시에 있어요?", "최수진", [("worksFor", F), ("locatedIn", F)], "ungrounded",
      D, cls="City"),
    S("Which city is Sujin Choi's employer located in?", "Sujin Choi", [("worksFor", F), ("locatedIn", F)],
      "en_ungrounded", D, cls="City"),
    S("윤준호는 어느 회사에서 일하냐?", "윤준호", [("worksFor", F)], "missing_edge", D, cls="Company"),
    S("에이크미가 인수한 회사는 어디에 있나요?", "에이크미", [("acquired", F), ("locatedIn", F)], "ungrounded", D),
    S("What company did Delta Trading buy?", "Delta Trading", [("acquired", F)], "en_ungrounded", D),
    S("Which company acquired Beta Inc.?", "Beta Inc.", [("acquired", B)], "en_ungrounded_backward", D),
    S("부산에 있는 회사를 인수한 곳은 어디야", "부산", [("locatedIn", B, "Company"), ("acquired", B)],
      "ungrounded_second_hop", D),
    S("엡실론소프트가 인수한 회사 있어?", "엡실론소프트", [("acquired", F)], "missing_edge", D),
    S("한빛재단을 설립한 사람이 누구예요?", "한빛재단", [("foundedBy", B)], "missing_edge", D),
    S("Where is the company Haneul Jung founded?", "Haneul Jung", [("foundedBy", F), ("locatedIn", F)],
      "en_missing_edge", D),
    S("아시아는 어디에 속해?", "아시아", [("partOf", F)], "missing_edge", D),
    S("홍길동 연봉이 얼마야?", "홍길동", NOT("salary"), "no_relation", D),
    S("How many employees does Gamma Labs have?", "Gamma Labs", NOT("employeeCount"), "en_no_relation", D),
    S("김철수는 어디서 태어났어?", "김철수", NOT("bornIn"), "no_relation", D),
    S("Who is the CEO of Beta Inc.?", "Beta Inc.", NOT("ceo"), "en_no_relation", D),
    S("델타물산 주가 좀 알려줘", "델타물산", NOT("stockPrice"), "no_relation", D),
    S("김철수가 일하는 나라는 어디지?", "김철수", [("worksFor", F)], "class_unreachable", D, cls="Country"),
    S("이민지가 근무하는 회사는 어느 나라에 있냐", "이민지", [("worksFor", F), ("locatedIn", F)],
      "within_over_limit", D, cls="Country"),
    S("윤준호가 세운 회사가 인수한 회사가 있는 도시는 어느 나라에 속하나요?", "윤준호",
      [("foundedBy", F), ("acquired", F), ("locatedIn", F), ("partOf", F)], "chain4", D, cls="Country"),
    S("What province contains the city that contains the area where Minji Lee's company has its office?",
      "Minji Lee", [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "en_chain4", D),
    S("한 단계만 보고 답해 줘: 김철수가 다니는 회사는 어느 도시에 있어?", "김철수",
      [("worksFor", F), ("locatedIn", F)], "stated_limit1", D, cls="City", limit=1),
    S("Within two steps, which country is the company that Gildong Hong works for located in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F)], "en_stated_limit2", D, cls="Country", limit=2),
    S("안녕하세요~ 오늘 날씨 좋네요. 점심 뭐 먹을까요?", None, None, "small_talk", D, why="small talk"),
    S("hey how's it going", None, None, "en_small_talk", D, why="small talk"),
    S("Tell me about Acme.", None, None, "en_no_relation_named", D, why="no relation asked"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain

EX_DEP, MIXER = "ExchangeDeposit", "Mixer"

ONCHAIN = [
    # --- paths to a class, default limit
    P("n_w1에서 3홉 안에 거래소 입금주소로 가는 경로 있어?", "n_w1", A, cls=EX_DEP),
    P("Can funds from n_w2 reach an exchange deposit address within 3 hops?", "n_w2", A, kind="en_path", cls=EX_DEP),
    P("n_hot1에서 출발해서 입금 주소까지 몇 홉이면 닿나요?", "n_hot1", A, cls=EX_DEP),
    P("is there a path from n_w9 to any exchange deposit address", "n_w9", A, kind="en_path_lower", cls=EX_DEP),
    P("n_b2에서 브리지로 자금이 넘어갔나요?", "n_b2", A, cls="Bridge"),
    P("지갑W7에서 브리지까지 경로 찾아줘", "지갑W7", A, kind="path_label_nospace", cls="Bridge"),
    P("Does n_mx1 send money on to an exchange deposit address within three hops?", "n_mx1", A, kind="en_path",
      cls=EX_DEP),
    P("Starting at n_c1, can you reach a mixer in 3 hops or fewer?", "n_c1", A, kind="en_path", cls=MIXER),
    P("지갑 W3에서 탈중앙화 거래소로 간 경로가 있나요?", "지갑 W3", A, kind="path_label", cls="Dex"),
    P("n_a1에서 컨트랙트로 가는 제일 짧은 경로 보여줘", "n_a1", A, kind="path_multi_end", cls="Contract"),
    P("n_ex1에서 핫월렛까지 돈이 흘러갔는지 확인해 줄래?", "n_ex1", A, cls="ExchangeHotWallet"),
    P("Show me the shortest path from n_ex1 to a wallet.", "n_ex1", A, kind="en_path_multi_end", cls="Wallet"),
    P("경유 지갑 H1에서 거래소 쪽으로 넘어간 경로가 있는지 궁금합니다", "경유 지갑 H1", A, kind="path_label_superclass",
      cls="Exchange"),
    P("지갑 W6에서 믹서로 3홉 안에 갈 수 있어?", "지갑 W6", A, kind="path_label", cls=MIXER),
    P("n_w4에서 3홉 이내에 입금주소에 도달하냐?", "n_w4", A, cls=EX_DEP),
    P("Trace a path from n_br1 to an exchange deposit address, max 3 hops.", "n_br1", A, kind="en_imperative",
      cls=EX_DEP),
    # --- paths to a class, stated limits
    P("n_hot2에서 믹서까지 4홉 이내로 닿는지 확인해 줘", "n_hot2", A, kind="stated_limit", hops=4, cls=MIXER),
    P("n_w8 → 믹서, 4홉까지 허용해서 찾아봐", "n_w8", A, kind="stated_limit_arrow", hops=4, cls=MIXER),
    P("n_h1에서 컨트랙트로 바로 가는 전송이 있나요? 1홉만 봐 주세요.", "n_h1", A, kind="stated_limit1", hops=1,
      cls="Contract"),
    P("Within five hops, does n_ex2 ever reach a mixer?", "n_ex2", A, kind="en_stated_limit", hops=5, cls=MIXER),
    # --- paths to a named node
    P("n_a1에서 n_hot1까지 3홉 안에 연결돼?", "n_a1", A, kind="path_node", target="n_hot1"),
    P("Is n_a1 connected to n_w2 within 3 hops?", "n_a1", A, kind="en_path_node", target="n_w2"),
    P("n_w1에서 n_ct1로 가는 경로가 있는지 알려줘", "n_w1", A, kind="path_node", target="n_ct1"),
    P("n_hot1 → n_c1 경로 있음?", "n_hot1", A, kind="path_node_terse", target="n_c1"),
    P("믹서 풀 M1에서 거래소 Y 입금주소 1까지 경로 있어?", "믹서 풀 M1", A, kind="path_label_node",
      target="거래소 Y 입금주소 1"),
    P("starting from n_w6 how many hops to reach n_ex2? allow up to 5", "n_w6", A, kind="en_path_node_limit",
      hops=5, target="n_ex2"),
    # --- starts by address
    P("0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4 에서 3홉 안에 거래소 입금주소로 가는 경로가 있나요?",
      "0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4", A, kind="path_address", cls=EX_DEP),
    P("Does 0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE reach an exchange deposit address within 3 hops?",
      "0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE", A, kind="en_path_checksum", cls=EX_DEP),
    P("0x03ebceff59a7298d2eb4b7a19feb48046d2d057b 에서 출발한 돈이 입금주소로 들어갔는지 3홉 이내로 봐줘",
      "0x03ebceff59a7298d2eb4b7a19feb48046d2d057b", A, kind="path_address_lowered", cls=EX_DEP),
    # --- path declines
    P("n_hot2에서 3홉 안에 믹서로 갈 수 있냐?", "n_hot2", D, kind="no_path", cls=MIXER),
    P("n_br1에서 2홉 안에 거래소 입금주소에 닿을 수 있어?", "n_br1", D, kind="no_path_stated", hops=2, cls=EX_DEP),
    P("n_w6에서 n_ex2까지 기본 한도 안에서 가능해?", "n_w6", D, kind="no_path_node", target="n_ex2"),
    P("can n_w8 reach a mixer within 3 hops", "n_w8", D, kind="en_no_path", cls=MIXER),
    P("Within one hop, does n_a1 reach an exchange deposit address?", "n_a1", D, kind="en_no_path_stated", hops=1,
      cls=EX_DEP),
    P("휴면 지갑 D4에서 3홉 안에 믹서로 갈 수 있나요?", "휴면 지갑 D4", D, kind="no_path_isolated", cls=MIXER),
    P("Does n_tk1 send anything to a wallet within 3 hops?", "n_tk1", D, kind="en_no_path", cls="Wallet"),
    P("n_orphan에서 거래소 입금주소로 가는 경로 있어?", "n_orphan", D, kind="no_path_unknown_class", cls=EX_DEP),
    P("n_z99에서 3홉 안에 거래소로 가는 길 있나요?", "n_z99", D, kind="missing_node", cls="Exchange"),
    P("Is there a path from 0x1111111111111111111111111111111111111111 to a mixer within 3 hops?",
      "0x1111111111111111111111111111111111111111", D, kind="en_missing_address", cls=MIXER),
    P("지갑 Q7에서 믹서로 가는 경로 좀", "지갑 Q7", D, kind="missing_label", cls=MIXER),
    P("n_a11에서 입금주소까지 경로 알려줘", "n_a11", D, kind="near_miss_id", cls=EX_DEP),
    # --- clusters
    C("n_a1과 같은 주체로 추정되는 주소들은?", "n_a1", A),
    C("Which addresses are believed to belong to the same owner as n_b2?", "n_b2", A, kind="en_cluster"),
    C("지갑 W5랑 동일 주체인 지갑 알려줘", "지갑 W5", A, kind="cluster_label"),
    C("same entity cluster of 0x2412d9e01e9b5ff631f6a1dcf935f72491721f51?",
      "0x2412d9e01e9b5ff631f6a1dcf935f72491721f51", A, kind="en_cluster_address"),
    C("경유 지갑 H1이랑 같은 주인으로 묶인 주소가 뭐예요?", "경유 지갑 H1", A, kind="cluster_label"),
    C("n_w7과 같은 사람이 쓰는 주소 있냐", "n_w7", D, kind="cluster_empty"),
    C("Does n_d4 belong to a cluster with any other address?", "n_d4", D, kind="en_cluster_empty"),
    C("n_mx1랑 동일 주체 주소 찾아줘", "n_mx1", D, kind="cluster_empty"),
    # --- labels
    L("n_orphan은 어떤 종류의 주소야?", "n_orphan"),
    L("What kind of address is 0x1315719B3C2260184271EeC1c4E17C89863055Fb?",
      "0x1315719B3C2260184271EeC1c4E17C89863055Fb", kind="en_label_address"),
    L("0x03EbcEFf59A7298D2eb4b7A19fEB48046D2D057b 이 주소는 뭐 하는 주소예요?",
      "0x03EbcEFf59A7298D2eb4b7A19fEB48046D2D057b", kind="label_checksum"),
    L("what type is n_dex1", "n_dex1", kind="en_label_lower"),
    L("n_tk1의 분류가 뭔지 궁금해요", "n_tk1"),
    L("Could you tell me what n_br1 is labelled as?", "n_br1", kind="en_label"),
    L("n_ex2는 어떤 유형의 주소입니까?", "n_ex2"),
    L("멀티시그 컨트랙트는 무슨 클래스야?", "멀티시그 컨트랙트", kind="label_by_label"),
    L("Is n_w9 a wallet or something else? What's its class?", "n_w9", kind="en_label_two_sentences"),
    # --- questions the graph cannot answer
    X("n_w3 지갑 잔액이 얼마나 남았어?", "balance", "no balance in the graph", start="n_w3"),
    X("Who owns n_hot1?", "en_owner", "no owner in the graph", start="n_hot1"),
    X("n_a1이 보낸 트랜잭션 가스비 총합 알려줘", "gas", "no gas fees in the graph", start="n_a1"),
    X("What's the current ETH price?", "en_price", "no prices in the graph"),
    X("지갑 W8 주인의 연락처를 알 수 있나요?", "identity", "no real-world identities in the graph", start="지갑 W8"),
    X("Is n_mx2 run by a sanctioned group? I need the operator's name.", "en_operator",
      "no operators in the graph", start="n_mx2"),
    X("오늘 비트코인 시세 어때?", "price", "no prices in the graph"),
]

# ---------------------------------------------------------------------------------------------------------
# pages

Y25 = PG.year(-1)      # 작년 / last year
Y26 = PG.year(0)       # 올해 / this year
LM = PG.last_month()   # 지난달 / last month
TWO_WEEKS = PG.as_of - dt.timedelta(days=14)

PAGES = [
    # --- thresholds
    R("노출수 2만 이상인 페이지", "threshold", [(IMP, ">=", 20000)]),
    R("세션이 1500 이상인 페이지 뭐 있지?", "threshold", [(SES, ">=", 1500)]),
    R("quick question: which pages got zero sessions", "en_zero", [(SES, "=", 0)]),
    R("클릭이 하나도 없는 페이지", "predicate_builtin", [(CLK, "=", 0)]),
    R("세션이 거의 없는 페이지는?", "predicate_dataset", [(SES, "<=", 10)]),
    R("이탈이 심한 페이지 알려줘", "predicate_dataset", [(BR, ">=", 0.7)]),
    # --- percentages on rates
    R("CTR 5% 이상인 페이지 뽑아줘", "percent_rate", [(CTR, ">=", 0.05)]),
    R("Show me pages whose bounce rate is under 40%.", "en_percent_rate", [(BR, "<", 0.40)]),
    R("이탈률이 70% 넘는 페이지가 뭐가 있나요", "percent_rate", [(BR, ">", 0.70)]),
    R("Which pages have a CTR over 0.05", "en_decimal_rate", [(CTR, ">", 0.05)]),
    # --- two conditions
    R("pages with more than 10000 impressions and CTR below 4%", "en_two_conditions",
      [(IMP, ">", 10000), (CTR, "<", 0.04)]),
    R("노출은 꽤 되는데 클릭이 하나도 없는 페이지 찾아줘", "predicates_two", [(IMP, ">=", 1000), (CLK, "=", 0)]),
    R("clicks at least 500 and bounce rate below 0.45", "en_two_conditions_terse", [(CLK, ">=", 500), (BR, "<", 0.45)]),
    R("클릭수 0인데 노출 500 이상인거 찿아줘", "two_conditions_typo", [(CLK, "=", 0), (IMP, ">=", 500)]),
    R("노출수 5,000 이상 세션 1,000 미만", "two_conditions_commas", [(IMP, ">=", 5000), (SES, "<", 1000)]),
    R("노출 1만 이하이면서 클릭 200 이상인 페이지 있어?", "two_conditions", [(IMP, "<=", 10000), (CLK, ">=", 200)]),
    R("이탈률 50퍼센트 이상이고 세션 100 넘는 페이지", "two_conditions_percent_word",
      [(BR, ">=", 0.50), (SES, ">", 100)]),
    R("List pages with impressions of at least 1000 but CTR under 1%.", "en_imperative_two",
      [(IMP, ">=", 1000), (CTR, "<", 0.01)]),
    R("클릭 수가 거의 없는 페이지 중에서 노출이 꽤 되는 것만 골라 줘", "predicates_two",
      [(CLK, "<=", 10), (IMP, ">=", 1000)]),
    # --- ranges
    R("세션 500에서 1000 사이 페이지", "range", [(SES, ">=", 500), (SES, "<=", 1000)]),
    R("I'd like to see pages with impressions between 3000 and 6000.", "en_range",
      [(IMP, ">=", 3000), (IMP, "<=", 6000)]),
    R("CTR이 1%에서 2% 사이인 페이지 알려주세요", "range_percent", [(CTR, ">=", 0.01), (CTR, "<=", 0.02)]),
    # --- dates
    R("2025년에 게시된 페이지 목룍", "date_year", [(PUB, ">=", Y25[0]), (PUB, "<=", Y25[1])]),
    R("작년에 발행된 페이지 중에 클릭 100 넘는 거", "relative_year_and_count",
      [(PUB, ">=", Y25[0]), (PUB, "<=", Y25[1]), (CLK, ">", 100)]),
    R("지난달에 수정된 페이지 목록", "relative_last_month", [(UPD, ">=", LM[0]), (UPD, "<=", LM[1])]),
    R("Which pages were updated last month?", "en_relative_last_month", [(UPD, ">=", LM[0]), (UPD, "<=", LM[1])]),
    R("올해 게시된 페이지 중 노출 1000 이상", "relative_this_year",
      [(PUB, ">=", Y26[0]), (PUB, "<=", Y26[1]), (IMP, ">=", 1000)]),
    R("pages published before 2024", "en_date_before", [(PUB, "<", day("2024-01-01"))]),
    R("2025년 1월 1일 이전에 마지막으로 수정된 페이지", "date_before", [(UPD, "<", day("2025-01-01"))]),
    R("최근 2주 안에 게시된 페이지 있어?", "relative_days", [(PUB, ">=", TWO_WEEKS)]),
    R("Any pages published in the last 14 days?", "en_relative_days", [(PUB, ">=", TWO_WEEKS)]),
    R("2년 넘게 수정되지 않은 페이지", "relative_years_ago", [(UPD, "<", PG.years_ago(2))]),
    R("작년 초에 게시된 페이지 좀 보여줘", "relative_early_last_year",
      [(PUB, ">=", day(f"{Y25[0].year}-01-01")), (PUB, "<=", day(f"{Y25[0].year}-03-31"))]),
    R("2026년 9월 한 달 동안 수정된 페이지", "date_month", [(UPD, ">=", day("2026-09-01")), (UPD, "<=", day("2026-09-30"))]),
    R("bounce rate above 60% and published this year", "en_rate_and_relative_year",
      [(BR, ">", 0.60), (PUB, ">=", Y26[0]), (PUB, "<=", Y26[1])]),
    R("Could you list the pages with fewer than 100 impressions... sorry, I mean fewer than 500.", "en_self_correction",
      [(IMP, "<", 500)]),
    R("Give me pages with at least 800 clicks in the last 30 days", "en_threshold", [(CLK, ">=", 800)]),
    # --- declines: clarify
    Q("성과가 좋은 페이지 보여줘", "vague_measure", "clarify"),
    Q("Which pages perform well?", "en_vague_measure", "clarify"),
    Q("인기 많은 페이지 뭐야", "vague_measure", "clarify"),
    Q("조회수 높은 페이지 알려줘요", "vague_measure", "clarify"),
    Q("1000 넘는 페이지 뽑아줘", "number_no_column", "clarify"),
    Q("pages with impressions or clicks over 500", "en_or", "clarify"),
    Q("2026년 2월 30일 이후 수정된 페이지", "impossible_date", "clarify"),
    Q("노출수 10% 이상인 페이지", "percent_on_count", "clarify"),
    Q("show me the good pages", "en_vague_evaluation", "clarify"),
    Q("잘 안 되는 페이지 좀 골라줘", "vague_evaluation", "clarify"),
    Q("pages with high engagement", "en_vague_measure", "clarify"),
    Q("Find pages above 300, thanks", "en_number_no_column", "clarify"),
    # --- declines: unsupported
    Q("전환율 3% 넘는 페이지", "no_column", "unsupported", concept="전환율"),
    Q("Which pages made more than $1000 in revenue?", "en_no_column", "unsupported", concept="revenue"),
    Q("평균 체류 시간이 2분 이상인 페이지", "no_column", "unsupported", concept="체류 시간"),
    Q("백링크 많은 페이지 알려줄래?", "no_column", "unsupported", concept="백링크"),
    Q("top 5 pages by clicks", "en_ranking", "unsupported"),
    Q("클릭수 합계 알려줘", "aggregation", "unsupported"),
    Q("What's the average CTR across all pages?", "en_aggregation", "unsupported"),
    Q("페이지 로딩 속도가 느린 곳 찾아줘", "no_column", "unsupported", concept="로딩 속도"),
    Q("Show me pages written by the author Kim.", "en_no_column", "unsupported", concept="author"),
    Q("광고비가 10만원 넘게 들어간 페이지", "no_column", "unsupported", concept="광고비"),
    Q("검색 순위 10위 안에 드는 페이지", "no_column", "unsupported", concept="검색 순위"),
    Q("pages with lots of social shares", "en_no_column", "unsupported", concept="social shares"),
    Q("클릭률 높은 순으로 정렬해서 보여줘", "ranking", "unsupported"),
]

# ---------------------------------------------------------------------------------------------------------
# films

FILMS = [
    # --- answers: one relation
    S("달빛항구감독이누구야", "달빛항구", [("directedBy", F)], "missing_spaces", A),
    S("한지우 감독님이 연출하신 영화들 다 알려주세요", "한지우", [("directedBy", B)], "backward_multi_honorific", A,
      cls="Film"),
    S("Which films has Jiyu Han appeared in?", "Jiyu Han", [("starring", B)], "en_backward_multi", A, cls="Film"),
    S("종이새에 나오는 배우는?", "종이새", [("starring", F)], "noun_ending_multi", A, cls="Actor"),
    S("List the films produced by Blue River Films.", "Blue River Films", [("producedBy", B)],
      "en_imperative_multi", A, cls="Film"),
    S("구모 스튜디오는 어느 도시에 본사가 있나요", "구모 스튜디오", [("basedIn", F)], "one_hop", A, cls="City"),
    S("What country is Kumo Studio based in?", "Kumo Studio", [("basedIn", F)], "en_within_extend", A,
      cls="Country"),
    S("새벽별 국제영화제는 어느 나라에서 열리지?", "새벽별 국제영화제", [("heldIn", F)], "within_extend", A,
      cls="Country"),
    S("황금별상은 어느 영화제에서 주는 상이야?", "황금별상", [("presentedAt", F)], "one_hop", A, cls="Festival"),
    S("아오바 관객상을 받은 영화가 뭐냐", "아오바 관객상", [("wonAward", B)], "backward", A, cls="Film"),
    S("서민재랑 같이 작업한 사람 누구야?", "서민재", [("collaboratedWith", F)], "symmetric_from_dst", A),
    S("Who has Jiwoo Han collaborated with?", "Jiwoo Han", [("collaboratedWith", F)], "en_symmetric_from_src", A),
    S("Rei Kimura collaborated with whom?", "Rei Kimura", [("collaboratedWith", F)], "en_symmetric_from_dst", A),
    S("감독 중에 클레르 모로와 협업한 사람은 누구인가요?", "클레르 모로", [("collaboratedWith", F)],
      "class_first_symmetric", A, cls="Director"),
    S("강은비랑 같이 일해 본 배우가 누구지?", "강은비", [("collaboratedWith", F)], "symmetric_from_dst", A,
      cls="Actor"),
    S("영화 청하는 누가 연출했어?", "청하", [("directedBy", F)], "shared_name", A),
    S("청하에서 태어난 배우는 누구예요?", "청하", [("bornIn", B)], "shared_name_backward", A, cls="Actor"),
    S("가람 출신 배우들을 알려조", "가람", [("bornIn", B)], "backward_multi", A, cls="Actor"),
    S("해윤 출신 감독이 누구냐", "해윤", [("bornIn", B)], "backward_class_filter", A, cls="Director"),
    S("Which films premiered in Haeyun?", "Haeyun", [("premieredIn", B)], "en_backward_multi", A, cls="Film"),
    S("프랑스에 있는 도시를 모두 말해 봐", "프랑스", [("locatedIn", B)], "backward_multi", A, cls="City"),
    S("파도 영화제에서 상영된 작품은?", "파도 영화제", [("screenedAt", B)], "backward_multi", A),
    S("the festival des vagues is held in which country", "festival des vagues", [("heldIn", F)],
      "en_lower_within_extend", A, cls="Country"),
    S("What city did the film Cheongha premiere in?", "Cheongha", [("premieredIn", F)], "en_shared_name", A,
      cls="City"),
    S("유리 정원 제작사가 어디 어디야", "유리 정원", [("producedBy", F)], "multi", A),
    S("Which award did House of Tides win?", "House of Tides", [("wonAward", F)], "en_one_hop", A),
    S("아오바 영화제는 어디서 열려?", "아오바 영화제", [("heldIn", F)], "one_hop", A),
    S("새벽별 국제영화제에서 상영된 영화 전부 찾아줘", "새벽별 국제영화제", [("screenedAt", B)], "backward_multi", A,
      cls="Film"),
    # --- answers: two to four relations
    S("달빛 항구를 연출한 감독의 고향은 어디입니까?", "달빛 항구", [("directedBy", F), ("bornIn", F)], "chain2", A),
    S("이다혜가 나온 영화 감독이 누구더라?", "이다혜", [("starring", B), ("directedBy", F)], "mixed_chain2", A),
    S("황금별상을 주는 영화제가 열리는 도시는 어느 나라에 있나요?", "황금별상",
      [("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "chain3", A, cls="Country"),
    S("Allowing up to four hops: Moonlit Harbor won an award, and the festival that presents it is held in a "
      "city. Which country is that city in?", "Moonlit Harbor",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "en_stated_limit4", A,
      cls="Country", limit=4),
    S("Where is the studio that produced Winter Station headquartered?", "Winter Station",
      [("producedBy", F), ("basedIn", F)], "en_relative_clause", A),
    S("Which films did the actor born in Cheongha appear in?", "Cheongha", [("bornIn", B, "Actor"), ("starring", B)],
      "en_shared_name_chain", A, cls="Film"),
    S("서린에서 처음 개봉한 영화들의 감독을 알려줘", "서린", [("premieredIn", B), ("directedBy", F)],
      "mixed_chain2_multi", A),
    S("Which studio is based in a city in Japan?", "Japan", [("locatedIn", B, "City"), ("basedIn", B)],
      "en_backward_chain2", A, cls="Studio"),
    S("정우석이 출연한 영화를 만든 제작사들이 어디야?", "정우석", [("starring", B), ("producedBy", F)],
      "mixed_chain2_multi", A, cls="Studio"),
    S("Who directed the films Noah Miller starred in?", "Noah Miller", [("starring", B), ("directedBy", F)],
      "en_relative_multi", A),
    S("달돌 픽처스가 제작한 영화에 나온 배우들은 누구누구야?", "달돌 픽처스", [("producedBy", B), ("starring", F)],
      "backward_then_forward_multi", A, cls="Actor"),
    S("Where was the director of The Last Ferry born?", "The Last Ferry", [("directedBy", F), ("bornIn", F)],
      "en_chain2", A),
    S("마지막 나룻배 제작사의 본사가 있는 나라는 어디예요?", "마지막 나룻배", [("producedBy", F), ("basedIn", F)],
      "within_extend_two_studios", A, cls="Country"),
    S("조수의 집 감독이랑 협업한 사람은 누구?", "조수의 집", [("directedBy", F), ("collaboratedWith", F)],
      "chain2_symmetric", A),
    S("겨울 정거장에 출연한 배우들이 태어난 도시를 각각 알려줘", "겨울 정거장", [("starring", F), ("bornIn", F)],
      "chain2_multi", A, cls="City"),
    S("Do you happen to know where Dahye Lee was born? Her hometown, I mean.", "Dahye Lee", [("bornIn", F)],
      "en_two_sentences", A),
    # --- declines
    S("달빛 항구 감독은 어느 나라 출신이야?", "달빛 항구", [("directedBy", F), ("bornIn", F)], "class_unreachable", D,
      cls="Country"),
    S("Which country was Jiwoo Han born in?", "Jiwoo Han", [("bornIn", F)], "en_class_unreachable", D,
      cls="Country"),
    S("이다혜가 출연한 영화 감독이 태어난 도시가 속한 나라는?", "이다혜",
      [("starring", B), ("directedBy", F), ("bornIn", F), ("locatedIn", F)], "chain4", D, cls="Country"),
    S("윤세하와 협업한 감독은?", "윤세하", [("collaboratedWith", F)], "ungrounded_symmetric", D, cls="Director"),
    S("Who has Hyejin Yoon worked with?", "Hyejin Yoon", [("collaboratedWith", F)], "en_missing_edge", D),
    S("박도현 감독은 어디서 태어났어?", "박도현", [("bornIn", F)], "missing_edge", D),
    S("Where was Eunbi Kang born?", "Eunbi Kang", [("bornIn", F)], "en_ungrounded", D),
    S("토마 마르탱의 출생지가 어디죠?", "토마 마르탱", [("bornIn", F)], "ungrounded", D),
    S("In which city did The Red Line premiere?", "The Red Line", [("premieredIn", F)], "en_ungrounded", D,
      cls="City"),
    S("북쪽 등대는 어디서 개봉했나요?", "북쪽 등대", [("premieredIn", F)], "missing_edge", D),
    S("한울 시네마 본사 위치가 어디야?", "한울 시네마", [("basedIn", F)], "missing_edge", D),
    S("At which festival is the Silver Ripple Critics Prize presented?", "Silver Ripple Critics Prize",
      [("presentedAt", F)], "en_missing_edge", D, cls="Festival"),
    S("유리 정원이 받은 상이 뭐야?", "유리 정원", [("wonAward", F)], "ungrounded", D, cls="Award"),
    S("달빛 항구 제작비가 얼마예요?", "달빛 항구", NOT("budget"), "no_relation", D),
    S("What was the box office of The Glass Garden?", "The Glass Garden", NOT("boxOffice"), "en_no_relation", D),
    S("종이새 상영 시간은 몇 분이야?", "종이새", NOT("runtime"), "no_relation", D),
    S("Which city was Winter Station filmed in?", "Winter Station", NOT("filmedIn"), "en_no_relation", D),
    S("서민제 씨 생일이 언제예요?", "서민제", NOT("birthDate"), "no_relation", D),
    S("서민자가 출연한 영화 알려줘", "서민자", [("starring", B)], "near_miss", D),
    S("Which films did Claire Moro direct?", "Claire Moro", [("directedBy", B)], "en_near_miss", D),
    S("달빛 향구 감독이 누구예요", "달빛 향구", [("directedBy", F)], "near_miss", D),
    S("who directed Paper Bird", "Paper Bird", [("directedBy", F)], "en_near_miss_lower", D),
    S("봉준호 감독이 연출한 영화 알려줘", "봉준호", [("directedBy", B)], "missing_node", D),
    S("Who starred in The Silent River?", "The Silent River", [("starring", F)], "en_missing_node", D),
    S("영화 얘기 말고, 요즘 재밌는 드라마 추천해 줄래?", None, None, "small_talk", D, why="small talk"),
    S("한 단계만 거쳐서 답해 줘. 겨울 정거장을 만든 제작사는 어느 나라에 있어?", "겨울 정거장",
      [("producedBy", F), ("basedIn", F)], "stated_limit1", D, cls="Country", limit=1),
    S("Using at most two hops, which country is the festival that presents the Golden Star Award held in?",
      "Golden Star Award", [("presentedAt", F), ("heldIn", F)], "en_stated_limit2", D, cls="Country", limit=2),
    S("Any idea which country the hometown of the director of the film Lea Duval starred in belongs to? "
      "It's for a quiz.", "Lea Duval", [("starring", B), ("directedBy", F), ("bornIn", F), ("locatedIn", F)],
      "en_chain4", D, cls="Country"),
]


def main() -> None:
    write_set(HERE, KG, ONCHAIN, PAGES, FILMS, verbose="-v" in sys.argv[1:], min_n=200)


if __name__ == "__main__":
    main()
