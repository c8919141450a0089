"""The bank as Moodle XML for one locale, ready for Moodle's question bank import.

One category per field and topic (``$course$/top/<Field>/<Topic>``, names in the locale;
a ``/`` inside a name is doubled, as Moodle expects). A choice question becomes
``multichoice``: one right answer → ``single``, several → check boxes whose right answers'
fractions sum to 100 and whose wrong answers take it back, so ticking everything scores 0.
The explanation is the general feedback, and each answer says whether it was right. An open
question becomes ``essay`` with the model answer (and what it assesses) as grader
information. Texts are the site's safe HTML in CDATA; the question's id is its ``idnumber``.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree  # type: ignore[import-untyped]

from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import plain_text, to_html
from qbank.site.strings import strings_for

# Moodle accepts only these fractions (percent, five decimals) for an answer.
_FRACTIONS = {
    1: "100",
    2: "50",
    3: "33.33333",
    4: "25",
    5: "20",
    6: "16.66667",
    7: "14.28571",
    8: "12.5",
}


def fraction(count: int) -> str:
    """The fraction of one of ``count`` equally weighted answers, as Moodle writes it."""
    return _FRACTIONS[count]


def category_path(*names: str) -> str:
    """A Moodle category path; a ``/`` inside a name is escaped as ``//``."""
    return "/".join(["$course$", "top", *(n.replace("/", "//") for n in names)])


def _cdata(text: str) -> etree.CDATA:
    # "]]>" would end the CDATA section; in HTML text "]]&gt;" reads the same.
    return etree.CDATA(text.replace("]]>", "]]&gt;"))


def _text_element(parent: etree._Element, tag: str, html: str, fmt: str = "html") -> None:
    node = etree.SubElement(parent, tag, format=fmt)
    etree.SubElement(node, "text").text = _cdata(html)


def _html(texts: dict[str, str] | None, locale: str) -> str:
    return to_html(texts[locale]) if texts and locale in texts else ""


def _question(bank: Bank, entry: Entry, locale: str) -> etree._Element:
    q = entry.question
    kind = "multichoice" if q.is_choice else "essay"
    node = etree.Element("question", type=kind)
    name = etree.SubElement(node, "name")
    etree.SubElement(name, "text").text = plain_text(q.prompt[locale], 80)
    _text_element(node, "questiontext", _html(q.prompt, locale))
    etree.SubElement(node, "defaultgrade").text = "1"
    etree.SubElement(node, "hidden").text = "0"
    etree.SubElement(node, "idnumber").text = q.id
    if q.hint and locale in q.hint:  # Moodle shows it on request (interactive behaviour)
        _text_element(node, "hint", _html(q.hint, locale))
    tags = etree.SubElement(node, "tags")
    for tag in (*q.tags, *entry.seniorities):
        etree.SubElement(etree.SubElement(tags, "tag"), "text").text = tag
    if q.options is not None:
        right = list(q.answer or [])
        wrong = [k for k in q.options if k not in right]
        _text_element(node, "generalfeedback", _html(q.explanation, locale))
        etree.SubElement(node, "penalty").text = "0.3333333"
        etree.SubElement(node, "single").text = "false" if q.is_multi else "true"
        etree.SubElement(node, "shuffleanswers").text = "true"
        etree.SubElement(node, "answernumbering").text = "abc"
        t = strings_for(locale)
        ok, not_ok = t["option_right"], t["option_wrong"]
        for key, texts in q.options.items():
            if key in right:
                value = fraction(len(right))
            elif q.is_multi:
                value = "-" + fraction(len(wrong))
            else:
                value = "0"
            answer = etree.SubElement(node, "answer", fraction=value, format="html")
            etree.SubElement(answer, "text").text = _cdata(_html(texts, locale))
            _text_element(answer, "feedback", f"<p>{ok if key in right else not_ok}</p>")
    else:
        _text_element(node, "generalfeedback", "")
        etree.SubElement(node, "penalty").text = "0"
        etree.SubElement(node, "responseformat").text = "editor"
        etree.SubElement(node, "responserequired").text = "1"
        etree.SubElement(node, "responsefieldlines").text = "15"
        etree.SubElement(node, "attachments").text = "0"
        t = strings_for(locale)
        info = ""
        if q.assesses and locale in q.assesses:
            info += f"<h4>{t['what_it_assesses']}</h4>{_html(q.assesses, locale)}"
        info += f"<h4>{t['model_answer']}</h4>"
        info += _html(q.model_answer, locale) or f"<p>{t['no_model_answer']}</p>"
        _text_element(node, "graderinfo", info)
        _text_element(node, "responsetemplate", "")
    return node


def moodle_xml(bank: Bank, locale: str) -> bytes:
    """The Moodle XML document of ``locale`` (questions not in that locale are left out)."""
    quiz = etree.Element("quiz")
    for field_key, field_ in bank.catalog.fields.items():
        for spec in field_.specializations.values():
            for topic_key, topic in spec.topics.items():
                entries = [e for e in bank.by_topic[field_key, topic_key] if locale in e.locales]
                if not entries:
                    continue
                category = etree.SubElement(quiz, "question", type="category")
                path = category_path(bank.name(field_.name, locale), bank.name(topic.name, locale))
                etree.SubElement(etree.SubElement(category, "category"), "text").text = path
                for entry in entries:
                    quiz.append(_question(bank, entry, locale))
    data: bytes = etree.tostring(quiz, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return data


def write_moodle(bank: Bank, locale: str, out: Path) -> None:
    """Write ``moodle_xml(bank, locale)`` to ``out``."""
    out.write_bytes(moodle_xml(bank, locale))
