/* qbank review queue (spaced repetition): loaded by the home page, the field pages and the
 * review page (<locale>/review/) only, never by a topic page.
 *
 * Schedule: Leitner boxes (DESIGN.md, "Review queue"). Every answered question sits in a box
 * 1..6 and comes back DAYS[box - 1] days (1, 2, 4, 8, 16, 32) after the local day of its last
 * answer. A right answer (or "I knew it") moves it up one box, a wrong one (or "I didn't
 * know") back to box 1, "Partly" keeps it where it is; a first answer starts from box 1.
 * The schedule is derived, never stored for topic pages: the first answer and the latest
 * retry of localStorage "qbank:v1:progress" (written by qbank.js) give a question its box;
 * review sessions write their own records to "qbank:v1:review" =
 * {<question id>: {t: "field/topic", b: box, r: 1|0 or s: "know"|"partly"|"no", n: reviews,
 * ts: ms of the last review}}, so the progress figures keep counting first attempts only.
 * Of the two, the newer one (ts, rts) sets the box. Unreadable stored review data is copied to
 * "qbank:v1:review:damaged:<ms>" before anything is written, never lost.
 *
 * A ".qb-due" box (home and field pages) shows "N due today" with links into the review page;
 * the review page runs its session in practice.js's interface (a ".qb-practice" box with
 * data-review): practice.js asks window.qbankReview.draw() for the questions and sends each answer
 * back as a "qbank:review" event. Question texts come from the practice JSON files
 * (<locale>/api/practice/<field>/<seniority>.json). Material's instant navigation runs this
 * script again on each page that loads it: listeners are added once, the page work each time.
 */
