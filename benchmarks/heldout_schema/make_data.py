"""Write data.ttl: a small, realistic schema.org dataset (people, organisations, places, events, works).

Every fact is listed in the tables below; the only generated part is a set of extra staff members, drawn
with a fixed seed so that the file is the same on every run. Run: python make_data.py
"""
from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------- places
# id: (class, ko name or None, en name, contained in, alternate names)
PLACES = {
    "south-korea": ("Country", "대한민국", "South Korea", None, ["한국", "Korea", "Republic of Korea"]),
    "japan": ("Country", "일본", "Japan", None, []),
    "united-states": ("Country", "미국", "United States", None, ["USA", "United States of America"]),
    "germany": ("Country", "독일", "Germany", None, []),
    "france": ("Country", "프랑스", "France", None, []),
    "vietnam": ("Country", "베트남", "Vietnam", None, ["Viet Nam"]),
    "seoul": ("City", "서울", "Seoul", "south-korea", ["서울특별시"]),
    "busan": ("City", "부산", "Busan", "south-korea", ["부산광역시"]),
    "incheon": ("City", "인천", "Incheon", "south-korea", ["인천광역시"]),
    "daejeon": ("City", "대전", "Daejeon", "south-korea", ["대전광역시"]),
    "daegu": ("City", "대구", "Daegu", "south-korea", ["대구광역시"]),
    "gwangju": ("City", "광주", "Gwangju", "south-korea", ["광주광역시"]),
    "jinju": ("City", "진주", "Jinju", "south-korea", ["진주시"]),
    "seongnam": ("City", "성남", "Seongnam", "south-korea", ["성남시"]),
    "suwon": ("City", "수원", "Suwon", "south-korea", ["수원시"]),
    "jeju": ("City", "제주", "Jeju", "south-korea", ["제주시"]),
    "tokyo": ("City", "도쿄", "Tokyo", "japan", []),
    "osaka": ("City", "오사카", "Osaka", "japan", []),
    "san-francisco": ("City", "샌프란시스코", "San Francisco", "united-states", []),
    "berlin": ("City", "베를린", "Berlin", "germany", []),
    "paris": ("City", "파리", "Paris", "france", []),
    "hanoi": ("City", "하노이", "Hanoi", "vietnam", []),
    "coex": ("EventVenue", "코엑스", "COEX", "seoul", ["COEX Convention Center"]),
    "bexco": ("EventVenue", "벡스코", "BEXCO", "busan", []),
    "sejong-center": ("EventVenue", "세종문화회관", "Sejong Center for the Performing Arts", "seoul", []),
    "kdj-center": ("EventVenue", "김대중컨벤션센터", "Kimdaejung Convention Center", "gwangju", []),
    "olympic-park": ("Park", "올림픽공원", "Olympic Park", "seoul", []),
}

