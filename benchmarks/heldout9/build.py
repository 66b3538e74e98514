"""Build held-out set 9 ("typed as users type", set A): questions with their meaning; gold computed by code.

Run from the repository root:  python benchmarks/heldout9/build.py [-v]

Every question below carries its meaning (start name as written, relation chain, asked class, hop limit; an
on-chain path, cluster, class, amount or trace; or page filter conditions). The gold comes from the CSV tables
through the shared rules (``benchmarks/heldout_gold.py``: ``write_set`` and the S/P/C/L/X helpers) and, for the
kinds those rules do not cover (on-chain amounts and traces, ids typed with spaces, page conditions on the url),
through ``gold_extra.py`` beside this file. Nothing here imports ont_platform.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import heldout_gold as hg  # noqa: E402
from heldout_gold import (  # noqa: E402
    BR, CLK, CTR, IMP, NOT, PUB, SES, UPD, A, B, C, D, F, L, P, S, X,
)

import gold_extra as gx  # noqa: E402
from gold_extra import AMT, TR, checksum  # noqa: E402

_OC = gx.Onchain()


def addr(nid: str) -> str:
    return _OC.nodes[nid]["address"]


def cs(nid: str) -> str:
    """The node's address in EIP-55 mixed case (as wallets and explorers print it)."""
    return checksum(addr(nid))


# ---------------------------------------------------------------------------------------------------------
# kg (examples/kg)

