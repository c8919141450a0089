/* qbank review queue (spaced repetition): the home page's, the field pages' and the review
 * page's part (<locale>/review/), mounted by qbank.js where the page has a ".qb-due" box or
 * the review page's selects; never on a topic page. The schedule itself is lib/schedule.js
 * (pure); the records are lib/storage.js's "qbank:v1:progress" (written by the questions) and
 * "qbank:v1:review" (written here, after each answer of a review session), so the progress
 * figures keep counting first attempts only.
 *
 * A ".qb-due" box (home and field pages) shows "N due today" with links into the review page;
 * the review page runs its session in practice.js's interface (a ".qb-practice" box with
 * data-review): practice.js asks `draw` for the questions and hands each answer to
 * `answered`. The questions come from the practice lists (lib/questions.js), their texts
 * from the topic pages of the questions practice.js shows.
 */
import { h } from "./lib/dom.js";
import { day, missed as isMissed, reviewed, scheduled } from "./lib/schedule.js";
import { PROGRESS, REVIEW } from "./lib/shapes.js";
import { listedAll } from "./lib/questions.js";
import { load, update } from "./lib/storage.js";
import { fill, t } from "./lib/text.js";
let elsewhere = 0; // questions the last draw left out (not in this locale or seniority)

// -- the review page's scope: field, topic (its selects, kept in the URL) --------------
function pageScope() {
  const field = document.querySelector(".qb-review-field");
  const topic = document.querySelector(".qb-review-topic");
  return { field: field ? field.value : "", topic: topic ? topic.value : "" };
}
function levelChoice() {
  const level = document.querySelector(".qb-practice[data-review] .qb-practice-level");
  return level ? level.value : "";
}

function scopeChanged(changed) {
  const field = document.querySelector(".qb-review-field");
  const topic = document.querySelector(".qb-review-topic");
  if (!field || !topic) return;
  if (changed === topic && topic.value) field.value = topic.value.split("/")[0];
  for (const group of topic.querySelectorAll("optgroup")) {
    group.hidden = Boolean(field.value) && group.dataset.field !== field.value;
  }
  if (topic.value && field.value && topic.value.split("/")[0] !== field.value) topic.value = "";
  const params = new URLSearchParams(location.search);
  for (const [name, value] of [["field", field.value], ["topic", topic.value], ["level", levelChoice()]]) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  const query = params.toString();
  history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  fillAll();
}

function setScope() {
  const field = document.querySelector(".qb-review-field");
  const topic = document.querySelector(".qb-review-topic");
  if (!field || !topic || field.dataset.qbReady) return;
  field.dataset.qbReady = "1";
  const params = new URLSearchParams(location.search);
  const level = document.querySelector(".qb-practice[data-review] .qb-practice-level");
  for (const [select, name] of [[field, "field"], [topic, "topic"], [level, "level"]]) {
    if (!select) continue;
    select.value = params.get(name) || "";
    if (select.selectedIndex < 0) select.value = "";
  }
  scopeChanged(topic);
}

