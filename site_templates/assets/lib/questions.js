/* The practice data (qbank.site.practice), the one reader of it for practice.js, review.js
 * and flashcards.js: per locale, field and seniority a list of the questions
 * (<locale>/api/practice/<field>/<seniority>.json: ids, topics, the topic page (part) of
 * each), their texts those of the topic pages. A list gives stubs {id, topic, field, level,
 * file} (file: the URL of the question's page); `texts` fetches the pages of the stubs asked
 * for, each once per document (lib/site.js's `text`), and reads each question's wrapper
 * there (DESIGN.md "The HTML of one question") as an item {id, kind, topic, difficulty,
 * seniority, prompt, options, answer, explanation, assesses, model_answer, hint, url}: the
 * same HTML the page shows, never run here (lib/dom.js's `fragment` adopts it). */
import { json, root, text } from "./site.js";

function url(path) {
  return new URL(path, root).href;
}

/** The stubs of `field`'s questions at `level` in `locale`, in display order. */
export function listed(locale, field, level) {
  const where = `${locale}/api/practice/${encodeURIComponent(field)}/${encodeURIComponent(level)}.json`;
  return json(url(where)).then((data) => {
    const topics = data.topics || [];
    const pages = (data.pages || []).map((folder) => url(`${locale}/${encodeURIComponent(field)}/${folder}/`));
    return (data.questions || []).map(([id, topic, page]) => ({
      id, topic: topics[topic], field, level, file: pages[page],
    }));
  });
}

/** The stubs of every `fields` × `levels` list of `locale`, each id once (its first list);
 * with `lenient` a list that cannot be read counts as empty instead of failing. */
export function listedAll(locale, fields, levels, lenient = false) {
  const lists = fields.flatMap((f) => levels.map((l) => {
    const found = listed(locale, f, l);
    return lenient ? found.catch(() => []) : found;
  }));
  return Promise.all(lists).then((all) => {
    const seen = new Set();
    return all.flat().filter((stub) => !seen.has(stub.id) && seen.add(stub.id));
  });
}

const read = new Map(); // page URL → Promise of its questions' items by id

/** The questions (items) of `stubs`, in their order, from their pages; a question its page
 * lacks is left out. */
export function texts(stubs) {
  const pages = [...new Set(stubs.map((stub) => stub.file))];
  return Promise.all(pages.map(itemsOf)).then((found) => {
    const byId = new Map();
    for (const items of found) for (const [id, item] of items) byId.set(id, item);
    return stubs.map((stub) => byId.get(stub.id)).filter(Boolean);
  });
}

function itemsOf(page) {
  if (!read.has(page)) {
    const items = text(page).then((html) => parsed(html, page));
    items.catch(() => read.delete(page));
    read.set(page, items);
  }
  return read.get(page);
}

/** The items of every question wrapper of a page's `html` (fetched from `page`). */
function parsed(html, page) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const path = page.startsWith(root.href) ? page.slice(root.href.length) : page;
  const items = new Map();
  for (const q of doc.querySelectorAll(".qb-q[data-qid]")) {
    const id = q.dataset.qid;
    for (const node of q.querySelectorAll("[src], [href]")) {
      for (const name of ["src", "href"]) {
        const value = node.getAttribute(name);
        if (value != null && !value.startsWith("#")) node.setAttribute(name, new URL(value, page).href);
      }
    }
    const inner = (selector) => {
      const node = q.querySelector(selector);
      return node ? node.innerHTML.trim() : null;
    };
    const choice = q.dataset.kind === "choice";
    const item = {
      id,
      kind: choice ? "choice" : "open",
      topic: q.dataset.topic,
      difficulty: Number(q.dataset.difficulty) || null,
      seniority: (q.dataset.level || "").split(" ").filter(Boolean),
      prompt: prompt(doc, q, id),
      options: [...q.querySelectorAll(".qb-options > .qb-option")].map((li) => ({
        key: li.dataset.key, html: (li.querySelector(".qb-option-text") || li).innerHTML.trim(),
      })),
      answer: choice ? (q.dataset.answer || "").split(" ").filter(Boolean) : [],
      explanation: inner(".qb-explanation"),
      assesses: assesses(q),
      model_answer: inner(".qb-model-answer"),
      url: `${path}#q-${id}`,
    };
    const hint = inner(".qb-hint-text");
    if (hint) item.hint = hint;
    items.set(id, item);
  }
  return items;
}

/** A question's prompt: its wrapper's, where the heading holds its first paragraph (no
 * prompt box, or one marked qb-rest) that paragraph first, from the heading without its
 * number and permalink sign. */
function prompt(doc, q, id) {
  const box = q.querySelector(".qb-prompt");
  if (box && !box.classList.contains("qb-rest")) return box.innerHTML.trim();
  const heading = doc.getElementById(`h-${id}`);
  let first = "";
  if (heading) {
    const title = heading.cloneNode(true);
    for (const sign of title.querySelectorAll(".headerlink")) sign.remove();
    first = `<p>${title.innerHTML.trim().replace(/^\d+\.\s*/, "")}</p>`;
  }
  return box ? `${first}\n${box.innerHTML.trim()}` : first;
}

/** What an open question assesses: its details box without the summary. */
function assesses(q) {
  const box = q.querySelector("details.qb-assesses");
  if (!box) return null;
  const copy = box.cloneNode(true);
  copy.querySelector("summary")?.remove();
  return copy.innerHTML.trim() || null;
}
