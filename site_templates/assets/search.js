/* qbank search: the header's search box over the site's own search index (qbank/search/).
 *
 * Each locale has an index under <locale>/api/search/: a manifest, terms files (a term's
 * questions with a weight step each: the terms of a run of three-letter prefixes, or a bucket
 * of CJK terms), documents files (URL, topic, prompt and the text of the options and
 * explanation of 16 questions each) and filter bitmaps. A query downloads the manifest once,
 * one terms file per query word and the documents of the results shown.
 * Query words are cut exactly as the index was (lib/tokenize.js mirrors
 * qbank/search/tokenize.py: folding with Turkish case rules and ASCII, Turkish suffix rules
 * read from the manifest, Snowball English from assets/snowball-english.js, CJK characters
 * and pairs). Results that match every word come first, then those matching most, each tier
 * ranked BM25-like (the weight step of the posting times the rarity of the word). One result
 * per question, linking to its anchor (#q-{id}), with its prompt and, when the match is
 * elsewhere, an excerpt of its options or explanation, matched words marked; never which
 * option is right. Filters: field, seniority, difficulty. Everything is a file of this site
 * (no CDN). The box keeps working across Material's instant navigation (qbank.js mounts
 * it again on each page), following the locale of the current URL. No content string goes through innerHTML.
 */
import { h } from "./lib/dom.js";
import { json, root } from "./lib/site.js";
import { CJK, fold, isCjk, length, stem, stemmerFor, words } from "./lib/tokenize.js";

const PAGE = 10;
// Results a Chinese query orders by where its words show: the first page's (their documents
// are downloaded anyway); two pages' for a query of one or two characters, whose weights
// alone order worst (a few more documents files).
const RERANK = PAGE;
const RERANK_SHORT = 2 * PAGE;
const FILTERS = ["field", "seniority", "difficulty"];
// Letters a stem needs to match the longer terms it starts when the stemmer cut it.
const LEAD = 4;
const LETTER = /\p{L}/u;
// The manifest's format this script reads (qbank/search/index.py FORMAT).
const FORMAT = 3;

const instances = new Map(); // locale → Promise of an Index

function localeOf(settings) {
  const path = decodeURIComponent(location.pathname);
  const rest = path.startsWith(root.pathname) ? path.slice(root.pathname.length) : "";
  const first = rest.split("/")[0];
  return settings.locales.includes(first) ? first : settings.default;
}

function bucket(term, buckets) {
  let hash = 0;
  for (const char of term) hash = (Math.imul(hash, 31) + char.codePointAt(0)) >>> 0;
  return hash % buckets;
}

function hexName(key) {
  return Array.from(key, (char) => char.codePointAt(0).toString(16)).join("-");
}

// Two keys in code point order (as Python sorts them; UTF-16 order differs past U+FFFF).
function compare(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

// Whether an indexed term answers a query unit, and how well (0: not at all). A word
// matches its own stem fully; a longer term it starts (typing, or a longer form), or a
// shorter stem that differs by at most two letters (forms a suffix rule cut differently),
// less. A word the stemmer cut to a short stem (sayı → say, uses → use) was typed whole: a
// longer term must start with the word as typed (sayısal, not sayfa; not user), or with the
// stem and then no letter (a compound: pinned → pin_memory).
function likeness(unit, term) {
  if (term === unit.term) return 1;
  if (unit.cjk || unit.short) return 0;
  if (term.startsWith(unit.lead) || (term.startsWith(unit.term) && !LETTER.test(term.charAt(length(unit.term))))) {
    return 0.7; // (or the short stem then a compound's joint: pinned → pin_memory)
  }
  const extra = length(unit.term) - length(term);
  return extra > 0 && extra <= 2 && length(term) >= 3 && unit.term.startsWith(term)
    ? 0.7
    : 0;
}

// How many typos a query word may hold when nothing matches it as typed: none under five
// letters, one up to seven, two from eight.
function typos(term) {
  const n = length(term);
  return n < 5 ? 0 : n < 8 ? 1 : 2;
}

// The edit distance of two terms (a letter added, dropped, changed, or two neighbours
// swapped count one each), or max + 1 as soon as it is sure to be over ``max``.
function distance(a, b, max) {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let before = null;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= y.length; j += 1) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (before && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > max) return max + 1;
    before = prev;
    prev = row;
  }
  return prev[y.length];
}