KG = [
    # chains whose asked class comes last, reached only through another relation
    S("홍길동 회사 나라는?", "홍길동", [("worksFor", F), ("within", F)], "chain_class_last", A, cls="Country"),
    S("홍길순이 다니는 회사는 어느나라에 잇어요?", "홍길순", [("worksFor", F), ("within", F)], "typo_word", A,
      cls="Country"),
    S("Gamma Labs bought a company a while ago. which country is that company in?", "Gamma Labs",
      [("acquired", F), ("within", F)], "chain_class_last", A, cls="Country"),
    S("감마랩스가 인수한 회사는 어느 나라 회사임?", "감마랩스", [("acquired", F), ("within", F)], "chain_class_last", A,
      cls="Country"),
    S("what country is Haneul Jung's organisation loacted in", "Haneul Jung", [("worksFor", F), ("within", F)],
      "chain_class_last", A, cls="Country"),
    S("이민지 다니는 회사 있는 도시가 어디야", "이민지", [("worksFor", F), ("within", F)], "chain_class_last", A, cls="City"),
    S("Gildong Hong's company, which country?", "Gildong Hong", [("worksFor", F), ("within", F)], "chain_class_last",
      A, cls="Country"),
    # names glued to the next word
    S("김철수회사는 어느 도시에 있어?", "김철수", [("worksFor", F), ("within", F)], "glued_name", A, cls="City"),
    S("정하늘이일하는 재단은 어디 있어요?", "정하늘", [("worksFor", F), ("within", F)], "glued_name", A, cls="Place"),
    S("에이크미본사 도시 알려줘", "에이크미", [("locatedIn", F)], "glued_name", A, cls="City"),
    S("감마랩스를세운 사람이 누구죠?", "감마랩스", [("foundedBy", B)], "glued_name", A, cls="Person"),
    # long preambles
    S("다음 주에 채용 박람회가 있어서 참가 기업들을 미리 정리하고 있는데요, 혹시 홍길순 팀장님이 다니시는 회사 본사가 "
      "어느 도시에 있는지 알 수 있을까요?", "홍길순", [("worksFor", F), ("within", F)], "preamble", A, cls="City"),
    S("I'm putting together a short briefing for my manager about local partners and one thing I still need: "
      "which city is ACME Corp headquartered in?", "ACME Corp", [("locatedIn", F)], "preamble", A, cls="City"),
    S("투자 검토 메모 쓰다가 막혔는데 ㅠ 엡실론소프트를 인수한 회사가 어디였지?", "엡실론소프트", [("acquired", B)], "preamble", A,
      cls="Company"),
    # plain and casual
    S("홍길동씨 직장은 어느 도시에 있나요?", "홍길동", [("worksFor", F), ("within", F)], "plain", A, cls="City"),
    S("Who works for Acme?", "Acme", [("worksFor", B)], "plain", A, cls="Person"),
    S("서울에 있는 회사들 다 알려줘", "서울", [("locatedIn", B, "Company")], "plain", A, cls="Company"),
    S("서울은 어느 대륙에 있음?", "서울", [("within", F)], "casual", A, cls="Continent"),
    S("판교는 어느 나라야", "판교", [("within", F)], "casual", A, cls="Country"),
    S("Tokyo is in which country again?", "Tokyo", [("within", F)], "casual", A, cls="Country"),
    S("who founded gamma labs", "gamma labs", [("foundedBy", B)], "casual", A, cls="Person"),
    S("홍 대표가 세운 회사 이름이 머였더라", "홍 대표", [("foundedBy", F)], "typo_word", A, cls="Company"),
    S("Which continent is Japan part of?", "Japan", [("within", F)], "plain", A, cls="Continent"),
    S("Minji Lee works where?", "Minji Lee", [("worksFor", F)], "casual", A, cls="Organization"),
    S("경기도는 어느 나라에 속해있어?", "경기도", [("within", F)], "typo_word", A, cls="Country"),
    # declines
    S("이민지가 다니는 회사가 있는 나라는 어디야?", "이민지", [("worksFor", F), ("within", F)], "chain_class_last", D,
      cls="Country"),
    S("최수진 회사 나라가 어디임", "최수진", [("worksFor", F), ("within", F)], "chain_class_last", D, cls="Country"),
    S("델타물산이 인수한 회사는 어느 나라에 있어?", "델타물산", [("acquired", F), ("within", F)], "chain_class_last", D,
      cls="Country"),
    S("which city is the company ACME acquired located in?", "ACME", [("acquired", F), ("within", F)],
      "chain_class_last", D, cls="City"),
    S("홍길똥이 다니는 회사 어디 있어?", "홍길똥", [("worksFor", F), ("within", F)], "typo_name", D, cls="Place"),
    S("박지민씨 회사는 어느 도시에 있나요", "박지민", [("worksFor", F), ("within", F)], "unknown_name", D, cls="City"),
    S("Junho Yoon - which city is his employer in?", "Junho Yoon", [("worksFor", F), ("within", F)], "missing_edge", D,
      cls="City"),
    S("홍길동 연봉 얼마야?", "홍길동", NOT("salary"), "not_in_ontology", D),
    S("What was Acme's revenue last year?", "Acme", NOT("revenue"), "not_in_ontology", D),
    S("홍길동이 태어난 도시는?", "홍길동", NOT("bornIn"), "not_in_ontology", D),
    S("홍길동회사가 있는 대륙은 어디임?", "홍길동", [("worksFor", F), ("within", F)], "glued_name", D, cls="Continent"),
    S("한 단계만 봐서 홍길동 회사가 있는 도시 알려줘", "홍길동", [("worksFor", F), ("within", F)], "hop_limit_small", D,
      cls="City", limit=1),
    S("Who is the CEO of Beta Inc.?", "Beta Inc.", NOT("ceoOf"), "not_in_ontology", D),
    S("안녕 ㅎㅎ 오늘 점심 뭐 먹지", None, None, "chitchat", D, why="chit-chat: no entity, no relation"),
    S("홍씨 회사 어디야?", None, None, "ambiguous", D,
      why="'홍씨' is a family name: 홍길동 and 홍길순 both fit, and no node has it as a name"),
    S("Which company acquired ACME Corp?", "ACME Corp", [("acquired", B)], "missing_edge", D, cls="Company"),
    S("김철수 이사가 세운 회사는 어디야?", "김철수", [("foundedBy", F)], "missing_edge", D, cls="Company"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain (examples/onchain)

ONCHAIN = [
    # class words with a typo
    P("n_w1에서 거래쇼 입금주소까지 3번 안에 가?", "n_w1", A, kind="class_typo", hops=3, cls="ExchangeDeposit"),
    P("n_w6 돈이 믹써로 들어갔나요?", "n_w6", A, kind="class_typo", cls="Mixer"),
    P("can n_w7 reach a brigde?", "n_w7", A, kind="class_typo", cls="Bridge"),
    P("n_ex2 에서 핫윌렛으로 간 거 있어?", "n_ex2", A, kind="class_typo", cls="ExchangeHotWallet"),
    P("does n_w5 get to an exchnage deposit address in 4 hops", "n_w5", A, kind="class_typo", hops=4,
      cls="ExchangeDeposit"),
    P("n_dex1에서 거레소 입금 주소로 두 단계 안에 닿아?", "n_dex1", A, kind="class_typo", hops=2,
      cls="ExchangeDeposit"),
    # ids typed in capitals or with a space
    P("N_W8에서 믹서까지 세 번 안에 닿아?", "N_W8", D, kind="id_case", hops=3, cls="Mixer"),
    P("N_W8 -> mixr within four transfers?", "N_W8", A, kind="id_case", hops=4, cls="Mixer"),
    P("n_c 1 에서 믹서로 가는 경로 두 단계 안에 있음?", "n_c 1", D, kind="id_space", hops=2, cls="Mixer"),
    P("n c1 to a mixer in 3 steps?", "n c1", A, kind="id_space", hops=3, cls="Mixer"),
    # addresses in mixed (checksum) case
    P(f"{cs('n_a1')} 에서 3 hops 안에 거래소 입금주소 닿아요?", cs("n_a1"), A, kind="checksum_addr", hops=3,
      cls="ExchangeDeposit"),
    P(f"Starting from {addr('n_mx1')}, can the funds reach an exchange?", addr("n_mx1"), A,
      kind="checksum_addr", cls="Exchange"),
    # hop limits in words
    P("n_a1에서 두 단계 안에 거래소 입금주소로 돈이 가?", "n_a1", A, kind="hop_words", hops=2, cls="ExchangeDeposit"),
    P("n_a1에서 한 번에 거래소로 보낸 적 있어?", "n_a1", D, kind="hop_words", hops=1, cls="Exchange"),
    P("n_c1 can it hit a mixer in two hops", "n_c1", D, kind="hop_words", hops=2, cls="Mixer"),
    P("n_hot1에서 믹서까지 세 단계 안에 갈수 있나여?", "n_hot1", D, kind="hop_words", hops=3, cls="Mixer"),
    P("Is there a route from n_w9 to a bridge within three transfers?", "n_w9", D, kind="hop_words", hops=3,
      cls="Bridge"),
    P("지갑 W1에서 지갑 W9로 돈 보낸 경로 있어?", "지갑 W1", A, kind="plain", target="지갑 W9"),
    P("n_d4에서 아무 거래소로나 돈 간 적 있음?", "n_d4", D, kind="isolated", cls="Exchange"),
    P("DEX 라우터에서 토큰 컨트랙트로 간 돈 있어?", "DEX 라우터", D, kind="plain", cls="TokenContract"),
    # amounts and totals
    AMT("n_w1이 n_ex1에 보낸 거 다 합치면 얼마임?", "between", A, source="n_w1", target="n_ex1"),
    AMT("How much ETH did n_w9 send to n_w1?", "between", A, source="n_w9", target="n_w1"),
    AMT("n_w1 → n_w9 로 간 금액 얼마야", "between", A, source="n_w1", target="n_w9"),
    AMT("n_w9에서 n_ct1로 얼마 보냈어요?", "between", A, source="n_w9", target="n_ct1"),
    AMT("n_w1 지갑에서 나간 돈 총액 알려주세욥", "out", A, source="n_w1"),
    AMT("total ETH sent out of n_mx1?", "out", A, source="n_mx1", token="ETH"),
    AMT("n_hot1 로 들어온 ETH 총합 얼마?", "in", A, target="n_hot1", token="ETH"),
    AMT("n_w2가 보낸 이더 총액 (토큰 말고 ETH만)", "out", A, source="n_w2", token="ETH"),
    AMT("제가 컴플라이언스 보고서를 쓰는 중인데요, 상사가 믹서에서 나온 돈이 어디로 흘렀는지 물어봐서 하나씩 보고 있어요. "
        "일단 n_w7 주소에서 빠져나간 총액이 얼마인지 알려주실 수 있나요?", "out", A, source="n_w7", kind="preamble"),
    AMT("n_d4가 n_ex1한테 보낸 금액은?", "between", D, source="n_d4", target="n_ex1"),
    AMT("How much did n_q7 send to n_ex2?", "between", D, source="n_q7", target="n_ex2"),
    AMT("n_ex1에서 n_w1로 보낸 금액 얼마야?", "between", D, source="n_ex1", target="n_w1"),
    # traces, forward and back
    TR("n_w4 돈 2단계 안에 어디로 흘러갔나여?", "n_w4", "forward", A, hops=2),
    TR("Where did the money from n_a1 go, one hop out?", "n_a1", "forward", A, hops=1),
    TR("n_ex2로 들어온 돈 출처 세 단계까지 거슬러 올라가 줘", "n_ex2", "backward", A, hops=3),
    TR("quick context: our exchange flagged deposits landing in n_hot1 last week and compliance wants the upstream "
       "senders. who sent funds that ended up in n_hot1, tracing back 2 transfers?", "n_hot1", "backward", A, hops=2,
       kind="preamble"),
    TR("n_d4 돈 어디로 갔는지 추적해줘", "n_d4", "forward", D, hops=3),
    # same-owner clusters in everyday words
    C("n_w5랑 같은 사람 거 같은 지갑들 뭐 있어?", "n_w5", A),
    C("Which wallets probably belong to the same person as n_h1?", "n_h1", A),
    C("n_w1 주인이 같은 다른 주소도 있나요", "n_w1", D),
    C("N_B2 같은 주인 지갑 찾아줘", "N_B2", A, kind="id_case"),
    # what type an address is
    L(f"{addr('n_hot1')} 이거 무슨 주소야?", addr("n_hot1"), kind="addr_type"),
    L("what kind of address is n_ct1", "n_ct1", kind="addr_type"),
    L(f"{addr('n_dex1').upper()} 무슨 타입임", addr("n_dex1").upper(), kind="addr_type"),
    L(f"{cs('n_w7')} 는 어떤 종류의 주소예요?", cs("n_w7"), kind="addr_type"),
    # questions the graph cannot answer
    X("n_a1 주인 이름이 뭐야?", "owner", "owners' names are not in the graph", start="n_a1"),
    X("What's the current balance of n_ex1?", "balance", "balances are not in the graph", start="n_ex1"),
    X("n_w7 가스비 얼마 냈어?", "gas", "gas fees are not in the graph", start="n_w7"),
    X("오늘 이더리움 시세 어때", "chitchat", "prices are not in the graph; chit-chat"),
]

# ---------------------------------------------------------------------------------------------------------
# pages (examples/pages)

pg = hg.Pages()
Y0, Y1 = pg.year(0)
LY0, LY1 = pg.year(-1)
LM0, LM1 = pg.last_month()


def R(q: str, conds: list, kind: str) -> dict:
    return {"q": q, "conds": conds, "kind": kind}


def N(q: str, status: str, kind: str, why: str, concept: str | None = None) -> dict:
    return {"q": q, "status": status, "kind": kind, "why": why, "concept": concept}


BLOG = ("url", "contains", "https://blog.example.com/")
NOBLOG = ("url", "not_contains", "https://blog.example.com/")

PAGES = [
    # a percentage on a fraction column
    R("클릭률 5% 넘는 페이지 보여줘", [(CTR, ">", 0.05)], "pct_fraction"),
    R("이탈률 70% 이상인 페이지 목록 좀", [(BR, ">=", 0.7)], "pct_fraction"),
    R("pages with CTR under 1% but more than 1,000 impressions", [(CTR, "<", 0.01), (IMP, ">", 1000)],
      "pct_fraction"),
    R("Pages with a bounce rate between 40% and 50%?", [(BR, ">=", 0.4), (BR, "<=", 0.5)], "pct_fraction"),
    R("클릭 500 넘고 클릭율 4% 초과인 페이지", [(CLK, ">", 500), (CTR, ">", 0.04)], "pct_fraction"),
    # absolute dates and this year
    R("2025년 3월 이후 게시된 페이지 중에 세션 100 넘는 거", [(PUB, ">=", hg.dt.date(2025, 3, 1)), (SES, ">", 100)],
      "abs_date"),
    R("2026년 9월에 수정된 페이지 뭐뭐 있어?", [(UPD, ">=", hg.dt.date(2026, 9, 1)), (UPD, "<=", hg.dt.date(2026, 9, 30))],
      "abs_date"),
    R("Which pages got zero clicks but were updated on or after September 1, 2026?",
      [(CLK, "=", 0), (UPD, ">=", hg.dt.date(2026, 9, 1))], "abs_date"),
    R("2023년보다 전에 게시된 페이지", [(PUB, "<", hg.dt.date(2023, 1, 1))], "abs_date"),
    R("pages published in 2024", [(PUB, ">=", hg.dt.date(2024, 1, 1)), (PUB, "<=", hg.dt.date(2024, 12, 31))],
      "abs_date"),
    R("올해 게시된 페이지", [(PUB, ">=", Y0), (PUB, "<=", Y1)], "this_year"),
    R("pages published this year with zero clicks", [(PUB, ">=", Y0), (PUB, "<=", Y1), (CLK, "=", 0)], "this_year"),
    R("올해 들어서 한번도 수정 안된 페이지 있어?", [(UPD, "<", Y0)], "this_year"),
    R("올해 올린 페이지 중 노출 2000 넘는 것들", [(PUB, ">=", Y0), (PUB, "<=", Y1), (IMP, ">", 2000)], "this_year"),
    # an exclusion next to a value condition
    R("블로그 빼고 노출 10000 이상인 페이지", [NOBLOG, (IMP, ">=", 10000)], "exclusion"),
    R("Impressions over 5,000, excluding the blog", [NOBLOG, (IMP, ">", 5000)], "exclusion"),
    R("노출이 1000 이하인 페이지, 단 클릭 0인 건 제외", [(IMP, "<=", 1000), (CLK, "!=", 0)], "exclusion"),
    R("이탈률 50% 미만이고 세션 500 이상인데 세일 페이지는 빼줘", [(BR, "<", 0.5), (SES, ">=", 500),
                                                ("url", "not_contains", "/c/sale")], "exclusion"),
    R("블로그 글 중에 이탈률 60% 넘는 거, 태그 페이지는 빼고", [BLOG, ("url", "not_contains", "/tags/"),
                                              (BR, ">", 0.6)], "exclusion"),
    # plain / dictionary phrases / casual typing
    R("노출은 꽤 되는데 클릭은 거의 없는 페이지", [(IMP, ">=", 1000), (CLK, "<=", 10)], "plain"),
    R("세션 1000 이상 페이지", [(SES, ">=", 1000)], "plain"),
    R("작년에 업데이트된 페이지 알려주세여", [(UPD, ">=", LY0), (UPD, "<=", LY1)], "casual"),
    R("지난달 수정됐고 노출 만 이상인 페이지", [(UPD, ">=", LM0), (UPD, "<=", LM1), (IMP, ">=", 10000)], "casual"),
    R("show me pages with more than 20000 impressions", [(IMP, ">", 20000)], "plain"),
    R("클릭수 0 인 페이지 전부", [(CLK, "=", 0)], "plain"),
    R("노출수 1000이상 클릭 하나도 없는 페이지좀", [(IMP, ">=", 1000), (CLK, "=", 0)], "casual"),
    # rank conditions in other words: the inventory has no rank column
    N("검색 순위 10위 안에 드는 페이지 알려줘", "unsupported", "rank_words", "no rank column", concept="순위"),
    N("Pages ranking outside the top 20?", "unsupported", "rank_words", "no rank column", concept="ranking"),
    N("평균 게재순위가 5위보다 좋은 페이지", "unsupported", "rank_words", "no position column", concept="게재순위"),
    N("하위권으로 밀려난 페이지들 뽑아줘", "unsupported", "rank_words", "no rank column", concept="하위권"),
    N("which pages have an average position worse than 30", "unsupported", "rank_words", "no position column",
      concept="average position"),
    # inequality on a code column: the inventory has none
    N("상태 코드가 200이 아닌 페이지", "unsupported", "code_column", "no status code column", concept="상태 코드"),
    N("pages whose HTTP status code is 400 or higher", "unsupported", "code_column", "no status code column",
      concept="status code"),
    N("응답코드 3xx 인 페이지만", "unsupported", "code_column", "no response code column", concept="응답코드"),
    # other declines
    N("성과 좋은 페이지 좀 골라줘", "clarify", "vague_measure", "no measure named"),
    N("노출 50% 넘는 페이지", "clarify", "pct_on_count", "a percentage on a count column"),
    N("clicks over 100 or sessions over 200", "clarify", "or_condition", "an 'or' of two conditions"),
    N("전환율 높은 페이지 알려줘", "unsupported", "no_column", "no conversion column", concept="전환율"),
    N("2026년 2월 30일 이후 수정된 페이지", "clarify", "impossible_date", "February 30 does not exist"),
    N("pages with high revenue", "unsupported", "no_column", "no revenue column", concept="revenue"),
    N("평균 체류시간 2분 넘는 페이지", "unsupported", "no_column", "no time-on-page column", concept="체류시간"),
]

# ---------------------------------------------------------------------------------------------------------
# films (examples/films)

FILMS = [
    # chains whose asked class comes last
    S("겨울 정거장 제작사 본사는 어느 나라에 있어?", "겨울 정거장", [("producedBy", F), ("within", F)], "chain_class_last", A,
      cls="Country"),
    S("Which country is the studio behind The Red Line based in?", "The Red Line", [("producedBy", F), ("within", F)],
      "chain_class_last", A, cls="Country"),
    S("마지막 나룻배가 상영된 영화제는 어느 나라에서 열려여?", "마지막 나룻배", [("screenedAt", F), ("within", F)],
      "chain_class_last", A, cls="Country"),
    S("what country hosts the festival where House of Tides was screened", "House of Tides",
      [("screenedAt", F), ("within", F)], "chain_class_last", A, cls="Country"),
    S("새벽별 국제영화제는 어느 나라에서 하는 거임?", "새벽별 국제영화제", [("heldIn", F), ("within", F)], "chain_class_last", A,
      cls="Country"),
    S("Lumiere Nord is based in which country?", "Lumiere Nord", [("basedIn", F), ("within", F)], "chain_class_last",
      A, cls="Country"),
    S("겨울 정거장 감독이 태어난 도시는 어느 나라에 있어요?", "겨울 정거장", [("directedBy", F), ("bornIn", F), ("locatedIn", F)],
      "chain_class_last", A, cls="Country"),
    # names glued to the next word
    S("달빛 항구감독이 누구야?", "달빛 항구", [("directedBy", F)], "glued_name", A, cls="Director"),
    S("한지우감독이랑 같이 작업한 사람 누구?", "한지우", [("collaboratedWith", F)], "glued_name", A, cls="Person"),
    S("사토 유나출연한 영화 감독 누구임", "사토 유나", [("starring", B), ("directedBy", F)], "glued_name", A, cls="Director"),
    S("푸른강 필름이만든 영화들 알려줘", "푸른강 필름", [("producedBy", B)], "glued_name", A, cls="Film"),
    S("아카리는어느 나라 도시야?", "아카리", [("within", F)], "glued_name", A, cls="Country"),
    # long preambles
    S("영화제 프로그래머 면접을 앞두고 예전 수상작들을 복습하는 중인데요, 조수의 집이 받은 상은 어느 영화제에서 주는 상인가요?",
      "조수의 집", [("wonAward", F), ("presentedAt", F)], "preamble", A, cls="Festival"),
    S("My film club is doing a Korean cinema night next month and I'm writing the flyer. Could you tell me "
      "which films Seo Minjae acted in?", "Seo Minjae", [("starring", B)], "preamble", A, cls="Film"),
    # plain and casual
    S("한지우가 연출한 영화 뭐뭐 있어?", "한지우", [("directedBy", B)], "plain", A, cls="Film"),
    S("Where was Han Jiwoo born?", "Han Jiwoo", [("bornIn", F)], "plain", A, cls="City"),
    S("who stared in Winter Station?", "Winter Station", [("starring", F)], "typo_word", A, cls="Actor"),
    S("Which festival is the Golden Star Award presented at?", "Golden Star Award", [("presentedAt", F)], "plain", A,
      cls="Festival"),
    S("who has rei kimura collaborated with", "rei kimura", [("collaboratedWith", F)], "casual", A, cls="Person"),
    S("영화 청하 감독이 누구였지", "청하", [("directedBy", F)], "two_nodes_one_name", A, cls="Director"),
    S("청하시는 어느 나라에 있는 도시임?", "청하시", [("within", F)], "casual", A, cls="Country"),
    S("마지막 나룻배 제작사들 본사 어디어디야?", "마지막 나룻배", [("producedBy", F), ("basedIn", F)], "casual", A,
      cls="City"),
    S("유리 정원 만든 제작사가 어디어디에요?", "유리 정원", [("producedBy", F)], "casual", A, cls="Studio"),
    S("what movies did blue river films produce", "blue river films", [("producedBy", B)], "casual", A, cls="Film"),
    # declines
    S("한지후 감독 영화 뭐 있어?", "한지후", [("directedBy", B)], "typo_name", D, cls="Film"),
    S("Who directed The Silent River?", "The Silent River", [("directedBy", F)], "unknown_name", D, cls="Director"),
    S("붉은 선은 어디서 개봉했어?", "붉은 선", [("premieredIn", F)], "ungrounded", D, cls="City"),
    S("박도현 감독 고향이 어디예요?", "박도현", [("bornIn", F)], "missing_edge", D, cls="City"),
    S("북쪽 등대 개봉 도시는?", "북쪽 등대", [("premieredIn", F)], "missing_edge", D, cls="City"),
    S("Where was Thomas Martin born?", "Thomas Martin", [("bornIn", F)], "ungrounded", D, cls="City"),
    S("달빛 항구 제작비 얼마 들었어?", "달빛 항구", NOT("budget"), "not_in_ontology", D),
    S("조수의 집이 받은 상을 주는 영화제가 열리는 도시는 어느 나라에 있어?", "조수의 집",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "chain_class_last", D, cls="Country"),
    S("Which country is Han Jiyu from?", "Han Jiyu", [("bornIn", F)], "chain_class_last", D, cls="Country"),
    S("청하에 대해 알려줘", None, None, "ambiguous", D,
      why="'청하' is both a film and a city, and no relation is asked"),
    S("윤세하랑 같이 작업한 감독 누구야?", "윤세하", [("collaboratedWith", F)], "ungrounded", D, cls="Director"),
    S("Which festival hands out the Silver Ripple Critics Prize?", "Silver Ripple Critics Prize",
      [("presentedAt", F)], "missing_edge", D, cls="Festival"),
    S("유리 정원 박스오피스 수익 알려줘", "유리 정원", NOT("boxOffice"), "not_in_ontology", D),
    S("Within two steps only: which country is the studio of Winter Station based in?", "Winter Station",
      [("producedBy", F), ("within", F)], "hop_limit_small", D, cls="Country", limit=2),
    S("Clare Moreau directed which films?", "Clare Moreau", [("directedBy", B)], "typo_name", D, cls="Film"),
    S("한울 시네마 본사는 어디 있어?", "한울 시네마", [("basedIn", F)], "missing_edge", D, cls="City"),
]


# ---------------------------------------------------------------------------------------------------------


def add_why_and_meaning(path: Path, onchain: list[dict], pages: list[dict]) -> None:
    """Give every decline a short ``why`` and every on-chain / pages item its meaning, in place."""
    items = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    specs = {"onchain": iter(onchain), "pages": iter(pages)}
    for it in items:
        if it["domain"] not in specs:
            continue
        s = next(specs[it["domain"]])
        assert s["q"] == it["question"]
        it["meaning"] = {k: v for k, v in s.items() if k not in ("q", "expect", "kind", "why") and v is not None}
        g = it["gold"]
        if it["gold_kind"] != "decline" or g.get("why"):
            continue
        if it["domain"] == "pages":
            g["why"] = s["why"]
        elif g.get("intent") == "no_path":
            g["why"] = f"no transfer path from {g['start']} to {g['target']} within {g['hops']} hops"
        elif g.get("intent") == "cluster_lookup":
            g["why"] = f"no same_entity link touches {g['start']}"
        assert g.get("why"), it
    with path.open("w", encoding="utf-8") as fh:
        for it in items:
            fh.write(json.dumps(it, ensure_ascii=False, default=str) + "\n")


def main() -> None:
    for s in ONCHAIN:  # every name of an amount question is in its text
        for key in ("source", "target"):
            if s.get(key):
                assert s[key] in s["q"], (s["q"], s[key])
    hg.Onchain = gx.Onchain  # ids typed with a space, amounts, traces
    hg.Pages = gx.Pages      # conditions on the url next to the shared ones
    hg.write_set(HERE, KG, ONCHAIN, PAGES, FILMS, verbose="-v" in sys.argv)
    add_why_and_meaning(HERE / "questions.jsonl", ONCHAIN, PAGES)


if __name__ == "__main__":
    main()
