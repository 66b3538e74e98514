"""Write the hospitals folder's tables (data/kg_*.csv) and questions.jsonl.

The rows and the questions (with their meanings) are written out here by hand; every gold answer is computed
by gold.py from the tables and the ontology. ontology.ttl, shapes.ttl and data/README.md are hand-written files.

    python build.py            # rewrite data/kg_*.csv and questions.jsonl
    python build.py --check    # exit 1 if any of them is out of date
"""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

LITERAL_COLUMNS = [
    "bedCount", "foundedOn", "isTeachingHospital", "floorNumber", "licenseNumber", "yearsOfExperience",
    "birthDate", "bloodType", "dosageMg", "approvedOn", "isGeneric", "atcCode", "population",
]
NODE_COLUMNS = ["node_id", "class", "label", "aliases"] + LITERAL_COLUMNS

# ---------------------------------------------------------------------------------------------------------
# Nodes: (node_id, class, label, aliases, {literal column: value})

NODES = [
    ("k_kr", "Country", "대한민국", "한국|South Korea|Korea", {}),
    ("k_jp", "Country", "일본", "Japan|日本", {}),
    ("c_seoul", "City", "서울", "Seoul|서울특별시", {"population": "9386000"}),
    ("c_busan", "City", "부산", "Busan|부산광역시", {"population": "3293000"}),
    ("c_incheon", "City", "인천", "Incheon", {"population": "2997000"}),
    ("c_daejeon", "City", "대전", "Daejeon", {}),
    ("c_fukuoka", "City", "후쿠오카", "Fukuoka|福岡", {"population": "1612000"}),
    ("c_osaka", "City", "오사카", "Osaka|大阪", {"population": "2752000"}),

    ("h_sch", "Hospital", "서울중앙병원", "Seoul Central Hospital|SCH",
     {"bedCount": "1200", "foundedOn": "1978-05-02", "isTeachingHospital": "true"}),
    ("h_hanbit", "Hospital", "한빛대학교병원", "Hanbit University Hospital|한빛대병원|Hanbit Univ. Hospital",
     {"bedCount": "860", "foundedOn": "1994-03-15", "isTeachingHospital": "true"}),
    ("h_bada", "Hospital", "부산바다병원", "Busan Bada Hospital|바다병원",
     {"bedCount": "420", "foundedOn": "2003-09-01", "isTeachingHospital": "false"}),
    ("h_saebom", "Hospital", "새봄병원", "Saebom Hospital",
     {"bedCount": "180", "isTeachingHospital": "false"}),
    ("h_seongsim", "Hospital", "대전성심의료원", "Daejeon Seongsim Medical Center|성심의료원|Seongsim Medical Center",
     {"bedCount": "610", "foundedOn": "1962-11-20", "isTeachingHospital": "true"}),
    ("h_minato", "Hospital", "미나토 종합병원", "Minato General Hospital|みなと総合病院",
     {"bedCount": "350", "foundedOn": "1988-04-01"}),

    ("dp_sch_im", "Department", "서울중앙병원 내과", "SCH Internal Medicine|Seoul Central Internal Medicine", {"floorNumber": "3"}),
    ("dp_sch_id", "Department", "서울중앙병원 감염내과", "SCH Infectious Diseases", {"floorNumber": "5"}),
    ("dp_sch_cardio", "Department", "서울중앙병원 심장내과", "SCH Cardiology", {"floorNumber": "4"}),
    ("dp_hb_ortho", "Department", "한빛대학교병원 정형외과", "Hanbit Orthopedics", {"floorNumber": "2"}),
    ("dp_hb_er", "Department", "한빛대학교병원 응급의학과", "Hanbit Emergency Medicine|한빛대병원 응급실", {"floorNumber": "1"}),
    ("dp_hb_cardio", "Department", "한빛대학교병원 심장내과", "Hanbit Cardiology", {"floorNumber": "6"}),
    ("dp_bada_im", "Department", "부산바다병원 내과", "Bada Internal Medicine", {"floorNumber": "2"}),
    ("dp_bada_pain", "Department", "부산바다병원 마취통증의학과", "Bada Pain Medicine", {"floorNumber": "3"}),
    ("dp_sb_peds", "Department", "새봄병원 소아청소년과", "Saebom Pediatrics", {"floorNumber": "2"}),
    ("dp_sb_fm", "Department", "새봄병원 가정의학과", "Saebom Family Medicine", {"floorNumber": "1"}),
    ("dp_ss_neuro", "Department", "대전성심의료원 신경과", "Seongsim Neurology", {"floorNumber": "7"}),
    ("dp_ss_im", "Department", "대전성심의료원 내과", "Seongsim Internal Medicine", {}),
    ("dp_mn_surg", "Department", "미나토 종합병원 외과", "Minato Surgery", {"floorNumber": "4"}),
    ("dp_mn_im", "Department", "미나토 종합병원 내과", "Minato Internal Medicine", {"floorNumber": "3"}),

    ("d_kim_sch", "Doctor", "김지훈", "Jihoon Kim|Kim Jihoon", {"licenseNumber": "MD-10231", "yearsOfExperience": "12"}),
    ("d_lee", "Doctor", "이민호", "Minho Lee|Lee Minho", {"licenseNumber": "MD-20417", "yearsOfExperience": "18"}),
    ("d_park", "Doctor", "박서연", "Seoyeon Park|Park Seoyeon", {"licenseNumber": "MD-30552", "yearsOfExperience": "9"}),
    ("d_choi", "Doctor", "최영준", "Youngjun Choi|Choi Youngjun", {"licenseNumber": "MD-11873", "yearsOfExperience": "22"}),
    ("d_jung", "Doctor", "정하은", "Haeun Jung|Jung Haeun", {"licenseNumber": "MD-40129", "yearsOfExperience": "4"}),
    ("d_kang", "Doctor", "강도원", "Dowon Kang|Kang Dowon", {"licenseNumber": "MD-25590", "yearsOfExperience": "15"}),
    ("d_kim_bada", "Doctor", "김지훈", "Jihoon Kim|Kim Jihoon", {"licenseNumber": "MD-33710", "yearsOfExperience": "7"}),
    ("d_yoon", "Doctor", "윤수민", "Sumin Yoon|Yoon Sumin", {"licenseNumber": "MD-18842", "yearsOfExperience": "11"}),
    ("d_han", "Doctor", "한재원", "Jaewon Han|Han Jaewon", {"licenseNumber": "MD-27705", "yearsOfExperience": "6"}),
    ("d_lim", "Doctor", "임수현", "Suhyun Lim|Lim Suhyun", {"yearsOfExperience": "25"}),
    ("d_oh", "Doctor", "오준석", "Junseok Oh|Oh Junseok", {"licenseNumber": "MD-14468", "yearsOfExperience": "30"}),
    ("d_seo", "Doctor", "서예린", "Yerin Seo|Seo Yerin", {"licenseNumber": "MD-39021", "yearsOfExperience": "3"}),
    ("d_tanaka", "Doctor", "다나카 히로시", "Hiroshi Tanaka|Tanaka Hiroshi|田中浩", {"licenseNumber": "JP-0088213", "yearsOfExperience": "19"}),
    ("d_sato", "Doctor", "사토 메구미", "Megumi Sato|Sato Megumi|佐藤恵", {"licenseNumber": "JP-0104577", "yearsOfExperience": "8"}),

    ("n_song", "Nurse", "송지연", "Jiyeon Song|Song Jiyeon", {"licenseNumber": "RN-50213", "yearsOfExperience": "10"}),
    ("n_baek", "Nurse", "백하람", "Haram Baek|Baek Haram", {"licenseNumber": "RN-50877", "yearsOfExperience": "3"}),
    ("n_yoo", "Nurse", "유진명", "Jinmyeong Yoo|Yoo Jinmyeong", {"licenseNumber": "RN-61290", "yearsOfExperience": "7"}),
    ("n_lee", "Nurse", "이서연", "Seoyeon Lee|Lee Seoyeon", {"licenseNumber": "RN-62004", "yearsOfExperience": "5"}),
    ("n_kwon", "Nurse", "권민지", "Minji Kwon|Kwon Minji", {"licenseNumber": "RN-63318"}),
    ("n_namgung", "Nurse", "남궁현", "Hyun Namgung|Namgung Hyun", {"licenseNumber": "RN-57741", "yearsOfExperience": "14"}),
    ("n_yamada", "Nurse", "야마다 유키", "Yuki Yamada|Yamada Yuki|山田由紀", {"licenseNumber": "JP-N-220391", "yearsOfExperience": "9"}),
    ("n_jang", "Nurse", "장수빈", "Subin Jang|Jang Subin", {"licenseNumber": "RN-64402", "yearsOfExperience": "2"}),

    ("p_ahn", "Patient", "안지호", "Jiho Ahn|Ahn Jiho", {"birthDate": "1985-07-12", "bloodType": "A+"}),
    ("p_lee", "Patient", "이서연", "Seoyeon Lee|Lee Seoyeon", {"birthDate": "1999-02-03", "bloodType": "O+"}),
    ("p_kim", "Patient", "김도현", "Dohyun Kim|Kim Dohyun", {"birthDate": "1957-10-30", "bloodType": "B+"}),
    ("p_park", "Patient", "박민준", "Minjun Park|Park Minjun", {"birthDate": "2016-04-22"}),
    ("p_choi", "Patient", "최서아", "Seoa Choi|Choi Seoa", {"birthDate": "2019-12-01", "bloodType": "AB+"}),
    ("p_jung", "Patient", "정우진", "Woojin Jung|Jung Woojin", {"birthDate": "1942-06-18", "bloodType": "A-"}),
    ("p_yoon", "Patient", "윤하늘", "Haneul Yoon|Yoon Haneul", {"birthDate": "2012-08-09", "bloodType": "O-"}),
    ("p_kang", "Patient", "강미래", "Mirae Kang|Kang Mirae", {"birthDate": "1978-01-25", "bloodType": "B-"}),
    ("p_shin", "Patient", "신은지", "Eunji Shin|Shin Eunji", {"birthDate": "1990-05-14"}),
    ("p_leemh", "Patient", "이민희", "Minhee Lee|Lee Minhee", {"birthDate": "1966-03-07", "bloodType": "A+"}),
    ("p_suzuki", "Patient", "스즈키 켄", "Ken Suzuki|Suzuki Ken|鈴木健", {"birthDate": "1971-09-19", "bloodType": "O+"}),
    ("p_baek", "Patient", "백승호", "Seungho Baek|Baek Seungho", {"birthDate": "2001-11-11", "bloodType": "AB-"}),
]


