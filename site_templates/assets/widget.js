/* The question widget: reveal answers, progress bars, filters, resets, deep links and keys.
 * Progressive enhancement of the question HTML in DESIGN.md; without JavaScript the native
 * <details> still reveal every answer. Its listeners are on `document` (added once, when the
 * module is evaluated: they survive Material's instant navigation); qbank.js calls `mount` for
 * each page. Answers are kept by lib/storage.js ("qbank:v1:progress"); practice.js records
 * its own through `record`. */
import { h, idFor, nameOption } from "./lib/dom.js";
import { whenIdle } from "./lib/site.js";
import { otherParts, partLinks } from "./lib/parts.js";
import { load, save } from "./lib/storage.js";
import { standing as mastery, studyDays } from "./lib/mastery.js";
import { PROGRESS, REVIEW } from "./lib/shapes.js";
import { fill, t } from "./lib/text.js";

/* Answered during this page view: "hide answered" leaves them until the filter changes,
 * so the reader still sees the feedback and the explanation. */
let fresh = {};

/* A choice question's first answer is what counts (r, ts): a later attempt (on another
 * visit, or after the answer was shown) is kept apart as the latest retry (rr: 1|0, rts), so
 * progress cannot be inflated by clicking the option the page just revealed. An answer given
 * after the question's hint was opened says so (h: 1, a retry's rh: 1): the review queue then
 * grades it Hard (lib/schedule.js). Returns true when this answer was a retry. A rating (s)
 * is a self-assessment and is simply replaced. */
export function record(id, topic, fields) {
  fresh[id] = true;
  const p = progress();
  const old = p[id];
  if ("r" in fields && old && (old.r === 0 || old.r === 1)) {
    old.rr = fields.r;
    old.rts = Date.now();
    if (fields.h) old.rh = 1;
    else delete old.rh;
    save(PROGRESS, p);
    return true;
  }
  const r = { t: topic, ts: Date.now() };
  for (const k in fields) r[k] = fields[k];
  p[id] = r;
  save(PROGRESS, p);
  return false;
}
/* A miss: a choice question whose latest answer was wrong, or an open one rated "no". */
export function isMiss(r) {
  if (!r) return false;
  if (r.s) return r.s === "no";
  return ("rr" in r ? r.rr : r.r) === 0;
}
function forget(ids) {
  const p = progress();
  ids.forEach(id => { delete p[id]; });
  save(PROGRESS, p);
}

/** An open question's self-rating: "I knew it", "Partly", "I didn't know" (also a practice
 * card's, practice.js). */
export function ratingGroup(attributes) {
  const rate = h("div", { class: "qb-rate", role: "group", ...attributes });
  const label = h("span", { class: "qb-rate-label" }, t("rate"));
  rate.setAttribute("aria-labelledby", idFor(label));
  rate.append(label);
  for (const s of ["know", "partly", "no"]) {
    rate.append(h("button", { type: "button", class: "qb-rate-btn", "data-rate": s, "aria-pressed": "false" }, t(s)));
  }
  return rate;
}

function keysOf(q) {
  return (q.getAttribute("data-answer") || "").split(/\s+/).filter(Boolean);
}
function openAnswer(q) {
  const details = q.querySelector("details.qb-answer");
  if (details) details.open = true;
}


/* ---------------------------------------------------------------- the question widget */
function enhance(q, p) {
  if (q.hasAttribute("data-qb-ready")) return;
  q.setAttribute("data-qb-ready", "");
  const feedback = h("p", { class: "qb-feedback", role: "status", "aria-live": "polite" });
  if (q.getAttribute("data-kind") === "choice") {
    const list = q.querySelector(".qb-options");
    if (!list) return;
    const multi = list.getAttribute("data-multi") === "1" || keysOf(q).length > 1;
    list.querySelectorAll(".qb-option").forEach(li => {
      const key = li.getAttribute("data-key");
      const text = li.querySelector(".qb-option-text");
      const badge = li.querySelector(".qb-key");
      let control;
      if (multi) {
        control = h("input", { type: "checkbox", class: "qb-check", value: key });
      } else {
        control = h("button", { type: "button", class: "qb-pick", "data-key": key });
        if (badge) control.appendChild(badge);
        else control.textContent = key;
      }
      li.insertBefore(control, li.firstChild);
      if (multi && badge) li.insertBefore(badge, control.nextSibling);
      if (text) nameOption(control, [multi ? badge : control, text]);
      else control.setAttribute("aria-labelledby", `${idFor(control)} ${idFor(li)}`);
    });
    list.after(feedback);
    if (multi) feedback.before(h("button", { type: "button", class: "qb-check-btn" }, t("check")));
  } else {
    const rate = ratingGroup();
    rate.appendChild(feedback);
    const answer = q.querySelector("details.qb-answer");
    const summary = answer && answer.querySelector("summary");
    if (summary) summary.textContent = t("showModel");
    if (summary) summary.setAttribute("data-label", t("showModel"));
    if (answer) answer.after(rate);
    else q.appendChild(rate);
  }
  showStatus(q, p);
}