(() => {
  "use strict";

  const PROGRESS = "qbank:v1:progress";
  const KEY = "qbank:v1:review";
  const DAYS = [1, 2, 4, 8, 16, 32]; // box n waits DAYS[n - 1] days
  const DAY = 86400000;
  const RATED = { know: 1, partly: 0.5, no: 0 };
  let elsewhere = 0; // questions the last draw left out (not in this locale or seniority)

  const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  // Interface text through qbank.js's t() (loaded on every page, before DOMContentLoaded).
  function text(key, n) {
    return String(window.qbankText ? window.qbankText(key) : key).replace("{n}", String(n));
  }

  function readObject(key) {
    let raw = null;
    try {
      raw = localStorage.getItem(key);
      const value = raw ? JSON.parse(raw) : {};
      if (plain(value)) return { value, raw: null };
    } catch (error) {
      // fall through: unreadable (or storage denied, then raw is null)
    }
    return { value: {}, raw };
  }

  // The review records; an unreadable entry is copied aside before the first write.
  function reviews() {
    return readObject(KEY).value;
  }
  function saveReviews(change) {
    const read = readObject(KEY);
    try {
      if (read.raw !== null) localStorage.setItem(`${KEY}:damaged:${Date.now()}`, read.raw);
      localStorage.setItem(KEY, JSON.stringify(change(read.value)));
    } catch (error) {
      // storage full or off: the review is not kept, as qbank.js's notice says for progress
    }
  }

  // -- the schedule ----------------------------------------------------------------------
  // The local calendar day of a time (ms): "today" turns at the reader's midnight.
  function day(ms) {
    return Math.floor((ms - new Date(ms).getTimezoneOffset() * 60000) / DAY);
  }
  // One answer's grade: 1 right / knew it, 0 wrong / didn't know, 0.5 partly; else undefined.
  function grade(r) {
    if (r.s !== undefined) return RATED[r.s];
    return r.r === 0 || r.r === 1 ? r.r : undefined;
  }
  function step(box, g) {
    if (g === 1) return Math.min(box + 1, DAYS.length);
    return g === 0 ? 1 : box;
  }

  /* A question's place in the queue from its progress record `a` and review record `v`:
   * {id, t: "field/topic", box, g: latest grade, ts: last answer, due: local day}, or null
   * for a question never answered. */
  function schedule(id, a, v) {
    let s = null;
    if (plain(a) && typeof a.t === "string" && grade(a) !== undefined) {
      s = { id, t: a.t, box: step(1, grade(a)), g: grade(a), ts: Number(a.ts) || 0 };
    }
    const reviewed = plain(v) && typeof v.t === "string" && Number.isInteger(v.b) &&
      v.b >= 1 && v.b <= DAYS.length && typeof v.ts === "number" && grade(v) !== undefined;
    if (reviewed && (!s || v.ts >= s.ts)) s = { id, t: v.t, box: v.b, g: grade(v), ts: v.ts };
    if (s && plain(a) && (a.rr === 0 || a.rr === 1) && typeof a.rts === "number" && a.rts > s.ts) {
      s = { id, t: s.t, box: step(s.box, a.rr), g: a.rr, ts: a.rts }; // a retry on a topic page
    }
    if (s) s.due = day(s.ts) + DAYS[s.box - 1];
    return s;
  }

  /* Every scheduled question in `scope` ({fields: [..]}, {field}, {field, topic}), most
   * overdue first. */
  function scheduled(scope) {
    const progress = readObject(PROGRESS).value;
    const stored = reviews();
    const ids = new Set([...Object.keys(progress), ...Object.keys(stored)]);
    const inScope = (t) => {
      const field = t.split("/")[0];
      if (scope.fields) return scope.fields.includes(field);
      if (scope.topic) return t === scope.topic;
      return !scope.field || field === scope.field;
    };
    const list = [];
    for (const id of ids) {
      if (id === "__proto__") continue;
      const s = schedule(id, progress[id], stored[id]);
      if (s && inScope(s.t)) list.push(s);
    }
    return list.sort((a, b) => a.due - b.due || a.ts - b.ts || (a.id < b.id ? -1 : 1));
  }

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
  function fill(node) {
    const here = node.hasAttribute("data-here");
    let scope = { field: node.dataset.field || "" };
    if (here) scope = pageScope();
    else if (node.dataset.fields !== undefined) scope = { fields: node.dataset.fields.split(" ") };
    const list = scheduled(scope);
    node.replaceChildren();
    if (!list.length) {
      node.hidden = !here;
      if (here) node.append(element("p", { class: "qb-due__none" }, text("reviewEmpty")));
      return;
    }
    const today = day(Date.now());
    const due = list.filter((s) => s.due <= today).length;
    const missed = list.filter((s) => s.g === 0).length;
    const line = element("p", { class: "qb-due__line" });
    line.append(element("strong", { class: "qb-due__count", "data-due": String(due) },
      due ? text("reviewDue", due) : text("reviewNoneDue")));
    if (!due) {
      const wait = list[0].due - today;
      line.append(" · ", element("span", { class: "qb-due__next" },
        wait === 1 ? text("reviewNextOne") : text("reviewNext", wait)));
    }
    node.append(line);
    if (!here) {
      const query = (extra) => {
        const params = new URLSearchParams(extra);
        if (scope.field) params.set("field", scope.field);
        const q = params.toString();
        return new URL(node.dataset.review + (q ? `?${q}` : ""), location.href).href;
      };
      const links = element("p", { class: "qb-due__links" });
      if (due) {
        links.append(element("a", { class: "qb-due__start md-button md-button--primary", href: query({}) },
          text("reviewNow")));
      }
      if (missed) {
        if (due) links.append(" ");
        links.append(element("a", { class: "qb-due__misses md-button", href: query({ misses: "1" }) },
          text("reviewMisses", missed)));
      }
      if (links.childNodes.length) node.append(links);
    } else {
      if (missed) node.append(element("p", { class: "qb-due__missed" }, text("reviewMissed", missed)));
      if (elsewhere) node.append(element("p", { class: "qb-due__elsewhere" }, text("reviewElsewhere", elsewhere)));
    }
    node.hidden = false;
  }

  function fillAll() {
    for (const node of document.querySelectorAll(".qb-due")) fill(node);
  }

  function element(tag, attributes, content) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    if (content !== undefined) node.textContent = content;
    return node;
  }

  // -- a review session (practice.js runs it) --------------------------------------------
  const files = new Map(); // URL → Promise of a practice JSON

  function practiceFile(url) {
    if (!files.has(url)) {
      const ready = fetch(url).then((r) => {
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        return r.json();
      });
      ready.catch(() => files.delete(url));
      files.set(url, ready);
    }
    return files.get(url);
  }

  /* The questions of this session, in queue order: those due today (or, with `missed`, those
   * whose latest answer was wrong) in the page's scope, at its seniority when one is chosen,
   * with their texts in the page's locale. */
  function draw(box, missed) {
    const today = day(Date.now());
    const picked = scheduled(pageScope()).filter((s) => (missed ? s.g === 0 : s.due <= today));
    if (!picked.length) {
      return Promise.resolve({ questions: [], empty: missed ? "reviewNoMisses" : "reviewNothing" });
    }
    const locale = box.dataset.locale;
    const root = new URL(box.dataset.root || "../../", location.href);
    const levels = levelChoice() ? [levelChoice()] : (box.dataset.levels || "").split(" ");
    const fields = [...new Set(picked.map((s) => s.t.split("/")[0]))];
    const urls = fields.flatMap((f) => levels.map((l) => new URL(
      `${locale}/api/practice/${encodeURIComponent(f)}/${encodeURIComponent(l)}.json`, root).href));
    return Promise.all(urls.map(practiceFile)).then((data) => {
      const byId = new Map();
      for (const file of data) for (const q of file.questions || []) byId.set(q.id, q);
      const questions = picked.map((s) => byId.get(s.id)).filter(Boolean);
      elsewhere = questions.length ? picked.length - questions.length : 0;
      fillAll();
      return { questions, empty: "reviewNotHere" };
    });
  }

  /* One answer of a review session: the question moves box from where its schedule put it. */
  function reviewed(event) {
    const { id, topic, result } = event.detail || {};
    if (typeof id !== "string" || id === "__proto__" || !plain(result)) return;
    const g = grade(result);
    if (g === undefined) return;
    saveReviews((stored) => {
      const before = schedule(id, readObject(PROGRESS).value[id], stored[id]);
      const old = plain(stored[id]) ? stored[id] : {};
      const record = { ...old, t: topic, b: step(before ? before.box : 1, g), n: (Number(old.n) || 0) + 1,
        ts: Date.now() };
      delete record.r;
      delete record.s;
      if (result.s !== undefined) record.s = result.s;
      else record.r = result.r;
      stored[id] = record;
      return stored;
    });
    fillAll();
  }

  function setup() {
    setScope();
    fillAll();
  }

  if (!window.qbankReview) {
    window.qbankReview = { draw };
    document.addEventListener("qbank:review", reviewed);
    document.addEventListener("change", (e) => {
      const target = e.target;
      if (target instanceof Element && target.closest(".qb-review-field, .qb-review-topic")) {
        scopeChanged(target);
      } else if (target instanceof Element && target.closest(".qb-practice[data-review] .qb-practice-level")) {
        scopeChanged(target);
      }
    });
    window.addEventListener("storage", (e) => {
      if (e.key === null || e.key === KEY || e.key === PROGRESS) fillAll();
    });
    window.addEventListener("pageshow", fillAll); // back from a topic page: answers moved on
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
