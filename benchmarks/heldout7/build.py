"""Held-out question set 7: questions and their meanings; the gold is computed by ``benchmarks/heldout_gold.py``.

How this set was written
------------------------
The questions were written by a writer who had not seen how the library reads questions. The writer read only
the example tables (``examples/kg``, ``examples/onchain``, ``examples/pages``, ``examples/films``) and the README
files of those folders; the class and property names, ``rdfs:label``, ``rdfs:comment``, domain and range of
``ontologies/kg.ttl``, ``ontologies/onchain.ttl``, ``ontologies/pages.ttl`` and ``examples/films/ontology.ttl``
(printed by a filter that drops every ``skos:altLabel`` triple, so no synonym list was seen); ``SPEC.md``;
``docs/limits.md``; ``benchmarks/heldout_gold.py``; ``benchmarks/heldout2/score.py`` and
``benchmarks/heldout5/score.py``. The writer did not read the question-answering code (``ont_platform/qa/``), the
tests, ``docs/questions.md``, ``docs/pages.md``, any other held-out set, any question file or results file,
any synonym list, or the history of the repository.

Every entry below is a question as a user might type it plus its meaning (start name as written, relation chain
with directions, asked class, hop limit; on-chain path / cluster / label; page filter conditions). No gold answer
is typed here: ``heldout_gold.write_set`` works every gold out of the example tables. No question was run through
the library while the set was written.

Do not use this set for tuning: it exists to measure how the library reads questions it was not built on.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout7/build.py      # write questions.jsonl
  .venv/bin/python benchmarks/heldout7/build.py -v   # ... and print every gold
"""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import (A, B, BR, C, CLK, CTR, D, F, IMP, L, NOT, P, PUB, S, SES, UPD, X, Pages,  # noqa: E402
                          write_set)

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------------------
# kg: people, organisations, places

