"""Held-out question set 4: the questions and what each one means; the gold is computed, never typed.

How this set was written
------------------------
A writer wrote every question by hand for this set, without reading how the library reads questions:
nothing under ``ont_platform/qa/``, no tests, no ``docs/questions.md``, no other held-out set's questions
(``benchmarks/heldout2/`` and ``heldout3/`` not opened, except ``heldout2/score.py``, which ``score.py`` runs), no
``questions*.jsonl`` file, and no synonym list (``skos:altLabel`` lines, cue or lexicon files). What it read:
the example tables (``examples/kg``, ``examples/onchain``, ``examples/pages``, ``examples/films``: CSV rows,
``meta.json``, ``columns.csv``, ``predicates.csv``, READMEs), the class and property names and ``rdfs:label`` of
the four ontologies, the README and ``docs/`` pages other than ``questions.md``, and ``benchmarks/heldout_gold.py``.
The library was not run on any of these questions while they were written, and none was changed after seeing
an answer.

The questions are meant to read like what people type: Korean in casual and polite forms (반말, 존댓말, -습니까,
-냐, -지?, -던가, -려나), honorifics, predicate nouns, a question inside a longer chat message, missing spaces, a
typo or two, class-first word order, "바로/직접" (one hop) and "N단계/N홉 이내" hop limits; English with relative
clauses, passives, possessives, "could you tell me", lower case without punctuation, "directly", "within two
steps". About four in ten have a refusal as their right outcome: unknown and near-miss names, relations the
ontologies lack, a relation that reaches the wrong class, chains over the hop limit, missing or ungrounded
edges, vague or unsupported page measures, ranking, aggregation, ``or``, impossible dates and chit-chat.

Each entry gives the meaning only: the start name as written, the relation chain with its direction (F along
the stored edge, B against it), the asked class and the hop limit (kg, films); the start, target and hop limit
(onchain); or the filter conditions (pages). ``heldout_gold.py`` turns the meaning into the gold, by the rules in
its docstring; ``expect`` (A answer, D decline) is only a check of what the writer meant.

Run ``.venv/bin/python benchmarks/heldout4/build.py [-v]`` to write ``questions.jsonl``. Do not use this set for
tuning.
"""
import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import BR, CLK, CTR, IMP, NOT, PUB, SES, UPD, A, B, C, D, F, L, P, Pages, S, X, write_set  # noqa: E402

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------------------
# kg: people, organisations and places

