/* qbank's entry module: the one script every page loads (the head fetches it early,
 * partials/javascripts/base.html; DESIGN.md, "The widget's modules"). Evaluated once per
 * document: Material's instant navigation swaps pages inside it, so listeners are added here
 * once and the page's work runs for each page (`everyPage`):
 *   - the questions (widget.js), statically imported, so a click on a question shown while
 *     the page is still parsed is answered at once;
 *   - the page's other parts, each a module imported the first time a page has its markup
 *     (PARTS) and mounted on every page that has it;
 *   - the header's search box (search.js), imported when the reader reaches for it.
 * The shared library is lib/: storage, element builder, interface text, site root, fetch. */
import { h } from "./lib/dom.js";
import { everyPage, root, whenIdle } from "./lib/site.js";
import { migrateStorage } from "./lib/storage.js";
import { t } from "./lib/text.js";
import { mount as mountQuestions } from "./widget.js";

migrateStorage();

/* A page's parts: the markup that needs one, and its module (each exports `mount`). */
const PARTS = [
  [".qb-practice", () => import("./practice.js")], // practice and review sessions
  [".qb-due, .qb-review-field", () => import("./review.js")], // "N due today", review scope
  [".qb-saved, .qb-q[data-qid]", () => import("./saved.js")], // stars and notes
  [".qb-level-list", () => import("./level.js")], // a seniority page: the reader's standing
  [".qb-match", () => import("./match.js")],
  [".qb-flash", () => import("./flashcards.js")], // the flashcards page
  [".qb-transfer", () => import("./transfer.js")], // the progress page
];

function mountParts() {
  for (const [markup, load] of PARTS) {
    if (!document.querySelector(markup)) continue;
    load().then((part) => part.mount(), () => {
      // offline and never loaded: the page stays as its HTML is (its noscript text says why)
    });
  }
}

/* -- search on demand ------------------------------------------------------------------- */
/* The header's search box (search.js) is not needed to read a page: it loads when the reader
 * reaches for it (its button hovered, focused or pressed, or "/" typed; a press then opens
 * it), or once the page has loaded and is idle. */
let search = null; // Promise of the module, once reached for
let searchReady = false;
function loadSearch() {
  if (!search) {
    search = import("./search.js").then((module) => {
      searchReady = true;
      module.mount();
      return module;
    });
    search.catch(() => {}); // offline: the box stays closed (openSearch)
  }
  return search;
}
/* The panel opens and takes the focus at once, inside the reader's tap or key (a phone shows
 * its keyboard only then), so what they type while search.js arrives is kept and searched
 * when it has. */
function openSearch() {
  const loading = loadSearch();
  const box = document.querySelector(".qb-search");
  const panel = box && box.querySelector(".qb-search__panel");
  const input = box && box.querySelector(".qb-search__input");
  if (panel && input) {
    panel.hidden = false;
    input.focus();
  }
  loading.then(() => {
    const found = box && box.qbSearch;
    if (!found) return;
    found.show();
    if (found.input.value.trim()) found.search();
  }, () => {
    if (panel) panel.hidden = true;
  });
}
for (const type of ["pointerover", "focusin", "click"]) {
  document.addEventListener(type, (e) => {
    if (searchReady || !(e.target instanceof Element) || !e.target.closest(".qb-search")) return;
    if (type === "click") openSearch();
    else loadSearch();
  }, true);
}
document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]");
  if (e.key !== "/" || searchReady || typing || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  openSearch();
}, true);
window.addEventListener("load", () => {
  setTimeout(() => whenIdle(loadSearch), 2000);
});

/* -- print ------------------------------------------------------------------------------ */
/* Print every answer: <details> content cannot be forced open by CSS everywhere. */
let opened = [];
window.addEventListener("beforeprint", () => {
  opened = [...document.querySelectorAll(".qb-q details:not([open])")];
  for (const details of opened) details.open = true;
});
window.addEventListener("afterprint", () => {
  for (const details of opened) details.open = false;
  opened = [];
});

/* -- menu landmarks --------------------------------------------------------------------- */
/* Material names each menu section's <nav> by its toggle (aria-labelledby); under
 * navigation.indexes the toggle holds only an icon, so those sections were navigation
 * landmarks without a name, alike. The toggle takes the section's title, in the page's
 * language as the menu is, as visually hidden text (an aria-label is prohibited on a
 * <label>; Material finds the <nav> by the toggle's id: it stays). */
function nameMenus() {
  for (const nav of document.querySelectorAll("nav.md-nav[aria-labelledby]")) {
    const toggle = document.getElementById(nav.getAttribute("aria-labelledby"));
    const title = nav.querySelector(".md-nav__title");
    if (!toggle || !title || toggle.textContent.trim()) continue;
    toggle.append(h("span", { class: "qb-sr" }, title.textContent.trim()));
  }
}