# ---------------------------------------------------------------- organisations
# id: dict(cls, ko, en, alt, founded, employees, location, parent, founders, address)
ORGS = {
    "nuri-tech": dict(cls="Corporation", ko="누리테크", en="Nuri Tech", founded="2012-03-15", employees=1200,
                      location="seoul", founders=["kim-seoyeon", "park-jiho"],
                      address=("테헤란로 152", "서울", "06236", "KR")),
    "nuri-cloud": dict(cls="Corporation", ko="누리클라우드", en="Nuri Cloud", founded="2016-07-01", employees=310,
                       location="seongnam", parent="nuri-tech"),
    "nuri-labs": dict(cls="Corporation", ko="누리랩스", en="Nuri Labs", founded="2019-02-11", employees=45,
                      location="daejeon", parent="nuri-tech"),
    "hanul-electronics": dict(cls="Corporation", ko="한울전자", en="Hanul Electronics", founded="1987-05-20",
                              employees=15400, location="suwon", founders=["kwon-taesik"],
                              address=("삼성로 290", "수원", "16677", "KR")),
    "hanul-display": dict(cls="Corporation", ko="한울디스플레이", en="Hanul Display", founded="2003-09-01",
                          employees=4100, location="suwon", parent="hanul-electronics"),
    "hanul-semiconductor": dict(cls="Corporation", ko="한울반도체", en="Hanul Semiconductor", founded="2008-01-15",
                                employees=6800, location="seongnam", parent="hanul-electronics"),
    "daon-bio": dict(cls="Corporation", ko="다온바이오", en="Daon Bio", founded="2015-10-05", employees=420,
                     location="incheon", founders=["choi-minjun"]),
    "bada-trading": dict(cls="Corporation", ko="바다물산", en="Bada Trading", founded="1979-04-02", employees=800,
                         location="busan", founders=["lim-byeongcheol"],
                         address=("중앙대로 78", "부산", "48939", "KR")),
    "jinju-jewelry": dict(cls="Corporation", ko="진주", en="Jinju", alt=["진주주얼리", "Jinju Jewelry"],
                          founded="1998-11-11", employees=95, location="busan", founders=["heo-mirae"]),
    "byeolbit-ent": dict(cls="Corporation", ko="별빛엔터테인먼트", en="Byeolbit Entertainment", alt=["별빛엔터"],
                         founded="2010-06-18", employees=150, location="seoul", founders=["hong-daeun"]),
    "pureun-books": dict(cls="Corporation", ko="푸른출판사", en="Pureun Books", founded="1995-03-01", employees=38,
                         location="seoul", founders=["namgung-min"]),
    "hangang-media": dict(cls="Corporation", ko="한강미디어", en="Hangang Media", founded="2005-08-22",
                          employees=210, location="seoul"),
    "moapay": dict(cls="Corporation", ko="모아페이", en="MoaPay", founded="2021-04-19", employees=60,
                   location="seoul", founders=["yu-dain"]),
    "coding-house": dict(cls="Corporation", ko="코딩하우스", en="Coding House", founded="2022-09-01", employees=12,
                         location="daejeon", founders=["jang-hajun"]),
    "green-mobility": dict(cls="Corporation", ko="그린모빌리티", en="Green Mobility", founded="2018-03-27",
                           employees=230, location="daegu", founders=["baek-seungho"]),
    "sora-games": dict(cls="Corporation", ko="소라게임즈", en="Sora Games", founded="2014-12-01", employees=650,
                       location="seongnam", founders=["ahn-sohee"],
                       address=("판교역로 235", "성남", "13494", "KR")),
    "bluefin-analytics": dict(cls="Corporation", en="Bluefin Analytics", founded="2017-01-09", employees=90,
                              location="san-francisco", founders=["emily-carter"],
                              address=("500 Howard Street", "San Francisco", "94105", "US")),
    "kestrel-robotics": dict(cls="Corporation", en="Kestrel Robotics", founded="2011-05-03", employees=310,
                             location="berlin", founders=["lukas-becker"]),
    "sakura-foods": dict(cls="Corporation", en="Sakura Foods", founded="1962-10-01", employees=2300,
                         location="osaka"),
    "lotus-software": dict(cls="Corporation", en="Lotus Software", founded="2013-08-15", employees=140,
                           location="hanoi", founders=["nguyen-minh-anh"]),
    "hangyeol-univ": dict(cls="CollegeOrUniversity", ko="한결대학교", en="Hangyeol University", alt=["한결대"],
                          founded="1946-09-01", employees=3200, location="seoul"),
    "seohae-univ": dict(cls="CollegeOrUniversity", ko="서해대학교", en="Seohae University", alt=["서해대"],
                        founded="1978-03-02", employees=1100, location="incheon"),
    "namdo-ist": dict(cls="CollegeOrUniversity", ko="남도과학기술원", en="Namdo Institute of Science and Technology",
                      alt=["NIST Namdo", "남도과기원"], founded="1991-03-05", employees=900, location="gwangju"),
    "busan-maritime-univ": dict(cls="CollegeOrUniversity", ko="부산해양대학교", en="Busan Maritime University",
                                founded="1955-04-01", location="busan"),
    "daejeon-tech": dict(cls="CollegeOrUniversity", ko="대전공과대학교", en="Daejeon University of Technology",
                         alt=["대전공대"], founded="1984-03-01", employees=750, location="daejeon"),
    "pacific-state": dict(cls="CollegeOrUniversity", en="Pacific State University", founded="1899-08-28",
                          employees=5400, location="san-francisco"),
    "berlin-design": dict(cls="CollegeOrUniversity", en="Berlin Institute of Design", founded="1921-10-15",
                          location="berlin"),
    "haesol-hospital": dict(cls="Hospital", ko="해솔병원", en="Haesol Hospital", founded="1988-06-01",
                            employees=1850, location="seoul",
                            address=("올림픽로 43길 88", "서울", "05505", "KR")),
    "busan-central-hospital": dict(cls="Hospital", ko="부산중앙병원", en="Busan Central Hospital",
                                   founded="1971-02-15", employees=1300, location="busan"),
    "hangyeol-hospital": dict(cls="Hospital", ko="한결대학교병원", en="Hangyeol University Hospital",
                              founded="1959-05-10", employees=2600, location="seoul", parent="hangyeol-univ"),
    "jeju-haeoreum-hospital": dict(cls="Hospital", ko="제주해오름병원", en="Jeju Haeoreum Hospital",
                                   founded="2009-04-20", employees=380, location="jeju"),
    "green-earth": dict(cls="NGO", ko="초록지구", en="Green Earth Korea", alt=["초록지구연대"],
                        founded="2001-04-22", employees=55, location="seoul", founders=["moon-kyunghee"]),
    "together-sharing": dict(cls="NGO", ko="함께나눔", en="Together Sharing", founded="2008-12-03", employees=24,
                             location="daegu", founders=["seo-minji"]),
    "childrens-book-land": dict(cls="NGO", ko="어린이책나라", en="Children's Book Land", founded="2012-05-05",
                                location="gwangju", founders=["oh-serin"]),
    "open-water": dict(cls="NGO", en="Open Water Initiative", founded="2016-03-22", employees=18,
                       location="paris", founders=["marie-dubois"]),
    "siff-committee": dict(cls="Organization", ko="서울국제영화제 조직위원회",
                           en="Seoul International Film Festival Committee", founded="1999-01-20", location="seoul"),
    "publishers-forum": dict(cls="Organization", ko="한국출판인포럼", en="Korea Publishers Forum",
                             founded="2004-10-08", location="seoul"),
}