KG_SPECS = [
    # answers, Korean
    S("홍길동 씨가 다니는 회사 이름이 뭐였더라?", "홍길동", [("worksFor", F)], "one_hop_던가", A, cls="Company"),
    S("김철수 이사님께서 근무하시는 곳은 어느 회사인가요?", "김철수", [("worksFor", F)], "one_hop_honorific", A,
      cls="Company"),
    S("에이크미 다니는 사람들 누구누구야?", "에이크미", [("worksFor", B)], "backward_multi", A, cls="Person"),
    S("서울에 본사 둔 회사 다 알려줘", "서울", [("locatedIn", B)], "backward_class_filter_multi", A, cls="Company"),
    S("서울에 있는 조직들 전부 말해 줄래요?", "서울", [("locatedIn", B)], "backward_superclass_multi", A,
      cls="Organization"),
    S("도시 중에 대한민국에 속한 곳은 어디어디 있어?", "대한민국", [("partOf", B)], "class_first_multi", A, cls="City"),
    S("홍길동이 다니는 회사는 어느 나라에 있습니까?", "홍길동", [("worksFor", F), ("locatedIn", F)], "within_extend_습니까",
      A, cls="Country"),
    S("이민지가 다니는 회사 있는 도시가 어디냐", "이민지", [("worksFor", F), ("locatedIn", F)], "within_extend_냐", A,
      cls="City"),
    S("감마랩스가 인수한 회사 어디지?", "감마랩스", [("acquired", F)], "one_hop_지", A, cls="Company"),
    S("엡실론소프트를 인수한 회사는 어디였던가", "엡실론소프트", [("acquired", B)], "backward_던가", A, cls="Company"),
    S("윤준호님이 창업한 회사는 어디에 있는지 아세요?", "윤준호", [("foundedBy", F), ("locatedIn", F)],
      "two_hop_honorific", A, cls="Place"),
    S("에이크미를 세운 사람이 누구죠?", "에이크미", [("foundedBy", B)], "backward_one_hop", A, cls="Person"),
    S("정하늘이 일하는 곳 어디임?", "정하늘", [("worksFor", F)], "one_hop_no_class", A),
    S("한빛재단은 어느 도시에 있나요", "한빛재단", [("locatedIn", F)], "one_hop_city", A, cls="City"),
    S("델타물산 본사 있는 나라가 어디지?", "델타물산", [("locatedIn", F)], "within_extend_country", A, cls="Country"),
    S("도쿄는 무슨 대륙에 속해?", "도쿄", [("partOf", F)], "within_extend_continent", A, cls="Continent"),
    S("판교는 어느 나라 땅이야?", "판교", [("partOf", F)], "within_extend_three", A, cls="Country"),
    S("성남시는 어디에 속한 도시야?", "성남시", [("partOf", F)], "alias_one_hop", A),
    S("아시아에 속한 나라들은?", "아시아", [("partOf", B)], "backward_multi", A, cls="Country"),
    S("부산에 있는 회사는 어디에요?", "부산", [("locatedIn", B)], "backward_one", A, cls="Company"),
    S("베타에서 일하는 사람은 누구니", "베타", [("worksFor", B)], "backward_one", A, cls="Person"),
    S("경기도에 속한 도시는?", "경기도", [("partOf", B)], "backward_class_filter", A, cls="City"),
    S("에이크미는 어느 대륙에 있어?", "에이크미", [("locatedIn", F)], "within_extend_three", A, cls="Continent"),
    S("판교테크노밸리에 사무실 있는 회사 어디야", "판교테크노밸리", [("locatedIn", B)], "alias_backward", A,
      cls="Company"),
    S("홍 팀장 회사가 있는 도시는 어디야?", "홍 팀장", [("worksFor", F), ("locatedIn", F)], "alias_two_hop", A,
      cls="City"),
    S("감마랩스가 인수한 회사 사무실은 어느 도시에 있나요?", "감마랩스", [("acquired", F), ("locatedIn", F)], "two_hop",
      A, cls="City"),
    S("에이크미 주식회사는 어디에 본사가 있나요?", "에이크미 주식회사", [("locatedIn", F)], "alias_one_hop", A),
    S("5단계 이내로 찾아봐 줘. 이민지가 다니는 회사는 어느 나라에 있어?", "이민지", [("worksFor", F), ("locatedIn", F)],
      "stated_limit_5", A, cls="Country", limit=5),
    S("에이크미가 바로 위치한 도시는?", "에이크미", [("locatedIn", F)], "directly_one_hop", A, cls="City", limit=1),
    S("홍길동이다니는회사 어느도시에있어", "홍길동", [("worksFor", F), ("locatedIn", F)], "no_spaces", A, cls="City"),
    # answers, English
    S("Who works for Acme?", "Acme", [("worksFor", B)], "en_backward_multi", A, cls="Person"),
    S("whcih company does Gildong Hong work for", "Gildong Hong", [("worksFor", F)], "en_lowercase", A,
      cls="Company"),
    S("Could you tell me which city Beta Inc. is based in?", "Beta Inc.", [("locatedIn", F)], "en_could_you", A,
      cls="City"),
    S("What country is Delta Trading in?", "Delta Trading", [("locatedIn", F)], "en_within_extend", A,
      cls="Country"),
    S("Who founded Gamma Labs?", "Gamma Labs", [("foundedBy", B)], "en_backward", A, cls="Person"),
    S("Which company was Epsilon Soft acquired by?", "Epsilon Soft", [("acquired", B)], "en_passive", A,
      cls="Company"),
    S("Acme's city?", "Acme", [("locatedIn", F)], "en_possessive", A, cls="City"),
    S("what continent is south korea part of", "south korea", [("partOf", F)], "en_lowercase", A, cls="Continent"),
    S("Which companies are located in Seoul?", "Seoul", [("locatedIn", B)], "en_backward_multi", A, cls="Company"),
    S("Which cities belong directly to Korea?", "Korea", [("partOf", B)], "en_directly_multi", A, cls="City",
      limit=1),
    S("Within two steps, where is the company Junho Yoon founded?", "Junho Yoon", [("foundedBy", F), ("locatedIn", F)],
      "en_within_two", A, limit=2),
    S("Which city is the organization that Haneul Jung works for in?", "Haneul Jung",
      [("worksFor", F), ("locatedIn", F)], "en_relative_clause", A, cls="City"),
    S("Which continent is Busan in?", "Busan", [("partOf", F)], "en_within_extend", A, cls="Continent"),
    S("Within two hops, what continent does Tokyo belong to?", "Tokyo", [("partOf", F)], "en_within_two", A,
      cls="Continent", limit=2),
    # declines, Korean
    S("박영희가 다니는 회사 알려줘", "박영희", [("worksFor", F)], "unknown_name", D, cls="Company"),
    S("홍길둥이 다니는 회사는 어디야?", "홍길둥", [("worksFor", F)], "near_miss_name", D, cls="Company"),
    S("홍 사장이 일하는 회사는 어디에 있어요?", "홍 사장", [("worksFor", F), ("locatedIn", F)], "near_miss_alias", D),
    S("최수진이 근무하는 회사는 어느 도시에 있죠?", "최수진", [("worksFor", F), ("locatedIn", F)], "ungrounded", D,
      cls="City"),
    S("윤준호가 다니는 회사가 어디냐?", "윤준호", [("worksFor", F)], "missing_edge_founder", D, cls="Company"),
    S("에이크미가 인수한 회사 어디야", "에이크미", [("acquired", F)], "ungrounded_no_chunk", D, cls="Company"),
    S("베타를 인수한 회사는 어디인가요?", "베타", [("acquired", B)], "ungrounded_backward", D, cls="Company"),
    S("홍길동 연봉이 얼마야?", "홍길동", NOT("salary"), "no_relation", D),
    S("에이크미 직원 수는 몇 명입니까?", "에이크미", NOT("employeeCount"), "no_relation_count", D),
    S("김철수는 어디서 태어났어?", "김철수", NOT("bornIn"), "no_relation", D),
    S("홍 대표가 창업한 회사 소재 도시의 국가가 속한 대륙 알려줘", "홍 대표",
      [("foundedBy", F), ("locatedIn", F), ("partOf", F), ("partOf", F)], "four_hops", D, cls="Continent"),
    S("에이크미가 직접 속한 나라는?", "에이크미", [("locatedIn", F)], "directly_wrong_class", D, cls="Country",
      limit=1),
    S("2단계 이내로만 봐서, 이민지 회사가 있는 도시 어디야?", "이민지", [("worksFor", F), ("locatedIn", F)],
      "stated_limit_2", D, cls="City", limit=2),
    S("감마랩스는 어느 나라 회사야?", "감마랩스", [("locatedIn", F)], "within_over_limit", D, cls="Country"),
    S("정하늘이 다니는 회사는 어디예요?", "정하늘", [("worksFor", F)], "wrong_class_foundation", D, cls="Company"),
    S("홍길동이 세운 도시가 어디야?", "홍길동", [("foundedBy", F)], "wrong_class", D, cls="City"),
    S("한빛재단이 인수한 회사는?", "한빛재단", [("acquired", F)], "missing_edge", D, cls="Company"),
    S("엡실론소프트에 다니는 직원 있어?", "엡실론소프트", [("worksFor", B)], "missing_edge_backward", D, cls="Person"),
    S("대한민국의 수도는 어디인가요?", "대한민국", NOT("capital"), "no_relation", D),
    S("안녕! 오늘 점심 뭐 먹을까?", None, None, "chit_chat", D, why="chit-chat, no entity"),
    S("회사들 중에 직원이 제일 많은 데가 어디야?", None, None, "ranking", D, why="ranking over a count"),
    # declines, English
    S("Who does Younghee Park work for?", "Younghee Park", [("worksFor", F)], "en_unknown_name", D),
    S("Where is Gildong Hongg's company?", "Gildong Hongg", [("worksFor", F), ("locatedIn", F)], "en_near_miss", D),
    S("What is Acme's annual revenue?", "Acme", NOT("revenue"), "en_no_relation", D),
    S("Which company did Sujin Choi work for?", "Sujin Choi", [("worksFor", F)], "en_ungrounded", D, cls="Company"),
    S("Which company acquired Beta Inc.?", "Beta Inc.", [("acquired", B)], "en_ungrounded", D, cls="Company"),
    S("What continent is Cheolsu Kim's company in?", "Cheolsu Kim", [("worksFor", F), ("locatedIn", F)],
      "en_over_limit", D, cls="Continent"),
    S("Do you happen to know which country Minji Lee's company is in?", "Minji Lee",
      [("worksFor", F), ("locatedIn", F)], "en_over_limit", D, cls="Country"),
    S("Which country was Minji Lee born in?", "Minji Lee", NOT("bornIn"), "en_no_relation", D),
    S("Who is the CEO of Delta Trading?", "Delta Trading", NOT("ceo"), "en_no_relation", D),
    S("which companies are directly in South Korea", "South Korea", [("locatedIn", B)], "en_missing_edge", D,
      cls="Company", limit=1),
    S("Which continent is Tokyo directly part of?", "Tokyo", [("partOf", F)], "en_directly_wrong_class", D,
      cls="Continent", limit=1),
    S("Is Gildong Hong married? who's the spouse", "Gildong Hong", NOT("spouse"), "en_no_relation", D),
]