/* A big topic page holds hundreds of questions: enhancing them all at once is seconds of
 * main-thread work on a phone. The questions near the viewport are enhanced as they come
 * (IntersectionObserver), the others a few at a time while the browser is idle, and any
 * question at once when the reader acts on it (`ready`). */
let watcher = null;
let pending = [];
function ready(q) {
  if (!q.hasAttribute("data-qb-ready")) {
    enhance(q);
    if (watcher) watcher.unobserve(q);
  }
  return q;
}
function enhanceLazily(qs) {
  if (watcher) watcher.disconnect();
  watcher = null;
  pending = qs.slice();
  if (!("IntersectionObserver" in window)) {
    const p = progress();
    qs.forEach(q => { enhance(q, p); });
    pending = [];
    return;
  }
  watcher = new IntersectionObserver(entries => {
    const p = progress();
    entries.forEach(e => {
      if (!e.isIntersecting) return;
      enhance(e.target, p);
      watcher.unobserve(e.target);
    });
  }, { rootMargin: "100% 0px" });
  qs.forEach(q => { watcher.observe(q); });
  whenIdle(enhanceSome);
}
/* One idle slice: as many questions as fit in the idle time left (at least one). */
function enhanceSome(deadline) {
  const p = progress();
  let n = 0;
  while (pending.length && (n < 1 || (deadline ? deadline.timeRemaining() > 5 : n < 8))) {
    const q = pending.shift();
    if (q.isConnected && !q.hasAttribute("data-qb-ready")) {
      enhance(q, p);
      if (watcher) watcher.unobserve(q);
      n++;
    }
  }
  if (pending.length) whenIdle(enhanceSome);
  else if (watcher) {
    watcher.disconnect();
    watcher = null;
  }
}

/* A small badge saying how the reader did last time (and the pressed rating). */
export const MARKS = { mastered: "★ ", relearned: "✓ ", right: "✓ ", wrong: "✗ ", rated: "● " };
function showStatus(q, p) {
  const id = q.getAttribute("data-qid");
  const r = (p || progress())[id];
  const standing = mastery(r, load(REVIEW)[id]);
  q.classList.toggle("qb-done", !!standing);
  const meta = q.querySelector(".qb-meta") || q;
  let badge = meta.querySelector(".qb-status");
  if (!standing) {
    if (badge) badge.remove();
    q.querySelectorAll(".qb-rate-btn").forEach(b => { b.setAttribute("aria-pressed", "false"); });
    return;
  }
  if (!badge) {
    badge = h("span", { class: "qb-status" });
    meta.appendChild(badge);
  }
  badge.textContent = MARKS[standing.state] + t("status")[standing.word];
  badge.setAttribute("data-state", standing.state);
  q.querySelectorAll(".qb-rate-btn").forEach(b => {
    b.setAttribute("aria-pressed", String(!!r && b.getAttribute("data-rate") === r.s));
  });
}

function mark(li, cls, note) {
  li.classList.add(cls);
  const span = h("span", { class: "qb-note" }, ` (${note})`);
  li.appendChild(span);
}

function clearMarks(q) {
  // only the options' notes: saved.js puts a .qb-note (the reader's note) in questions too
  q.querySelectorAll(".qb-option > .qb-note").forEach(n => { n.remove(); });
  q.querySelectorAll(".qb-option").forEach(li => {
    li.classList.remove("qb-right", "qb-wrong", "qb-missed", "qb-chosen");
  });
}

function pick(q, key) {
  const answer = keysOf(q);
  clearMarks(q);
  const ok = answer.includes(key);
  q.querySelectorAll(".qb-option").forEach(li => {
    const k = li.getAttribute("data-key");
    const isRight = answer.includes(k);
    if (k === key) li.classList.add("qb-chosen");
    if (isRight) mark(li, "qb-right", k === key ? t("yours") + t("sep") + t("rightOpt") : t("rightOpt"));
    else if (k === key) mark(li, "qb-wrong", t("yours"));
    const b = li.querySelector(".qb-pick");
    if (b) b.setAttribute("aria-pressed", String(k === key));
  });
  conclude(q, ok, answer);
}

