# ruff: noqa: RUF001  (Turkish and Chinese postings)
""" "Match a job description" in real Chromium over a real build of the sample bank (content/):
postings written for these tests, three per locale, typed into the page; the expected topic
ranks first, a second expected one among the first three, the seniority is the posting's."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
import stopwordsiso
from playwright.sync_api import expect
from sitebuild import ROOT, build_site

from qbank.bank.load import load_bank
from qbank.search.tokenize import fold, terms

pytestmark = pytest.mark.browser


class Posting(NamedTuple):
    locale: str
    text: str
    first: str  # field/topic expected first
    also: str  # field/topic expected among the first three
    level: str


POSTINGS = {
    "en-senior-distributed": Posting(
        "en",
        """Senior Machine Learning Engineer, Large-Scale Training

We train foundation models on clusters of thousands of GPUs. You will scale our training
stack with data, tensor and pipeline parallelism, tune FSDP and ZeRO sharding, cut the
communication overhead between nodes (NCCL all-reduce over an InfiniBand interconnect) and
keep gradient accumulation and checkpointing correct at scale. You will also profile training
steps to find throughput bottlenecks, from the input pipeline to kernel launches.

You have 6+ years of experience building ML systems and enjoy mentoring junior engineers.""",
        "ml-engineer/distributed-training",
        "ml-engineer/throughput-profiling",
        "senior",
    ),
    "en-junior-databases": Posting(
        "en",
        """Junior Backend Developer (Databases)

Join our payments team as an entry-level engineer. You will write SQL for PostgreSQL, read
EXPLAIN ANALYZE output, add the right B-tree and composite indexes and fix slow queries that
fall back to sequential scans. A grasp of transactions, isolation levels and deadlocks is a
plus. Recent graduates are welcome to apply.""",
        "backend-engineer/indexing-query-plans",
        "backend-engineer/transactions-isolation",
        "junior",
    ),
    "en-mid-streaming": Posting(
        "en",
        """Backend Engineer, Event Streaming (mid-level)

You will design services that publish and consume events through Kafka: topics, partitions,
consumer groups and offsets, at-least-once delivery, idempotent consumers, dead-letter queues
and the transactional outbox pattern. You will also put Redis caches in front of our hottest
read paths. About 3 years of experience with backend services.""",
        "backend-engineer/message-queues",
        "backend-engineer/caching",
        "mid",
    ),
    "tr-senior-consensus": Posting(
        "tr",
        """Kıdemli Backend Mühendisi – Dağıtık Sistemler

Ekibimiz yüksek erişilebilirlikli bir ödeme altyapısı geliştiriyor. Raft tabanlı konsensüs,
lider seçimi, replikasyon gecikmesi ve çoğunluk (quorum) okuma ve yazmaları konusunda derin
bilgi bekliyoruz. Ağ bölünmelerinde tutarlılığı koruyan sistemler tasarlamış olmalısınız.
Önbellekleme deneyimi artı sayılır. En az 7 yıl deneyim.""",
        "backend-engineer/replication-consensus",
        "backend-engineer/caching",
        "senior",
    ),
    "tr-junior-optimization": Posting(
        "tr",
        """Stajyer / Junior Makine Öğrenmesi Mühendisi

Derin öğrenme modellerinin eğitiminde optimizasyon algoritmaları (SGD, Adam, AdamW),
öğrenme oranı planlaması, aşırı öğrenme (overfitting) ve düzenlileştirme konularında temel
bilgi arıyoruz. PyTorch ile model eğitmiş olmak, batch normalization ve dropout kavramlarını
bilmek artıdır. Transformer mimarisine ilgi duyman güzel olur. Yeni mezunlar başvurabilir.""",
        "ml-engineer/optimization",
        "ml-engineer/attention-transformers",
        "junior",
    ),
    "tr-mid-caching": Posting(
        "tr",
        """Backend Geliştirici (Orta seviye)

Yoğun trafikli e-ticaret platformumuz için Redis ile önbellekleme katmanı kuracak, TTL ve
önbellek geçersiz kılma stratejilerini belirleyecek, cache stampede gibi sorunları önleyecek
bir takım arkadaşı arıyoruz. CDN ve LRU tahliye politikalarını bilmelisin. Kafka ile mesaj
kuyrukları deneyimi tercih sebebidir. 3 yıl deneyim.""",
        "backend-engineer/caching",
        "backend-engineer/message-queues",
        "mid",
    ),
    "zh-senior-throughput": Posting(
        "zh",
        """高级机器学习工程师（训练性能方向）