// The units of a query: a stem per word; a CJK run as its characters (each counts as a
// word) and its pairs (they only add to the score, so neighbours rank first). A character
// of a longer run is found only through the pairs that hold it (``pairs``): a word the bank
// lacks (闭包) is not found through one of its characters in other words (包 of 包括).
function queryUnits(query, locale, stemmer, manifest) {
  const units = new Map();
  const add = (unit) => units.get(unit.term) || units.set(unit.term, unit).get(unit.term);
  for (const piece of words(query, locale)) {
    if (isCjk(piece)) {
      const chars = Array.from(piece);
      if (chars.length === 1) add({ term: piece, cjk: true, counts: true }).pairs = null;
      for (let i = 0; i + 1 < chars.length; i += 1) {
        const pair = add({ term: chars[i] + chars[i + 1], cjk: true, counts: false });
        for (const char of [chars[i], chars[i + 1]]) {
          const unit = add({ term: char, cjk: true, counts: true, pairs: [] });
          if (unit.pairs) unit.pairs.push(pair);
        }
      }
    } else {
      const term = stem(piece, locale, stemmer);
      const lead = term !== piece && length(term) < LEAD ? piece : term;
      add({ term, lead, cjk: false, counts: true, short: length(term) < manifest.prefix });
    }
  }
  for (const unit of units.values()) {
    unit.key = unit.cjk
      ? `~${bucket(unit.term, manifest.buckets)}`
      : Array.from(unit.term).slice(0, manifest.prefix).join(""); // its prefix
  }
  return [...units.values()];
}

// Marks the words of a text that answer the query's units (same folding and stemming).
function matcher(units, locale, stemmer) {
  const chars = new Set(units.filter((u) => u.cjk).map((u) => u.term).filter((t) => length(t) === 1));
  const latin = units.filter((u) => !u.cjk);
  return (token) => {
    if (isCjk(token)) return Array.from(token).map((char) => chars.has(char));
    const [piece] = words(token, locale);
    if (!piece) return false;
    const term = stem(piece, locale, stemmer);
    return latin.some((unit) => likeness(unit, term) > 0 || (unit.near && unit.near.has(term)));
  };
}

class Index {
  constructor(locale, manifest, stemmer) {
    this.locale = locale;
    this.manifest = manifest;
    this.stemmer = stemmer;
    this.folder = new URL(`${locale}/api/search/`, root);
    // The terms files of prefixes, by first character: the first prefix of each run, sorted.
    this.runs = new Map();
    for (const first of manifest.shards ? manifest.shards.split("\n") : []) {
      const char = String.fromCodePoint(first.codePointAt(0));
      if (!this.runs.has(char)) this.runs.set(char, []);
      this.runs.get(char).push(first);
    }
  }

  // The terms file holding the terms of ``prefix``: the last run of its first character that
  // starts at or before it (none: no term has it).
  fileOf(prefix) {
    const starts = this.runs.get(String.fromCodePoint(prefix.codePointAt(0))) || [];
    let found = null;
    for (const start of starts) {
      if (compare(start, prefix) > 0) break;
      found = start;
    }
    return found;
  }

  file(path) {
    return json(new URL(path, this.folder));
  }

