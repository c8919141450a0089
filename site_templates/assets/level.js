/* A seniority page's index of its level's questions (seniority.md.j2), mounted by qbank.js
 * for `.qb-level-list`: each listed question (a link to its anchor on its topic page) gets
 * the reader's standing on it, from the stored answers and reviews (lib/mastery.js, the
 * same mark and words as on the question itself), and each topic's heading how many of its
 * listed questions the reader has answered. Without JavaScript the page is plain links. */
import { h } from "./lib/dom.js";
import { standing } from "./lib/mastery.js";
import { PROGRESS, REVIEW } from "./lib/shapes.js";
import { load } from "./lib/storage.js";
import { fill, t } from "./lib/text.js";
import { MARKS } from "./widget.js";

/** The question id a list item links to ("…/#q-<id>"). */
function idOf(item) {
  const link = item.querySelector("a[href*='#q-']");
  return link ? decodeURIComponent(link.hash.slice(3)) : "";
}

function mark(item, found) {
  let badge = item.querySelector(".qb-status");
  if (!found) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = h("span", { class: "qb-status" });
    item.append(" ", badge);
  }
  badge.textContent = MARKS[found.state] + t("status")[found.word];
  badge.setAttribute("data-state", found.state);
}

function count(list, done, total) {
  const heading = list.previousElementSibling;
  if (!heading || !/^H[2-6]$/.test(heading.tagName)) return;
  let note = heading.querySelector(".qb-level-count");
  if (!done) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = h("span", { class: "qb-level-count" });
    const sign = heading.querySelector(".headerlink"); // (the toc's permalink stays last)
    if (sign) sign.before(note, " ");
    else heading.append(" ", note);
  }
  note.textContent = fill(t("levelAnswered"), { n: done, total });
}

/* A link to a question on this page (#q-<id>: an old link from when seniority pages showed
 * the questions themselves) goes on to the question's own page. Not #h-<id>: Material's
 * navigation.tracking writes a heading's anchor of the page just left into the address of
 * the page shown when the reader goes back soon after a scroll (an h- heading of a topic
 * page), which must not send them back there. */
function forward() {
  const found = /^#q-([0-9a-f-]{36})$/.exec(location.hash);
  const link = found && document.querySelector(`.qb-level-list a[href$="#q-${found[1]}"]`);
  if (link) location.replace(link.href);
}

/** Marks every listed question with the reader's standing on it. */
export function mount() {
  forward();
  const progress = load(PROGRESS);
  const reviews = load(REVIEW);
  for (const list of document.querySelectorAll(".qb-level-list")) {
    let done = 0;
    const items = list.querySelectorAll(":scope > li");
    for (const item of items) {
      const id = idOf(item);
      const found = id ? standing(progress[id], reviews[id]) : null;
      item.classList.toggle("qb-done", !!found);
      mark(item, found);
      if (found) done++;
    }
    count(list, done, items.length);
  }
}

/* A page the browser brings back from its history cache as it was: the answers given since
 * on other pages are marked now. */
window.addEventListener("pageshow", (event) => {
  if (event.persisted) mount();
});
