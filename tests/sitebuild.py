# ruff: noqa: RUF001, RUF003  (Turkish and Chinese test content)
"""A small bank on disk and a real ``mkdocs build --strict`` of it, shared by the tests.

A plain module (not conftest.py) so test files in any folder can import it by name."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent

CATALOG = """\
title: {en: Small Bank, tr: Küçük Banka, zh: 小题库}
locales: [en, tr, zh]
seniorities:
  junior: {en: Junior, tr: Junior, zh: 初级}
  mid: {en: Mid-level, tr: Orta seviye, zh: 中级}
  senior: {en: Senior, tr: Kıdemli, zh: 高级}
fields:
  ml-engineer:
    name: {en: ML Engineer, tr: ML Mühendisi, zh: 机器学习工程师}
    specializations:
      training:
        name: {en: Training, tr: Eğitim, zh: 训练}
        topics:
          throughput:
            name: {en: Throughput, tr: Verim, zh: 吞吐量}
          numerics:
            name: {en: Numerics, tr: Sayısal, zh: 数值}
  backend:
    name: {en: Backend Engineer, tr: Backend Mühendisi, zh: 后端工程师}
    specializations:
      databases:
        name: {en: Databases, tr: Veritabanları}
        topics:
          indexing:
            name: {en: Indexing, tr: İndeksleme, zh: 索引}
"""

# A 1×1 transparent PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)

QUESTIONS: dict[str, dict[str, Any]] = {
    "ml-engineer/throughput/input-wait.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4001",
        "difficulty": 2,
        "tags": ["profiling", "gpu"],
        "prompt": {
            "en": "A step spends 48 of 118 ms waiting for data:\n\n"
            "| Phase | ms |\n|---|--:|\n| wait | 48 |\n| compute | 70 |\n\nWhat first?",
            "tr": "Bir adım 118 ms'nin 48'ini veri bekleyerek geçiriyor. İlk ne yapılır?",
            "zh": "一个训练步在 118 ms 中有 48 ms 在等待数据。首先做什么？",
        },
        "options": {
            "a": {"en": "Fuse kernels", "tr": "Kernel birleştir", "zh": "融合 kernel"},
            "b": {"en": "Speed up input", "tr": "Girdiyi hızlandır", "zh": "加速输入"},
            "c": {"en": "Bigger buckets", "tr": "Daha büyük bucket", "zh": "更大的 bucket"},
        },
        "answer": "b",
        "explanation": {
            "en": "Hiding the wait gives $118 / 70 \\approx 1.7\\times$.",
            "tr": "Beklemeyi gizlemek $118 / 70 \\approx 1.7\\times$ kazandırır.",
            "zh": "隐藏等待可获得 $118 / 70 \\approx 1.7\\times$ 的加速。",
        },
        "source": "https://example.org/profiling-notes",
    },
    "ml-engineer/throughput/pinned-memory.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4002",
        "difficulty": 1,
        "prompt": {
            "en": "What does `pin_memory=True` change?\n\n```python\n"
            "loader = DataLoader(ds, pin_memory=True)\n```",
            "tr": "`pin_memory=True` neyi değiştirir?",
            "zh": "`pin_memory=True` 改变了什么？",
        },
        "options": {
            "a": {"en": "Page-locked host buffers", "tr": "Sabitlenmiş bellek", "zh": "锁页内存"},
            "b": {"en": "GPU memory pooling", "tr": "GPU bellek havuzu", "zh": "显存池"},
        },
        "answer": "a",
        "explanation": {"en": "Faster copies.", "tr": "Daha hızlı kopya.", "zh": "拷贝更快。"},
    },
    "ml-engineer/throughput/profile-plan.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4003",
        "seniority": ["mid", "senior"],
        "prompt": {"en": "How do you find the bottleneck of a training job?"},
        "assesses": {"en": "A method: **measure** before changing anything."},
        "model_answer": {"en": "Profile one step, split it into phases, attack the largest."},
    },
    "ml-engineer/throughput/gpu-idle.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4004",
        "seniority": "mid",
        "prompt": {
            "zh": "如何通过优化数据加载机制来提高 GPU 利用率？",
            "en": "How do you raise GPU utilization by changing data loading?",
        },
        "assesses": {
            "zh": "考察对数据加载与 GPU 利用率关系的理解。",
            "en": "Whether the candidate links loading and utilization.",
        },
    },
    "ml-engineer/numerics/bf16-range.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4005",
        "difficulty": 3,
        "tags": ["precision"],
        "prompt": {
            "en": "Which formats share the exponent range of FP32?\n\n![bits](bits.png)\n\n"
            "$$\n2^{127}\n$$",
            "tr": "Hangi formatlar FP32 ile aynı üs aralığına sahiptir?\n\n![bits](bits.png)",
        },
        "options": {
            "a": {"en": "BF16", "tr": "BF16"},
            "b": {"en": "FP16", "tr": "FP16"},
            "c": {"en": "TF32", "tr": "TF32"},
            "d": {"en": "INT8", "tr": "INT8"},
        },
        "answer": ["a", "c"],
        "explanation": {"en": "Both keep 8 exponent bits.", "tr": "İkisi de 8 üs biti tutar."},
    },
    "ml-engineer/numerics/loss-scaling.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4006",
        "difficulty": 2,
        "prompt": {
            "en": "Why does FP16 training need loss scaling?",
            "tr": "FP16 eğitimi neden loss scaling ister?",
        },
        "options": {
            "a": {"en": "Small gradients underflow", "tr": "Küçük gradyanlar sıfıra düşer"},
            "b": {"en": "Large weights overflow", "tr": "Büyük ağırlıklar taşar"},
        },
        "answer": "a",
        "explanation": {
            "en": "Gradients below $2^{-24}$ vanish.",
            "tr": "$2^{-24}$ altı gradyanlar kaybolur.",
        },
    },
    "backend/indexing/composite-order.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4007",
        "difficulty": 2,
        "tags": ["sql"],
        "prompt": {
            "en": "An index on `(a, b)` exists. Which query can use it for <b>both</b> columns?",
            "tr": "`(a, b)` üzerinde bir indeks var. Hangi sorgu iki sütun için de kullanabilir?",
            "zh": "存在 `(a, b)` 索引。哪个查询能同时用到两列？",
        },
        "options": {
            "a": {"en": "`WHERE b = 1`", "tr": "`WHERE b = 1`", "zh": "`WHERE b = 1`"},
            "b": {
                "en": "`WHERE a = 1 AND b > 2`",
                "tr": "`WHERE a = 1 AND b > 2`",
                "zh": "`WHERE a = 1 AND b > 2`",
            },
        },
        "answer": "b",
        "explanation": {"en": "Leftmost prefix.", "tr": "En soldaki önek.", "zh": "最左前缀。"},
    },
    "backend/indexing/covering-index.yaml": {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4008",
        "seniority": "senior",
        "prompt": {
            "en": "When is a covering index worth its write cost?",
            "tr": "Kapsayan indeks yazma maliyetine ne zaman değer?",
            "zh": "覆盖索引何时值得其写入成本？",
        },
    },
}


def write_bank(root: Path, catalog: str, questions: dict[str, dict[str, Any]]) -> Path:
    """Write ``catalog`` and each question (path relative to ``root``: data) as YAML."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "catalog.yaml").write_text(catalog, encoding="utf-8")
    for relative, data in questions.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return root


