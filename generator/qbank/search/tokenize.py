# ruff: noqa: RUF001, RUF002, RUF003  (Turkish letters in rules and comments)
"""How search cuts text into terms: folding, segmentation and stemming, for the index and for
queries alike. ``site_templates/assets/lib/tokenize.js`` mirrors every function here line for line
(``tests/test_search_tokenize.py`` runs both over one list of cases); the data that varies by
locale (the Turkish suffix rules) is written into each index's manifest (``stemmer_spec``), so
the browser reads the very rules Python applied.

- **Folding** (``fold``): Unicode NFC, lower case; Turkish and Azerbaijani with their own case
  rules (``I`` → ``ı``, ``İ`` → ``i``) and then to ASCII (``değişken`` → ``degisken``,
  ``SINIF`` → ``sınıf`` → ``sinif``), so a reader on a keyboard without ğ, ı, ş, ç, ö, ü types
  the same term as the text holds. A Turkish suffix after an apostrophe (``Promise'ler``) is
  dropped with it.
- **Segmentation** (``words``): runs of letters, digits and ``_``; runs of Chinese, Japanese
  and Korean characters (written without spaces) apart from the rest.
- **Stemming** (``stem``): English by Snowball's English (Porter2) stemmer (the maintained
  ``snowballstemmer`` package here, which runs PyStemmer's C build of the same algorithms,
  a dependency, faster than its pure-Python one; the same algorithm generated as JavaScript
  in ``assets/snowball-english.js``); Turkish by the suffix rules below; other languages as
  they are. Snowball's Turkish stemmer was tried and not used: it needs the Turkish letters to
  check vowel harmony, so ASCII-typed words are left whole (``siniflar`` stays, while
  ``sınıflar`` → ``sınıf``), and it strips bare words that end like a suffix while keeping the
  inflected forms (``sayı`` → ``sa`` but ``sayılar`` → ``sayı``; ``olayı`` → ``ola`` but
  ``olay`` → ``olay``), so a word and its inflections do not meet.
- **CJK** (``terms``): each character alone and each pair of neighbours, so a single character
  (``类``) finds every text holding it and a word whose characters are apart in the text
  (``变量提升`` / ``变量被提升``) still finds it by its characters.
"""

from __future__ import annotations

import functools
import operator
import re
import threading
import unicodedata
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
"""Scripts written without spaces between words (kana, CJK ideographs, Hangul)."""
_PIECES = re.compile(f"[{CJK}]+|[^\\W{CJK}]+")
_CJK_RUN = re.compile(f"[{CJK}]+")
_APOSTROPHE_SUFFIX = re.compile(r"['’][^\W\d_]+")
_TURKIC = ("tr", "az")
_TO_ASCII = str.maketrans("çğıöşüâîû", "cgiosuaiu")

SNOWBALL = {"en": "english"}
"""Locales (by language) stemmed by a Snowball algorithm (``assets/snowball-<name>.js``)."""

TURKISH_SUFFIXES = (
    # Written once here, applied to the ASCII-folded word; search.js reads them from the
    # manifest. "-x": only after a consonant; "+x": only after a vowel (buffer letters).
    *("lar", "ler"),  # plural
    *("-im", "-um", "-imiz", "-umuz", "-iniz", "-unuz", "+si", "+su"),  # possessive
    *("-in", "-un", "+nin", "+nun"),  # genitive
    *("-i", "-u", "+yi", "+yu"),  # accusative
    *("-a", "-e", "+ya", "+ye"),  # dative
    *("da", "de", "ta", "te", "+nda", "+nde"),  # locative
    *("dan", "den", "tan", "ten", "+ndan", "+nden"),  # ablative
    *("ki",),  # relative (-daki, -deki)
    *("la", "le", "+yla", "+yle"),  # instrumental
    *("dir", "dur", "tir", "tur"),  # copula
    *("mak", "mek"),  # infinitive
)
TURKISH_RULES: dict[str, Any] = {
    "suffixes": list(TURKISH_SUFFIXES),
    "min": 3,  # letters a stem keeps at least
    # ... and before a suffix that needs a vowel ("+"), whose first letter could end the stem
    # as well: olayı is olay + ı, not ola + yı (ola would meet olan, olarak).
    "after_vowel": 4,
    "rounds": 6,  # suffixes stripped at most, one after another
    "final": {"b": "p", "d": "t", "g": "k"},  # kitabı/kitap, kodu/kod, örneği/örnek
}
_VOWELS = frozenset("aeiou")


@functools.lru_cache(maxsize=64)
def is_turkic(locale: str) -> bool:
    """Whether ``locale`` follows Turkish case rules (Turkish, Azerbaijani)."""
    return locale.lower().startswith(_TURKIC)


