/* qbank search: the header's search box over the site's Pagefind index (qbank/search.py).
 *
 * One result per question, linking to its anchor (#q-{id}); the snippet is the question's
 * prompt (meta "prompt"), never Pagefind's excerpt, which may quote the explanation.
 * Filters: field, seniority, difficulty. pagefind.js, its worker, WebAssembly and index are
 * files of this site (no CDN). The box keeps working across Material's instant navigation
 * (document$), following the locale of the current URL. No content string goes through
 * innerHTML.
 */
(() => {
  "use strict";

  const PAGE = 10;
  const SNIPPET = 240;
  const FILTERS = ["field", "seniority", "difficulty"];

  // The site root, from Material's #__config base resolved against the first page loaded
  // (this script runs once; instant navigation keeps the header and this script).
  const configNode = document.getElementById("__config");
  const base = configNode ? JSON.parse(configNode.textContent || "{}").base || "." : ".";
  const root = new URL(base.endsWith("/") ? base : `${base}/`, location.href);

  const instances = new Map(); // locale → Promise of a Pagefind instance

  function localeOf(settings) {
    const path = decodeURIComponent(location.pathname);
    const rest = path.startsWith(root.pathname) ? path.slice(root.pathname.length) : "";
    const first = rest.split("/")[0];
    return settings.locales.includes(first) ? first : settings.default;
  }

  function pagefindFor(locale) {
    if (!instances.has(locale)) {
      const ready = (async () => {
        const module = await import(new URL("pagefind/pagefind.js", root).href);
        // Pagefind picks the language index from <html lang>; instant navigation does not
        // update it, so align it with the page's locale first.
        if (document.documentElement.lang !== locale) document.documentElement.lang = locale;
        const instance = module.createInstance({ basePath: new URL("pagefind/", root).pathname });
        await instance.init();
        return instance;
      })();
      ready.catch(() => instances.delete(locale));
      instances.set(locale, ready);
    }
    return instances.get(locale);
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The snippet with the query's words marked (plain substring match, case-insensitive).
  function marked(text, query) {
    const clipped = text.length > SNIPPET ? `${text.slice(0, SNIPPET).trimEnd()}…` : text;
    const terms = query
      .toLocaleLowerCase()
      .split(/\s+/)
      .filter((term) => term.length > 1);
    const span = element("span", "qb-search__snippet");
    const lower = clipped.toLocaleLowerCase();
    let at = 0;
    while (at < clipped.length) {
      let next = -1;
      let length = 0;
      for (const term of terms) {
        const found = lower.indexOf(term, at);
        if (found !== -1 && (next === -1 || found < next)) [next, length] = [found, term.length];
      }
      if (next === -1 || lower.length !== clipped.length) break;
      span.append(clipped.slice(at, next), element("mark", "", clipped.slice(next, next + length)));
      at = next + length;
    }
    span.append(clipped.slice(at));
    return span;
  }

  class SearchBox {
    constructor(node) {
      this.node = node;
      this.settings = JSON.parse(node.dataset.qbSearch);
      this.open = node.querySelector(".qb-search__open");
      this.panel = node.querySelector(".qb-search__panel");
      this.input = node.querySelector(".qb-search__input");
      this.close = node.querySelector(".qb-search__close");
      this.filters = node.querySelector(".qb-search__filters");
      this.status = node.querySelector(".qb-search__status");
      this.list = node.querySelector(".qb-search__results");
      this.more = node.querySelector(".qb-search__more");
      this.token = 0;
      this.results = [];
      this.shown = 0;
      this.timer = 0;
      this.locale = "";
      this.done = 0; // searches finished (data-done), for tests and tools
      this.follow();
      this.open.addEventListener("click", () => (this.panel.hidden ? this.show() : this.hide()));
      this.close.addEventListener("click", () => this.hide());
      this.node.querySelector("form").addEventListener("submit", (event) => {
        event.preventDefault();
        this.search();
      });
      this.input.addEventListener("input", () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.search(), 150);
      });
      this.more.addEventListener("click", () => this.page(this.token));
      this.list.addEventListener("click", (event) => {
        if (event.target.closest("a")) this.hide();
      });
      this.node.addEventListener("keydown", (event) => {
        if (event.key === "Escape") {
          this.hide();
          this.open.focus();
        }
      });
      document.addEventListener("click", (event) => {
        if (!this.panel.hidden && !this.node.contains(event.target)) this.hide();
      });
      document.addEventListener("keydown", (event) => {
        const target = event.target;
        const typing = target.closest && target.closest("input, textarea, select, [contenteditable]");
        if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
          event.preventDefault();
          this.show();
        }
      });
    }

    get text() {
      return this.settings.text[this.locale] || this.settings.text[this.settings.default];
    }

    // Take the locale of the current URL: interface text and filter choices follow it.
    follow() {
      const locale = localeOf(this.settings);
      if (locale === this.locale) return;
      this.locale = locale;
      const text = this.text;
      this.node.dataset.locale = locale;
      for (const node of [this.open, this.panel, this.input]) node.setAttribute("aria-label", text.search);
      this.open.title = text.search;
      this.node.querySelector(".qb-search__label").textContent = text.search;
      this.input.placeholder = text.search;
      this.close.setAttribute("aria-label", text.close);
      this.close.title = text.close;
      this.more.textContent = text.more;
      this.filters.replaceChildren();
      for (const name of FILTERS) {
        const label = element("label", "qb-search__filter");
        label.append(element("span", "", text[name]));
        const select = element("select");
        select.name = name;
        select.append(new Option(text.all, ""));
        for (const [key, title] of text.filters[name]) select.append(new Option(title, key));
        select.addEventListener("change", () => this.search());
        label.append(select);
        this.filters.append(label);
      }
      this.clear();
    }

    show() {
      this.panel.hidden = false;
      this.open.setAttribute("aria-expanded", "true");
      this.input.focus();
      pagefindFor(this.locale).catch(() => {}); // start loading while the reader types
    }

    hide() {
      this.panel.hidden = true;
      this.open.setAttribute("aria-expanded", "false");
    }

    clear() {
      this.token += 1;
      this.results = [];
      this.shown = 0;
      this.list.replaceChildren();
      this.status.textContent = "";
      this.more.hidden = true;
    }

    chosen() {
      const filters = {};
      for (const select of this.filters.querySelectorAll("select")) {
        if (select.value) filters[select.name] = select.value;
      }
      return filters;
    }

    async search() {
      const query = this.input.value.trim();
      const filters = this.chosen();
      this.clear();
      const token = this.token;
      if (query || Object.keys(filters).length) await this.run(query, filters, token);
      if (token === this.token) this.node.dataset.done = String(++this.done);
    }

    async run(query, filters, token) {
      this.status.textContent = this.text.loading;
      let found;
      try {
        const pagefind = await pagefindFor(this.locale);
        found = await pagefind.search(query || null, { filters });
      } catch (error) {
        if (token === this.token) this.status.textContent = this.text.unavailable;
        return;
      }
      if (token !== this.token) return;
      this.results = found.results;
      const count = this.results.length;
      this.node.dataset.count = String(count);
      this.status.textContent =
        count === 0
          ? this.text.none
          : count === 1
            ? this.text.results_one
            : this.text.results_other.replace("{n}", String(count));
      await this.page(token);
    }

    // Load and show the next PAGE results (one fragment each).
    async page(token) {
      const next = this.results.slice(this.shown, this.shown + PAGE);
      const data = await Promise.all(next.map((result) => result.data()));
      if (token !== this.token) return;
      const query = this.input.value.trim();
      for (const item of data) {
        const meta = item.meta || {};
        const link = element("a", "qb-search__link");
        // The question's own URL (its anchor on the topic page) travels as meta "url".
        link.href = new URL((meta.url || item.url).replace(/^\//, ""), root).href;
        if (meta.topic) link.append(element("span", "qb-search__topic", meta.topic));
        link.append(marked(meta.prompt || meta.title || "", query));
        const entry = element("li", "qb-search__result");
        entry.append(link);
        this.list.append(entry);
      }
      this.shown += next.length;
      this.more.hidden = this.shown >= this.results.length;
    }
  }

  function setup() {
    for (const node of document.querySelectorAll(".qb-search")) {
      if (!node.qbSearch) node.qbSearch = new SearchBox(node);
      else {
        node.qbSearch.hide();
        node.qbSearch.follow();
      }
    }
  }

  // Material's instant navigation emits on document$ after every page swap.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setup);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