function check(q) {
  if (!q.querySelector(".qb-check:checked")) { // nothing ticked is no answer: say so
    const note = q.querySelector(".qb-feedback");
    note.setAttribute("data-state", "empty");
    note.textContent = t("tickFirst");
    return;
  }
  const answer = keysOf(q);
  clearMarks(q);
  let ok = true;
  q.querySelectorAll(".qb-option").forEach(li => {
    const k = li.getAttribute("data-key");
    const box = li.querySelector(".qb-check");
    const chosen = !!(box && box.checked);
    const isRight = answer.includes(k);
    if (chosen !== isRight) ok = false;
    if (isRight) mark(li, chosen ? "qb-right" : "qb-missed", t("rightOpt"));
    else if (chosen) mark(li, "qb-wrong", t("yours"));
  });
  conclude(q, ok, answer);
}

function conclude(q, ok, answer) {
  const fb = q.querySelector(".qb-feedback");
  fb.setAttribute("data-state", ok ? "right" : "wrong");
  fb.textContent = ok ? `✓ ${t("right")}`
    : `✗ ${t(answer.length > 1 ? "wrongMulti" : "wrong")}${answer.join(t("sep"))}`;
  q.classList.toggle("qb-answered-right", ok);
  q.classList.toggle("qb-answered-wrong", !ok);
  openAnswer(q);
  const id = q.getAttribute("data-qid");
  const hint = q.hasAttribute("data-hinted") ? { h: 1 } : {};
  let note = "";
  if (!q.hasAttribute("data-revealed")) {
    if (record(id, q.getAttribute("data-topic"), { r: ok ? 1 : 0, ...hint })) note = "retryNote";
  } else if (progress()[id]) {
    note = "retryNote"; // the answer was on show: nothing more is stored
  } else {
    // the answer was shown before any attempt: a first attempt that was not known (Again),
    // due for review the next day
    record(id, q.getAttribute("data-topic"), { r: 0, p: 1 });
    note = "peekNote";
  }
  if (note) fb.appendChild(h("span", { class: `qb-retry-note qb-${note}` }, ` ${t(note)}`));
  showStatus(q);
  refreshPage();
}

function rate(q, value) {
  q.removeAttribute("data-revealed");
  const hint = q.hasAttribute("data-hinted") && value !== "no" ? { h: 1 } : {};
  record(q.getAttribute("data-qid"), q.getAttribute("data-topic"), { s: value, ...hint });
  const fb = q.querySelector(".qb-feedback");
  fb.textContent = t("rated") + t(value);
  showStatus(q);
  refreshPage();
}

/* Opening the answer without answering marks the right option(s) in the list; the
 * summary says "Hide answer" while it is open. */
function answerToggled(details) {
  const q = details.closest(".qb-q[data-qid]");
  if (q) ready(q);
  const summary = details.querySelector(":scope > summary");
  if (!q || !summary) return;
  if (!summary.hasAttribute("data-label")) summary.setAttribute("data-label", summary.textContent);
  const open = q.getAttribute("data-kind") === "choice" ? t("hideAnswer") : t("hideModel");
  summary.textContent = details.open ? open : summary.getAttribute("data-label");
  if (!details.open || q.getAttribute("data-kind") !== "choice") return;
  if (q.classList.contains("qb-answered-right") || q.classList.contains("qb-answered-wrong")) return;
  if (q.querySelector(".qb-option.qb-right")) return;
  q.setAttribute("data-revealed", "");
  const answer = keysOf(q);
  q.querySelectorAll(".qb-option").forEach(li => {
    if (answer.includes(li.getAttribute("data-key"))) mark(li, "qb-right", t("rightOpt"));
  });
}

/* ---------------------------------------------------------------- progress bars */
function bar(done, total, right) {
  const wrap = h("div", { class: "qb-bar-wrap" });
  const meter = h("div", { class: "qb-bar", role: "progressbar", "aria-valuemin": "0",
    "aria-valuemax": String(total), "aria-valuenow": String(done) });
  meter.setAttribute("aria-label", t("progress"));
  const fill = h("span", { class: "qb-bar-fill" });
  fill.style.width = `${total ? Math.round((100 * done) / total) : 0}%`;
  meter.appendChild(fill);
  wrap.appendChild(meter);
  wrap.appendChild(h("span", { class: "qb-count" },
    `${done + t("ofN") + total} ${t("answered")} · ${right}${t("rightN")}`));
  return wrap;
}

function scoped(key) {
  const p = progress();
  const ids = [];
  for (const id in p) {
    const topic = (p[id] && p[id].t) || "";
    if (topic === key || topic.indexOf(`${key}/`) === 0) ids.push(id);
  }
  return ids;
}

