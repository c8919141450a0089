# ruff: noqa: RUF001  (Turkish and Chinese test content)
"""`qbank import`: the seed documents and our own fixtures → question files that validate."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from qbank.bank.load import check_bank, load_bank
from qbank.tools.cli import main
from qbank.tools.importers.payload import resolve
from qbank.tools.importers.source import slug_for, specialization_for
from qbank.tools.importers.topic_page import to_markdown

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "import"


def seed(prefix: str) -> Path:
    """The seed file starting with ``prefix``, or skip when the seeds are absent."""
    found = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS.is_dir() else []
    if not found:
        pytest.skip(f"seed {prefix}_*.txt not found in {SEEDS} (the shared seeds folder)")
    return found[0]


def run_import(content: Path, *args: str, write: bool = True) -> str:
    """Run `qbank import` and return its stdout; fail the test on a non-zero exit."""
    argv = ["import", *args, "--content", str(content)] + (["--write"] if write else [])
    result = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def snapshot(content: Path) -> dict[str, str]:
    """Every file under ``content`` with a hash of its bytes."""
    return {
        p.relative_to(content).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(content.rglob("*"))
        if p.is_file()
    }


def questions(content: Path) -> list[dict[str, object]]:
    """The data of every question file, in path order."""
    return [
        yaml.safe_load(p.read_text("utf-8"))
        for p in sorted(content.rglob("*.yaml"))
        if p.name != "catalog.yaml"
    ]


# ---------------------------------------------------------------------------------------------
# The seeds


def test_seed_topic_page(tmp_path: Path) -> None:
    content = tmp_path / "content"
    run_import(content, "topic-page", str(seed("000")))
    bank = load_bank(content)
    assert [len(e.question.options or {}) for e in bank.entries] == [4] * 6
    files = sorted(content.glob("ml-engineer/ti-throughput-profiling-bottlenecks/*.yaml"))
    assert len(files) == 6
    by_prompt = {e.question.prompt["tr"]: e for e in bank.entries}
    text = seed("000").read_text("utf-8")
    order = sorted(by_prompt, key=lambda p: text.index(p.splitlines()[-1]))
    assert [by_prompt[p].question.difficulty for p in order] == [2, 1, 3, 2, 2, 3]
    assert [by_prompt[p].question.answer for p in order] == [
        ["c"],
        ["a"],
        ["d"],
        ["a"],
        ["a"],
        ["c"],
    ]
    first = by_prompt[order[0]].question
    assert "```text\ninput_wait   : 2 ms" in first.prompt["tr"]
    assert "step total   : 64 ms\n```" in first.prompt["tr"]
    assert "```python\ntimes = []" in by_prompt[order[3]].question.prompt["tr"]
    assert first.explanation is not None
    assert first.explanation["tr"].startswith("backward (34 ms)")
    assert bank.catalog.fields["ml-engineer"].name["tr"] == "ML Engineer"
    assert "tr" in bank.catalog.locales


def test_seed_payload(tmp_path: Path) -> None:
    content = tmp_path / "content"
    out = run_import(content, "payload", str(seed("003")), write=False)
    assert "would write" in out
    assert not content.exists(), "a dry run writes nothing"
    run_import(content, "payload", str(seed("003")))
    bank = load_bank(content)
    catalog = bank.catalog
    assert len(catalog.fields) == 12
    assert sum(len(f.specializations) for f in catalog.fields.values()) == 72
    ml = catalog.fields["ml-engineer"]
    topics = {t: s for s, spec in ml.specializations.items() for t in spec.topics}
    assert len(topics) == 32
    assert topics["cml-svm-kernels-margins"] == "classical-ml"
    assert topics["dl-sequence-attention"] == "deep-learning"
    assert topics["fe-binning-discretization"] == "feature-engineering"
    assert topics["ti-distributed-strategies-sync"] == "training-infrastructure"
    assert topics["ml-monitoring-drift"] == "general"
    assert list(catalog.seniorities) == ["junior", "mid", "senior"]
    assert catalog.fields["database"].name == {"tr": "Veritabanı", "en": "Database"}
    assert len(bank.entries) == 6
    assert all(e.question.is_choice and e.locales == ("tr",) for e in bank.entries)
    assert {e.topic for e in bank.entries} == {"ti-distributed-strategies-sync"}
    entry = bank.by_id["01a05d13-8d21-739a-baa2-7dab67be4093"]
    assert entry.question.difficulty == 3
    assert entry.question.answer == ["c"]
    assert "2(N-1)/N" in (entry.question.explanation or {})["tr"]
    assert any("```" in e.question.prompt["tr"] for e in bank.entries), "code blocks kept"


def test_seed_interview(tmp_path: Path) -> None:
    content = tmp_path / "content"
    args = ("interview", str(seed("004")), "--field", "ml-engineer", "--topic", "data-loading")
    run_import(content, *args)
    bank = load_bank(content)
    assert len(bank.entries) == 10
    assert all(not e.question.is_choice for e in bank.entries)
    assert sum(e.question.model_answer is not None for e in bank.entries) == 6
    assert all(e.question.assesses for e in bank.entries)
    assert all(e.locales == ("zh",) for e in bank.entries)
    assert all(e.seniorities == ("mid",) for e in bank.entries), "3 years → mid"
    for entry in bank.entries:
        source = entry.question.source or ""
        assert "深度学习框架工程师" in source
        assert "点评" in source
        assert "点评" not in entry.question.prompt["zh"]
        assert "从业年限" not in (entry.question.model_answer or {}).get("zh", "")
    assert all(e.slug.startswith("q-") for e in bank.entries)


def test_all_seeds_into_one_bank_idempotent_and_builds(tmp_path: Path) -> None:
    from sitebuild import build_site

    content = tmp_path / "content"
    runs = [
        ("payload", str(seed("003"))),
        ("topic-page", str(seed("000"))),
        ("interview", str(seed("004")), "--field", "ml-engineer", "--topic", "ml-data-preparation"),
    ]
    for args in runs:
        run_import(content, *args)
    before = snapshot(content)
    for args in runs:
        out = run_import(content, *args)
        assert "wrote" not in out
    assert snapshot(content) == before
    bank, problems = check_bank(content)
    assert bank is not None, [p.format_text() for p in problems]
    assert len(bank.entries) == 22
    site = build_site(tmp_path, content)
    assert (site / "tr" / "index.html").is_file()


# ---------------------------------------------------------------------------------------------
# Our own fixtures (no seeds needed)


def test_fixture_payload_into_existing_bank(small_bank: Path) -> None:
    catalog_before = (small_bank / "catalog.yaml").read_text("utf-8")
    out = run_import(small_bank, "payload", str(FIXTURES / "payload.json"))
    assert "add field data-science" in out
    bank = load_bank(small_bank)
    catalog = bank.catalog
    assert catalog.locales == ["en", "tr", "zh"], "existing locales and order kept"
    assert list(catalog.fields)[:2] == ["ml-engineer", "backend"], "existing fields stay first"
    assert catalog.fields["backend"].specializations["databases"].name == {
        "en": "Databases",
        "tr": "Veritabanları",
    }
    ds = catalog.fields["data-science"]
    assert list(ds.specializations) == ["general", "classical-ml", "training-infrastructure"]
    assert list(ds.specializations["general"].topics) == ["ds-notebooks"]
    assert list(ds.specializations["classical-ml"].topics) == ["cml-tree-splits"]
    assert ds.name == {"en": "Data Science", "tr": "Veri Bilimi"}
    assert catalog.fields["web"].specializations["css"].topics == {}
    assert len(bank.entries) == 8 + 2
    multi = bank.by_id["01a05d14-1111-7000-8000-000000000002"]
    assert multi.question.answer == ["a", "b"]
    assert multi.topic == "cml-tree-splits"
    accumulate = bank.by_id["01a05d14-1111-7000-8000-000000000001"]
    assert "```python\nfor i, batch in enumerate(loader):" in accumulate.question.prompt["en"]
    assert accumulate.file.startswith("data-science/ti-gradient-accumulation/")
    # The old catalog's content survives the rewrite.
    old = yaml.safe_load(catalog_before)
    new = yaml.safe_load((small_bank / "catalog.yaml").read_text("utf-8"))
    assert new["fields"]["ml-engineer"] == old["fields"]["ml-engineer"]
    assert new["seniorities"] == old["seniorities"]


def test_fixture_topic_page(tmp_path: Path) -> None:
    content = tmp_path / "content"
    out = run_import(content, "topic-page", str(FIXTURES / "topic-page.txt"), write=False)
    assert "content/backend/caching-strategies/" in out.replace(str(tmp_path) + "/", "")
    run_import(content, "topic-page", str(FIXTURES / "topic-page.txt"))
    bank = load_bank(content)
    assert [e.question.difficulty for e in bank.entries] == [1, 2, 3]
    multi = next(e for e in bank.entries if e.question.difficulty == 2)
    assert multi.question.answer == ["a", "b"]
    hard = next(e for e in bank.entries if e.question.difficulty == 3)
    assert (
        "```text\ncache_hit    : 2 ms\ncache_miss   : 45 ms\nhit_ratio    : 0.90\n```"
        in (hard.question.prompt["tr"])
    )
    assert hard.question.options is not None
    assert hard.question.options["b"]["tr"] == "6,3 ms"
    assert {e.slug for e in bank.entries} >= {"bir-onbellekte-cache-aside-duzeninde-veriyi-kim"}


def test_fixture_topic_page_explicit_place(small_bank: Path) -> None:
    before = len(load_bank(small_bank).by_topic["backend", "indexing"])
    args = ("topic-page", str(FIXTURES / "topic-page.txt"), "--field", "backend")
    run_import(small_bank, *args, "--topic", "indexing")
    bank = load_bank(small_bank)
    assert len(bank.by_topic["backend", "indexing"]) == before + 3
    assert "caching-strategies" not in (small_bank / "catalog.yaml").read_text("utf-8")


def test_fixture_interview(tmp_path: Path) -> None:
    content = tmp_path / "content"
    args = ("interview", str(FIXTURES / "interview.txt"), "--field", "backend")
    run_import(content, *args, "--topic", "caching")
    bank = load_bank(content)
    assert len(bank.entries) == 3
    assert [e.question.model_answer is not None for e in bank.entries].count(True) == 2
    assert all(e.seniorities == ("senior",) for e in bank.entries), "7 years → senior"
    first = next(e for e in bank.entries if "读多写少" in e.question.prompt["zh"])
    assert first.question.model_answer == {
        "zh": "先用旁路缓存模式，读请求先查缓存，未命中再查数据库并回填。\n\n"
        "写请求先更新数据库，再删除缓存中的旧值。"
    }
    assert first.question.assesses == {"zh": "考察对缓存读写模式的理解。"}
    assert "候选人思路清晰" in (first.question.source or "")


def test_fixture_idempotent_and_never_overwrites(tmp_path: Path) -> None:
    content = tmp_path / "content"
    run_import(content, "topic-page", str(FIXTURES / "topic-page.txt"))
    before = snapshot(content)
    out = run_import(content, "topic-page", str(FIXTURES / "topic-page.txt"))
    assert snapshot(content) == before
    assert out.count("unchanged ") == 3
    # A hand edit is kept; a stranger holding the slug gets a sibling file.
    path = (
        content / "backend/caching-strategies/bir-onbellekte-cache-aside-duzeninde-veriyi-kim.yaml"
    )
    edited = path.read_text("utf-8").replace("difficulty: 1", "difficulty: 2")
    path.write_text(edited, "utf-8")
    other = path.read_text("utf-8").replace(
        yaml.safe_load(edited)["id"], "01a05d14-2222-7000-8000-000000000009"
    )
    path.unlink()
    path.write_text(other.replace("kim yükler", "kim okur"), "utf-8")
    run_import(content, "topic-page", str(FIXTURES / "topic-page.txt"))
    assert path.read_text("utf-8") == other.replace("kim yükler", "kim okur")
    assert path.with_name(path.stem + "-2.yaml").is_file()
    assert load_bank(content)


# ---------------------------------------------------------------------------------------------
# Unreadable parts are clear errors, never tracebacks


def _error(tmp_path: Path, kind: str, text: str, *extra: str) -> str:
    source = tmp_path / "source.txt"
    source.write_text(text, "utf-8")
    argv = ["import", kind, str(source), "--content", str(tmp_path / "content"), *extra]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "content").exists()
    return result.output


def test_errors_payload(tmp_path: Path) -> None:
    out = _error(tmp_path, "payload", '[{"data": 1},\n["ShallowReactive", 2], {"a": 9')
    assert "source.txt:2:32: not valid JSON" in out
    out = _error(tmp_path, "payload", '[{"data": 1}, ["ShallowReactive", 2], {"config": 7}]')
    assert "entry 2.config: refers to entry 7" in out
    assert "expected an index below 3" in out
    payload = json.loads((FIXTURES / "payload.json").read_text("utf-8"))
    broken = [v if v != "a" else 17 for v in payload]
    out = _error(tmp_path, "payload", json.dumps(broken))
    assert "options[0].key" in out
    assert "expected text" in out


def test_errors_topic_page(tmp_path: Path) -> None:
    out = _error(tmp_path, "topic-page", "Başlık\n\nhiç soru yok\n")
    assert "no question found" in out
    assert "Zorluk" in out
    page = "X Y Mülakat Soruları\nYZorluk 2\nSoru?\n  • aBir\n  • bİki\nAçıklama:Neden.\n"
    out = _error(tmp_path, "topic-page", page)
    assert "source.txt:2: no option is marked ✓" in out
    out = _error(tmp_path, "topic-page", page.replace("İki", "İki✓").replace("Açıklama:", "-"))
    assert "no explanation" in out
    assert "Açıklama" in out
    out = _error(tmp_path, "topic-page", page.replace("Zorluk 2", "Zorluk 7"))
    assert "source.txt:2: 'Zorluk 7'; expected difficulty 1, 2 or 3" in out


def test_errors_interview(tmp_path: Path) -> None:
    text = (FIXTURES / "interview.txt").read_text("utf-8")
    out = _error(tmp_path, "interview", text)
    assert "expected --field F --topic T" in out
    out = _error(
        tmp_path, "interview", text.replace("问题2", "问题5"), "--field", "a", "--topic", "b"
    )
    assert "source.txt:8: 问题5; expected 问题2" in out


# ---------------------------------------------------------------------------------------------
# Pieces


def test_resolve_devalue_specials() -> None:
    values = [{"a": 1, "b": -1, "c": 3}, ["Reactive", 2], [4, 5], ["Set", 4], "x", 7]
    assert resolve(values, "p") == {"a": ["x", 7], "b": None, "c": ["x"]}


def test_slugs_and_prefixes() -> None:
    assert slug_for("Çok ŞIKLI ığdır sorusu: neden?") == "cok-sikli-igdir-sorusu-neden"
    assert slug_for("如何提高 GPU 利用率？").startswith("q-")
    assert len(slug_for("word " * 40)) <= 48
    assert [specialization_for(t) for t in ("cml-x", "dl-x", "fe-x", "ti-x", "ml-x", "x")] == [
        "classical-ml",
        "deep-learning",
        "feature-engineering",
        "training-infrastructure",
        "general",
        "general",
    ]


def test_code_lines_fenced() -> None:
    lines = ["Şu kod:", "x = [1, 2]", "print(x)", "", "Ne yazar?"]
    assert to_markdown(lines) == "Şu kod:\n\n```python\nx = [1, 2]\nprint(x)\n```\n\nNe yazar?"


def test_import_help_documents_prefix_rule() -> None:
    result = CliRunner().invoke(main, ["import", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "cml- classical-ml" in text
    assert "ti- training-infrastructure" in text
    assert "comments in it are lost" in text


def test_dry_run_output_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["import", "interview", str(FIXTURES / "interview.txt"), "--field", "backend"]
    result = CliRunner().invoke(main, [*argv, "--topic", "caching"])
    assert result.exit_code == 0
    assert result.stdout == (
        "content/catalog.yaml: add locale zh\n"
        "content/catalog.yaml: add seniority junior\n"
        "content/catalog.yaml: add seniority mid\n"
        "content/catalog.yaml: add seniority senior\n"
        "content/catalog.yaml: add field backend\n"
        "content/catalog.yaml: add specialization backend/general\n"
        "content/catalog.yaml: add topic backend/caching in general\n"
        "would write content/catalog.yaml\n"
        "would write content/backend/caching/q-ddf5e723.yaml "
        "(new, id 531cbb99-f442-5b62-ae51-e8b2244ff450)\n"
        "would write content/backend/caching/q-299384aa.yaml "
        "(new, id cae27141-cafc-5fb4-a3c3-e3383b385421)\n"
        "would write content/backend/caching/q-29aa8219.yaml "
        "(new, id 0455e44d-290f-537e-b07d-f61735dbf639)\n"
    )
    assert result.stderr == (
        "3 question(s): 3 new, 0 already in the bank; run again with --write to write them\n"
    )
    assert not (tmp_path / "content").exists()