职责：分析并优化大规模模型训练的吞吐量，使用 profiler 定位数据加载、kernel 启动和通信中的
瓶颈，提升 GPU 利用率；推动混合精度（bf16/fp16）训练并保证数值稳定性。
要求：5年以上相关经验，熟悉 CUDA 与 PyTorch。""",
        "ml-engineer/throughput-profiling",
        "ml-engineer/mixed-precision",
        "senior",
    ),
    "zh-junior-transactions": Posting(
        "zh",
        """初级后端开发工程师（应届生可投）

职责：参与订单系统的数据库开发，编写 SQL，理解事务与隔离级别，排查死锁与并发更新导致的
问题。要求：了解 MySQL 或 PostgreSQL 的索引与 MVCC，能读懂执行计划。""",
        "backend-engineer/transactions-isolation",
        "backend-engineer/indexing-query-plans",
        "junior",
    ),
    "zh-senior-transformers": Posting(
        "zh",
        """资深算法工程师（大模型方向）

负责 Transformer 架构的研发与优化，包括自注意力机制、多头注意力、位置编码、KV 缓存与推理
加速；熟悉 FlashAttention 者优先。了解优化器与学习率调度。三年以上 NLP 经验。""",
        "ml-engineer/attention-transformers",
        "ml-engineer/optimization",
        "senior",
    ),
}


@pytest.fixture(scope="module")
def sample_site(
    tmp_path_factory: pytest.TempPathFactory, folder_server: Callable[..., Any]
) -> Iterator[str]:
    """The sample bank (content/) built by ``mkdocs build --strict`` (Material, instant
    navigation) and served on 127.0.0.1; yields the base URL."""
    tmp = tmp_path_factory.mktemp("match-site")
    content = tmp / "content"
    shutil.copytree(ROOT / "content", content)
    with folder_server(tmp / "site") as url:
        theme = {"name": "material", "font": False, "features": ["navigation.instant"]}
        try:
            build_site(tmp, content, theme=theme, site_url=url)
        except subprocess.CalledProcessError as error:
            pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url


@pytest.fixture
def tab(browser: Any, sample_site: str, page_recorder: Callable[..., Any]) -> Iterator[Any]:
    with page_recorder(browser, sample_site) as page:
        yield page


def match(tab: Any, posting: str) -> list[str]:
    """Type ``posting`` into the match page and run it; the topics listed (field/topic)."""
    box = tab.locator(".qb-match")
    before = box.get_attribute("data-done") or "0"
    box.locator(".qb-match__text").fill(posting)
    box.locator(".qb-match__go").click()
    tab.wait_for_function(
        "(n) => (document.querySelector('.qb-match').dataset.done || '0') !== n", arg=before
    )
    items = box.locator(".qb-match__topic")
    return [items.nth(i).get_attribute("data-topic") for i in range(items.count())]


@pytest.mark.parametrize("name", list(POSTINGS))
def test_posting_ranks_its_topics_first_and_infers_the_seniority(tab: Any, name: str) -> None:
    posting = POSTINGS[name]
    tab.goto(f"{posting.locale}/match/")
    topics = match(tab, posting.text)
    box = tab.locator(".qb-match")
    assert topics[:1] == [posting.first], topics
    assert posting.also in topics[:3], topics
    assert box.get_attribute("data-lang") == posting.locale
    assert box.get_attribute("data-level") == posting.level
    # Why: the posting's own words that matched, on every topic listed: each a term of that
    # topic's profile (a real term of the bank), never a stop word of the language unless the
    # bank tags its questions with it (DeepSpeed's ZeRO: the tag `zero`).
    stop = {fold(word, posting.locale) for word in stopwordsiso.stopwords(posting.locale)}
    stop -= TAGS
    profiles = {f"{t['field']}/{t['topic']}": t["terms"] for t in _profiles(tab, posting.locale)}
    for i, topic in enumerate(topics):
        item = box.locator(".qb-match__topic").nth(i)
        why = item.locator(".qb-match__why mark").all_inner_texts()
        assert why, topic
        for word in why:
            assert word.lower() in posting.text.lower(), (topic, word)
            assert fold(word, posting.locale) not in stop, (topic, word)
            found = [t for t in terms(word, posting.locale) if len(t) > 1]
            assert any(t in profiles[topic] for t in found), (topic, word)
    # The bars measure each topic's score against its own most telling terms: not all full.
    bars = box.locator(".qb-match__score").evaluate_all("ms => ms.map(m => m.value)")
    assert len(bars) == len(topics)
    assert bars == sorted(bars, reverse=True) or len(set(bars)) > 1
    assert min(bars) < 100, bars


TAGS = {tag for entry in load_bank(ROOT / "content").entries for tag in entry.question.tags}
GARDENING = {
    "en": """Gardener, City Parks (full time)

