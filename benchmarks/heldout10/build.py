"""Held-out set 10 ("typed like users", set B): the questions, each with its meaning; gold computed by code.

Run from the repository root:  python benchmarks/heldout10/build.py [-v]
It writes benchmarks/heldout10/questions.jsonl. The shared kinds get their gold from benchmarks/heldout_gold.py
(``write_set`` and the S/P/C/L/X helpers); the kinds those rules do not cover (onchain amounts and traces, ids
typed with a space, the two extra checks on page conditions) from gold_extra.py in this folder. Nothing here
imports ont_platform.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from heldout_gold import (A, B, BR, CLK, CTR, D, F, IMP, NOT, PUB, SES, UPD, C, L, Onchain, P, Pages, S,  # noqa: E402
                          X, lang_of, norm, write_set)
from gold_extra import AMT, SURF, TR, check_conditions, day, eip55, last_year, onchain_extra, this_year  # noqa: E402

# ---------------------------------------------------------------------------------------------------------
# kg  (examples/kg)

WORKS, LOC, PART, FOUND, ACQ, WITHIN = "worksFor", "locatedIn", "partOf", "foundedBy", "acquired", "within"

KG = [
    S("홍길동이 다니는 회사는 어디예요?", "홍길동", [(WORKS, F)], "plain", A, cls="Company"),
    S("홍길동회사 어느 나라에 있어?", "홍길동", [(WORKS, F), (WITHIN, F)], "glued_name+chain_class_last", A,
      cls="Country"),
    S("김철수네 회사 본사 있는 나라가 어디임", "김철수", [(WORKS, F), (LOC, F)], "chain_class_last+casual_ending", A,
      cls="Country"),
    S("정하늘 씨가 일하는 단체는 어느 나라에 있나요?", "정하늘", [(WORKS, F), (LOC, F)], "chain_class_last", A,
      cls="Country"),
    S("I'm putting together a supplier risk memo for my manager and need to double-check one thing: the company "
      "Gamma Labs acquired, which country is it based in?", "Gamma Labs", [(ACQ, F), (LOC, F)],
      "preamble+chain_class_last", A, cls="Country"),
    S("감마랩스가 사들인 회사 나라 어디야", "감마랩스", [(ACQ, F), (WITHIN, F)], "chain_class_last+acquired_country", A,
      cls="Country"),
    S("이민지 다니는 회사는 어느 나라에 있나요?", "이민지", [(WORKS, F), (LOC, F)], "chain_class_last+too_far", D,
      cls="Country"),
    S("이민지가 다니는 회사는 어느 도시에 있어?", "이민지", [(WORKS, F), (LOC, F)], "chain_class_last", A, cls="City"),
    S("최수진 다니는 회사 어느 도시야?", "최수진", [(WORKS, F), (LOC, F)], "ungrounded", D, cls="City"),
    S("윤준호 다니는 회사 알려줘요", "윤준호", [(WORKS, F)], "missing_edge", D, cls="Company"),
    S("윤준호가 세운 회사 사무실은 어디 있어?", "윤준호", [(FOUND, F), (LOC, F)], "plain", A),
    S("에이크미를 세운 사람이 누구예요?", "에이크미", [(FOUND, B)], "plain", A, cls="Person"),
    S("ACME Corp에서 일하는 사람 전부 알려줘", "ACME Corp", [(WORKS, B)], "alias+multi", A, cls="Person"),
    S("Who works at Delta Trading?", "Delta Trading", [(WORKS, B)], "ungrounded", D, cls="Person"),
    S("서울에 있는 회사 목록 좀", "서울", [(WITHIN, B, "Company")], "multi+casual_ending", A, cls="Company"),
    S("대한민국에 속한 도시는 어디어디야?", "대한민국", [(PART, B)], "multi", A, cls="City"),
    S("델타물산본사 있는 나라?", "델타물산", [(LOC, F)], "glued_name+chain_class_last", A, cls="Country"),
    S("What continent is Delta Trading located in?", "Delta Trading", [(LOC, F)], "chain_class_last", A,
      cls="Continent"),
    S("홍길동 다니는 회사 어느 대륙이야?", "홍길동", [(WORKS, F), (WITHIN, F)], "chain_class_last+too_far", D,
      cls="Continent"),
    S("홍 대표가 세운 회사 어느 도시에 있음?", "홍 대표", [(FOUND, F), (LOC, F)], "alias+casual_ending", A, cls="City"),
    S("홍 부장이 다니는 회사 어디?", "홍 부장", [(WORKS, F)], "unknown_name", D, cls="Company"),
    S("홍길똥이 다니는 회사는 어느 도시에 있어요?", "홍길똥", [(WORKS, F), (LOC, F)], "typo_name", D, cls="City"),
    S("홍길순이 다니는 회사는 어느 도씨에 있나요?", "홍길순", [(WORKS, F), (LOC, F)], "typo_class", A, cls="City"),
    S("Which city is Gildong Hong's employer in?", "Gildong Hong", [(WORKS, F), (LOC, F)], "alias", A, cls="City"),
    S("What's Cheolsu Kim's salary?", "Cheolsu Kim", NOT("salary"), "not_in_ontology", D),
    S("에이크미 직원 몇 명이야?", "에이크미", NOT("employeeCount"), "not_in_ontology", D),
    S("안녕 ㅎㅎ 오늘 점심 뭐 먹을까", None, None, "chitchat", D, why="chit-chat: no entity, no relation"),
    S("박민수가 근무하는 회사는 어디에 있나요?", "박민수", [(WORKS, F), (LOC, F)], "unknown_name", D),
    S("홍길동이 인수한 회사 어디야?", "홍길동", [(ACQ, F)], "relation_not_between", D, cls="Company"),
    S("서울은 어느 나라에 속해?", "서울", [(PART, F)], "plain", A, cls="Country"),
    S("판교는 어느 나라에 있어?", "판교", [(WITHIN, F)], "chain_class_last", A, cls="Country"),
    S("What country is Pangyo in? Only follow two hops max.", "Pangyo", [(WITHIN, F)], "hop_limit_small", D,
      cls="Country", limit=2),
    S("엡실론소프트 어느 대륙에 있어요?", "엡실론소프트", [(LOC, F)], "chain_class_last", A, cls="Continent"),
    S("Sorry if this is a dumb question, I'm new on the M&A desk: Epsilon Soft got bought by which company?",
      "Epsilon Soft", [(ACQ, B)], "preamble", A, cls="Company"),
    S("베타를 인수한 회사는?", "베타", [(ACQ, B)], "ungrounded", D, cls="Company"),
    S("부산에 본사 둔 회사 어디?", "부산", [(LOC, B)], "plain", A, cls="Company"),
    S("Hanbit Foundation is located in which country?", "Hanbit Foundation", [(LOC, F)], "chain_class_last", A,
      cls="Country"),
    S("한빛재단에서 일하는 사람 누구?", "한빛재단", [(WORKS, B)], "plain", A, cls="Person"),
    S("홍길동 회사 사장님 나이 알려줘", "홍길동", NOT("age"), "not_in_ontology", D),
    S("tokyo is in which country again?", "tokyo", [(PART, F)], "plain+lowercase", A, cls="Country"),
    S("경기도에 있는 도시 알려줘", "경기도", [(PART, B)], "plain", A, cls="City"),
    S("Minji Lee's company, what city is it in?", "Minji Lee", [(WORKS, F), (LOC, F)], "chain_class_last", A,
      cls="City"),
    S("김철수가 일하는 회사를 세운 사람 누구얌?", "김철수", [(WORKS, F), (FOUND, B)], "casual_ending", A, cls="Person"),
    S("who founded the company Minji Lee works at", "Minji Lee", [(WORKS, F), (FOUND, B)], "plain", A, cls="Person"),
    S("홍길순 회사를 인수한 회사는 어느 나라에 있어?", "홍길순", [(WORKS, F), (ACQ, B), (LOC, F)], "ungrounded", D,
      cls="Country"),
    S("Where is Sujin Choi's company headquartered? I need the city.", "Sujin Choi", [(WORKS, F), (LOC, F)],
      "ungrounded", D, cls="City"),
    S("my boss keeps asking and I keep forgetting lol, what country is the company Junho Yoon founded in?",
      "Junho Yoon", [(FOUND, F), (LOC, F)], "preamble+chain_class_last+too_far", D, cls="Country"),
    S("Which organisations are based in Seoul?", "Seoul", [(LOC, B)], "multi", A, cls="Organization"),
    S("Wich contry is Busan part of?", "Busan", [(PART, F)], "typo_class+typo_word", A, cls="Country"),
    S("이 자료 내일 아침 회의 때 써야 돼서 급해요. 감마랩스인수한 회사는 어느 도시에 있나요?", "감마랩스",
      [(ACQ, F), (LOC, F)], "preamble+glued_name", A, cls="City"),
    S("Whcih company did Gamma Labs aquire?", "Gamma Labs", [(ACQ, F)], "typo_word", A, cls="Company"),
]

# ---------------------------------------------------------------------------------------------------------
# films  (examples/films)

DIR, STAR, PROD, PREM, WON, SCR = "directedBy", "starring", "producedBy", "premieredIn", "wonAward", "screenedAt"
BASED, HELD, FLOC, PRES, BORN, COLLAB = "basedIn", "heldIn", "locatedIn", "presentedAt", "bornIn", "collaboratedWith"

FILMS = [
    S("달빛 항구 감독 누구야?", "달빛 항구", [(DIR, F)], "plain", A, cls="Director"),
    S("달빛항구제작사는 어느 나라에 있어?", "달빛항구", [(PROD, F), (BASED, F)], "glued_name+chain_class_last", A,
      cls="Country"),
    S("한지우가 연출한 영화 다 알려줘", "한지우", [(DIR, B)], "multi", A, cls="Film"),
    S("강은비가 출연한 영화들 감독이 누구누구야?", "강은비", [(STAR, B), (DIR, F)], "multi", A, cls="Director"),
    S("Which country was Rei Kimura born in?", "Rei Kimura", [(BORN, F)], "class_not_reached", D, cls="Country"),
    S("what city was rei kimura born in", "rei kimura", [(BORN, F)], "plain+lowercase", A, cls="City"),
    S("토마 마르탱 고향 어디?", "토마 마르탱", [(BORN, F)], "ungrounded", D, cls="City"),
    S("강은비 어디서 태어났어요?", "강은비", [(BORN, F)], "ungrounded", D),
    S("박도현 감독 출생지 알려주세요", "박도현", [(BORN, F)], "missing_edge", D, cls="City"),
    S("청하에서 태어난 배우 누구?", "청하", [(BORN, B)], "shared_name", A, cls="Actor"),
    S("청하 감독 누구야", "청하", [(DIR, F)], "shared_name", A, cls="Director"),
    S("Tell me about Cheongha.", None, None, "ambiguous", D, why="a name that fits a film and a city, no relation"),
    S("The Last Ferry was screened at a festival, which country is that festival held in?", "The Last Ferry",
      [(SCR, F), (HELD, F)], "chain_class_last", A, cls="Country"),
    S("황금별상은 어느 나라에서 주는 상이야?", "황금별상", [(PRES, F), (HELD, F)], "chain_class_last", A,
      cls="Country"),
    S("달빛 항구가 받은 상은 어느 도시 영화제에서 주는 거야?", "달빛 항구", [(WON, F), (PRES, F), (HELD, F)],
      "chain_class_last", A, cls="City"),
    S("겨울 정거장이 받은 상 주는 영화제는 어느 나라에서 열려?", "겨울 정거장", [(WON, F), (PRES, F), (HELD, F)],
      "chain_class_last+too_far", D, cls="Country"),
    S("유리 정원 무슨 상 받았어?", "유리 정원", [(WON, F)], "ungrounded", D, cls="Award"),
    S("Who has Claire Moreau collaborated with?", "Claire Moreau", [(COLLAB, F)], "plain", A, cls="Person"),
    S("who did rei kimura work with", "rei kimura", [(COLLAB, B)], "symmetric+lowercase", A, cls="Person"),
    S("윤세하랑 같이 작업한 사람 있어?", "윤세하", [(COLLAB, F)], "ungrounded", D, cls="Person"),
    S("윤혜진이랑 협업한 사람 누구?", "윤혜진", [(COLLAB, F)], "missing_edge", D, cls="Person"),
    S("한지유 출연작 뭐뭐 있어?", "한지유", [(STAR, B)], "multi", A, cls="Film"),
    S("한지위가 연출한 영화", "한지위", [(DIR, B)], "typo_name", D, cls="Film"),
    S("Which studio made Paper Birds?", "Paper Birds", [(PROD, F)], "plain", A, cls="Studio"),
    S("종이새 제작사 본사는 어느 도시에 있어?", "종이새", [(PROD, F), (BASED, F)], "missing_edge", D, cls="City"),
    S("마지막 나룻배 제작사 어디어디임?", "마지막 나룻배", [(PROD, F)], "multi+casual_ending", A, cls="Studio"),
    S("The Glass Garden's studios are based in which countries?", "The Glass Garden", [(PROD, F), (BASED, F)],
      "multi+chain_class_last", A, cls="Country"),
    S("붉은 선 어디서 개봉했어?", "붉은 선", [(PREM, F)], "ungrounded", D, cls="City"),
    S("Which city did Northern Lighthouse premiere in?", "Northern Lighthouse", [(PREM, F)], "missing_edge", D,
      cls="City"),
    S("What was the budget of Moonlit Harbor?", "Moonlit Harbor", NOT("budget"), "not_in_ontology", D),
    S("아홉 번째 여름 러닝타임 몇 분?", "아홉 번째 여름", NOT("runtime"), "not_in_ontology", D),
    S("Which films premiered in Seorin?", "Seorin", [(PREM, B)], "multi", A, cls="Film"),
    S("푸른강필름이 만든 영화들 감독이 누구야?", "푸른강필름", [(PROD, B), (DIR, F)], "glued_alias+multi", A,
      cls="Director"),
    S("서민제 출연작 알려줘", "서민제", [(STAR, B)], "lookalike_name", A, cls="Film"),
    S("서민재 태어난 도시는?", "서민재", [(BORN, F)], "lookalike_name", A, cls="City"),
    S("which festival takes place in kosaka?", "kosaka", [(HELD, B)], "plain+lowercase", A, cls="Festival"),
    S("where is the Mornin Star Film Festival held?", "Mornin Star Film Festival", [(HELD, F)], "typo_name", D,
      cls="City"),
    S("Kumo Studio는 어느 나라 회사야?", "Kumo Studio", [(BASED, F)], "chain_class_last+mixed_language", A,
      cls="Country"),
    S("이다혜랑 호흡 맞춘 배우는 어느 도시 출신이야?", "이다혜", [(COLLAB, F), (BORN, F)], "ungrounded", D, cls="City"),
    S("Who directed the films Lea Duval starred in?", "Lea Duval", [(STAR, B), (DIR, F)], "plain", A,
      cls="Director"),
    S("조수의 집이 상영된 영화제는 어느 도시에서 열려?", "조수의 집", [(SCR, F), (HELD, F)], "chain_class_last", A,
      cls="City"),
    S("한지우감독 태어난 도시가 속한 나라", "한지우", [(BORN, F), (FLOC, F)], "glued_name", A, cls="Country"),
    S("미나리 감독 누구야?", "미나리", [(DIR, F)], "unknown_name", D, cls="Director"),
    S("Hi! I'm writing a blog post about Korean indie cinema and want to get the facts straight before I publish "
      "tonight: who directed Paper Birds?", "Paper Birds", [(DIR, F)], "preamble", A, cls="Director"),
    S("달빛 항구 제작샤 본사 어느 도시?", "달빛 항구", [(PROD, F), (BASED, F)], "typo_class", A, cls="City"),
    S("which contry is the studio behind Winter Station based in?", "Winter Station", [(PROD, F), (BASED, F)],
      "typo_class+chain_class_last", A, cls="Country"),
    S("What award did House of Tides win?", "House of Tides", [(WON, F)], "plain", A, cls="Award"),
    S("그 뭐냐 영화제 일정 정리하다가 헷갈려서 그런데요, 새벽별영화제는 어느 나라에서 열리는 거였죠?", "새벽별영화제",
      [(HELD, F)], "preamble+chain_class_last", A, cls="Country"),
    S("다음 주 영화 동호회 발표 자료 만드는 중인데 하나만 확인 부탁드려요. 붉은 선 주연 배우들 고향이 어디예요?",
      "붉은 선", [(STAR, F), (BORN, F)], "preamble+multi", A, cls="City"),
    S("Who direced The Ninth Summer?", "The Ninth Summer", [(DIR, F)], "typo_word", A, cls="Director"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain  (examples/onchain)

W1_CHECKSUM = "0x025B67D8F3F662Cd89b14a9A765ea801B5c0D324"   # n_w1, stored in lower case
EX3_CHECKSUM = "0x2808129b1Ce53bf0305a2401b26cD99444D2268C"  # n_ex3, stored in lower case
DEX_UPPER = "0x8E54A0DED8DC184718E15175297B33F021256D01"     # n_dex1, all capitals
HOT1_LOWER = "0x03ebceff59a7298d2eb4b7a19feb48046d2d057b"     # n_hot1, stored in EIP-55 case

ONCHAIN = [
    P("n_w6에서 세 단계 안에 믹셔로 돈 간 적 있어?", "n_w6", A, kind="typo_class+hops_words", hops=3, cls="Mixer"),
    P("does n_w6 reach a mixer in 2 steps?", "n_w6", D, kind="hops_steps+hop_limit_small", hops=2, cls="Mixer"),
    P("N_W8에서 네 번 안에 믹서까지 닿나요", "N_W8", A, kind="id_capitals+hops_words", hops=4, cls="Mixer"),
    P("n_w8 3홉 안에 믹서 있냐", "n_w8", D, kind="hop_limit_small+casual_ending", hops=3, cls="Mixer"),
    P(f"{W1_CHECKSUM} 에서 거래소 입금 주소로 돈 보낸 적 있음?", W1_CHECKSUM, A, kind="address_mixed_case",
      cls="ExchangeDeposit"),
    P("n_w4에서 두 홉 안에 거래소 입금주소 닿아?", "n_w4", D, kind="hops_words+hop_limit_small", hops=2,
      cls="ExchangeDeposit"),
    P("From n_mx1, does money reach an exchange deposit address within 3 transfers?", "n_mx1", A,
      kind="hops_transfers", hops=3, cls="ExchangeDeposit"),
    P("n_h1 에서 거래소 핫월렛까지 가는 길 있어?", "n_h1", A, kind="plain", cls="ExchangeHotWallet"),
    P("지갑 W7에서 거래소 핫 윌렛으로 흘러간 거 있나여", "지갑 W7", A, kind="typo_class+label_start+casual_ending",
      cls="ExchangeHotWallet"),
    P("브리지 B1에서 3홉 안에 거래소 입금주소까지 가?", "브리지 B1", A, kind="label_start", hops=3,
      cls="ExchangeDeposit"),
    P("n_c1 → mixer 세 번 이내로 가능?", "n_c1", A, kind="hops_words+mixed_language", hops=3, cls="Mixer"),
    P("n_hot2에서 다섯 단계 안에 믹서 도달함?", "n_hot2", A, kind="hops_words+casual_ending", hops=5, cls="Mixer"),
    P("Can n_a1 reach any mixer within 4 transfers?", "n_a1", D, kind="hops_transfers", hops=4, cls="Mixer"),
    P("n_w9에서 토큰 컨트랙트로 간 경로 있어?", "n_w9", D, kind="no_path", cls="TokenContract"),
    P("n_zz9 에서 거래소로 돈 간 적 있어?", "n_zz9", D, kind="unknown_node", cls="Exchange"),
    P("n_d4 exchange deposit within 5 hops?", "n_d4", D, kind="isolated_node", hops=5, cls="ExchangeDeposit"),
    P("n_a1에서 n_w2로 돈이 흘러갔나요? 3단계 이내로요", "n_a1", A, kind="node_target+hops_words", hops=3,
      target="n_w2"),
    P("Is there any transfer path from n_mx2 to n_w1?", "n_mx2", D, kind="node_target", target="n_w1"),
    P("n_ex2에서 일반 지갑으로 돈 나간 적 있어?", "n_ex2", A, kind="plain", cls="Wallet"),
    P("the multisig n_ct1, does it send to a DEX within two steps?", "n_ct1", A, kind="hops_steps", hops=2,
      cls="Dex"),
    L(f"what kind of address is {DEX_UPPER}", DEX_UPPER, kind="label+address_capitals"),
    L(f"{HOT1_LOWER} 이건 무슨 주소야?", HOT1_LOWER, kind="label+address_lower_case"),
    L("N_TK1 클래스 뭐임", "N_TK1", kind="label+id_capitals+casual_ending"),
    L("멀티시그 컨트랙트는 어떤 종류의 주소예요?", "멀티시그 컨트랙트", kind="label+label_start"),
    L("0x7f3a9c21e04b 이 주소 타입 좀 알려줘", "0x7f3a9c21e04b", kind="label+unknown_class"),
    L("믹서 풀 M2 는 뭐 하는 주소야?", "믹서 풀 M2", kind="label+label_start"),
    L(f"Quick one before my call with legal: what type of address is {EX3_CHECKSUM}?", EX3_CHECKSUM,
      kind="label+address_mixed_case+preamble"),
    C("n_a1이랑 같은 사람이 쓰는 지갑 있어?", "n_a1", A, kind="cluster_everyday"),
    C("Which other wallets probably belong to the same owner as n_w5?", "n_w5", A, kind="cluster_everyday"),
    C("지갑 W6 주인이 같이 굴리는 다른 지갑들 뭐야", "지갑 W6", A, kind="cluster_everyday+label_start"),
    C("n_w1이랑 한 사람 꺼로 보이는 주소 있어?", "n_w1", D, kind="cluster_everyday+empty"),
    C("N_H1 same owner cluster pls", "N_H1", A, kind="cluster+id_capitals"),
    C("is n_ex1 controlled by the same person as any other address?", "n_ex1", D, kind="cluster_everyday+empty"),
    X("n_a1 지갑 주인 실명이 뭐야?", "owner_identity", "real-world owners are not in the graph", start="n_a1"),
    X("What's the current ETH balance of n_w2?", "balance", "balances are not stored, only some transfers",
      start="n_w2"),
    X("거래소 X 핫월렛 이거 바이낸스 거야?", "exchange_brand", "which company runs exchange X is not in the graph",
      start="거래소 X 핫월렛"),
    X("e21 전송할 때 가스비 얼마 냈어?", "gas_fee", "gas fees are not stored"),
    X("요즘 이더 시세 얼마임?", "price", "prices are not in the graph"),
    X("n_w2가 보낸 돈 원화로 치면 얼마야?", "fiat_value", "no exchange rate in the graph", start="n_w2"),
]

ONCHAIN_EXTRA = [
    SURF(P("can money from n_ b2 get to a brige?", "-", A, kind="id_space+typo_class", cls="Bridge"), "n_ b2"),
    SURF(P("팀장님이 내일 아침까지 자금 흐름 보고서 올리라고 하셔서요, 혹시 n_ B2 에서 3단계 안에 거래소 입금주소까지 "
           "돈이 들어갔는지 확인 가능할까요?", "-", D, kind="preamble+id_space+hops_words", hops=3,
           cls="ExchangeDeposit"), "n_ B2"),
    SURF(L("n_ br1 is what type of address?", "-", kind="label+id_space"), "n_ br1"),
    SURF(C("n _w5 랑 같은 주인 지갑 뭐 있음?", "-", A, kind="cluster_everyday+id_space"), "n _w5"),
    AMT("n_w1이 n_ex1에 보낸 돈 총 얼마야?", "amount_between", A, src="n_w1", dst="n_ex1"),
    AMT("How much ETH did n_w9 send to n_w1?", "amount_between", A, src="n_w9", dst="n_w1", token="ETH"),
    AMT("믹서 풀 M1이 지갑 W7한테 보낸 금액 알려줘요", "amount_between+label_start", A, src="믹서 풀 M1",
        dst="지갑 W7"),
    AMT("n_ct1 이 N_W2 한테 얼마 보냈어?", "amount_between+id_capitals", A, src="n_ct1", dst="N_W2"),
    AMT("n_w7에서 빠져나간 이더 총액?", "amount_out", A, src="n_w7", token="ETH"),
    AMT("I'm reconciling our compliance log and the numbers don't add up, what's the total ETH sent out of the "
        "mixer n_mx1?", "amount_out+preamble", A, src="n_mx1", token="ETH"),
    AMT("DEX 라우터가 내보낸 ETH 다 합치면 얼마임", "amount_out+label_start+casual_ending", A, src="DEX 라우터",
        token="ETH"),
    AMT("N_B2 가 보낸 돈 전부 합계 알려주세여", "amount_out+id_capitals+casual_ending", A, src="N_B2"),
    AMT("n_ex1에 입금된 ETH 합계는요?", "amount_in", A, dst="n_ex1", token="ETH"),
    AMT("how much ETH landed in n_hot1 in total", "amount_in", A, dst="n_hot1", token="ETH"),
    AMT("n_a1이 n_ex1에 직접 보낸 금액?", "amount_between+no_direct_transfer", D, src="n_a1", dst="n_ex1"),
    AMT("n_d4가 보낸 총액 얼마?", "amount_out+isolated_node", D, src="n_d4"),
    AMT("how much did n_w1 send to n_zz7?", "amount_between+unknown_node", D, src="n_w1", dst="n_zz7"),
    TR("n_w6 돈 2단계 안에 어디로 갔어", "trace_forward+casual_ending", A, "n_w6", 2),
    TR("Where did n_mx1's money go within two transfers?", "trace_forward+hops_transfers", A, "n_mx1", 2),
    TR("n_w5 funds, follow them three steps forward", "trace_forward+hops_steps", A, "n_w5", 3),
    TR("n_ex2로 들어온 돈 두 단계 거슬러 올라가면 어디서 왔어?", "trace_backward+hops_words", A, "n_ex2", 2,
       "backward"),
    TR("Trace back two hops: where did the money in n_ex3 come from?", "trace_backward", A, "n_ex3", 2, "backward"),
    TR("거래소 X 핫월렛에 들어온 돈 한 단계만 역추적해줘", "trace_backward+label_start+hops_words", A,
       "거래소 X 핫월렛", 1, "backward"),
    TR("n_w4로 들어온 돈 출처 세 단계까지 따라가 줘", "trace_backward+hops_words", A, "n_w4", 3, "backward"),
    TR("n_d4 자금 3단계 안에 어디로 흘러갔나요", "trace_forward+isolated_node", D, "n_d4", 3),
    TR("where did the money sent to n_tk1 come from? 2 steps back is enough", "trace_backward+no_inflow", D,
       "n_tk1", 2, "backward"),
]

# ---------------------------------------------------------------------------------------------------------
# pages  (examples/pages, as of 2026-10-31)

PG = Pages()


def R(q: str, kind: str, conds: list[tuple], exclusions: tuple = (), exact: tuple = ()) -> dict:
    return {"q": q, "kind": kind, "conds": conds, "exclusions": exclusions, "exact": exact}


def U(q: str, kind: str, concept: str | None = None) -> dict:
    return {"q": q, "kind": kind, "status": "unsupported", "concept": concept}


def Q(q: str, kind: str) -> dict:
    return {"q": q, "kind": kind, "status": "clarify"}


PAGES = [
    R("노출 1만 넘고 클릭 500 이상인 페이지", "plain", [(IMP, ">", 10000), (CLK, ">=", 500)]),
    R("CTR 5% 이상인 페이지 뽑아줘", "percent_fraction", [(CTR, ">=", 0.05)]),
    R("이탈률 70% 넘는 페이지들 좀 보여줘요", "percent_fraction", [(BR, ">", 0.7)]),
    R("pages with a click-through rate under 1%?", "percent_fraction", [(CTR, "<", 0.01)]),
    R("Show me pages where bounce rate is below 40 percent and sessions are over 1000", "percent_fraction",
      [(BR, "<", 0.4), (SES, ">", 1000)]),
    R("2026년 9월 1일 이후에 수정된 페이지 중 노출 2만 넘는 거", "absolute_date",
      [(UPD, ">=", day("2026-09-01")), (IMP, ">", 20000)]),
    R("pages published before Jan 1, 2024", "absolute_date", [(PUB, "<", day("2024-01-01"))]),
    R("올해 올라온 페이지 중 노출 1000 넘는 거", "this_year", this_year(PG, PUB) + [(IMP, ">", 1000)]),
    R("Which pages were published this year with a bounce rate above 60%?", "this_year+percent_fraction",
      this_year(PG, PUB) + [(BR, ">", 0.6)]),
    R("노출 1만 이상인데 클릭 0인 건 빼고 보여줘", "exclusion", [(IMP, ">=", 10000), (CLK, "!=", 0)], exclusions=(1,)),
    R("Pages with more than 5000 impressions, excluding any with a bounce rate of 50% or higher", "exclusion",
      [(IMP, ">", 5000), (BR, "<", 0.5)], exclusions=(1,)),
    R("노출 3000 넘는 것 중에 올해 수정 안 된 페이지", "exclusion+this_year",
      [(IMP, ">", 3000), (UPD, "<", PG.year(0)[0])], exclusions=(1,)),
    R("2025년 6월 1일부터 2025년 말까지 게시된 페이지", "absolute_date",
      [(PUB, ">=", day("2025-06-01")), (PUB, "<=", day("2025-12-31"))]),
    R("pages updated on or after October 1st 2026", "absolute_date", [(UPD, ">=", day("2026-10-01"))]),
    R("세션 500 넘고 이탈률 40% 미만", "percent_fraction", [(SES, ">", 500), (BR, "<", 0.4)]),
    R("클릭률 3프로 이상에 노출 5천 이상인 페이지", "percent_fraction", [(CTR, ">=", 0.03), (IMP, ">=", 5000)]),
    R("작년에 게시된 페이지 중에 클릭 거의 없는 거", "relative_date+vague_predicate",
      last_year(PG, PUB) + [(CLK, "<=", 10)]),
    R("pages with zero clicks but at least 500 impressions", "plain", [(CLK, "=", 0), (IMP, ">=", 500)]),
    R("노출수 1000 미만인데 세션 10 넘는 페이지", "plain", [(IMP, "<", 1000), (SES, ">", 10)]),
    R("any page w/ ctr above 5.5%??", "percent_fraction+casual", [(CTR, ">", 0.055)]),
    R("이탈률 0.5 이하이고 2026년 10월에 수정된 페이지", "absolute_date",
      [(BR, "<=", 0.5), (UPD, ">=", day("2026-10-01")), (UPD, "<=", day("2026-10-31"))]),
    R("pages last updated before 2025 that still get over 1000 impressions", "absolute_date+empty_result",
      [(UPD, "<", day("2025-01-01")), (IMP, ">", 1000)]),
    R("2025.3.1 이전에 게시된 페이지만", "absolute_date", [(PUB, "<", day("2025-03-01"))]),
    R("올해 들어 게시된 페이지 중 세션 50 이상", "this_year", this_year(PG, PUB) + [(SES, ">=", 50)]),
    R("블로그랑 상품 페이지 다 포함해서, 이탈률이 60프로 넘고 2025년부터 게시된 페이지 중 노출 2000 이하는 "
      "빼고 알려주세요", "exclusion+percent_fraction+absolute_date+preamble",
      [(BR, ">", 0.6), (PUB, ">=", day("2025-01-01")), (IMP, ">", 2000)], exclusions=(2,)),
    R("Hey, quick favor. Our SEO agency sends the monthly deck tomorrow and I want to sanity-check their numbers "
      "first: which pages have a CTR of at least 4% and more than 10k impressions?", "preamble+percent_fraction",
      [(CTR, ">=", 0.04), (IMP, ">", 10000)], exact=(0,)),
    U("검색 순위 10위 안에 드는 페이지 알려줘", "rank_inside", "검색 순위"),
    U("which pages rank outside the top 20?", "rank_outside", "rank"),
    U("평균 순위가 5위보다 높은 페이지", "rank_better", "평균 순위"),
    U("pages whose average position is worse than 15", "rank_worse", "average position"),
    U("순위가 아래로 떨어진 페이지 있어?", "rank_dropped", "순위"),
    U("Which pages dropped to lower rankings this month?", "rank_dropped", "ranking"),
    U("상태 코드가 200이 아닌 페이지", "code_column", "상태 코드"),
    U("pages where the HTTP status code is 400 or above", "code_column", "status code"),
    U("응답코드 301 아닌 페이지만 보여줘", "code_column", "응답코드"),
    Q("노출이 50% 넘는 페이지", "percent_on_count"),
    Q("show me the pages that are doing badly", "no_measure"),
    Q("클릭 100 넘거나 세션 200 넘는 페이지", "or"),
    Q("2026년 2월 30일 이후 수정된 페이지", "impossible_date"),
    U("pages with revenue over $1,000", "no_column", "revenue"),
    U("전체 페이지 클릭 합계 얼마야?", "aggregation"),
    Q("pages with more than 500?", "number_without_column"),
    U("전환율 2% 넘는 페이지", "no_column", "전환율"),
    U("top 5 pages by clicks", "ranking"),
]

# ---------------------------------------------------------------------------------------------------------


def meaning_of(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k not in ("q", "expect", "kind")}


def main() -> int:
    verbose = "-v" in sys.argv
    oc = Onchain()
    # checks on how the questions are typed (never the source of a gold)
    for addr in (W1_CHECKSUM, EX3_CHECKSUM):
        want = eip55(addr)
        assert want is None or want == addr, (addr, want)
    assert oc.resolve(W1_CHECKSUM) == "n_w1" and oc.resolve(EX3_CHECKSUM) == "n_ex3"
    assert oc.resolve(DEX_UPPER) == "n_dex1" and oc.resolve(HOT1_LOWER) == "n_hot1"
    for spec in PAGES:
        if "conds" in spec:
            check_conditions(PG, spec)
        elif spec.get("concept"):
            assert norm(spec["concept"]) in norm(spec["q"]), spec

    pages_specs = [{k: v for k, v in s.items() if k not in ("exclusions", "exact")} for s in PAGES]
    shared = write_set(HERE, KG, ONCHAIN, pages_specs, FILMS, verbose=False, min_n=0)
    extra = onchain_extra(oc, ONCHAIN_EXTRA)

    by_q = {s["q"]: s for s in ONCHAIN + PAGES}
    items: list[dict] = []
    for dom in ("kg", "onchain", "pages", "films"):
        part = [it for it in shared if it["domain"] == dom]
        if dom == "onchain":
            part += extra
        for i, it in enumerate(part, 1):
            it["id"] = f"{dom}_{i:03d}"
            if "meaning" not in it:
                it["meaning"] = meaning_of(by_q[it["question"]])
            items.append(it)

    keys = ("id", "domain", "lang", "question", "kind", "gold_kind", "gold", "meaning")
    items = [{k: it[k] for k in keys} for it in items]
    assert len({it["question"] for it in items}) == len(items), "duplicate question"
    assert all(it["lang"] == lang_of(it["question"]) for it in items)
    n = len(items)
    per = Counter(it["domain"] for it in items)
    en = sum(it["lang"] == "en" for it in items) / n
    dec = sum(it["gold_kind"] == "decline" for it in items) / n
    assert n >= 150 and min(per.values()) >= 35 and en >= 0.30 and dec >= 0.25, (n, per, en, dec)

    out = HERE / "questions.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for it in items:
            fh.write(json.dumps(it, ensure_ascii=False, default=str) + "\n")
    print(f"\nset 10: wrote {n} questions to {out}  (english {en:.0%}, decline {dec:.0%})")
    print("| domain | n | ko | en | answer | multi | decline |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for dom in ("kg", "onchain", "pages", "films", None):
        rs = [it for it in items if dom is None or it["domain"] == dom]
        c = Counter(it["gold_kind"] for it in rs)
        lg = Counter(it["lang"] for it in rs)
        print(f"| {dom or 'total'} | {len(rs)} | {lg['ko']} | {lg['en']} | {c['answer']} | {c['multi']} | "
              f"{c['decline']} |")
    if verbose:
        for it in items:
            g = {k: v for k, v in it["gold"].items() if k != "edges" or it["gold"].get("flow")}
            print(it["id"], it["gold_kind"], it["kind"], json.dumps(g, ensure_ascii=False, default=str)[:200], "|",
                  it["question"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
