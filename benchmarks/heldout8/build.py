"""Held-out question set 8: build questions.jsonl (questions and their meanings; gold computed from the tables).

How this set was written
------------------------
The questions were written by a writer who had not seen how the library reads questions. The writer read only
the example tables (``examples/kg``, ``examples/onchain``, ``examples/pages``, the CSV files of
``examples/films``), the README files of those four folders, the class and property names, ``rdfs:label``,
``rdfs:comment``, domain and range of the four ontologies (printed with rdflib, every ``skos:altLabel`` triple
left out), ``/work/shared/SPEC.md``, ``docs/limits.md``, ``benchmarks/heldout_gold.py`` and the scorers
``benchmarks/heldout2/score.py`` and ``benchmarks/heldout5/score.py``. The writer did not read the question
reading code (``ont_platform/qa/``), the tests, ``docs/questions.md``, ``docs/pages.md``, any other held-out
set, any question file of the examples, the notebooks, git history or any synonym list (``skos:altLabel``,
cue or lexicon files).

Each question below carries only its meaning (start name as written, relation chain with directions, asked
class, hop limit, or page conditions). ``heldout_gold.write_set`` computes every gold from the example tables;
no gold was typed by hand. No question was run through the library while the set was written.

Do not use this set for tuning: a question that was read to adjust the library no longer measures anything.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout8/build.py       # write questions.jsonl
  .venv/bin/python benchmarks/heldout8/build.py -v    # and print every gold
"""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import (A, B, BR, C, CLK, CTR, D, F, IMP, L, NOT, P, PUB, S, SES, UPD, X,  # noqa: E402
                          Pages, write_set)

HERE = Path(__file__).resolve().parent
PG = Pages()
d = dt.date


def R(q: str, conds: list[tuple], kind: str) -> dict:
    """A page question that runs: the conditions are applied to pages.csv."""
    return {"q": q, "conds": conds, "kind": kind}


def Q(q: str, status: str, kind: str, concept: str | None = None) -> dict:
    """A page question that must be declined: clarify or unsupported."""
    assert status in ("clarify", "unsupported")
    return {"q": q, "status": status, "kind": kind, "concept": concept}


# ---------------------------------------------------------------------------------------------------------
# kg: people, organisations, places