You will plant seasonal flowers, prune hedges and shrubs, mow and water the lawns, compost
leaves and keep the vegetable beds free of weeds. Experience with soil care and irrigation
is a plus. We offer a friendly team, flexible hours and a bicycle allowance.""",
    "tr": """Bahçıvan – Şehir Parkları

Mevsimlik çiçekleri dikecek, çitleri ve çalıları budayacak, çimleri biçip sulayacak, yaprakları
kompost yapacak ve sebze tarhlarını yabani otlardan temizleyeceksiniz. Toprak bakımı ve sulama
deneyimi artıdır. Esnek çalışma saatleri ve güler yüzlü bir ekip sunuyoruz.""",
    "zh": """园艺师（城市公园）

职责：种植季节性花卉，修剪树篱和灌木，修剪并浇灌草坪，用落叶堆肥，保持菜园无杂草。
要求：有土壤养护和灌溉经验者优先。我们提供友好的团队和灵活的工作时间。""",
}
WEAK = {
    "en": "No strong match",
    "tr": "Güçlü bir eşleşme yok",
    "zh": "没有强匹配",
}


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_a_posting_about_nothing_in_the_bank_gets_no_strong_match(tab: Any, locale: str) -> None:
    tab.goto(f"{locale}/match/")
    assert match(tab, GARDENING[locale]) == []
    box = tab.locator(".qb-match")
    assert box.get_attribute("data-lang") == locale
    assert box.get_attribute("data-strong") == "0"
    assert tab.locator(".qb-match__status").inner_text().startswith(WEAK[locale])
    expect(tab.locator(".qb-match__practice")).to_have_count(0)


def test_stop_words_and_seniority_words_alone_match_nothing(tab: Any) -> None:
    """A posting of nothing but the language's stop words and level names (the words the
    old matcher showed as evidence) finds no topic in any language."""
    postings = {
        "en": "Senior engineer: you will have to work with the team, and or the end. "
        "We have what you need; you will do it end to end.",
        "tr": "Kıdemli mühendis: ve ile için bir bu olan veya en az daha çok gibi kadar.",
        "zh": "高级工程师：我们的团队，以及你将会和他们一起，还有其他的一些。",
    }
    for locale, text in postings.items():
        tab.goto(f"{locale}/match/")
        assert match(tab, text) == [], locale
        assert tab.locator(".qb-match__status").inner_text().startswith(WEAK[locale])


def _profiles(tab: Any, locale: str) -> list[dict[str, Any]]:
    return list(
        tab.evaluate(
            "async (l) => (await (await fetch(`../../${l}/api/match.json`)).json()).topics",
            locale,
        )
    )


def test_a_posting_in_another_language_is_matched_in_its_own_and_shown_in_the_pages(
    tab: Any,
) -> None:
    posting = POSTINGS["tr-senior-consensus"]
    tab.goto("en/match/")
    topics = match(tab, posting.text)
    box = tab.locator(".qb-match")
    assert topics[0] == posting.first
    assert box.get_attribute("data-lang") == "tr"
    first = box.locator(".qb-match__topic").first
    assert first.locator(".qb-match__name").inner_text() == "Replication and consensus"
    assert "/en/backend-engineer/replication-consensus/" in (
        first.locator(".qb-match__name").get_attribute("href") or ""
    )
    assert "Senior" in box.locator(".qb-match__level").inner_text()


def test_practice_link_starts_a_session_over_the_matched_topics_at_that_level(tab: Any) -> None:
    posting = POSTINGS["en-mid-streaming"]
    tab.goto("en/match/")
    match(tab, posting.text)
    link = tab.locator(".qb-match__practice")
    href = link.get_attribute("href") or ""
    assert "/en/backend-engineer/practice/?" in href
    assert "level=mid" in href
    chosen = re.search(r"topics=([^&]+)", href)
    assert chosen
    topics = chosen.group(1).replace("%2C", ",").split(",")
    assert topics[0] == "message-queues"
    link.click()
    tab.wait_for_url(re.compile(r"/practice/"))
    # practice.js (its own file since the topic pages stopped loading it) sets the level
    # from the link once it has run: wait for it, then check it
    tab.locator(".qb-start").wait_for()
    assert tab.locator("select.qb-practice-level").input_value() == "mid"
    tab.locator(".qb-practice-count").fill("100")
    tab.locator(".qb-start").click()
    tab.locator(".qb-practice-q").wait_for()
    seen = set()
    for _ in range(100):  # skip through the session: each card is drawn at once
        if not tab.locator(".qb-practice-q").count():
            break
        seen.add(tab.locator(".qb-practice-q").get_attribute("data-pid"))
        tab.locator(".qb-practice-skip").click()
    # Every question drawn is one of the chosen topics' mid-level questions.
    listed = tab.evaluate(
        "async () => (await (await fetch('../../api/practice/backend-engineer/mid.json')).json())"
    )
    names = listed["topics"]
    allowed = {qid for qid, t, _ in listed["questions"] if names[t].split("/")[1] in topics}
    seen.discard(None)
    assert seen
    assert seen <= allowed, (seen - allowed, topics)


def test_only_the_match_page_loads_match_js_and_nothing_leaves_the_site(
    tab: Any, sample_site: str
) -> None:
    tab.goto("en/")
    link = tab.locator("a[href$='match/']").first
    assert link.count() == 1
    assert not [url for url in tab.requests if url.endswith("/match.js")]
    tab.goto("zh/match/")
    match(tab, POSTINGS["zh-senior-throughput"].text)
    assert [url for url in tab.requests if url.endswith("/assets/match.js")]
    assert all(url.startswith(sample_site) for url in tab.requests), tab.requests


def test_empty_posting_says_what_to_do(tab: Any) -> None:
    tab.goto("tr/match/")
    assert match(tab, "   ") == []
    assert tab.locator(".qb-match__status").inner_text() == "Önce bir iş ilanı yapıştırın."


def test_match_page_works_after_instant_navigation(tab: Any) -> None:
    tab.goto("en/")
    tab.locator("a[href$='match/']").first.click()
    tab.wait_for_url(re.compile(r"/en/match/$"))
    tab.locator(".qb-match__text").wait_for()
    topics = match(tab, POSTINGS["en-junior-databases"].text)
    assert topics[0] == "backend-engineer/indexing-query-plans"


def test_only_topics_with_questions_at_the_level_are_listed_and_the_reader_may_pick_another(
    browser: Any, messy: str, page_recorder: Callable[..., Any]
) -> None:
    """The messy bank's database topics have no junior question (indexing: senior only,
    transactions: mid only): a junior posting about them says so, and picking Senior lists
    indexing with a practice link at that level."""
    posting = (
        "Junior Backend Developer. You will write SQL queries, add composite indexes and read "
        "query plans; you know which isolation level prevents a lost update in concurrent "
        "transactions."
    )
    with page_recorder(browser, messy) as page:
        page.goto("en/match/")
        assert match(page, posting) == []
        box = page.locator(".qb-match")
        assert box.get_attribute("data-level") == "junior"
        expect(page.locator(".qb-match__status")).to_have_text(
            "No matching topic has Junior questions yet; pick another level."
        )
        page.locator(".qb-match__level-choice").select_option("senior")
        expect(page.locator(".qb-match__topic")).to_have_count(1)
        assert page.locator(".qb-match__topic").get_attribute("data-topic") == "backend/indexing"
        expect(page.locator(".qb-match__where")).to_contain_text("1 Senior questions")
        href = page.locator(".qb-match__practice").get_attribute("href") or ""
        assert "/en/backend/practice/?level=senior&topics=indexing" in href
        page.locator(".qb-match__level-choice").select_option("mid")
        topics = page.locator(".qb-match__topic").evaluate_all("l => l.map(i => i.dataset.topic)")
        assert topics == ["backend/transactions"]


def test_without_javascript_the_page_explains_instead_of_an_inert_form(
    browser: Any, sample_site: str
) -> None:
    context = browser.new_context(base_url=sample_site, java_script_enabled=False)
    try:
        page = context.new_page()
        for locale, words in (("en", "needs JavaScript"), ("tr", "JavaScript gerektirir"),
                              ("zh", "需要 JavaScript")):  # fmt: skip
            page.goto(f"{locale}/match/")
            expect(page.locator(".qb-match__text")).to_be_hidden()
            expect(page.locator(".qb-match__go")).to_be_hidden()
            note = page.locator(".qb-match noscript p")
            expect(note).to_be_visible()
            assert words in note.inner_text()
    finally:
        context.close()
    with_js = browser.new_context(base_url=sample_site)
    try:
        page = with_js.new_page()
        page.goto("en/match/")
        expect(page.locator(".qb-match__text")).to_be_visible()
        expect(page.locator(".qb-match__go")).to_be_visible()
    finally:
        with_js.close()
