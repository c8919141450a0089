/* qbank flashcards: the part of <locale>/flashcards/ (a ".qb-flash" box), mounted by qbank.js;
 * no other page loads it. The cards are the practice lists' questions (lib/questions.js)
 * chosen by lib/deck.js: a field or topic, the review queue's due ones, the misses or the
 * saved questions; each card's text comes from its topic page when it is shown (with the next
 * card's, so a rating turns to it at once). Front: the prompt (and a
 * choice question's options); back: the answer and explanation, or the model answer. Both
 * faces share one grid cell, so the card keeps its height when it turns. Space (or a tap)
 * turns it, 1-4 (or a swipe left / right) rates it; each rating is a review in the queue
 * (review.js's `answered`: FSRS's Again / Hard / Good / Easy). */
import { deck, ratingOf } from "./lib/deck.js";
import { fragment, h } from "./lib/dom.js";
import { PROGRESS, REVIEW, SAVED } from "./lib/shapes.js";
import { listedAll, texts } from "./lib/questions.js";
import { load } from "./lib/storage.js";
import { fill, t } from "./lib/text.js";
import { answered } from "./review.js";

const RATINGS = [[1, "cardAgain"], [2, "cardHard"], [3, "cardGood"], [4, "cardEasy"]];
let run = null; // {box, cards, i, turned}

function choices(box) {
  const get = (name) => box.querySelector(`.qb-flash-${name}`);
  return { source: get("source").value, field: get("field").value, topic: get("topic").value };
}

function keepInUrl(box) {
  const { source, field, topic } = choices(box);
  const params = new URLSearchParams(location.search);
  for (const [name, value] of [["cards", source === "all" ? "" : source], ["field", field], ["topic", topic]]) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  const query = params.toString();
  history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
}

function load_(box) {
  const { source, field, topic } = choices(box);
  const scope = topic ? { topic, field: topic.split("/")[0] } : { field };
  const locale = box.dataset.locale;
  const fields = field ? [field] : [...box.querySelectorAll(".qb-flash-field option")].map((o) => o.value).filter(Boolean);
  const levels = (box.dataset.levels || "").split(" ").filter(Boolean);
  const stage = box.querySelector(".qb-flash-stage");
  return listedAll(locale, fields, levels, true).then((questions) => {
    const stored = { progress: load(PROGRESS), reviews: load(REVIEW), saved: load(SAVED).items };
    run = { box, cards: deck(questions, source, stored, scope, Date.now()), i: 0, turned: false };
    return show();
  }, () => {
    stage.replaceChildren(h("p", { class: "qb-feedback" }, t("loadError")));
  });
}

function face(cls, label) {
  const node = h("div", { class: `qb-flashcard__face ${cls}` });
  node.appendChild(h("p", { class: "qb-flashcard__label" }, label));
  return node;
}

/* Shows card `run.i` once its text (and the next card's) is here; resolves when shown. */
function show() {
  const current = run;
  const stage = run.box.querySelector(".qb-flash-stage");
  if (run.i >= run.cards.length) {
    stage.replaceChildren();
    const text = run.cards.length ? fill(t("cardsDone"), { n: run.cards.length }) : t("cardsNone");
    stage.appendChild(h("p", { class: "qb-flash-end", tabindex: "-1" }, text));
    return Promise.resolve();
  }
  return texts(run.cards.slice(run.i, run.i + 2)).then((found) => {
    if (run !== current) return undefined; // (another choice of cards meanwhile)
    const item = found.find((q) => q.id === run.cards[run.i].id);
    if (!item) { // (not on its page: a list and pages of two builds)
      run.cards.splice(run.i, 1);
      return show();
    }
    stage.replaceChildren();
    render(stage, item);
    return undefined;
  }, () => {
    if (run === current) stage.replaceChildren(h("p", { class: "qb-feedback" }, t("loadError")));
  });
}

function render(stage, item) {
  run.turned = false;
  stage.appendChild(h("p", { class: "qb-flash-pos" }, fill(t("cardPos"), { n: run.i + 1, total: run.cards.length })));
  const card = h("div", { class: "qb-flashcard", "data-id": item.id, "data-turned": "0", tabindex: "0",
    role: "group", "aria-roledescription": t("flashcards") });
  const front = face("qb-flashcard__front", t("cardFront"));
  const prompt = h("div", { class: "qb-prompt" });
  prompt.appendChild(fragment(item.prompt));
  front.appendChild(prompt);
  if (item.kind === "choice") {
    const ol = h("ol", { class: "qb-flashcard__options" });
    for (const option of item.options) {
      const li = h("li", { "data-key": option.key });
      li.appendChild(h("strong", null, `${option.key}. `));
      li.appendChild(fragment(option.html));
      ol.appendChild(li);
    }
    front.appendChild(ol);
  }
  const back = face("qb-flashcard__back", t("cardBack"));
  if (item.kind === "choice") {
    const right = item.options.filter((o) => item.answer.includes(o.key));
    const p = h("div", { class: "qb-correct" });
    p.appendChild(h("p", null, t("rightAnswer") + item.answer.join(t("sep"))));
    for (const option of right) p.appendChild(fragment(option.html));
    back.appendChild(p);
    if (item.explanation) {
      const ex = h("div", { class: "qb-explanation" });
      ex.appendChild(fragment(item.explanation));
      back.appendChild(ex);
    }
  } else {
    const model = h("div", { class: "qb-model-answer" });
    if (item.model_answer) model.appendChild(fragment(item.model_answer));
    else model.appendChild(h("p", null, t("noModel")));
    back.appendChild(model);
  }
  card.append(front, back);
  stage.appendChild(card);
  const actions = h("div", { class: "qb-flash-actions", "data-turned": "0" });
  actions.appendChild(h("button", { type: "button", class: "qb-flashcard-turn", "aria-expanded": "false" }, t("cardTurn")));
  const rate = h("div", { class: "qb-flashcard-rate", role: "group", "aria-label": t("cardRate") });
  for (const [g, key] of RATINGS) {
    rate.appendChild(h("button", { type: "button", class: "qb-flashcard-grade", "data-grade": String(g),
      "aria-keyshortcuts": String(g) }, `${g} ${t(key)}`));
  }
  actions.appendChild(rate);
  actions.appendChild(h("p", { class: "qb-flash-note qb-sr", role: "status", "aria-live": "polite" }));
  stage.appendChild(actions);
}