function fillProgress(box) {
  const key = box.getAttribute("data-key") || "";
  const total = parseInt(box.getAttribute("data-total") || "0", 10);
  const ids = scoped(key);
  const p = progress();
  const right = ids.filter(id => p[id].r === 1 || p[id].s === "know").length;
  box.textContent = "";
  box.appendChild(bar(Math.min(ids.length, total), total, right));
  if (ids.length) {
    const reset = h("button", { type: "button", class: "qb-reset", "data-reset": key },
      t("resetPage"));
    box.appendChild(reset);
  }
}

function pageQuestions() {
  return Array.prototype.slice.call(document.querySelectorAll(".qb-q[data-qid]"));
}

function fillPageProgress(box) {
  const qs = pageQuestions();
  const p = progress();
  let done = 0;
  let right = 0;
  // One of a big topic's numbered pages: the bar counts the whole topic.
  const whole = parseInt(box.getAttribute("data-total") || "0", 10);
  const part = whole > qs.length && !!document.querySelector(".qb-pages-top");
  const total = part ? whole : qs.length;
  const ids = part ? scoped(box.getAttribute("data-key") || "") :
    qs.map(q => q.getAttribute("data-qid"));
  ids.forEach(id => {
    const r = p[id];
    if (r) {
      done++;
      if (r.r === 1 || r.s === "know") right++;
    }
  });
  box.textContent = "";
  box.appendChild(bar(Math.min(done, total), total, right));
  const row = h("div", { class: "qb-reset-row" });
  row.appendChild(h("button", { type: "button", class: "qb-reset", "data-reset": "page" },
    t("resetPage")));
  row.appendChild(h("button", { type: "button", class: "qb-reset", "data-reset": "all" },
    t("resetAll")));
  box.appendChild(row);
}

/* A field's or specialization's table of topics: a column of the reader's progress on each
 * (answered of its questions, right now, mastered), after each topic's marker. */
function topicRows(p) {
  const reviews = load(REVIEW);
  const markers = [...document.querySelectorAll(".qb-topic-row[data-key]")];
  if (!markers.length) return;
  const byTopic = {}; // (once for the table, not a walk of every record per topic)
  for (const id in p) {
    const topic = (p[id] && p[id].t) || "";
    if (!byTopic[topic]) byTopic[topic] = [];
    byTopic[topic].push(id);
  }
  const idsOf = marker => byTopic[marker.getAttribute("data-key") || ""] || [];
  if (!markers.some(marker => idsOf(marker).length)) return;
  markers.forEach(marker => { // (a reader who has answered nothing here gets no column)
    const row = marker.closest("tr");
    const table = row && row.closest("table");
    if (!table) return;
    if (!table.hasAttribute("data-qb-progress")) {
      table.setAttribute("data-qb-progress", "");
      const head = table.querySelector("thead tr");
      if (head) head.appendChild(h("th", { class: "qb-topic-cell" }, t("progress")));
      table.querySelectorAll("tbody tr").forEach(tr => {
        tr.appendChild(h("td", { class: "qb-topic-cell" }));
      });
    }
    const cell = row.querySelector("td.qb-topic-cell");
    const total = parseInt(marker.getAttribute("data-total") || "0", 10);
    const ids = idsOf(marker);
    const states = ids.map(id => (mastery(p[id], reviews[id]) || {}).state);
    const right = states.filter(s => s === "right" || s === "relearned" || s === "mastered").length;
    const mastered = states.filter(s => s === "mastered").length;
    const star = mastered ? " · ★ " + mastered : ""; // (no template inside a template: rjsmin)
    cell.textContent = ids.length ? Math.min(ids.length, total) + t("ofN") + total + " " +
      t("answered") + " · " + right + t("rightN") + star : "";
  });
}

/* The home page's line of study days: answered today, and the streak of days in a row. */
function streak(p) {
  const line = document.querySelector(".qb-streak");
  if (!line) return;
  const days = studyDays(p, load(REVIEW), Date.now());
  line.hidden = !days.streak;
  line.textContent = days.streak ? fill(t("studyToday"), { n: days.today }) + " · " +
    fill(t("streak"), { n: days.streak }) : "";
}

function refreshPage() {
  topicRows(progress());
  streak(progress());
  document.querySelectorAll(".qb-progress[data-key]:not(.qb-page-progress)").forEach(fillProgress);
  const own = document.querySelector(".qb-page-progress");
  if (own) fillPageProgress(own);
  const p = progress();
  document.querySelectorAll(".qb-q[data-qb-ready]").forEach(q => { showStatus(q, p); });
  applyFilters();
}