# ---------------------------------------------------------------------------------------------------------
# films: the example domain with its own ontology

FILMS_SPECS = [
    # answers, Korean
    S("달빛 항구 감독이 누구야?", "달빛 항구", [("directedBy", F)], "one_hop", A, cls="Director"),
    S("한지우 감독님이 연출하신 작품들 알려주세요", "한지우", [("directedBy", B)], "backward_multi_honorific", A,
      cls="Film"),
    S("한지유가 나온 영화 뭐뭐 있어?", "한지유", [("starring", B)], "backward_multi_lookalike", A, cls="Film"),
    S("서민제 출연작은?", "서민제", [("starring", B)], "backward_lookalike", A, cls="Film"),
    S("서민재가 출연한 영화들을 연출한 감독들은 누구누구야?", "서민재", [("starring", B), ("directedBy", F)],
      "two_hop_multi", A, cls="Director"),
    S("이다혜가 출연한 영화의 감독은 누구인가요?", "이다혜", [("starring", B), ("directedBy", F)], "two_hop", A,
      cls="Director"),
    S("겨울 정거장 만든 제작사 본사는 어느 도시야", "겨울 정거장", [("producedBy", F), ("basedIn", F)], "two_hop", A,
      cls="City"),
    S("겨울 정거장을 제작한 회사의 본사는 어느 나라에 있습니까?", "겨울 정거장", [("producedBy", F), ("basedIn", F)],
      "within_extend_습니까", A, cls="Country"),
    S("유리 정원 제작사 어디어디야", "유리 정원", [("producedBy", F)], "multi", A, cls="Studio"),
    S("마지막 나룻배 제작사들 본사가 있는 도시는?", "마지막 나룻배", [("producedBy", F), ("basedIn", F)], "two_hop_multi",
      A, cls="City"),
    S("푸른강 필름에서 만든 영화 목록 좀", "푸른강 필름", [("producedBy", B)], "backward_multi", A, cls="Film"),
    S("새벽별 국제영화제에서 상영된 영화들 뭐가 있지?", "새벽별 국제영화제", [("screenedAt", B)], "backward_multi", A,
      cls="Film"),
    S("새벽별영화제는 어디서 열려?", "새벽별영화제", [("heldIn", F)], "alias_one_hop", A, cls="City"),
    S("황금별상은 어느 영화제에서 주는 상이야?", "황금별상", [("presentedAt", F)], "one_hop", A, cls="Festival"),
    S("황금별상 받은 영화는 뭐지?", "황금별상", [("wonAward", B)], "backward_one_grounded", A, cls="Film"),
    S("은물결 비평가상 수상작 알려줘", "은물결 비평가상", [("wonAward", B)], "backward_multi", A, cls="Film"),
    S("클레르 모로랑 같이 작업한 사람 누구야", "클레르 모로", [("collaboratedWith", F)], "symmetric", A),
    S("해윤 출신 배우는 누구얌?", "해윤", [("bornIn", B)], "backward_class_filter", A, cls="Actor"),
    S("가람에서 태어난 사람들 다 알려줘", "가람", [("bornIn", B)], "backward_multi", A, cls="Person"),
    S("도시 중에 일본에 있는 데는 어디어디야?", "일본", [("locatedIn", B)], "class_first_multi", A, cls="City"),
    S("청하는 어느 나라에 있나요?", "청하", [("locatedIn", F)], "shared_name_city", A, cls="Country"),
    S("영화 청하를 연출한 사람은 누구야?", "청하", [("directedBy", F)], "shared_name_film", A),
    S("청하에서 나고 자란 배우가 누구더라", "청하", [("bornIn", B)], "shared_name_더라", A, cls="Actor"),
    S("파도 영화제는 어느 나라에서 열리냐", "파도 영화제", [("heldIn", F)], "within_extend_냐", A, cls="Country"),
    S("아오바 관객상 주는 영화제는 어느 도시에서 개최돼?", "아오바 관객상", [("presentedAt", F), ("heldIn", F)], "two_hop",
      A, cls="City"),
    S("정우석이 출연한 영화들 제작사는?", "정우석", [("starring", B), ("producedBy", F)], "two_hop_multi", A,
      cls="Studio"),
    S("레아 뒤발이 나온 영화들 감독은 누구려나", "레아 뒤발", [("starring", B), ("directedBy", F)], "two_hop_려나", A,
      cls="Director"),
    S("조수의 집이 개봉한 도시는 어느 나라에 있어?", "조수의 집", [("premieredIn", F), ("locatedIn", F)], "two_hop", A,
      cls="Country"),
    S("4단계까지 따라가도 돼. 달빛 항구가 받은 상을 주는 영화제가 열리는 도시는 어느 나라야?", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "stated_limit_4", A, cls="Country",
      limit=4),
    S("뤼미에르노르가 제작한 영화", "뤼미에르노르", [("producedBy", B)], "no_space_multi", A, cls="Film"),
    S("어제 친구랑 영화 얘기하다가 궁금해졌는데, 종이새 감독이 누구였지?", "종이새", [("directedBy", F)],
      "buried_in_chat", A, cls="Director"),
    # answers, English
    S("Who directed The Last Ferry?", "The Last Ferry", [("directedBy", F)], "en_one_hop", A),
    S("Who was The Red Line directed by?", "The Red Line", [("directedBy", F)], "en_passive", A),
    S("Which director made the film that Dahye Lee starred in?", "Dahye Lee", [("starring", B), ("directedBy", F)],
      "en_relative_clause", A, cls="Director"),
    S("what films has Jiyu Han appeared in", "Jiyu Han", [("starring", B)], "en_lowercase_multi", A, cls="Film"),
    S("Could you tell me which studio produced House of Tides?", "House of Tides", [("producedBy", F)],
      "en_could_you", A, cls="Studio"),
    S("Winter Station's director was born in which city?", "Winter Station", [("directedBy", F), ("bornIn", F)],
      "en_possessive", A, cls="City"),
    S("Which films were screened at the Aoba Film Festival?", "Aoba Film Festival", [("screenedAt", B)],
      "en_passive", A, cls="Film"),
    S("Who has Rei Kimura collaborated with?", "Rei Kimura", [("collaboratedWith", F)], "en_symmetric", A),
    S("Which actors were born in Seorin?", "Seorin", [("bornIn", B)], "en_backward_multi", A, cls="Actor"),
    S("which cities are in France", "France", [("locatedIn", B)], "en_lowercase_multi", A, cls="City"),
    S("In which country is Kumo Studio headquartered?", "Kumo Studio", [("basedIn", F)], "en_within_extend", A,
      cls="Country"),
    S("Moonstone Pictures' films?", "Moonstone Pictures", [("producedBy", B)], "en_possessive_multi", A, cls="Film"),
    S("Where was the Glass Garden first released?", "Glass Garden", [("premieredIn", F)], "en_passive", A),
    S("which films did Noah Miller star in, directly", "Noah Miller", [("starring", B)], "en_directly_multi", A,
      cls="Film", limit=1),
    S("Within two steps: who directed the films that Wooseok Jung starred in?", "Wooseok Jung",
      [("starring", B), ("directedBy", F)], "en_within_two_multi", A, cls="Director", limit=2),
    S("Do you happen to know who the cast of Paper Birds were?", "Paper Birds", [("starring", F)], "en_multi", A,
      cls="Actor"),
    # declines, Korean
    S("강은비는 어디서 태어났어?", "강은비", [("bornIn", F)], "ungrounded", D),
    S("박도현 감독 고향이 어디야", "박도현", [("bornIn", F)], "missing_edge", D),
    S("붉은 선은 어느 도시에서 처음 개봉했나요?", "붉은 선", [("premieredIn", F)], "ungrounded_unnamed_city", D,
      cls="City"),
    S("북쪽 등대 개봉지 알려줘", "북쪽 등대", [("premieredIn", F)], "missing_edge", D),
    S("한울 시네마 본사는 어느 도시에 있어?", "한울 시네마", [("basedIn", F)], "missing_edge", D, cls="City"),
    S("은물결 비평가상은 어느 영화제에서 수여돼?", "은물결 비평가상", [("presentedAt", F)], "missing_edge", D,
      cls="Festival"),
    S("윤세하와 협업한 사람은?", "윤세하", [("collaboratedWith", F)], "ungrounded_rumour", D),
    S("사토 유나는 어느 나라 출신이야?", "사토 유나", [("bornIn", F)], "wrong_class_born", D, cls="Country"),
    S("달빛 항구 감독은 어느 나라 사람이야", "달빛 항구", [("directedBy", F), ("bornIn", F)], "wrong_class_born", D,
      cls="Country"),
    S("한지후 감독이 연출한 영화 뭐 있어?", "한지후", [("directedBy", B)], "near_miss_name", D, cls="Film"),
    S("달빛 항고 감독은 누구?", "달빛 항고", [("directedBy", F)], "near_miss_title", D),
    S("겨울 정거장 제작비는 얼마였어?", "겨울 정거장", NOT("budget"), "no_relation", D),
    S("조수의 집 상영 시간이 몇 분이지?", "조수의 집", NOT("runtime"), "no_relation", D),
    S("달빛 항구가 받은 상을 주는 영화제가 열리는 도시는 어느 나라에 있어?", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "four_hops", D, cls="Country"),
    S("2단계 이내로, 이다혜가 출연한 영화 감독의 출생지는?", "이다혜", [("starring", B), ("directedBy", F), ("bornIn", F)],
      "stated_limit_2", D, cls="City", limit=2),
    S("최은지 배우가 나온 영화 알려줘", "최은지", [("starring", B)], "unknown_name", D, cls="Film"),
    S("상을 제일 많이 받은 영화가 뭐야?", None, None, "ranking", D, why="ranking over a count"),
    S("유리 정원은 무슨 상을 받았어?", "유리 정원", [("wonAward", F)], "ungrounded_prediction", D, cls="Award"),
    # declines, English
    S("Where was Thomas Martin born?", "Thomas Martin", [("bornIn", F)], "en_ungrounded", D),
    S("Who directed the Silver Lake Diaries?", "Silver Lake Diaries", [("directedBy", F)], "en_unknown_name", D),
    S("who directed Winter Stattion", "Winter Stattion", [("directedBy", F)], "en_near_miss", D),
    S("Which country is Rei Kimura from?", "Rei Kimura", [("bornIn", F)], "en_wrong_class_born", D, cls="Country"),
    S("What was the box office of The Ninth Summer?", "The Ninth Summer", NOT("boxOffice"), "en_no_relation", D),
    S("Who wrote the screenplay for Paper Birds?", "Paper Birds", NOT("writtenBy"), "en_no_relation", D),
    S("Which festival presents the Silver Ripple Critics Prize?", "Silver Ripple Critics Prize",
      [("presentedAt", F)], "en_missing_edge", D, cls="Festival"),
    S("Who did Hyejin Yoon work with?", "Hyejin Yoon", [("collaboratedWith", F)], "en_missing_edge", D),
    S("Which city did Northern Lighthouse premiere in?", "Northern Lighthouse", [("premieredIn", F)],
      "en_missing_edge", D, cls="City"),
    S("directly, which country did The Glass Garden premiere in?", "The Glass Garden", [("premieredIn", F)],
      "en_wrong_class_premiere", D, cls="Country", limit=1),
    S("Which films did Claire Morreau direct?", "Claire Morreau", [("directedBy", B)], "en_near_miss", D,
      cls="Film"),
    S("hey whats up, recommend me a good movie for tonight", None, None, "en_chit_chat", D, why="chit-chat"),
    S("What genre is Moonlit Harbor?", "Moonlit Harbor", NOT("genre"), "en_no_relation", D),
]