def _drug(node_id, cls, label, aliases, dose, approved, generic, atc):
    lit = {"approvedOn": approved, "atcCode": atc}
    if dose:
        lit["dosageMg"] = dose
    if generic:
        lit["isGeneric"] = generic
    return (node_id, cls, label, aliases, lit)


NODES += [
    _drug("dr_amox", "Antibiotic", "아목시실린", "Amoxicillin", "500", "1981-06-10", "true", "J01CA04"),
    _drug("dr_cefaclor", "Antibiotic", "세파클러", "Cefaclor", "250", "1985-03-22", "true", "J01DC04"),
    _drug("dr_azithro", "Antibiotic", "아지트로마이신", "Azithromycin", "250", "1994-09-14", "false", "J01FA10"),
    _drug("dr_cipro", "Antibiotic", "시프로플록사신", "Ciprofloxacin", "750", "1989-11-02", "true", "J01MA02"),
    _drug("dr_doxy", "Antibiotic", "독시사이클린", "Doxycycline", "100", "1978-04-18", "true", "J01AA02"),
    _drug("dr_vanco", "Antibiotic", "반코마이신", "Vancomycin", "1000", "1983-08-30", "false", "J01XA01"),
    _drug("dr_clari", "Antibiotic", "클래리스로마이신", "Clarithromycin", "500", "1996-02-27", "false", "J01FA09"),
    _drug("dr_cefiderocol", "Antibiotic", "세피데로콜", "Cefiderocol", "2000", "2021-09-17", "false", "J01DI04"),
    _drug("dr_warfarin", "Anticoagulant", "와파린", "Warfarin", "5", "1976-05-11", "true", "B01AA03"),
    _drug("dr_rivaroxaban", "Anticoagulant", "리바록사반", "Rivaroxaban", "20", "2009-10-05", "false", "B01AF01"),
    _drug("dr_apixaban", "Anticoagulant", "아픽사반", "Apixaban", "2.5", "2013-07-19", "false", "B01AF02"),
    _drug("dr_heparin", "Anticoagulant", "헤파린", "Heparin", "", "1970-01-15", "true", "B01AB01"),
    _drug("dr_dabigatran", "Anticoagulant", "다비가트란", "Dabigatran", "150", "2010-12-08", "false", "B01AE07"),
    _drug("dr_edoxaban", "Anticoagulant", "에독사반", "Edoxaban", "60", "2016-03-10", "false", "B01AF03"),
    _drug("dr_acet", "Analgesic", "아세트아미노펜", "Acetaminophen|Paracetamol|파라세타몰", "650", "1972-03-03", "true", "N02BE01"),
    _drug("dr_tramadol", "Analgesic", "트라마돌", "Tramadol", "50", "1999-06-21", "true", "N02AX02"),
    _drug("dr_aspirin", "NSAID", "아스피린", "Aspirin|아세틸살리실산|Acetylsalicylic acid", "100", "1968-09-09", "true", "N02BA01"),
    _drug("dr_ibuprofen", "NSAID", "이부프로펜", "Ibuprofen", "400", "1982-10-12", "true", "M01AE01"),
    _drug("dr_naproxen", "NSAID", "나프록센", "Naproxen", "275", "1987-05-06", "true", "M01AE02"),
    _drug("dr_celecoxib", "NSAID", "셀레콕시브", "Celecoxib", "200", "2001-02-20", "false", "M01AH01"),
    _drug("dr_amlodipine", "Antihypertensive", "암로디핀", "Amlodipine", "5", "1992-07-29", "true", "C08CA01"),
    _drug("dr_losartan", "Antihypertensive", "로사르탄", "Losartan", "50", "1997-01-16", "true", "C09CA01"),
    _drug("dr_metoprolol", "Antihypertensive", "메토프롤롤", "Metoprolol", "47.5", "1984-12-04", "true", "C07AB02"),
    _drug("dr_metformin", "Drug", "메트포르민", "Metformin", "850", "1995-03-30", "true", "A10BA02"),
    _drug("dr_omeprazole", "Drug", "오메프라졸", "Omeprazole", "20", "1990-08-21", "true", "A02BC01"),
    _drug("dr_atorva", "Drug", "아토르바스타틴", "Atorvastatin", "40", "1998-11-23", "", "C10AA05"),
    _drug("dr_levo", "Drug", "레보티록신", "Levothyroxine", "0.1", "1979-02-14", "true", "H03AA01"),
    _drug("dr_tirzepatide", "Drug", "티르제파타이드", "Tirzepatide", "5", "2023-05-13", "false", "A10BX16"),
]

