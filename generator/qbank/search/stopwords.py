"""Stop words per language, as terms of the search tokenizer.

The lists are the stopwords-iso collection (the ``stopwordsiso`` package, pinned in
constraints.txt), each word cut by ``qbank.search.tokenize.terms`` so that it meets what a
text is cut into: a stem ("will", "have"), a Turkish stem ("için" → "icin"), a Chinese pair
("一个"). A locale the collection lacks has none.
"""

from __future__ import annotations

import functools

from qbank.search.tokenize import is_cjk, terms


@functools.cache
def stop_terms(locale: str) -> frozenset[str]:
    """The terms of ``locale``'s stop words (its language: ``zh-Hans`` reads ``zh``)."""
    import stopwordsiso  # (read on the first match data only)

    language = locale.lower().replace("_", "-").split("-")[0]
    if not stopwordsiso.has_lang(language):
        return frozenset()
    found: set[str] = set()
    for word in stopwordsiso.stopwords(language):
        cut = terms(word, locale)
        if is_cjk(word) and len(word) > 1:  # "一个" is a stop word, not 一 or 个 alone
            cut = [term for term in cut if len(term) > 1]
        found.update(cut)
    return frozenset(found)
