/* qbank bookmarks and notes: loaded by the pages that show questions (topic and seniority
 * pages) and by the saved page (<locale>/saved/), never globally.
 *
 * On a question page every question gets a "Save" toggle (a star) and a private note; both are
 * kept in this browser under localStorage "qbank:v1:saved" as
 * {"v": 1, "items": {<question id>: {star, note, url, title, topic, t}}}: url is the question's
 * anchor relative to the site root, title and topic as the page showed them, t the time of the
 * last change (ms). A question neither starred nor noted is dropped. The saved page lists the
 * items, newest first, with links. Stored data that cannot be read is kept aside under
 * "qbank:v1:saved:unreadable" before anything new is written, never lost. No stored text goes
 * through innerHTML. Material's instant navigation runs this script again on each page that
 * loads it; the work is done once per page.
 */
(() => {
  "use strict";

  const KEY = "qbank:v1:saved";
  const script = document.currentScript;
  const root = new URL("../", script ? script.src : location.href);

  function text(key) {
    const node = document.getElementById("qbank-strings");
    let table = {};
    try {
      table = node ? JSON.parse(node.textContent) || {} : {};
    } catch (error) {
      table = {};
    }
    return table[key] || key;
  }

  function read() {
    let raw = null;
    try {
      raw = localStorage.getItem(KEY);
      const data = raw ? JSON.parse(raw) : null;
      if (!raw || (data && data.v === 1 && data.items && typeof data.items === "object")) {
        return data || { v: 1, items: {} };
      }
    } catch (error) {
      // fall through: unreadable
    }
    try {
      if (raw !== null) localStorage.setItem(`${KEY}:unreadable`, raw);
    } catch (error) {
      // storage full or off: nothing more to do
    }
    return { v: 1, items: {} };
  }

  function update(id, change) {
    const data = read();
    const item = { ...(data.items[id] || {}), ...change, t: Date.now() };
    if (item.star || (item.note && item.note.trim())) data.items[id] = item;
    else delete data.items[id];
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
    } catch (error) {
      return false;
    }
    return true;
  }

  function element(tag, attributes, content) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    if (content !== undefined) node.textContent = content;
    return node;
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
    const saved = read().items[id] || {};
    const tools = element("div", { class: "qb-saved-tools" });
    const star = element("button", { type: "button", class: "qb-star", "aria-pressed": "false" });
    const show = (on) => {
      star.setAttribute("aria-pressed", on ? "true" : "false");
      star.textContent = `${on ? "★" : "☆"} ${text(on ? "savedStarred" : "savedStar")}`;
    };
    show(Boolean(saved.star));
    star.addEventListener("click", () => {
      const on = star.getAttribute("aria-pressed") !== "true";
      if (update(id, { star: on, ...where(question) })) show(on);
    });
    const note = element("details", { class: "qb-note" });
    note.append(element("summary", {}, text("savedNote")));
    // Its box is made when first opened: a text box per question had Chromium lay out every
    // question content-visibility skips, in one long task at the load event.
    const write = () => {
      const area = element("textarea", { class: "qb-note__text", rows: "3", "aria-label": text("savedNoteLabel") });
      area.placeholder = text("savedNoteLabel");
      area.value = (read().items[id] || {}).note || "";
      let timer = 0;
      const keep = () => {
        clearTimeout(timer);
        update(id, { note: area.value, ...where(question) });
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
    if (saved.note) {
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
    const items = Object.entries(read().items).sort((a, b) => (b[1].t || 0) - (a[1].t || 0));
    if (!items.length) {
      box.append(element("p", { class: "qb-saved__empty" }, text("savedEmpty")));
      return;
    }
    const ol = element("ol", { class: "qb-saved__list" });
    for (const [id, item] of items) {
      const li = element("li", { class: "qb-saved__item", "data-qid": id });
      if (item.star) li.append(element("span", { class: "qb-saved__star", "aria-hidden": "true" }, "★ "));
      const link = element("a", { class: "qb-saved__link" }, item.title || id);
      link.href = new URL(item.url || "", root).href;
      li.append(link);
      if (item.topic) li.append(" ", element("span", { class: "qb-saved__topic" }, `· ${item.topic}`));
      if (item.note) li.append(element("p", { class: "qb-saved__note" }, item.note));
      const remove = element("button", { type: "button", class: "qb-saved__remove" }, text("savedRemove"));
      remove.addEventListener("click", () => {
        update(id, { star: false, note: "" });
        list(box);
      });
      li.append(remove);
      ol.append(li);
    }
    box.append(ol);
  }

  function setup() {
    for (const question of document.querySelectorAll(".qb-q[data-qid]")) {
      if (!question.querySelector(":scope > .qb-saved-tools")) decorate(question);
    }
    for (const box of document.querySelectorAll(".qb-saved")) list(box);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