def fold(text: str, locale: str) -> str:
    """``text`` as terms are compared: NFC, lower case (Turkish case rules and then ASCII for
    Turkish and Azerbaijani)."""
    text = unicodedata.normalize("NFC", text)
    if is_turkic(locale):
        return text.replace("I", "ı").replace("İ", "i").lower().translate(_TO_ASCII)
    return text.lower()


def words(text: str, locale: str) -> list[str]:
    """The folded pieces of ``text``: runs of letters, digits and ``_``, CJK runs apart (a
    Turkish apostrophe suffix dropped first)."""
    if is_turkic(locale):
        text = _APOSTROPHE_SUFFIX.sub("", text)
    return _PIECES.findall(fold(text, locale))


def is_cjk(term: str) -> bool:
    """Whether a term is made of CJK characters (a character or a pair)."""
    return _CJK_RUN.fullmatch(term) is not None


def _strip_turkish(word: str) -> str:
    """A Turkish word (ASCII-folded) without its suffixes, by ``TURKISH_RULES``: the longest
    suffix that leaves at least ``min`` letters with a vowel (``after_vowel`` before a "+"
    suffix) goes, up to ``rounds`` times; a
    final b, d or g becomes p, t or k (consonant softening). (search.js tries each suffix
    in turn; here each length the word's ending could have, longest first: the same.)"""
    rules = TURKISH_RULES
    for _ in range(rules["rounds"]):
        for size in range(min(_LONGEST_SUFFIX, len(word) - rules["min"]), 0, -1):
            kind = _SUFFIX_KIND.get(word[-size:])
            if kind is None:
                continue
            stem = word[:-size]
            if not _VOWELS.intersection(stem):
                continue
            if kind == "+" and (stem[-1] not in _VOWELS or len(stem) < rules["after_vowel"]):
                continue
            if kind == "-" and stem[-1] in _VOWELS:
                continue
            word = stem
            break
        else:
            break
    last = word[-1:]
    final: dict[str, str] = rules["final"]
    if len(word) > rules["min"] and last in final:
        return word[:-1] + final[last]
    return word


_SUFFIX_KIND = {rule.lstrip("+-"): rule[0] for rule in TURKISH_SUFFIXES}
"""Each Turkish suffix and what it follows ("+": a vowel, "-": a consonant, else either)."""
_LONGEST_SUFFIX = max(map(len, _SUFFIX_KIND))


def _snowball(name: str) -> Any:
    """The Snowball stemmer ``name``, made once per thread: snowballstemmer hands out
    PyStemmer's C stemmers (a dependency), whose instances must not be used by two threads
    at once (a serve process indexes in the background)."""
    made: dict[str, Any] = _THREAD.__dict__.setdefault("stemmers", {})
    if name not in made:
        made[name] = snowballstemmer.stemmer(name)
    return made[name]


_THREAD = threading.local()


@functools.lru_cache(maxsize=1 << 18)
def stem(word: str, locale: str) -> str:
    """The stem of a folded non-CJK word (the same at index and query time)."""
    if is_turkic(locale):
        return _strip_turkish(word)
    name = SNOWBALL.get(locale.lower().split("-")[0].split("_")[0])
    if name is None:
        return word
    return str(_snowball(name).stemWord(word))


def stemmer_spec(locale: str) -> dict[str, Any] | None:
    """How ``locale`` stems, for the index manifest: ``{"snowball": name}`` (search.js loads
    ``assets/snowball-<name>.js``), ``{"suffixes": ...}`` (the Turkish rules) or None."""
    if is_turkic(locale):
        return TURKISH_RULES
    name = SNOWBALL.get(locale.lower().split("-")[0].split("_")[0])
    return {"snowball": name} if name else None


def terms(text: str, locale: str) -> list[str]:
    """The index terms of ``text``, in order, repeats kept: each word's stem; for a CJK run,
    each character and each pair of neighbours."""
    stems = _STEMS.setdefault(locale, {})
    pieces = words(text, locale)
    try:  # most texts hold only words seen before
        return [stems[piece] for piece in pieces]
    except KeyError:
        pass
    if len(stems) > _STEMS_KEPT:
        stems.clear()
    found: list[str] = []
    for piece in pieces:
        if piece in stems:
            found.append(stems[piece])
        elif _CJK_RUN.match(piece):
            found += piece
            found += map(operator.add, piece, piece[1:])  # the pairs, made in C
        else:
            found.append(stems.setdefault(piece, stem(piece, locale)))
    return found


_STEMS: dict[str, dict[str, str]] = {}
"""Per locale, the stem of each word seen (a bank repeats its words: an index of 30,000
questions stems tens of millions of words, a few hundred thousand of them distinct)."""
_STEMS_KEPT = 1 << 19
