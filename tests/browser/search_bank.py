# ruff: noqa: RUF001, RUF002  (Turkish and Chinese test content)
"""A small bank designed for search, built by real MkDocs + qbank and served on 127.0.0.1.

- a Turkish prompt with a suffixed word (``veritabanlarındaki``), found by its dictionary form
  (``veritabanı``): the search box strips Turkish suffixes (qbank/search/tokenize.py);
- an English phrase (``connection pool exhaustion``) and a word that only the explanation uses
  (``Littlewood``);
- a Chinese word (``数据加载``) inside an unsegmented sentence, next to a question that shares
  only one of its characters' pairs (``数据库``);
- the word ``latency`` in three English questions of different seniority and difficulty, so a
  filter visibly narrows the results.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from sitebuild import build_site

CATALOG = """\
title: {en: Search Bank, tr: Arama Bankası, zh: 搜索题库}
locales: [en, tr, zh]
seniorities:
  junior: {en: Junior, tr: Junior, zh: 初级}
  mid: {en: Mid-level, tr: Orta seviye, zh: 中级}
  senior: {en: Senior, tr: Kıdemli, zh: 高级}
fields:
  backend:
    name: {en: Backend Engineer, tr: Backend Mühendisi, zh: 后端工程师}
    specializations:
      data:
        name: {en: Data, tr: Veri, zh: 数据}
        topics:
          storage:
            name: {en: Storage, tr: Depolama, zh: 存储}
          services:
            name: {en: Services, tr: Servisler, zh: 服务}
  ml-engineer:
    name: {en: ML Engineer, tr: ML Mühendisi, zh: 机器学习工程师}
    specializations:
      training:
        name: {en: Training, tr: Eğitim, zh: 训练}
        topics:
          input:
            name: {en: Input pipeline, tr: Girdi hattı, zh: 输入管道}
"""

BACKUPS = "01b05d13-8d21-739a-baa2-7dab67be5001"
POOL = "01b05d13-8d21-739a-baa2-7dab67be5002"
LOADING = "01b05d13-8d21-739a-baa2-7dab67be5003"
LATENCY_EASY = "01b05d13-8d21-739a-baa2-7dab67be5004"
LATENCY_HARD = "01b05d13-8d21-739a-baa2-7dab67be5005"
LATENCY_OPEN = "01b05d13-8d21-739a-baa2-7dab67be5006"

QUESTIONS: dict[str, dict[str, Any]] = {
    "backend/storage/backups.yaml": {
        "id": BACKUPS,
        "difficulty": 1,
        "seniority": "junior",
        "prompt": {
            "tr": "Veritabanlarındaki kayıtların yedeklerini neden düzenli olarak geri yüklemeyi "
            "denemek gerekir?",
            "en": "Why should backups be restored on a schedule, not only taken?",
            "zh": "为什么要定期演练备份恢复？",
        },
        "options": {
            "a": {
                "tr": "Yedeğin işe yaradığını görmek için",
                "en": "To prove they work",
                "zh": "证明备份可用",
            },
            "b": {"tr": "Diski ısıtmak için", "en": "To warm the disks", "zh": "预热磁盘"},
        },
        "answer": "a",
        "explanation": {
            "tr": "Denenmemiş bir yedek, çalıştığı kanıtlanmamış bir yedektir.",
            "en": "An untested backup is a hope, not a plan.",
            "zh": "未经演练的备份只是愿望。",
        },
    },
    "backend/services/pool.yaml": {
        "id": POOL,
        "difficulty": 2,
        "seniority": "mid",
        "prompt": {
            "en": "A service stalls under load with connection pool exhaustion in its logs. "
            "What do you check first?",
            "tr": "Yük altında bir serviste bağlantı havuzu tükeniyor. İlk neye bakarsınız?",
            "zh": "服务在高负载下连接池耗尽，首先检查什么？",
        },
        "options": {
            "a": {
                "en": "Slow queries holding connections",
                "tr": "Bağlantıyı tutan yavaş sorgular",
                "zh": "占用连接的慢查询",
            },
            "b": {"en": "The CPU fan", "tr": "İşlemci fanı", "zh": "CPU 风扇"},
        },
        "answer": "a",
        "explanation": {
            "en": "By Littlewood's law, holding time times arrival rate is the pool you need.",
            "tr": "Little yasası: tutma süresi çarpı geliş hızı gereken havuzdur.",
            "zh": "根据利特尔法则，占用时间乘以到达率就是所需的池大小。",
        },
    },
    "ml-engineer/input/loading.yaml": {
        "id": LOADING,
        "difficulty": 2,
        "seniority": "mid",
        "prompt": {
            "zh": "如何通过优化数据加载机制来提高显卡利用率？",
            "en": "How do you raise accelerator utilization by changing the input pipeline?",
        },
        "assesses": {
            "zh": "考察对输入与利用率关系的理解。",
            "en": "Whether the candidate links input and utilization.",
        },
    },
    "ml-engineer/input/latency-easy.yaml": {
        "id": LATENCY_EASY,
        "difficulty": 1,
        "seniority": "junior",
        "prompt": {
            "en": "What is the latency of one training step made of?",
            "zh": "数据库查询为什么会变慢？",
        },
        "options": {
            "a": {"en": "Input, compute and communication", "zh": "缺少索引"},
            "b": {"en": "Only compute", "zh": "颜色"},
        },
        "answer": "a",
        "explanation": {"en": "All three phases add up.", "zh": "缺少索引会导致全表扫描。"},
    },
    "ml-engineer/input/latency-hard.yaml": {
        "id": LATENCY_HARD,
        "difficulty": 3,
        "seniority": "senior",
        "prompt": {"en": "How would you hide input latency behind compute on many hosts?"},
        "options": {
            "a": {"en": "Prefetch and overlap"},
            "b": {"en": "Bigger logs"},
        },
        "answer": "a",
        "explanation": {"en": "Overlap the next batch's input with the current step."},
    },
    "ml-engineer/input/latency-open.yaml": {
        "id": LATENCY_OPEN,
        "seniority": ["mid", "senior"],
        "prompt": {"en": "Walk through how you would measure tail latency of data loading."},
        "model_answer": {"en": "Record per-batch wait times and read the 99th percentile."},
    },
}


def write_search_bank(root: Path) -> Path:
    """Write the search bank (catalog and six questions) under ``root``; return it."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    for relative, data in QUESTIONS.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return root


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def search_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The search bank built by ``mkdocs build --strict`` (Material, instant navigation) and
    served on 127.0.0.1; yields (base URL, site folder)."""
    tmp = tmp_path_factory.mktemp("search-site")
    site = tmp / "site"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=site))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    theme = {"name": "material", "features": ["navigation.instant"]}
    build_site(tmp, write_search_bank(tmp / "content"), theme=theme, site_url=url)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield url, site
    httpd.shutdown()
    httpd.server_close()
