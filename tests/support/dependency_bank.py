# ruff: noqa: RUF001  (Turkish test content)
"""A bank of a team that uses qbank as a dependency (a catalog and one question)."""

from __future__ import annotations

QID = "01a05d13-8d21-739a-baa2-7dab67be4101"


CATALOG = """\
title: {en: Our Team's Bank, tr: Ekibimizin Bankası}
locales: [en, tr]
seniorities:
  junior: {en: Junior, tr: Junior}
  mid: {en: Mid-level, tr: Orta seviye}
  senior: {en: Senior, tr: Kıdemli}
fields:
  data:
    name: {en: Data Engineer, tr: Veri Mühendisi}
    specializations:
      storage:
        name: {en: Storage, tr: Depolama}
        topics:
          formats:
            name: {en: File formats, tr: Dosya biçimleri}
"""


QUESTION = """\
id: {qid}
difficulty: 1
prompt:
  en: Which format stores a table column by column?
  tr: Hangi biçim bir tabloyu sütun sütun saklar?
options:
  a: {{en: CSV, tr: CSV}}
  b: {{en: Parquet, tr: Parquet}}
answer: b
explanation:
  en: Parquet is columnar; CSV stores rows of text.
  tr: Parquet sütun tabanlıdır; CSV metin satırları saklar.
"""