# ---------------------------------------------------------------------------------------------------------
# Chunks

CHUNKS = {
    # places
    "ch_g01": "서울은 대한민국의 수도다.",
    "ch_g02": "부산은 한국 남동쪽의 항구 도시다.",
    "ch_g03": "Incheon is a port city in South Korea, west of Seoul.",
    "ch_g04": "대전은 대한민국 중부의 도시로 연구 단지가 많다.",
    "ch_g05": "후쿠오카는 일본 규슈 북부의 도시다.",
    "ch_g06": "Osaka is the second-largest city of Japan after Tokyo's wards.",
    # hospitals
    "ch_h01": "서울중앙병원은 서울 종로구에 있는 대학병원으로 1978년에 문을 열었다.",
    "ch_h02": "한빛대학교병원은 서울 동쪽에 자리한 수련병원이다.",
    "ch_h03": "Busan Bada Hospital is a community hospital in Busan near the harbor.",
    "ch_h04": "새봄병원은 인천에 있는 180병상 규모의 지역 병원이다.",
    "ch_h05": "대전성심의료원은 대전에서 가장 오래된 의료기관 가운데 하나다.",
    "ch_h06": "미나토 종합병원은 규슈의 한 항구 도시에 있는 종합병원이다.",
    # departments
    "ch_d01": "서울중앙병원 내과와 서울중앙병원 감염내과는 서울중앙병원 본관 3층과 5층에 있다.",
    "ch_d02": "서울중앙병원 심장내과는 2015년 서울중앙병원 심혈관센터로 확장했다.",
    "ch_d03": "Hanbit University Hospital runs three departments: Hanbit Orthopedics, Hanbit Emergency Medicine and Hanbit Cardiology.",
    "ch_d04": "부산바다병원 내과와 부산바다병원 마취통증의학과는 부산바다병원의 주요 진료과다.",
    "ch_d05": "새봄병원 소아청소년과와 새봄병원 가정의학과는 새봄병원 2층과 1층에 있다.",
    "ch_d06": "대전성심의료원 신경과와 대전성심의료원 내과는 대전성심의료원의 진료과다.",
    "ch_d07": "Minato General Hospital has two departments, Minato Surgery and Minato Internal Medicine.",
    # staff
    "ch_w01": "김지훈 교수는 서울중앙병원 내과에서 12년째 진료하고 있다.",
    "ch_w02": "이민호 교수는 서울중앙병원 감염내과 과장이다.",
    "ch_w03": "박서연 교수는 서울중앙병원 심장내과에서 부정맥 환자를 본다.",
    "ch_w04": "Youngjun Choi is an orthopedic surgeon at Hanbit Orthopedics.",
    "ch_w05": "정하은 전문의는 한빛대학교병원 응급의학과에서 야간 진료를 맡는다.",
    "ch_w06": "강도원 교수는 한빛대학교병원 심장내과 소속이다.",
    "ch_w07": "부산바다병원 내과의 김지훈 과장은 당뇨병 클리닉을 운영한다.",
    "ch_w08": "윤수민 전문의는 부산바다병원 마취통증의학과에서 통증 클리닉을 맡고 있다.",
    "ch_w09": "한재원 원장은 새봄병원 소아청소년과에서 일한다.",
    "ch_w10": "임수현 전문의는 새봄병원 가정의학과에서 25년째 진료 중이다.",
    "ch_w11": "오준석 교수는 대전성심의료원 신경과의 최고참 의사다.",
    "ch_w12": "서예린 전문의는 대전성심의료원 내과에 최근 합류했다.",
    "ch_w13": "Hiroshi Tanaka is the head surgeon of Minato Surgery.",
    "ch_w14": "사토 메구미 선생님은 미나토 종합병원 내과에서 순환기 환자를 맡고 있다.",
    "ch_w15": "송지연 간호사는 서울중앙병원 내과 병동의 수간호사다.",
    "ch_w16": "백하람 간호사는 서울중앙병원 감염내과에서 일한다.",
    "ch_w17": "유진명 간호사는 한빛대학교병원 응급의학과 소속이다.",
    "ch_w18": "이서연 간호사는 부산바다병원 내과에서 근무한다.",
    "ch_w19": "권민지 간호사는 새봄병원 소아청소년과에서 아이들을 돌본다.",
    "ch_w20": "남궁현 간호사는 대전의 한 병원 신경과 병동에서 14년째 일하고 있다.",
    "ch_w21": "Yuki Yamada works as a nurse in Minato Surgery.",
    "ch_w22": "장수빈 간호사는 한빛대학교병원 정형외과에 올해 입사했다.",
    # prescriptions
    "ch_p01": "이민호 교수는 감염 환자에게 아목시실린, 세파클러, 아지트로마이신을 주로 처방한다.",
    "ch_p02": "이민호 교수는 중증 감염에는 반코마이신이나 시프로플록사신을, 내성균에는 세피데로콜을 처방한다.",
    "ch_p03": "이민호 교수는 해열 목적으로 아세트아미노펜도 처방한다.",
    "ch_p04": "서울중앙병원 내과 김지훈 교수는 메트포르민, 오메프라졸, 암로디핀을 처방해 왔다.",
    "ch_p05": "김지훈 교수는 감기 환자에게 아세트아미노펜과 아목시실린을 처방하기도 한다.",
    "ch_p06": "Dr. Seoyeon Park prescribes warfarin or apixaban to her atrial fibrillation patients.",
    "ch_p07": "박서연 교수는 메토프롤롤, 아토르바스타틴, 아스피린을 함께 처방하는 경우가 많다.",
    "ch_p08": "최영준 교수는 관절 통증에 셀레콕시브, 나프록센, 이부프로펜을 처방한다.",
    "ch_p09": "최영준 교수는 수술 후 통증에는 트라마돌을, 수술 부위 감염 예방에는 세파클러를 처방한다.",
    "ch_p10": "응급의학과 정하은 전문의는 아세트아미노펜, 트라마돌, 헤파린, 시프로플록사신을 자주 처방한다.",
    "ch_p11": "Dr. Dowon Kang prescribes rivaroxaban and dabigatran.",
    "ch_p12": "강도원 교수는 로사르탄, 아스피린, 아토르바스타틴도 처방한다.",
    "ch_p13": "부산바다병원 김지훈 과장은 메트포르민과 로사르탄, 클래리스로마이신을 처방한다.",
    "ch_p14": "윤수민 전문의는 트라마돌, 셀레콕시브, 아세트아미노펜을 처방한다.",
    "ch_p15": "한재원 원장은 아이들에게 아목시실린, 이부프로펜, 아세트아미노펜, 아지트로마이신을 처방한다.",
    "ch_p16": "임수현 전문의는 암로디핀, 메트포르민, 레보티록신, 독시사이클린을 처방한다.",
    "ch_p17": "Suhyun Lim was among the first family doctors to prescribe tirzepatide.",
    "ch_p18": "오준석 교수는 뇌졸중 예방을 위해 아스피린과 다비가트란을 처방한다.",
    "ch_p19": "오준석 교수가 나프록센을 처방한다는 이야기가 있었지만 병원은 이를 확인해 주지 않았다.",
    "ch_p20": "서예린 전문의는 오메프라졸, 레보티록신, 독시사이클린을 처방한다.",
    "ch_p21": "Hiroshi Tanaka prescribes vancomycin, heparin and tramadol after major surgery.",
    "ch_p22": "사토 메구미 선생님은 와파린, 클래리스로마이신, 로사르탄, 에독사반을 처방한다.",
    # interactions
    "ch_i01": "와파린과 아스피린을 함께 복용하면 출혈 위험이 커진다.",
    "ch_i02": "와파린은 이부프로펜과 상호작용하여 출혈 위험을 높인다.",
    "ch_i03": "Ciprofloxacin can raise the effect of warfarin.",
    "ch_i04": "리바록사반과 나프록센을 병용하면 출혈 위험이 높아진다.",
    "ch_i05": "Clarithromycin increases apixaban levels in the blood.",
    "ch_i06": "클래리스로마이신은 아토르바스타틴과 상호작용해 근육 부작용 위험을 높인다.",
    "ch_i07": "아스피린과 이부프로펜은 서로의 효과에 영향을 준다.",
    "ch_i08": "다비가트란과 아스피린을 같이 쓰면 출혈 위험이 커진다.",
    "ch_i10": "Edoxaban and ibuprofen together raise the risk of bleeding.",
    "ch_i11": "암로디핀은 클래리스로마이신과 함께 쓰면 혈압이 지나치게 떨어질 수 있다.",
    # treatment
    "ch_t01": "안지호 환자와 강미래 환자는 이민호 교수에게 진료를 받고 있다.",
    "ch_t02": "김도현 환자와 정우진 환자의 주치의는 서울중앙병원 내과 김지훈 교수다.",
    "ch_t03": "정우진 환자는 박서연 교수에게 심장 진료도 받는다.",
    "ch_t04": "Minhee Lee sees Dr. Seoyeon Park and Dr. Dowon Kang for her heart condition.",
    "ch_t05": "백승호 환자는 최영준 교수에게 무릎 수술을 받았다.",
    "ch_t06": "신은지 환자는 응급실에서 정하은 전문의의 진료를 받았다.",
    "ch_t07": "이서연 환자는 부산바다병원 내과 김지훈 과장이 담당한다.",
    "ch_t08": "한재원 원장은 박민준 어린이와 최서아 어린이를 진료한다.",
    "ch_t09": "윤하늘 어린이는 한 소아과 의사에게 진료를 받았다고 한다.",
    "ch_t10": "Ken Suzuki is treated by Megumi Sato and Hiroshi Tanaka.",
    "ch_t11": "강미래 환자는 두통으로 오준석 교수에게 진료를 받는다.",
    # admissions
    "ch_a01": "안지호, 김도현, 정우진 환자는 서울중앙병원에 입원해 있다.",
    "ch_a02": "이민희 환자와 백승호 환자는 한빛대학교병원에 입원했다.",
    "ch_a03": "Eunji Shin was admitted to Hanbit University Hospital after a car accident.",
    "ch_a04": "이서연 환자는 부산바다병원에 입원 중이다.",
    "ch_a05": "박민준 어린이와 최서아 어린이는 새봄병원 소아 병동에 입원했다.",
    "ch_a06": "강미래 환자는 대전성심의료원에 입원했다.",
    "ch_a07": "스즈키 켄은 후쿠오카의 한 병원에 입원했다.",
    # context only
    "ch_x01": "서울중앙병원은 2024년 스마트 병동을 열었다.",
    "ch_x02": "약의 용량과 승인일은 이 데이터의 예시 값이며 처방 지침이 아니다.",
}

