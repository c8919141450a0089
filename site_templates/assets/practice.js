/* qbank mock interview (practice) and review sessions: the part of a field's practice page
 * (<locale>/<field>/practice/) and of the review page (<locale>/review/), mounted by qbank.js
 * where a ".qb-practice" box is; topic pages never load it. On the review page (a box with
 * data-review) review.js draws the questions, in queue order, and keeps the answers; on a
 * practice page the answers are progress (widget.js's `record`). The question widget leaves
 * clicks inside a ".qb-practice" box to this module. */
import { fragment, h, idFor } from "./lib/dom.js";
import { HISTORY } from "./lib/shapes.js";
import { json, root } from "./lib/site.js";
import { load, save } from "./lib/storage.js";
import { t } from "./lib/text.js";
import { isMiss, progress, ratingGroup, record } from "./widget.js";

let review = null; // review.js, once a review page has imported it
function reviewPart() {
  return import("./review.js").then((part) => (review = part));
}

function shuffle(items) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const x = a[i];
    a[i] = a[j];
    a[j] = x;
  }
  return a;
}
function clock(seconds) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${(m < 10 ? "0" : "") + m}:${s < 10 ? "0" : ""}${s}`;
}

function practiceStart(box) {
  if (box.hasAttribute("data-qb-ready")) return;
  box.setAttribute("data-qb-ready", "");
  const stage = h("div", { class: "qb-stage" });
  const controls = h("div", { class: "qb-practice-controls" });
  const levelSelect = box.querySelector("select.qb-practice-level");
  const wanted = new URLSearchParams(location.search).get("level");
  if (levelSelect && wanted) {
    levelSelect.value = wanted;
    if (levelSelect.selectedIndex < 0) levelSelect.selectedIndex = 0;
  }
  const count = h("label", { class: "qb-filter" }, `${t("count")} `);
  const n = h("input", { type: "number", min: "1", max: "100", value: box.getAttribute("data-count") || "20",
    class: "qb-practice-count" });
  count.appendChild(n);
  controls.appendChild(count);
  const misses = h("label", { class: "qb-filter" });
  misses.appendChild(h("input", { type: "checkbox", class: "qb-practice-misses" }));
  misses.firstChild.checked = new URLSearchParams(location.search).get("misses") === "1";
  misses.appendChild(document.createTextNode(` ${t("misses")}`));
  controls.appendChild(misses);
  controls.appendChild(h("button", { type: "button", class: "qb-start" }, t("start")));
  (levelSelect ? levelSelect.parentNode : box).appendChild(controls);
  box.appendChild(stage);
  box.appendChild(h("p", { class: "qb-feedback", role: "status", "aria-live": "polite" }));
  box.appendChild(historyView(box));
  resume(box);
}

/* The running session is kept in sessionStorage (this tab only) after every step, so a
 * reload resumes it where it was: key qbank:v1:session:<locale>/<field>, value {level,
 * levelName, items (the drawn questions), i, results [{n: item index, chosen, status}],
 * started}. It is dropped when the session ends. */
function sessionKey(box) {
  return `qbank:v1:session:${box.getAttribute("data-locale")}/${box.getAttribute("data-field")}`;
}
function keepSession(session) {
  try {
    if (!session) return;
    sessionStorage.setItem(sessionKey(session.box), JSON.stringify({
      level: session.level, levelName: session.levelName, items: session.items, i: session.i,
      started: session.started, results: session.results.map(r => ({
      n: session.items.indexOf(r.item),
      chosen: r.chosen,
      status: r.status
    })) }));
  } catch (e) { /* storage full or denied: the session just does not survive a reload */ }
}
function dropSession(box) {
  try { sessionStorage.removeItem(sessionKey(box)); } catch (e) { /* nothing kept */ }
}
/* A reload (or back/forward) resumes the unfinished session at once; another visit
 * offers a button to resume it beside Start. */
function resume(box, now) {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(sessionKey(box)) || "null"); } catch (e) { saved = null; }
  if (!saved || !Array.isArray(saved.items) || !saved.items.length || !(saved.i < saved.items.length)) return;
  const nav = window.performance && performance.getEntriesByType &&
    performance.getEntriesByType("navigation")[0];
  if (!now && !(nav && (nav.type === "reload" || nav.type === "back_forward"))) {
    const start = box.querySelector(".qb-start");
    if (start && !box.querySelector(".qb-resume")) {
      start.after(h("button", { type: "button", class: "qb-resume" }, t("resume")));
    }
    return;
  }
  const session = { box, level: saved.level, levelName: saved.levelName, items: saved.items,
    i: saved.i, started: saved.started || Date.now(), timer: null,
    results: (saved.results || []).map(r => ({
      item: saved.items[r.n],
      chosen: r.chosen || [],
      status: r.status
    })).filter(r => r.item) };
  run(session);
  box.querySelector(":scope > .qb-feedback").textContent = t("resumed");
}
function run(session) {
  const box = session.box;
  const offer = box.querySelector(".qb-resume");
  if (offer) offer.remove();
  box.setAttribute("data-state", "running");
  const timer = h("span", { class: "qb-timer", role: "timer", "aria-label": t("time") },
    clock(Math.floor((Date.now() - session.started) / 1000)));
  session.timerNode = timer;
  session.timer = setInterval(() => {
    if (!timer.isConnected) return clearInterval(session.timer);
    timer.textContent = clock(Math.floor((Date.now() - session.started) / 1000));
  }, 1000);
  box.__session = session;
  showItem(session);
  keepSession(session);
}

function historyView(box) {
  const wrap = h("div", { class: "qb-history" });
  let list = load(HISTORY);
  if (!Array.isArray(list)) list = [];
  const mine = list.filter((entry) => entry.field === box.getAttribute("data-field"));
  if (!mine.length) return wrap;
  wrap.appendChild(h("h2", null, t("history")));
  const ul = h("ul");
  mine.slice(-10).reverse().forEach((entry) => {
    ul.appendChild(h("li", null, `${new Date(entry.ts).toLocaleString(document.documentElement.lang || undefined)} · ${entry.levelName} · ${t("score")} ${entry.score} / ${entry.total} · ${t("time")} ${clock(entry.seconds)}`));
  });
  wrap.appendChild(ul);
  return wrap;
}

function practiceBegin(box) {
  const level = box.querySelector("select.qb-practice-level");
  const key = level ? level.value : box.getAttribute("data-level");
  const levelName = level ? level.options[level.selectedIndex].textContent : key;
  const status = box.querySelector(":scope > .qb-feedback");
  const url = new URL(`${box.getAttribute("data-locale")}/api/practice/${box.getAttribute("data-field")}/${key}.json`, root).href;
  status.textContent = "";
  const onlyMisses = box.querySelector(".qb-practice-misses");
  const missed = !!(onlyMisses && onlyMisses.checked);
  // a review session (<locale>/review/): assets/review.js draws the due questions, in order
  const reviewing = box.hasAttribute("data-review");
  (reviewing ? reviewPart().then((part) => part.draw(box, missed)) : json(url)).then(data => {
    const limit = Math.max(1, parseInt(box.querySelector(".qb-practice-count").value, 10) || 20);
    // ?topics=a,b (the match page): only those topics of the field, when they have any
    const only = (new URLSearchParams(location.search).get("topics") || "").split(",");
    let pool = (data.questions || []).filter(q => only.includes(q.topic.split("/")[1]));
    if (!pool.length) pool = data.questions || [];
    if (missed && !reviewing) {
      const p = progress();
      pool = pool.filter(q => isMiss(p[q.id]));
    }
    const drawn = (reviewing ? pool : shuffle(pool)).slice(0, limit);
    if (!drawn.length) {
      status.textContent = t(data.empty || (missed ? "noMisses" : "none"));
      return;
    }
    run({ box, level: key, levelName, items: drawn, i: 0,
      results: [], started: Date.now(), timer: null });
  }).catch(() => {
    status.textContent = t("loadError");
  });
}

function permalink(session, item) {
  return new URL(item.url, root).href;
}

function showItem(session) {
  const item = session.items[session.i];
  const stage = session.box.querySelector(".qb-stage");
  stage.textContent = "";
  const head = h("div", { class: "qb-practice-head" });
  head.appendChild(h("span", { class: "qb-practice-pos" },
    t("question") + (session.i + 1) + t("ofN") + session.items.length));
  head.appendChild(session.timerNode);
  stage.appendChild(head);
  const card = h("div", { class: "qb-q qb-practice-q", "data-pid": item.id, "data-kind": item.kind });
  card.setAttribute("data-qb-ready", "");
  const prompt = h("div", { class: "qb-prompt" });
  prompt.appendChild(fragment(item.prompt));
  card.appendChild(prompt);
  const actions = h("div", { class: "qb-practice-actions" });
  if (item.kind === "choice") {
    const multi = item.answer.length > 1;
    const ol = h("ol", { class: "qb-options", "data-multi": multi ? "1" : "0" });
    item.options.forEach(o => {
      const li = h("li", { class: "qb-option", "data-key": o.key });
      const text = h("div", { class: "qb-option-text" });
      text.appendChild(fragment(o.html));
      const control = multi ? h("input", { type: "checkbox", class: "qb-check", value: o.key })
        : h("button", { type: "button", class: "qb-pick", "data-key": o.key, "aria-pressed": "false" });
      if (!multi) control.appendChild(h("span", { class: "qb-key" }, o.key));
      control.setAttribute("aria-labelledby", `${idFor(control)} ${idFor(text)}`);
      li.appendChild(control);
      if (multi) li.appendChild(h("span", { class: "qb-key" }, o.key));
      li.appendChild(text);
      ol.appendChild(li);
    });
    card.appendChild(ol);
  } else {
    if (item.assesses) {
      const det = h("details", { class: "qb-assesses" });
      det.appendChild(h("summary", null, t("assesses")));
      det.appendChild(fragment(item.assesses));
      card.appendChild(det);
    }
    const model = h("div", { class: "qb-model-answer", hidden: "" });
    if (item.model_answer) model.appendChild(fragment(item.model_answer));
    else model.appendChild(h("p", null, t("noModel")));
    card.appendChild(model);
    actions.appendChild(h("button", { type: "button", class: "qb-show-model" }, t("showModel")));
    card.appendChild(ratingGroup({ hidden: "" }));
  }
  stage.appendChild(card);
  const last = session.i === session.items.length - 1;
  if (item.kind === "choice") {
    actions.appendChild(h("button", { type: "button", class: "qb-practice-answer" },
      last ? t("finish") : t("next")));
  }
  actions.appendChild(h("button", { type: "button", class: "qb-practice-skip" }, t("skip")));
  stage.appendChild(actions);
  const first = card.querySelector("button, input");
  if (first && session.i > 0) first.focus();
}

function practiceAnswer(session, card) {
  const item = session.items[session.i];
  const chosen = [];
  card.querySelectorAll(".qb-check:checked").forEach(b => { chosen.push(b.value); });
  card.querySelectorAll('.qb-pick[aria-pressed="true"]').forEach(b => {
    chosen.push(b.getAttribute("data-key"));
  });
  if (!chosen.length) {
    const status = session.box.querySelector(":scope > .qb-feedback");
    status.textContent = "";
    setTimeout(() => { status.textContent = t("pickFirst"); }, 50);
    return;
  }
  const ok = chosen.slice().sort().join(" ") === item.answer.slice().sort().join(" ");
  practiceRecord(session, item, { r: ok ? 1 : 0 });
  session.results.push({ item, chosen, status: ok ? "right" : "wrong" });
  advance(session);
}
function practiceRate(session, value) {
  const item = session.items[session.i];
  practiceRecord(session, item, { s: value });
  session.results.push({ item, chosen: [], status: value });
  advance(session);
}
/* A review session's answers go to assets/review.js (its own store), not to progress. */
function practiceRecord(session, item, fields) {
  if (!session.box.hasAttribute("data-review")) return record(item.id, item.topic, fields);
  if (review) return review.answered(item.id, item.topic, fields);
  return reviewPart().then((part) => part.answered(item.id, item.topic, fields));
}
function practiceSkip(session) {
  session.results.push({ item: session.items[session.i], chosen: [], status: "skipped" });
  advance(session);
}
function advance(session) {
  session.i++;
  session.box.querySelector(":scope > .qb-feedback").textContent = "";
  if (session.i < session.items.length) {
    showItem(session);
    keepSession(session);
  } else finish(session);
}

function finish(session) {
  clearInterval(session.timer);
  const box = session.box;
  dropSession(box);
  const seconds = Math.round((Date.now() - session.started) / 1000);
  const points = { right: 1, know: 1, partly: 0.5 };
  const score = session.results.reduce((sum, r) => sum + (points[r.status] || 0), 0);
  const total = session.results.length;
  let list = load(HISTORY);
  if (!Array.isArray(list)) list = [];
  list.push({ ts: Date.now(), field: box.getAttribute("data-field"), level: session.level,
    levelName: session.levelName, score, total, seconds });
  save(HISTORY, list.slice(-50));
  box.setAttribute("data-state", "done");
  const stage = box.querySelector(".qb-stage");
  stage.textContent = "";
  const summary = h("div", { class: "qb-summary" });
  summary.appendChild(h("h2", { tabindex: "-1" }, `${t("score") + t("colon") + score} / ${total}`));
  summary.appendChild(h("p", { class: "qb-summary-time" }, t("time") + t("colon") + clock(seconds)));
  stage.appendChild(summary);
  stage.appendChild(h("h3", null, t("review")));
  const ol = h("ol", { class: "qb-review" });
  session.results.forEach(r => {
    const item = r.item;
    const li = h("li", { class: "qb-review-item", "data-status": r.status, "data-id": item.id,
      "data-topic": item.topic });
    li.appendChild(h("p", { class: "qb-review-status" }, t("status")[r.status]));
    const prompt = h("div", { class: "qb-prompt" });
    prompt.appendChild(fragment(item.prompt));
    li.appendChild(prompt);
    if (item.kind === "choice") {
      /* each with its option's text: "Your answer: a. …", "Right answer: c. …" */
      [[r.chosen, "yourAnswer", "qb-yours"], [item.answer, "rightAnswer", "qb-correct"]]
        .forEach(row => {
          if (!row[0].length) return;
          const keys = row[0];
          const wrap = h("div", { class: row[2] });
          wrap.appendChild(h("p", null, t(row[1]) + keys.join(t("sep"))));
          const opts = h("ul", { class: "qb-review-options" });
          item.options.forEach(o => {
            if (!keys.includes(o.key)) return;
            const oli = h("li", null, `${o.key}. `);
            oli.appendChild(fragment(o.html));
            opts.appendChild(oli);
          });
          wrap.appendChild(opts);
          li.appendChild(wrap);
        });
      if (item.explanation) {
        const ex = h("div", { class: "qb-explanation" });
        ex.appendChild(fragment(item.explanation));
        li.appendChild(ex);
      }
    } else {
      const model = h("div", { class: "qb-model-answer" });
      if (item.model_answer) model.appendChild(fragment(item.model_answer));
      else model.appendChild(h("p", null, t("noModel")));
      li.appendChild(model);
    }
    const link = h("a", { class: "qb-permalink", href: permalink(session, item) }, t("permalink"));
    const p = h("p");
    p.appendChild(link);
    li.appendChild(p);
    ol.appendChild(li);
  });
  stage.appendChild(ol);
  stage.appendChild(h("button", { type: "button", class: "qb-again" }, t("again")));
  const old = box.querySelector(".qb-history");
  if (old) old.replaceWith(historyView(box));
  summary.firstChild.focus();
}

function practiceClick(box, target) {
  const session = box.__session;
  if (target.closest(".qb-start")) return practiceBegin(box);
  if (target.closest(".qb-resume")) {
    target.closest(".qb-resume").remove();
    return resume(box, true);
  }
  if (target.closest(".qb-again")) {
    box.querySelector(".qb-stage").textContent = "";
    box.removeAttribute("data-state");
    return practiceBegin(box);
  }
  if (!session || box.getAttribute("data-state") !== "running") return;
  const card = box.querySelector(".qb-practice-q");
  if (target.closest(".qb-practice-skip")) return practiceSkip(session);
  if (target.closest(".qb-practice-answer")) return practiceAnswer(session, card);
  if (target.closest(".qb-show-model")) {
    card.querySelector(".qb-model-answer").hidden = false;
    card.querySelector(".qb-rate").hidden = false;
    target.closest(".qb-show-model").remove();
    card.querySelector(".qb-rate-btn").focus();
    return;
  }
  const rateBtn = target.closest(".qb-rate-btn");
  if (rateBtn) return practiceRate(session, rateBtn.getAttribute("data-rate"));
  const option = target.closest(".qb-option");
  if (!option || target.closest("a") || target.closest(".qb-check")) return;
  const check = option.querySelector(".qb-check");
  if (check) {
    check.checked = !check.checked;
    return;
  }
  card.querySelectorAll(".qb-pick").forEach(b => {
    const on = b.parentNode === option;
    b.setAttribute("aria-pressed", String(on));
    b.parentNode.classList.toggle("qb-chosen", on);
  });
}

document.addEventListener("click", e => {
  const box = e.target instanceof Element && e.target.closest(".qb-practice");
  if (box && box.hasAttribute("data-qb-ready")) practiceClick(box, e.target);
});

/** Starts every ".qb-practice" box of the page (once per box). */
export function mount() {
  const boxes = document.querySelectorAll(".qb-practice");
  if (document.querySelector(".qb-practice[data-review]")) reviewPart();
  for (const box of boxes) practiceStart(box);
}