# ---------------------------------------------------------------------------------------------------------
# onchain: the synthetic transfer graph

ONCHAIN_SPECS = [
    # paths, Korean
    P("n_a1에서 3홉 안에 거래소 입금주소로 가는 경로 있어?", "n_a1", A, hops=3, cls="ExchangeDeposit"),
    P("지갑 W6에서 믹서까지 세 단계 안에 닿냐?", "지갑 W6", A, kind="path_label_냐", hops=3, cls="Mixer"),
    P("n_w8 에서 믹서로 4홉 이내 경로 찾아줘", "n_w8", A, hops=4, cls="Mixer"),
    P("n_b2가 브리지로 바로 보낸 적 있나요?", "n_b2", A, kind="path_directly", hops=1, cls="Bridge"),
    P("n_hot1에서 한 홉 만에 닿는 지갑들은 뭐야?", "n_hot1", A, kind="path_multi", hops=1, cls="Wallet"),
    P("n_mx1에서 나간 돈이 직접 들어간 지갑 어디야", "n_mx1", A, kind="path_directly_multi", hops=1, cls="Wallet"),
    P("n_w4에서 거래소 입금주소까지 3홉 이내로 연결되나요?", "n_w4", A, hops=3, cls="ExchangeDeposit"),
    P("지갑 W7에서 거래소로 곧바로 넘어간 주소가 있습니까?", "지갑 W7", A, kind="path_directly_superclass", hops=1,
      cls="Exchange"),
    P("n_w3에서 DEX로 한 번에 가?", "n_w3", A, kind="path_directly", hops=1, cls="Dex"),
    P("n_h1에서 컨트랙트로 이어지는 경로, 2홉 이내로", "n_h1", A, hops=2, cls="Contract"),
    P("n_a1 에서 컨트랙트까지 최단 경로 알려줄래", "n_a1", A, kind="path_superclass_multi", cls="Contract"),
    P("n_b2에서 거래소 입금주소 4홉 안에 닿아?", "n_b2", A, kind="path_multi", hops=4, cls="ExchangeDeposit"),
    P("n_w9에서 거래소 X 핫월렛까지 가는 길 있어?", "n_w9", A, kind="path_to_node", target="거래소 X 핫월렛"),
    P("n_ct1에서 거래소 입금주소로 가는 경로를 2홉 이내로 찾아 주세요", "n_ct1", A, hops=2, cls="ExchangeDeposit"),
    P("브리지 B1에서 출발해서 거래소 입금주소까지 3홉 이내면 보여줘", "브리지 B1", A, kind="path_label", hops=3,
      cls="ExchangeDeposit"),
    P("n_ex2에서 핫월렛으로 한 홉", "n_ex2", A, kind="path_terse", hops=1, cls="ExchangeHotWallet"),
    P("n_hot2 에서 믹서까지 5홉 이내로 찾아봐", "n_hot2", A, hops=5, cls="Mixer"),
    # paths, English
    P("Is there a path from n_a1 to an exchange deposit address within 3 hops?", "n_a1", A, kind="en_path", hops=3,
      cls="ExchangeDeposit"),
    P("can n_w6 reach a mixer in three hops", "n_w6", A, kind="en_path_lowercase", hops=3, cls="Mixer"),
    P("Starting at n_w1, which exchange deposit address does the money reach directly?", "n_w1", A,
      kind="en_path_directly", hops=1, cls="ExchangeDeposit"),
    P("Trace funds from n_mx1 to any exchange deposit address within 2 hops.", "n_mx1", A, kind="en_path", hops=2,
      cls="ExchangeDeposit"),
    P("Does 0x2412d9e01e9b5ff631f6a1dcf935f72491721f51 reach a mixer within 3 hops?",
      "0x2412d9e01e9b5ff631f6a1dcf935f72491721f51", A, kind="en_path_address", hops=3, cls="Mixer"),
    P("From n_c3, is a mixer one hop away?", "n_c3", A, kind="en_path_directly", hops=1, cls="Mixer"),
    P("Could you find the shortest route from n_ex1 to a DEX router, within three hops?", "n_ex1", A,
      kind="en_path", hops=3, cls="Dex"),
    P("n_dex1 -> exchange deposit, within 2 hops?", "n_dex1", A, kind="en_path_terse", hops=2,
      cls="ExchangeDeposit"),
    P("Does n_w7 send anything straight to a bridge?", "n_w7", A, kind="en_path_directly", hops=1, cls="Bridge"),
    # clusters
    C("n_a1이랑 같은 주체로 추정되는 주소들 알려줘", "n_a1", A),
    C("지갑 W5와 동일 주체인 지갑은?", "지갑 W5", A, kind="cluster_label"),
    C("n_b2 동일 주체 클러스터 보여줄래?", "n_b2", A),
    C("Which addresses are likely controlled by the same entity as n_h1?", "n_h1", A, kind="en_cluster"),
    C("show me the same-entity cluster of n_w6", "n_w6", A, kind="en_cluster_lowercase"),
    C("n_w7과 같은 주체로 묶인 주소 있어?", "n_w7", D, kind="cluster_empty"),
    C("Any addresses linked to n_d4 as the same entity?", "n_d4", D, kind="en_cluster_empty"),
    # labels
    L("n_orphan은 어떤 종류의 주소야?", "n_orphan"),
    L("0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE 이 주소 정체가 뭐임?", "0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE",
      kind="label_address"),
    L("멀티시그 컨트랙트는 무슨 유형으로 분류돼 있어?", "멀티시그 컨트랙트", kind="label_by_label"),
    L("n_tk1 주소 유형이 뭐예요?", "n_tk1"),
    L("What kind of address is n_br1?", "n_br1", kind="en_label"),
    L("n_dex1 is what type of node", "n_dex1", kind="en_label_lowercase"),
    L("what class is n_hot2", "n_hot2", kind="en_label_lowercase"),
    # declines: no path within the limit
    P("n_d4에서 믹서까지 3홉 안에 가는 길 있어?", "n_d4", D, kind="no_path_isolated", hops=3, cls="Mixer"),
    P("n_w8에서 믹서로 3홉 이내 경로 있나요", "n_w8", D, kind="no_path_over_limit", hops=3, cls="Mixer"),
    P("n_a1에서 믹서까지 3홉 안에 가는 경로", "n_a1", D, kind="no_path", hops=3, cls="Mixer"),
    P("n_a1에서 거래소 입금주소로 바로 간 거래 있어?", "n_a1", D, kind="no_path_directly", hops=1,
      cls="ExchangeDeposit"),
    P("n_w3에서 2홉 이내로 거래소 입금주소 닿아?", "n_w3", D, kind="no_path_over_limit", hops=2, cls="ExchangeDeposit"),
    P("n_w8에서 거래소 X 핫월렛까지 가는 경로 있어?", "n_w8", D, kind="no_path_to_node", target="거래소 X 핫월렛"),
    P("Can n_tk1 reach any exchange within 3 hops?", "n_tk1", D, kind="en_no_path", hops=3, cls="Exchange"),
    P("is there a path from n_mx2 to a bridge", "n_mx2", D, kind="en_no_path_sink", cls="Bridge"),
    P("From n_c1, does money reach an exchange deposit address within 6 hops?", "n_c1", D, kind="en_no_path_cycle",
      hops=6, cls="ExchangeDeposit"),
    # declines: start not in the graph
    P("n_w10에서 믹서까지 3홉 이내 경로 있어?", "n_w10", D, kind="unknown_node", hops=3, cls="Mixer"),
    P("Does n_zz9 reach an exchange deposit within 3 hops?", "n_zz9", D, kind="en_unknown_node", hops=3,
      cls="ExchangeDeposit"),
    C("지갑 Z9랑 같은 주체 주소들 보여줘", "지갑 Z9", D, kind="cluster_unknown_node"),
    P("0x1111111111111111111111111111111111111111 에서 믹서로 가?", "0x1111111111111111111111111111111111111111", D,
      kind="unknown_address", cls="Mixer"),
    # declines: questions the graph cannot answer
    X("n_a1 주인이 누구야? 실명 알려줘", "owner", "owner identity is not in the graph", start="n_a1"),
    X("지갑 W3 지금 잔고 얼마 남았어?", "balance", "balances are not stored, only transfers", start="지갑 W3"),
    X("What's the current ETH price in USD?", "en_price", "prices are not in the graph"),
    X("How much gas did n_w2's transactions cost?", "en_gas", "gas is not stored", start="n_w2"),
    X("n_mx1 운영자는 어느 나라에 있어?", "operator_location", "operators and their places are not in the graph",
      start="n_mx1"),
    X("Is n_hot1 owned by a sanctioned person?", "en_sanctions", "owners and sanctions lists are not in the graph",
      start="n_hot1"),
    X("거래소 X 입금주소 1의 KYC 정보 좀 볼 수 있을까요", "kyc", "KYC data is not in the graph",
      start="거래소 X 입금주소 1"),
    X("hi, can you explain what a blockchain is?", "en_chit_chat", "chit-chat"),
    X("n_w9가 다음 주에 어디로 송금할지 예측해줘", "prediction", "future transfers cannot be known", start="n_w9"),
    X("what's the private key of n_b2", "en_private_key", "keys are not in the graph", start="n_b2"),
    X("Which wallet holds the most EUSD right now?", "en_ranking_balance", "balances are not stored; ranking"),
]

