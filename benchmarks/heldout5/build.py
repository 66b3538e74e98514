"""Held-out question set 5: the questions and what each one means; the gold comes from ../heldout_gold.py.

The questions were written by hand by a writer who had not seen how the library reads questions: not its question
reading code (``ont_platform/qa/``), not its tests, not docs/questions.md or docs/pages.md, not the earlier held-out
sets, not any ``questions*.jsonl`` file and not the synonym lists (``skos:altLabel``, cue and lexicon files). What
was read: the example tables (``examples/kg``, ``examples/onchain``, ``examples/pages``, ``examples/films``), the
class and property names and ``rdfs:label`` of the ontologies, the README files of the examples, the product
specification and the gold rules in ``benchmarks/heldout_gold.py``. No question was run through the library while
the set was being written, and none was changed after seeing how the library answers it.

Each question carries its *meaning* only: the start name as it is written in the question, the relation chain with
its directions (``F`` along the stored edge, ``B`` against it), the asked class, a stated hop limit, or, for pages,
the filter conditions or the kind of decline. ``heldout_gold.py`` turns the meaning into the gold outcome (see its
module docstring for the rules); ``expect`` (``A`` answer / ``D`` decline) is only a sanity check on the writer's
intent and never the source of a gold.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout5/build.py        # write questions.jsonl and print the counts
  .venv/bin/python benchmarks/heldout5/build.py -v     # also print every gold

Do not use this set for tuning.
"""
import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import BR, CLK, CTR, IMP, NOT, PUB, SES, UPD, A, B, C, D, F, L, P, Pages, S, X, write_set  # noqa: E402

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------------------
# kg: people, companies and places (examples/kg, ontologies/kg.ttl)