# ---------------------------------------------------------------------------------------------------------
# Edges: (src, rel, dst, chunk_id or "", grounded flag)

EDGES = [
    ("c_seoul", "locatedIn", "k_kr", "ch_g01", True),
    ("c_busan", "locatedIn", "k_kr", "ch_g02", True),
    ("c_incheon", "locatedIn", "k_kr", "ch_g03", True),
    ("c_daejeon", "locatedIn", "k_kr", "ch_g04", True),
    ("c_fukuoka", "locatedIn", "k_jp", "ch_g05", True),
    ("c_osaka", "locatedIn", "k_jp", "ch_g06", True),
    ("h_sch", "locatedIn", "c_seoul", "ch_h01", True),
    ("h_hanbit", "locatedIn", "c_seoul", "ch_h02", True),
    ("h_bada", "locatedIn", "c_busan", "ch_h03", True),
    ("h_saebom", "locatedIn", "c_incheon", "ch_h04", True),
    ("h_seongsim", "locatedIn", "c_daejeon", "ch_h05", True),
    ("h_minato", "locatedIn", "c_fukuoka", "ch_h06", True),          # chunk never names 후쿠오카: not grounded
    ("dp_sch_im", "partOf", "h_sch", "ch_d01", True),
    ("dp_sch_id", "partOf", "h_sch", "ch_d01", True),
    ("dp_sch_cardio", "partOf", "h_sch", "ch_d02", True),
    ("dp_hb_ortho", "partOf", "h_hanbit", "ch_d03", True),
    ("dp_hb_er", "partOf", "h_hanbit", "ch_d03", True),
    ("dp_hb_cardio", "partOf", "h_hanbit", "ch_d03", True),
    ("dp_bada_im", "partOf", "h_bada", "ch_d04", True),
    ("dp_bada_pain", "partOf", "h_bada", "ch_d04", True),
    ("dp_sb_peds", "partOf", "h_saebom", "ch_d05", True),
    ("dp_sb_fm", "partOf", "h_saebom", "ch_d05", True),
    ("dp_ss_neuro", "partOf", "h_seongsim", "ch_d06", True),
    ("dp_ss_im", "partOf", "h_seongsim", "ch_d06", True),
    ("dp_mn_surg", "partOf", "h_minato", "ch_d07", True),
    ("dp_mn_im", "partOf", "h_minato", "ch_d07", True),
    ("d_kim_sch", "worksAt", "dp_sch_im", "ch_w01", True),
    ("d_lee", "worksAt", "dp_sch_id", "ch_w02", True),
    ("d_park", "worksAt", "dp_sch_cardio", "ch_w03", True),
    ("d_choi", "worksAt", "dp_hb_ortho", "ch_w04", True),
    ("d_jung", "worksAt", "dp_hb_er", "ch_w05", True),
    ("d_kang", "worksAt", "dp_hb_cardio", "ch_w06", True),
    ("d_kim_bada", "worksAt", "dp_bada_im", "ch_w07", True),
    ("d_yoon", "worksAt", "dp_bada_pain", "ch_w08", True),
    ("d_han", "worksAt", "dp_sb_peds", "ch_w09", True),
    ("d_lim", "worksAt", "dp_sb_fm", "ch_w10", True),
    ("d_oh", "worksAt", "dp_ss_neuro", "ch_w11", True),
    ("d_seo", "worksAt", "dp_ss_im", "ch_w12", True),
    ("d_tanaka", "worksAt", "dp_mn_surg", "ch_w13", True),
    ("d_sato", "worksAt", "dp_mn_im", "ch_w14", True),
    ("n_song", "worksAt", "dp_sch_im", "ch_w15", True),
    ("n_baek", "worksAt", "dp_sch_id", "ch_w16", True),
    ("n_yoo", "worksAt", "dp_hb_er", "ch_w17", True),
    ("n_lee", "worksAt", "dp_bada_im", "ch_w18", True),
    ("n_kwon", "worksAt", "dp_sb_peds", "ch_w19", True),
    ("n_namgung", "worksAt", "dp_ss_neuro", "ch_w20", True),        # chunk never names the department: not grounded
    ("n_yamada", "worksAt", "dp_mn_surg", "ch_w21", True),
    ("n_jang", "worksAt", "dp_hb_ortho", "ch_w22", True),
]