# ---------------------------------------------------------------- people
# id: (ko family, ko given, en given, en family, en name as stored or None for "Given Family",
#      birth date, birth place, job ko, job en, works for, alumni of, knows, spouse, alternate names)
P = dict
PEOPLE = {
    "kim-seoyeon": P(ko=("김", "서연"), en=("Seoyeon", "Kim"), birth="1988-07-14", place="seoul",
                     job=("대표이사", "Chief Executive Officer"), works=["nuri-tech"],
                     alumni=["hangyeol-univ", "pacific-state"],
                     knows=["park-jiho", "choi-minjun", "lee-haeun", "emily-carter", "yu-dain"],
                     spouse="jung-woojin"),
    "jung-woojin": P(ko=("정", "우진"), en=("Woojin", "Jung"), birth="1986-02-03", place="busan",
                     job=("외과 전문의", "Surgeon"), works=["haesol-hospital"], alumni=["hangyeol-univ"],
                     knows=["lee-jieun-doctor", "han-jiwoo"]),
    "park-jiho": P(ko=("박", "지호"), en=("Jiho", "Park"), en_name="Park Jiho", birth="1990-11-30",
                   place="daejeon", job=("최고기술책임자", "Chief Technology Officer"), works=["nuri-tech"],
                   alumni=["daejeon-tech"], knows=["han-doyun", "daniel-choi", "jang-hajun"]),
    "choi-minjun": P(ko=("최", "민준"), en=("Minjun", "Choi"), birth="1985-05-09", place="seoul",
                     job=("대표이사", "Chief Executive Officer"), works=["daon-bio"], alumni=["hangyeol-univ"],
                     knows=["oh-serin", "shin-yerin"], spouse="yoon-harin"),
    "lee-haeun": P(ko=("이", "하은"), en=("Haeun", "Lee"), birth="1993-01-21", place="incheon",
                   job=("프로덕트 매니저", "Product Manager"), works=["nuri-cloud"], alumni=["seohae-univ"],
                   knows=["hwang-junseo"]),
    "lee-jieun-doctor": P(ko=("이", "지은"), en=("Jieun", "Lee"), birth="1984-09-02", place="seoul",
                          job=("소아과 전문의", "Pediatrician"), works=["haesol-hospital"], alumni=["hangyeol-univ"],
                          knows=["bae-sua"]),
    "lee-jieun-dev": P(ko=("이", "지은"), en=("Jieun", "Lee"), birth="1995-03-17", place="gwangju",
                       job=("게임 개발자", "Game Developer"), works=["sora-games"], alumni=["namdo-ist"],
                       knows=["ahn-sohee"]),
    "han-doyun": P(ko=("한", "도윤"), en=("Doyun", "Han"), birth="1979-12-12", place="suwon",
                   job=("연구소장", "Research Director"), works=["hanul-electronics"], alumni=["daejeon-tech"],
                   knows=["kwon-dohyun", "lukas-becker"]),
    "oh-serin": P(ko=("오", "세린"), en=("Serin", "Oh"), birth="1991-06-25", place="seoul",
                  job=("소설가", "Novelist"), alumni=["hangyeol-univ"], knows=["noh-yuna", "moon-kyunghee"]),
    "yoon-harin": P(ko=("윤", "하린"), en=("Harin", "Yoon"), birth="1987-08-08", place="daegu",
                    job=("영화감독", "Film Director"), works=["byeolbit-ent"], alumni=["seohae-univ"],
                    knows=["kang-taeo", "song-jia"]),
    "kang-taeo": P(ko=("강", "태오"), en=("Taeo", "Kang"), birth="1982-04-30", place="busan",
                   job=("배우", "Actor"), works=["byeolbit-ent"], knows=["song-jia", "min-haneul"]),
    "song-jia": P(ko=("송", "지아"), en=("Jia", "Song"), birth="1996-10-10", place="seoul",
                  job=("가수", "Singer"), works=["byeolbit-ent"], knows=["min-haneul"]),
    "min-haneul": P(ko=("민", "하늘"), en=("Haneul", "Min"), birth="2000-02-29", place="jeju",
                    job=("배우", "Actor"), works=["byeolbit-ent"]),
    "pyo-minseok": P(ko=("표", "민석"), en=("Minseok", "Pyo"), birth="1972-01-19", place="gwangju",
                     job=("영화감독", "Film Director"), alumni=["namdo-ist"], knows=["yoon-harin"]),
    "lim-jaehyun": P(ko=("임", "재현"), en=("Jaehyun", "Lim"), birth="1975-03-03", place="busan",
                     job=("회장", "Chairman"), works=["bada-trading"], alumni=["busan-maritime-univ"],
                     knows=["go-eunbi"]),
    "lim-byeongcheol": P(ko=("임", "병철"), en=("Byeongcheol", "Lim"), birth="1940-01-15", place="busan",
                         knows=["lim-jaehyun"]),
    "seo-minji": P(ko=("서", "민지"), en=("Minji", "Seo"), birth="1989-02-14", place="daegu",
                   job=("사무총장", "Secretary General"), works=["green-earth"], alumni=["seohae-univ"],
                   knows=["moon-kyunghee", "marie-dubois"]),
    "moon-kyunghee": P(ko=("문", "경희"), en=("Kyunghee", "Moon"), birth="1962-07-07", place="gwangju",
                       job=("환경운동가", "Environmental Activist"), alumni=["namdo-ist"]),
    "bae-sua": P(ko=("배", "수아"), en=("Sua", "Bae"), birth="1992-12-01", place="jeju",
                 job=("간호사", "Nurse"), works=["jeju-haeoreum-hospital"], alumni=["busan-maritime-univ"]),
    "hwang-junseo": P(ko=("황", "준서"), en=("Junseo", "Hwang"), birth="1998-05-05", place="seongnam",
                      job=("데이터 엔지니어", "Data Engineer"), works=["nuri-cloud"], alumni=["hangyeol-univ"]),
    "noh-yuna": P(ko=("노", "윤아"), en=("Yuna", "Noh"), birth="1994-09-09", place="seoul",
                  job=("편집자", "Editor"), works=["pureun-books"], alumni=["hangyeol-univ"]),
    "cho-hyunwoo": P(ko=("조", "현우"), en=("Hyunwoo", "Cho"), birth="1983-11-11", place="incheon",
                     job=("교수", "Professor"), works=["seohae-univ"], alumni=["pacific-state"],
                     knows=["lee-haeun", "shin-yerin"]),
    "shin-yerin": P(ko=("신", "예린"), en=("Yerin", "Shin"), birth="1997-07-27", place="daegu",
                    job=("연구원", "Researcher"), works=["daon-bio"], alumni=["seohae-univ"]),
    "kwon-dohyun": P(ko=("권", "도현"), en=("Dohyun", "Kwon"), birth="1968-10-21", place="suwon",
                     job=("대표이사", "Chief Executive Officer"), works=["hanul-electronics"],
                     alumni=["hangyeol-univ"], knows=["kwon-taesik"]),
    "kwon-taesik": P(ko=("권", "태식"), en=("Taesik", "Kwon"), birth="1938-06-30", place="suwon"),
    "yu-dain": P(ko=("유", "다인"), en=("Dain", "Yu"), birth="1995-02-28", place="seoul",
                 job=("대표", "Founder and CEO"), works=["moapay"], alumni=["hangyeol-univ"]),
    "jang-hajun": P(ko=("장", "하준"), en=("Hajun", "Jang"), birth="1999-08-19", place="daejeon",
                    job=("대표", "Founder and CEO"), works=["coding-house"], alumni=["daejeon-tech"]),
    "baek-seungho": P(ko=("백", "승호"), en=("Seungho", "Baek"), birth="1981-04-04", place="daegu",
                      job=("대표이사", "Chief Executive Officer"), works=["green-mobility"], alumni=["daejeon-tech"]),
    "ahn-sohee": P(ko=("안", "소희"), en=("Sohee", "Ahn"), birth="1984-01-08", place="seoul",
                   job=("대표이사", "Chief Executive Officer"), works=["sora-games"], alumni=["namdo-ist"]),
    "hong-daeun": P(ko=("홍", "다은"), en=("Daeun", "Hong"), birth="1976-05-23", place="seoul",
                    job=("대표이사", "Chief Executive Officer"), works=["byeolbit-ent"]),
    "namgung-min": P(ko=("남궁", "민"), en=("Min", "Namgung"), birth="1958-03-18", place="seoul",
                     job=("대표", "Publisher"), works=["pureun-books", "publishers-forum"],
                     knows=["oh-serin", "noh-yuna"]),
    "heo-mirae": P(ko=("허", "미래"), en=("Mirae", "Heo"), birth="1966-11-02", place="jinju",
                   job=("디자이너", "Jewelry Designer"), works=["jinju-jewelry"]),
    "go-eunbi": P(ko=("고", "은비"), en=("Eunbi", "Ko"), birth="1978-08-30", place="busan",
                  job=("간호부장", "Director of Nursing"), works=["busan-central-hospital"],
                  alumni=["busan-maritime-univ"]),
    "han-jiwoo": P(ko=("한", "지우"), en=("Jiwoo", "Han"), birth="1990-03-09", place="seoul",
                   job=("내과 전문의", "Internist"), works=["hangyeol-hospital"], alumni=["hangyeol-univ"]),
    # English-only, or Korean only as an alternate name
    "emily-carter": P(en=("Emily", "Carter"), birth="1987-03-22", place="san-francisco",
                      job=(None, "Chief Data Scientist"), works=["bluefin-analytics"], alumni=["pacific-state"],
                      knows=["daniel-choi"]),
    "daniel-choi": P(en=("Daniel", "Choi"), alt=["최다니엘"], birth="1990-06-06", place="san-francisco",
                     job=(None, "Software Engineer"), works=["bluefin-analytics"], alumni=["pacific-state"]),
    "lukas-becker": P(en=("Lukas", "Becker"), birth="1980-10-05", place="berlin",
                      job=(None, "Chief Executive Officer"), works=["kestrel-robotics"], alumni=["berlin-design"],
                      spouse="hannah-schmidt"),
    "hannah-schmidt": P(en=("Hannah", "Schmidt"), birth="1983-02-17", place="berlin",
                        job=(None, "Robotics Engineer"), works=["kestrel-robotics"], alumni=["berlin-design"]),
    "yuki-tanaka": P(en=("Yuki", "Tanaka"), alt=["다나카 유키"], birth="1986-12-24", place="osaka",
                     job=(None, "Marketing Director"), works=["sakura-foods"]),
    "marie-dubois": P(en=("Marie", "Dubois"), birth="1979-07-14", place="paris",
                      job=(None, "Executive Director"), works=["open-water"]),
    "nguyen-minh-anh": P(en=("Minh Anh", "Nguyen"), en_name="Nguyen Minh Anh", birth="1988-04-30",
                         place="hanoi", job=(None, "Chief Technology Officer"), works=["lotus-software"],
                         knows=["park-jiho"]),
    "anna-keller": P(en=("Anna", "Keller"), birth="1975-09-12", place="berlin", job=(None, "Film Director")),
}