/* ---------------------------------------------------------------- filters */
function filterState() {
  const params = new URLSearchParams(location.search);
  return { level: params.get("level") || "", difficulty: params.get("difficulty") || "",
    hide: params.get("hide") === "answered" };
}

function buildTools(qs) {
  let tools = document.querySelector(".qb-tools");
  if (!tools) {
    tools = h("div", { class: "qb-tools" });
    const h1 = document.querySelector(".md-content__inner h1, article h1, main h1");
    if (h1 && h1.parentNode) h1.after(tools);
    else qs[0].before(tools);
  }
  if (tools.hasAttribute("data-qb-ready")) return;
  tools.setAttribute("data-qb-ready", "");
  let names = {};
  try { names = JSON.parse(tools.getAttribute("data-level-names") || "{}"); } catch (e) { names = {}; }
  const levels = [];
  const diffs = [];
  qs.forEach(q => {
    (q.getAttribute("data-level") || "").split(/\s+/).forEach(l => {
      if (l && !levels.includes(l)) levels.push(l);
    });
    const d = q.getAttribute("data-difficulty");
    if (d && !diffs.includes(d)) diffs.push(d);
  });
  const order = Object.keys(names);
  if (partLinks().length) { // one of several parts: the filters choose over all of them
    order.forEach(l => { if (!levels.includes(l)) levels.push(l); });
    ["1", "2", "3"].forEach(d => { if (!diffs.includes(d)) diffs.push(d); });
  }
  levels.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  diffs.sort();
  const own = document.querySelector(".qb-progress");
  if (own) own.classList.add("qb-page-progress");
  else tools.appendChild(h("div", { class: "qb-page-progress" }));
  if (qs.length < 2) return; // one question: nothing to filter
  const form = h("form", { class: "qb-filters", role: "search" });
  form.setAttribute("aria-label", `${t("level")} / ${t("difficulty")}`);
  form.appendChild(select("level", t("level"), levels.map(l => [l, names[l] || l])));
  form.appendChild(select("difficulty", t("difficulty"), diffs.map(d => [d, t(`d${d}`) || d])));
  const hideLabel = h("label", { class: "qb-filter" });
  const hide = h("input", { type: "checkbox", name: "hide", value: "answered" });
  hideLabel.appendChild(hide);
  hideLabel.appendChild(document.createTextNode(` ${t("hide")}`));
  form.appendChild(hideLabel);
  form.appendChild(h("p", { class: "qb-shown", "aria-live": "polite" }));
  form.addEventListener("submit", e => { e.preventDefault(); });
  tools.appendChild(form);
  const state = filterState();
  form.elements.level.value = levels.includes(state.level) ? state.level : "";
  form.elements.difficulty.value = diffs.includes(state.difficulty) ? state.difficulty : "";
  hide.checked = state.hide;
}

function select(name, label, choices) {
  const wrap = h("label", { class: "qb-filter" }, `${label} `);
  const s = h("select", { name });
  s.appendChild(h("option", { value: "" }, t("all")));
  choices.forEach(c => { s.appendChild(h("option", { value: c[0] }, c[1])); });
  wrap.appendChild(s);
  return wrap;
}

function headingOf(q) {
  const heading = document.getElementById(`h-${q.getAttribute("data-qid")}`);
  if (heading) return heading;
  const prev = q.previousElementSibling;
  return prev && /^H[1-6]$/.test(prev.tagName) ? prev : null;
}

/* Whether a question ({ id, levels, difficulty }) passes the filters. */
function passes(item, filter, p) {
  return (!filter.level || item.levels.includes(filter.level)) &&
    (!filter.difficulty || item.difficulty === filter.difficulty) &&
    !(filter.hide && p[item.id] && !fresh[item.id]);
}

function itemOf(q) {
  return { id: q.getAttribute("data-qid"), levels: (q.getAttribute("data-level") || "").split(/\s+/),
    difficulty: q.getAttribute("data-difficulty") || "" };
}

let filterRound = 0;
function applyFilters() {
  const form = document.querySelector(".qb-filters");
  if (!form) return;
  const filter = { level: form.elements.level.value, difficulty: form.elements.difficulty.value,
    hide: form.elements.hide.checked };
  const p = progress();
  const qs = pageQuestions();
  let shown = 0;
  qs.forEach(q => {
    const ok = passes(itemOf(q), filter, p);
    q.hidden = !ok;
    const heading = headingOf(q);
    if (heading) heading.hidden = !ok;
    if (ok) shown++;
  });
  hideEmptyGroups(qs);
  const out = form.querySelector(".qb-shown");
  const here = t("shown") + shown + t("ofN") + qs.length;
  out.textContent = here;
  carryFilters();
  wholeTopic(filter, shown, qs.length, out, here);
}

