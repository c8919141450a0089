/* qbank bookmarks and notes: the part of the pages that show questions (topic pages) and of
 * the saved page (<locale>/saved/), mounted by qbank.js there, never elsewhere.
 *
 * On a question page every question gets a "Save" toggle (a star) and a private note; both are
 * kept in this browser under "qbank:v1:saved" (lib/storage.js) as
 * {"v": 1, "items": {<question id>: {star, note, url, title, topic, locale, t}}}: url is the
 * question's anchor relative to the site root, title its heading as the page showed it
 * (without its number), topic the page's title, locale the page's, t the time of the last
 * change (ms). A question neither starred nor noted is dropped. The saved page lists the
 * items, newest first, with links; on the saved page of another locale an item links to the
 * question in that locale, with its heading and topic there (read from that locale's topic
 * page, fetched once per document), and says which language it is in when that locale does
 * not have it. No stored or fetched text goes through innerHTML.
 */
import { h } from "./lib/dom.js";
import { SAVED } from "./lib/shapes.js";
import { root } from "./lib/site.js";
import { load, saved, update } from "./lib/storage.js";
import { fill, t } from "./lib/text.js";

/** Changes question `id`'s item; whether the change was stored. */
function change(id, values) {
  update(SAVED, (data) => {
    const item = { ...(data.items[id] || {}), ...values, t: Date.now() };
    if (item.star || (item.note && item.note.trim())) data.items[id] = item;
    else delete data.items[id];
    return data;
  });
  return saved(SAVED);
}


// -- a question page: a star and a note on every question --------------------------------
const squash = (text) => text.replace(/\s+/g, " ").trim();
/** A heading's text as a title: without its permalink sign and its number. */
const titleOf = (heading) => squash(heading.textContent.replace(/¶\s*$/, "")).replace(/^\d+\.\s*/, "");

function where(question) {
  const permalink = question.querySelector(".qb-permalink");
  const href = permalink ? permalink.href : `${location.href.split("#")[0]}#${question.id}`;
  const url = href.startsWith(root.href) ? href.slice(root.href.length) : href;
  // The title: the question's heading (its first line, told apart from the topic's other
  // questions), else the start of its prompt.
  const heading = document.getElementById(`h-${question.dataset.qid}`);
  const prompt = question.querySelector(".qb-prompt");
  const title = (heading && titleOf(heading)) || squash(prompt ? prompt.textContent : "").slice(0, 120);
  // The topic: the page's title.
  const h1 = document.querySelector("article h1, h1");
  const topic = h1 ? h1.textContent.replace(/¶$/, "").trim() : "";
  return { url, title, topic, locale: url.split("/")[0] };
}

function decorate(question) {
  const id = question.dataset.qid;
  const item = load(SAVED).items[id] || {};
  const tools = h("div", { class: "qb-saved-tools" });
  const star = h("button", { type: "button", class: "qb-star", "aria-pressed": "false" });
  const show = (on) => {
    star.setAttribute("aria-pressed", on ? "true" : "false");
    star.textContent = `${on ? "★" : "☆"} ${t(on ? "savedStarred" : "savedStar")}`;
  };
  show(Boolean(item.star));
  star.addEventListener("click", () => {
    const on = star.getAttribute("aria-pressed") !== "true";
    if (change(id, { star: on, ...where(question) })) show(on);
  });
  const note = h("details", { class: "qb-note" });
  note.append(h("summary", {}, t("savedNote")));
  // Its box is made when first opened: a text box per question had Chromium lay out every
  // question content-visibility skips, in one long task at the load event.
  const write = () => {
    const area = h("textarea", { class: "qb-note__text", rows: "3", "aria-label": t("savedNoteLabel") });
    area.placeholder = t("savedNoteLabel");
    area.value = (load(SAVED).items[id] || {}).note || "";
    let timer = 0;
    const keep = () => {
      clearTimeout(timer);
      change(id, { note: area.value, ...where(question) });
    };
    area.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(keep, 300);
    });
    area.addEventListener("change", keep);
    note.append(area);
  };
  note.addEventListener("toggle", () => {
    if (note.open && !note.querySelector(".qb-note__text")) write();
  });
  if (item.note) {
    write();
    note.open = true;
  }
  tools.append(star, note);
  const links = question.querySelector(":scope > .qb-links");
  if (links) links.after(tools);
  else question.append(tools);
}