KG = [
    # --- answers, Korean
    S("김철수 이사님이 근무하시는 회사 본사는 어느 도시에 있습니까?", "김철수",
      [("worksFor", F), ("locatedIn", F)], "chain2", A, cls="City"),
    S("홍길순이다니는회사는어느도시에있어?", "홍길순", [("worksFor", F), ("locatedIn", F)], "no_spaces", A, cls="City"),
    S("이민지가 일하는 회사는 어느 도시에 있어?", "이민지", [("worksFor", F), ("locatedIn", F)], "within_to_class", A,
      cls="City"),
    S("윤준호가 공동 창업한 회사 사무실이 있는 곳 알려줘", "윤준호", [("foundedBy", F), ("locatedIn", F)], "chain2", A),
    S("감마랩스가 사들인 회사는 어느 도시에 있냐", "감마랩스", [("acquired", F), ("locatedIn", F)], "chain2", A,
      cls="City"),
    S("감마랩스가 인수한 회사가 있는 도시는 어느 나라에 속하지?", "감마랩스",
      [("acquired", F), ("locatedIn", F), ("partOf", F)], "chain3", A, cls="Country"),
    S("에이크미에서 일하는 사람은 누구누구야?", "에이크미", [("worksFor", B)], "backward_multi", A, cls="Person"),
    S("회사 중에 서울에 본사를 둔 곳은 어디어디인가요?", "서울", [("locatedIn", B, "Company")], "class_first", A,
      cls="Company"),
    S("서울에 있는 단체랑 회사 전부 말해 봐", "서울", [("locatedIn", B)], "backward_multi", A),
    S("대한민국에 속한 도시들 정리해 줘", "대한민국", [("partOf", B, "City")], "backward_class", A, cls="City"),
    S("감마랩스를 세운 사람이 누군지 알아?", "감마랩스", [("foundedBy", B)], "backward", A, cls="Person"),
    S("엡실론소프트를 인수한 회사에서 근무하는 사람은?", "엡실론소프트", [("acquired", B), ("worksFor", B)],
      "backward2", A, cls="Person"),
    S("김철수가 다니는 회사를 창업한 사람은 누구더라?", "김철수", [("worksFor", F), ("foundedBy", B)], "mixed", A,
      cls="Person"),
    S("서울에 본사가 있는 회사를 세운 사람이 누구지?", "서울", [("locatedIn", B, "Company"), ("foundedBy", B)],
      "backward2_class", A, cls="Person"),
    S("부산에 있는 회사에서 일하는 직원 찾아줘", "부산", [("locatedIn", B, "Company"), ("worksFor", B)], "backward2", A,
      cls="Person"),
    S("델타물산 본사가 있는 나라가 어디예요?", "델타물산", [("locatedIn", F)], "within_to_class", A, cls="Country"),
    S("델타물산은 어느 대륙에 있는 회사입니까?", "델타물산", [("locatedIn", F)], "within_to_class", A, cls="Continent"),
    S("판교는 어느 도시에 속해 있나요?", "판교", [("partOf", F)], "one_hop", A, cls="City"),
    S("성남이 속한 곳이 속한 나라는?", "성남", [("partOf", F), ("partOf", F)], "chain2", A, cls="Country"),
    S("정하늘 씨가 일하는 곳은 어느 도시에 있어요?", "정하늘", [("worksFor", F), ("locatedIn", F)], "chain2", A,
      cls="City"),
    S("홍길동 대표님께서 세우신 회사는 어디에 있습니까?", "홍길동", [("foundedBy", F), ("within", F)], "honorific", A),
    S("김철수가다니는회사이름뭐야", "김철수", [("worksFor", F)], "no_spaces", A),
    S("이민지가 근뮤하는 회사 이름이 뭐야?", "이민지", [("worksFor", F)], "typo_word", A),
    S("에이크미에서 일하느 사람 누구야", "에이크미", [("worksFor", B)], "typo_word_multi", A, cls="Person"),
    S("베타 본사 소재 도시.", "베타", [("locatedIn", F)], "noun_ending", A, cls="City"),
    S("한빛재단 소재지", "한빛재단", [("within", F)], "noun_ending", A),
    S("감마랩스라는 회사 알지? 그 회사가 인수한 곳은 어디야?", "감마랩스", [("acquired", F)], "anaphora", A),
    S("도쿄가 속한 나라는 어디냐", "도쿄", [("partOf", F)], "one_hop", A, cls="Country"),
    S("아시아에 속한 나라들을 알려주세요", "아시아", [("partOf", B, "Country")], "backward_class", A, cls="Country"),
    S("직접 연결된 것만 봐서, 대한민국에 바로 속한 곳은?", "대한민국", [("partOf", B)], "directly_multi", A),
    S("지금 투자 보고서를 쓰고 있어요. 엡실론소프트를 인수한 회사가 어디에 있는지 확인이 필요합니다. 빠르게 부탁드려요.",
      "엡실론소프트", [("acquired", B), ("within", F)], "context", A),
    S("4단계까지 괜찮으니까 홍길동이 일하는 회사가 있는 도시가 속한 나라가 어느 대륙에 있는지 알려줘", "홍길동",
      [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "stated_limit", A, cls="Continent",
      limit=4),
    # --- answers, English
    S("Who does Cheolsu Kim work for?", "Cheolsu Kim", [("worksFor", F)], "one_hop", A),
    S("Which city is the company Gilsun Hong works at based in?", "Gilsun Hong", [("worksFor", F), ("locatedIn", F)],
      "chain2", A, cls="City"),
    S("Could you tell me which country Epsilon Soft is located in?", "Epsilon Soft", [("locatedIn", F)],
      "within_to_class", A, cls="Country"),
    S("Name the people who work for ACME Corp.", "ACME Corp", [("worksFor", B)], "backward_multi", A, cls="Person"),
    S("the company that acquired Epsilon Soft where is it", "Epsilon Soft", [("acquired", B), ("within", F)],
      "lowercase_relative", A),
    S("Do you happen to know who founded Gamma Labs?", "Gamma Labs", [("foundedBy", B)], "backward", A, cls="Person"),
    S("What did the company Junho Yoon founded acquire?", "Junho Yoon", [("foundedBy", F), ("acquired", F)],
      "relative", A),
    S("List the companies headquartered in Seoul.", "Seoul", [("locatedIn", B, "Company")], "backward_class", A,
      cls="Company"),
    S("Which organisations are located in Seoul? I need all of them.", "Seoul", [("locatedIn", B)], "two_sentences",
      A, cls="Organization"),
    S("Who works at the company that acquired Epsilon Soft?", "Epsilon Soft", [("acquired", B), ("worksFor", B)],
      "relative", A, cls="Person"),
    S("quick question: which continent is Tokyo in", "Tokyo", [("partOf", F)], "within_to_class", A, cls="Continent"),
    S("Which cities are part of South Korea?", "South Korea", [("partOf", B, "City")], "backward_class", A,
      cls="City"),
    S("In which city is the organisation Haneul Jung works for?", "Haneul Jung", [("worksFor", F), ("locatedIn", F)],
      "chain2", A, cls="City"),
    S("I'd like to know which continent South Korea belongs to.", "South Korea", [("partOf", F)], "one_hop", A,
      cls="Continent"),
    S("Directly, what is Pangyo part of?", "Pangyo", [("partOf", F)], "directly", A),
    S("Show me the people who work for companies in Busan.", "Busan", [("locatedIn", B, "Company"), ("worksFor", B)],
      "backward2", A, cls="Person"),
    S("Give me everyone employed by a company located in Seoul.", "Seoul",
      [("locatedIn", B, "Company"), ("worksFor", B)], "backward2_multi", A, cls="Person"),
    S("Gildong Hong's employer: which country is its city in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F)], "possessive", A, cls="Country"),
    # --- declines, Korean
    S("정하늘이 다니는 회사 이름 좀 알려줘", "정하늘", [("worksFor", F, "Company")], "wrong_class", D, cls="Company"),
    S("김철수가 다니는 회사가 있는 도시가 속한 나라는 어느 대륙에 있냐?", "김철수",
      [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "over_default", D, cls="Continent"),
    S("이민지 회사가 있는 곳의 나라가 어디인지 궁금합니다", "이민지", [("worksFor", F), ("locatedIn", F)],
      "over_default_within", D, cls="Country"),
    S("두 단계 안에서만 찾아봐: 홍길동이 다니는 회사가 있는 도시는 어느 나라에 있어?", "홍길동",
      [("worksFor", F), ("locatedIn", F), ("partOf", F)], "stated_limit", D, cls="Country", limit=2),
    S("한 단계 안에서 답해줘. 이민지가 일하는 회사의 소재지는?", "이민지", [("worksFor", F), ("locatedIn", F)],
      "stated_limit", D, limit=1),
    S("윤준호가 다니는 회사는?", "윤준호", [("worksFor", F)], "missing_edge", D),
    S("최수진이 일하는 회사가 있는 도시는 어디야?", "최수진", [("worksFor", F), ("locatedIn", F)], "ungrounded", D,
      cls="City"),
    S("에이크미가 인수한 회사 본사 위치 알려줘", "에이크미", [("acquired", F), ("locatedIn", F)], "ungrounded", D),
    S("베타를 인수한 회사는 어디야?", "베타", [("acquired", B)], "ungrounded", D),
    S("엡실론소프트를 창업한 사람 누구예요?", "엡실론소프트", [("foundedBy", B)], "missing_edge", D),
    S("이수민이 일하는 회사는 어디에 있나요?", "이수민", [("worksFor", F), ("within", F)], "unknown_name", D),
    S("홍길둥이 다니는 회사는 어디에 있나요", "홍길둥", [("worksFor", F), ("within", F)], "near_miss", D),
    S("감마렙스가 인수한 회사는?", "감마렙스", [("acquired", F)], "near_miss", D),
    S("에이크미 연봉이 얼마나 돼?", "에이크미", NOT("salary"), "no_relation", D),
    S("감마랩스 직원 수가 몇 명인지 알아?", "감마랩스", NOT("employeeCount"), "no_relation", D),
    S("홍길동의 생일이 언제더라?", "홍길동", NOT("birthDate"), "no_relation", D),
    S("안녕하세요~ 오늘 점심 뭐 먹을까요?", None, None, "smalltalk", D, why="small talk"),
    S("서울에서 제일 맛있는 식당 추천해 줘", "서울", NOT("restaurant"), "no_relation", D),
    # --- declines, English
    S("Which company does Haneul Jung work for?", "Haneul Jung", [("worksFor", F, "Company")], "wrong_class", D,
      cls="Company"),
    S("Where does Sujin Choi's employer have its head office?", "Sujin Choi", [("worksFor", F), ("locatedIn", F)],
      "ungrounded", D),
    S("Which company did Acme acquire?", "Acme", [("acquired", F)], "ungrounded", D, cls="Company"),
    S("Who acquired Beta Inc.?", "Beta Inc.", [("acquired", B)], "ungrounded", D),
    S("What company does Junho Yoon work for?", "Junho Yoon", [("worksFor", F)], "missing_edge", D),
    S("Who founded Epsilon Soft, and when?", "Epsilon Soft", [("foundedBy", B)], "missing_edge", D),
    S("Where does Younghee Park work?", "Younghee Park", [("worksFor", F)], "unknown_name", D),
    S("Which city is Gildong Hongg's company in?", "Gildong Hongg", [("worksFor", F), ("locatedIn", F)],
      "near_miss", D, cls="City"),
    S("How much revenue did Delta Trading make last year?", "Delta Trading", NOT("revenue"), "no_relation", D),
    S("What is Minji Lee's salary?", "Minji Lee", NOT("salary"), "no_relation", D),
    S("Within two steps only, which country is the city of Gildong Hong's employer in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F), ("partOf", F)], "stated_limit", D, cls="Country", limit=2),
    S("What continent is the country of the city where Cheolsu Kim's company is located?", "Cheolsu Kim",
      [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "over_default", D, cls="Continent"),
    S("hey hows it going, tell me a joke", None, None, "smalltalk", D, why="small talk"),
    S("Is there a company that Delta Trading acquired? Which one?", "Delta Trading", [("acquired", F)], "ungrounded",
      D, cls="Company"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain: transfers, clusters, address classes

ONCHAIN = [
    # --- paths, Korean
    P("n_a1 지갑에서 출발해서 3홉 안에 거래소 입금주소까지 돈이 갔나요?", "n_a1", A, hops=3, cls="ExchangeDeposit"),
    P("지갑 A1에서 보낸 돈이 거래소 쪽 주소 어디든 닿았는지 궁금해요", "지갑 A1", A, cls="Exchange", kind="path_label"),
    P("0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4 이 주소에서 믹서로 간 흐름 있냐?", "0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4",
      D, cls="Mixer", kind="path_address"),
    P("n_w6에서 믹서까지 자금이 흘러갔어?", "n_w6", A, cls="Mixer"),
    P("지갑 W6에서 2홉 이내로 믹서에 도달하나요?", "지갑 W6", D, hops=2, cls="Mixer", kind="stated_limit"),
    P("n_w8 에서 믹서 가는 경로 있나? 한도는 기본으로", "n_w8", D, cls="Mixer", kind="default_limit"),
    P("n_w8에서 4단계까지 봐서 믹서 닿는지 확인해줘", "n_w8", A, hops=4, cls="Mixer", kind="stated_limit"),
    P("5홉 안에 지갑 W8에서 믹서로 가는 경로 찾아줘", "지갑 W8", A, hops=5, cls="Mixer", kind="stated_limit"),
    P("휴면 지갑 D4에서 어떤 주소로든 송금한 적 있나요?", "휴면 지갑 D4", D, cls="Address", kind="path_label"),
    P("n_b2에서 브리지로 바로 보낸 거래가 있습니까?", "n_b2", A, hops=1, cls="Bridge", kind="directly"),
    P("n_w1이 거래소 입금주소에 직접 입금했는지 알려줘", "n_w1", A, hops=1, cls="ExchangeDeposit", kind="directly"),
    P("지갑 W1에서 거래소 핫월렛까지 이어지는 경로 있어?", "지갑 W1", A, cls="ExchangeHotWallet", kind="path_label"),
    P("거래소 X 핫월렛에서 3홉 안에 믹서로 간 적 있어?", "거래소 X 핫월렛", D, hops=3, cls="Mixer", kind="path_label"),
    P("거래소 X 핫월렛에서 믹서까지 5홉 이내 경로 찾아 줘", "거래소 X 핫월렛", A, hops=5, cls="Mixer",
      kind="stated_limit"),
    P("순환 지갑 C1에서 믹서로 나간 돈 있나요", "순환 지갑 C1", A, cls="Mixer", kind="path_label"),
    P("믹서 풀 M1에서 나온 돈이 거래소 핫월렛으로 들어갔냐?", "믹서 풀 M1", A, cls="ExchangeHotWallet", kind="path_label"),
    P("브리지 B1 통해서 나간 자금이 거래소 입금주소에 도달했는지 3홉 기준으로 봐줘", "브리지 B1", A, hops=3,
      cls="ExchangeDeposit", kind="path_label"),
    P("EUSD 토큰 컨트랙트에서 다른 지갑으로 전송된 게 있나요", "EUSD 토큰 컨트랙트", D, cls="Wallet", kind="path_label"),
    P("n_w3에서 탈중앙화 거래소로 보낸 기록 있지?", "n_w3", A, cls="Dex"),
    P("n_a1에서 n_ex3까지 경로가 있나요?", "n_a1", D, target="n_ex3", kind="path_node"),
    P("n_a1에서 n_ex3까지 4홉으로 이어지는지 봐줘", "n_a1", A, hops=4, target="n_ex3", kind="path_node"),
    P("n_w2가 거래소 X 핫월렛까지 자금을 보냈나", "n_w2", A, target="거래소 X 핫월렛", kind="path_node"),
    P("지갑 W6에서 거래소 Y 입금주소 1까지 6홉 안에 닿아?", "지갑 W6", A, hops=6, target="거래소 Y 입금주소 1",
      kind="path_node"),
    P("혹시 지갑 W6에서 거래소 Y 입금주소 1로 돈이 넘어갔는지 알 수 있을까요?", "지갑 W6", D,
      target="거래소 Y 입금주소 1", kind="path_node"),
    # --- clusters, Korean
    C("n_a1과 같은 주체로 추정되는 주소들 알려줘", "n_a1", A),
    C("경유 지갑 H1이랑 동일인이 쓰는 걸로 보이는 지갑은?", "경유 지갑 H1", A),
    C("지갑 W5와 같은 사람이 운영하는 주소 있어?", "지갑 W5", A),
    C("n_w1이랑 같은 주체인 주소는?", "n_w1", D),
    C("거래소 X 입금주소 1과 같은 주체로 묶인 다른 주소도 있나요?", "거래소 X 입금주소 1", D),
    # --- labels, Korean
    L("정규화 실패 주소의 유형은?", "정규화 실패 주소"),
    L("0x1315719B3C2260184271EeC1c4E17C89863055Fb 이 주소는 어떤 주소로 분류돼 있나요?",
      "0x1315719B3C2260184271EeC1c4E17C89863055Fb"),
    L("n_ct1 주소 종류 알려줘", "n_ct1"),
    L("DEX 라우터는 무슨 유형의 주소야?", "DEX 라우터"),
    L("0x5ef070ad1cef50536452ed6f6fec252952e7e870 는 무슨 주소지?", "0x5ef070ad1cef50536452ed6f6fec252952e7e870"),
    # --- declines, Korean
    X("n_a1 지갑 주인이 누구야?", "owner", "owners are not in the graph", start="n_a1"),
    X("지갑 W3 잔액 얼마 남았어?", "balance", "balances are not in the graph", start="지갑 W3"),
    X("지금 이더리움 시세 알려줘", "price", "prices are not in the graph"),
    X("믹서 풀 M2 운영자는 어느 나라 사람이야?", "owner", "operators are not in the graph", start="믹서 풀 M2"),
    P("n_z99에서 거래소까지 경로 있어?", "n_z99", D, cls="Exchange", kind="unknown_node"),
    P("지갑 Q7에서 믹서로 간 돈 있어?", "지갑 Q7", D, cls="Mixer", kind="unknown_node"),
    # --- paths, English
    P("Can money from 0x67cdaEeD96c337B1e4e8D6D0186Aa67635aefDb4 be traced to any exchange deposit address?",
      "0x67cdaEeD96c337B1e4e8D6D0186Aa67635aefDb4", A, cls="ExchangeDeposit", kind="path_checksum"),
    P("Is there a path from 0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE to an exchange hot wallet?",
      "0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE", A, cls="ExchangeHotWallet", kind="path_checksum"),
    P("does 0x03ebceff59a7298d2eb4b7a19feb48046d2d057b send anything to a mixer within 5 hops",
      "0x03ebceff59a7298d2eb4b7a19feb48046d2d057b", A, hops=5, cls="Mixer", kind="path_lowercase"),
    P("Show me how funds from n_w4 reached an exchange deposit address.", "n_w4", A, cls="ExchangeDeposit"),
    P("Within two hops, does n_w4 reach any exchange?", "n_w4", D, hops=2, cls="Exchange", kind="stated_limit"),
    P("Any idea whether n_w7 sent money to a bridge?", "n_w7", A, cls="Bridge"),
    P("Trace n_c2 to a mixer.", "n_c2", A, cls="Mixer", kind="imperative"),
    P("Did n_d4 ever send funds to an exchange?", "n_d4", D, cls="Exchange"),
    P("Could you check if n_w9 reaches n_ex1 in three hops or fewer?", "n_w9", A, hops=3, target="n_ex1",
      kind="path_node"),
    P("Is n_hot2 connected to a mixer by transfers within 3 hops?", "n_hot2", D, hops=3, cls="Mixer"),
    P("And within four hops, does n_hot2 get to a mixer?", "n_hot2", A, hops=4, cls="Mixer", kind="stated_limit"),
    P("Is the address 0x2412d9E01E9b5ff631F6A1dcf935F72491721F51 linked to an exchange hot wallet within six hops?",
      "0x2412d9E01E9b5ff631F6A1dcf935F72491721F51", A, hops=6, cls="ExchangeHotWallet", kind="path_checksum"),
    P("Did n_br1 route funds into a decentralized exchange?", "n_br1", D, cls="Dex"),
    P("Can you trace n_q42 to a mixer?", "n_q42", D, cls="Mixer", kind="unknown_node"),
    P("Is there any route from 0x1111111111111111111111111111111111111111 to an exchange?",
      "0x1111111111111111111111111111111111111111", D, cls="Exchange", kind="unknown_node"),
    # --- clusters, English
    C("Which addresses are believed to belong to the same entity as n_w6?", "n_w6", A),
    C("Is n_b2 part of a same-entity cluster? List the other members.", "n_b2", A),
    C("same owner as n_dex1?", "n_dex1", D),
    # --- labels, English
    L("What kind of address is 0x6ff34ed9389161d9b1fc120cc3c4682fa19ab15f?",
      "0x6ff34ed9389161d9b1fc120cc3c4682fa19ab15f"),
    L("what type is n_hot2", "n_hot2"),
    L("I'd like to know the class of n_tk1.", "n_tk1"),
    # --- declines, English
    X("Who owns n_ex2?", "owner", "owners are not in the graph", start="n_ex2"),
    X("What's the current ETH balance of n_w9?", "balance", "balances are not in the graph", start="n_w9"),
    X("How much gas did the transfers from n_c1 cost?", "gas", "gas is not in the graph", start="n_c1"),
    X("what will the price of EUSD be next month", "price", "prices are not in the graph"),
]

# ---------------------------------------------------------------------------------------------------------
# pages: filters over pages.csv

PG = Pages()
AS_OF = PG.as_of
LAST_YEAR = PG.year(-1)
THIS_YEAR = PG.year(0)
LAST_MONTH = PG.last_month()
THIS_MONTH = (AS_OF.replace(day=1), AS_OF)
LAST_30 = AS_OF - dt.timedelta(days=30)


def R(q: str, kind: str, *conds: tuple) -> dict:
    """A question the filter can run: every condition must hold (an empty cell never matches)."""
    return {"q": q, "kind": kind, "conds": list(conds)}


def Q(q: str, kind: str, status: str, concept: str | None = None) -> dict:
    """A question to decline: 'clarify' or 'unsupported' (concept: the word that has no column)."""
    return {"q": q, "kind": kind, "status": status, "concept": concept}


def between(col: str, lo, hi) -> tuple[tuple, tuple]:
    return (col, ">=", lo), (col, "<=", hi)


PAGES = [
    # --- ran, Korean
    R("노출수 1만 이상인데 클릭률이 3% 미만인 페이지 있어?", "two_conditions_percent",
      (IMP, ">=", 10000), (CTR, "<", 0.03)),
    R("클릭이 하나도 없는데 노출은 꽤 되는 페이지 뽑아줘", "vague_builtin", (CLK, "=", 0), (IMP, ">=", 1000)),
    R("세션이 거의 없는 페이지 목록 보여줘", "dataset_predicate", (SES, "<=", 10)),
    R("이탈이 심한 페이지들 정리해 줘", "dataset_predicate", (BR, ">=", 0.7)),
    R("이탈률 80% 이상인 페이지는?", "percent_rate", (BR, ">=", 0.8)),
    R("이탈률이 30% 미만인 페이지 찾아줘", "percent_rate", (BR, "<", 0.3)),
    R("클릭률이 5퍼센트 넘는 페이지", "percent_rate", (CTR, ">", 0.05)),
    R("노출이 3000에서 6000 사이인 페이지", "range", *between(IMP, 3000, 6000)),
    R("지난달에 수정된 페이지 알려줘", "relative_month", *between(UPD, *LAST_MONTH)),
    R("9월 중에 업데이트된 페이지 중 노출 1만 넘는 거", "named_month",
      *between(UPD, dt.date(AS_OF.year, 9, 1), dt.date(AS_OF.year, 9, 30)), (IMP, ">", 10000)),
    R("올해 1분기에 게시된 페이지는?", "quarter", *between(PUB, dt.date(AS_OF.year, 1, 1), dt.date(AS_OF.year, 3, 31))),
    R("2025년 3분기 동안 발행된 페이지", "quarter", *between(PUB, dt.date(2025, 7, 1), dt.date(2025, 9, 30))),
    R("작년에 게시된 페이지 중에 클릭이 0인 것", "relative_year", *between(PUB, *LAST_YEAR), (CLK, "=", 0)),
    R("이번 달 들어 새로 올라온 페이지", "relative_month", *between(PUB, *THIS_MONTH)),
    R("세션수 1000 이상이고 이탈률 40% 이하인 페이지", "two_conditions_percent", (SES, ">=", 1000), (BR, "<=", 0.4)),
    R("클릭수가 100 미만인 페이지 중 2024년에 올라온 것", "two_conditions_year",
      (CLK, "<", 100), *between(PUB, dt.date(2024, 1, 1), dt.date(2024, 12, 31))),
    R("노출 500 미만 페이지 뭐 있어?", "threshold", (IMP, "<", 500)),
    R("클릭 수 10회 이하이고 노출 2000 이상인 페이지", "two_conditions", (CLK, "<=", 10), (IMP, ">=", 2000)),
    R("2026년 10월 1일 이후 수정된 페이지는?", "date", (UPD, ">=", dt.date(2026, 10, 1))),
    R("2023년에 처음 게시된 후 올해 9월에 수정된 페이지", "two_dates",
      *between(PUB, dt.date(2023, 1, 1), dt.date(2023, 12, 31)),
      *between(UPD, dt.date(AS_OF.year, 9, 1), dt.date(AS_OF.year, 9, 30))),
    R("클릭률 1% 미만인데 세션은 꽤 되는 페이지", "empty_result", (CTR, "<", 0.01), (SES, ">=", 1000)),
    R("2년 넘게 수정 안 된 페이지 알려줄래?", "relative_years", (UPD, "<", PG.years_ago(2))),
    R("세션수 0인 페이지", "zero_empty_cells", (SES, "=", 0)),
    R("노출수 1,000 넘고 클릭 1회 이하", "boundary", (IMP, ">", 1000), (CLK, "<=", 1)),
    R("노출 2만 이상 페이지 찾아줘요", "threshold_man", (IMP, ">=", 20000)),
    R("클릭 0회 페이지들 싹 다 보여줘", "zero_empty_cells", (CLK, "=", 0)),
    # --- declines, Korean
    Q("요즘 성과 별로인 페이지 좀 추려줘", "vague_measure", "clarify"),
    Q("인기 있는 블로그 글 알려줘", "vague_measure", "clarify"),
    Q("반응 좋은 페이지 보여줘", "vague_measure", "clarify"),
    Q("조회수 높은 글이 뭐야?", "vague_measure", "clarify"),
    Q("1000 넘는 페이지 찾아줘", "no_column", "clarify"),
    Q("노출이나 클릭이 100 이하인 페이지", "or", "clarify"),
    Q("2월 30일에 게시된 페이지", "impossible_date", "clarify"),
    Q("클릭수가 5% 이상인 페이지", "percent_on_count", "clarify"),
    Q("매출이 높은 상품 페이지는?", "no_column_concept", "unsupported", concept="매출"),
    Q("전환율 2% 넘는 페이지 있나요", "no_column_concept", "unsupported", concept="전환율"),
    Q("체류 시간이 3분 넘는 페이지", "no_column_concept", "unsupported", concept="체류 시간"),
    Q("백링크 많은 글 뽑아줘", "no_column_concept", "unsupported", concept="백링크"),
    Q("노출수 상위 5개 페이지", "ranking", "unsupported"),
    Q("전체 페이지 클릭수 합계 알려줘", "aggregate", "unsupported"),
    Q("페이지 속도가 느린 페이지 찾아줘", "no_column_concept", "unsupported", concept="페이지 속도"),
    Q("광고비가 10만원 넘게 들어간 페이지", "no_column_concept", "unsupported", concept="광고비"),
    # --- ran, English
    R("Which pages had more than 20000 impressions in the last 30 days?", "threshold", (IMP, ">", 20000)),
    R("show me pages with a click-through rate above 4%", "percent_rate", (CTR, ">", 0.04)),
    R("List pages with a bounce rate of at least 70%.", "percent_rate", (BR, ">=", 0.7)),
    R("Pages with zero clicks but at least 1000 impressions?", "two_conditions", (CLK, "=", 0), (IMP, ">=", 1000)),
    R("I'd like to know which pages were updated in September 2026.", "named_month",
      *between(UPD, dt.date(2026, 9, 1), dt.date(2026, 9, 30))),
    R("Give me the pages published in Q1 2025.", "quarter", *between(PUB, dt.date(2025, 1, 1), dt.date(2025, 3, 31))),
    R("Which pages were published last year and have fewer than 50 sessions?", "relative_year",
      *between(PUB, *LAST_YEAR), (SES, "<", 50)),
    R("pages with between 1500 and 2500 impressions", "range", *between(IMP, 1500, 2500)),
    R("Could you tell me which pages have a CTR under 1% and more than 2000 impressions?", "two_conditions_percent",
      (CTR, "<", 0.01), (IMP, ">", 2000)),
    R("Name the pages last updated before 2025.", "date", (UPD, "<", dt.date(2025, 1, 1))),
    R("quick question: pages with no sessions at all", "zero_empty_cells", (SES, "=", 0)),
    R("Show me pages with 10 clicks or fewer and a bounce rate over 0.75", "two_conditions",
      (CLK, "<=", 10), (BR, ">", 0.75)),
    R("Which pages were published this month?", "relative_month", *between(PUB, *THIS_MONTH)),
    R("Pages updated in the last 30 days with more than 5000 sessions?", "relative_days",
      *between(UPD, LAST_30, AS_OF), (SES, ">", 5000)),
    R("Which pages have more than 3000 sessions?", "threshold", (SES, ">", 3000)),
    R("Pages published during 2026 with a bounce rate below 50%", "year_percent",
      *between(PUB, *THIS_YEAR), (BR, "<", 0.5)),
    # --- declines, English
    Q("Which pages are performing well?", "vague_measure", "clarify"),
    Q("What are our most popular pages?", "vague_measure", "clarify"),
    Q("Pages with a high conversion rate", "no_column_concept", "unsupported", concept="conversion rate"),
    Q("Which pages get a lot of backlinks?", "no_column_concept", "unsupported", concept="backlinks"),
    Q("What's the average CTR across all pages?", "aggregate", "unsupported"),
    Q("Top 10 pages by clicks", "ranking", "unsupported"),
    Q("show pages over 500", "no_column", "clarify"),
    Q("pages with clicks over 3%", "percent_on_count", "clarify"),
    Q("Which pages have a dwell time over two minutes?", "no_column_concept", "unsupported", concept="dwell time"),
    Q("Pages that rank worse than our competitors", "no_column_concept", "unsupported", concept="competitors"),
]

# ---------------------------------------------------------------------------------------------------------
# films: its own ontology

FILMS = [
    # --- answers, Korean
    S("달빛 항구 연출한 감독 누구야?", "달빛 항구", [("directedBy", F)], "one_hop", A, cls="Director"),
    S("한지우 감독님이 연출하신 작품 전부 알려주세요", "한지우", [("directedBy", B)], "backward_multi", A, cls="Film"),
    S("한지유가 나온 영화 뭐뭐 있어?", "한지유", [("starring", B)], "backward_multi", A, cls="Film"),
    S("강은비가 출연한 영화를 연출한 사람은?", "강은비", [("starring", B), ("directedBy", F)], "mixed_multi", A),
    S("서민재가 출연한 작품을 제작한 회사들은?", "서민재", [("starring", B), ("producedBy", F)], "mixed_multi", A,
      cls="Studio"),
    S("유리 정원을 만든 제작사들의 본사 도시", "유리 정원", [("producedBy", F), ("basedIn", F)], "noun_ending_multi", A,
      cls="City"),
    S("조수의 집 제작사가 있는 나라가 어디야?", "조수의 집", [("producedBy", F), ("within", F)], "within_to_class", A,
      cls="Country"),
    S("마지막 나룻배가 처음 개봉한 도시는 어느 나라에 있습니까?", "마지막 나룻배", [("premieredIn", F), ("locatedIn", F)],
      "chain2", A, cls="Country"),
    S("종이새에서 자매로 나온 두 배우 이름 알려줘", "종이새", [("starring", F)], "multi", A, cls="Actor"),
    S("아홉 번째 여름에 출연한 배우의 고향은?", "아홉 번째 여름", [("starring", F), ("bornIn", F)], "chain2", A),
    S("한지우와 함께 작업한 배우가 태어난 도시", "한지우", [("collaboratedWith", F), ("bornIn", F)], "symmetric", A,
      cls="City"),
    S("서민재와 협업한 감독은 누구?", "서민재", [("collaboratedWith", B)], "symmetric_other_end", A, cls="Director"),
    S("클레르 모로랑 호흡 맞춘 사람 있어?", "클레르 모로", [("collaboratedWith", F)], "symmetric", A),
    S("새벽별 국제영화제에서 상영된 영화들을 연출한 감독 목록", "새벽별 국제영화제", [("screenedAt", B), ("directedBy", F)],
      "mixed_multi", A, cls="Director"),
    S("아오바 영화제에서 틀어준 영화 제목이 뭐였지?", "아오바 영화제", [("screenedAt", B)], "backward", A, cls="Film"),
    S("그랑 바그상은 어느 영화제에서 주는 상이지?", "그랑 바그상", [("presentedAt", F)], "one_hop", A, cls="Festival"),
    S("황금별상을 받은 영화를 찍은 감독이 태어난 곳", "황금별상", [("wonAward", B), ("directedBy", F), ("bornIn", F)],
      "mixed3", A),
    S("4단계까지 허용할게. 달빛 항구가 수상한 상이 수여되는 영화제가 열리는 도시는 어느 나라에 있어?", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "stated_limit4", A, cls="Country",
      limit=4),
    S("영화 청하의 감독은 누구지?", "청하", [("directedBy", F)], "shared_name", A, cls="Director"),
    S("청하에서 태어난 배우 알려줘", "청하", [("bornIn", B)], "shared_name", A, cls="Actor"),
    S("청하시는 어느 나라 도시야?", "청하시", [("locatedIn", F)], "one_hop", A, cls="Country"),
    S("일본에서 개최되는 영화제는 어디예요?", "일본", [("locatedIn", B), ("heldIn", B)], "backward2", A,
      cls="Festival"),
    S("프랑스 도시에서 처음 공개된 영화들 알려 줘", "프랑스", [("locatedIn", B), ("premieredIn", B)], "backward2_multi",
      A, cls="Film"),
    S("가람 출신 배우들은 누구누구?", "가람", [("bornIn", B, "Actor")], "backward_class_multi", A, cls="Actor"),
    S("해윤에 본사를 둔 제작사가 제작한 영화는?", "해윤", [("basedIn", B), ("producedBy", B)], "backward2_multi", A,
      cls="Film"),
    S("정우석이 출연한 영화의 감독은 누구인지 궁굼해요", "정우석", [("starring", B), ("directedBy", F)], "typo_word_multi",
      A, cls="Director"),
    S("노아밀러가태어난도시는어느나라에있어", "노아밀러", [("bornIn", F), ("locatedIn", F)], "no_spaces", A,
      cls="Country"),
    S("이 영화 있잖아, 마지막 나룻배. 그 영화 제작사들 어디 있는지 알아?", "마지막 나룻배",
      [("producedBy", F), ("within", F)], "anaphora_multi", A),
    # --- answers, English
    S("Who directed The Glass Garden?", "The Glass Garden", [("directedBy", F)], "verb", A),
    S("Which films did Jiwoo Han direct?", "Jiwoo Han", [("directedBy", B)], "backward_multi", A, cls="Film"),
    S("Who is the director of the film that Dahye Lee starred in?", "Dahye Lee", [("starring", B), ("directedBy", F)],
      "relative", A, cls="Director"),
    S("the studio that produced Winter Station is based where", "Winter Station", [("producedBy", F), ("basedIn", F)],
      "lowercase_relative", A),
    S("Which country is the studio behind House of Tides based in?", "House of Tides",
      [("producedBy", F), ("within", F)], "within_to_class", A, cls="Country"),
    S("What films has Noah Miller appeared in?", "Noah Miller", [("starring", B)], "backward_multi", A, cls="Film"),
    S("Name the actors in The Last Ferry.", "The Last Ferry", [("starring", F)], "imperative_multi", A, cls="Actor"),
    S("Could you tell me where the festival that presents the Golden Star Award is held?", "Golden Star Award",
      [("presentedAt", F), ("heldIn", F)], "relative", A),
    S("In which city was the director of Paper Birds born?", "Paper Birds", [("directedBy", F), ("bornIn", F)],
      "chain2", A, cls="City"),
    S("Which country is the hometown of the director of Winter Station in?", "Winter Station",
      [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "chain3", A, cls="Country"),
    S("Who has Rei Kimura collaborated with?", "Rei Kimura", [("collaboratedWith", F)], "symmetric_other_end", A),
    S("Any idea who Seo Minjae has teamed up with?", "Seo Minjae", [("collaboratedWith", F)], "symmetric_other_end", A),
    S("Which films were screened at the Festival des Vagues?", "Festival des Vagues", [("screenedAt", B)],
      "backward_multi", A, cls="Film"),
    S("List the festivals that screened films produced by Moonstone Pictures.", "Moonstone Pictures",
      [("producedBy", B), ("screenedAt", F)], "mixed_multi", A, cls="Festival"),
    S("Give me the cities where films starring Jiyu Han premiered.", "Jiyu Han", [("starring", B), ("premieredIn", F)],
      "mixed_multi", A, cls="City"),
    S("What award did the film directed by Dohyun Park win?", "Dohyun Park", [("directedBy", B), ("wonAward", F)],
      "mixed", A, cls="Award"),
    S("Show me the directors whose films premiered in Seorin.", "Seorin", [("premieredIn", B), ("directedBy", F)],
      "mixed_multi", A, cls="Director"),
    S("Allowing up to four steps: where was the actor who collaborated with the director of the film that won the "
      "Golden Star Award born?", "Golden Star Award",
      [("wonAward", B), ("directedBy", F), ("collaboratedWith", F), ("bornIn", F)], "stated_limit4", A, limit=4),
    # --- declines, Korean
    S("붉은 선 개봉지.", "붉은 선", [("premieredIn", F)], "ungrounded", D),
    S("북쪽 등대는 어디서 처음 개봉했어?", "북쪽 등대", [("premieredIn", F)], "missing_edge", D),
    S("아홉 번째 여름에 출연한 배우는 어느 나라 출신이야?", "아홉 번째 여름", [("starring", F), ("bornIn", F)],
      "wrong_class", D, cls="Country"),
    S("윤세하 감독과 협업한 감독은?", "윤세하", [("collaboratedWith", F)], "ungrounded", D, cls="Director"),
    S("윤혜진과 같이 작업한 배우는?", "윤혜진", [("collaboratedWith", F)], "missing_edge", D, cls="Actor"),
    S("은물결 비평가상이 수여되는 영화제는 어디냐", "은물결 비평가상", [("presentedAt", F)], "missing_edge", D),
    S("달빛 항구가 받은 상을 주는 영화제가 열리는 도시가 있는 나라", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "over_default", D, cls="Country"),
    S("두 단계 이내로만: 조수의 집 감독의 출생지가 속한 나라는?", "조수의 집",
      [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "stated_limit", D, cls="Country", limit=2),
    S("황금별상을 받은 영화를 연출한 감독과 협업한 배우의 출생지는?", "황금별상",
      [("wonAward", B), ("directedBy", F), ("collaboratedWith", F), ("bornIn", F)], "over_default", D),
    S("유리 정원이 받은 상이 뭐야?", "유리 정원", [("wonAward", F)], "ungrounded", D),
    S("토마 마르탱의 출생지는 어디입니까?", "토마 마르탱", [("bornIn", F)], "ungrounded", D),
    S("박도현 감독 고향이 어디더라?", "박도현", [("bornIn", F)], "missing_edge", D),
    S("한울 시네마 본사는 어느 도시에 있나요?", "한울 시네마", [("basedIn", F)], "missing_edge", D, cls="City"),
    S("한지운 감독이 연출한 영화는?", "한지운", [("directedBy", B)], "near_miss", D),
    S("사토 유니가 출연한 영화 알려줘", "사토 유니", [("starring", B)], "near_miss", D),
    S("박서준이 출연한 영화는?", "박서준", [("starring", B)], "unknown_name", D),
    S("달빛 항구 제작비는 얼마였어?", "달빛 항구", NOT("budget"), "no_relation", D),
    S("겨울 정거장 관객 수가 몇 명이야?", "겨울 정거장", NOT("audienceCount"), "no_relation", D),
    S("레아 뒤발 나이가 어떻게 돼?", "레아 뒤발", NOT("age"), "no_relation", D),
    # --- declines, English
    S("Where was The Red Line first released?", "The Red Line", [("premieredIn", F)], "ungrounded", D),
    S("Where was Eunbi Kang born?", "Eunbi Kang", [("bornIn", F)], "ungrounded", D),
    S("Where was Dohyun Park born?", "Dohyun Park", [("bornIn", F)], "missing_edge", D),
    S("Which festival is the Silver Ripple Critics Prize presented at?", "Silver Ripple Critics Prize",
      [("presentedAt", F)], "missing_edge", D),
    S("Who directed The Glass Gardens?", "The Glass Gardens", [("directedBy", F)], "near_miss", D),
    S("Which films did Rei Kimora direct?", "Rei Kimora", [("directedBy", B)], "near_miss", D),
    S("Who starred in Midnight Express Seoul?", "Midnight Express Seoul", [("starring", F)], "unknown_name", D),
    S("What was the budget of The Ninth Summer?", "The Ninth Summer", NOT("budget"), "no_relation", D),
    S("What is the box office of Cheongha?", "Cheongha", NOT("boxOffice"), "no_relation", D),
    S("Within one hop, what country is the premiere city of The Ninth Summer in?", "The Ninth Summer",
      [("premieredIn", F), ("locatedIn", F)], "stated_limit", D, cls="Country", limit=1),
    S("Which country was Lea Duval born in?", "Lea Duval", [("bornIn", F)], "wrong_class", D, cls="Country"),
    S("What's the weather like in Akari today?", "Akari", NOT("weather"), "no_relation", D),
]


def main() -> None:
    write_set(HERE, KG, ONCHAIN, PAGES, FILMS, verbose="-v" in sys.argv[1:], min_n=200)


if __name__ == "__main__":
    main()