/* On one of several parts, a filter counts the other parts too (lib/parts.js fetches them
 * once): "16 of 19 · 41 of 55 on all 3 pages", and each pager number says how many of its
 * questions pass. */
function wholeTopic(filter, shown, total, out, here) {
  const round = ++filterRound;
  const active = filter.level || filter.difficulty || filter.hide;
  document.querySelectorAll(".qb-part-count").forEach(n => { n.remove(); });
  if (!active || !partLinks().length) return;
  otherParts().then(parts => {
    if (round !== filterRound) return;
    const p = progress();
    let all = shown;
    let whole = total;
    let known = true;
    parts.forEach(part => {
      if (!part.questions) {
        known = false;
        return;
      }
      const n = part.questions.filter(item => passes(item, filter, p)).length;
      all += n;
      whole += part.questions.length;
      const badge = h("span", { class: "qb-part-count" }, ` (${n})`);
      badge.title = fill(t("shownPart"), { n });
      part.link.appendChild(badge);
    });
    if (!known) return;
    out.textContent = here + " · " + fill(t("shownAll"), { n: all, total: whole,
      pages: parts.length + 1 });
  });
}

/* The pager's links keep the filters: the next part shows what this one shows. */
function carryFilters() {
  const form = document.querySelector(".qb-filters");
  document.querySelectorAll(".qb-pages a[href]").forEach(a => {
    const url = new URL(a.href);
    ["level", "difficulty"].forEach(name => {
      if (form && form.elements[name].value) url.searchParams.set(name, form.elements[name].value);
      else url.searchParams.delete(name);
    });
    if (form && form.elements.hide.checked) url.searchParams.set("hide", "answered");
    else url.searchParams.delete("hide");
    a.href = url.href;
  });
}

/* A heading that groups questions (a topic on a seniority page) hides with them. */
function hideEmptyGroups(qs) {
  if (!qs.length) return;
  const parent = qs[0].parentNode;
  const own = {};
  qs.forEach(q => { const heading = headingOf(q); if (heading) own[idFor(heading)] = true; });
  const kids = Array.prototype.slice.call(parent.children);
  kids.forEach((node, i) => {
    if (!/^H[2-6]$/.test(node.tagName) || own[node.id]) return;
    const rank = +node.tagName[1];
    let any = false;
    let visible = false;
    for (let j = i + 1; j < kids.length; j++) {
      const n = kids[j];
      if (/^H[1-6]$/.test(n.tagName) && !own[n.id] && +n.tagName[1] <= rank) break;
      if (n.classList.contains("qb-q")) {
        any = true;
        if (!n.hidden) visible = true;
      }
    }
    if (any) node.hidden = !visible;
  });
}

function filtersChanged(form) {
  fresh = {};
  const params = new URLSearchParams(location.search);
  [["level", form.elements.level.value], ["difficulty", form.elements.difficulty.value],
    ["hide", form.elements.hide.checked ? "answered" : ""]].forEach(kv => {
    if (kv[1]) params.set(kv[0], kv[1]);
    else params.delete(kv[0]);
  });
  const query = params.toString();
  history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  applyFilters();
}


/* ---------------------------------------------------------------- events */
document.addEventListener("click", e => {
  const target = e.target;
  if (!(target instanceof Element)) return;
  if (target.closest(".qb-practice")) return; // assets/practice.js
  const q = target.closest(".qb-q[data-qid]");
  const reset = target.closest(".qb-reset");
  const undo = target.closest(".qb-undo");
  if (undo) {
    if (undoable) save(PROGRESS, undoable);
    undoable = null;
    document.querySelectorAll(".qb-undo-note").forEach(n => { n.remove(); });
    refreshPage();
    return;
  }
  if (reset) {
    const scope = reset.getAttribute("data-reset");
    undoable = { ...progress() }; // (a copy: the resets below change the kept one)
    const row = reset.closest(".qb-reset-row, .qb-progress") || reset.parentNode;
    if (scope === "all") save(PROGRESS, {});
    else if (scope === "page") forget(pageQuestions().map(n => n.getAttribute("data-qid")));
    else forget(scoped(scope));
    pageQuestions().forEach(n => {
      n.classList.remove("qb-answered-right", "qb-answered-wrong");
      clearMarks(n);
      n.querySelectorAll(".qb-feedback").forEach(f => { f.textContent = ""; });
    });
    refreshPage();
    offerUndo(row && row.isConnected ? row : document.querySelector(".qb-tools, .qb-progress"));
    return;
  }
  if (!q) return;
  ready(q);
  const rateBtn = target.closest(".qb-rate-btn");
  if (rateBtn) return rate(q, rateBtn.getAttribute("data-rate"));
  if (target.closest(".qb-check-btn")) return check(q);
  const option = target.closest(".qb-option");
  if (!option || target.closest("a, details, summary")) return;
  if (target.closest(".qb-check")) return; // the box toggles itself
  const box = option.querySelector(".qb-check");
  if (box) {
    box.checked = !box.checked;
    return;
  }
  pick(q, option.getAttribute("data-key"));
});