def write_small_bank(root: Path) -> Path:
    """Write the small bank (catalog + 8 questions, one image) under ``root``; return it."""
    write_bank(root, CATALOG, QUESTIONS)
    (root / "ml-engineer/numerics/bits.png").write_bytes(PNG)
    return root


def plant_near_duplicates(content: Path) -> None:
    """Two questions of the small bank at ``content`` whose prompts are alike but for one
    word (``near-0.yaml``, ``near-1.yaml``): a near-duplicate warning."""
    question = yaml.safe_load((content / "ml-engineer/numerics/loss-scaling.yaml").read_text())
    words = " ".join(f"word{i}" for i in range(30))
    for n, extra in enumerate(("", " more")):
        near = dict(question, id=f"01a05d13-8d21-739a-baa2-7dab67be40f{n}")
        near["prompt"] = {"en": f"Why {words}{extra}?", "tr": f"Neden {words}{extra}?"}
        (content / f"ml-engineer/numerics/near-{n}.yaml").write_text(yaml.safe_dump(near))


def site_config(content_dir: Path, qbank: dict[str, Any] | None = None) -> dict[str, Any]:
    """The mkdocs.yml of a site of the bank at ``content_dir`` (``qbank``: the plugin's
    settings besides the content folder)."""
    return {
        "site_name": "Small Bank",
        "site_url": "https://example.org/bank/",
        "repo_url": "https://github.com/qbank-dev/qbank",
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "material"},
        "plugins": [{"qbank": {"content_dir": str(content_dir), **(qbank or {})}}],
    }


def build_site(tmp_path: Path, content_dir: Path, **overrides: Any) -> Path:
    """Write an mkdocs.yml for ``content_dir`` and run a real ``mkdocs build --strict``.

    Returns the site folder; raises ``subprocess.CalledProcessError`` (with the output in
    ``stdout``/``stderr``) when the build fails.
    """
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    config = {**site_config(content_dir), **overrides}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    )
    return tmp_path / "site"


def write_serve_config(folder: Path) -> None:
    """An mkdocs.yml (and empty docs/) in ``folder`` serving ``folder/content`` with qbank,
    with the opt-in ``bank.json`` (the serve tests follow its background writer)."""
    (folder / "docs").mkdir()
    config = {
        "site_name": "Small Bank",
        "docs_dir": "docs",
        "theme": {"name": "material"},
        "plugins": [{"qbank": {"content_dir": "content", "bank_json": True}}],
    }
    (folder / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")


PUBLISHERS = ("mkdocs", "properdocs", "zensical")
"""The publishers of a ``qbank build`` tree (each run without the qbank plugin)."""


def write_tree(folder: Path, content_dir: Path, **overrides: Any) -> Path:
    """Write an mkdocs.yml (with the qbank plugin, as a site has it) in ``folder`` and run a
    real ``qbank build`` of ``content_dir``; return the tree's folder."""
    config: dict[str, Any] = {
        "site_name": "Small Bank",
        "site_url": "https://example.org/bank/",
        "repo_url": "https://github.com/qbank-dev/qbank",
        "theme": {"name": "material"},
        "plugins": [{"qbank": {"content_dir": str(content_dir)}}, "tags"],
    }
    config.update(overrides)
    (folder / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
    out = folder / "tree"
    command = ["build", "--out", str(out), "--content", str(content_dir)]
    subprocess.run(
        [str(Path(sys.executable).parent / "qbank"), *command],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    )
    return out


def publish_tree(tree: Path, publisher: str) -> Path:
    """Run ``publisher`` (one of ``PUBLISHERS``) strictly on the tree; return the site."""
    command = [str(Path(sys.executable).parent / publisher), "build", "--strict"]
    subprocess.run(
        [*command, "-f", str(tree / "mkdocs.yml")],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return tree / "site"
