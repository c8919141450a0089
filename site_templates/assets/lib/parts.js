/* The other parts of a numbered page (a big topic or seniority cut into pages, qbank's
 * site/parts.py): their questions as the pages themselves list them, fetched only when a
 * reader needs them (a filter over the whole topic, a link to a question on another part),
 * once per document, so the site carries no list of its own for them. Offline, a part that
 * was never kept is simply missing from the answer. */

const pages = new Map(); // URL (no query, no fragment) → Promise of its questions, or null

/** The pager's links to the other parts of this page: [{ link, number, url }]. */
export function partLinks() {
  const found = [];
  document.querySelectorAll(".qb-pages-top a[href]").forEach(link => {
    if (link.rel === "prev" || link.rel === "next") return;
    const number = parseInt(link.textContent, 10);
    if (!number) return;
    found.push({ link, number, url: link.href.split("#")[0].split("?")[0] });
  });
  return found;
}

/** The questions of the page at `url`: [{ id, levels, difficulty }], or null when it could
 * not be fetched (offline and not kept). */
function questionsAt(url) {
  if (!pages.has(url)) {
    const loading = fetch(url).then(r => (r.ok ? r.text() : Promise.reject(r.status)))
      .then(html => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        return Array.prototype.map.call(doc.querySelectorAll(".qb-q[data-qid]"), q => ({
          id: q.getAttribute("data-qid"),
          levels: (q.getAttribute("data-level") || "").split(/\s+/).filter(Boolean),
          difficulty: q.getAttribute("data-difficulty") || "",
        }));
      })
      .catch(() => {
        pages.delete(url); // tried again next time (back online)
        return null;
      });
    pages.set(url, loading);
  }
  return pages.get(url);
}

/** Every other part of this page with its questions: [{ link, number, url, questions }]
 * (questions null where the part could not be fetched). */
export function otherParts() {
  if (!window.fetch || !window.DOMParser) return Promise.resolve([]);
  const links = partLinks();
  return Promise.all(links.map(part => questionsAt(part.url)))
    .then(lists => links.map((part, i) => Object.assign({ questions: lists[i] }, part)));
}
