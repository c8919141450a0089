# ruff: noqa: RUF001, RUF003  (Turkish and Chinese test text)
"""The tokenizer is defined once: Python (qbank/search/tokenize.py, at index time) and
JavaScript (assets/lib/tokenize.js, at query time) fold, segment and stem a shared list of cases,
and every text of the sample bank, identically. The JavaScript runs in node."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from qbank.search.tokenize import TURKISH_SUFFIXES, fold, stem, stemmer_spec, terms, words

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "site_templates" / "assets"

CASES: list[tuple[str, str]] = [
    ("tr", "İSTANBUL Istanbul IŞIK ışık"),
    ("tr", "DEĞİŞKEN değişken degisken DEGISKEN değişkenler değişkenleri değişkenin"),
    ("tr", "SINIF sınıf sinif sınıfları siniflar Sınıfın"),
    ("tr", "dizi dizinin dizisi sayı sayılar sayıları olay olayı olaylar"),
    ("tr", "özellik özellikleri özellikle Promise'ler Promise’in JavaScript'te React'ın"),
    ("tr", "veritabanlarındaki veritabanı kitabı kitap örneği örnek kodu kod"),
    ("tr", "kullanmak kullanılır çalışır bellekte sistemde sisteme fonksiyonların nedir"),
    ("tr", "Âdet î û â ÇĞÖŞÜ 42 x_1 ab b"),
    ("az", "İşıq Iİ"),
    ("en", "Garbage collection collected collecting collector"),
    ("en", "use strict mode; strictly scoping scopes scoped closures"),
    ("en", "Running runs ran runner's generalization generously hoisting hoisted"),
    ("en", "console.log(i) for (var i = 0; i < 3; i++) x_y 3.14 ΟΔΟΣ Straße naïve"),
    ("en", "I İ ı don't O'Reilly’s"),
    ("zh", "变量被提升 变量提升 类 原型链 数据库索引"),
    ("zh", "用 SQL 查询，Promise 的 then() 方法；ひらがな カタカナ 한국어"),
    ("zh", "闭包（closure）是什么？async/await 与 Promise"),
    ("fr", "Élève élèves ÉCOLE"),
]

NODE_SCRIPT = r"""
import fs from "node:fs";
const t = await import(process.argv[2]);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const stemmers = {};
for (const [locale, spec] of Object.entries(input.specs)) {
  stemmers[locale] = await t.stemmerFor(spec);
}
const out = input.cases.map(([locale, text]) => ({
  fold: t.fold(text, locale),
  words: t.words(text, locale),
  terms: [...t.terms(text, locale, stemmers[locale])],
  stems: t.words(text, locale).filter((w) => !t.isCjk(w))
    .map((w) => t.stem(w, locale, stemmers[locale])),
}));
process.stdout.write(JSON.stringify(out));
"""


def python_side(cases: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """What qbank/search/tokenize.py makes of each case."""
    out = []
    for locale, text in cases:
        pieces = words(text, locale)
        out.append(
            {
                "fold": fold(text, locale),
                "words": pieces,
                "terms": list(terms(text, locale)),
                "stems": [stem(w, locale) for w in pieces if not w[0] >= "\u3040"],
            }
        )
    return out


def javascript_side(cases: list[tuple[str, str]], tmp: Path) -> list[dict[str, Any]]:
    """What assets/lib/tokenize.js (search.js's and match.js's) makes of each case, run in node."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail(
                "node is not installed: the tokenizer parity test runs lib/tokenize.js in it"
            )
        pytest.skip("node is not installed")
    script = tmp / "parity.mjs"
    script.write_text(NODE_SCRIPT, "utf-8")
    locales = sorted({locale for locale, _ in cases})
    payload = {"cases": cases, "specs": {loc: stemmer_spec(loc) for loc in locales}}
    result = subprocess.run(
        [node, str(script), (ASSETS / "lib" / "tokenize.js").as_uri()],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data: list[dict[str, Any]] = json.loads(result.stdout)
    return data


def compare(cases: list[tuple[str, str]], tmp: Path) -> None:
    python, javascript = python_side(cases), javascript_side(cases, tmp)
    assert len(python) == len(javascript) == len(cases)
    differ = [
        (case, key, python[n][key], javascript[n][key])
        for n, case in enumerate(cases)
        for key in ("fold", "words", "terms", "stems")
        if python[n][key] != javascript[n][key]
    ]
    assert not differ, differ[:5]


def test_python_and_javascript_cut_the_shared_cases_alike(tmp_path: Path) -> None:
    compare(CASES, tmp_path)
    # The cases say what they are for (not just "both agree"):
    got = {text: list(terms(text, locale)) for locale, text in CASES[:3]}
    assert len(set(got[CASES[1][1]][:4])) == 1  # DEĞİŞKEN, değişken, degisken, DEGISKEN
    assert len(set(got[CASES[2][1]][:5])) == 1  # SINIF sınıf sinif sınıfları siniflar
    suffixed, plain = terms("Promise'ler Promise", "tr")
    assert suffixed == plain
    assert list(terms("collection collected", "en")) == ["collect", "collect"]
    assert "类" in list(terms("类是原型", "zh"))


def test_python_and_javascript_cut_every_text_of_the_sample_bank_alike(tmp_path: Path) -> None:
    cases: list[tuple[str, str]] = []
    for path in sorted((ROOT / "content").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        if not isinstance(data, dict) or "prompt" not in data:
            continue
        texts = [data["prompt"], *(data.get("options") or {}).values()]
        texts += [data[key] for key in ("explanation", "assesses", "model_answer") if key in data]
        for text in texts:
            if isinstance(text, str):  # one text for every locale
                cases += [(locale, text) for locale in ("en", "tr", "zh")]
            else:
                cases += [(locale, value) for locale, value in text.items()]
    assert len(cases) > 300
    compare(cases, tmp_path)


def test_the_c_stemmer_in_use_stems_as_the_python_one(tmp_path: Path) -> None:
    """snowballstemmer hands out PyStemmer's C stemmers when that is installed (a
    dependency: the Python ones took most of an English index's time); both are made from
    the same Snowball algorithm, so every word of the sample bank and of the bench's
    synthetic bank stems alike (and search.js agrees with Python: the tests above)."""
    from snowballstemmer.english_stemmer import EnglishStemmer  # type: ignore[import-untyped]

    from qbank.search.tokenize import _snowball

    used = _snowball("english")
    assert type(used).__module__ == "Stemmer"
    bank = tmp_path / "bank"
    make = [sys.executable, str(ROOT / "bench" / "make_bank.py"), str(bank), "--questions", "300"]
    subprocess.run(make, check=True, stdout=subprocess.DEVNULL)
    found: set[str] = set()
    for folder in (ROOT / "content", bank):
        for path in folder.rglob("*.yaml"):
            found.update(words(path.read_text("utf-8"), "en"))
    found.update(w for locale, text in CASES for w in words(text, "en"))
    assert len(found) > 5000
    python = EnglishStemmer()
    differ = [w for w in sorted(found) if used.stemWord(w) != python.stemWord(w)]
    assert not differ, differ[:10]


def test_stacked_turkish_suffixes_stem_alike_in_python_and_javascript(tmp_path: Path) -> None:
    """Python finds the longest Turkish suffix by the word's ending, search.js by trying each
    suffix: random stems with up to four suffixes stacked (every rule, buffer letters and
    softening included) stem alike."""
    rng = random.Random(7)
    suffixes = [rule.lstrip("+-") for rule in TURKISH_SUFFIXES]
    stacked = [
        "".join(rng.choice("abcdegiklmnoprstuyz") for _ in range(rng.randint(1, 6)))
        + "".join(rng.choice(suffixes) for _ in range(rng.randint(0, 4)))
        for _ in range(20000)
    ]
    cases = [("tr", " ".join(stacked[n : n + 100])) for n in range(0, len(stacked), 100)]
    compare(cases, tmp_path)
    assert len({stem(word, "tr") for word in stacked}) < len(set(stacked))  # some did go