PRESCRIPTIONS = [
    ("d_lee", ["dr_amox", "dr_cefaclor", "dr_azithro"], "ch_p01"),
    ("d_lee", ["dr_vanco", "dr_cipro", "dr_cefiderocol"], "ch_p02"),
    ("d_lee", ["dr_acet"], "ch_p03"),
    ("d_kim_sch", ["dr_metformin", "dr_omeprazole", "dr_amlodipine"], "ch_p04"),
    ("d_kim_sch", ["dr_acet", "dr_amox"], "ch_p05"),
    ("d_park", ["dr_warfarin", "dr_apixaban"], "ch_p06"),
    ("d_park", ["dr_metoprolol", "dr_atorva", "dr_aspirin"], "ch_p07"),
    ("d_choi", ["dr_celecoxib", "dr_naproxen", "dr_ibuprofen"], "ch_p08"),
    ("d_choi", ["dr_tramadol", "dr_cefaclor"], "ch_p09"),
    ("d_jung", ["dr_acet", "dr_tramadol", "dr_heparin", "dr_cipro"], "ch_p10"),
    ("d_kang", ["dr_rivaroxaban", "dr_dabigatran"], "ch_p11"),
    ("d_kang", ["dr_losartan", "dr_aspirin", "dr_atorva"], "ch_p12"),
    ("d_kim_bada", ["dr_metformin", "dr_losartan", "dr_clari"], "ch_p13"),
    ("d_yoon", ["dr_tramadol", "dr_celecoxib", "dr_acet"], "ch_p14"),
    ("d_han", ["dr_amox", "dr_ibuprofen", "dr_acet", "dr_azithro"], "ch_p15"),
    ("d_lim", ["dr_amlodipine", "dr_metformin", "dr_levo", "dr_doxy"], "ch_p16"),
    ("d_lim", ["dr_tirzepatide"], "ch_p17"),
    ("d_oh", ["dr_aspirin", "dr_dabigatran"], "ch_p18"),
    ("d_seo", ["dr_omeprazole", "dr_levo", "dr_doxy"], "ch_p20"),
    ("d_tanaka", ["dr_vanco", "dr_heparin", "dr_tramadol"], "ch_p21"),
    ("d_sato", ["dr_warfarin", "dr_clari", "dr_losartan", "dr_edoxaban"], "ch_p22"),
]
for _doc, _drugs, _chunk in PRESCRIPTIONS:
    EDGES += [(_doc, "prescribes", _d, _chunk, True) for _d in _drugs]
EDGES.append(("d_oh", "prescribes", "dr_naproxen", "ch_p19", False))    # a rumour the hospital did not confirm

EDGES += [
    ("dr_warfarin", "interactsWith", "dr_aspirin", "ch_i01", True),
    ("dr_warfarin", "interactsWith", "dr_ibuprofen", "ch_i02", True),
    ("dr_cipro", "interactsWith", "dr_warfarin", "ch_i03", True),
    ("dr_rivaroxaban", "interactsWith", "dr_naproxen", "ch_i04", True),
    ("dr_clari", "interactsWith", "dr_apixaban", "ch_i05", True),
    ("dr_clari", "interactsWith", "dr_atorva", "ch_i06", True),
    ("dr_aspirin", "interactsWith", "dr_ibuprofen", "ch_i07", True),
    ("dr_dabigatran", "interactsWith", "dr_aspirin", "ch_i08", True),
    ("dr_levo", "interactsWith", "dr_omeprazole", "", False),            # no source text
    ("dr_edoxaban", "interactsWith", "dr_ibuprofen", "ch_i10", True),
    ("dr_amlodipine", "interactsWith", "dr_clari", "ch_i11", True),
    ("d_lee", "treats", "p_ahn", "ch_t01", True),
    ("d_lee", "treats", "p_kang", "ch_t01", True),
    ("d_kim_sch", "treats", "p_kim", "ch_t02", True),
    ("d_kim_sch", "treats", "p_jung", "ch_t02", True),
    ("d_park", "treats", "p_jung", "ch_t03", True),
    ("d_park", "treats", "p_leemh", "ch_t04", True),
    ("d_kang", "treats", "p_leemh", "ch_t04", True),
    ("d_choi", "treats", "p_baek", "ch_t05", True),
    ("d_jung", "treats", "p_shin", "ch_t06", True),
    ("d_kim_bada", "treats", "p_lee", "ch_t07", True),
    ("d_han", "treats", "p_park", "ch_t08", True),
    ("d_han", "treats", "p_choi", "ch_t08", True),
    ("d_han", "treats", "p_yoon", "ch_t09", False),                     # hearsay
    ("d_sato", "treats", "p_suzuki", "ch_t10", True),
    ("d_tanaka", "treats", "p_suzuki", "ch_t10", True),
    ("d_oh", "treats", "p_kang", "ch_t11", True),
    ("p_ahn", "admittedTo", "h_sch", "ch_a01", True),
    ("p_kim", "admittedTo", "h_sch", "ch_a01", True),
    ("p_jung", "admittedTo", "h_sch", "ch_a01", True),
    ("p_leemh", "admittedTo", "h_hanbit", "ch_a02", True),
    ("p_baek", "admittedTo", "h_hanbit", "ch_a02", True),
    ("p_shin", "admittedTo", "h_hanbit", "ch_a03", True),
    ("p_lee", "admittedTo", "h_bada", "ch_a04", True),
    ("p_park", "admittedTo", "h_saebom", "ch_a05", True),
    ("p_choi", "admittedTo", "h_saebom", "ch_a05", True),
    ("p_kang", "admittedTo", "h_seongsim", "ch_a06", True),
    ("p_suzuki", "admittedTo", "h_minato", "ch_a07", True),            # chunk never names the hospital: not grounded
]

# Edges meant not to count as grounded (check.py asserts that exactly these fail the grounding rule).
UNGROUNDED_ON_PURPOSE = {
    ("h_minato", "locatedIn", "c_fukuoka"), ("n_namgung", "worksAt", "dp_ss_neuro"),
    ("d_oh", "prescribes", "dr_naproxen"), ("dr_levo", "interactsWith", "dr_omeprazole"),
    ("d_han", "treats", "p_yoon"), ("p_suzuki", "admittedTo", "h_minato"),
}


# ---------------------------------------------------------------------------------------------------------
# Questions: (lang, kind, question, meaning). Ids are given in this order. Gold answers come from gold.py.

def S(name, cls=None):
    return {"name": name, **({"class": cls} if cls else {})}


def F(prop, op, value):
    return {"prop": prop, "op": op, "value": value}


def Y(year):
    return {"year": year}


OUT, IN = "out", "in"
WORK_HOSP = [["worksAt", OUT], ["partOf", OUT]]
HOSP_DOCTORS = [["partOf", IN], ["worksAt", IN, "Doctor"]]