KG_SPECS = [
    # -- answers: one hop
    S("홍길순 팀장님이 다니시는 회사가 어디예요?", "홍길순", [("worksFor", F)], "one_hop_honorific", A),
    S("내일 미팅 준비 중인데요, 혹시 김철수 이사님이 어느 회사 소속인지 아세요?", "김철수",
      [("worksFor", F)], "one_hop_in_chat", A),
    S("Where does Minji Lee work?", "Minji Lee", [("worksFor", F)], "one_hop", A),
    S("Do you happen to know where Haneul Jung works?", "Haneul Jung", [("worksFor", F)], "one_hop_polite", A),
    S("에이크미 본사는 어느 도시에 있습니까?", "에이크미", [("locatedIn", F)], "one_hop_class", A, cls="City"),
    S("What's Acme's city?", "Acme", [("locatedIn", F)], "possessive", A, cls="City"),
    S("where is epsilon soft headquartered", "epsilon soft", [("locatedIn", F)], "lowercase_no_punct", A),
    S("한빛재단은 어디에 잇어?", "한빛재단", [("within", F)], "one_hop_typo", A),
    S("에이크미를 세운 사람이 누구더라?", "에이크미", [("foundedBy", B)], "reverse", A),
    S("엡실론소프트를 인수한 회사는?", "엡실론소프트", [("acquired", B)], "reverse", A),
    S("i was wondering which company acquired Epsilon Soft", "Epsilon Soft", [("acquired", B)],
      "reverse_lowercase", A),
    S("what company did gamma labs acquire", "gamma labs", [("acquired", F)], "lowercase", A),
    S("Who works at Beta Inc.?", "Beta Inc.", [("worksFor", B)], "reverse", A),
    S("한빛재단에서 근무하는 사람 누구야", "한빛재단", [("worksFor", B)], "reverse_casual", A),
    S("도쿄가 속한 나라는?", "도쿄", [("partOf", F)], "one_hop_class", A, cls="Country"),
    S("Which country is Busan in?", "Busan", [("within", F)], "one_hop_class", A, cls="Country"),
    S("경기도는 어느 나라에 속하지?", "경기도", [("partOf", F)], "one_hop_class", A, cls="Country"),
    S("판교는 어느 도시에 속해?", "판교", [("partOf", F)], "one_hop_class", A, cls="City"),
    S("Which continent is Japan part of?", "Japan", [("partOf", F)], "one_hop_class", A, cls="Continent"),
    S("Which companies are located in Tokyo?", "Tokyo", [("locatedIn", B)], "reverse_class", A, cls="Company"),
    S("일본에 있는 도시는 어디?", "일본", [("partOf", B)], "reverse_class", A, cls="City"),
    # -- answers: several nodes
    S("서울에 있는 회사들 알려줘", "서울", [("locatedIn", B)], "reverse_multi", A, cls="Company"),
    S("서울에 있는 조직은 어디어디예요?", "서울", [("locatedIn", B)], "reverse_multi", A, cls="Organization"),
    S("에이크미에서 일하는 사람은 누구누구야?", "에이크미", [("worksFor", B)], "reverse_multi", A, cls="Person"),
    S("Which cities are directly part of South Korea?", "South Korea", [("partOf", B)], "reverse_multi_direct", A,
      cls="City"),
    S("한국에 바로 속한 지역들은 어디어디야?", "한국", [("partOf", B)], "reverse_multi_direct", A),
    S("나라 중에 아시아에 바로 속한 곳은 어디어디인가요?", "아시아", [("partOf", B)], "class_first_multi", A,
      cls="Country"),
    # -- answers: within followed to the asked class
    S("Which city is Gamma Labs located in?", "Gamma Labs", [("locatedIn", F)], "within_to_class", A, cls="City"),
    S("부산은 어느 대륙에 속해 있냐", "부산", [("within", F)], "within_to_class", A, cls="Continent"),
    S("성남은 어느 나라에 있습니까", "성남", [("within", F)], "within_to_class", A, cls="Country"),
    S("판교는 어느 나라에 있나요? 3단계 이내로만 찾아주세요", "판교", [("within", F)], "stated_limit_ok", A,
      cls="Country", limit=3),
    # -- answers: two and three relations
    S("감마랩스가 인수한 회사는 어느 도시에 있어?", "감마랩스", [("acquired", F), ("locatedIn", F)], "chain2", A,
      cls="City"),
    S("엡실론소프트를 인수한 회사에서 일하는 사람은 누구죠?", "엡실론소프트", [("acquired", B), ("worksFor", B)],
      "chain2_backwards", A),
    S("홍길동 대표님께서 세우신 회사는 어디에 있나요?", "홍길동", [("foundedBy", F), ("within", F)],
      "chain2_honorific", A),
    S("윤준호가 공동창업한 회사는 어느 도시에 있나요?", "윤준호", [("foundedBy", F), ("locatedIn", F)],
      "chain2_within_to_class", A, cls="City"),
    S("정하늘 씨가 일하는 곳이 있는 도시는 어디에요?", "정하늘", [("worksFor", F), ("locatedIn", F)], "chain2", A,
      cls="City"),
    S("김철수가다니는회사 어느도시에있어", "김철수", [("worksFor", F), ("locatedIn", F)], "chain2_no_spaces", A,
      cls="City"),
    S("Could you tell me which country the company Gilsun Hong works for is based in?", "Gilsun Hong",
      [("worksFor", F), ("within", F)], "chain_within_to_class", A, cls="Country"),
    S("홍 대표가 다니는 회사 본사는 어느 나라에 있나요?", "홍 대표", [("worksFor", F), ("within", F)],
      "alias_chain_within_to_class", A, cls="Country"),
    S("Who founded the company that Minji Lee works for?", "Minji Lee", [("worksFor", F), ("foundedBy", B)],
      "relative_clause_mixed_dirs", A),
    S("서울에 본사가 있는 회사에 다니는 사람들은 누구인가요?", "서울",
      [("locatedIn", B, "Company"), ("worksFor", B)], "chain2_backwards_multi", A),
    S("서울에 있는 회사를 창업한 사람은 누구?", "서울", [("locatedIn", B, "Company"), ("foundedBy", B)],
      "chain2_backwards", A),
    S("판교가 속한 도시가 속한 도는 어디야?", "판교", [("partOf", F), ("partOf", F)], "chain2", A),
    S("엡실론소프트를 인수한 회사를 세운 사람은?", "엡실론소프트", [("acquired", B), ("foundedBy", B)],
      "chain2_backwards", A),
    S("이민지가 다니는 회사가 인수한 회사는 어느 도시에 있나요?", "이민지",
      [("worksFor", F), ("acquired", F), ("locatedIn", F)], "chain3", A, cls="City"),
    S("Junho Yoon co-founded a company that later acquired another firm. Where is that acquired firm?",
      "Junho Yoon", [("foundedBy", F), ("acquired", F), ("within", F)], "chain3_relative", A),
    # -- declines: names
    S("이수민 씨는 어느 회사 다녀요?", "이수민", [("worksFor", F)], "unknown_name", D),
    S("What company does Sarah Connor work for?", "Sarah Connor", [("worksFor", F)], "unknown_name", D),
    S("김 부장님 소속 회사가 어디죠?", "김 부장", [("worksFor", F)], "unknown_alias", D),
    S("홍길덩이 다니는 회사는?", "홍길덩", [("worksFor", F)], "near_miss_name", D),
    S("Where does Gildong Hon work?", "Gildong Hon", [("worksFor", F)], "near_miss_name", D),
    # -- declines: relations the ontology lacks
    S("에이크미의 연봉 수준은 어때요?", "에이크미", NOT("salary"), "not_in_ontology", D),
    S("What is Acme's annual revenue?", "Acme", NOT("revenue"), "not_in_ontology", D),
    S("서울 인구는 몇 명이야?", "서울", NOT("population"), "not_in_ontology", D),
    S("Who is the CEO of Gamma Labs?", "Gamma Labs", NOT("ceo"), "not_in_ontology", D),
    S("김철수 이사는 어디서 태어났어?", "김철수", NOT("bornIn"), "not_in_ontology", D),
    S("Who is Haneul Jung married to?", "Haneul Jung", NOT("spouse"), "not_in_ontology", D),
    S("윤준호는 어느 나라 사람이야?", "윤준호", NOT("nationality"), "not_in_ontology", D),
    S("ACME Corp 주가는 얼마야?", "ACME Corp", NOT("stockPrice"), "not_in_ontology", D),
    S("Which of Acme's employees earns the most?", "Acme", NOT("salary"), "ranking", D),
    # -- declines: ungrounded or missing edges
    S("에이크미가 인수한 회사는 어느 도시에 있나요?", "에이크미", [("acquired", F), ("locatedIn", F)],
      "ungrounded", D, cls="City"),
    S("Which company did Delta Trading acquire?", "Delta Trading", [("acquired", F)], "ungrounded", D),
    S("최수진이 다니는 회사는 어느 나라에 있어?", "최수진", [("worksFor", F), ("within", F)], "ungrounded", D,
      cls="Country"),
    S("도쿄에 있는 회사에서 일하는 사람은?", "도쿄", [("locatedIn", B), ("worksFor", B)], "ungrounded_backwards", D),
    S("윤준호가 근무하는 회사는?", "윤준호", [("worksFor", F)], "missing_edge", D),
    S("엡실론소프트가 인수한 회사는 어디야?", "엡실론소프트", [("acquired", F)], "missing_edge", D),
    S("베타에서 일하는 사람이 세운 회사는?", "베타", [("worksFor", B), ("foundedBy", F)], "missing_edge", D),
    S("Which company did Cheolsu Kim found?", "Cheolsu Kim", [("foundedBy", F)], "missing_edge", D),
    # -- declines: the asked class is out of reach of the relation
    S("정하늘이 다니는 곳은 어느 회사야?", "정하늘", [("worksFor", F)], "class_unreachable", D, cls="Company"),
    S("홍길동이 근무하는 나라는 어디야?", "홍길동", [("worksFor", F)], "class_unreachable", D, cls="Country"),
    # -- declines: too many hops
    S("Which continent is the company Gildong Hong founded located in?", "Gildong Hong",
      [("foundedBy", F), ("within", F)], "hop_limit", D, cls="Continent"),
    S("홍길순이 일하는 회사는 어느 대륙에 있어?", "홍길순", [("worksFor", F), ("within", F)], "hop_limit", D,
      cls="Continent"),
    S("판교가 어느 대륙에 있는지 알려줘", "판교", [("within", F)], "hop_limit", D, cls="Continent"),
    S("Which country is the company bought by Junho Yoon's startup located in?", "Junho Yoon",
      [("foundedBy", F), ("acquired", F), ("within", F)], "hop_limit", D, cls="Country"),
    S("홍길동이 다니는 회사는 어느 나라에 있나요? 1단계 이내로", "홍길동", [("worksFor", F), ("within", F)],
      "stated_limit", D, cls="Country", limit=1),
    S("Which country is Pangyo in, within two steps?", "Pangyo", [("within", F)], "stated_limit", D, cls="Country",
      limit=2),
    # -- declines: nothing to walk
    S("안녕! 오늘 날씨 좋다 그치?", None, None, "chitchat", D, why="small talk, no question about the graph"),
    S("Tell me about Seoul.", None, None, "no_relation", D, why="no relation asked"),
]