# ---------------------------------------------------------------- creative works
WORKS = {
    "book-hours-of-the-sea": P(cls="Book", ko="바다의 시간", en="The Hours of the Sea", date="2015-04-10",
                               author=["oh-serin"], publisher="pureun-books", isbn="978-89-7012-101-4"),
    "book-winter-garden": P(cls="Book", ko="겨울 정원", en="Winter Garden", date="2019-11-20",
                            author=["oh-serin"], publisher="pureun-books", isbn="978-89-7012-233-2"),
    "book-under-the-moonlight": P(cls="Book", ko="달빛 아래서", en="Under the Moonlight", date="2023-06-01",
                                  author=["oh-serin"], publisher="pureun-books", isbn="978-89-7012-318-6"),
    "book-cities-through-data": P(cls="Book", ko="데이터로 읽는 도시", en="Reading Cities through Data",
                                  date="2021-03-05", author=["cho-hyunwoo"], publisher="hangang-media",
                                  isbn="978-11-5560-042-7"),
    "book-first-1000-days": P(cls="Book", ko="스타트업의 첫 1000일", en="The First 1000 Days of a Startup",
                              date="2020-09-15", author=["kim-seoyeon"], publisher="pureun-books",
                              isbn="978-89-7012-287-5"),
    "book-little-forest": P(cls="Book", ko="작은 숲 이야기", en="Little Forest Stories", date="2010-05-05",
                            author=["moon-kyunghee"], publisher="pureun-books", isbn="978-89-7012-055-0"),
    "book-healthy-children": P(cls="Book", ko="아이 건강 첫걸음", en="First Steps to a Healthy Child",
                               date="2018-02-26", author=["lee-jieun-doctor", "jung-woojin"],
                               publisher="hangang-media", isbn="978-11-5560-019-9"),
    "book-robots-among-us": P(cls="Book", en="Robots Among Us", date="2018-05-02", author=["lukas-becker"],
                              isbn="978-3-16-148410-0"),
    "book-quiet-algorithm": P(cls="Book", en="The Quiet Algorithm", date="2022-02-08",
                              author=["emily-carter", "daniel-choi"], isbn="978-1-4028-9462-6"),
    "movie-hours-of-the-sea": P(cls="Movie", ko="바다의 시간", en="The Hours of the Sea", date="2021-08-11",
                                director=["yoon-harin"], actor=["kang-taeo", "song-jia"], company="byeolbit-ent"),
    "movie-last-train": P(cls="Movie", ko="마지막 기차", en="The Last Train", date="2017-12-20",
                          director=["yoon-harin"], actor=["kang-taeo"], company="byeolbit-ent"),
    "movie-seoul-nights": P(cls="Movie", ko="서울의 밤", en="Seoul Nights", date="2019-05-30",
                            director=["pyo-minseok"], actor=["kang-taeo", "song-jia"], company="hangang-media"),
    "movie-red-season": P(cls="Movie", ko="붉은 계절", en="Red Season", date="2023-09-14",
                          director=["pyo-minseok"], actor=["song-jia", "min-haneul"], company="hangang-media"),
    "movie-summer-in-jeju": P(cls="Movie", ko="제주의 여름", en="Summer in Jeju", date="2024-07-03",
                              director=["yoon-harin"], actor=["kang-taeo", "song-jia", "min-haneul"],
                              company="byeolbit-ent"),
    "movie-paper-moon": P(cls="Movie", en="Paper Moon over Berlin", date="2016-02-12", director=["anna-keller"],
                          actor=["hannah-schmidt"]),
}

