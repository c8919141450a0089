/* qbank mock interview (practice), exam and review sessions: the part of a field's practice
 * page (<locale>/<field>/practice/) and of the review page (<locale>/review/), mounted by
 * qbank.js where a ".qb-practice" box is; topic pages never load it. On the review page (a
 * box with data-review) review.js draws the questions, in queue order, and keeps the answers;
 * on a practice page the answers are progress (widget.js's `record`: a first attempt where
 * the question had none). The question widget leaves clicks inside a ".qb-practice" box to
 * this module.
 *
 * Two modes on the practice page: the mock interview (one question after another) and the
 * exam (a question list to move around in, flags, nothing scored or stored before "Hand in",
 * then the score per topic and the review). Both have a clock (lib/timer.js) that the reader
 * can hide, pause, give a limit, extend or turn off (WCAG 2.2.1), the choices remembered
 * (qbank:v1:prefs:timer), and both can be ended early and scored. */
import { fragment, h, idFor, nameOption } from "./lib/dom.js";
import { byTopic, score as scoreOf } from "./lib/scores.js";
import { draw } from "./lib/draw.js";
import { listed, texts } from "./lib/questions.js";
import { HISTORY, TIMER } from "./lib/shapes.js";
import * as timer from "./lib/timer.js";
import { root } from "./lib/site.js";
import { load, save, update } from "./lib/storage.js";
import { fill, t } from "./lib/text.js";
import { isMiss, progress, ratingGroup, record } from "./widget.js";