# ---------------------------------------------------------------------------------------------------------
# films (examples/films, its ontology.ttl)

FILMS_SPECS = [
    # -- answers: one hop
    S("달빛 항구 감독이 누구야?", "달빛 항구", [("directedBy", F)], "one_hop", A),
    S("Who directed The Glass Garden?", "The Glass Garden", [("directedBy", F)], "one_hop", A),
    S("청하를 연출한 감독은 누구입니까?", "청하", [("directedBy", F)], "shared_name", A),
    S("Which festival was Cheongha screened at?", "Cheongha", [("screenedAt", F)], "shared_name", A),
    S("Where was Moonlit Harbor first released?", "Moonlit Harbor", [("premieredIn", F)], "one_hop", A),
    S("키무라 레이 감독 고향이 어디예요?", "키무라 레이", [("bornIn", F)], "one_hop", A),
    S("where is kumo studio based", "kumo studio", [("basedIn", F)], "lowercase_no_punct", A),
    S("Which awards did Winter Station win?", "Winter Station", [("wonAward", F)], "one_hop", A),
    S("황금별상은 어느 영화제에서 주는 상이야?", "황금별상", [("presentedAt", F)], "one_hop", A),
    S("아오바 영화제는 어디서 열리나요?", "아오바 영화제", [("heldIn", F)], "one_hop", A),
    S("Where's the Waves Film Festival held", "Waves Film Festival", [("heldIn", F)], "one_hop", A),
    S("Valmière is in which country?", "Valmière", [("locatedIn", F)], "one_hop_class", A, cls="Country"),
    S("한지우 감독과 함께 작업한 사람은?", "한지우", [("collaboratedWith", F)], "symmetric", A),
    S("Who has Rei Kimura collaborated with?", "Rei Kimura", [("collaboratedWith", F)], "symmetric_stored_other_way",
      A),
    S("서민재 배우와 함께 작업한 감독은?", "서민재", [("collaboratedWith", F)], "symmetric_stored_other_way", A,
      cls="Director"),
    S("Who collaborated with Eunbi Kang?", "Eunbi Kang", [("collaboratedWith", F)], "symmetric_stored_other_way", A),
    S("황금별상을 받은 영화는?", "황금별상", [("wonAward", B)], "reverse_one_ungrounded_dropped", A),
    S("파도 영화제에서 주는 상은 뭐야?", "파도 영화제", [("presentedAt", B)], "reverse", A),
    S("Which festival is held in Kosaka?", "Kosaka", [("heldIn", B)], "reverse", A),
    S("Which director was born in Haeyun?", "Haeyun", [("bornIn", B)], "reverse_class", A, cls="Director"),
    S("청하에서 태어난 배우는 누구?", "청하", [("bornIn", B)], "shared_name_reverse", A, cls="Actor"),
    # -- answers: several nodes
    S("한지우가 연출한 영화는 뭐뭐 있어요?", "한지우", [("directedBy", B)], "reverse_multi", A),
    S("Which films did Dohyun Park direct?", "Dohyun Park", [("directedBy", B)], "reverse_multi", A),
    S("Han Jiyu appeared in which films?", "Han Jiyu", [("starring", B)], "reverse_multi", A),
    S("영화 청하에 출연한 배우는?", "청하", [("starring", F)], "shared_name_multi", A),
    S("Which films won the Silver Ripple Critics Prize?", "Silver Ripple Critics Prize", [("wonAward", B)],
      "reverse_multi", A),
    S("새벽별 국제영화제에서 상영된 영화 알려줘", "새벽별 국제영화제", [("screenedAt", B)], "reverse_multi", A),
    S("Which films were shown at the Festival des Vagues?", "Festival des Vagues", [("screenedAt", B)],
      "reverse_multi", A),
    S("푸른강 필름이 제작한 영화는?", "푸른강 필름", [("producedBy", B)], "reverse_multi", A),
    S("Who was born in Garam?", "Garam", [("bornIn", B)], "reverse_multi", A),
    S("가람 출신 배우는 누구누구?", "가람", [("bornIn", B)], "reverse_multi_class", A, cls="Actor"),
    S("서린에서 처음 개봉한 영화들은?", "서린", [("premieredIn", B)], "reverse_multi", A),
    S("Which films premiered in Haeyun?", "Haeyun", [("premieredIn", B)], "reverse_multi", A),
    S("Which actors were born in Seorin?", "Seorin", [("bornIn", B)], "reverse_multi_class", A, cls="Actor"),
    # -- answers: within followed to the asked class
    S("What country is Moonstone Pictures based in?", "Moonstone Pictures", [("within", F)], "within_to_class", A,
      cls="Country"),
    S("Aoba Film Festival takes place in which country?", "Aoba Film Festival", [("heldIn", F)], "within_to_class",
      A, cls="Country"),
    S("청하는 어느 나라에 있는 도시인가요?", "청하", [("within", F)], "shared_name_class", A, cls="Country"),
    # -- answers: chains
    S("강은비가 나온 영화들의 감독은 누구누구야?", "강은비", [("starring", B), ("directedBy", F)], "chain2_multi", A),
    S("Which directors made the films that Noah Miller starred in?", "Noah Miller",
      [("starring", B), ("directedBy", F)], "relative_clause_multi", A),
    S("사토 유나가 출연한 영화를 제작한 회사는 어디어디인가요?", "사토 유나", [("starring", B), ("producedBy", F)],
      "chain2_multi", A),
    S("서민재가 출연한 영화를 만든 스튜디오는?", "서민재", [("starring", B), ("producedBy", F)], "chain2_multi", A),
    S("서민제가 출연한 영화는 어느 영화제에서 상영됐어?", "서민제", [("starring", B), ("screenedAt", F)], "chain2", A),
    S("유리 정원을 만든 제작사들은 어느 나라에 본사가 있어?", "유리 정원", [("producedBy", F), ("within", F)],
      "chain_within_to_class_multi", A, cls="Country"),
    S("House of Tides premiered in a city. Which country is that city in?", "House of Tides",
      [("premieredIn", F), ("locatedIn", F)], "chain2_two_sentences", A, cls="Country"),
    S("레아 뒤발이 태어난 도시는 어느 나라에 있어요?", "레아 뒤발", [("bornIn", F), ("within", F)], "chain2", A,
      cls="Country"),
    S("사토 유나가 태어난 도시가 속한 나라는?", "사토 유나", [("bornIn", F), ("locatedIn", F)], "chain2", A,
      cls="Country"),
    S("Which city hosts the festival where the Golden Star Award is presented?", "Golden Star Award",
      [("presentedAt", F), ("heldIn", F)], "relative_clause", A),
    S("The Ninth Summer's lead actress was born where?", "The Ninth Summer", [("starring", F), ("bornIn", F)],
      "possessive_chain", A),
    S("Which directors were born in a city in Japan?", "Japan", [("locatedIn", B), ("bornIn", B)],
      "chain2_backwards_class", A, cls="Director"),
    S("아카리에 본사가 있는 제작사가 만든 영화들은?", "아카리", [("basedIn", B), ("producedBy", B)],
      "chain2_backwards_multi", A),
    S("Who starred in the film that premiered in Akari?", "Akari", [("premieredIn", B), ("starring", F)],
      "relative_clause_multi", A),
    S("클레르 모로 감독이 연출한 영화에 나온 배우들은 누구야?", "클레르 모로", [("directedBy", B), ("starring", F)],
      "chain2_multi", A),
    S("Claire Moreau's films won which awards?", "Claire Moreau", [("directedBy", B), ("wonAward", F)],
      "possessive_one_ungrounded_dropped", A),
    S("이다혜가 나온 영화를 연출한 감독은 어디 출신이야?", "이다혜",
      [("starring", B), ("directedBy", F), ("bornIn", F)], "chain3", A),
    S("해윤에 본사가 있는 제작사가 만든 영화의 감독은 누구야?", "해윤",
      [("basedIn", B), ("producedBy", B), ("directedBy", F)], "chain3_backwards_multi", A),
    S("노아 밀러가 출연한 영화가 처음 개봉한 도시는 어느 나라에 있어?", "노아 밀러",
      [("starring", B), ("premieredIn", F), ("within", F)], "chain3_one_branch_ungrounded", A, cls="Country"),
    S("조수의 집이 수상한 상이 수여되는 영화제의 개최 도시는 어느 나라에 있나요? 4단계까지 봐도 돼요.", "조수의 집",
      [("wonAward", F), ("presentedAt", F), ("heldIn", F), ("locatedIn", F)], "stated_limit_ok_chain4", A,
      cls="Country", limit=4),
    # -- declines: names
    S("봉준호 감독이 연출한 영화는?", "봉준호", [("directedBy", B)], "unknown_name", D),
    S("What movies did Jane Campion direct?", "Jane Campion", [("directedBy", B)], "unknown_name", D),
    S("클레어 모로가 연출한 영화는?", "클레어 모로", [("directedBy", B)], "near_miss_name", D),
    S("Who directed The Glass Gardn?", "The Glass Gardn", [("directedBy", F)], "near_miss_name", D),
    S("Who directed Moonlight Harbor?", "Moonlight Harbor", [("directedBy", F)], "near_miss_name", D),
    # -- declines: relations the ontology lacks
    S("달빛 항구의 제작비는 얼마였나요?", "달빛 항구", NOT("budget"), "not_in_ontology", D),
    S("How long is The Last Ferry?", "The Last Ferry", NOT("runtime"), "not_in_ontology", D),
    S("종이새 흥행 성적 어때?", "종이새", NOT("boxOffice"), "not_in_ontology", D),
    S("What genre is House of Tides?", "House of Tides", NOT("genre"), "not_in_ontology", D),
    # -- declines: ungrounded or missing edges
    S("토마 마르탱은 어디 출신이야?", "토마 마르탱", [("bornIn", F)], "ungrounded", D),
    S("강은비 고향이 어디야?", "강은비", [("bornIn", F)], "ungrounded", D),
    S("윤세하 감독이랑 협업한 사람 있어?", "윤세하", [("collaboratedWith", F)], "ungrounded", D),
    S("유리 정원은 무슨 상 받았어?", "유리 정원", [("wonAward", F)], "ungrounded", D),
    S("붉은 선은 어디서 개봉했어?", "붉은 선", [("premieredIn", F)], "ungrounded", D),
    S("한울 시네마 본사는 어디?", "한울 시네마", [("basedIn", F)], "missing_edge", D),
    S("박도현 감독은 어디서 태어났나요?", "박도현", [("bornIn", F)], "missing_edge", D),
    S("윤혜진과 호흡을 맞춘 배우는?", "윤혜진", [("collaboratedWith", F)], "missing_edge", D),
    S("은물결 비평가상은 어느 영화제에서 시상하나요?", "은물결 비평가상", [("presentedAt", F)], "missing_edge", D),
    S("What city did Northern Lighthouse premiere in?", "Northern Lighthouse", [("premieredIn", F)],
      "missing_edge", D),
    S("Which city was the director of The Red Line born in?", "The Red Line", [("directedBy", F), ("bornIn", F)],
      "missing_edge_hop2", D),
    # -- declines: the asked class is out of reach of the relation
    S("Which country is Noah Miller from?", "Noah Miller", [("bornIn", F)], "class_unreachable", D, cls="Country"),
    S("서민재는 어느 나라 출신이에요?", "서민재", [("bornIn", F)], "class_unreachable", D, cls="Country"),
    # -- declines: too many hops
    S("조수의 집이 받은 상을 주는 영화제는 어느 나라에서 열려?", "조수의 집",
      [("wonAward", F), ("presentedAt", F), ("within", F)], "hop_limit", D, cls="Country"),
    S("이다혜가 출연한 영화의 감독이 태어난 도시는? 2단계 이내로만", "이다혜",
      [("starring", B), ("directedBy", F), ("bornIn", F)], "stated_limit", D, limit=2),
    S("뤼미에르 노르 본사가 있는 나라를 1단계 이내로 찾아줘", "뤼미에르 노르", [("basedIn", F)], "stated_limit", D,
      cls="Country", limit=1),
    # -- declines: nothing to walk
    S("영화 추천 좀 해줘", None, None, "chitchat", D, why="a recommendation, no relation asked"),
    S("what's the best film in here?", None, None, "ranking", D, why="a ranking the graph has no measure for"),
]