# ---------------------------------------------------------------------------------------------------------
# pages: the page inventory


def pages_specs(pg: Pages) -> list[dict]:
    asof = pg.as_of
    y0, y1 = pg.year(0)
    ly0, ly1 = pg.year(-1)
    lm0, lm1 = pg.last_month()
    early_last_year = (dt.date(asof.year - 1, 1, 1), dt.date(asof.year - 1, 3, 31))
    this_month = (asof.replace(day=1), asof)
    last_30 = asof - dt.timedelta(days=29)

    def ran(q: str, conds: list, kind: str) -> dict:
        return {"q": q, "conds": conds, "kind": kind}

    def clarify(q: str, kind: str, concept: str | None = None) -> dict:
        return {"q": q, "status": "clarify", "kind": kind, "concept": concept}

    def unsupported(q: str, kind: str, concept: str | None = None) -> dict:
        return {"q": q, "status": "unsupported", "kind": kind, "concept": concept}

    return [
        # filters that run, Korean
        ran("노출은 만 번 넘게 됐는데 클릭률이 3프로도 안 되는 페이지 뽑아줘", [(IMP, ">", 10000), (CTR, "<", 0.03)],
            "two_conditions"),
        ran("이탈률 70% 넘는 페이지 있어?", [(BR, ">", 0.7)], "dataset_column_percent"),
        ran("클릭이 하나도 없는 페이지 목록 주세요", [(CLK, "=", 0)], "phrase_zero"),
        ran("세션 10 미만인 페이지는?", [(SES, "<", 10)], "threshold"),
        ran("지난달에 수정된 페이지 뭐 있나요", [(UPD, ">=", lm0), (UPD, "<=", lm1)], "relative_month"),
        ran("작년 초에 게시된 글 알려줘", [(PUB, ">=", early_last_year[0]), (PUB, "<=", early_last_year[1])],
            "relative_early_year"),
        ran("올해 올라온 페이지 중에 노출 천 이상인 거", [(PUB, ">=", y0), (PUB, "<=", y1), (IMP, ">=", 1000)],
            "date_and_threshold"),
        ran("2023년에 게시된 페이지 리스트", [(PUB, ">=", dt.date(2023, 1, 1)), (PUB, "<=", dt.date(2023, 12, 31))],
            "absolute_year"),
        ran("1년 넘게 수정 안 된 페이지 있냐", [(UPD, "<", pg.years_ago(1))], "age"),
        ran("클릭 5회 이하인데 노출은 1000 이상인 페이지", [(CLK, "<=", 5), (IMP, ">=", 1000)], "two_conditions"),
        ran("이탈이 심한 페이지 좀 추려줘", [(BR, ">=", 0.7)], "dataset_phrase"),
        ran("클릭 거의 없는 페이지", [(CLK, "<=", 10)], "dataset_phrase_any_column"),
        ran("노출수 5천~1만 사이 페이지", [(IMP, ">=", 5000), (IMP, "<=", 10000)], "range"),
        ran("세션이 천 넘는 곳 어디어디야", [(SES, ">", 1000)], "korean_number"),
        ran("2026년 3월에 발행된 페이지는?", [(PUB, ">=", dt.date(2026, 3, 1)), (PUB, "<=", dt.date(2026, 3, 31))],
            "absolute_month"),
        ran("팀장님이 아침 회의 때 물어보셔서 그런데, 노출 3천 넘는데 클릭률 1% 안 되는 페이지 있으면 정리해줄래요?",
            [(IMP, ">", 3000), (CTR, "<", 0.01)], "buried_in_chat"),
        ran("CTR 0%인 페이지", [(CTR, "=", 0.0)], "percent_zero"),
        ran("클릭률 5퍼센트 이상이고 이탈률 0.4 이하", [(CTR, ">=", 0.05), (BR, "<=", 0.4)], "two_decimals"),
        ran("노출 100 미만인 페이지", [(IMP, "<", 100)], "empty_result"),
        ran("세션 50 이상 100 이하인 페이지 뭐임", [(SES, ">=", 50), (SES, "<=", 100)], "range"),
        ran("이번 달에 업데이트된 페이지 알려 주세요", [(UPD, ">=", this_month[0]), (UPD, "<=", this_month[1])],
            "relative_this_month"),
        ran("2025년 6월 이후로 수정된 적 없는 페이지", [(UPD, "<", dt.date(2025, 6, 1))], "negated_since"),
        ran("최근 30일 안에 수정된 페이지", [(UPD, ">=", last_30), (UPD, "<=", asof)], "last_30_days"),
        ran("작년에 게시됐는데 클릭 0인 페이지", [(PUB, ">=", ly0), (PUB, "<=", ly1), (CLK, "=", 0)],
            "last_year_and_zero"),
        # filters that run, English
        ran("pages with more than 20000 impressions", [(IMP, ">", 20000)], "en_threshold"),
        ran("show me pages where ctr is above 5%", [(CTR, ">", 0.05)], "en_percent_lowercase"),
        ran("Which pages got zero clicks despite at least 500 impressions?", [(CLK, "=", 0), (IMP, ">=", 500)],
            "en_two_conditions"),
        ran("bounce rate under 0.4 pls", [(BR, "<", 0.4)], "en_dataset_column"),
        ran("Could you list the pages published since 2026-09-01?", [(PUB, ">=", dt.date(2026, 9, 1))],
            "en_since_date"),
        ran("pages updated before 2025", [(UPD, "<", dt.date(2025, 1, 1))], "en_before_year"),
        ran("pages with between 100 and 500 sessions", [(SES, ">=", 100), (SES, "<=", 500)], "en_range"),
        ran("Do you happen to know which pages were updated last month and have a CTR under 2%?",
            [(UPD, ">=", lm0), (UPD, "<=", lm1), (CTR, "<", 0.02)], "en_relative_and_percent"),
        ran("impressions exactly 1000", [(IMP, "=", 1000)], "en_exact"),
        ran("pages with no clicks and a bounce rate above 90%", [(CLK, "=", 0), (BR, ">", 0.9)], "en_zero_and_percent"),
        ran("which pages were published in 2022", [(PUB, ">=", dt.date(2022, 1, 1)), (PUB, "<=", dt.date(2022, 12, 31))],
            "en_year"),
        ran("pages that have not been updated in over a year", [(UPD, "<", pg.years_ago(1))], "en_age"),
        ran("sessions fewer than 5", [(SES, "<", 5)], "en_terse"),
        ran("pages with at least 1000 clicks", [(CLK, ">=", 1000)], "en_threshold"),
        # clarify
        clarify("성과가 별로인 페이지 뭐야?", "vague_measure", "성과"),
        clarify("인기 많은 글 알려줘", "vague_measure", "인기"),
        clarify("조회수 높은 페이지는?", "vague_measure", "조회수"),
        clarify("노출이나 클릭이 0인 페이지", "or_condition"),
        clarify("2025-02-30 이후에 게시된 페이지", "impossible_date"),
        clarify("클릭 10% 이상인 페이지", "percent_on_count"),
        clarify("1000 이상인 페이지 보여줘", "number_without_column"),
        clarify("페이지 좀 보여줘", "nothing_asked"),
        clarify("클릭률 높은 페이지", "no_threshold_decimal"),
        clarify("블로그 글 중에 세션 50 미만인 거", "word_without_column", "블로그"),
        clarify("잘 안 되는 페이지들 정리 좀", "vague_evaluation"),
        clarify("수정되지 않은 페이지", "negated_date_no_period"),
        clarify("pages with good engagement", "en_vague_measure", "engagement"),
        clarify("clicks or sessions under 10", "en_or_condition"),
        clarify("pages published on 2026-02-31", "en_impossible_date"),
        clarify("which pages are popular?", "en_vague_measure", "popular"),
        # unsupported
        unsupported("전환율 2% 미만 페이지", "no_column", "전환율"),
        unsupported("매출이 가장 높은 상품 페이지", "no_column_ranking", "매출"),
        unsupported("광고비 많이 쓴 페이지 있어?", "no_column", "광고비"),
        unsupported("평균 체류 시간이 1분 안 되는 글", "no_column", "체류 시간"),
        unsupported("검색 순위 10위 밖으로 밀린 페이지", "no_column_rank", "검색 순위"),
        unsupported("백링크 하나도 없는 페이지", "no_column", "백링크"),
        unsupported("클릭 제일 많은 페이지 다섯 개", "ranking"),
        unsupported("전체 페이지 평균 CTR이 얼마야?", "aggregation"),
        unsupported("최근 7일 클릭이 100 넘은 페이지", "other_window"),
        unsupported("which pages have the highest conversion rate", "en_no_column_ranking", "conversion rate"),
        unsupported("pages that load slowly, page speed under 2 seconds", "en_no_column", "page speed"),
        unsupported("what's the total number of clicks across all pages", "en_aggregation"),
        unsupported("top 5 pages by impressions", "en_ranking"),
        unsupported("pages written by the author Kim", "en_no_column", "author"),
        unsupported("show me revenue per page for last month", "en_no_column", "revenue"),
    ]


def main() -> None:
    write_set(HERE, KG_SPECS, ONCHAIN_SPECS, pages_specs(Pages()), FILMS_SPECS, verbose="-v" in sys.argv, min_n=180)


if __name__ == "__main__":
    main()
