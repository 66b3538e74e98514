"""Build the third held-out question set (questions.jsonl) with gold answers computed from the example data.

Every question below was written by hand, as a user would type it, together with its *meaning*: the start
name exactly as it appears in the question, the chain of relations it asks for (with the direction of the
stored edge), the asked class, the hop limit the question states, or the filter conditions. The gold answer
is then worked out by code from the bundled CSV tables (csv + networkx) and the ontologies (rdflib, only for
class hierarchies and relation names). No answer id, URL or path is typed by hand.

The gold-computing helpers (EntityGraph, Onchain, Pages) live in benchmarks/heldout_gold.py (adapted from
benchmarks/heldout2/build.py); sets from 3 on share them and these rules.

The gold rules are in benchmarks/heldout_gold.py's docstring (shared by the sets from 3 on).

Usage: .venv/bin/python benchmarks/heldout3/build.py [-v]   (writes questions.jsonl next to this file)
This set must not be used for tuning: see README.md.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import BR, CLK, CTR, IMP, NOT, PUB, SES, UPD, A, B, C, D, F, L, P, Pages, S, X, write_set  # noqa: E402

HERE = Path(__file__).resolve().parent



# ---------------------------------------------------------------------------------------------------------
# kg: 50 questions

KG_SPECS = [
    # --- Korean, answers
    S("에이크미에서 일하는 사람 누구누구 있어요?", "에이크미", [("worksFor", B)], "inverse_multi", A, "Person"),
    S("이민지 님이 근무하는 회사는 어디에 있습니까?", "이민지", [("worksFor", F), ("locatedIn", F)], "two_hop", A, "Place"),
    S("이민지가 다니는 회사, 어느 도시에 있는지 알아?", "이민지", [("worksFor", F), ("locatedIn", F)],
      "within_follow", A, "City"),
    S("정하늘은 어디서 일하냐", "정하늘", [("worksFor", F)], "one_hop", A),
    S("엡실론소프트를 사들인 곳이 어디지?", "엡실론소프트", [("acquired", B)], "inverse", A),
    S("감마랩스 창업자가 누구예요?", "감마랩스", [("foundedBy", B)], "inverse", A, "Person"),
    S("윤준호가 차린 회사 위치 좀 알려줘", "윤준호", [("foundedBy", F), ("locatedIn", F)], "two_hop", A, "Place"),
    S("홍길순 팀장이 일하는 회사는 어느 나라에 있나요?", "홍길순", [("worksFor", F), ("locatedIn", F)],
      "within_follow", A, "Country"),
    S("서울은 무슨 대륙에 속해 있어?", "서울", [("partOf", F)], "within_follow", A, "Continent"),
    S("판교가 어느 나라에 있는 거야?", "판교", [("within", F)], "within_follow", A, "Country"),
    S("델타물산은 어느 나라 회사예요?", "델타물산", [("locatedIn", F)], "within_follow", A, "Country"),
    S("김철수가 일하는 회사가 있는 도시는 어느 나라 소속이야?", "김철수",
      [("worksFor", F), ("locatedIn", F), ("partOf", F)], "three_hop", A, "Country"),
    S("홍길순이다니는회사 어디있어?", "홍길순", [("worksFor", F), ("locatedIn", F)], "spacing", A, "Place"),
    S("홍 대표가 세운 회사 말이야, 그 회사 어디 있어?", "홍 대표", [("foundedBy", F), ("locatedIn", F)],
      "alias_chat", A, "Place"),
    S("서울특별시는 어느 나라에 있습니까?", "서울특별시", [("partOf", F)], "alias", A, "Country"),
    S("서울에 본사 둔 회사들 다 알려줘", "서울", [("locatedIn", B)], "inverse_multi", A, "Company"),
    S("팀장님이 물어보시는데요, 감마랩스가 인수한 회사는 어느 도시에 있는지 아세요?", "감마랩스",
      [("acquired", F), ("locatedIn", F)], "chat_two_hop", A, "City"),
    S("서울에 있는 회사에 다니는 사람들 누구야?", "서울", [("locatedIn", B, "Company"), ("worksFor", B)],
      "inverse_multi", A, "Person"),
    # --- Korean, declines
    S("감마랩스를 인수한 회사가 있어?", "감마랩스", [("acquired", B)], "missing_edge", D, "Company"),
    S("베타를 인수한 회사는 어디입니까?", "베타", [("acquired", B)], "ungrounded", D, "Company"),
    S("이민지 다니는 회사는 어느 나라에 있어?", "이민지", [("worksFor", F), ("locatedIn", F)], "hop_limit", D,
      "Country"),
    S("최수진이 다니는 회사 이름이 뭐였지?", "최수진", [("worksFor", F)], "ungrounded", D, "Company"),
    S("윤준호는 지금 어느 회사에서 일하고 있나요?", "윤준호", [("worksFor", F)], "missing_edge", D, "Company"),
    S("김 이사 회사가 있는 도시가 속한 나라, 그 나라는 어느 대륙이야?", "김 이사",
      [("worksFor", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "hop_limit", D, "Continent"),
    S("박지훈이 다니는 회사 알려줘", "박지훈", [("worksFor", F)], "unknown_name", D, "Company"),
    S("김철쑤 회사 어디야?", "김철쑤", [("worksFor", F)], "misspelt", D),
    S("감마렙스를 세운 사람 누구?", "감마렙스", [("foundedBy", B)], "misspelt", D, "Person"),
    S("홍길동 연봉 얼마야?", "홍길동", NOT("salary"), "not_in_ontology", D),
    S("오늘 점심 뭐 먹을까?", None, None, "irrelevant", D, why="chit-chat"),
    S("2단계까지만 봐줘. 김철수 회사가 있는 도시는 어느 나라에 속해?", "김철수",
      [("worksFor", F), ("locatedIn", F), ("partOf", F)], "stated_hop_limit", D, "Country", limit=2),
    S("엡실론소프트를 인수한 사람은 누구야?", "엡실론소프트", [("acquired", B)], "wrong_class", D, "Person"),
    S("1-hop 안에서만 찾아줘. 홍길동 다니는 회사가 있는 도시는?", "홍길동", [("worksFor", F), ("locatedIn", F)],
      "stated_hop_limit", D, "City", limit=1),
    # --- English, answers
    S("Do you know which company Minji Lee works for?", "Minji Lee", [("worksFor", F)], "one_hop", A, "Company"),
    S("Who works at Beta Inc.?", "Beta Inc.", [("worksFor", B)], "inverse", A, "Person"),
    S("Which company was acquired by Gamma Labs?", "Gamma Labs", [("acquired", F)], "passive", A, "Company"),
    S("Acme was founded by whom?", "Acme", [("foundedBy", B)], "passive", A, "Person"),
    S("I'd like to know which city Beta Inc.'s office is in.", "Beta Inc.", [("locatedIn", F)], "possessive", A, "City"),
    S("Where is the company that Junho Yoon co-founded?", "Junho Yoon", [("foundedBy", F), ("locatedIn", F)],
      "relative_clause", A, "Place"),
    S("Which country is Tokyo in?", "Tokyo", [("partOf", F)], "one_hop", A, "Country"),
    S("Japan is part of which continent?", "Japan", [("partOf", F)], "one_hop", A, "Continent"),
    S("Which organization does Haneul Jung work for?", "Haneul Jung", [("worksFor", F)], "one_hop", A, "Organization"),
    S("The company Gildong Hong works for: which country is it located in?", "Gildong Hong",
      [("worksFor", F), ("locatedIn", F)], "within_follow", A, "Country"),
    S("Epsilon Soft has an office in some city, and that city belongs to a country. Which continent is that "
      "country in?", "Epsilon Soft", [("locatedIn", F), ("partOf", F), ("partOf", F)], "three_hop", A, "Continent"),
    S("Do you know who works for the company whose founder is Gildong Hong?", "Gildong Hong",
      [("foundedBy", F), ("worksFor", B)], "relative_clause_multi", A, "Person"),
    # --- English, declines
    S("Who founded Beta Inc.?", "Beta Inc.", [("foundedBy", B)], "missing_edge", D, "Person"),
    S("Where does Sujin Choi work?", "Sujin Choi", [("worksFor", F)], "ungrounded", D),
    S("Is there a company that ACME Corp acquired?", "ACME Corp", [("acquired", F)], "ungrounded", D, "Company"),
    S("Which company does Cheolsoo Kim work for?", "Cheolsoo Kim", [("worksFor", F)], "misspelt", D, "Company"),
    S("Where does Younghee Park work?", "Younghee Park", [("worksFor", F)], "unknown_name", D),
    S("What is Gamma Labs' annual revenue?", "Gamma Labs", NOT("revenue"), "not_in_ontology", D),
    S("Which country does Gilsun Hong work for?", "Gilsun Hong", [("worksFor", F)], "wrong_class", D, "Country"),
    S("What's the weather going to be like in Seoul tomorrow?", "Seoul", NOT("weather"), "irrelevant", D),
]


# ---------------------------------------------------------------------------------------------------------
# films: 40 questions

FILMS_SPECS = [
    # --- Korean, answers
    S("종이새 감독 누구야?", "종이새", [("directedBy", F)], "one_hop", A, "Director"),
    S("겨울 정거장에 나온 배우들 알려줘", "겨울 정거장", [("starring", F)], "multi", A, "Actor"),
    S("유리 정원은 어느 제작사에서 만들었어요?", "유리 정원", [("producedBy", F)], "multi", A, "Studio"),
    S("정우석이 출연한 영화 뭐 있어?", "정우석", [("starring", B)], "inverse_multi", A, "Film"),
    S("레아 뒤발 고향이 어디예요?", "레아 뒤발", [("bornIn", F)], "one_hop", A, "Place"),
    S("파도 영화제는 어느 나라에서 열리나요?", "파도 영화제", [("heldIn", F)], "within_follow", A, "Country"),
    S("푸른강 필름 본사는 어느 나라에 있습니까?", "푸른강 필름", [("basedIn", F)], "within_follow", A, "Country"),
    S("조수의 집 감독이 태어난 도시는 어느 나라에 속해?", "조수의 집",
      [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "three_hop", A, "Country"),
    S("황금별상 주는 영화제는 어느 도시에서 열려?", "황금별상", [("presentedAt", F), ("heldIn", F)], "two_hop", A, "City"),
    S("황금별상 탄 영화 알려주세요", "황금별상", [("wonAward", B)], "inverse_partly_ungrounded", A, "Film"),
    S("한지유 나온 영화 다 말해줘", "한지유", [("starring", B)], "lookalike_multi", A, "Film"),
    S("클레르 모로랑 같이 작업한 감독은 누구니?", "클레르 모로", [("collaboratedWith", F)], "symmetric", A, "Director"),
    S("영화 청하 감독이 누구야?", "청하", [("directedBy", F)], "shared_name", A, "Director"),
    S("청하 출신 배우는 누가 있어?", "청하", [("bornIn", B)], "shared_name", A, "Actor"),
    # --- Korean, declines
    S("윤세하 감독이랑 협업한 사람 있어?", "윤세하", [("collaboratedWith", F)], "ungrounded", D, "Person"),
    S("윤혜진이랑 같이 일해 본 배우 누구야?", "윤혜진", [("collaboratedWith", F)], "missing_edge", D, "Actor"),
    S("박도현 감독은 어디 출신이에요?", "박도현", [("bornIn", F)], "missing_edge", D, "Place"),
    S("붉은 선은 어느 도시에서 처음 개봉했나요?", "붉은 선", [("premieredIn", F)], "ungrounded", D, "City"),
    S("달빛 항구 러닝타임 몇 분이야?", "달빛 항구", NOT("runningTime"), "not_in_ontology", D),
    S("겨울 정거장이 받은 상을 주는 영화제가 열리는 도시는 어느 나라에 있어?", "겨울 정거장",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "hop_limit", D, "Country"),
    S("1홉까지만 보고 답해줘. 조수의 집 제작사 본사는 어느 도시야?", "조수의 집",
      [("producedBy", F), ("basedIn", F)], "stated_hop_limit", D, "City", limit=1),
    S("봉준호 감독 작품 중에 여기 있는 거 있어?", "봉준호", [("directedBy", B)], "unknown_name", D, "Film"),
    S("달빛 항고 감독 누구임?", "달빛 항고", [("directedBy", F)], "misspelt", D, "Director"),
    S("사토 유나는 어느 나라에서 태어났어?", "사토 유나", [("bornIn", F)], "wrong_class", D, "Country"),
    S("청하에 대해 알려줘", None, None, "ambiguous", D, why="청하 is a film and a city, and no relation is asked"),
    # --- English, answers
    S("Who directed The Glass Garden?", "The Glass Garden", [("directedBy", F)], "one_hop", A, "Person"),
    S("Which films did Jiwoo Han direct?", "Jiwoo Han", [("directedBy", B)], "inverse_multi", A, "Film"),
    S("Which films were produced by Blue River Films?", "Blue River Films", [("producedBy", B)], "passive_multi", A,
      "Film"),
    S("Paper Birds was directed by whom?", "Paper Birds", [("directedBy", F)], "passive", A, "Person"),
    S("Do you know where the director of Winter Station was born?", "Winter Station",
      [("directedBy", F), ("bornIn", F)], "two_hop", A, "Place"),
    S("I'd like to know which festival screened The Last Ferry.", "The Last Ferry", [("screenedAt", F)], "one_hop", A,
      "Festival"),
    S("House of Tides was screened at a festival; which city hosts that festival?", "House of Tides",
      [("screenedAt", F), ("heldIn", F)], "two_hop", A, "City"),
    S("Whose hometown is Garam?", "Garam", [("bornIn", B)], "inverse_multi", A, "Person"),
    S("Which actors were born in Haeyun?", "Haeyun", [("bornIn", B)], "inverse_partly_ungrounded", A, "Actor"),
    S("What films has Minje Seo appeared in?", "Minje Seo", [("starring", B)], "lookalike", A, "Film"),
    S("In which country is the city where the director of Paper Birds was born?", "Paper Birds",
      [("directedBy", F), ("bornIn", F), ("locatedIn", F)], "relative_clause_three_hop", A, "Country"),
    # --- English, declines
    S("What was the budget of Moonlit Harbor?", "Moonlit Harbor", NOT("budget"), "not_in_ontology", D),
    S("In which country was Moonlit Harbor first released?", "Moonlit Harbor", [("premieredIn", F)], "wrong_class",
      D, "Country"),
    S("Which festival is the Silver Ripple Critics Prize presented at?", "Silver Ripple Critics Prize",
      [("presentedAt", F)], "missing_edge", D, "Festival"),
    S("Who directed Winter Stasion?", "Winter Stasion", [("directedBy", F)], "misspelt", D, "Person"),
    S("Within two hops only: which country hosts the festival where The Glass Garden was screened?",
      "The Glass Garden", [("screenedAt", F), ("heldIn", F)], "stated_hop_limit", D, "Country", limit=2),
    S("Which films has Studio Ghibli made?", "Studio Ghibli", [("producedBy", B)], "unknown_name", D, "Film"),
    S("Can you recommend a good movie for tonight?", None, None, "irrelevant", D, why="a recommendation"),
]


ONCHAIN_SPECS = [
    # --- Korean, paths
    P("n_w1에서 3홉 안에 거래소 입금주소로 돈 들어간 적 있어?", "n_w1", A, hops=3, cls="ExchangeDeposit"),
    P("지갑 W2 자금이 거래소까지 갔나요?", "지갑 W2", A, "path_label_default_hops", cls="Exchange"),
    P("n_b2에서 믹서로 흘러간 흔적 있냐? 3홉 이내로", "n_b2", D, "no_path", hops=3, cls="Mixer"),
    P("n_hot2 돈이 4홉 안에 믹서에 닿아?", "n_hot2", A, hops=4, cls="Mixer"),
    P("n_hot2에서 믹서까지 3-hop 이내 경로가 있습니까?", "n_hot2", D, "no_path_hop_limit", hops=3, cls="Mixer"),
    P("n_w7 에서 거래소 핫월렛으로 가는 길 있어?", "n_w7", A, "path_default_hops", cls="ExchangeHotWallet"),
    P("믹서 풀 M1에서 나간 돈이 거래소 입금주소에 들어갔는지 확인 좀 해줄래?", "믹서 풀 M1", A, "path_label",
      cls="ExchangeDeposit"),
    P("순환 지갑 C1에서 2홉 안에 믹서 있어?", "순환 지갑 C1", D, "no_path_hop_limit", hops=2, cls="Mixer"),
    P("순환 지갑 C1에서 세 번 건너면 믹서에 닿냐", "순환 지갑 C1", A, "path_label", hops=3, cls="Mixer"),
    P("휴면 지갑 D4에서 거래소로 돈 보낸 적 있나요?", "휴면 지갑 D4", D, "no_path_isolated", cls="Exchange"),
    P("n_a1 에서 브리지로 자금 이동한 경로 있나요? 3홉 기준으로요", "n_a1", D, "no_path", hops=3, cls="Bridge"),
    P("n_b2 에서 DEX 라우터 쪽으로 간 경로 알려줘", "n_b2", A, "path_to_node", target="DEX 라우터"),
    P("n_w8에서 n_c3까지 돈이 가? 3홉 안에서", "n_w8", A, "path_to_node", hops=3, target="n_c3"),
    P("거래소 X 입금주소 1에서 지갑 W2로 흘러간 경로 있음?", "거래소 X 입금주소 1", A, "path_to_node",
      target="지갑 W2"),
    P("지갑 W6에서 거래소 Y 입금주소 1까지 6홉 안에 연결돼?", "지갑 W6", A, "path_to_node_long", hops=6,
      target="거래소 Y 입금주소 1"),
    P("0x500d3f7f77976b636447268454108031ae6b18f7 이 주소에서 거래소 핫월렛까지 몇 홉이야?",
      "0x500d3f7f77976b636447268454108031ae6b18f7", A, "path_address", cls="ExchangeHotWallet"),
    P("0x1111111111111111111111111111111111111111 에서 믹서로 간 경로 있어?",
      "0x1111111111111111111111111111111111111111", D, "missing_node", cls="Mixer"),
    P("n_zz9 지갑에서 거래소 입금주소로 간 거 찾아줘", "n_zz9", D, "missing_node", cls="ExchangeDeposit"),
    # --- Korean, clusters and labels
    C("지갑 B2랑 같은 주인으로 보이는 주소들 뭐야?", "지갑 B2", A),
    C("n_w6과 동일 주체로 추정되는 지갑 알려줘", "n_w6", A),
    C("경유 지갑 H1이랑 같은 사람 거 같은 지갑 있어?", "경유 지갑 H1", A),
    C("n_w7 동일 주체 클러스터 있냐", "n_w7", D, "cluster_empty"),
    C("송금 내역 보다가 궁금해졌는데 n_w1이랑 같은 사람 지갑으로 묶인 주소 있지?", "n_w1", D, "cluster_empty_chat"),
    L("n_mx2는 무슨 종류 주소야?", "n_mx2"),
    L("n_ct1 클래스가 뭐예요?", "n_ct1"),
    L("0x9df647540d3a6f221fdb2fbe9c2047795f0085d7 이건 어떤 주소냐", "0x9df647540d3a6f221fdb2fbe9c2047795f0085d7",
      "label_address"),
    # --- Korean, questions the graph cannot answer
    X("지갑 A1 주인이 누군지 알아?", "owner", "owners are not in the graph", "지갑 A1"),
    X("n_w2 지금 잔액 얼마 남았어?", "balance", "balances are not in the graph", "n_w2"),
    X("이더리움 지금 시세 얼마야?", "irrelevant", "prices are not in the graph"),
    # --- English, paths
    P("Can money from n_w6 reach a mixer within three hops?", "n_w6", A, hops=3, cls="Mixer"),
    P("Is there a path from n_c2 to a mixer in at most 2 hops?", "n_c2", A, hops=2, cls="Mixer"),
    P("Does n_c2 send funds directly to a mixer, in a single hop?", "n_c2", D, "no_path_hop_limit", hops=1,
      cls="Mixer"),
    P("Do you know whether funds from n_ex1 reached an exchange hot wallet?", "n_ex1", A, cls="ExchangeHotWallet"),
    P("Which exchange deposit address do the funds leaving n_mx1 reach first?", "n_mx1", A, cls="ExchangeDeposit"),
    P("I'd like to know if the DEX router n_dex1 ever sent funds to a bridge within 3 hops.", "n_dex1", D, "no_path",
      hops=3, cls="Bridge"),
    P("Is the multisig contract n_ct1 connected to an exchange deposit address within two hops?", "n_ct1", A,
      hops=2, cls="ExchangeDeposit"),
    P("From 0x03EbcEFf59A7298D2eb4b7A19fEB48046D2D057b, can funds reach an exchange deposit address within 3 hops?",
      "0x03EbcEFf59A7298D2eb4b7A19fEB48046D2D057b", A, "path_checksum_address", hops=3, cls="ExchangeDeposit"),
    P("Is wallet n_w3 linked to an exchange deposit address within 3 hops?", "n_w3", A, hops=3,
      cls="ExchangeDeposit"),
    P("Can funds from n_w2 get to a bridge within 2 hops?", "n_w2", D, "no_path", hops=2, cls="Bridge"),
    P("Is there a path from n_q7 to an exchange?", "n_q7", D, "missing_node", cls="Exchange"),
    # --- English, clusters and labels
    C("Which addresses are believed to belong to the same owner as n_w5?", "n_w5", A),
    C("Does n_hot1 have any same-entity links?", "n_hot1", D, "cluster_empty"),
    L("What kind of address is n_dex1?", "n_dex1"),
    L("What class does n_hot2 belong to?", "n_hot2"),
    # --- English, questions the graph cannot answer
    X("Who owns the mixer n_mx1?", "owner", "owners are not in the graph", "n_mx1"),
    X("How much gas did n_w4 pay in May 2024?", "gas", "gas is not in the graph", "n_w4"),
]


def pages_specs(pg: Pages) -> list[dict]:
    def R(q, conds, kind="filter"):
        return {"q": q, "conds": conds, "kind": kind}

    def between(col, rng):
        return [(col, ">=", rng[0]), (col, "<=", rng[1])]

    def Xp(q, status, kind, concept=None):
        return {"q": q, "status": status, "kind": kind, "concept": concept}

    this_year, last_year = pg.year(0), pg.year(-1)
    d = dt.date
    return [
        # --- Korean, filters that run
        R("노출은 만 번 넘는데 클릭률이 3%도 안 되는 페이지 있어?", [(IMP, ">", 10000), (CTR, "<", 0.03)], "two_conditions"),
        R("클릭 한 번도 없는 페이지 싹 다 뽑아줘", [(CLK, "=", 0)], "vague_zero"),
        R("이탈률 80% 이상인 페이지 목록 부탁드립니다", [(BR, ">=", 0.8)], "percent"),
        R("올해 게시된 페이지 중에서 클릭 100회 이상인 거 알려줘", between(PUB, this_year) + [(CLK, ">=", 100)], "date_this_year"),
        R("지난달에 수정된 페이지 중 노출 5천 이상인 것만", between(UPD, pg.last_month()) + [(IMP, ">=", 5000)],
          "date_last_month"),
        R("작년에 올라온 글 중에 CTR 2% 미만인 거 있어?", between(PUB, last_year) + [(CTR, "<", 0.02)], "date_last_year"),
        R("2024년 이전에 게시된 페이지 목록 좀", [(PUB, "<", d(2024, 1, 1))], "date_before"),
        R("1년 넘게 업데이트 안 된 페이지 있나요?", [(UPD, "<", pg.years_ago(1))], "date_age"),
        R("클릭은 10번 이하인데 노출은 2천 이상인 페이지 뭐야", [(CLK, "<=", 10), (IMP, ">=", 2000)], "two_conditions"),
        R("클릭이 거의 없는 페이지 좀 보여줘", [(CLK, "<=", 10)], "dataset_predicate"),
        R("이탈이 심한 페이지 중에 세션 30 이상인 거", [(BR, ">=", 0.7), (SES, ">=", 30)], "dataset_predicate"),
        R("방문수 100 미만인 페이지 리스트", [(SES, "<", 100)], "synonym"),
        R("노출 10만 넘는 페이지 있음?", [(IMP, ">", 100000)], "empty_result"),
        R("CTR 5% 이상이고 이탈률 40% 미만인 페이지는요?", [(CTR, ">=", 0.05), (BR, "<", 0.4)], "two_conditions"),
        R("2025년 상반기에 발행된 페이지 중 클릭 50 미만", between(PUB, (d(2025, 1, 1), d(2025, 6, 30)))
          + [(CLK, "<", 50)], "date_half"),
        R("회의 자료 만드는 중인데, 노출수 5000 넘고 세션 500 이하인 페이지 좀 알려줄래?",
          [(IMP, ">", 5000), (SES, "<=", 500)], "chat_two_conditions"),
        # --- Korean, declines
        Xp("전환율 높은 페이지 뭐야?", "unsupported", "no_column", "전환율"),
        Xp("매출 많이 나오는 상품 페이지 알려줘", "unsupported", "no_column", "매출"),
        Xp("클릭 제일 많은 페이지 5개만", "unsupported", "ranking"),
        Xp("페이지 전체 평균 CTR이 얼마야?", "unsupported", "aggregate"),
        Xp("요즘 반응 별로인 페이지들 좀 추려줘", "clarify", "vague_measure", "반응"),
        Xp("노출이 많거나 클릭이 많은 페이지", "clarify", "or"),
        Xp("1000 이상인 페이지 보여줘", "clarify", "no_column"),
        Xp("클릭 10% 넘는 페이지", "clarify", "percent_on_count"),
        Xp("2025년 2월 30일 이후 게시된 페이지", "clarify", "bad_date"),
        Xp("수정 안 된 페이지 있어?", "clarify", "negated_date_no_period"),
        # --- English, filters that run
        R("Which pages have more than 20,000 impressions?", [(IMP, ">", 20000)], "one_condition"),
        R("Show me pages with a CTR of at least 5%.", [(CTR, ">=", 0.05)], "percent"),
        R("I'd like to know which pages were updated in September 2026 and got zero clicks.",
          between(UPD, (d(2026, 9, 1), d(2026, 9, 30))) + [(CLK, "=", 0)], "date_month"),
        R("Pages published before 2024 whose bounce rate is under 40%?", [(PUB, "<", d(2024, 1, 1)), (BR, "<", 0.4)],
          "date_before"),
        R("Do you know which pages have between 100 and 500 sessions?", between(SES, (100, 500)), "range"),
        R("Any pages with a bounce rate above 75% and fewer than 1,000 impressions?",
          [(BR, ">", 0.75), (IMP, "<", 1000)], "two_conditions"),
        R("Which pages were last updated before June 1, 2025?", [(UPD, "<", d(2025, 6, 1))], "date_before"),
        R("Pages published in Q1 2025, please.", between(PUB, (d(2025, 1, 1), d(2025, 3, 31))), "date_quarter"),
        R("Which pages published in 2026 have more than 1,000 sessions?", between(PUB, this_year) + [(SES, ">", 1000)],
          "date_year"),
        R("List the pages whose click-through rate is exactly 0.", [(CTR, "=", 0.0)], "exact"),
        # --- English, declines
        Xp("Which pages have the highest conversion rate?", "unsupported", "no_column", "conversion rate"),
        Xp("Which pages have more than 10 backlinks?", "unsupported", "no_column", "backlinks"),
        Xp("Which pages are performing badly?", "clarify", "vague_evaluation"),
        Xp("Show me pages with lots of impressions or lots of clicks.", "clarify", "or"),
        Xp("What are the top 10 pages by clicks?", "unsupported", "ranking"),
        Xp("Which pages were written by Jimin?", "unsupported", "no_column", "author"),
    ]




def main() -> int:
    write_set(HERE, KG_SPECS, ONCHAIN_SPECS, pages_specs(Pages()), FILMS_SPECS, verbose="-v" in sys.argv, min_n=170)
    return 0


if __name__ == "__main__":
    sys.exit(main())