/* Every reset can be undone until the next one or the next page: the progress as it was
 * is kept in memory and a note with an Undo button appears where the reset was. */
let undoable = null;
function offerUndo(where) {
  document.querySelectorAll(".qb-undo-note").forEach(n => { n.remove(); });
  if (!where) return;
  const note = h("p", { class: "qb-undo-note", role: "status" }, `${t("resetDone")} `);
  const button = h("button", { type: "button", class: "qb-undo" }, t("undo"));
  note.appendChild(button);
  where.appendChild(note);
  button.focus();
}

document.addEventListener("change", e => {
  const form = e.target instanceof Element && e.target.closest(".qb-filters");
  if (form) filtersChanged(form);
});

/* Print every answer: <details> content cannot be forced open by CSS everywhere. */

/* ---------------------------------------------------------------- deep links */
/* A link to #q-<id> (permalink, search result, practice review) brings the question's
 * heading below Material's fixed header (qbank.css gives headings a scroll margin) and
 * marks the question; the language switcher keeps the anchor. */
function target() {
  document.querySelectorAll(".qb-target").forEach(n => { n.classList.remove("qb-target"); });
  document.querySelectorAll(".qb-not-here").forEach(n => { n.remove(); });
  let id = "";
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch (error) {
    return; // not an anchor of ours (a malformed fragment, such as a cut import link)
  }
  if (!/^[qh]-/.test(id)) return;
  const q = document.getElementById(`q-${id.slice(2)}`);
  if (!q) findOnOtherPart(id.slice(2));
  if (!q || !q.classList.contains("qb-q")) return;
  q.classList.add("qb-target");
  const heading = headingOf(q);
  land(heading && !heading.hidden ? heading : q);
}
/* Questions away from the viewport are not laid out (qbank.css: content-visibility) and
 * count at an estimated height: those the scroll brings near take their real height in the
 * next frames, so the scroll is repeated each frame until the node stays put. */
function land(node) {
  let frames = 0;
  let still = 0;
  (function step() {
    const before = node.getBoundingClientRect().top;
    node.scrollIntoView();
    still = Math.abs(node.getBoundingClientRect().top - before) < 1 ? still + 1 : 0;
    if (still < 3 && ++frames < 30) requestAnimationFrame(step);
  })();
}
/* A big topic is cut into numbered pages (qbank/parts.py): a link to a question that is on
 * another of its pages (an old link to the topic's first page, another locale's page) is
 * sent on to the page that holds it, looked up in the other pages only when needed. */
let lookedUp = "";
function findOnOtherPart(qid) {
  if (!partLinks().length) {
    notHere(qid);
    return;
  }
  if (lookedUp === qid) return;
  lookedUp = qid;
  otherParts().then(parts => {
    if (lookedUp !== qid) return;
    const part = parts.find(one => one.questions && one.questions.some(q => q.id === qid));
    lookedUp = "";
    if (part) location.replace(`${part.url}#q-${qid}`);
    else if (parts.every(one => one.questions)) notHere(qid); // (offline: the reader stays)
  });
}
/* A question this locale does not have (the language switcher carried its anchor here): a
 * notice says so at the top of the page and links back to it, in the language the reader
 * came from (kept by the switcher for this tab) or in the site's other languages. */