function turn() {
  if (!run || run.i >= run.cards.length) return;
  const stage = run.box.querySelector(".qb-flash-stage");
  run.turned = !run.turned;
  const card = stage.querySelector(".qb-flashcard");
  if (!card) return; // (its text is still on its way)
  // both faces stay in the one grid cell (qbank.css): only their visibility changes
  card.setAttribute("data-turned", run.turned ? "1" : "0");
  stage.querySelector(".qb-flash-actions").setAttribute("data-turned", run.turned ? "1" : "0");
  stage.querySelector(".qb-flashcard-turn").setAttribute("aria-expanded", String(run.turned));
}

function rated(g) {
  if (!run || run.i >= run.cards.length || !run.turned) return;
  const item = run.cards[run.i];
  answered(item.id, item.topic, { g });
  const name = t(RATINGS[g - 1][1]);
  run.i++;
  run.turned = false; // (no second rating while the next card's text comes)
  show().then(() => {
    const stage = run.box.querySelector(".qb-flash-stage");
    const note = stage.querySelector(".qb-flash-note");
    if (note) note.textContent = fill(t("cardNext"), { rating: name });
    const next = stage.querySelector(".qb-flashcard, .qb-flash-end");
    if (next) next.focus();
  });
}

document.addEventListener("click", (e) => {
  if (!(e.target instanceof Element) || !run || !e.target.closest(".qb-flash")) return;
  const grade = e.target.closest(".qb-flashcard-grade");
  if (grade) return rated(Number(grade.getAttribute("data-grade")));
  if (e.target.closest(".qb-flashcard-turn") || (e.target.closest(".qb-flashcard") && !e.target.closest("a"))) turn();
});
document.addEventListener("change", (e) => {
  const box = e.target instanceof Element && e.target.closest(".qb-flash");
  if (!box || !e.target.closest(".qb-flash-pick")) return;
  const field = box.querySelector(".qb-flash-field");
  const topic = box.querySelector(".qb-flash-topic");
  if (e.target === topic && topic.value) field.value = topic.value.split("/")[0];
  if (e.target === field && topic.value && topic.value.split("/")[0] !== field.value) topic.value = "";
  keepInUrl(box);
  load_(box);
});
/* Space turns the card, 1-4 rate it, while the focus is on the card or its buttons (not in
 * the selects, not with a modifier). */
document.addEventListener("keydown", (e) => {
  const at = e.target instanceof Element ? e.target : null;
  if (!run || !at || !at.closest(".qb-flashcard, .qb-flash-actions") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === " " && at.closest(".qb-flashcard")) {
    e.preventDefault();
    turn();
    return;
  }
  const g = ratingOf(e.key);
  if (g && run.turned) {
    e.preventDefault();
    rated(g);
  }
});
/* A swipe on a turned card rates it (left Again, right Good); on the front it turns it. */
let swipe = null;
document.addEventListener("pointerdown", (e) => {
  const card = e.target instanceof Element && e.target.closest(".qb-flashcard");
  swipe = card && e.pointerType !== "mouse" ? { x: e.clientX, y: e.clientY } : null;
});
document.addEventListener("pointerup", (e) => {
  if (!swipe) return;
  const dx = e.clientX - swipe.x;
  const dy = e.clientY - swipe.y;
  swipe = null;
  if (Math.abs(dy) > Math.abs(dx)) return; // a scroll
  const g = ratingOf("swipe", dx);
  if (g === null) return;
  if (!run.turned) turn();
  else rated(g);
});

/** The page's part: its selects from the URL, then the first cards. */
export function mount() {
  const box = document.querySelector(".qb-flash");
  if (!box || box.dataset.qbReady) return;
  box.dataset.qbReady = "1";
  const params = new URLSearchParams(location.search);
  const set = (name, value) => {
    const select = box.querySelector(`.qb-flash-${name}`);
    select.value = value || select.options[0].value;
    if (select.selectedIndex < 0) select.selectedIndex = 0;
  };
  set("source", params.get("cards"));
  set("field", params.get("field"));
  set("topic", params.get("topic"));
  box.appendChild(h("div", { class: "qb-flash-stage" }));
  load_(box);
}