/* Material (9.8) puts each code block's copy button in a <nav> of its own: an unnamed
 * navigation landmark per block, among the menus a screen reader lists. It is presentation
 * here (the button stays). Material adds them when it mounts a page's code, which may be
 * after this module ran, and again after each instant navigation: watched. */
function unlandmark(node) {
  if (node.matches("nav.md-code__nav")) node.setAttribute("role", "presentation");
  else for (const nav of node.querySelectorAll("nav.md-code__nav")) nav.setAttribute("role", "presentation");
}
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) if (node.nodeType === 1) unlandmark(node);
  }
}).observe(document.documentElement, { childList: true, subtree: true });

/* -- keyboards ------------------------------------------------------------------------- */
/* A page of questions: Material's skip link ("Skip to content", the page's title) leads to
 * the first question shown, past the tools and the pager: two Tabs then reach its first
 * option. Updated per page (Material swaps the link with the page) and when it is followed
 * (the filters may have hidden that question since). */
function firstQuestion() {
  const shown = [...document.querySelectorAll(".qb-q[data-qid]:not(.qb-practice-q)")]
    .find((q) => !q.hidden);
  if (!shown) return "";
  return document.getElementById(`h-${shown.dataset.qid}`) ? `#h-${shown.dataset.qid}` : `#${shown.id}`;
}
function skipToQuestions() {
  const skip = document.querySelector("a.md-skip");
  const target = firstQuestion();
  if (!skip || !target) return;
  skip.textContent = t("skipQuestions");
  skip.setAttribute("href", target);
}
document.addEventListener("click", (e) => {
  const skip = e.target instanceof Element && e.target.closest("a.md-skip");
  const target = skip && firstQuestion();
  if (!target) return;
  skip.setAttribute("href", target);
  /* Followed here, not by Material's instant navigation: that fetches the page again and
   * swaps it in (a hash change too, through popstate), and the focus falls back to <body>.
   * The focus goes to the question; the address names it, with no new history step. */
  e.preventDefault();
  e.stopPropagation();
  const landing = document.querySelector(target);
  if (!landing.hasAttribute("tabindex")) landing.setAttribute("tabindex", "-1");
  history.replaceState(history.state, "", target);
  const header = document.querySelector(".md-header");
  const top = landing.getBoundingClientRect().top + scrollY - (header ? header.offsetHeight : 0);
  scrollTo({ top: Math.max(0, top - 8) });
  landing.focus({ preventScroll: true });
}, true);
/* The menu drawer's toggle (phones, narrow windows; partials/header.html makes it a Tab
 * stop): Enter opens it through Material's own keys, Space too; Escape closes an open drawer
 * and gives the focus back to the toggle. */
const DRAWER_TOGGLE = "label.md-header__button[for='__drawer']";
document.addEventListener("keydown", (e) => {
  const drawer = document.getElementById("__drawer");
  if (!drawer || e.ctrlKey || e.metaKey || e.altKey) return;
  const toggle = e.target instanceof Element && e.target.closest(DRAWER_TOGGLE);
  if (toggle && e.key === " ") {
    e.preventDefault();
    toggle.click();
  } else if (e.key === "Escape" && drawer.checked) {
    drawer.checked = false;
    drawer.dispatchEvent(new Event("change", { bubbles: true }));
    const back = document.querySelector(DRAWER_TOGGLE);
    if (back) back.focus();
  }
});
function drawerState() {
  const drawer = document.getElementById("__drawer");
  const toggle = document.querySelector(DRAWER_TOGGLE);
  if (drawer && toggle) toggle.setAttribute("aria-expanded", String(drawer.checked));
}
document.addEventListener("change", (e) => {
  if (e.target instanceof Element && e.target.id === "__drawer") drawerState();
});

/* -- per page --------------------------------------------------------------------------- */
/* One build of every locale (`qbank build`'s tree): an instant navigation into another locale
 * loads that page in full, so its language (Material's and the interface text) follows. */
function crossedLocale() {
  const base = root.href;
  if (!location.href.startsWith(base)) return false;
  const first = decodeURIComponent(location.href.slice(base.length).split(/[/?#]/)[0]).toLowerCase();
  const langs = [...document.querySelectorAll(".md-select__link[hreflang]")]
    .map((a) => a.getAttribute("hreflang").toLowerCase());
  return langs.includes(first) && first !== (document.documentElement.lang || "").toLowerCase();
}

everyPage(() => {
  if (crossedLocale()) {
    location.reload();
    return;
  }
  nameMenus();
  unlandmark(document.documentElement);
  mountQuestions();
  skipToQuestions();
  drawerState(); // (Material closes the drawer on a navigation without a change event)
  mountParts();
  if (searchReady) search.then((module) => module.mount());
});