# ---------------------------------------------------------------------------------------------------------
# onchain (examples/onchain, ontologies/onchain.ttl)

ONCHAIN_SPECS = [
    # -- paths to a class
    P("n_a1에서 3홉 안에 거래소 입금주소로 간 경로 있어?", "n_a1", A, hops=3, cls="ExchangeDeposit"),
    P("Can n_a1 reach an exchange within three hops?", "n_a1", A, cls="Exchange"),
    P("지갑 W6에서 믹서까지 닿나요?", "지갑 W6", A, cls="Mixer"),
    P("n_w8에서 4홉 이내로 믹서에 도달할 수 있는지 확인해줘", "n_w8", A, hops=4, cls="Mixer"),
    P("From n_w4, can funds get to an exchange deposit address in three hops or fewer?", "n_w4", A, hops=3,
      cls="ExchangeDeposit"),
    P("n_b2에서 브리지로 바로 보낸 적 있어?", "n_b2", A, kind="path_direct", hops=1, cls="Bridge"),
    P("Is there a path from n_w9 to any exchange deposit address?", "n_w9", A, cls="ExchangeDeposit"),
    P("n_hot2 to a mixer within 5 hops — any route?", "n_hot2", A, hops=5, cls="Mixer"),
    P("n_w7에서 거래소 핫월렛까지 가는 경로 알려줘", "n_w7", A, cls="ExchangeHotWallet"),
    P("After the mixer n_mx1, does the money reach an exchange deposit within 2 hops?", "n_mx1", A, hops=2,
      cls="ExchangeDeposit"),
    P("0x7e49a00d6867d7ece69304ccdc37f68a2257f749 에서 DEX로 바로 간 거래 있어?",
      "0x7e49a00d6867d7ece69304ccdc37f68a2257f749", A, kind="path_address_direct", hops=1, cls="Dex"),
    P("n_w2가 거래소 입금주소로 직접 보낸 적 있나요?", "n_w2", A, kind="path_direct", hops=1,
      cls="ExchangeDeposit"),
    P("멀티시그 컨트랙트에서 출발해서 거래소 핫월렛에 닿는 경로가 있을까요?", "멀티시그 컨트랙트", A,
      kind="path_label", cls="ExchangeHotWallet"),
    P("순환 지갑 C1에서 믹서로 흘러갔는지 3홉 안에서 봐줘", "순환 지갑 C1", A, kind="path_label", hops=3,
      cls="Mixer"),
    P("브리지 B1에서 나간 자금이 거래소 입금주소에 도착했어?", "브리지 B1", A, kind="path_label",
      cls="ExchangeDeposit"),
    P("n_w3에서 다른 지갑으로 2홉 안에 돈이 갔나요?", "n_w3", A, hops=2, cls="Wallet"),
    P("Within two hops of n_w9, is there any contract?", "n_w9", A, hops=2, cls="Contract"),
    # -- paths to a named node
    P("n_a1에서 n_ex3까지 4홉 이내 경로 있나요?", "n_a1", A, kind="path_target", hops=4, target="n_ex3"),
    P("Is there a transfer path from n_b2 to n_w9?", "n_b2", A, kind="path_target", target="n_w9"),
    P("n_w1에서 n_ct1까지 연결돼 있어?", "n_w1", A, kind="path_target", target="n_ct1"),
    P("n_hot1 → n_mx2 within 5 hops?", "n_hot1", A, kind="path_target", hops=5, target="n_mx2"),
    P("거래소 Y 핫월렛에서 6홉 이내로 거래소 Y 입금주소 1까지 돌아오나요?", "거래소 Y 핫월렛", A,
      kind="path_target_cycle", hops=6, target="거래소 Y 입금주소 1"),
    # -- paths that do not exist
    P("Does n_a1 reach a mixer within 3 hops?", "n_a1", D, kind="no_path", hops=3, cls="Mixer"),
    P("n_w8 → mixer within 3 hops?", "n_w8", D, kind="no_path", hops=3, cls="Mixer"),
    P("휴면 지갑 D4에서 거래소로 간 돈이 있나요?", "휴면 지갑 D4", D, kind="no_path_isolated", cls="Exchange"),
    P("지갑 W1에서 3단계 안에 브리지에 닿아?", "지갑 W1", D, kind="no_path", hops=3, cls="Bridge"),
    P("n_hot2에서 믹서까지 3홉 이내 경로가 있나?", "n_hot2", D, kind="no_path", hops=3, cls="Mixer"),
    P("n_ct1 to exchange hot wallet in 2 hops?", "n_ct1", D, kind="no_path", hops=2, cls="ExchangeHotWallet"),
    P("n_a1에서 n_ex3까지 경로 있나요?", "n_a1", D, kind="no_path_target", target="n_ex3"),
    P("n_hot1에서 n_mx2까지 3홉 안에 가?", "n_hot1", D, kind="no_path_target", hops=3, target="n_mx2"),
    P("지갑 W8에서 거래소 X 핫월렛까지 6홉 안에 갈 수 있어?", "지갑 W8", D, kind="no_path_target", hops=6,
      target="거래소 X 핫월렛"),
    P("EUSD 토큰 컨트랙트에서 거래소로 흘러간 경로 있어?", "EUSD 토큰 컨트랙트", D, kind="no_path",
      cls="Exchange"),
    P("지갑 A1에서 대출 풀로 자금이 간 적 있나요?", "지갑 A1", D, kind="no_path_empty_class", cls="LendingPool"),
    P("has n_w6 ever sent funds to an NFT marketplace?", "n_w6", D, kind="no_path_empty_class",
      cls="Marketplace"),
    P("n_w10에서 믹서로 간 경로 있어?", "n_w10", D, kind="unknown_node", cls="Mixer"),
    P("Does 0x1111111111111111111111111111111111111111 reach any exchange deposit?",
      "0x1111111111111111111111111111111111111111", D, kind="unknown_address", cls="ExchangeDeposit"),
    P("Is there a path from wallet n_q7 to a bridge?", "n_q7", D, kind="unknown_node", cls="Bridge"),
    # -- same-entity clusters
    C("n_a1과 같은 주체로 추정되는 주소는?", "n_a1", A),
    C("Which addresses belong to the same entity as n_w5?", "n_w5", A),
    C("경유 지갑 H1이랑 동일 주체인 지갑들 알려줘", "경유 지갑 H1", A, kind="cluster_label"),
    C("n_w6 cluster members?", "n_w6", A, kind="cluster_terse"),
    C("0xf046407275d83619c280189ac8946588c53355c2 와 같은 사람이 쓰는 주소 있어?",
      "0xf046407275d83619c280189ac8946588c53355c2", A, kind="cluster_address"),
    C("휴면 지갑 D4와 같은 주체인 주소가 있나요?", "휴면 지갑 D4", D, kind="cluster_empty"),
    C("Is n_ex1 linked to any other address as the same entity?", "n_ex1", D, kind="cluster_empty"),
    C("n_mx1이랑 동일 주체로 묶이는 주소?", "n_mx1", D, kind="cluster_empty"),
    C("same-entity cluster for n_zz9", "n_zz9", D, kind="unknown_node"),
    # -- address classes
    L("n_orphan 주소는 어떤 유형이야?", "n_orphan"),
    L("What kind of address is n_badsum?", "n_badsum"),
    L("0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE는 무슨 주소예요?", "0x4D99722829Fa50af8913Bd53249b7Cb1B271E1aE",
      kind="label_address"),
    L("n_hot1은 어떤 종류의 주소인가요?", "n_hot1"),
    L("what type of address is n_ct1", "n_ct1"),
    L("n_tk1 분류가 뭐지?", "n_tk1"),
    L("Could you tell me what n_dex1 is classified as?", "n_dex1"),
    L("0x5ef070ad1cef50536452ed6f6fec252952e7e870 주소 유형 알려줘", "0x5ef070ad1cef50536452ed6f6fec252952e7e870",
      kind="label_address"),
    L("n_ex2 is what kind of address?", "n_ex2"),
    L("n_w7은 지갑이야 컨트랙트야?", "n_w7", kind="label_either_or"),
    {**L("n_x42는 어떤 주소야?", "n_x42", kind="unknown_node"), "expect": D},
    # -- what the graph does not hold
    X("n_hot1 주인이 누구야?", "owner", "owners are not in the graph", "n_hot1"),
    X("What's the current ETH balance of n_w2?", "balance", "balances are not in the graph", "n_w2"),
    X("지금 ETH 시세 얼마예요?", "price", "prices are not in the graph"),
    X("e1 트랜잭션 가스비 얼마 나왔어?", "gas", "gas fees are not in the graph"),
    X("Is n_mx1 on the OFAC sanctions list?", "sanctions", "sanction lists are not in the graph", "n_mx1"),
    X("거래소 X 입금주소 1 의 실명 계좌주가 누군지 알려줘", "owner", "account holders are not in the graph",
      "거래소 X 입금주소 1"),
    X("n_a1 지갑 개인키 알 수 있어?", "private_key", "keys are not in the graph", "n_a1"),
    X("Which wallet holds the most EUSD right now?", "balance_ranking", "balances are not in the graph"),
    X("이 지갑들 중에 해커 지갑은 어디야?", "attribution", "no attribution of hackers in the graph"),
    X("안녕 ㅎㅎ 코인 뭐 사면 돼?", "chitchat", "investment advice, nothing in the graph"),
    X("What is the USD value of the EUSD token today?", "price", "prices are not in the graph"),
]