# ---------------------------------------------------------------- events
EVENTS = {
    "siff-2023": P(cls="Festival", ko="서울국제영화제 2023", en="Seoul International Film Festival 2023",
                   start="2023-10-05", end="2023-10-14", location="sejong-center", organizer=["siff-committee"],
                   performer=["kang-taeo", "song-jia", "yoon-harin"]),
    "nuri-devcon-2024": P(cls="BusinessEvent", ko="누리 개발자 컨퍼런스 2024", en="Nuri DevCon 2024",
                          start="2024-05-21", end="2024-05-22", location="coex", organizer=["nuri-tech"],
                          performer=["kim-seoyeon", "park-jiho", "hwang-junseo", "daniel-choi"]),
    "busan-bio-forum-2022": P(cls="BusinessEvent", ko="부산 바이오 포럼 2022", en="Busan Bio Forum 2022",
                              start="2022-09-14", location="bexco", organizer=["daon-bio"],
                              performer=["choi-minjun", "shin-yerin", "jung-woojin"]),
    "gwangju-ai-summit-2023": P(cls="Event", ko="광주 AI 서밋 2023", en="Gwangju AI Summit 2023",
                                start="2023-11-08", location="kdj-center", organizer=["namdo-ist"],
                                performer=["lee-jieun-dev", "park-jiho", "emily-carter"]),
    "starlight-concert-2024": P(cls="MusicEvent", ko="별빛 콘서트 2024", en="Starlight Concert 2024",
                                start="2024-08-17", location="olympic-park", organizer=["byeolbit-ent"],
                                performer=["song-jia", "min-haneul"]),
    "green-marathon-2024": P(cls="SportsEvent", ko="초록지구 환경 마라톤 2024", en="Green Earth Marathon 2024",
                             start="2024-04-14", location="olympic-park", organizer=["green-earth"]),
    "jeju-wellness-2024": P(cls="Festival", ko="제주 웰니스 페스티벌 2024", en="Jeju Wellness Festival 2024",
                            start="2024-10-12", end="2024-10-13", location="jeju",
                            organizer=["jeju-haeoreum-hospital"], performer=["song-jia"]),
    "sora-showcase-2025": P(cls="BusinessEvent", ko="소라게임즈 쇼케이스 2025", en="Sora Games Showcase 2025",
                            start="2025-02-11", location="coex", organizer=["sora-games"],
                            performer=["ahn-sohee", "lee-jieun-dev"]),
    "berlin-robotics-2023": P(cls="Event", en="Berlin Robotics Week 2023", start="2023-06-19", end="2023-06-23",
                              location="berlin", organizer=["kestrel-robotics"],
                              performer=["lukas-becker", "hannah-schmidt", "han-doyun"]),
    "open-water-summit-2022": P(cls="Event", en="Open Water Summit 2022", start="2022-03-22", location="paris",
                                organizer=["open-water"], performer=["marie-dubois", "seo-minji"]),
    "hangyeol-concert-2021": P(cls="MusicEvent", ko="한결 개교기념 음악회 2021",
                               en="Hangyeol Anniversary Concert 2021", start="2021-05-15",
                               location="sejong-center", organizer=["hangyeol-univ"], performer=["song-jia"]),
    "busan-book-fair-2023": P(cls="Event", ko="부산 도서전 2023", en="Busan Book Fair 2023", start="2023-06-01",
                              end="2023-06-04", location="bexco", organizer=["pureun-books", "publishers-forum"],
                              performer=["oh-serin", "moon-kyunghee", "cho-hyunwoo"]),
}

