/* qbank mock interview (practice) and review sessions: the ".qb-practice" box of a field's
 * practice page (<locale>/<field>/practice/) and of the review page (<locale>/review/, with
 * data-review: assets/review.js draws its questions). Loaded by those pages only; topic pages
 * never run it. The widget's shared helpers (interface text, DOM, storage, progress) come
 * from qbank.js (window.qbankWidget, on every page); qbank.js leaves clicks inside a
 * ".qb-practice" box to this file and starts its boxes on each page it enhances
 * (window.qbankPractice.start). Material's instant navigation runs this script again on each
 * page that loads it: the listener is added once, the boxes are started each time. */
(function () {
  "use strict";
  if (window.qbankPractice) {
    window.qbankPractice.start();
    return;
  }
  var el, t, fragment, idFor, load, save, progress, isMiss, record, siteRoot, HISTORY;

  /* Every ".qb-practice" box of the page, once qbank.js and the page are there (whichever
   * comes last calls this: qbank.js's per-page work, or this file). */
  function start() {
    var w = window.qbankWidget;
    if (!w || document.readyState === "loading") return;
    el = w.el; t = w.t; fragment = w.fragment; idFor = w.idFor; load = w.load; save = w.save;
    progress = w.progress; isMiss = w.isMiss; record = w.record; siteRoot = w.siteRoot;
    HISTORY = w.HISTORY;
    document.querySelectorAll(".qb-practice").forEach(practiceStart);
  }

  function shuffle(items) {
    var a = items.slice();
    for (var i = a.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    return a;
  }
  function clock(seconds) {
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }
  function rootUrl(box) {
    return box.getAttribute("data-root")
      ? new URL(box.getAttribute("data-root"), location.href).href : siteRoot() || "/";
  }

  function practiceStart(box) {
    if (box.hasAttribute("data-qb-ready")) return;
    box.setAttribute("data-qb-ready", "");
    var stage = el("div", { class: "qb-stage" });
    var controls = el("div", { class: "qb-practice-controls" });
    var levelSelect = box.querySelector("select.qb-practice-level");
    var wanted = new URLSearchParams(location.search).get("level");
    if (levelSelect && wanted) {
      levelSelect.value = wanted;
      if (levelSelect.selectedIndex < 0) levelSelect.selectedIndex = 0;
    }
    var count = el("label", { class: "qb-filter" }, t("count") + " ");
    var n = el("input", { type: "number", min: "1", max: "100", value: box.getAttribute("data-count") || "20",
      class: "qb-practice-count" });
    count.appendChild(n);
    controls.appendChild(count);
    var misses = el("label", { class: "qb-filter" });
    misses.appendChild(el("input", { type: "checkbox", class: "qb-practice-misses" }));
    misses.firstChild.checked = new URLSearchParams(location.search).get("misses") === "1";
    misses.appendChild(document.createTextNode(" " + t("misses")));
    controls.appendChild(misses);
    controls.appendChild(el("button", { type: "button", class: "qb-start" }, t("start")));
    (levelSelect ? levelSelect.parentNode : box).appendChild(controls);
    box.appendChild(stage);
    box.appendChild(el("p", { class: "qb-feedback", role: "status", "aria-live": "polite" }));
    box.appendChild(historyView(box));
    resume(box);
  }

  /* The running session is kept in sessionStorage (this tab only) after every step, so a
   * reload resumes it where it was: key qbank:v1:session:<locale>/<field>, value {level,
   * levelName, items (the drawn questions), i, results [{n: item index, chosen, status}],
   * started}. It is dropped when the session ends. */
  function sessionKey(box) {
    return "qbank:v1:session:" + box.getAttribute("data-locale") + "/" + box.getAttribute("data-field");
  }
  function keepSession(session) {
    try {
      if (!session) return;
      window.sessionStorage.setItem(sessionKey(session.box), JSON.stringify({
        level: session.level, levelName: session.levelName, items: session.items, i: session.i,
        started: session.started, results: session.results.map(function (r) {
          return { n: session.items.indexOf(r.item), chosen: r.chosen, status: r.status };
        }) }));
    } catch (e) { /* storage full or denied: the session just does not survive a reload */ }
  }
  function dropSession(box) {
    try { window.sessionStorage.removeItem(sessionKey(box)); } catch (e) { /* nothing kept */ }
  }
  /* A reload (or back/forward) resumes the unfinished session at once; another visit
   * offers a button to resume it beside Start. */
  function resume(box, now) {
    var saved = null;
    try { saved = JSON.parse(window.sessionStorage.getItem(sessionKey(box)) || "null"); } catch (e) { saved = null; }
    if (!saved || !Array.isArray(saved.items) || !saved.items.length || !(saved.i < saved.items.length)) return;
    var nav = window.performance && performance.getEntriesByType &&
      performance.getEntriesByType("navigation")[0];
    if (!now && !(nav && (nav.type === "reload" || nav.type === "back_forward"))) {
      var start = box.querySelector(".qb-start");
      if (start && !box.querySelector(".qb-resume")) {
        start.after(el("button", { type: "button", class: "qb-resume" }, t("resume")));
      }
      return;
    }
    var session = { box: box, level: saved.level, levelName: saved.levelName, items: saved.items,
      i: saved.i, started: saved.started || Date.now(), timer: null,
      results: (saved.results || []).map(function (r) {
        return { item: saved.items[r.n], chosen: r.chosen || [], status: r.status };
      }).filter(function (r) { return r.item; }) };
    run(session);
    box.querySelector(":scope > .qb-feedback").textContent = t("resumed");
  }
  function run(session) {
    var box = session.box;
    var offer = box.querySelector(".qb-resume");
    if (offer) offer.remove();
    box.setAttribute("data-state", "running");
    var timer = el("span", { class: "qb-timer", role: "timer", "aria-label": t("time") },
      clock(Math.floor((Date.now() - session.started) / 1000)));
    session.timerNode = timer;
    session.timer = setInterval(function () {
      if (!timer.isConnected) return clearInterval(session.timer);
      timer.textContent = clock(Math.floor((Date.now() - session.started) / 1000));
    }, 1000);
    box.__session = session;
    showItem(session);
    keepSession(session);
  }

  function historyView(box) {
    var wrap = el("div", { class: "qb-history" });
    var list = load(HISTORY, []);
    if (!Array.isArray(list)) list = [];
    var mine = list.filter(function (h) { return h.field === box.getAttribute("data-field"); });
    if (!mine.length) return wrap;
    wrap.appendChild(el("h2", null, t("history")));
    var ul = el("ul");
    mine.slice(-10).reverse().forEach(function (h) {
      ul.appendChild(el("li", null, new Date(h.ts).toLocaleString(document.documentElement.lang || undefined) +
        " · " + h.levelName + " · " + t("score") + " " + h.score + " / " + h.total + " · " +
        t("time") + " " + clock(h.seconds)));
    });
    wrap.appendChild(ul);
    return wrap;
  }

  function practiceBegin(box) {
    var level = box.querySelector("select.qb-practice-level");
    var key = level ? level.value : box.getAttribute("data-level");
    var levelName = level ? level.options[level.selectedIndex].textContent : key;
    var status = box.querySelector(":scope > .qb-feedback");
    var url = new URL(box.getAttribute("data-locale") + "/api/practice/" +
      box.getAttribute("data-field") + "/" + key + ".json", rootUrl(box)).href;
    status.textContent = "";
    var onlyMisses = box.querySelector(".qb-practice-misses");
    var missed = !!(onlyMisses && onlyMisses.checked);
    // a review session (<locale>/review/): assets/review.js draws the due questions, in order
    var review = box.hasAttribute("data-review") && window.qbankReview;
    (review ? review.draw(box, missed) : fetch(url).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    })).then(function (data) {
      var limit = Math.max(1, parseInt(box.querySelector(".qb-practice-count").value, 10) || 20);
      // ?topics=a,b (the match page): only those topics of the field, when they have any
      var only = (new URLSearchParams(location.search).get("topics") || "").split(",");
      var pool = (data.questions || []).filter(function (q) {
        return only.indexOf(q.topic.split("/")[1]) >= 0;
      });
      if (!pool.length) pool = data.questions || [];
      if (missed && !review) {
        var p = progress();
        pool = pool.filter(function (q) { return isMiss(p[q.id]); });
      }
      var drawn = (review ? pool : shuffle(pool)).slice(0, limit);
      if (!drawn.length) {
        status.textContent = t(data.empty || (missed ? "noMisses" : "none"));
        return;
      }
      run({ box: box, level: key, levelName: levelName, items: drawn, i: 0,
        results: [], started: Date.now(), timer: null });
    }).catch(function () {
      status.textContent = t("loadError");
    });
  }

  function permalink(session, item) {
    return new URL(item.url, rootUrl(session.box)).href;
  }

  function showItem(session) {
    var item = session.items[session.i];
    var stage = session.box.querySelector(".qb-stage");
    stage.textContent = "";
    var head = el("div", { class: "qb-practice-head" });
    head.appendChild(el("span", { class: "qb-practice-pos" },
      t("question") + (session.i + 1) + t("ofN") + session.items.length));
    head.appendChild(session.timerNode);
    stage.appendChild(head);
    var card = el("div", { class: "qb-q qb-practice-q", "data-pid": item.id, "data-kind": item.kind });
    card.setAttribute("data-qb-ready", "");
    var prompt = el("div", { class: "qb-prompt" });
    prompt.appendChild(fragment(item.prompt));
    card.appendChild(prompt);
    var actions = el("div", { class: "qb-practice-actions" });
    if (item.kind === "choice") {
      var multi = item.answer.length > 1;
      var ol = el("ol", { class: "qb-options", "data-multi": multi ? "1" : "0" });
      item.options.forEach(function (o) {
        var li = el("li", { class: "qb-option", "data-key": o.key });
        var text = el("div", { class: "qb-option-text" });
        text.appendChild(fragment(o.html));
        var control = multi ? el("input", { type: "checkbox", class: "qb-check", value: o.key })
          : el("button", { type: "button", class: "qb-pick", "data-key": o.key, "aria-pressed": "false" });
        if (!multi) control.appendChild(el("span", { class: "qb-key" }, o.key));
        control.setAttribute("aria-labelledby", idFor(control) + " " + idFor(text));
        li.appendChild(control);
        if (multi) li.appendChild(el("span", { class: "qb-key" }, o.key));
        li.appendChild(text);
        ol.appendChild(li);
      });
      card.appendChild(ol);
    } else {
      if (item.assesses) {
        var det = el("details", { class: "qb-assesses" });
        det.appendChild(el("summary", null, t("assesses")));
        det.appendChild(fragment(item.assesses));
        card.appendChild(det);
      }
      var model = el("div", { class: "qb-model-answer", hidden: "" });
      if (item.model_answer) model.appendChild(fragment(item.model_answer));
      else model.appendChild(el("p", null, t("noModel")));
      card.appendChild(model);
      actions.appendChild(el("button", { type: "button", class: "qb-show-model" }, t("showModel")));
      var rateBox = el("div", { class: "qb-rate", role: "group", hidden: "" });
      var label = el("span", { class: "qb-rate-label" }, t("rate"));
      rateBox.setAttribute("aria-labelledby", idFor(label));
      rateBox.appendChild(label);
      ["know", "partly", "no"].forEach(function (s) {
        rateBox.appendChild(el("button", { type: "button", class: "qb-rate-btn", "data-rate": s,
          "aria-pressed": "false" }, t(s)));
      });
      card.appendChild(rateBox);
    }
    stage.appendChild(card);
    var last = session.i === session.items.length - 1;
    if (item.kind === "choice") {
      actions.appendChild(el("button", { type: "button", class: "qb-practice-answer" },
        last ? t("finish") : t("next")));
    }
    actions.appendChild(el("button", { type: "button", class: "qb-practice-skip" }, t("skip")));
    stage.appendChild(actions);
    var first = card.querySelector("button, input");
    if (first && session.i > 0) first.focus();
  }

  function practiceAnswer(session, card) {
    var item = session.items[session.i];
    var chosen = [];
    card.querySelectorAll(".qb-check:checked").forEach(function (b) { chosen.push(b.value); });
    card.querySelectorAll('.qb-pick[aria-pressed="true"]').forEach(function (b) {
      chosen.push(b.getAttribute("data-key"));
    });
    if (!chosen.length) {
      var status = session.box.querySelector(":scope > .qb-feedback");
      status.textContent = "";
      setTimeout(function () { status.textContent = t("pickFirst"); }, 50);
      return;
    }
    var ok = chosen.slice().sort().join(" ") === item.answer.slice().sort().join(" ");
    practiceRecord(session, item, { r: ok ? 1 : 0 });
    session.results.push({ item: item, chosen: chosen, status: ok ? "right" : "wrong" });
    advance(session);
  }
  function practiceRate(session, value) {
    var item = session.items[session.i];
    practiceRecord(session, item, { s: value });
    session.results.push({ item: item, chosen: [], status: value });
    advance(session);
  }
  /* A review session's answers go to assets/review.js (its own store), not to progress. */
  function practiceRecord(session, item, fields) {
    if (!session.box.hasAttribute("data-review")) return record(item.id, item.topic, fields);
    session.box.dispatchEvent(new CustomEvent("qbank:review", { bubbles: true,
      detail: { id: item.id, topic: item.topic, result: fields } }));
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
    var box = session.box;
    dropSession(box);
    var seconds = Math.round((Date.now() - session.started) / 1000);
    var points = { right: 1, know: 1, partly: 0.5 };
    var score = session.results.reduce(function (sum, r) { return sum + (points[r.status] || 0); }, 0);
    var total = session.results.length;
    var list = load(HISTORY, []);
    if (!Array.isArray(list)) list = [];
    list.push({ ts: Date.now(), field: box.getAttribute("data-field"), level: session.level,
      levelName: session.levelName, score: score, total: total, seconds: seconds });
    save(HISTORY, list.slice(-50));
    box.setAttribute("data-state", "done");
    var stage = box.querySelector(".qb-stage");
    stage.textContent = "";
    var summary = el("div", { class: "qb-summary" });
    summary.appendChild(el("h2", { tabindex: "-1" }, t("score") + t("colon") + score + " / " + total));
    summary.appendChild(el("p", { class: "qb-summary-time" }, t("time") + t("colon") + clock(seconds)));
    stage.appendChild(summary);
    stage.appendChild(el("h3", null, t("review")));
    var ol = el("ol", { class: "qb-review" });
    session.results.forEach(function (r) {
      var item = r.item;
      var li = el("li", { class: "qb-review-item", "data-status": r.status, "data-id": item.id,
        "data-topic": item.topic });
      li.appendChild(el("p", { class: "qb-review-status" }, t("status")[r.status]));
      var prompt = el("div", { class: "qb-prompt" });
      prompt.appendChild(fragment(item.prompt));
      li.appendChild(prompt);
      if (item.kind === "choice") {
        /* each with its option's text: "Your answer: a. …", "Right answer: c. …" */
        [[r.chosen, "yourAnswer", "qb-yours"], [item.answer, "rightAnswer", "qb-correct"]]
          .forEach(function (row) {
            if (!row[0].length) return;
            var keys = row[0];
            var wrap = el("div", { class: row[2] });
            wrap.appendChild(el("p", null, t(row[1]) + keys.join(t("sep"))));
            var opts = el("ul", { class: "qb-review-options" });
            item.options.forEach(function (o) {
              if (keys.indexOf(o.key) < 0) return;
              var oli = el("li", null, o.key + ". ");
              oli.appendChild(fragment(o.html));
              opts.appendChild(oli);
            });
            wrap.appendChild(opts);
            li.appendChild(wrap);
          });
        if (item.explanation) {
          var ex = el("div", { class: "qb-explanation" });
          ex.appendChild(fragment(item.explanation));
          li.appendChild(ex);
        }
      } else {
        var model = el("div", { class: "qb-model-answer" });
        if (item.model_answer) model.appendChild(fragment(item.model_answer));
        else model.appendChild(el("p", null, t("noModel")));
        li.appendChild(model);
      }
      var link = el("a", { class: "qb-permalink", href: permalink(session, item) }, t("permalink"));
      var p = el("p");
      p.appendChild(link);
      li.appendChild(p);
      ol.appendChild(li);
    });
    stage.appendChild(ol);
    stage.appendChild(el("button", { type: "button", class: "qb-again" }, t("again")));
    var old = box.querySelector(".qb-history");
    if (old) old.replaceWith(historyView(box));
    summary.firstChild.focus();
  }

  function practiceClick(box, target) {
    var session = box.__session;
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
    var card = box.querySelector(".qb-practice-q");
    if (target.closest(".qb-practice-skip")) return practiceSkip(session);
    if (target.closest(".qb-practice-answer")) return practiceAnswer(session, card);
    if (target.closest(".qb-show-model")) {
      card.querySelector(".qb-model-answer").hidden = false;
      card.querySelector(".qb-rate").hidden = false;
      target.closest(".qb-show-model").remove();
      card.querySelector(".qb-rate-btn").focus();
      return;
    }
    var rateBtn = target.closest(".qb-rate-btn");
    if (rateBtn) return practiceRate(session, rateBtn.getAttribute("data-rate"));
    var option = target.closest(".qb-option");
    if (!option || target.closest("a") || target.closest(".qb-check")) return;
    var check = option.querySelector(".qb-check");
    if (check) {
      check.checked = !check.checked;
      return;
    }
    card.querySelectorAll(".qb-pick").forEach(function (b) {
      var on = b.parentNode === option;
      b.setAttribute("aria-pressed", String(on));
      b.parentNode.classList.toggle("qb-chosen", on);
    });
  }

  document.addEventListener("click", function (e) {
    var box = e.target instanceof Element && e.target.closest(".qb-practice");
    if (box && box.hasAttribute("data-qb-ready")) practiceClick(box, e.target);
  });
  window.qbankPractice = { start: start };
  start();
})();