# ---------------------------------------------------------------------------------------------------------
# pages (examples/pages, ontologies/pages.ttl)


def pages_specs(pg: Pages) -> list[dict]:
    y_this, y_last = pg.year(0), pg.year(-1)
    lm = pg.last_month()
    d = dt.date

    def ran(q: str, conds: list[tuple], kind: str) -> dict:
        return {"q": q, "conds": conds, "kind": kind}

    def clarify(q: str, kind: str, concept: str | None = None) -> dict:
        return {"q": q, "status": "clarify", "kind": kind, "concept": concept}

    def unsupported(q: str, kind: str, concept: str | None = None) -> dict:
        return {"q": q, "status": "unsupported", "kind": kind, "concept": concept}

    return [
        # -- filters that run
        ran("노출수 1만 이상인 페이지 보여줘", [(IMP, ">=", 10000)], "threshold"),
        ran("클릭이 0인 페이지 뭐 있어?", [(CLK, "=", 0)], "equals_zero"),
        ran("Show me pages with more than 20,000 impressions", [(IMP, ">", 20000)], "threshold"),
        ran("이탈률이 0.8 이상인 페이지는?", [(BR, ">=", 0.8)], "threshold_rate"),
        ran("이탈률 70% 넘는 페이지 알려주세요", [(BR, ">", 0.7)], "threshold_percent"),
        ran("CTR이 5% 이상인 페이지 뽑아줘", [(CTR, ">=", 0.05)], "threshold_percent"),
        ran("which pages have a click-through rate below 1%", [(CTR, "<", 0.01)], "threshold_percent"),
        ran("세션수가 1000 넘는 페이지는?", [(SES, ">", 1000)], "threshold"),
        ran("Pages with fewer than 10 sessions?", [(SES, "<", 10)], "threshold"),
        ran("노출수가 1000 미만인 페이지는?", [(IMP, "<", 1000)], "threshold_empty_cells"),
        ran("Pages with more than 100000 impressions", [(IMP, ">", 100000)], "threshold_empty_result"),
        ran("pages w/ bounce rate under 0.3", [(BR, "<", 0.3)], "threshold_abbrev"),
        ran("Which pages have a bounce rate of exactly 67%?", [(BR, "=", 0.67)], "equals_percent"),
        ran("클릭수 100~300 사이 페이지", [(CLK, ">=", 100), (CLK, "<=", 300)], "range"),
        ran("sessions between 100 and 500, inclusive", [(SES, ">=", 100), (SES, "<=", 500)], "range"),
        ran("노출은 5000 이상인데 클릭은 100 미만인 페이지", [(IMP, ">=", 5000), (CLK, "<", 100)], "two_conditions"),
        ran("Which pages got 1,000+ impressions but zero clicks?", [(IMP, ">=", 1000), (CLK, "=", 0)],
            "two_conditions"),
        ran("이탈률 50% 미만이면서 세션 500 이상인 페이지 찾아줘", [(BR, "<", 0.5), (SES, ">=", 500)],
            "two_conditions"),
        ran("CTR 2% 미만인데 노출 5천 이상인 페이지는?", [(CTR, "<", 0.02), (IMP, ">=", 5000)], "two_conditions"),
        ran("세션 50 이하 & 이탈률 0.7 이상", [(SES, "<=", 50), (BR, ">=", 0.7)], "two_conditions_terse"),
        ran("클릭이 거의 없는 페이지 보여줘", [(CLK, "<=", 10)], "dataset_predicate"),
        ran("이탈이 심한 페이지 목록", [(BR, ">=", 0.7)], "dataset_predicate"),
        ran("노출은 꽤 되는데 클릭이 하나도 없는 페이지", [(IMP, ">=", 1000), (CLK, "=", 0)], "builtin_predicates"),
        # -- dates
        ran("올해 게시된 페이지 목록 좀", [(PUB, ">=", y_this[0]), (PUB, "<=", y_this[1])], "relative_year"),
        ran("작년에 올라온 페이지들 알려줘", [(PUB, ">=", y_last[0]), (PUB, "<=", y_last[1])], "relative_year"),
        ran("지난달에 수정된 페이지 있어?", [(UPD, ">=", lm[0]), (UPD, "<=", lm[1])], "relative_month"),
        ran("이번 달에 수정된 페이지들", [(UPD, ">=", d(2026, 10, 1)), (UPD, "<=", d(2026, 10, 31))],
            "relative_month"),
        ran("이번 달 새로 올라온 페이지", [(PUB, ">=", d(2026, 10, 1)), (PUB, "<=", d(2026, 10, 31))],
            "relative_month"),
        ran("작년 초에 게시된 페이지 알려줘", [(PUB, ">=", d(2025, 1, 1)), (PUB, "<=", d(2025, 3, 31))],
            "relative_early_year"),
        ran("Pages updated in the last 30 days?", [(UPD, ">=", pg.as_of - dt.timedelta(days=30))],
            "relative_days"),
        ran("2년 넘게 업데이트 안 된 페이지 있나요?", [(UPD, "<", pg.years_ago(2))], "relative_years_empty_cells"),
        ran("Pages published before 2024", [(PUB, "<", d(2024, 1, 1))], "date"),
        ran("which pages haven't been updated since the start of 2026", [(UPD, "<", d(2026, 1, 1))],
            "date_empty_cells"),
        ran("2025년 상반기에 게시된 페이지", [(PUB, ">=", d(2025, 1, 1)), (PUB, "<=", d(2025, 6, 30))], "date_range"),
        ran("클릭수 500 이상이고 2023년까지 게시된 페이지", [(CLK, ">=", 500), (PUB, "<=", d(2023, 12, 31))],
            "metric_and_date"),
        ran("2025년 7월 1일부터 게시된 페이지 중 노출 2000 이상인 거",
            [(PUB, ">=", d(2025, 7, 1)), (IMP, ">=", 2000)], "metric_and_date"),
        ran("published in 2024 with CTR over 3%", [(PUB, ">=", d(2024, 1, 1)), (PUB, "<=", d(2024, 12, 31)),
                                                  (CTR, ">", 0.03)], "metric_and_date"),
        ran("updated after Sept 15 2026 and ctr above 4%", [(UPD, ">", d(2026, 9, 15)), (CTR, ">", 0.04)],
            "metric_and_date"),
        # -- clarify
        clarify("요즘 반응 별로인 페이지 뭐 있어?", "no_measure"),
        clarify("Show me the underperforming pages", "no_measure"),
        clarify("인기 많은 페이지 보여줘", "no_measure"),
        clarify("이탈률이 높은 페이지는?", "vague_no_number"),
        clarify("which pages get a lot of traffic?", "vague_measure"),
        clarify("클릭 0이거나 노출 100 미만인 페이지", "or"),
        clarify("pages with bounce rate above 0.9 or CTR below 0.1%", "or"),
        clarify("2026년 2월 30일 이후 수정된 페이지", "impossible_date"),
        clarify("pages published on 2025-13-01", "impossible_date"),
        clarify("클릭수가 5% 이상인 페이지", "percent_on_count"),
        clarify("sessions over 20%?", "percent_on_count"),
        clarify("500 넘는 페이지 보여줘", "number_without_column"),
        clarify("Which pages are above 0.5?", "number_without_column"),
        clarify("안녕하세요~ 오늘 날씨 좋네요", "chitchat"),
        # -- unsupported
        unsupported("매출이 100만원 넘는 페이지", "no_column", "매출"),
        unsupported("pages with a conversion rate above 2%", "no_column", "conversion rate"),
        unsupported("평균 체류시간이 3분 넘는 페이지", "no_column", "체류시간"),
        unsupported("작성자가 김민수인 글 보여줘", "no_column", "작성자"),
        unsupported("pages that load slowly (over 3 seconds)", "no_column", "load time"),
        unsupported("백링크가 50개 이상인 페이지", "no_column", "백링크"),
        unsupported("검색 순위 10위 밖으로 밀린 페이지", "no_column", "검색 순위"),
        unsupported("모바일 유입 비중이 높은 페이지", "no_column", "모바일 유입"),
        unsupported("pages with more than 10 comments", "no_column", "comments"),
        unsupported("지난주보다 클릭이 줄어든 페이지", "no_history", "지난주 대비"),
        unsupported("노출수 상위 5개 페이지 알려줘", "ranking"),
        unsupported("What's the page with the most clicks?", "ranking"),
        unsupported("전체 페이지 클릭수 합계는?", "aggregation"),
        unsupported("average bounce rate across all pages?", "aggregation"),
    ]


def main() -> None:
    write_set(HERE, KG_SPECS, ONCHAIN_SPECS, pages_specs(Pages()), FILMS_SPECS, verbose="-v" in sys.argv,
              min_n=200)


if __name__ == "__main__":
    main()