# ---------------------------------------------------------------- extra staff (generated, fixed seed)
KO_FAMILY = [("김", "Kim"), ("이", "Lee"), ("박", "Park"), ("최", "Choi"), ("정", "Jung"), ("강", "Kang"),
             ("조", "Cho"), ("윤", "Yoon"), ("장", "Jang"), ("임", "Lim"), ("오", "Oh"), ("서", "Seo"),
             ("신", "Shin"), ("권", "Kwon"), ("황", "Hwang"), ("안", "Ahn"), ("송", "Song"), ("류", "Ryu"),
             ("전", "Jeon"), ("홍", "Hong"), ("고", "Ko"), ("문", "Moon"), ("양", "Yang"), ("손", "Son"),
             ("배", "Bae"), ("백", "Baek"), ("허", "Heo"), ("남", "Nam"), ("심", "Shim"), ("노", "Noh"),
             ("하", "Ha"), ("곽", "Kwak"), ("성", "Sung"), ("차", "Cha"), ("주", "Joo"), ("우", "Woo")]
KO_GIVEN = [("민서", "Minseo"), ("지훈", "Jihoon"), ("예준", "Yejun"), ("수빈", "Subin"), ("서준", "Seojun"),
            ("하윤", "Hayun"), ("지민", "Jimin"), ("유진", "Yujin"), ("채원", "Chaewon"), ("승민", "Seungmin"),
            ("다현", "Dahyun"), ("준혁", "Junhyuk"), ("소율", "Soyul"), ("은우", "Eunwoo"), ("나연", "Nayeon"),
            ("태윤", "Taeyun"), ("가은", "Gaeun"), ("시우", "Siwoo"), ("윤서", "Yunseo"), ("건우", "Geonwoo"),
            ("서윤", "Seoyun"), ("지안", "Jian"), ("하람", "Haram"), ("주원", "Juwon"), ("아린", "Arin"),
            ("민재", "Minjae"), ("예은", "Yeeun"), ("성민", "Sungmin"), ("혜원", "Hyewon"), ("동현", "Donghyun")]
EN_GIVEN = ["Olivia", "James", "Sophie", "Noah", "Clara", "Felix", "Grace", "Leon", "Mia", "Oscar", "Ruth",
            "Samuel"]
EN_FAMILY = ["Miller", "Wagner", "Brooks", "Fischer", "Bennett", "Hoffmann", "Reed", "Martin", "Sato", "Ito"]
JOBS_KO = [("소프트웨어 엔지니어", "Software Engineer"), ("연구원", "Researcher"), ("마케팅 매니저", "Marketing Manager"),
           ("회계사", "Accountant"), ("디자이너", "Designer"), ("영업 매니저", "Sales Manager"),
           ("인사 담당자", "HR Specialist"), ("간호사", "Nurse"), ("행정직원", "Administrator")]