const SWITCHED = "qbank:v1:switched";
function notHere(qid) {
  const h1 = document.querySelector("article h1, .md-content h1");
  if (!h1 || !/^[0-9a-f-]{36}$/.test(qid) || !document.querySelector(".qb-progress[data-key], .qb-q")) return;
  const lang = (document.documentElement.lang || "").toLowerCase();
  const switcher = [...document.querySelectorAll("a.md-select__link[hreflang]")];
  const name = a => (a ? a.textContent.trim() : "");
  const here = name(switcher.find(a => a.getAttribute("hreflang").toLowerCase() === lang)) || lang;
  let from = null;
  try { from = JSON.parse(sessionStorage.getItem(SWITCHED) || "null"); } catch (e) { from = null; }
  let back = switcher.filter(a => a.getAttribute("hreflang").toLowerCase() !== lang)
    .map(a => [name(a), `${a.href.split("#")[0]}#q-${qid}`]);
  if (from && from.q === qid && String(from.url).startsWith(`${location.origin}/`) && from.lang !== lang) {
    const came = switcher.find(a => a.getAttribute("hreflang").toLowerCase() === from.lang);
    back = [[name(came) || from.lang, from.url]];
  }
  const box = h("div", { class: "qb-not-here admonition note", role: "status" });
  box.append(h("p", { class: "admonition-title" }, t("notHereTitle")));
  const line = h("p", null, `${fill(t("notHere"), { language: here })} `);
  back.forEach(([language, url], i) => {
    line.append(i ? ", " : "", h("a", { href: url }, fill(t("notHereRead"), { language })));
  });
  box.append(line);
  h1.after(box);
}
function keepAnchor() {
  document.querySelectorAll("a.md-select__link[hreflang]").forEach(a => {
    const href = a.getAttribute("href").split("#")[0];
    a.setAttribute("href", href + location.hash);
  });
  const id = location.hash.slice(1);
  if (!/^[qh]-[0-9a-f-]{36}$/.test(id)) return;
  const lang = (document.documentElement.lang || "").toLowerCase();
  try {
    sessionStorage.setItem(SWITCHED, JSON.stringify({ q: id.slice(2), lang, url: `${location.href.split("#")[0]}#q-${id.slice(2)}` }));
  } catch (e) { /* no storage: the notice links every other language */ }
}
window.addEventListener("hashchange", target);
["pointerdown", "focusin", "mouseover", "click"].forEach(type => {
  document.addEventListener(type, e => {
    if (e.target instanceof Element && e.target.closest(".md-select")) keepAnchor();
  }, true);
});
document.addEventListener("toggle", e => {
  if (!(e.target instanceof Element)) return;
  if (e.target.matches("details.qb-answer")) answerToggled(e.target);
  else if (e.target.matches("details.qb-hint") && e.target.open) hinted(e.target);
}, true);

/* A hint opened before the question was answered: the answer that follows is one given with
 * help (recorded as such). Opened after, it changes nothing. */
function hinted(details) {
  const q = details.closest(".qb-q[data-qid]");
  if (!q || q.classList.contains("qb-answered-right") || q.classList.contains("qb-answered-wrong")) return;
  if (q.querySelector(".qb-rate-btn[aria-pressed='true']")) return;
  q.setAttribute("data-hinted", "");
}


/** The reader's answers: {question id: record} (DESIGN.md, "Widget hooks"). */
export function progress() {
  return load(PROGRESS);
}

/* Keys (the reader's focus in a question, on a topic page or a practice card): 1-9 or the
 * option's letter answers that option, as a click on it would (a multiple-answer question's
 * box toggles; its Check button checks). Only while the focus is in the question (WCAG
 * 2.1.4), never while typing in a field or with a modifier; a key it uses goes no further
 * (Material's own single-key shortcuts, such as "f" for search, stay outside questions). */
document.addEventListener("keydown", e => {
  const at = document.activeElement;
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !(at instanceof Element)) return;
  const q = at.closest(".qb-q");
  const key = e.key.length === 1 ? e.key.toLowerCase() : "";
  if (!q || !/^[1-9a-h]$/.test(key) || at.closest("input:not(.qb-check), textarea, select, [contenteditable]")) return;
  const options = q.querySelectorAll(".qb-option");
  const option = /\d/.test(key) ? options[Number(key) - 1] : q.querySelector(`.qb-option[data-key="${key}"]`);
  if (!option || option.closest(".qb-q") !== q) return;
  e.preventDefault();
  e.stopPropagation();
  (option.querySelector(".qb-pick, .qb-check") || option).click();
  const control = option.querySelector(".qb-pick, .qb-check");
  if (control) control.focus();
}, true);

let pages = 0;
/** The page's questions: enhanced as they come near, their tools, bars and filters. */
export function mount() {
  if (pages++) {
    fresh = {}; // (not on the first: a question answered while the page was parsed stays)
    undoable = null;
  }
  const qs = pageQuestions();
  enhanceLazily(qs);
  if (qs.length && !document.querySelector(".qb-practice")) buildTools(qs);
  refreshPage();
  if (location.hash) setTimeout(target, 0); // after Material's own scroll
}