  // Questions of one query unit: Map(question → weight of its best matching term there).
  async matches(unit) {
    const found = new Map();
    const name = unit.cjk ? unit.key : this.fileOf(unit.key); // (every CJK bucket exists)
    if (name === null) return found;
    const file = await this.file(`t/${hexName(name)}.json`);
    // A run holds other prefixes too: only the terms of the unit's prefix are looked at (a
    // prefix shorter than three characters is a whole term).
    const whole = length(unit.key) < this.manifest.prefix;
    const shard = unit.cjk
      ? Object.entries(file)
      : Object.entries(file).filter(([term]) => (whole ? term === unit.key : term.startsWith(unit.key)));
    const levels = this.manifest.levels;
    const post = (deltas, like) => {
      let code = 0;
      for (const delta of deltas) {
        code += delta;
        const id = Math.floor(code / levels);
        const weight = (like * (code % levels)) / (levels - 1);
        if (weight > (found.get(id) || 0)) found.set(id, weight);
      }
    };
    for (const [term, deltas] of shard) {
      const like = likeness(unit, term);
      if (like) post(deltas, like);
    }
    // Nothing as typed: the terms of the same prefix a typo or two away ("thrughput"),
    // weighed less; the matcher marks them too.
    const max = found.size || unit.cjk || unit.short ? 0 : typos(unit.term);
    if (max) {
      unit.near = new Set();
      for (const [term, deltas] of shard) {
        const d = distance(unit.term, term, max);
        if (d > max) continue;
        unit.near.add(term);
        post(deltas, 0.6 - 0.1 * d);
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

  // {results: [{id, data}], every, mark, short, symbols}: questions matching every word
  // first (``every`` of them), then most words, each tier by score; with no query, every
  // question (filters alone); a query without a word (``===``), nothing (``symbols``).
  async search(query, options) {
    const filters = (options && options.filters) || {};
    const units = query ? queryUnits(query, this.locale, this.stemmer, this.manifest) : [];
    if (query && !units.length) return { results: [], every: 0, symbols: true, mark: () => false };
    const derived = (unit) => unit.cjk && unit.pairs; // a character found through its pairs
    const [keep, ...first] = await Promise.all([
      this.allowed(filters),
      ...units.map((unit) => (derived(unit) ? null : this.matches(unit))),
    ]);
    const byTerm = new Map(units.map((unit, i) => [unit.term, first[i]]));
    const found = await Promise.all(
      units.map(async (unit, i) => {
        if (!derived(unit)) return first[i];
        const union = new Map();
        for (const pair of unit.pairs) {
          for (const [id, weight] of byTerm.get(pair.term)) {
            if (weight > (union.get(id) || 0)) union.set(id, weight);
          }
        }
        return union;
      }),
    );
    const total = this.manifest.docs;
    let ids;
    const score = new Map();
    const tier = new Map();
    if (units.length) {
      // A word in over a quarter of the questions ("the", "bir") ranks but never admits a
      // question alone, unless the query has no rarer word that matched.
      const common = (set) => total >= 20 && set.size > total / 4;
      const counting = found.filter((_, i) => units[i].counts);
      const rare = counting.filter((set) => set.size && !common(set));
      const admitted = new Set();
      if (rare.length) for (const set of rare) for (const id of set.keys()) admitted.add(id);
      else if (counting.length && counting.every((set) => set.size)) {
        for (const id of counting[0].keys()) if (counting.every((set) => set.has(id))) admitted.add(id);
      }
      found.forEach((set, i) => {
        const idf = Math.log(1 + (total - set.size + 0.5) / (set.size + 0.5));
        const boost = units[i].counts ? 1 : 1.5;
        for (const [id, weight] of set) {
          if (!admitted.has(id)) continue;
          score.set(id, (score.get(id) || 0) + boost * idf * weight);
          if (units[i].counts) tier.set(id, (tier.get(id) || 0) + 1);
        }
      });
      ids = [...admitted];
    } else {
      ids = Array.from({ length: total }, (_, i) => i);
    }
    if (keep) ids = ids.filter((id) => (keep[id >> 3] >> (id & 7)) & 1);
    ids.sort(
      (a, b) => (tier.get(b) || 0) - (tier.get(a) || 0) || score.get(b) - score.get(a) || a - b,
    );
    if (units.length && units.every((unit) => unit.cjk)) ids = await this.shownFirst(query, ids, tier);
    const words = units.filter((unit) => unit.counts).length;
    return {
      results: ids.map((id) => ({ id, data: () => this.document(id) })),
      every: words > 1 ? ids.filter((id) => tier.get(id) === words).length : ids.length,
      mark: matcher(units, this.locale, this.stemmer),
      short: units.some((unit) => unit.short),
    };
  }

  // A Chinese query: its first results (RERANK, RERANK_SHORT) ordered by where its words
  // show, whole (a character, a two-character word, a run): in the prompt, then in the
  // options and explanation shown, then neither; tiers first, the score's order last. A
  // weight step cannot tell the prompt from the explanation (a character said three times
  // deep in a long explanation weighs what it weighs once in a prompt); the documents can.
  async shownFirst(query, ids, tier) {
    const pieces = words(query, this.locale).filter(isCjk);
    const short = length(pieces.join("")) <= 2;
    const count = short ? RERANK_SHORT : RERANK;
    const head = ids.slice(0, count);
    const data = await Promise.all(head.map((id) => this.document(id)));
    const holds = (text) => {
      const folded = fold(text || "", this.locale);
      return pieces.filter((piece) => folded.includes(piece)).length;
    };
    const place = new Map(
      head.map((id, n) => [id, [holds(data[n].meta.prompt), holds(data[n].meta.more), n]]),
    );
    const where = (a, b) => {
      const [x, y] = [place.get(a), place.get(b)];
      return y[0] - x[0] || y[1] - x[1] || x[2] - y[2];
    };
    head.sort((a, b) => (tier.get(b) || 0) - (tier.get(a) || 0) || where(a, b));
    return head.concat(ids.slice(count));
  }

  async document(id) {
    const chunk = await this.file(`d/${Math.floor(id / this.manifest.chunk)}.json`);
    const [url, topic, prompt, more] = chunk[id % this.manifest.chunk];
    return { url, meta: { url, topic, prompt, more } };
  }
}

function indexFor(locale) {
  if (!instances.has(locale)) {
    const ready = (async () => {
      const manifest = await json(new URL(`${locale}/api/search/index.json`, root));
      if (manifest.format !== FORMAT) throw new Error(`search index format ${manifest.format}`);
      return new Index(locale, manifest, await stemmerFor(manifest.stem));
    })();
    ready.catch(() => instances.delete(locale));
    instances.set(locale, ready);
  }
  return instances.get(locale);
}

// -- what a result shows ----------------------------------------------------------------
const CODE_OPEN = "\ue000";
const CODE_CLOSE = "\ue001";
const TOKEN = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}_])+`, "gu");
const EXCERPT = 180;

// Append ``text`` to ``parent`` with the words ``mark`` accepts in <mark>.
function appendMarked(parent, text, mark) {
  let at = 0;
  let hits = 0;
  for (const found of text.matchAll(TOKEN)) {
    const token = found[0];
    const verdict = mark(token);
    if (Array.isArray(verdict)) {
      // CJK: mark the runs of the query's characters
      const chars = Array.from(token);
      let offset = found.index;
      let i = 0;
      while (i < chars.length) {
        if (!verdict[i]) {
          offset += chars[i].length;
          i += 1;
          continue;
        }
        let run = "";
        while (i < chars.length && verdict[i]) run += chars[i++];
        parent.append(text.slice(at, offset), h("mark", null, run));
        hits += 1;
        offset += run.length;
        at = offset;
      }
    } else if (verdict) {
      parent.append(text.slice(at, found.index), h("mark", null, token));
      at = found.index + token.length;
      hits += 1;
    }
  }
  parent.append(text.slice(at));
  return hits;
}

// A shown text (code between CODE_OPEN and CODE_CLOSE) as a span; code in <code>.
function shown(text, mark, className) {
  const span = h("span", { class: className });
  let hits = 0;
  text.split(CODE_OPEN).forEach((part, number) => {
    let rest = part;
    if (number) {
      const cut = part.indexOf(CODE_CLOSE);
      const node = h("code", { class: "qb-search__code" });
      hits += appendMarked(node, cut < 0 ? part : part.slice(0, cut), mark);
      span.append(node);
      rest = cut < 0 ? "" : part.slice(cut + 1);
    }
    hits += appendMarked(span, rest, mark);
  });
  return { span, hits };
}

// The part of ``text`` around its first matched word (about EXCERPT characters).
function excerpt(text, mark) {
  let first = -1;
  for (const found of text.matchAll(TOKEN)) {
    const verdict = mark(found[0]);
    if (Array.isArray(verdict) ? verdict.some(Boolean) : verdict) {
      first = found.index;
      break;
    }
  }
  if (first < 0) return null;
  let start = Math.max(0, first - 60);
  if (start > 0) start = text.indexOf(" ", start) + 1 || start;
  const end = Math.min(text.length, start + EXCERPT);
  const before = text.slice(0, start);
  const inCode = before.lastIndexOf(CODE_OPEN) > before.lastIndexOf(CODE_CLOSE);
  const piece = (inCode ? CODE_OPEN : "") + text.slice(start, end);
  return `${start > 0 ? "…" : ""}${piece}${end < text.length ? "…" : ""}`;
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
    this.openedOn = ""; // the address the panel was last opened on (``mount``)
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
    const text = this.settings.text;
    return text[this.locale] || text[this.settings.default] || Object.values(text)[0];
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
      const label = h("label", { class: "qb-search__filter" });
      label.append(h("span", null, text[name]));
      const select = h("select");
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
    this.openedOn = location.href; // (see ``mount``)
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
    this.every = 0;
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
    this.mark = found.mark;
    this.every = found.every;
    const count = this.results.length;
    this.node.dataset.count = String(count);
    this.node.dataset.every = String(found.every);
    this.status.textContent = this.counted(query, filters, found);
    await this.page(token);
  }

  // What the status line says of ``found``: how many questions hold every word and how many
  // more some of them; that nothing holds the query, or that it has no word to look for.
  counted(query, filters, found) {
    const text = this.text;
    const count = found.results.length;
    const rest = count - found.every;
    if (found.symbols) return text.symbols;
    // A word of one or two letters matches whole words only: with nothing found yet, wait
    // for more letters instead of saying nothing matches.
    if (count === 0) {
      if (found.short) return "…";
      return query && !Object.keys(filters).length ? text.absent.replace("{query}", query) : text.none;
    }
    if (rest && found.every) {
      return text.every_some.replace("{n}", String(found.every)).replace("{m}", String(rest));
    }
    if (rest) return text.only_some.replace("{m}", String(rest));
    return count === 1 ? text.results_one : text.results_other.replace("{n}", String(count));
  }

  // Load and show the next PAGE results (their documents files).
  async page(token) {
    const next = this.results.slice(this.shown, this.shown + PAGE);
    const data = await Promise.all(next.map((result) => result.data()));
    if (token !== this.token) return;
    const mark = this.mark || (() => false);
    data.forEach((item, n) => {
      const meta = item.meta || {};
      const link = h("a", { class: "qb-search__link" });
      link.href = new URL(item.url.replace(/^\//, ""), root).href;
      if (meta.topic) link.append(h("span", { class: "qb-search__topic" }, meta.topic));
      const prompt = shown(meta.prompt || "", mark, "qb-search__snippet");
      link.append(prompt.span);
      const around = prompt.hits ? null : excerpt(meta.more || "", mark);
      if (around) link.append(shown(around, mark, "qb-search__excerpt").span);
      const entry = h("li", { class: "qb-search__result" });
      // The first result with only some of the words, under a line saying so.
      if (this.shown + n === this.every && this.every) {
        entry.classList.add("qb-search__result--some");
        entry.append(h("span", { class: "qb-search__some" }, this.text.some_words));
      }
      entry.append(link);
      this.list.append(entry);
    });
    this.shown += next.length;
    this.more.hidden = this.shown >= this.results.length;
  }
}

/** Sets up the header's search box, or has it follow the page it now shows (its locale's
 * text and filters; instant navigation keeps the header). A panel opened on an earlier page
 * closes; one the reader opened once the address had changed, before the new page was
 * mounted, stays open. */
export function mount() {
  for (const node of document.querySelectorAll(".qb-search")) {
    if (!node.qbSearch) node.qbSearch = new SearchBox(node);
    else {
      if (node.qbSearch.openedOn !== location.href) node.qbSearch.hide();
      node.qbSearch.follow();
    }
  }
}