SPEC = [
    # literal values of one node
    ("en", "value", "What is the dosage of amoxicillin?",
     dict(start=S("amoxicillin"), aggregate="value", value_prop="dosageMg")),
    ("ko", "value", "서울중앙병원 병상 수가 몇 개야?",
     dict(start=S("서울중앙병원"), aggregate="value", value_prop="bedCount")),
    ("ko", "value", "와파린은 언제 승인 됬어요?",
     dict(start=S("와파린"), aggregate="value", value_prop="approvedOn")),
    ("en", "value", "when was hanbit university hospital founded",
     dict(start=S("hanbit university hospital"), aggregate="value", value_prop="foundedOn")),
    ("ko", "value", "이민호 선생님 면허번호 좀 알려주실 수 있나요? 서류에 적어야 해서요",
     dict(start=S("이민호"), aggregate="value", value_prop="licenseNumber")),
    ("en", "value", "How many years of experience does Megumi Sato have?",
     dict(start=S("Megumi Sato"), aggregate="value", value_prop="yearsOfExperience")),
    ("ko", "value", "아픽사반 1회 용량이 몇 mg이에요?",
     dict(start=S("아픽사반"), aggregate="value", value_prop="dosageMg")),
    ("en", "boolean_value", "is ibuprofen generic?",
     dict(start=S("ibuprofen"), aggregate="boolean", filters=[F("isGeneric", "=", True)])),
    ("ko", "boolean_value", "아지트로마이신 제네릭 약이야?",
     dict(start=S("아지트로마이신"), aggregate="boolean", filters=[F("isGeneric", "=", True)])),
    ("en", "value", "whats the ATC code for metformin",
     dict(start=S("metformin"), aggregate="value", value_prop="atcCode")),
    ("ko", "value", "정우진 환자 혈액형이 뭐예요?",
     dict(start=S("정우진", "Patient"), aggregate="value", value_prop="bloodType")),
    ("ko", "value", "서울중앙병원 감염내과 몇층이에요",
     dict(start=S("서울중앙병원 감염내과"), aggregate="value", value_prop="floorNumber")),
    ("en", "value", "population of  Busan?",
     dict(start=S("Busan"), aggregate="value", value_prop="population")),
    ("ko", "value", "스즈키켄 생년월일 알려줘",
     dict(start=S("스즈키켄"), aggregate="value", value_prop="birthDate")),
    ("en", "boolean_value", "Is Busan Bada Hospital a teaching hospital?",
     dict(start=S("Busan Bada Hospital"), aggregate="boolean", filters=[F("isTeachingHospital", "=", True)])),
    # a path, then a literal value
    ("ko", "value_multihop", "이민호 교수님이 근무하는 병원 병상수 얼마나 돼?",
     dict(start=S("이민호"), chain=WORK_HOSP, asked_class="Hospital", aggregate="value", value_prop="bedCount")),
    ("en", "value_multihop", "I'm putting together a staff directory for our network. When was the hospital that Dr. Tanaka Hiroshi works at founded?",
     dict(start=S("Tanaka Hiroshi"), chain=WORK_HOSP, asked_class="Hospital", aggregate="value", value_prop="foundedOn")),
    ("ko", "decline_value_unknown", "박민준 환자가 입원한 병원은 언제 설립됐나요?",
     dict(start=S("박민준", "Patient"), chain=[["admittedTo", OUT]], asked_class="Hospital", aggregate="value",
          value_prop="foundedOn")),
    # filters on a class
    ("en", "filter", "drugs with a dose over 600 mg",
     dict(scope_class="Drug", filters=[F("dosageMg", ">", 600)], aggregate="list")),
    ("ko", "filter", "2020년 이후 승인된 약 뭐 있어?",
     dict(scope_class="Drug", filters=[F("approvedOn", ">", Y(2020))], aggregate="list")),
    ("ko", "filter", "용량 100mg 이하인 항응고재 알려줘",
     dict(scope_class="Anticoagulant", filters=[F("dosageMg", "<=", 100)], aggregate="list")),
    ("en", "filter", "Which hosptials have more than 500 beds?",
     dict(scope_class="Hospital", filters=[F("bedCount", ">", 500)], aggregate="list")),
    ("ko", "filter", "다음 주 발표 자료 만드는 중이라서 그런데, 1990년 이전에 설립된 병원들 알려주세요",
     dict(scope_class="Hospital", filters=[F("foundedOn", "<", Y(1990))], aggregate="list")),
    ("en", "filter", "list the generic antibiotcs pls",
     dict(scope_class="Antibiotic", filters=[F("isGeneric", "=", True)], aggregate="list")),
    ("ko", "filter", "경력 20년 넘은 의사 누구누구야",
     dict(scope_class="Doctor", filters=[F("yearsOfExperience", ">", 20)], aggregate="list")),
    ("en", "filter", "which NSAIDs were approved before 1990?",
     dict(scope_class="NSAID", filters=[F("approvedOn", "<", Y(1990))], aggregate="list")),
    # multi-hop, then a filter
    ("en", "filter_multihop", "Quick one for a pharmacy audit: antibiotics prescribed by doctors at Seoul Central Hospital with a dose under 300 mg?",
     dict(start=S("Seoul Central Hospital"), chain=HOSP_DOCTORS + [["prescribes", OUT]], asked_class="Antibiotic",
          filters=[F("dosageMg", "<", 300)], aggregate="list")),
    ("ko", "filter_multihop", "보고서 쓰는 중인데요, 한빛대병원 의사들이 처방하는 진통제 중에 용량 300mg 넘는 거 뭐예요?",
     dict(start=S("한빛대병원"), chain=HOSP_DOCTORS + [["prescribes", OUT]], asked_class="Analgesic",
          filters=[F("dosageMg", ">", 300)], aggregate="list")),
    ("en", "filter_multihop", "Which anticoagulants approved after 2005 does Dr. Kang Dowon perscribe?",
     dict(start=S("Kang Dowon"), chain=[["prescribes", OUT]], asked_class="Anticoagulant",
          filters=[F("approvedOn", ">", Y(2005))], aggregate="list")),
    ("ko", "filter_multihop", "사토 메구미 선생님이 처방하는 약 중에 제네릭 아닌 건 뭐예요?",
     dict(start=S("사토 메구미"), chain=[["prescribes", OUT]], asked_class="Drug",
          filters=[F("isGeneric", "=", False)], aggregate="list")),
    ("en", "filter_multihop", "Doctors at Hanbit University Hospital with over 10 years of experience?",
     dict(start=S("Hanbit University Hospital"), chain=[["partOf", IN], ["worksAt", IN]], asked_class="Doctor",
          filters=[F("yearsOfExperience", ">", 10)], aggregate="list")),
    ("ko", "filter_multihop", "서울에 있는 병원 중에 병상 1000개 이상인 곳 어디야?",
     dict(start=S("서울"), chain=[["locatedIn", IN]], asked_class="Hospital",
          filters=[F("bedCount", ">=", 1000)], aggregate="list")),
    ("en", "filter_multihop", "Patients treated by Dr. Park Seoyeon who were born before 1960",
     dict(start=S("Park Seoyeon"), chain=[["treats", OUT]], asked_class="Patient",
          filters=[F("birthDate", "<", Y(1960))], aggregate="list")),
    # yes/no over a path
    ("en", "boolean_path", "Does Warfarin interact with Aspirin?",
     dict(start=S("Warfarin"), chain=[["interactsWith", OUT]], target=S("Aspirin"), aggregate="boolean")),
    ("ko", "boolean_path", "아스피린이랑 와파린 상호작용 있어?",
     dict(start=S("아스피린"), chain=[["interactsWith", OUT]], target=S("와파린"), aggregate="boolean")),
    ("en", "boolean_path", "does clarithromycin interact with warfarin",
     dict(start=S("clarithromycin"), chain=[["interactsWith", OUT]], target=S("warfarin"), aggregate="boolean")),
    ("ko", "boolean_path", "이민호선생님이 반코마이신 처방하시나요?",
     dict(start=S("이민호"), chain=[["prescribes", OUT]], target=S("반코마이신"), aggregate="boolean")),
    ("en", "boolean_path", "Does Dr. Jung Haeun prescribe amoxicillin?",
     dict(start=S("Jung Haeun"), chain=[["prescribes", OUT]], target=S("amoxicillin"), aggregate="boolean")),
    ("ko", "boolean_path", "김도현 환자 서울중앙병원에 입원해있어?",
     dict(start=S("김도현", "Patient"), chain=[["admittedTo", OUT]], target=S("서울중앙병원"), aggregate="boolean")),
    ("en", "boolean_path", "Is SCH Cardiology part of Seoul Central Hospital?",
     dict(start=S("SCH Cardiology"), chain=[["partOf", OUT]], target=S("Seoul Central Hospital"), aggregate="boolean")),
    ("ko", "boolean_path", "다나카 히로시 선생님 미나토 종합병원에서 일하시는 거 맞죠?",
     dict(start=S("다나카 히로시"), chain=WORK_HOSP, target=S("미나토 종합병원"), aggregate="boolean")),
    # counts
    ("en", "count", "How many drugs does Dr. Lee Minho prescribe?",
     dict(start=S("Lee Minho"), chain=[["prescribes", OUT]], asked_class="Drug", aggregate="count")),
    ("ko", "count", "서울중앙병원에 의사 몇명 있어?",
     dict(start=S("서울중앙병원"), chain=[["partOf", IN], ["worksAt", IN]], asked_class="Doctor", aggregate="count")),
    ("ko", "count", "항생제는 몇 종류나 있나요?",
     dict(scope_class="Antibiotic", aggregate="count")),
    ("en", "count", "how many analgesics are in the dataset",
     dict(scope_class="Analgesic", aggregate="count")),
    ("ko", "count", "환자분이 와파린을 드시는데, 와파린이랑 상호작용하는 약 몇 가지야?",
     dict(start=S("와파린"), chain=[["interactsWith", OUT]], asked_class="Drug", aggregate="count")),
    ("en", "count", "How many patients were admited to Hanbit University Hospital?",
     dict(start=S("Hanbit University Hospital"), chain=[["admittedTo", IN]], asked_class="Patient", aggregate="count")),
    ("ko", "count", "한빛대학교병원 진료과는 몇개에요?",
     dict(start=S("한빛대학교병원"), chain=[["partOf", IN]], asked_class="Department", aggregate="count")),
    # lists
    ("en", "list", "Which drugs interact with warfarin?",
     dict(start=S("warfarin"), chain=[["interactsWith", OUT]], asked_class="Drug", aggregate="list")),
    ("ko", "list", "최영준 교수가 처방하는 약 목록좀 뽑아줘",
     dict(start=S("최영준"), chain=[["prescribes", OUT]], asked_class="Drug", aggregate="list")),
    ("en", "list", "who works in Hanbit Emergency Medicine",
     dict(start=S("Hanbit Emergency Medicine"), chain=[["worksAt", IN]], asked_class="Person", aggregate="list")),
    ("ko", "list", "아목시실린 처방하는 의사?",
     dict(start=S("아목시실린"), chain=[["prescribes", IN]], asked_class="Doctor", aggregate="list")),
    ("en", "list", "what departmnets does Seoul Central Hospital have",
     dict(start=S("Seoul Central Hospital"), chain=[["partOf", IN]], asked_class="Department", aggregate="list")),
    ("ko", "list", "일본에 있는 도시 알려줘",
     dict(start=S("일본"), chain=[["locatedIn", IN]], asked_class="City", aggregate="list")),
    # paths to one node
    ("ko", "path", "윤수민 선생님은 어느 병원에서 일하세요?",
     dict(start=S("윤수민"), chain=WORK_HOSP, asked_class="Hospital", aggregate="one")),
    ("en", "path", "Which hospital does Saebom Pediatrics belong to?",
     dict(start=S("Saebom Pediatrics"), chain=[["partOf", OUT]], asked_class="Hospital", aggregate="one")),
    ("ko", "path", "권민지 간호사 어느 과 소속이야?",
     dict(start=S("권민지", "Nurse"), chain=[["worksAt", OUT]], asked_class="Department", aggregate="one")),
    ("en", "path", "What country is Daejeon Seongsim Medical Center in?",
     dict(start=S("Daejeon Seongsim Medical Center"), chain=[["locatedIn", OUT], ["locatedIn", OUT]],
          asked_class="Country", aggregate="one")),
    ("ko", "path", "이민희 환자 담당 의사들은 어느 과에서 일해요?",
     dict(start=S("이민희", "Patient"), chain=[["treats", IN], ["worksAt", OUT]], asked_class="Department",
          aggregate="list")),
    # the class hierarchy
    ("en", "hierarchy", "is amoxicillin a drug?",
     dict(start=S("amoxicillin"), is_a="Drug", aggregate="boolean")),
    ("ko", "hierarchy", "아스피린도 진통제야?",
     dict(start=S("아스피린"), is_a="Analgesic", aggregate="boolean")),
    ("en", "hierarchy", "Is aspirin an antibiotic?",
     dict(start=S("aspirin"), is_a="Antibiotic", aggregate="boolean")),
    ("ko", "hierarchy", "항응고제 전부다 보여줘",
     dict(scope_class="Anticoagulant", aggregate="list")),
    ("en", "hierarchy", "List the drugs Dr Yoon Sumin prescribes that are analgesics",
     dict(start=S("Yoon Sumin"), chain=[["prescribes", OUT]], asked_class="Analgesic", aggregate="list")),
    # a shared name told apart, ids typed by hand
    ("ko", "value", "간호사 이서연 면허 번호 뭐예요?",
     dict(start=S("이서연", "Nurse"), aggregate="value", value_prop="licenseNumber")),
    ("en", "value", "What's Lee Seoyeon's blood type?",
     dict(start=S("Lee Seoyeon"), aggregate="value", value_prop="bloodType")),
    ("ko", "value", "H_BADA 병상 수",
     dict(start=S("H_BADA"), aggregate="value", value_prop="bedCount")),
    ("en", "value", "approval date of DR_ASPIRIN?",
     dict(start=S("DR_ASPIRIN"), aggregate="value", value_prop="approvedOn")),
    # declines
    ("en", "decline_unknown_property", "What's the price of amoxicillin?",
     dict(start=S("amoxicillin"), aggregate="value", value_prop="price")),
    ("ko", "decline_unknown_property", "서울중앙병원 전화번호 알려줘",
     dict(start=S("서울중앙병원"), aggregate="value", value_prop="phoneNumber")),
    ("ko", "decline_unknown_property", "이민호 선생님 연봉 얼마야?",
     dict(start=S("이민호"), aggregate="value", value_prop="salary")),
    ("en", "decline_unknown_property", "what are the side effects of warfarin",
     dict(start=S("warfarin"), aggregate="value", value_prop="sideEffects")),
    ("en", "decline_unknown_name", "How many beds does St. Mary's Hospital have?",
     dict(start=S("St. Mary's Hospital"), aggregate="value", value_prop="bedCount")),
    ("ko", "decline_ambiguous", "김지훈 선생님 경력 몇 년이에요?",
     dict(start=S("김지훈"), aggregate="value", value_prop="yearsOfExperience")),
    ("en", "decline_ambiguous", "Which drugs does Dr. Kim Jihoon prescribe?",
     dict(start=S("Kim Jihoon"), chain=[["prescribes", OUT]], asked_class="Drug", aggregate="list")),
    ("ko", "decline_near_miss", "이민후 선생님이 처방하는 항생제",
     dict(start=S("이민후"), chain=[["prescribes", OUT]], asked_class="Antibiotic", aggregate="list")),
    ("en", "decline_near_miss", "What's the dosage of Amoxicilin?",
     dict(start=S("Amoxicilin"), aggregate="value", value_prop="dosageMg")),
    ("en", "decline_negation", "drugs nobody prescribes",
     dict(unsupported={"kind": "negation", "detail": "asks for drugs with no prescribes edge (negation)"}, aggregate="list")),
    ("ko", "decline_negation", "항생제 처방 안 하는 의사 누구야?",
     dict(unsupported={"kind": "negation", "detail": "asks for doctors without an antibiotic prescription (negation)"}, aggregate="list")),
    ("en", "decline_superlative", "My manager wants a quick ranking for the board deck, so: which hospital has the most beds?",
     dict(unsupported={"kind": "superlative", "detail": "a superlative over bedCount"}, aggregate="one")),
    ("ko", "decline_superlative", "용량이 제일 높은 약이 뭐야?",
     dict(unsupported={"kind": "superlative", "detail": "a superlative over dosageMg"}, aggregate="one")),
    ("en", "decline_ungrounded", "Which city is Minato General Hospital in?",
     dict(start=S("Minato General Hospital"), chain=[["locatedIn", OUT]], asked_class="City", aggregate="one")),
    ("ko", "decline_ungrounded", "스즈키 켄 어느 병원에 입원했어?",
     dict(start=S("스즈키 켄"), chain=[["admittedTo", OUT]], asked_class="Hospital", aggregate="one")),
    ("en", "decline_ungrounded", "Does Dr. Oh Junseok prescribe naproxen?",
     dict(start=S("Oh Junseok"), chain=[["prescribes", OUT]], target=S("naproxen"), aggregate="boolean")),
    ("ko", "decline_ungrounded", "레보티록신이랑 상호작용하는 약 뭐야?",
     dict(start=S("레보티록신"), chain=[["interactsWith", OUT]], asked_class="Drug", aggregate="list")),
    ("ko", "decline_ungrounded", "윤하늘 환자 담당 의사는 누구예요?",
     dict(start=S("윤하늘", "Patient"), chain=[["treats", IN]], asked_class="Doctor", aggregate="one")),
    ("en", "decline_chitchat", "hi! how's your day going?",
     dict(unsupported={"kind": "chitchat", "detail": "small talk, no question about the data"}, aggregate="one")),
    ("ko", "decline_chitchat", "ㅋㅋ 오늘 점심 뭐 먹지",
     dict(unsupported={"kind": "chitchat", "detail": "small talk, no question about the data"}, aggregate="one")),
    ("en", "decline_missing_edge", "Which drugs does nurse Song Jiyeon prescribe?",
     dict(start=S("Song Jiyeon", "Nurse"), chain=[["prescribes", OUT]], asked_class="Drug", aggregate="list")),
    ("en", "decline_hop_limit", "In which country is the hospital where the doctor who prescribes cefiderocol works?",
     dict(start=S("cefiderocol"), chain=[["prescribes", IN], ["worksAt", OUT], ["partOf", OUT], ["locatedIn", OUT],
                                         ["locatedIn", OUT]], asked_class="Country", aggregate="one")),
    ("ko", "decline_ungrounded", "남궁현 간호사 어느 병원 다녀?",
     dict(start=S("남궁현", "Nurse"), chain=WORK_HOSP, asked_class="Hospital", aggregate="one")),
    ("en", "decline_ungrounded", "Which hospitals are in Japan?",
     dict(start=S("Japan"), chain=[["locatedIn", IN], ["locatedIn", IN]], asked_class="Hospital", aggregate="list")),
    ("ko", "decline_value_unknown", "헤파린 용량 얼마야?",
     dict(start=S("헤파린"), aggregate="value", value_prop="dosageMg")),
    ("en", "decline_value_unknown", "What is the blood type of Shin Eunji?",
     dict(start=S("Shin Eunji"), aggregate="value", value_prop="bloodType")),
    ("en", "decline_missing_edge", "Which hospital was Dr. Seo Yerin admitted to?",
     dict(start=S("Seo Yerin"), chain=[["admittedTo", OUT]], asked_class="Hospital", aggregate="one")),
    ("ko", "decline_unknown_name", "행복요양병원 병상 몇 개예요?",
     dict(start=S("행복요양병원"), aggregate="value", value_prop="bedCount")),
    ("ko", "decline_missing_edge", "백하람 간호사가 진료하는 환자 누구야?",
     dict(start=S("백하람", "Nurse"), chain=[["treats", OUT]], asked_class="Patient", aggregate="list")),
    ("ko", "decline_hop_limit", "이민호 선생님 병원은 어느 나라에 있어요?",
     dict(start=S("이민호"), chain=WORK_HOSP + [["locatedIn", OUT], ["locatedIn", OUT]], asked_class="Country",
          aggregate="one")),
]