// -- the saved page ---------------------------------------------------------------------
const pages = new Map(); // URL → Promise of its parsed page (null when it cannot be had)
function page(url) {
  if (!pages.has(url)) {
    pages.set(url, fetch(url)
      .then((response) => (response.ok ? response.text() : ""))
      .then((text) => (text ? new DOMParser().parseFromString(text, "text/html") : null))
      .catch(() => null));
  }
  return pages.get(url);
}

/** Question `id` on its topic's pages in `locale` ({url, title, topic}), or null when that
 * locale does not have it: its topic's first page, then the other parts its pager lists. */
async function inLocale(id, item, locale) {
  const path = (item.url || "").split("#")[0].split("/");
  if (path.length < 3) return null;
  const first = new URL(`${locale}/${path[1]}/${path[2].split("--")[0]}/`, root).href;
  const start = await page(first);
  if (!start) return null;
  let found = start.getElementById(`q-${id}`) ? [first, start] : null;
  const parts = found ? [] : [...start.querySelectorAll(".qb-pages-top a[href]")]
    .map((a) => new URL(a.getAttribute("href"), first).href.split("#")[0])
    .filter((url, n, all) => url !== first && all.indexOf(url) === n);
  for (const url of parts) {
    const other = await page(url);
    if (other && other.getElementById(`q-${id}`)) {
      found = [url, other];
      break;
    }
  }
  if (!found) return null;
  const [url, doc] = found;
  const heading = doc.getElementById(`h-${id}`);
  const h1 = doc.querySelector("article h1");
  return { url: `${url}#q-${id}`, title: heading ? titleOf(heading) : "",
    topic: h1 ? squash(h1.textContent.replace(/¶\s*$/, "")) : "" };
}

/** The name of a locale as the language switcher writes it ("English"), else its code. */
function language(locale) {
  const link = document.querySelector(`.md-select__link[hreflang="${CSS.escape(locale)}"]`);
  return link ? link.textContent.trim() : locale;
}

/** An item saved in another locale, shown in this one: its question there, or a word that
 * this locale does not have it (the link then goes to the locale it was saved in). */
function follow(id, item, here, link, topic) {
  inLocale(id, item, here).then((there) => {
    if (there) {
      link.href = new URL(there.url, root).href;
      if (there.title) link.textContent = there.title;
      if (there.topic && topic) topic.textContent = `· ${there.topic}`;
      return;
    }
    const saved = item.locale || (item.url || "").split("/")[0];
    link.setAttribute("hreflang", saved);
    link.setAttribute("lang", saved);
    link.after(" ", h("span", { class: "qb-saved__elsewhere" }, fill(t("savedElsewhere"), { language: language(saved) })));
  });
}

function list(box) {
  box.replaceChildren();
  const items = Object.entries(load(SAVED).items).sort((a, b) => (b[1].t || 0) - (a[1].t || 0));
  if (!items.length) {
    box.append(h("p", { class: "qb-saved__empty" }, t("savedEmpty")));
    return;
  }
  const here = box.dataset.locale || "";
  const ol = h("ol", { class: "qb-saved__list" });
  for (const [id, item] of items) {
    const li = h("li", { class: "qb-saved__item", "data-qid": id });
    if (item.star) li.append(h("span", { class: "qb-saved__star", "aria-hidden": "true" }, "★ "));
    const link = h("a", { class: "qb-saved__link" }, item.title || id);
    link.href = new URL(item.url || "", root).href;
    li.append(link);
    const topic = item.topic ? h("span", { class: "qb-saved__topic" }, `· ${item.topic}`) : null;
    if (topic) li.append(" ", topic);
    const saved = item.locale || (item.url || "").split("/")[0];
    if (here && saved && saved !== here) follow(id, item, here, link, topic);
    if (item.note) li.append(h("p", { class: "qb-saved__note" }, item.note));
    const remove = h("button", { type: "button", class: "qb-saved__remove" }, t("savedRemove"));
    remove.addEventListener("click", () => {
      change(id, { star: false, note: "" });
      list(box);
    });
    li.append(remove);
    ol.append(li);
  }
  box.append(ol);
}

/** The page's part: a star and a note on each of its questions, or the saved page's list. */
export function mount() {
  for (const question of document.querySelectorAll(".qb-q[data-qid]")) {
    if (!question.querySelector(":scope > .qb-saved-tools")) decorate(question);
  }
  for (const box of document.querySelectorAll(".qb-saved")) list(box);
}