let review = null; // review.js, once a review page has imported it
function reviewPart() {
  return import("./review.js").then((part) => (review = part));
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
  if (!box.hasAttribute("data-review")) {
    const mode = h("label", { class: "qb-filter" }, `${t("modeLabel")} `);
    const select = h("select", { class: "qb-practice-mode" });
    select.append(h("option", { value: "interview" }, t("modeInterview")), h("option", { value: "exam" }, t("modeExam")));
    select.value = new URLSearchParams(location.search).get("mode") === "exam" ? "exam" : "interview";
    mode.appendChild(select);
    controls.appendChild(mode);
  }
  const limit = h("label", { class: "qb-filter" }, `${t("limitLabel")} `);
  limit.appendChild(h("input", { type: "number", min: "0", max: "600", class: "qb-practice-limit",
    value: String(Number(load(TIMER).limit) || 0) }));
  controls.appendChild(limit);
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
      started: session.started, mode: session.mode, clock: session.clock, answers: session.answers,
      flags: session.flags, results: session.results.map(r => ({
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
  const clock = saved.clock && typeof saved.clock.spent === "number" ? saved.clock : timer.started(Date.now());
  const session = { box, level: saved.level, levelName: saved.levelName, items: saved.items,
    i: saved.i, started: saved.started || Date.now(), timer: null, mode: saved.mode === "exam" ? "exam" : "interview",
    clock, answers: Array.isArray(saved.answers) ? saved.answers : [], flags: Array.isArray(saved.flags) ? saved.flags : [],
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
  box.setAttribute("data-mode", session.mode);
  if (!session.clock) session.clock = timer.started(Date.now());
  if (!session.answers) session.answers = [];
  if (!session.flags) session.flags = [];
  session.timerNode = clockBar(session);
  let before = Date.now();
  session.timer = setInterval(() => {
    if (!session.timerNode.isConnected) return clearInterval(session.timer);
    const now = Date.now();
    const moment = timer.crossed(session.clock, before, now);
    before = now;
    if (moment) announce(session, fill(t("timeLeftNote"), { time: timer.shown(moment, true) }));
    if (timer.expired(session.clock, now)) return handIn(session, "timeUp");
    tick(session);
  }, 1000);
  box.__session = session;
  showItem(session);
  keepSession(session);
}

/* -- the clock bar: time, hide, pause, +5 minutes, no limit, end and score --------------- */
function clockBar(session) {
  const bar = h("div", { class: "qb-clock" });
  const shown = h("span", { class: "qb-timer", role: "timer" });
  shown.hidden = Boolean(load(TIMER).hidden);
  bar.append(
    shown,
    h("button", { type: "button", class: "qb-timer-toggle" }, t("timerHide")),
    h("button", { type: "button", class: "qb-timer-pause", "aria-pressed": "false" }, t("timerPause")),
    h("button", { type: "button", class: "qb-timer-more" }, t("timerMore")),
    h("button", { type: "button", class: "qb-timer-off" }, t("timerOff")),
    h("button", { type: "button", class: "qb-practice-end" }, t(session.mode === "exam" ? "handIn" : "endNow")),
    h("span", { class: "qb-timer-note qb-sr", role: "status", "aria-live": "polite" }),
  );
  return bar;
}
function tick(session) {
  const bar = session.timerNode;
  const now = Date.now();
  const limited = session.clock.limit > 0;
  const shown = bar.querySelector(".qb-timer");
  shown.textContent = limited ? timer.shown(timer.left(session.clock, now), true)
    : timer.shown(timer.elapsed(session.clock, now));
  shown.setAttribute("aria-label", t(limited ? "timeLeft" : "time"));
  const isPaused = timer.paused(session.clock);
  const pause = bar.querySelector(".qb-timer-pause");
  pause.textContent = t(isPaused ? "timerResume" : "timerPause");
  pause.setAttribute("aria-pressed", String(isPaused));
  bar.querySelector(".qb-timer-more").hidden = !limited;
  bar.querySelector(".qb-timer-off").hidden = !limited;
  const toggle = bar.querySelector(".qb-timer-toggle");
  toggle.textContent = t(shown.hidden ? "timerShow" : "timerHide");
  toggle.setAttribute("aria-pressed", String(shown.hidden));
  const card = session.box.querySelector(".qb-practice-q");
  if (card) card.hidden = isPaused; // a paused exam shows no question
}
function announce(session, text) {
  const note = session.timerNode.querySelector(".qb-timer-note");
  note.textContent = "";
  setTimeout(() => { note.textContent = text; }, 50);
}
function clockClick(session, target) {
  const now = Date.now();
  if (target.closest(".qb-timer-toggle")) {
    const shown = session.timerNode.querySelector(".qb-timer");
    shown.hidden = !shown.hidden;
    update(TIMER, (settings) => ({ ...settings, hidden: shown.hidden }));
  } else if (target.closest(".qb-timer-pause")) {
    const wasPaused = timer.paused(session.clock);
    session.clock = wasPaused ? timer.resume(session.clock, now) : timer.pause(session.clock, now);
    announce(session, t(wasPaused ? "resumedNote" : "pausedNote"));
  } else if (target.closest(".qb-timer-more")) {
    session.clock = timer.extend(session.clock, 5);
    announce(session, fill(t("timeLeftNote"), { time: timer.shown(timer.left(session.clock, now), true) }));
  } else if (target.closest(".qb-timer-off")) {
    session.clock = timer.unlimited(session.clock);
    announce(session, t("limitOffNote"));
  } else if (target.closest(".qb-practice-end")) {
    return handIn(session, null);
  } else return false;
  tick(session);
  keepSession(session);
  return true;
}

function historyView(box) {
  const wrap = h("div", { class: "qb-history" });
  let list = load(HISTORY);
  if (!Array.isArray(list)) list = [];
  const mine = list.filter((entry) => entry.field === box.getAttribute("data-field"));
  if (!mine.length) return wrap;
  wrap.appendChild(h("h2", null, t("history")));
  // A session's level in this page's language (history is shared by every locale: a session
  // kept as "All" on /en/ reads "Tümü" on /tr/); the name it was kept with when this page
  // does not offer its level.
  const level = box.querySelector("select.qb-practice-level");
  const levelName = (entry) => {
    const option = level && [...level.options].find((o) => o.value === (entry.level || ""));
    return option ? option.textContent : entry.levelName;
  };
  const ul = h("ul");
  mine.slice(-10).reverse().forEach((entry) => {
    ul.appendChild(h("li", null, `${new Date(entry.ts).toLocaleString(document.documentElement.lang || undefined)} · ${levelName(entry)} · ${t("score")} ${entry.score} / ${entry.total} · ${t("time")} ${clock(entry.seconds)}`));
  });
  wrap.appendChild(ul);
  return wrap;
}

function practiceBegin(box) {
  const level = box.querySelector("select.qb-practice-level");
  const key = level ? level.value : box.getAttribute("data-level");
  const levelName = level ? level.options[level.selectedIndex].textContent : key;
  const status = box.querySelector(":scope > .qb-feedback");
  status.textContent = "";
  const onlyMisses = box.querySelector(".qb-practice-misses");
  const missed = !!(onlyMisses && onlyMisses.checked);
  // a review session (<locale>/review/): assets/review.js draws the due questions, in order
  const reviewing = box.hasAttribute("data-review");
  const stubs = reviewing ? reviewPart().then((part) => part.draw(box, missed))
    : listed(box.getAttribute("data-locale"), box.getAttribute("data-field"), key)
      .then((questions) => ({ questions }));
  let empty = "";
  stubs.then(data => {
    const limit = Math.max(1, parseInt(box.querySelector(".qb-practice-count").value, 10) || 20);
    // ?topics=a,b (the match page): only those topics of the field, when they have any
    const ticked = [...box.querySelectorAll(".qb-practice-topic:checked")].map((c) => c.value);
    const only = ticked.length ? ticked : (new URLSearchParams(location.search).get("topics") || "").split(",");
    let pool = (data.questions || []).filter(q => only.includes(q.topic.split("/")[1]));
    if (!pool.length) pool = data.questions || [];
    if (missed && !reviewing) {
      const p = progress();
      pool = pool.filter(q => isMiss(p[q.id]));
    }
    empty = data.empty || (missed ? "noMisses" : "none");
    // the texts of the questions drawn only (lib/draw.js: from as few pages as hold them)
    return texts(reviewing ? pool.slice(0, limit) : draw(pool, limit));
  }).then(drawn => {
    if (!drawn.length) {
      status.textContent = t(empty);
      return;
    }
    const limitInput = box.querySelector(".qb-practice-limit");
    const minutes = Math.max(0, Math.min(600, parseInt(limitInput ? limitInput.value : "0", 10) || 0));
    if ((Number(load(TIMER).limit) || 0) !== minutes) update(TIMER, (settings) => ({ ...settings, limit: minutes }));
    const modeSelect = box.querySelector(".qb-practice-mode");
    run({ box, level: key, levelName, items: drawn, i: 0, mode: modeSelect ? modeSelect.value : "interview",
      results: [], answers: [], flags: [], started: Date.now(), clock: timer.started(Date.now(), minutes),
      timer: null, focus: true });
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
  const exam = session.mode === "exam";
  if (exam) stage.appendChild(examList(session));
  const card = h("div", { class: "qb-q qb-practice-q", "data-pid": item.id, "data-kind": item.kind,
    tabindex: "-1", "aria-labelledby": idFor(head.firstChild) });
  card.setAttribute("data-qb-ready", "");
  const prompt = h("div", { class: "qb-prompt" });
  prompt.appendChild(fragment(item.prompt));
  card.appendChild(prompt);
  if (item.hint) {
    const hint = h("details", { class: "qb-hint" });
    hint.appendChild(h("summary", null, t("hint")));
    const text = h("div", { class: "qb-hint-text" });
    text.appendChild(fragment(item.hint));
    hint.appendChild(text);
    card.appendChild(hint);
  }
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
      const badge = h("span", { class: "qb-key" }, o.key);
      if (!multi) control.appendChild(badge);
      li.appendChild(control);
      if (multi) li.appendChild(badge);
      li.appendChild(text);
      nameOption(control, [multi ? badge : control, text]);
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
  if (exam) {
    const flagged = Boolean(session.flags[session.i]);
    if (session.i > 0) actions.appendChild(h("button", { type: "button", class: "qb-exam-prev" }, t("previous")));
    if (!last) actions.appendChild(h("button", { type: "button", class: "qb-exam-next" }, t("next")));
    actions.appendChild(h("button", { type: "button", class: "qb-exam-flag", "aria-pressed": String(flagged) },
      t("flag")));
    restoreAnswer(session, card);
  } else {
    if (item.kind === "choice") {
      // (a review session checks each card before moving on: reviewFeedback)
      const label = session.box.hasAttribute("data-review") ? t("check") : last ? t("finish") : t("next");
      actions.appendChild(h("button", { type: "button", class: "qb-practice-answer" }, label));
    }
    actions.appendChild(h("button", { type: "button", class: "qb-practice-skip" }, t("skip")));
  }
  stage.appendChild(actions);
  tick(session);
  // the next question's first control the reader can reach (an open question's rating stays
  // hidden until its model answer is shown: then the card itself, never <body>)
  const first = [...card.querySelectorAll("button, input")].find((e) => e.getClientRects().length);
  if (session.focus) {
    session.focus = false;
    card.focus(); // Start: the reader lands on the first question
  } else if (session.i > 0) (first || card).focus();
}

/* -- the exam: a list of the questions (answered, flagged, this one), answers kept per
 * question until "Hand in" ------------------------------------------------------------- */
function examList(session) {
  const nav = h("nav", { class: "qb-exam-list", "aria-label": t("examList") });
  const ol = h("ol");
  session.items.forEach((item, n) => {
    const answer = session.answers[n];
    const done = Boolean(answer && (answer.s || (answer.chosen && answer.chosen.length)));
    const states = [done ? t("examAnswered") : t("examOpen")];
    if (session.flags[n]) states.push(t("flagged"));
    const go = h("button", { type: "button", class: "qb-exam-go", "data-n": String(n),
      "data-done": done ? "1" : "0", "data-flagged": session.flags[n] ? "1" : "0",
      "aria-label": `${t("question")}${n + 1} (${states.join(t("sep"))})` }, String(n + 1));
    if (n === session.i) go.setAttribute("aria-current", "step");
    const li = h("li");
    li.appendChild(go);
    ol.appendChild(li);
  });
  nav.appendChild(ol);
  const count = session.answers.filter((a) => a && (a.s || (a.chosen && a.chosen.length))).length;
  nav.appendChild(h("p", { class: "qb-exam-count" }, fill(t("examCount"), { n: count, total: session.items.length })));
  return nav;
}
function chosenIn(card) {
  const chosen = [];
  card.querySelectorAll(".qb-check:checked").forEach(b => { chosen.push(b.value); });
  card.querySelectorAll('.qb-pick[aria-pressed="true"]').forEach(b => { chosen.push(b.getAttribute("data-key")); });
  return chosen;
}
function keepAnswer(session) {
  const card = session.box.querySelector(".qb-practice-q");
  if (!card) return;
  const rated = card.querySelector('.qb-rate-btn[aria-pressed="true"]');
  const hinted = Boolean(card.querySelector("details.qb-hint[open]")) || Boolean((session.answers[session.i] || {}).h);
  session.answers[session.i] = rated ? { s: rated.getAttribute("data-rate"), h: hinted }
    : { chosen: chosenIn(card), h: hinted };
}
function restoreAnswer(session, card) {
  const answer = session.answers[session.i];
  if (!answer) return;
  for (const key of answer.chosen || []) {
    const li = card.querySelector(`.qb-option[data-key="${CSS.escape(key)}"]`);
    if (!li) continue;
    const pick = li.querySelector(".qb-pick");
    const check = li.querySelector(".qb-check");
    if (pick) {
      pick.setAttribute("aria-pressed", "true");
      li.classList.add("qb-chosen");
    }
    if (check) check.checked = true;
  }
  if (answer.s) {
    card.querySelector(".qb-model-answer").hidden = false;
    card.querySelector(".qb-rate").hidden = false;
    const show = session.box.querySelector(".qb-show-model");
    if (show) show.remove();
    const button = card.querySelector(`.qb-rate-btn[data-rate="${CSS.escape(answer.s)}"]`);
    if (button) button.setAttribute("aria-pressed", "true");
  }
}
function go(session, n) {
  keepAnswer(session);
  session.i = Math.max(0, Math.min(session.items.length - 1, n));
  showItem(session);
  keepSession(session);
  const card = session.box.querySelector(".qb-practice-q");
  if (card) card.focus();
}

/* Ends the session and scores it: in an exam every kept answer is stored now (a first
 * attempt where the question had none), unanswered ones count as skipped; a mock interview
 * ended early counts the questions not reached as skipped. `reason` "timeUp" says the clock
 * ran out. */
function handIn(session, reason) {
  if (session.mode === "exam") {
    keepAnswer(session);
    session.results = session.items.map((item, n) => {
      const answer = session.answers[n] || {};
      const hint = answer.h ? { h: 1 } : {};
      if (answer.s) {
        practiceRecord(session, item, { s: answer.s, ...hint });
        return { item, chosen: [], status: answer.s };
      }
      const chosen = answer.chosen || [];
      if (!chosen.length) return { item, chosen, status: "skipped" };
      const ok = chosen.slice().sort().join(" ") === item.answer.slice().sort().join(" ");
      practiceRecord(session, item, { r: ok ? 1 : 0, ...hint });
      return { item, chosen, status: ok ? "right" : "wrong" };
    });
  } else {
    for (let n = session.i; n < session.items.length; n++) {
      session.results.push({ item: session.items[n], chosen: [], status: "skipped" });
    }
  }
  session.i = session.items.length;
  finish(session, reason);
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
  const hinted = card.querySelector("details.qb-hint[open]") ? { h: 1 } : {};
  const stored = practiceRecord(session, item, { r: ok ? 1 : 0, ...hinted });
  session.results.push({ item, chosen, status: ok ? "right" : "wrong" });
  if (session.box.hasAttribute("data-review")) reviewFeedback(session, card, chosen, ok, stored);
  else advance(session);
}
/* A review session says at once whether the reader knew the card: their option and the right
 * one marked, right or wrong in words, the explanation and when the card comes back; then
 * "Next" moves on. (A mock interview keeps all of it for the end, as an interview does.) */
function reviewFeedback(session, card, chosen, ok, stored) {
  const item = session.items[session.i];
  card.setAttribute("data-checked", ok ? "right" : "wrong");
  card.querySelectorAll(".qb-option").forEach((li) => {
    const key = li.getAttribute("data-key");
    const right = item.answer.includes(key);
    const mine = chosen.includes(key);
    li.classList.toggle("qb-right", right && mine);
    li.classList.toggle("qb-wrong", mine && !right);
    li.classList.toggle("qb-missed", right && !mine);
    if (right || mine) {
      li.appendChild(h("span", { class: "qb-note" }, mine ? t("yours") : t("rightOpt")));
    }
  });
  card.querySelectorAll(".qb-pick, .qb-check").forEach((control) => control.setAttribute("aria-disabled", "true"));
  const wrong = `✗ ${t(item.answer.length > 1 ? "wrongMulti" : "wrong")}${item.answer.join(t("sep"))}`;
  const note = h("p", { class: "qb-feedback qb-review-feedback", "data-state": ok ? "right" : "wrong",
    role: "status" }, ok ? `✓ ${t("right")}` : wrong);
  card.appendChild(note);
  if (item.explanation) {
    const ex = h("div", { class: "qb-explanation" });
    ex.appendChild(fragment(item.explanation));
    card.appendChild(ex);
  }
  Promise.resolve(stored).then(() => {
    const wait = review && review.dueIn(item.id);
    if (wait > 0) note.append(` · ${wait === 1 ? t("reviewNextOne") : fill(t("reviewNext"), { n: wait })}`);
  });
  const actions = session.box.querySelector(".qb-practice-actions");
  const last = session.i === session.items.length - 1;
  const next = h("button", { type: "button", class: "qb-review-next" }, last ? t("finish") : t("next"));
  actions.replaceChildren(next);
  next.focus();
}
function practiceRate(session, value) {
  const item = session.items[session.i];
  const card = session.box.querySelector(".qb-practice-q");
  const hinted = card && card.querySelector("details.qb-hint[open]") && value !== "no" ? { h: 1 } : {};
  practiceRecord(session, item, { s: value, ...hinted });
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

function finish(session, reason) {
  clearInterval(session.timer);
  const box = session.box;
  dropSession(box);
  const seconds = Math.round(timer.elapsed(session.clock || timer.started(session.started), Date.now()) / 1000);
  const { score, total } = scoreOf(session.results);
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
  if (reason === "timeUp") summary.appendChild(h("p", { class: "qb-summary-note" }, t("timeUp")));
  summary.appendChild(topicTable(box, session.results));
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

/* The score per topic, weakest first, each topic's name as the page knows it. */
function topicTable(box, results) {
  let names = {};
  try {
    names = JSON.parse(box.getAttribute("data-topic-names") || "{}") || {};
  } catch (error) {
    names = {};
  }
  const table = h("table", { class: "qb-topic-scores" });
  table.appendChild(h("caption", null, t("topicScores")));
  const head = h("tr");
  head.append(h("th", { scope: "col" }, t("topic")), h("th", { scope: "col" }, t("score")));
  const thead = h("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = h("tbody");
  for (const row of byTopic(results, true)) {
    const tr = h("tr", { "data-topic": row.topic });
    tr.append(h("th", { scope: "row" }, names[row.topic.split("/")[1]] || row.topic.split("/")[1]),
      h("td", null, `${row.score} / ${row.total}`));
    body.appendChild(tr);
  }
  table.appendChild(body);
  return table;
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
  if (clockClick(session, target)) return;
  const card = box.querySelector(".qb-practice-q");
  if (session.mode === "exam") {
    const goTo = target.closest(".qb-exam-go");
    if (goTo) return go(session, Number(goTo.getAttribute("data-n")));
    if (target.closest(".qb-exam-prev")) return go(session, session.i - 1);
    if (target.closest(".qb-exam-next")) return go(session, session.i + 1);
    const flag = target.closest(".qb-exam-flag");
    if (flag) {
      session.flags[session.i] = !session.flags[session.i];
      flag.setAttribute("aria-pressed", String(session.flags[session.i]));
      keepAnswer(session);
      box.querySelector(".qb-exam-list").replaceWith(examList(session));
      keepSession(session);
      return;
    }
    const rated = target.closest(".qb-rate-btn");
    if (rated) {
      card.querySelectorAll(".qb-rate-btn").forEach((b) => b.setAttribute("aria-pressed", String(b === rated)));
      keepAnswer(session);
      box.querySelector(".qb-exam-list").replaceWith(examList(session));
      keepSession(session);
      return;
    }
  }
  if (target.closest(".qb-review-next")) return advance(session);
  if (card && card.hasAttribute("data-checked")) return; // (a checked review card stays as it is)
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
  if (session.mode === "exam") {
    keepAnswer(session);
    box.querySelector(".qb-exam-list").replaceWith(examList(session));
    keepSession(session);
  }
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
