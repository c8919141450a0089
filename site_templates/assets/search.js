/* qbank search: the header's search box over the site's own search index (qbank/search.py).
 *
 * Each locale has an index under <locale>/api/search/: a manifest, terms files (a word's
 * questions), documents files (URL, topic and prompt of 32 questions each) and filter
 * bitmaps. A query downloads the manifest once, one terms file per query word and the
 * documents of the results shown. One result per question, linking to its anchor (#q-{id});
 * the snippet is the question's prompt, never its answer. Words match by prefix (Turkish by
 * its first five letters, English after a plain suffix is cut), Chinese, Japanese and Korean
 * by character pairs. Filters: field, seniority, difficulty. Everything is a file of this
 * site (no CDN). The box keeps working across Material's instant navigation (document$),
 * following the locale of the current URL. No content string goes through innerHTML.
 */
(() => {
  "use strict";

  const PAGE = 10;
  const SNIPPET = 240;
  const FILTERS = ["field", "seniority", "difficulty"];
  // The same ranges as qbank/search.py: scripts written without spaces between words.
  const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
  const CJK_RUNS = new RegExp(`([${CJK}]+)`, "u");
  const CJK_START = new RegExp(`^[${CJK}]`, "u");
  const WORD = /[\p{L}\p{N}_]+/gu;

  // The site root, from Material's #__config base resolved against the first page loaded
  // (this script runs once; instant navigation keeps the header and this script).
  const configNode = document.getElementById("__config");
  const base = configNode ? JSON.parse(configNode.textContent || "{}").base || "." : ".";
  const root = new URL(base.endsWith("/") ? base : `${base}/`, location.href);

  const instances = new Map(); // locale → Promise of an Index

  function localeOf(settings) {
    const path = decodeURIComponent(location.pathname);
    const rest = path.startsWith(root.pathname) ? path.slice(root.pathname.length) : "";
    const first = rest.split("/")[0];
    return settings.locales.includes(first) ? first : settings.default;
  }

  async function json(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.json();
  }

  function fold(text, locale) {
    const turkic = /^(tr|az)/i.test(locale);
    const dotted = turkic ? text.replace(/I/g, "ı").replace(/İ/g, "i") : text;
    return dotted.normalize("NFC").toLowerCase();
  }

  // The part of a query word that must start an indexed word (a light stemmer).
  function stem(word, locale) {
    const chars = Array.from(word);
    if (/^(tr|az)/i.test(locale)) return chars.slice(0, 5).join("");
    if (/^en/i.test(locale)) {
      const cut = word.match(/^(.{3,}?)(?:ing|ed|es|s|ly)$/u);
      return cut ? cut[1] : word;
    }
    return word;
  }

  function bucket(term, buckets) {
    let h = 0;
    for (const char of term) h = (Math.imul(h, 31) + char.codePointAt(0)) >>> 0;
    return h % buckets;
  }

  function hexName(key) {
    return Array.from(key, (char) => char.codePointAt(0).toString(16)).join("-");
  }

  // The words of a query: [{key: terms file, terms: exact terms | prefix: a word start}].
  function queryWords(query, locale, manifest) {
    const words = [];
    for (const word of fold(query, locale).match(WORD) || []) {
      word.split(CJK_RUNS).forEach((run, number) => {
        if (!run) return;
        if (number % 2 && Array.from(run).length > 1) {
          const chars = Array.from(run);
          for (let i = 0; i + 1 < chars.length; i += 1) {
            const pair = chars[i] + chars[i + 1];
            words.push({ key: `~${bucket(pair, manifest.buckets)}`, exact: pair });
          }
        } else if (number % 2) {
          words.push({ key: `~${bucket(run, manifest.buckets)}`, exact: run });
        } else {
          const start = stem(run, locale);
          const key = Array.from(start).slice(0, manifest.prefix).join("");
          if (Array.from(start).length < manifest.prefix) words.push({ key, exact: start });
          else words.push({ key, prefix: start });
        }
      });
    }
    return words;
  }

  class Index {
    constructor(locale, manifest) {
      this.locale = locale;
      this.manifest = manifest;
      this.folder = new URL(`${locale}/api/search/`, root);
      this.present = new Set(manifest.shards.split("\n"));
      this.files = new Map();
    }

    file(path) {
      if (!this.files.has(path)) {
        const loading = json(new URL(path, this.folder));
        loading.catch(() => this.files.delete(path));
        this.files.set(path, loading);
      }
      return this.files.get(path);
    }

    // Questions of one query word: Map(question → 1 when the prompt holds it, else 0).
    async matches(word) {
      const found = new Map();
      if (!this.present.has(word.key)) return found;
      const shard = await this.file(`t/${hexName(word.key)}.json`);
      for (const [term, deltas] of Object.entries(shard)) {
        if (word.exact !== undefined ? term !== word.exact : !term.startsWith(word.prefix)) continue;
        let code = 0;
        for (const delta of deltas) {
          code += delta;
          const id = code >> 1;
          found.set(id, Math.max(found.get(id) || 0, code & 1));
        }
      }
      return found;
    }

    async allowed(filters) {
      const names = Object.keys(filters);
      if (!names.length) return null;
      const table = await this.file("f.json");
      let keep = null;
      for (const name of names) {
        const encoded = (table[name] || {})[filters[name]];
        const bits = encoded ? Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)) : new Uint8Array(0);
        keep = keep ? keep.map((byte, i) => byte & (bits[i] || 0)) : bits;
      }
      return keep;
    }

    // Best first (ties in bank order): {results: [{id, data: async () => ({url, meta})}]}.
    async search(query, options) {
      const filters = (options && options.filters) || {};
      const words = query ? queryWords(query, this.locale, this.manifest) : [];
      const [keep, ...found] = await Promise.all([
        this.allowed(filters),
        ...words.map((word) => this.matches(word)),
      ]);
      const total = this.manifest.docs;
      let ids;
      const score = new Map();
      if (words.length) {
        found.sort((a, b) => a.size - b.size);
        ids = [...found[0].keys()].filter((id) => found.every((set) => set.has(id)));
        for (const set of found) {
          const weight = Math.log(1 + total / (1 + set.size));
          for (const id of ids) score.set(id, (score.get(id) || 0) + weight * (1 + set.get(id)));
        }
      } else {
        ids = Array.from({ length: total }, (_, i) => i);
      }
      if (keep) ids = ids.filter((id) => (keep[id >> 3] >> (id & 7)) & 1);
      ids.sort((a, b) => (score.get(b) || 0) - (score.get(a) || 0) || a - b);
      return { results: ids.map((id) => ({ id, data: () => this.document(id) })) };
    }

    async document(id) {
      const chunk = await this.file(`d/${Math.floor(id / this.manifest.chunk)}.json`);
      const [url, topic, prompt] = chunk[id % this.manifest.chunk];
      return { url, meta: { url, topic, prompt } };
    }
  }

  function indexFor(locale) {
    if (!instances.has(locale)) {
      const ready = (async () => {
        const manifest = await json(new URL(`${locale}/api/search/index.json`, root));
        return new Index(locale, manifest);
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
      indexFor(this.locale).catch(() => {}); // start loading while the reader types
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
        const index = await indexFor(this.locale);
        found = await index.search(query || null, { filters });
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

    // Load and show the next PAGE results (their documents files).
    async page(token) {
      const next = this.results.slice(this.shown, this.shown + PAGE);
      const data = await Promise.all(next.map((result) => result.data()));
      if (token !== this.token) return;
      const query = this.input.value.trim();
      for (const item of data) {
        const meta = item.meta || {};
        const link = element("a", "qb-search__link");
        link.href = new URL(item.url.replace(/^\//, ""), root).href;
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