JOBS_HOSPITAL = [("간호사", "Nurse"), ("내과 전문의", "Internist"), ("약사", "Pharmacist"), ("행정직원", "Administrator")]
JOBS_UNIV = [("교수", "Professor"), ("연구원", "Researcher"), ("행정직원", "Administrator")]
# organisation -> number of generated staff
STAFF = {"nuri-tech": 4, "nuri-cloud": 3, "nuri-labs": 2, "hanul-electronics": 3, "hanul-display": 2,
         "hanul-semiconductor": 2, "daon-bio": 3, "bada-trading": 2, "byeolbit-ent": 1, "hangang-media": 2,
         "moapay": 2, "coding-house": 1, "green-mobility": 2, "sora-games": 3, "hangyeol-univ": 3,
         "seohae-univ": 2, "namdo-ist": 2, "daejeon-tech": 1, "haesol-hospital": 3, "busan-central-hospital": 2,
         "hangyeol-hospital": 2, "jeju-haeoreum-hospital": 1, "green-earth": 2, "together-sharing": 2,
         "bluefin-analytics": 2, "kestrel-robotics": 2, "sakura-foods": 1, "lotus-software": 1}
KOREAN_UNIS = ["hangyeol-univ", "seohae-univ", "namdo-ist", "busan-maritime-univ", "daejeon-tech"]


def generate_staff():
    rng = random.Random(20240917)
    taken_ko = {"".join(p["ko"]) for p in PEOPLE.values() if "ko" in p}
    taken_en = {" ".join(p["en"]) for p in PEOPLE.values()}
    staff = {}
    for org, n in STAFF.items():
        foreign = ORGS[org].get("ko") is None
        for i in range(n):
            while True:
                if foreign:
                    g, f = rng.choice(EN_GIVEN), rng.choice(EN_FAMILY)
                    if f"{g} {f}" in taken_en:
                        continue
                    taken_en.add(f"{g} {f}")
                    rec = P(en=(g, f))
                    pid = f"{g}-{f}".lower()
                else:
                    (fk, fe), (gk, ge) = rng.choice(KO_FAMILY), rng.choice(KO_GIVEN)
                    if fk + gk in taken_ko or f"{ge} {fe}" in taken_en:
                        continue
                    taken_ko.add(fk + gk)
                    taken_en.add(f"{ge} {fe}")
                    rec = P(ko=(fk, gk), en=(ge, fe))
                    pid = f"{fe}-{ge}".lower()
                break
            year = rng.randint(1970, 2001)
            rec["birth"] = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            cls = ORGS[org]["cls"]
            jobs = JOBS_HOSPITAL if cls == "Hospital" else JOBS_UNIV if cls == "CollegeOrUniversity" else JOBS_KO[:7]
            jk, je = rng.choice(jobs)
            rec["job"] = (None if foreign else jk, je)
            rec["works"] = [org]
            if not foreign and rng.random() < 0.6:
                rec["alumni"] = [rng.choice(KOREAN_UNIS)]
            rec["staff"] = True
            staff[pid] = rec
    # colleagues know each other: each new staff member knows the previous one at the same organisation
    by_org: dict[str, list[str]] = {}
    for pid, rec in staff.items():
        by_org.setdefault(rec["works"][0], []).append(pid)
    for org, ids in by_org.items():
        for a, b in zip(ids, ids[1:]):
            staff[a].setdefault("knows", []).append(b)
    return staff


# ---------------------------------------------------------------- Turtle writer
def lit(text: str, lang: str | None = None) -> str:
    esc = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{esc}"@{lang}' if lang else f'"{esc}"'


def date(d: str) -> str:
    return f'"{d}"^^xsd:date'


def ref(kind: str, key: str) -> str:
    return f"{kind}:{key}"


def names(ko: str | None, en: str | None) -> list[str]:
    out = []
    if ko:
        out.append(f"schema:name {lit(ko, 'ko')}")
    if en:
        out.append(f"schema:name {lit(en, 'en')}")
    return out


def block(subject: str, cls: str, props: list[str]) -> str:
    lines = [f"{subject} a schema:{cls}"] + props
    return " ;\n    ".join(lines) + " .\n"