// -- "N due today" ---------------------------------------------------------------------
function fillBox(node) {
  const here = node.hasAttribute("data-here");
  let scope = { field: node.dataset.field || "" };
  if (here) scope = pageScope();
  else if (node.dataset.fields !== undefined) scope = { fields: node.dataset.fields.split(" ") };
  const list = queue(scope);
  node.replaceChildren();
  if (!list.length) {
    node.hidden = !here;
    if (here) node.append(h("p", { class: "qb-due__none" }, t("reviewEmpty")));
    return;
  }
  const today = day(Date.now());
  const due = list.filter((s) => s.due <= today).length;
  const missed = list.filter(isMissed).length;
  const line = h("p", { class: "qb-due__line" });
  line.append(h("strong", { class: "qb-due__count", "data-due": String(due) },
    due ? fill(t("reviewDue"), { n: due }) : t("reviewNoneDue")));
  if (!due) {
    const wait = list[0].due - today;
    line.append(" · ", h("span", { class: "qb-due__next" },
      wait === 1 ? t("reviewNextOne") : fill(t("reviewNext"), { n: wait })));
  }
  node.append(line);
  if (!here) {
    const query = (extra) => {
      const params = new URLSearchParams(extra);
      if (scope.field) params.set("field", scope.field);
      const q = params.toString();
      return new URL(node.dataset.review + (q ? `?${q}` : ""), location.href).href;
    };
    const links = h("p", { class: "qb-due__links" });
    if (due) {
      links.append(h("a", { class: "qb-due__start md-button md-button--primary", href: query({}) },
        t("reviewNow")));
    }
    if (missed) {
      if (due) links.append(" ");
      links.append(h("a", { class: "qb-due__misses md-button", href: query({ misses: "1" }) },
        fill(t("reviewMisses"), { n: missed })));
    }
    if (links.childNodes.length) node.append(links);
  } else {
    if (missed) node.append(h("p", { class: "qb-due__missed" }, fill(t("reviewMissed"), { n: missed })));
    if (elsewhere) node.append(h("p", { class: "qb-due__elsewhere" }, fill(t("reviewElsewhere"), { n: elsewhere })));
  }
  node.hidden = false;
}

function fillAll() {
  for (const node of document.querySelectorAll(".qb-due")) fillBox(node);
}

// -- a review session (practice.js runs it) --------------------------------------------
/* The questions of this session, in queue order: those due today (or, with `missed`, those
 * whose latest answer was wrong) in the page's scope, at its seniority when one is chosen,
 * that the page's locale has; as the practice lists' stubs (practice.js fetches the texts of
 * those it shows). */
export function draw(box, missed) {
  const today = day(Date.now());
  const picked = queue(pageScope()).filter((s) => (missed ? isMissed(s) : s.due <= today));
  if (!picked.length) {
    return Promise.resolve({ questions: [], empty: missed ? "reviewNoMisses" : "reviewNothing" });
  }
  const levels = levelChoice() ? [levelChoice()] : (box.dataset.levels || "").split(" ");
  const fields = [...new Set(picked.map((s) => s.t.split("/")[0]))];
  return listedAll(box.dataset.locale, fields, levels).then((stubs) => {
    const byId = new Map(stubs.map((stub) => [stub.id, stub]));
    const questions = picked.map((s) => byId.get(s.id)).filter(Boolean);
    elsewhere = questions.length ? picked.length - questions.length : 0;
    fillAll();
    return { questions, empty: "reviewNotHere" };
  });
}

/** The scheduled questions in `scope`, most overdue first. */
function queue(scope) {
  return scheduled(load(PROGRESS), load(REVIEW), scope);
}

/* One answer of a review session (practice.js), an exam or a flashcard: the question's FSRS
 * memory state moves on from where its schedule put it. */
export function answered(id, topic, result) {
  if (typeof id !== "string" || id === "__proto__") return;
  update(REVIEW, (stored) => {
    const record = reviewed(id, topic, result, load(PROGRESS)[id], stored[id], Date.now());
    if (record) stored[id] = record;
    return stored;
  });
  fillAll();
}

/** Days until question `id` comes back for review (0: today), or null when it has no review
 * record (the review session's feedback: "next review in 3 days"). */
export function dueIn(id) {
  const record = load(REVIEW)[id];
  return record && typeof record.due === "number" ? record.due - day(Date.now()) : null;
}

document.addEventListener("change", (e) => {
  const target = e.target;
  if (!(target instanceof Element)) return;
  if (target.closest(".qb-review-field, .qb-review-topic, .qb-practice[data-review] .qb-practice-level")) {
    scopeChanged(target);
  }
});
window.addEventListener("storage", (e) => {
  if (e.key === null || e.key === REVIEW || e.key === PROGRESS) fillAll();
});
window.addEventListener("pageshow", fillAll); // back from a topic page: answers moved on

/** The page's part: its scope selects (the review page) and every "N due today" box. */
export function mount() {
  setScope();
  fillAll();
}