KG = [
    # one hop, forwards and backwards
    S("홍 대표님께서 다니시는 회사가 어디였죠?", "홍 대표", [("worksFor", F)], "one_hop_alias", A),
    S("who does Cheolsu Kim work for", "Cheolsu Kim", [("worksFor", F)], "one_hop_lower", A),
    S("에이크미에 다니는 사람들 전부 알려줘", "에이크미", [("worksFor", B)], "backward_list", A, cls="Person"),
    S("Could you list everyone employed by ACME Corp?", "ACME Corp", [("worksFor", B)], "backward_list", A,
      cls="Person"),
    S("에이크미를 세운 사람은 누구냐", "에이크미", [("foundedBy", B)], "backward", A, cls="Person"),
    S("Who founded Gamma Labs?", "Gamma Labs", [("foundedBy", B)], "backward", A, cls="Person"),
    S("Which company did Gamma Labs acquire?", "Gamma Labs", [("acquired", F)], "one_hop", A, cls="Company"),
    S("엡실론소프트를 인수한 회사 이름 말해 봐", "엡실론소프트", [("acquired", B)], "backward", A, cls="Company"),
    S("베타에서 일하는 직원이 누군지 궁금해요", "베타", [("worksFor", B)], "backward", A, cls="Person"),
    S("한빛재단 사람 누구 있어?", "한빛재단", [("worksFor", B)], "backward_casual", A, cls="Person"),
    S("Who works at Hanbit Foundation? I only need names.", "Hanbit Foundation", [("worksFor", B)],
      "backward_two_sentences", A, cls="Person"),
    S("Where is Beta Inc. headquartered?", "Beta Inc.", [("locatedIn", F)], "one_hop", A),
    S("델타물산 본사 위치가 어디더라", "델타물산", [("locatedIn", F)], "one_hop_deora", A),
    S("판교는 어느 도시에 속해?", "판교", [("partOf", F)], "one_hop_class", A, cls="City"),
    S("Tokyo is in which country?", "Tokyo", [("partOf", F)], "one_hop_class", A, cls="Country"),
    S("부산광역시는 어느 나라에 있지?", "부산광역시", [("within", F)], "within_class", A, cls="Country"),
    S("에이크미 주식회사 어느 도시에 있는지 알려줄래?", "에이크미 주식회사", [("locatedIn", F)], "alias", A,
      cls="City"),
    # two and three hops
    S("Which city is Gildong Hong's employer located in?", "Gildong Hong", [("worksFor", F), ("locatedIn", F)],
      "two_hop_possessive", A, cls="City"),
    S("김철수 이사님 회사가 어느 나라에 있는지 궁금해요", "김철수", [("worksFor", F), ("within", F)],
      "within_extension", A, cls="Country"),
    S("정하늘 씨가 일하는 곳은 어느 도시에 있나요?", "정하늘", [("worksFor", F), ("locatedIn", F)], "two_hop", A,
      cls="City"),
    S("이민지가다니는회사는 어디에잇어?", "이민지", [("worksFor", F), ("locatedIn", F)], "two_hop_nospace_typo", A),
    S("홍 팀장이 다니는 회사 본사가 어느 도시냐", "홍 팀장", [("worksFor", F), ("locatedIn", F)],
      "two_hop_lookalike", A, cls="City"),
    S("감마랩스가 인수한 회사는 어디에 있더라?", "감마랩스", [("acquired", F), ("locatedIn", F)], "two_hop", A),
    S("Where is the company that acquired Epsilon Soft located?", "Epsilon Soft",
      [("acquired", B), ("locatedIn", F)], "mixed_relative", A),
    S("엡실론소프트를 인수한 회사를 세운 사람은 누구입니까?", "엡실론소프트", [("acquired", B), ("foundedBy", B)],
      "two_hop_backward", A, cls="Person"),
    S("홍길동이 세운 회사에 다니는 사람들 전부 보여 줘", "홍길동", [("foundedBy", F), ("worksFor", B)],
      "mixed_list", A, cls="Person"),
    S("Which country is Delta Trading based in?", "Delta Trading", [("within", F)], "within_class", A,
      cls="Country"),
    S("도쿄가 속한 나라는 어느 대륙에 있습니까", "도쿄", [("partOf", F), ("partOf", F)], "two_hop_class", A,
      cls="Continent"),
    S("서울은 어느 대륙에 있어?", "서울", [("within", F)], "within_two", A, cls="Continent"),
    S("성남시는 어느 나라 소속이야?", "성남시", [("within", F)], "within_two", A, cls="Country"),
    S("대한민국에 속한 곳들 보여 줄래?", "대한민국", [("partOf", B)], "backward_list", A),
    S("Which cities are part of South Korea?", "South Korea", [("partOf", B)], "backward_class", A, cls="City"),
    S("아시아에 속한 나라들 정리해 줘", "아시아", [("partOf", B)], "backward_class", A, cls="Country"),
    S("서울에 있는 회사와 단체 전부", "서울", [("locatedIn", B)], "two_classes_noun_ending", A,
      cls="Organization"),
    S("Which companies are based in Seoul?", "Seoul", [("locatedIn", B)], "backward_subclass", A, cls="Company"),
    S("I'd like to know which country the city that Beta Inc. sits in belongs to.", "Beta Inc.",
      [("locatedIn", F), ("partOf", F)], "two_hop_relative", A, cls="Country"),
    S("다섯 단계까지 허용할게. 이민지 회사는 어느 나라에 있어?", "이민지", [("worksFor", F), ("within", F)],
      "stated_limit_5", A, cls="Country", limit=5),
    S("회사 중에 부산에 있는 곳 어디야?", "부산", [("locatedIn", B)], "class_first", A, cls="Company"),
    S("에이크미라는 회사 있잖아, 그 회사 세운 사람이 누구더라?", "에이크미", [("foundedBy", B)], "reference_geu", A,
      cls="Person"),
    S("quick question: what city is Epsilon Soft in", "Epsilon Soft", [("locatedIn", F)], "quick_question", A,
      cls="City"),
    # declines
    S("박영희가 다니는 회사는 어디에 있어?", "박영희", [("worksFor", F), ("locatedIn", F)], "unknown_name", D),
    S("Do you happen to know where Younghee Park works?", "Younghee Park", [("worksFor", F)], "unknown_name", D),
    S("홍길도가 일하는 회사 알려줘", "홍길도", [("worksFor", F)], "near_miss", D),
    S("Where is Gamma Lab located?", "Gamma Lab", [("locatedIn", F)], "near_miss", D),
    S("Who does Sujin Cho work for?", "Sujin Cho", [("worksFor", F)], "near_miss", D),
    S("홍 상무님 회사는 어느 도시에 있나요?", "홍 상무", [("worksFor", F), ("locatedIn", F)], "unknown_alias", D),
    S("What did Acme acquire?", "Acme", [("acquired", F)], "ungrounded", D),
    S("델타물산이 인수한 회사의 소재지는?", "델타물산", [("acquired", F), ("locatedIn", F)], "ungrounded", D),
    S("Sujin Choi's employer — which city is it in?", "Sujin Choi", [("worksFor", F), ("locatedIn", F)],
      "ungrounded_marked_true", D, cls="City"),
    S("델타 직원이 누군지 알려줘", "델타", [("worksFor", B)], "ungrounded_backward", D, cls="Person"),
    S("베타를 인수한 회사는 어디야?", "베타", [("acquired", B)], "ungrounded_backward", D, cls="Company"),
    S("윤준호 씨는 어느 회사에 다녀요?", "윤준호", [("worksFor", F)], "missing_edge", D),
    S("Who founded Hanbit Foundation?", "Hanbit Foundation", [("foundedBy", B)], "missing_edge", D),
    S("엡실론소프트에서 일하는 사람은?", "엡실론소프트", [("worksFor", B)], "missing_edge", D, cls="Person"),
    S("Which company acquired Gamma Labs?", "Gamma Labs", [("acquired", B)], "missing_edge", D),
    S("김철수가 세운 회사가 어디지?", "김철수", [("foundedBy", F)], "missing_edge", D),
    S("감마랩스가 인수한 사람은 누구야?", "감마랩스", [("acquired", F)], "class_unreachable", D, cls="Person"),
    S("Gildong Hong founded a company. The city it sits in belongs to a country - which continent is that "
      "country on?", "Gildong Hong", [("foundedBy", F), ("locatedIn", F), ("partOf", F), ("partOf", F)],
      "four_hops", D, cls="Continent"),
    S("이민지 회사가 있는 곳이 속한 도시가 속한 지역은 어느 나라에 속하나요", "이민지",
      [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F), ("partOf", F)], "five_hops", D,
      cls="Country"),
    S("What country is Minji Lee's company in?", "Minji Lee", [("worksFor", F), ("within", F)],
      "hidden_hops_over_default", D, cls="Country"),
    S("두 단계 안에서만 찾아줘: 홍길순이 다니는 회사가 있는 도시는 어느 나라에 속해?", "홍길순",
      [("worksFor", F), ("locatedIn", F), ("partOf", F)], "stated_limit_2", D, cls="Country", limit=2),
    S("Within one hop, which city is Gildong Hong's company in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F)], "stated_limit_1", D, cls="City", limit=1),
    S("홍길동 연봉 얼마야?", "홍길동", NOT("salary"), "not_in_ontology", D),
    S("How many employees does Acme have?", "Acme", NOT("employeeCount"), "not_in_ontology", D),
    S("에이크미 작년 매출 좀 알려주세요", "에이크미", NOT("revenue"), "not_in_ontology", D),
    S("Who is Minji Lee married to?", "Minji Lee", NOT("spouse"), "not_in_ontology", D),
    S("홍길동이 졸업한 대학은 어디냐?", "홍길동", NOT("graduatedFrom"), "not_in_ontology", D),
    S("안녕! 오늘 기분 어때?", None, None, "small_talk", D, why="chit-chat"),
    S("thanks, that's all for now", None, None, "small_talk", D, why="chit-chat"),
    S("서울에 대해 아무거나 말해 봐", None, None, "no_relation", D, why="an ambiguous 'tell me about X'"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain

ADDR_W6 = "0x2412d9e01e9b5ff631f6a1dcf935f72491721f51"
ADDR_HOT1 = "0x03EbcEFf59A7298D2eb4b7A19fEB48046D2D057b"
ADDR_HOT1_LC = ADDR_HOT1.lower()
ADDR_MX1 = "0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE"
ADDR_BADSUM_LC = "0x1315719b3c2260184271eec1c4e17c89863055fb"
ADDR_H1 = "0xedadabfb8ed9a403871d3e3cfae0ca7c92d6c4e6"
ADDR_W9 = "0x963e11cffaf0428b917e3845f756ed3aa54ab35a"

ONCHAIN = [
    # paths to a class, default limit
    P("n_a1에서 3홉 안에 거래소 입금주소까지 가는 경로가 있나요?", "n_a1", A, cls="ExchangeDeposit"),
    P("does n_w6 reach a mixer", "n_w6", A, cls="Mixer"),
    P(f"{ADDR_W6} 주소에서 믹서로 흘러간 흔적 있어?", ADDR_W6, A, "path_address", cls="Mixer"),
    P("n_w8에서 믹서까지 3홉 이내로 닿아?", "n_w8", D, cls="Mixer", hops=3),
    P("Within four hops, can funds from n_w8 reach a mixer?", "n_w8", A, "path_stated_limit", cls="Mixer", hops=4),
    P("지갑A1에서 탈중앙화 거래소로 간 돈이 있는지 찾아줘", "지갑A1", A, "path_label_nospace", cls="Dex"),
    P("Could you tell me whether 지갑 W1 ever reached an exchange hot wallet?", "지갑 W1", A, "path_label",
      cls="ExchangeHotWallet"),
    P("n_w7에서 거래소로 보낸 적 있냐", "n_w7", A, "path_superclass", cls="Exchange"),
    P("Is there a route from n_h1 to any contract?", "n_h1", A, "path_superclass", cls="Contract"),
    P("n_b2 브리지로 자금 보낸 거 맞지?", "n_b2", A, "path_jji", cls="Bridge"),
    P("Starting at 믹서 풀 M1, which exchange deposit address do the funds get to?", "믹서 풀 M1", A, "path_label",
      cls="ExchangeDeposit"),
    P("DEX 라우터가 지갑으로 바로 보낸 적 있나요?", "DEX 라우터", A, "path_direct_multi", cls="Wallet", hops=1),
    P("Did 믹서 풀 M1 send anything straight to a wallet?", "믹서 풀 M1", A, "path_direct_multi", cls="Wallet",
      hops=1),
    P("n_h1이 거래소 입금주소로 직접 보낸 적이 있습니까?", "n_h1", A, "path_direct", cls="ExchangeDeposit", hops=1),
    P("2홉 안에서만 볼게요. n_c1 에서 믹서 닿나요?", "n_c1", D, "path_stated_limit", cls="Mixer", hops=2),
    P("n_c1 reaches a mixer within three hops, right?", "n_c1", A, "path_right", cls="Mixer"),
    P(f"{ADDR_HOT1}에서 3홉 안에 믹서가 나오나?", ADDR_HOT1, D, "path_checksum", cls="Mixer"),
    P(f"from {ADDR_HOT1_LC} can you get to an exchange deposit within 3 hops", ADDR_HOT1_LC, A, "path_lowercase",
      cls="ExchangeDeposit"),
    P("지갑 A1이 거래소 입금주소로 직접 보낸 적 있어?", "지갑 A1", D, "path_direct", cls="ExchangeDeposit", hops=1),
    P("휴면 지갑 D4에서 어떤 주소로든 돈을 보낸 적이 있나요?", "휴면 지갑 D4", D, "ever_sent_any", cls="Address"),
    P("Did n_w9 ever send to any address?", "n_w9", A, "ever_sent_any", cls="Address"),
    P("지갑 W2에서 토큰 컨트랙트로 이어지는 경로 보여 줄래?", "지갑 W2", D, "path_class_no_edges",
      cls="TokenContract"),
    P("Any idea if n_w2 ever touched a lending pool?", "n_w2", D, "path_class_empty", cls="LendingPool"),
    P("n_w3에서 마켓플레이스까지 경로 있어?", "n_w3", D, "path_class_empty", cls="Marketplace"),
    P("n_orphan에서 거래소까지 가는 길이 있는지 알려줘", "n_orphan", D, "path_unknown_class_node", cls="Exchange"),
    P("n_a1에서 4홉 이내에 믹서로 갈 수 있나요?", "n_a1", D, "path_stated_limit", cls="Mixer", hops=4),
    P("I'd like to know if 경유 지갑 H1 reaches an exchange hot wallet.", "경유 지갑 H1", A, "path_label",
      cls="ExchangeHotWallet"),
    P("n_w4 to an exchange deposit address, 3 hops max?", "n_w4", A, "path_terse", cls="ExchangeDeposit", hops=3),
    P("거래소 Y 핫월렛에서 출발하면 5홉 안에 믹서까지 몇 홉 걸려?", "거래소 Y 핫월렛", A, "path_label_stated_limit",
      cls="Mixer", hops=5),
    # paths to a named node
    P("Is there a path from n_w9 to n_ex1?", "n_w9", A, "path_named", target="n_ex1"),
    P("n_a1에서 n_ex3까지 3홉 안에 갈 수 있어?", "n_a1", D, "path_named_over_limit", target="n_ex3", hops=3),
    P("n_a1에서 n_ex3까지 5홉 이내라면 경로가 나오나요?", "n_a1", A, "path_named_stated_limit", target="n_ex3",
      hops=5),
    P("did 지갑 W7 ever send to 브리지 B1", "지갑 W7", A, "path_named_label", target="브리지 B1"),
    P(f"{ADDR_W9} → n_ct1 전송 경로가 있는지 확인해 줘", ADDR_W9, A, "path_named_address", target="n_ct1"),
    P("n_ex1에서 n_a1로 돌아가는 경로가 있을까요?", "n_ex1", D, "path_named_reverse", target="n_a1"),
    P("Can money get from n_d4 to n_hot1?", "n_d4", D, "path_named_isolated", target="n_hot1"),
    P("n_z9에서 믹서까지 가는 경로 있어?", "n_z9", D, "path_unknown_node", cls="Mixer"),
    P("Does 0x1111111111111111111111111111111111111111 reach any exchange?",
      "0x1111111111111111111111111111111111111111", D, "path_unknown_address", cls="Exchange"),
    P("지갑 Z7에서 브리지까지 3홉 안에 가?", "지갑 Z7", D, "path_unknown_label", cls="Bridge"),
    # same-entity clusters
    C("n_b2와 같은 주체로 추정되는 주소들 전부 알려줘", "n_b2", A),
    C("Which addresses are believed to belong to the same owner as 지갑 W5?", "지갑 W5", A, "cluster_label"),
    C(f"{ADDR_H1} 이 주소랑 동일 주체인 주소 있나?", ADDR_H1, A, "cluster_address"),
    C("same entity as n_w6?", "n_w6", A, "cluster_terse"),
    C("n_w1하고 같은 사람이 쓰는 지갑이 있는지 궁금해요", "n_w1", D, "cluster_empty"),
    C("Is 믹서 풀 M1 clustered with any other address?", "믹서 풀 M1", D, "cluster_empty"),
    # address classes
    L("what kind of address is n_ct1", "n_ct1"),
    L(f"{ADDR_MX1} 이건 무슨 주소야?", ADDR_MX1, "label_checksum"),
    L(f"Could you tell me what type of address {ADDR_BADSUM_LC} is?", ADDR_BADSUM_LC, "label_bad_checksum_lower"),
    L("0x7f3a9c21e04b 주소 유형 말해 봐", "0x7f3a9c21e04b", "label_truncated"),
    L("거래소 Y 핫월렛은 어떤 종류의 주소입니까?", "거래소 Y 핫월렛", "label_label"),
    L("n_tk1 is what kind of address?", "n_tk1"),
    L("브리지 B1 분류가 뭐였지?", "브리지 B1", "label_label"),
    L("What's the role of n_dex1?", "n_dex1"),
    L("n_ex3는 어떤 주소로 분류돼 있나요", "n_ex3"),
    L("휴면 지갑 D4 — what category does it fall under?", "휴면 지갑 D4", "label_label"),
    # questions the graph cannot answer
    X("n_a1 주인이 누구야?", "owner", "owners are not in the graph", start="n_a1"),
    X("What is the current ETH balance of n_hot1?", "balance", "balances are not in the graph", start="n_hot1"),
    X("0xaa1 트랜잭션 가스비 얼마 나왔어?", "gas", "gas is not in the graph"),
    X("How much is one EUSD worth in dollars right now?", "price", "prices are not in the graph"),
    X("지갑 W8이 다음에 어디로 보낼지 예측해 줄 수 있어?", "prediction", "the graph holds no forecast",
      start="지갑 W8"),
    X("who is the customer behind n_ex2", "owner", "account holders are not in the graph", start="n_ex2"),
    X("ㅎㅇ 요즘 코인 시장 분위기 어때?", "small_talk", "chit-chat"),
    X("Who operates 브리지 B1?", "owner", "operators are not in the graph", start="브리지 B1"),
    # more English
    P("Show me how n_w2 gets to 거래소 X 핫월렛.", "n_w2", A, "path_named_label", target="거래소 X 핫월렛"),
    P("n_w3 - did it ever send anything directly to a DEX?", "n_w3", A, "path_direct", cls="Dex", hops=1),
    P("Can 순환 지갑 C3 reach an exchange deposit address within 2 hops?", "순환 지갑 C3", D, "path_stated_limit",
      cls="ExchangeDeposit", hops=2),
    C("Which addresses does the same-entity clustering group together with n_a1?", "n_a1", A),
    C("Is n_w7 part of a same-entity cluster?", "n_w7", D, "cluster_empty"),
    L("what kind of address is 0x5ef070ad1cef50536452ed6f6fec252952e7e870",
      "0x5ef070ad1cef50536452ed6f6fec252952e7e870", "label_address"),
]

# ---------------------------------------------------------------------------------------------------------
# pages (as_of 2026-10-31)

LAST_MONTH = PG.last_month()
THIS_YEAR = PG.year(0)
LAST_YEAR = PG.year(-1)
ONE_YEAR_AGO = PG.years_ago(1)
TWO_YEARS_AGO = PG.years_ago(2)

PAGES = [
    R("노출은 1000 이상인데 클릭이 0인 페이지 찾아줘", [(IMP, ">=", 1000), (CLK, "=", 0)], "two_conditions"),
    R("노출 꽤 되는데 클릭 하나도 없는 페이지들 전부", [(IMP, ">=", 1000), (CLK, "=", 0)], "builtin_vague"),
    R("Show me pages with more than 20000 impressions.", [(IMP, ">", 20000)], "threshold"),
    R("pages with 10 clicks or fewer", [(CLK, "<=", 10)], "number_before_column"),
    R("클릭수가 거의 없는 페이지 보여 줄래?", [(CLK, "<=", 10)], "dataset_predicate"),
    R("이탈이 심한 페이지가 어디어디야", [(BR, ">=", 0.7)], "dataset_predicate"),
    R("세션이 꽤 되는 페이지 정리해 줘", [(SES, ">=", 1000)], "builtin_vague"),
    R("CTR 5% 이상인 페이지 알려주세요", [(CTR, ">=", 0.05)], "percent"),
    R("Which pages have a click-through rate below 1%?", [(CTR, "<", 0.01)], "percent"),
    R("이탈률 40% 미만인 페이지는?", [(BR, "<", 0.4)], "percent"),
    R("bounce rate from 50% to 60%, both ends included", [(BR, ">=", 0.5), (BR, "<=", 0.6)], "percent_range"),
    R("노출수 5000에서 10000 사이(둘 다 포함) 페이지", [(IMP, ">=", 5000), (IMP, "<=", 10000)], "range"),
    R("2026년 9월에 수정된 페이지 목록 주세요", [(UPD, ">=", d(2026, 9, 1)), (UPD, "<=", d(2026, 9, 30))],
      "named_month"),
    R("지난달 업데이트된 페이지 뭐 있냐", [(UPD, ">=", LAST_MONTH[0]), (UPD, "<=", LAST_MONTH[1])],
      "relative_month"),
    R("작년 초에 게시된 페이지들 보여줘", [(PUB, ">=", d(LAST_YEAR[0].year, 1, 1)), (PUB, "<=", d(LAST_YEAR[0].year, 3, 31))],
      "relative_early_year"),
    R("List the pages published in 2024.", [(PUB, ">=", d(2024, 1, 1)), (PUB, "<=", d(2024, 12, 31))], "year"),
    R("올해 게시된 페이지 중에 노출 1000 넘는 거", [(PUB, ">=", THIS_YEAR[0]), (PUB, "<=", THIS_YEAR[1]),
                                         (IMP, ">", 1000)], "relative_year_two_conditions"),
    R("pages published before 2024", [(PUB, "<", d(2024, 1, 1))], "date_before"),
    R("2026년 2분기에 게시된 페이지 찾아줘", [(PUB, ">=", d(2026, 4, 1)), (PUB, "<=", d(2026, 6, 30))], "quarter"),
    R("Give me pages updated in Q3 2025.", [(UPD, ">=", d(2025, 7, 1)), (UPD, "<=", d(2025, 9, 30))], "quarter"),
    R("Which pages were updated after October 1, 2026?", [(UPD, ">", d(2026, 10, 1))], "date_after"),
    R("1년 넘게 수정 안 된 페이지 있어?", [(UPD, "<", ONE_YEAR_AGO)], "relative_age"),
    R("pages that haven't been updated in over two years", [(UPD, "<", TWO_YEARS_AGO)], "relative_age"),
    R("세션이 0인 페이지", [(SES, "=", 0)], "zero"),
    R("Name the pages with zero clicks.", [(CLK, "=", 0)], "zero_empty_cells"),
    R("세션 10 미만이고 이탈률 70% 넘는 페이지 있나요?", [(SES, "<", 10), (BR, ">", 0.7)], "two_conditions_percent"),
    R("impressions of at least 10000 and a CTR of 4% or more", [(IMP, ">=", 10000), (CTR, ">=", 0.04)],
      "two_conditions_percent"),
    R("2025년 3월에 올라온 페이지 알려줘", [(PUB, ">=", d(2025, 3, 1)), (PUB, "<=", d(2025, 3, 31))], "named_month"),
    R("노출수 1만 이상인 페이지들", [(IMP, ">=", 10000)], "korean_number"),
    R("클릭 3천 넘는 페이지 있냐", [(CLK, ">", 3000)], "korean_number_empty"),
    R("I'd like to see pages with over 2000 sessions.", [(SES, ">", 2000)], "threshold"),
    R("이탈률이 0.8 이상인 페이지를 보여 주십시오", [(BR, ">=", 0.8)], "decimal"),
    R("클릭 100회 이상, 세션 500 이하인 페이지", [(CLK, ">=", 100), (SES, "<=", 500)], "two_conditions"),
    R("pages published in March 2026 with a bounce rate under 50%",
      [(PUB, ">=", d(2026, 3, 1)), (PUB, "<=", d(2026, 3, 31)), (BR, "<", 0.5)], "month_and_percent"),
    R("이번 달에 게시된 페이지 뭐야", [(PUB, ">=", d(2026, 10, 1)), (PUB, "<=", d(2026, 10, 31))], "relative_month"),
    R("Could you tell me which pages got fewer than 500 impressions?", [(IMP, "<", 500)], "threshold_empty"),
    R("노출이 거의 없는 페이지 있어?", [(IMP, "<=", 10)], "dataset_predicate_empty"),
    R("2023년에 게시됐고 작년에 한 번도 수정 안 된 페이지… 아니 그냥 2023년 게시된 페이지만 줘",
      [(PUB, ">=", d(2023, 1, 1)), (PUB, "<=", d(2023, 12, 31))], "self_correction"),
    R("clicks between 100 and 500 inclusive", [(CLK, ">=", 100), (CLK, "<=", 500)], "range"),
    # declines: clarify
    Q("성과 좋은 페이지 뽑아줘", "clarify", "vague_measure"),
    Q("잘 되는 페이지들 전부 보여 줘", "clarify", "vague_evaluation"),
    Q("Which blog posts are the most popular?", "clarify", "vague_measure"),
    Q("품질이 낮은 페이지는 어디인지 궁금해요", "clarify", "vague_measure"),
    Q("반응 좋은 글 좀 찾아줘", "clarify", "vague_measure"),
    Q("pages that do badly", "clarify", "vague_evaluation"),
    Q("클릭이 100 이상이거나 노출이 5000 이상인 페이지", "clarify", "or"),
    Q("show pages with more than 50 clicks or a bounce rate over 60%", "clarify", "or"),
    Q("2월 30일 이후에 게시된 페이지", "clarify", "impossible_date"),
    Q("노출 10% 이상인 페이지 보여줘", "clarify", "percent_on_count"),
    Q("1000 넘는 페이지 알려줘", "clarify", "number_without_column"),
    Q("Give me the pages above 300.", "clarify", "number_without_column"),
    # declines: unsupported
    Q("전환율 3% 이상인 페이지", "unsupported", "no_column", concept="전환율"),
    Q("Which pages bring in the most revenue?", "unsupported", "no_column", concept="revenue"),
    Q("백링크가 많은 글 알려줘", "unsupported", "no_column", concept="백링크"),
    Q("체류 시간 2분 넘는 페이지 있나요?", "unsupported", "no_column", concept="체류 시간"),
    Q("List pages that load slowly on mobile.", "unsupported", "no_column", concept="load speed"),
    Q("김 에디터가 쓴 블로그 글만 보여 줘", "unsupported", "no_column", concept="작성자"),
    Q("검색 순위 10위 안에 드는 페이지", "unsupported", "no_column", concept="검색 순위"),
    Q("노출수 기준 상위 5개 페이지", "unsupported", "ranking"),
    Q("What's the total number of clicks across all pages?", "unsupported", "aggregation"),
    Q("블로그 글 평균 CTR 계산해 줘", "unsupported", "aggregation"),
    Q("pages with more than 100 social shares", "unsupported", "no_column", concept="social shares"),
    Q("광고비 10만 원 이상 쓴 페이지", "unsupported", "no_column", concept="광고비"),
]

# ---------------------------------------------------------------------------------------------------------
# films

FILMS = [
    S("달빛 항구 감독이 누구야?", "달빛 항구", [("directedBy", F)], "one_hop", A, cls="Director"),
    S("Who directed The Last Ferry?", "The Last Ferry", [("directedBy", F)], "one_hop", A),
    S("한지우 감독님이 연출하신 영화 전부 알려주세요", "한지우", [("directedBy", B)], "backward_list", A,
      cls="Film"),
    S("Which films did Jiyu Han appear in?", "Jiyu Han", [("starring", B)], "backward_list", A, cls="Film"),
    S("이다혜가 나온 영화 감독은 누구임?", "이다혜", [("starring", B), ("directedBy", F)], "two_hop_mixed", A),
    S("달빛 항구를 연출한 감독의 고향은 어느 나라에 있습니까?", "달빛 항구",
      [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "three_hop", A, cls="Country"),
    S("겨울 정거장 제작사 본사가 있는 도시가 어디더라", "겨울 정거장", [("producedBy", F), ("basedIn", F)],
      "two_hop", A, cls="City"),
    S("Which country is the studio behind Winter Station based in?", "Winter Station",
      [("producedBy", F), ("within", F)], "within_extension", A, cls="Country"),
    S("유리 정원 제작사들 다 말해 봐", "유리 정원", [("producedBy", F)], "multi", A, cls="Studio"),
    S("The Last Ferry was produced by which studios?", "The Last Ferry", [("producedBy", F)], "passive_multi", A),
    S("푸른강 필름이 만든 영화 목록", "푸른강 필름", [("producedBy", B)], "backward_noun_ending", A, cls="Film"),
    S("새벽별 국제영화제는 어느 도시에서 열리나요?", "새벽별 국제영화제", [("heldIn", F)], "one_hop", A,
      cls="City"),
    S("Which country hosts the Waves Film Festival?", "Waves Film Festival", [("within", F)], "within_extension", A,
      cls="Country"),
    S("황금별상은 어느 영화제에서 주는 상이지?", "황금별상", [("presentedAt", F)], "one_hop_jji", A,
      cls="Festival"),
    S("아오바 관객상 받은 영화 뭐였더라", "아오바 관객상", [("wonAward", B)], "backward", A, cls="Film"),
    S("Which films won the Golden Star Award?", "Golden Star Award", [("wonAward", B)], "backward_one_grounded",
      A, cls="Film"),
    S("해윤 출신 배우들 전부 찾아줘", "해윤", [("bornIn", B)], "backward_class", A, cls="Actor"),
    S("Who was born in Garam?", "Garam", [("bornIn", B)], "backward_multi", A),
    S("한지우랑 협업한 사람 누구야?", "한지우", [("collaboratedWith", F)], "symmetric_stored_end", A),
    S("Who has Minjae Seo collaborated with?", "Minjae Seo", [("collaboratedWith", F)], "symmetric_other_end", A),
    S("Claire Moreau worked with which director?", "Claire Moreau", [("collaboratedWith", F)], "symmetric", A,
      cls="Director"),
    S("키무라 레이와 함께 작업한 감독은 누구인지 궁금합니다", "키무라 레이", [("collaboratedWith", F)],
      "symmetric_other_end", A, cls="Director"),
    S("강은비 님과 호흡을 맞춘 배우가 누구예요?", "강은비", [("collaboratedWith", F)], "symmetric_other_end", A,
      cls="Actor"),
    S("프랑스에 있는 도시 전부", "프랑스", [("locatedIn", B)], "backward_noun_ending", A, cls="City"),
    S("List the cities located in Japan.", "Japan", [("locatedIn", B)], "backward_imperative", A, cls="City"),
    S("영화 청하의 감독은 누구냐", "청하", [("directedBy", F)], "shared_name", A),
    S("청하는 어느 나라에 있어?", "청하", [("within", F)], "shared_name_within", A, cls="Country"),
    S("Cheongha premiered in which city?", "Cheongha", [("premieredIn", F)], "shared_name", A, cls="City"),
    S("청하 출신 배우 알려줘", "청하", [("bornIn", B)], "shared_name_backward", A, cls="Actor"),
    S("정우석이 출연한 영화들 정리해 줘", "정우석", [("starring", B)], "backward_list", A, cls="Film"),
    S("조수의 집이 받은 상은?", "조수의 집", [("wonAward", F)], "one_hop", A, cls="Award"),
    S("House of Tides won an award. Which city hosts the festival that presents it?", "House of Tides",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F)], "three_hop_two_sentences", A, cls="City"),
    S("네 단계까지 괜찮아. 달빛 항구가 받은 상을 주는 영화제가 열리는 나라는?", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("within", F)], "stated_limit_4", A, cls="Country", limit=4),
    S("종이새에 출연한 배우들 보여 줄래?", "종이새", [("starring", F)], "multi", A, cls="Actor"),
    S("Where did The Glass Garden premiere?", "The Glass Garden", [("premieredIn", F)], "one_hop", A),
    S("아홉 번째 여름이 개봉한 도시가 속한 나라 말해 봐", "아홉 번째 여름", [("premieredIn", F), ("locatedIn", F)],
      "two_hop", A, cls="Country"),
    S("아카리에 본사를 둔 제작사는?", "아카리", [("basedIn", B)], "backward", A, cls="Studio"),
    S("which festival was winter station screened at", "winter station", [("screenedAt", F)], "lower_case", A,
      cls="Festival"),
    S("새벽별 국제영화제에서 상영된 영화들 전부", "새벽별 국제영화제", [("screenedAt", B)], "backward_list", A,
      cls="Film"),
    S("Yuna Sato's hometown is in which country?", "Yuna Sato", [("bornIn", F), ("locatedIn", F)],
      "possessive_two_hop", A, cls="Country"),
    S("Name the films Léa Duval starred in.", "Léa Duval", [("starring", B)], "backward_imperative", A,
      cls="Film"),
    S("노아 밀러가 출연한 영화들의 감독은 각각 누구야?", "노아 밀러", [("starring", B), ("directedBy", F)],
      "two_hop_multi", A, cls="Director"),
    S("서민제 고향이 어디더라? 서민재 말고", "서민제", [("bornIn", F)], "lookalike", A, cls="City"),
    S("Any idea which studio made Paper Birds?", "Paper Birds", [("producedBy", F)], "any_idea", A, cls="Studio"),
    # declines
    S("유리 정원은 무슨 상 받았어?", "유리 정원", [("wonAward", F)], "ungrounded", D, cls="Award"),
    S("In which city did The Red Line premiere?", "The Red Line", [("premieredIn", F)], "ungrounded_marked_true",
      D, cls="City"),
    S("Where was Thomas Martin born?", "Thomas Martin", [("bornIn", F)], "ungrounded_no_chunk", D),
    S("강은비의 출생지가 어디예요", "강은비", [("bornIn", F)], "ungrounded_marked_true", D),
    S("Who has Dohyun Park worked with?", "Dohyun Park", [("collaboratedWith", F)], "ungrounded_symmetric", D),
    S("박도현 감독은 어디서 태어났지?", "박도현", [("bornIn", F)], "missing_edge", D),
    S("한울 시네마 본사는 어느 도시에 있나요?", "한울 시네마", [("basedIn", F)], "missing_edge", D, cls="City"),
    S("Where did Northern Lighthouse premiere?", "Northern Lighthouse", [("premieredIn", F)], "missing_edge", D),
    S("은물결 비평가상은 어느 영화제에서 수여되나요?", "은물결 비평가상", [("presentedAt", F)], "missing_edge", D,
      cls="Festival"),
    S("윤혜진이랑 같이 작업한 사람 있어?", "윤혜진", [("collaboratedWith", F)], "missing_edge", D),
    S("한지유가 연출한 영화 알려줘", "한지유", [("directedBy", B)], "lookalike_wrong_role", D, cls="Film"),
    S("한지우는 어느 나라 출신이야?", "한지우", [("bornIn", F)], "class_unreachable", D, cls="Country"),
    S("Which country was Rei Kimura born in?", "Rei Kimura", [("bornIn", F)], "class_unreachable", D,
      cls="Country"),
    S("달빛 항구를 연출한 제작사는 어디야?", "달빛 항구", [("directedBy", F)], "class_unreachable", D,
      cls="Studio"),
    S("이다혜가 나온 영화 감독의 고향은 어느 나라에 있나요", "이다혜",
      [("starring", B), ("directedBy", F), ("bornIn", F), ("locatedIn", F)], "four_hops", D, cls="Country"),
    S("What country is the city that hosts the festival where Moonlit Harbor's award is given?", "Moonlit Harbor",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "four_hops", D, cls="Country"),
    S("한 단계만 보고 답해 줘. 이다혜 출연작의 감독은?", "이다혜", [("starring", B), ("directedBy", F)],
      "stated_limit_1", D, limit=1),
    S("Within two steps: where was the director of The Ninth Summer born, and which country is that?",
      "The Ninth Summer", [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "stated_limit_2", D,
      cls="Country", limit=2),
    S("김하람 감독이 만든 영화 있어?", "김하람", [("directedBy", B)], "unknown_name", D),
    S("Who directed The Silver Canyon?", "The Silver Canyon", [("directedBy", F)], "unknown_name", D),
    S("서민자가 출연한 영화는?", "서민자", [("starring", B)], "near_miss", D),
    S("Which studios produced Glass Gardens?", "Glass Gardens", [("producedBy", F)], "near_miss", D),
    S("Where was Noah Miler born?", "Noah Miler", [("bornIn", F)], "near_miss", D),
    S("달빛 항구 제작비 얼마 들었어?", "달빛 항구", NOT("budget"), "not_in_ontology", D),
    S("How long is Winter Station? Runtime in minutes please.", "Winter Station", NOT("runtime"),
      "not_in_ontology", D),
    S("청하 관객 수 몇 명이었는지 궁금해요", "청하", NOT("audienceCount"), "not_in_ontology", D),
    S("What genre is House of Tides?", "House of Tides", NOT("genre"), "not_in_ontology", D),
    S("영화 추천 좀 해줘 ㅋㅋ 주말에 볼 거", None, None, "small_talk", D, why="chit-chat"),
]


def main() -> None:
    write_set(HERE, KG, ONCHAIN, PAGES, FILMS, verbose="-v" in sys.argv[1:], min_n=200)


if __name__ == "__main__":
    main()