QUESTIONS = [{"id": f"hl{i:03d}", "lang": lang, "kind": kind, "question": text, "meaning": meaning}
             for i, (lang, kind, text, meaning) in enumerate(SPEC, 1)]


def node_rows():
    rows = []
    for node_id, cls, label, aliases, lit in NODES:
        unknown = set(lit) - set(LITERAL_COLUMNS)
        assert not unknown, (node_id, unknown)
        rows.append([node_id, cls, label, aliases] + [lit.get(c, "") for c in LITERAL_COLUMNS])
    return rows


def edge_rows():
    return [[f"e{i:03d}", s, r, d, c, "true" if g else "false"] for i, (s, r, d, c, g) in enumerate(EDGES, 1)]


def chunk_rows():
    return [[k, v] for k, v in CHUNKS.items()]


def to_csv(header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def outputs() -> dict[Path, str]:
    out = {
        DATA / "kg_nodes.csv": to_csv(NODE_COLUMNS, node_rows()),
        DATA / "kg_edges.csv": to_csv(["edge_id", "src", "rel", "dst", "chunk_id", "grounded"], edge_rows()),
        DATA / "kg_chunks.csv": to_csv(["chunk_id", "text"], chunk_rows()),
    }
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    files = outputs()
    stale = []
    for path, text in files.items():
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
    # questions.jsonl depends on the tables just written
    import gold

    lines = gold.build_questions(QUESTIONS, DATA)
    qtext = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in lines)
    qpath = HERE / "questions.jsonl"
    if check:
        if not qpath.exists() or qpath.read_text(encoding="utf-8") != qtext:
            stale.append(qpath.name)
        if stale:
            print("out of date:", ", ".join(stale))
            return 1
        print("up to date")
        return 0
    qpath.write_text(qtext, encoding="utf-8")
    print(f"wrote {len(files)} tables and {len(lines)} questions")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main(sys.argv[1:]))
