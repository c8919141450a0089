/* qbank widget: reveal answers, progress and filters (the mock interview: assets/practice.js).
 * Progressive enhancement of the question HTML in DESIGN.md; without JavaScript the
 * native <details> still reveal every answer. One delegated listener on `document`
 * survives Material's instant navigation; per-page work runs on `document$`.
 * Interface strings only ever go through textContent; question HTML (already sanitized
 * at build time) is parsed with DOMParser and adopted, never assigned to innerHTML. */
(function () {
  "use strict";
  if (window.__qbank) return;
  window.__qbank = true;

  /* Interface text of the page's locale (site_templates/strings/<locale>.yaml, "widget";
   * keys the locale leaves out are English): a JSON data block the header writes, not script.
   * Without it (a page qbank's header did not write) a key stands for itself. */
  var STRINGS = {};
  var stringsNode = null;
  function t(key) {
    var node = document.getElementById("qbank-strings");
    if (node !== stringsNode) {
      stringsNode = node;
      try {
        STRINGS = node ? JSON.parse(node.textContent) || {} : {};
      } catch (e) {
        STRINGS = {};
      }
    }
    return key in STRINGS ? STRINGS[key] : key;
  }
  window.qbankText = t; // for the lazy assets (review.js)

  /* ---------------------------------------------------------------- storage */
  var PROGRESS = "qbank:v1:progress";
  var HISTORY = "qbank:v1:practice";
  /* Each key is read from localStorage once, checked, and kept here; writes go to both.
   * Another tab's write (a "storage" event) drops the kept copy. */
  var memory = {};
  var memoryOnly = false; // storage cannot be read at all (denied): memory only
  var noWrite = {}; // keys never written: a damaged entry that could not be set aside
  var unsaved = {}; // keys whose last write failed: memory holds the newer value
  /* Set aside this page view: { key: { aside: "<key>:damaged:<ms>" or null, raw: text } } */
  var damaged = {};
  /* Answered during this page view: "hide answered" leaves them until the filter changes,
   * so the reader still sees the feedback and the explanation. */
  var fresh = {};

  function plain(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }
  var RATINGS = { know: 1, partly: 1, no: 1 };
  /* What a stored value's readable part is, and whether that is all of it (DESIGN.md,
   * "Widget hooks"). Records may carry fields this version does not know. */
  var SHAPES = {};
  SHAPES[PROGRESS] = function (value) {
    var readable = {};
    if (!plain(value)) return { value: readable, whole: false };
    var whole = true;
    Object.keys(value).forEach(function (id) {
      var r = value[id];
      var ok = id !== "__proto__" && plain(r) && typeof r.t === "string" &&
        (r.r === undefined || r.r === 0 || r.r === 1) &&
        (r.s === undefined || RATINGS.hasOwnProperty(r.s)) &&
        (r.ts === undefined || typeof r.ts === "number");
      if (ok) readable[id] = r;
      else whole = false;
    });
    return { value: readable, whole: whole };
  };
  SHAPES[HISTORY] = function (value) {
    if (!Array.isArray(value)) return { value: [], whole: false };
    var readable = value.filter(function (h) {
      return plain(h) && typeof h.field === "string" && typeof h.ts === "number";
    });
    return { value: readable, whole: readable.length === value.length };
  };

  function load(key, fallback) {
    if (key in memory) return memory[key];
    var value = fallback;
    var raw = null;
    if (!memoryOnly) {
      try {
        raw = window.localStorage.getItem(key);
      } catch (e) {
        memoryOnly = true; // private mode or storage denied: keep going in memory
      }
    }
    if (raw) value = readStored(key, raw, fallback);
    memory[key] = value;
    return value;
  }
  /* A stored text → its readable value; an unreadable entry is set aside, never deleted. */
  function readStored(key, raw, fallback) {
    var result;
    try {
      result = SHAPES[key](JSON.parse(raw));
    } catch (e) {
      result = { value: fallback, whole: false }; // not JSON (cut short, hand-edited, ...)
    }
    if (result.whole) return result.value;
    damaged[key] = { aside: setAside(key, raw), raw: raw };
    if (damaged[key].aside) write(key, result.value); // the key now holds what was readable
    storageNotice("damaged");
    return result.value;
  }
  /* Copy `raw` to "<key>:damaged:<ms>"; with no room for a copy, move it there (removing
   * the original frees more room than the copy needs), but only once an empty write under
   * the new key has shown that writing works at all. Otherwise the entry stays where it is
   * and the key is not written this page view. Returns the new key, or null. */
  function setAside(key, raw) {
    var aside = key + ":damaged:" + Date.now();
    var store = window.localStorage;
    try {
      store.setItem(aside, raw);
      return aside;
    } catch (e) { /* no room for a copy */ }
    try {
      store.setItem(aside, "");
    } catch (e) {
      noWrite[key] = true;
      storageNotice("full");
      return null;
    }
    try {
      store.removeItem(key);
      store.setItem(aside, raw);
      return aside;
    } catch (e) {
      try {
        store.removeItem(aside);
        store.setItem(key, raw);
      } catch (e2) { /* the text is still in `damaged`, for the download */ }
      noWrite[key] = true;
      storageNotice("full");
      return null;
    }
  }
  function save(key, value) {
    memory[key] = value;
    write(key, value);
  }
  function write(key, value) {
    if (memoryOnly || noWrite[key]) return;
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
      delete unsaved[key];
    } catch (e) {
      unsaved[key] = true; // keep going in memory; the next write tries again
      if (quotaError(e)) storageNotice("full");
    }
  }
  function quotaError(e) {
    return !!e && (e.name === "QuotaExceededError" || e.name === "NS_ERROR_DOM_QUOTA_REACHED" ||
      e.code === 22 || e.code === 1014);
  }
  window.addEventListener("storage", function (e) {
    if (memoryOnly) return;
    if (e.key === null) memory = {};
    else if (!noWrite[e.key] && !unsaved[e.key]) delete memory[e.key];
  });
  function progress() {
    return load(PROGRESS, {});
  }

  /* ---------------------------------------------------------------- storage version */
  /* The study state's schema (DESIGN.md, "Study state"): META {"schema": n}, none = 1.
   * MIGRATIONS[n] turns a state {name: value} of schema n into one of n + 1; run once on
   * start here, and on imported files by assets/transfer.js. A newer schema is left alone. */
  var META = "qbank:v1:meta";
  var SCHEMA = 1;
  var MIGRATIONS = {};
  function migrate(state, from) {
    for (var n = from; n < SCHEMA; n++) state = MIGRATIONS[n](state);
    return state;
  }
  function migrateStorage() {
    var store, schema = 1;
    try {
      store = window.localStorage;
      var meta = JSON.parse(store.getItem(META) || "null");
      if (plain(meta) && typeof meta.schema === "number") schema = meta.schema;
      if (meta && schema >= SCHEMA) return;
      if (schema < SCHEMA) {
        var state = {};
        Object.keys(store).forEach(function (key) {
          var name = /^qbank:v1:([^:]+)$/.exec(key);
          if (!name || key === META) return;
          try {
            state[name[1]] = JSON.parse(store.getItem(key));
          } catch (e) { /* unreadable: the key's own check sets it aside */ }
        });
        state = migrate(state, schema);
        Object.keys(state).forEach(function (name) {
          store.setItem("qbank:v1:" + name, JSON.stringify(state[name]));
        });
      }
      store.setItem(META, JSON.stringify({ schema: SCHEMA }));
    } catch (e) { /* storage off or full: the keys' own checks deal with it */ }
  }
  migrateStorage();
  /* For assets/transfer.js; reread: drop the copy of a key written behind our back. */
  window.qbankStorage = {
    schema: SCHEMA,
    migrate: migrate,
    check: function (key, value) { return SHAPES[key] ? SHAPES[key](value) : null; },
    reread: function (key) { delete memory[key]; delete unsaved[key]; }
  };

  /* A choice question's first answer is what counts (r, ts): a later attempt (after the
   * right option was shown, or on another day) is kept apart as the latest retry (rr: 1|0,
   * rts), so progress cannot be inflated by clicking the option the page just revealed.
   * Returns true when this answer was a retry. A rating (s) is a self-assessment and is
   * simply replaced. */
  function record(id, topic, fields) {
    fresh[id] = true;
    var p = progress();
    var old = p[id];
    if ("r" in fields && old && (old.r === 0 || old.r === 1)) {
      old.rr = fields.r;
      old.rts = Date.now();
      save(PROGRESS, p);
      return true;
    }
    var r = { t: topic, ts: Date.now() };
    for (var k in fields) r[k] = fields[k];
    p[id] = r;
    save(PROGRESS, p);
    return false;
  }
  /* A miss: a choice question whose latest answer was wrong, or an open one rated "no". */
  function isMiss(r) {
    if (!r) return false;
    if (r.s) return r.s === "no";
    return ("rr" in r ? r.rr : r.r) === 0;
  }
  function forget(ids) {
    var p = progress();
    ids.forEach(function (id) { delete p[id]; });
    save(PROGRESS, p);
  }

  /* ---------------------------------------------------------------- storage notice */
  /* A short notice at the foot of the window when stored progress was unreadable (and set
   * aside) or cannot be saved (storage full), with a download of everything the widget
   * holds. It sits outside Material's content, so instant navigation keeps it. */
  var noticed = {};
  function storageNotice(kind) {
    if (!document.body) {
      document.addEventListener("DOMContentLoaded", function () { storageNotice(kind); });
      return;
    }
    if (noticed[kind]) return; // once per page view, even after the reader closed it
    noticed[kind] = true;
    var box = el("div", { class: "qb-storage-notice", role: "alert", "data-kind": kind });
    box.appendChild(el("p", null, t(kind === "full" ? "storageFull" : "storageDamaged")));
    var download = el("button", { type: "button", class: "qb-storage-export" }, t("storageExport"));
    download.addEventListener("click", exportStorage);
    var close = el("button", { type: "button", class: "qb-storage-close", title: t("storageClose"),
      "aria-label": t("storageClose") }, "×");
    close.addEventListener("click", function () { box.remove(); });
    box.appendChild(download);
    box.appendChild(close);
    var stack = document.querySelector(".qb-storage-notices");
    if (!stack) {
      stack = el("div", { class: "qb-storage-notices" });
      document.body.appendChild(stack);
    }
    stack.appendChild(box);
  }
  /* Downloads qbank-progress-<date>.json: what could be read of each key, and the text of
   * every entry set aside with the key it was kept under. */
  function exportStorage() {
    var data = { exported: new Date().toISOString(), site: location.origin, readable: {},
      setAside: {} };
    [PROGRESS, HISTORY].forEach(function (key) { data.readable[key] = load(key, null); });
    Object.keys(damaged).forEach(function (key) {
      data.setAside[key] = { keptAs: damaged[key].aside, text: damaged[key].raw };
    });
    var url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)],
      { type: "application/json" }));
    var a = el("a", { href: url, download: "qbank-progress-" +
      data.exported.slice(0, 10) + ".json", hidden: "" });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }

  /* ---------------------------------------------------------------- DOM helpers */
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text != null) node.textContent = text;
    return node;
  }
  var SAFE_DROP = "script,style,iframe,object,embed,form,link,meta,base";
  /* Question HTML from the practice JSON: sanitized by the build; parsed inertly here and
   * checked once more so a hand-edited JSON cannot run script. */
  function fragment(html) {
    var doc = new DOMParser().parseFromString("<body>" + (html || ""), "text/html");
    doc.body.querySelectorAll(SAFE_DROP).forEach(function (n) { n.remove(); });
    doc.body.querySelectorAll("*").forEach(function (n) {
      Array.prototype.slice.call(n.attributes).forEach(function (a) {
        var v = a.value.replace(/\s+/g, "").toLowerCase();
        if (/^on/i.test(a.name) || /^(javascript|data|vbscript):/.test(v)) n.removeAttribute(a.name);
      });
    });
    var frag = document.createDocumentFragment();
    while (doc.body.firstChild) frag.appendChild(document.adoptNode(doc.body.firstChild));
    return frag;
  }
  function keysOf(q) {
    return (q.getAttribute("data-answer") || "").split(/\s+/).filter(Boolean);
  }
  function optionText(li) {
    var text = li.querySelector(".qb-option-text");
    return text ? text.textContent.trim() : "";
  }
  var uid = 0;
  function idFor(node) {
    if (!node.id) node.id = "qb-" + ++uid + "-" + Math.random().toString(36).slice(2, 7);
    return node.id;
  }
  function openAnswer(q) {
    var details = q.querySelector("details.qb-answer");
    if (details) details.open = true;
  }

  /* ---------------------------------------------------------------- the question widget */
  function enhance(q, p) {
    if (q.hasAttribute("data-qb-ready")) return;
    q.setAttribute("data-qb-ready", "");
    var feedback = el("p", { class: "qb-feedback", role: "status", "aria-live": "polite" });
    if (q.getAttribute("data-kind") === "choice") {
      var list = q.querySelector(".qb-options");
      if (!list) return;
      var multi = list.getAttribute("data-multi") === "1" || keysOf(q).length > 1;
      list.querySelectorAll(".qb-option").forEach(function (li) {
        var key = li.getAttribute("data-key");
        var text = li.querySelector(".qb-option-text");
        var badge = li.querySelector(".qb-key");
        var control;
        if (multi) {
          control = el("input", { type: "checkbox", class: "qb-check", value: key });
        } else {
          control = el("button", { type: "button", class: "qb-pick", "data-key": key });
          if (badge) control.appendChild(badge);
          else control.textContent = key;
        }
        control.setAttribute("aria-labelledby", idFor(control) + " " + idFor(text || li));
        li.insertBefore(control, li.firstChild);
        if (multi && badge) li.insertBefore(badge, control.nextSibling);
      });
      list.after(feedback);
      if (multi) feedback.before(el("button", { type: "button", class: "qb-check-btn" }, t("check")));
    } else {
      var rate = el("div", { class: "qb-rate", role: "group" });
      var label = el("span", { class: "qb-rate-label" }, t("rate"));
      rate.setAttribute("aria-labelledby", idFor(label));
      rate.appendChild(label);
      ["know", "partly", "no"].forEach(function (s) {
        rate.appendChild(el("button", { type: "button", class: "qb-rate-btn", "data-rate": s,
          "aria-pressed": "false" }, t(s)));
      });
      rate.appendChild(feedback);
      var answer = q.querySelector("details.qb-answer");
      var summary = answer && answer.querySelector("summary");
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
  var watcher = null;
  var pending = [];
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
      var p = progress();
      qs.forEach(function (q) { enhance(q, p); });
      pending = [];
      return;
    }
    watcher = new IntersectionObserver(function (entries) {
      var p = progress();
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        enhance(e.target, p);
        watcher.unobserve(e.target);
      });
    }, { rootMargin: "100% 0px" });
    qs.forEach(function (q) { watcher.observe(q); });
    whenIdle(enhanceSome);
  }
  function whenIdle(fn) {
    if (window.requestIdleCallback) window.requestIdleCallback(fn);
    else setTimeout(fn, 50);
  }
  /* One idle slice: as many questions as fit in the idle time left (at least one). */
  function enhanceSome(deadline) {
    var p = progress();
    var n = 0;
    while (pending.length && (n < 1 || (deadline ? deadline.timeRemaining() > 5 : n < 8))) {
      var q = pending.shift();
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
  function showStatus(q, p) {
    var r = (p || progress())[q.getAttribute("data-qid")];
    q.classList.toggle("qb-done", !!r);
    var meta = q.querySelector(".qb-meta") || q;
    var badge = meta.querySelector(".qb-status");
    if (!r) {
      if (badge) badge.remove();
      q.querySelectorAll(".qb-rate-btn").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      return;
    }
    if (!badge) {
      badge = el("span", { class: "qb-status" });
      meta.appendChild(badge);
    }
    var s = t("status");
    var word = r.s ? s[r.s] : r.r ? s.right : s.wrong;
    badge.textContent = (r.r ? "✓ " : r.s ? "● " : "✗ ") + word;
    badge.setAttribute("data-state", r.s ? "rated" : r.r ? "right" : "wrong");
    q.querySelectorAll(".qb-rate-btn").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-rate") === r.s));
    });
  }

  function mark(li, cls, note) {
    li.classList.add(cls);
    var span = el("span", { class: "qb-note" }, " (" + note + ")");
    li.appendChild(span);
  }

  function clearMarks(q) {
    // only the options' notes: saved.js puts a .qb-note (the reader's note) in questions too
    q.querySelectorAll(".qb-option > .qb-note").forEach(function (n) { n.remove(); });
    q.querySelectorAll(".qb-option").forEach(function (li) {
      li.classList.remove("qb-right", "qb-wrong", "qb-missed", "qb-chosen");
    });
  }

  function pick(q, key) {
    var answer = keysOf(q);
    clearMarks(q);
    var ok = answer.indexOf(key) >= 0;
    q.querySelectorAll(".qb-option").forEach(function (li) {
      var k = li.getAttribute("data-key");
      var isRight = answer.indexOf(k) >= 0;
      if (k === key) li.classList.add("qb-chosen");
      if (isRight) mark(li, "qb-right", k === key ? t("yours") + t("sep") + t("rightOpt") : t("rightOpt"));
      else if (k === key) mark(li, "qb-wrong", t("yours"));
      var b = li.querySelector(".qb-pick");
      if (b) b.setAttribute("aria-pressed", String(k === key));
    });
    conclude(q, ok, answer);
  }

  function check(q) {
    if (!q.querySelector(".qb-check:checked")) { // nothing ticked is no answer: say so
      var note = q.querySelector(".qb-feedback");
      note.setAttribute("data-state", "empty");
      note.textContent = t("tickFirst");
      return;
    }
    var answer = keysOf(q);
    clearMarks(q);
    var ok = true;
    q.querySelectorAll(".qb-option").forEach(function (li) {
      var k = li.getAttribute("data-key");
      var box = li.querySelector(".qb-check");
      var chosen = !!(box && box.checked);
      var isRight = answer.indexOf(k) >= 0;
      if (chosen !== isRight) ok = false;
      if (isRight) mark(li, chosen ? "qb-right" : "qb-missed", t("rightOpt"));
      else if (chosen) mark(li, "qb-wrong", t("yours"));
    });
    conclude(q, ok, answer);
  }

  function conclude(q, ok, answer) {
    var fb = q.querySelector(".qb-feedback");
    fb.setAttribute("data-state", ok ? "right" : "wrong");
    fb.textContent = ok ? "✓ " + t("right")
      : "✗ " + t(answer.length > 1 ? "wrongMulti" : "wrong") + answer.join(t("sep"));
    q.classList.toggle("qb-answered-right", ok);
    q.classList.toggle("qb-answered-wrong", !ok);
    openAnswer(q);
    var retry = q.hasAttribute("data-revealed") ||
      record(q.getAttribute("data-qid"), q.getAttribute("data-topic"), { r: ok ? 1 : 0 });
    if (retry) fb.appendChild(el("span", { class: "qb-retry-note" }, " " + t("retryNote")));
    showStatus(q);
    refreshPage();
  }

  function rate(q, value) {
    q.removeAttribute("data-revealed");
    record(q.getAttribute("data-qid"), q.getAttribute("data-topic"), { s: value });
    var fb = q.querySelector(".qb-feedback");
    fb.textContent = t("rated") + t(value);
    showStatus(q);
    refreshPage();
  }

  /* Opening the answer without answering marks the right option(s) in the list; the
   * summary says "Hide answer" while it is open. */
  function answerToggled(details) {
    var q = details.closest(".qb-q[data-qid]");
    if (q) ready(q);
    var summary = details.querySelector(":scope > summary");
    if (!q || !summary) return;
    if (!summary.hasAttribute("data-label")) summary.setAttribute("data-label", summary.textContent);
    var open = q.getAttribute("data-kind") === "choice" ? t("hideAnswer") : t("hideModel");
    summary.textContent = details.open ? open : summary.getAttribute("data-label");
    if (!details.open || q.getAttribute("data-kind") !== "choice") return;
    if (q.classList.contains("qb-answered-right") || q.classList.contains("qb-answered-wrong")) return;
    if (q.querySelector(".qb-option.qb-right")) return;
    q.setAttribute("data-revealed", "");
    var answer = keysOf(q);
    q.querySelectorAll(".qb-option").forEach(function (li) {
      if (answer.indexOf(li.getAttribute("data-key")) >= 0) mark(li, "qb-right", t("rightOpt"));
    });
  }

  /* ---------------------------------------------------------------- progress bars */
  function bar(done, total, right) {
    var wrap = el("div", { class: "qb-bar-wrap" });
    var meter = el("div", { class: "qb-bar", role: "progressbar", "aria-valuemin": "0",
      "aria-valuemax": String(total), "aria-valuenow": String(done) });
    meter.setAttribute("aria-label", t("progress"));
    var fill = el("span", { class: "qb-bar-fill" });
    fill.style.width = (total ? Math.round((100 * done) / total) : 0) + "%";
    meter.appendChild(fill);
    wrap.appendChild(meter);
    wrap.appendChild(el("span", { class: "qb-count" },
      done + t("ofN") + total + " " + t("answered") + " · " + right + t("rightN")));
    return wrap;
  }

  function scoped(key) {
    var p = progress();
    var ids = [];
    for (var id in p) {
      var topic = (p[id] && p[id].t) || "";
      if (topic === key || topic.indexOf(key + "/") === 0) ids.push(id);
    }
    return ids;
  }

  function fillProgress(box) {
    var key = box.getAttribute("data-key") || "";
    var total = parseInt(box.getAttribute("data-total") || "0", 10);
    var ids = scoped(key);
    var p = progress();
    var right = ids.filter(function (id) { return p[id].r === 1 || p[id].s === "know"; }).length;
    box.textContent = "";
    box.appendChild(bar(Math.min(ids.length, total), total, right));
    if (ids.length) {
      var reset = el("button", { type: "button", class: "qb-reset", "data-reset": key },
        t("resetPage"));
      box.appendChild(reset);
    }
  }

  function pageQuestions() {
    return Array.prototype.slice.call(document.querySelectorAll(".qb-q[data-qid]"));
  }

  function fillPageProgress(box) {
    var qs = pageQuestions();
    var p = progress();
    var done = 0;
    var right = 0;
    // One of a big topic's numbered pages: the bar counts the whole topic.
    var whole = parseInt(box.getAttribute("data-total") || "0", 10);
    var part = whole > qs.length && !!document.querySelector(".qb-pages-top");
    var total = part ? whole : qs.length;
    var ids = part ? scoped(box.getAttribute("data-key") || "") :
      qs.map(function (q) { return q.getAttribute("data-qid"); });
    ids.forEach(function (id) {
      var r = p[id];
      if (r) {
        done++;
        if (r.r === 1 || r.s === "know") right++;
      }
    });
    box.textContent = "";
    box.appendChild(bar(Math.min(done, total), total, right));
    var row = el("div", { class: "qb-reset-row" });
    row.appendChild(el("button", { type: "button", class: "qb-reset", "data-reset": "page" },
      t("resetPage")));
    row.appendChild(el("button", { type: "button", class: "qb-reset", "data-reset": "all" },
      t("resetAll")));
    box.appendChild(row);
  }

  function refreshPage() {
    document.querySelectorAll(".qb-progress[data-key]:not(.qb-page-progress)").forEach(fillProgress);
    var own = document.querySelector(".qb-page-progress");
    if (own) fillPageProgress(own);
    var p = progress();
    document.querySelectorAll(".qb-q[data-qb-ready]").forEach(function (q) { showStatus(q, p); });
    applyFilters();
  }

  /* ---------------------------------------------------------------- filters */
  function filterState() {
    var params = new URLSearchParams(location.search);
    return { level: params.get("level") || "", difficulty: params.get("difficulty") || "",
      hide: params.get("hide") === "answered" };
  }

  function buildTools(qs) {
    var tools = document.querySelector(".qb-tools");
    if (!tools) {
      tools = el("div", { class: "qb-tools" });
      var h1 = document.querySelector(".md-content__inner h1, article h1, main h1");
      if (h1 && h1.parentNode) h1.after(tools);
      else qs[0].before(tools);
    }
    if (tools.hasAttribute("data-qb-ready")) return;
    tools.setAttribute("data-qb-ready", "");
    var names = {};
    try { names = JSON.parse(tools.getAttribute("data-level-names") || "{}"); } catch (e) { names = {}; }
    var levels = [];
    var diffs = [];
    qs.forEach(function (q) {
      (q.getAttribute("data-level") || "").split(/\s+/).forEach(function (l) {
        if (l && levels.indexOf(l) < 0) levels.push(l);
      });
      var d = q.getAttribute("data-difficulty");
      if (d && diffs.indexOf(d) < 0) diffs.push(d);
    });
    var order = Object.keys(names);
    levels.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
    diffs.sort();
    var own = document.querySelector(".qb-progress");
    if (own) own.classList.add("qb-page-progress");
    else tools.appendChild(el("div", { class: "qb-page-progress" }));
    if (qs.length < 2) return; // one question: nothing to filter
    var form = el("form", { class: "qb-filters", role: "search" });
    form.setAttribute("aria-label", t("level") + " / " + t("difficulty"));
    form.appendChild(select("level", t("level"), levels.map(function (l) {
      return [l, names[l] || l];
    })));
    form.appendChild(select("difficulty", t("difficulty"), diffs.map(function (d) {
      return [d, t("d" + d) || d];
    })));
    var hideLabel = el("label", { class: "qb-filter" });
    var hide = el("input", { type: "checkbox", name: "hide", value: "answered" });
    hideLabel.appendChild(hide);
    hideLabel.appendChild(document.createTextNode(" " + t("hide")));
    form.appendChild(hideLabel);
    form.appendChild(el("p", { class: "qb-shown", "aria-live": "polite" }));
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    tools.appendChild(form);
    var state = filterState();
    form.elements.level.value = levels.indexOf(state.level) >= 0 ? state.level : "";
    form.elements.difficulty.value = diffs.indexOf(state.difficulty) >= 0 ? state.difficulty : "";
    hide.checked = state.hide;
  }

  function select(name, label, choices) {
    var wrap = el("label", { class: "qb-filter" }, label + " ");
    var s = el("select", { name: name });
    s.appendChild(el("option", { value: "" }, t("all")));
    choices.forEach(function (c) { s.appendChild(el("option", { value: c[0] }, c[1])); });
    wrap.appendChild(s);
    return wrap;
  }

  function headingOf(q) {
    var h = document.getElementById("h-" + q.getAttribute("data-qid"));
    if (h) return h;
    var prev = q.previousElementSibling;
    return prev && /^H[1-6]$/.test(prev.tagName) ? prev : null;
  }

  function applyFilters() {
    var form = document.querySelector(".qb-filters");
    if (!form) return;
    var level = form.elements.level.value;
    var diff = form.elements.difficulty.value;
    var hide = form.elements.hide.checked;
    var p = progress();
    var qs = pageQuestions();
    var shown = 0;
    qs.forEach(function (q) {
      var levels = (q.getAttribute("data-level") || "").split(/\s+/);
      var ok = (!level || levels.indexOf(level) >= 0) &&
        (!diff || q.getAttribute("data-difficulty") === diff) &&
        !(hide && p[q.getAttribute("data-qid")] && !fresh[q.getAttribute("data-qid")]);
      q.hidden = !ok;
      var h = headingOf(q);
      if (h) h.hidden = !ok;
      if (ok) shown++;
    });
    hideEmptyGroups(qs);
    form.querySelector(".qb-shown").textContent = t("shown") + shown + t("ofN") + qs.length;
  }

  /* A heading that groups questions (a topic on a seniority page) hides with them. */
  function hideEmptyGroups(qs) {
    if (!qs.length) return;
    var parent = qs[0].parentNode;
    var own = {};
    qs.forEach(function (q) { var h = headingOf(q); if (h) own[idFor(h)] = true; });
    var kids = Array.prototype.slice.call(parent.children);
    kids.forEach(function (node, i) {
      if (!/^H[2-6]$/.test(node.tagName) || own[node.id]) return;
      var rank = +node.tagName[1];
      var any = false;
      var visible = false;
      for (var j = i + 1; j < kids.length; j++) {
        var n = kids[j];
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
    var params = new URLSearchParams(location.search);
    [["level", form.elements.level.value], ["difficulty", form.elements.difficulty.value],
      ["hide", form.elements.hide.checked ? "answered" : ""]].forEach(function (kv) {
      if (kv[1]) params.set(kv[0], kv[1]);
      else params.delete(kv[0]);
    });
    var query = params.toString();
    history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    applyFilters();
  }

  /* ---------------------------------------------------------------- site root */
  /* The site's root URL, from Material's __config at the end of the body (this file may run
   * before it is parsed): read the first time it is there, against the page first loaded. */
  var root = null;
  function siteRoot() {
    if (root === null && document.getElementById("__config")) {
      try {
        var config = JSON.parse(document.getElementById("__config").textContent);
        root = new URL(config.base + "/", location.href).href;
      } catch (e) {
        root = "";
      }
    }
    return root;
  }

  /* The practice interface (a .qb-practice box: practice and review pages) is assets/practice.js,
   * which those pages load; it reaches these helpers here (qbank.js runs on every page). */
  window.qbankWidget = { t: t, el: el, fragment: fragment, idFor: idFor, load: load, save: save,
    progress: progress, isMiss: isMiss, record: record, siteRoot: siteRoot, HISTORY: HISTORY };

  /* ---------------------------------------------------------------- events */
  document.addEventListener("click", function (e) {
    var target = e.target;
    if (!(target instanceof Element)) return;
    if (target.closest(".qb-practice")) return; // assets/practice.js
    var q = target.closest(".qb-q[data-qid]");
    var reset = target.closest(".qb-reset");
    var undo = target.closest(".qb-undo");
    if (undo) {
      if (undoable) save(PROGRESS, undoable);
      undoable = null;
      document.querySelectorAll(".qb-undo-note").forEach(function (n) { n.remove(); });
      refreshPage();
      return;
    }
    if (reset) {
      var scope = reset.getAttribute("data-reset");
      undoable = progress();
      var row = reset.closest(".qb-reset-row, .qb-progress") || reset.parentNode;
      if (scope === "all") save(PROGRESS, {});
      else if (scope === "page") forget(pageQuestions().map(function (n) { return n.getAttribute("data-qid"); }));
      else forget(scoped(scope));
      pageQuestions().forEach(function (n) {
        n.classList.remove("qb-answered-right", "qb-answered-wrong");
        clearMarks(n);
        n.querySelectorAll(".qb-feedback").forEach(function (f) { f.textContent = ""; });
      });
      refreshPage();
      offerUndo(row && row.isConnected ? row : document.querySelector(".qb-tools, .qb-progress"));
      return;
    }
    if (!q) return;
    ready(q);
    var rateBtn = target.closest(".qb-rate-btn");
    if (rateBtn) return rate(q, rateBtn.getAttribute("data-rate"));
    if (target.closest(".qb-check-btn")) return check(q);
    var option = target.closest(".qb-option");
    if (!option || target.closest("a, details, summary")) return;
    if (target.closest(".qb-check")) return; // the box toggles itself
    var box = option.querySelector(".qb-check");
    if (box) {
      box.checked = !box.checked;
      return;
    }
    pick(q, option.getAttribute("data-key"));
  });

  /* Every reset can be undone until the next one or the next page: the progress as it was
   * is kept in memory and a note with an Undo button appears where the reset was. */
  var undoable = null;
  function offerUndo(where) {
    document.querySelectorAll(".qb-undo-note").forEach(function (n) { n.remove(); });
    if (!where) return;
    var note = el("p", { class: "qb-undo-note", role: "status" }, t("resetDone") + " ");
    var button = el("button", { type: "button", class: "qb-undo" }, t("undo"));
    note.appendChild(button);
    where.appendChild(note);
    button.focus();
  }

  document.addEventListener("change", function (e) {
    var form = e.target instanceof Element && e.target.closest(".qb-filters");
    if (form) filtersChanged(form);
  });

  /* Print every answer: <details> content cannot be forced open by CSS everywhere. */
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.slice.call(document.querySelectorAll(".qb-q details:not([open])"));
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });

  /* ---------------------------------------------------------------- search on demand */
  /* The header's search box (assets/search.js) is not needed to read a page: it loads when
   * the reader reaches for it (its button hovered, focused or pressed, or "/" typed; a press
   * then opens it), once the page has loaded and is idle, or at once on the page that cuts
   * text with its tokenizer ("match a job description"). */
  var searchUrl = document.currentScript ? new URL("search.js", document.currentScript.src).href : "";
  var searchLoad = null;
  function loadSearch() {
    if (!searchLoad && searchUrl && !window.qbankSearch) {
      searchLoad = new Promise(function (resolve, reject) {
        var s = el("script", { src: searchUrl });
        if (siteRoot()) s.setAttribute("data-root", siteRoot());
        s.onload = resolve;
        s.onerror = reject;
        document.head.appendChild(s);
      });
    }
    return searchLoad;
  }
  /* The panel opens and takes the focus at once, inside the reader's tap or key (a phone
   * shows its keyboard only then), so what they type while search.js arrives is kept and
   * searched when it has. */
  function openSearch() {
    var loading = loadSearch();
    if (!loading) return;
    var box = document.querySelector(".qb-search");
    var panel = box && box.querySelector(".qb-search__panel");
    var input = box && box.querySelector(".qb-search__input");
    if (panel && input) {
      panel.hidden = false;
      input.focus();
    }
    loading.then(function () {
      var search = box && box.qbSearch;
      if (!search) return;
      search.show();
      if (search.input.value.trim()) search.search();
    }, function () { if (panel) panel.hidden = true; /* offline: the box stays closed */ });
  }
  ["pointerover", "focusin", "click"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      if (window.qbankSearch || !(e.target instanceof Element) || !e.target.closest(".qb-search")) return;
      if (type === "click") openSearch();
      else loadSearch();
    }, true);
  });
  document.addEventListener("keydown", function (e) {
    var typing = e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]");
    if (e.key !== "/" || window.qbankSearch || typing || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    openSearch();
  }, true);
  window.addEventListener("load", function () {
    setTimeout(function () { whenIdle(loadSearch); }, 2000);
  });

  /* ---------------------------------------------------------------- deep links */
  /* A link to #q-<id> (permalink, search result, practice review) brings the question's
   * heading below Material's fixed header (qbank.css gives headings a scroll margin) and
   * marks the question; the language switcher keeps the anchor. */
  function target() {
    document.querySelectorAll(".qb-target").forEach(function (n) { n.classList.remove("qb-target"); });
    var id = decodeURIComponent(location.hash.slice(1));
    if (!/^[qh]-/.test(id)) return;
    var q = document.getElementById("q-" + id.slice(2));
    if (!q) findOnOtherPart(id.slice(2));
    if (!q || !q.classList.contains("qb-q")) return;
    q.classList.add("qb-target");
    var h = headingOf(q);
    land(h && !h.hidden ? h : q);
  }
  /* Questions away from the viewport are not laid out (qbank.css: content-visibility) and
   * count at an estimated height: those the scroll brings near take their real height in the
   * next frames, so the scroll is repeated each frame until the node stays put. */
  function land(node) {
    var frames = 0;
    var still = 0;
    (function step() {
      var before = node.getBoundingClientRect().top;
      node.scrollIntoView();
      still = Math.abs(node.getBoundingClientRect().top - before) < 1 ? still + 1 : 0;
      if (still < 3 && ++frames < 30) requestAnimationFrame(step);
    })();
  }
  /* A big topic is cut into numbered pages (qbank/parts.py): a link to a question that is on
   * another of its pages (an old link to the topic's first page, another locale's page) is
   * sent on to the page that holds it, looked up in the other pages only when needed. */
  var lookedUp = "";
  function findOnOtherPart(qid) {
    var links = document.querySelectorAll(".qb-pages-top a[href]");
    if (!links.length || lookedUp === qid || !window.fetch) return;
    lookedUp = qid;
    var wanted = 'id="q-' + qid + '"';
    Array.prototype.forEach.call(links, function (a) {
      var url = a.href.split("#")[0];
      if (a.rel === "prev" || a.rel === "next") return;
      fetch(url).then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
        if (lookedUp === qid && text.indexOf(wanted) >= 0) {
          lookedUp = "";
          location.replace(url + "#q-" + qid);
        }
      }).catch(function () { /* offline: the reader stays on this page */ });
    });
  }
  function keepAnchor() {
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (a) {
      var href = a.getAttribute("href").split("#")[0];
      a.setAttribute("href", href + location.hash);
    });
  }
  window.addEventListener("hashchange", target);
  ["pointerdown", "focusin", "mouseover", "click"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      if (e.target instanceof Element && e.target.closest(".md-select")) keepAnchor();
    }, true);
  });
  document.addEventListener("toggle", function (e) {
    if (e.target instanceof Element && e.target.matches("details.qb-answer")) answerToggled(e.target);
  }, true);

  /* ---------------------------------------------------------------- menu landmarks */
  /* Material names each menu section's <nav> by its toggle (aria-labelledby); under
     navigation.indexes the toggle holds only an icon, so those sections were navigation
     landmarks without a name, alike. The toggle takes the section's title, in the page's
     language as the menu is (Material finds the <nav> by that id: it stays). */
  function nameMenus() {
    document.querySelectorAll("nav.md-nav[aria-labelledby]").forEach(function (nav) {
      var toggle = document.getElementById(nav.getAttribute("aria-labelledby"));
      var title = nav.querySelector(".md-nav__title");
      if (!toggle || !title || toggle.textContent.trim() || toggle.hasAttribute("aria-label")) return;
      toggle.setAttribute("aria-label", title.textContent.trim());
    });
  }

  /* ---------------------------------------------------------------- per page */
  /* One build of every locale (`qbank build`'s tree): an instant navigation into another
     locale loads that page in full, so its language (Material's and these strings) follows. */
  function crossedLocale() {
    var base = siteRoot();
    if (!base || location.href.indexOf(base) !== 0) return false;
    var first = decodeURIComponent(location.href.slice(base.length).split(/[\/?#]/)[0]);
    var langs = Array.prototype.map.call(
      document.querySelectorAll(".md-select__link[hreflang]"),
      function (a) { return a.getAttribute("hreflang").toLowerCase(); });
    return langs.indexOf(first.toLowerCase()) >= 0 &&
      first.toLowerCase() !== (document.documentElement.lang || "").toLowerCase();
  }

  var pages = 0;
  function page() {
    if (crossedLocale()) {
      location.reload();
      return;
    }
    nameMenus();
    if (pages++) {
      fresh = {}; // (not on the first: a question answered while the page was parsed stays)
      undoable = null;
    }
    if (document.querySelector(".qb-match")) loadSearch(); // (search on demand)
    var qs = pageQuestions();
    enhanceLazily(qs);
    if (qs.length && !document.querySelector(".qb-practice")) buildTools(qs);
    if (window.qbankPractice) window.qbankPractice.start(); // (assets/practice.js)
    refreshPage();
    if (location.hash) setTimeout(target, 0); // after Material's own scroll
  }

  /* The head runs this file while the page is still being parsed (partials/javascripts/
   * base.html): the listeners above answer a click on a question already shown, before
   * the theme's bundle has run; per-page work waits for the parsed page (and follows
   * Material's instant navigation through its document$ once the bundle has made it). */
  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(page);
    } else {
      page();
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

/* Keys (the reader's focus in a question, on a topic page or a practice card): 1-9 or the
 * option's letter answers that option, as a click on it would (a multiple-answer question's
 * box toggles; its Check button checks). Only while the focus is in the question (WCAG
 * 2.1.4), never while typing in a field or with a modifier; a key it uses goes no further
 * (Material's own single-key shortcuts, such as "f" for search, stay outside questions). */
(function () {
  "use strict";
  if (window.__qbankKeys) return; // (the page loads this file twice: see the top)
  window.__qbankKeys = true;
  document.addEventListener("keydown", function (e) {
    var at = document.activeElement;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !(at instanceof Element)) return;
    var q = at.closest(".qb-q");
    var key = e.key.length === 1 ? e.key.toLowerCase() : "";
    if (!q || !/^[1-9a-h]$/.test(key) || at.closest("input:not(.qb-check), textarea, select, [contenteditable]")) return;
    var options = q.querySelectorAll(".qb-option");
    var option = /\d/.test(key) ? options[Number(key) - 1] : q.querySelector('.qb-option[data-key="' + key + '"]');
    if (!option || option.closest(".qb-q") !== q) return;
    e.preventDefault();
    e.stopPropagation();
    (option.querySelector(".qb-pick, .qb-check") || option).click();
    var control = option.querySelector(".qb-pick, .qb-check");
    if (control) control.focus();
  }, true);
})();
