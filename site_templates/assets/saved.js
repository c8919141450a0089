/* qbank bookmarks and notes: the part of the pages that show questions (topic and seniority
 * pages) and of the saved page (<locale>/saved/), mounted by qbank.js there, never elsewhere.
 *
 * On a question page every question gets a "Save" toggle (a star) and a private note; both are
 * kept in this browser under "qbank:v1:saved" (lib/storage.js) as
 * {"v": 1, "items": {<question id>: {star, note, url, title, topic, t}}}: url is the question's
 * anchor relative to the site root, title and topic as the page showed them, t the time of the
 * last change (ms). A question neither starred nor noted is dropped. The saved page lists the
 * items, newest first, with links. No stored text goes through innerHTML.
 */
import { h } from "./lib/dom.js";
import { SAVED } from "./lib/shapes.js";
import { root } from "./lib/site.js";
import { load, saved, update } from "./lib/storage.js";
import { t } from "./lib/text.js";

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
function where(question) {
  const permalink = question.querySelector(".qb-permalink");
  const href = permalink ? permalink.href : `${location.href.split("#")[0]}#${question.id}`;
  const url = href.startsWith(root.href) ? href.slice(root.href.length) : href;
  // The title: the heading's text without its number (it may hold the prompt's first
  // paragraph, which the prompt below then leaves out), and the prompt.
  const squash = (text) => text.replace(/\s+/g, " ").trim();
  const prompt = question.querySelector(".qb-prompt");
  const body = squash(prompt ? prompt.textContent : "");
  const heading = document.getElementById(`h-${question.dataset.qid}`);
  const head = heading ? squash(heading.textContent.replace(/¶\s*$/, "")).replace(/^\d+\.\s*/, "") : "";
  const title = (head && !body.startsWith(head) ? `${head} ${body}` : body || head).trim().slice(0, 160);
  // The topic: the seniority page's group heading above a copy, else the page's title.
  let topic = "";
  if (question.classList.contains("qb-copy")) {
    for (let node = question.previousElementSibling; node; node = node.previousElementSibling) {
      if (node.tagName === "H2") {
        topic = node.textContent.replace(/¶$/, "").trim();
        break;
      }
    }
  }
  if (!topic) {
    const heading = document.querySelector("article h1, h1");
    topic = heading ? heading.textContent.replace(/¶$/, "").trim() : "";
  }
  return { url, title, topic };
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
function list(box) {
  box.replaceChildren();
  const items = Object.entries(load(SAVED).items).sort((a, b) => (b[1].t || 0) - (a[1].t || 0));
  if (!items.length) {
    box.append(h("p", { class: "qb-saved__empty" }, t("savedEmpty")));
    return;
  }
  const ol = h("ol", { class: "qb-saved__list" });
  for (const [id, item] of items) {
    const li = h("li", { class: "qb-saved__item", "data-qid": id });
    if (item.star) li.append(h("span", { class: "qb-saved__star", "aria-hidden": "true" }, "★ "));
    const link = h("a", { class: "qb-saved__link" }, item.title || id);
    link.href = new URL(item.url || "", root).href;
    li.append(link);
    if (item.topic) li.append(" ", h("span", { class: "qb-saved__topic" }, `· ${item.topic}`));
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