def main() -> None:
    people = dict(PEOPLE)
    people.update(generate_staff())

    # symmetric facts are written on both sides
    knows: dict[str, set[str]] = {k: set() for k in people}
    for a, rec in people.items():
        for b in rec.get("knows", []):
            knows[a].add(b)
            knows[b].add(a)
    spouse: dict[str, str] = {}
    for a, rec in people.items():
        if rec.get("spouse"):
            spouse[a], spouse[rec["spouse"]] = rec["spouse"], a
    founders: dict[str, list[str]] = {o: rec.get("founders", []) for o, rec in ORGS.items()}
    subs: dict[str, list[str]] = {}
    for o, rec in ORGS.items():
        if rec.get("parent"):
            subs.setdefault(rec["parent"], []).append(o)

    out = ["@prefix schema: <https://schema.org/> .",
           "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
           "@prefix place: <https://data.example.org/place/> .",
           "@prefix orgn: <https://data.example.org/organization/> .",
           "@prefix person: <https://data.example.org/person/> .",
           "@prefix work: <https://data.example.org/work/> .",
           "@prefix event: <https://data.example.org/event/> .",
           "",
           "# A directory of people, organisations, places, events and creative works, in schema.org terms.",
           "# The people and organisations are fictional; the cities and countries are real.",
           ""]

    out.append("# ---- places\n")
    for key, (cls, ko, en, inside, alt) in PLACES.items():
        props = names(ko, en) + [f"schema:alternateName {lit(a)}" for a in alt]
        if inside:
            props.append(f"schema:containedInPlace {ref('place', inside)}")
        out.append(block(ref("place", key), cls, props))

    out.append("# ---- organisations\n")
    for key, rec in ORGS.items():
        props = names(rec.get("ko"), rec.get("en"))
        props += [f"schema:alternateName {lit(a)}" for a in rec.get("alt", [])]
        if rec.get("founded"):
            props.append(f"schema:foundingDate {date(rec['founded'])}")
        if rec.get("employees"):
            props.append("schema:numberOfEmployees [ a schema:QuantitativeValue ; "
                         f"schema:value {rec['employees']} ]")
        props.append(f"schema:location {ref('place', rec['location'])}")
        if rec.get("address"):
            street, locality, code, country = rec["address"]
            props.append("schema:address [ a schema:PostalAddress ; "
                         f"schema:streetAddress {lit(street)} ; schema:addressLocality {lit(locality)} ; "
                         f"schema:postalCode {lit(code)} ; schema:addressCountry {lit(country)} ]")
        for f in founders[key]:
            props.append(f"schema:founder {ref('person', f)}")
        if rec.get("parent"):
            props.append(f"schema:parentOrganization {ref('orgn', rec['parent'])}")
        for s in subs.get(key, []):
            props.append(f"schema:subOrganization {ref('orgn', s)}")
        out.append(block(ref("orgn", key), rec["cls"], props))

    out.append("# ---- people\n")
    for key, rec in people.items():
        props = []
        given_en, family_en = rec["en"]
        en_name = rec.get("en_name") or f"{given_en} {family_en}"
        if "ko" in rec:
            fk, gk = rec["ko"]
            props.append(f"schema:name {lit(fk + gk, 'ko')}")
        props.append(f"schema:name {lit(en_name, 'en')}")
        props += [f"schema:alternateName {lit(a, 'ko')}" for a in rec.get("alt", [])]
        if "ko" in rec:
            props.append(f"schema:givenName {lit(rec['ko'][1], 'ko')} , {lit(given_en, 'en')}")
            props.append(f"schema:familyName {lit(rec['ko'][0], 'ko')} , {lit(family_en, 'en')}")
        else:
            props.append(f"schema:givenName {lit(given_en, 'en')}")
            props.append(f"schema:familyName {lit(family_en, 'en')}")
        if rec.get("job"):
            jk, je = rec["job"]
            props.append("schema:jobTitle " + " , ".join(
                x for x in (lit(jk, "ko") if jk else None, lit(je, "en")) if x))
        if rec.get("birth"):
            props.append(f"schema:birthDate {date(rec['birth'])}")
        if rec.get("place"):
            props.append(f"schema:birthPlace {ref('place', rec['place'])}")
        for o in rec.get("works", []):
            props.append(f"schema:worksFor {ref('orgn', o)}")
        for o in rec.get("alumni", []):
            props.append(f"schema:alumniOf {ref('orgn', o)}")
        for k in sorted(knows[key]):
            props.append(f"schema:knows {ref('person', k)}")
        if key in spouse:
            props.append(f"schema:spouse {ref('person', spouse[key])}")
        out.append(block(ref("person", key), "Person", props))

    out.append("# ---- creative works\n")
    for key, rec in WORKS.items():
        props = names(rec.get("ko"), rec.get("en"))
        props.append(f"schema:datePublished {date(rec['date'])}")
        for a in rec.get("author", []):
            props.append(f"schema:author {ref('person', a)}")
        for d in rec.get("director", []):
            props.append(f"schema:director {ref('person', d)}")
        for a in rec.get("actor", []):
            props.append(f"schema:actor {ref('person', a)}")
        if rec.get("publisher"):
            props.append(f"schema:publisher {ref('orgn', rec['publisher'])}")
        if rec.get("company"):
            props.append(f"schema:productionCompany {ref('orgn', rec['company'])}")
        if rec.get("isbn"):
            props.append(f"schema:isbn {lit(rec['isbn'])}")
        out.append(block(ref("work", key), rec["cls"], props))

    out.append("# ---- events\n")
    for key, rec in EVENTS.items():
        props = names(rec.get("ko"), rec.get("en"))
        props.append(f"schema:startDate {date(rec['start'])}")
        if rec.get("end"):
            props.append(f"schema:endDate {date(rec['end'])}")
        props.append(f"schema:location {ref('place', rec['location'])}")
        for o in rec.get("organizer", []):
            props.append(f"schema:organizer {ref('orgn', o)}")
        for p in rec.get("performer", []):
            props.append(f"schema:performer {ref('person', p)}")
        out.append(block(ref("event", key), rec["cls"], props))

    (HERE / "data.ttl").write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    main()
