/* qbank "match my job description": loaded by the match page only (<locale>/match/).
 *
 * The reader pastes a job posting (English, Turkish or Chinese; its language is guessed from
 * its letters and common words). Everything runs here, nothing is sent: the posting is cut by
 * the search tokenizer (lib/tokenize.js: folding, Turkish suffixes, Snowball English,
 * Chinese as pairs of neighbouring characters) and scored against <lang>/api/match.json, the
 * topic profiles the build wrote with the same tokenizer (qbank/site/match.py: TF-IDF on one
 * scale for the whole bank, no stop words, no seniority words, no code): a topic scores the
 * sum, over the posting's distinct terms, of the term's weight in the topic times
 * 1 + log(its count in the posting). A topic is a match when it scores the bank's `strong`
 * (half of what naming a topic scores) and a tenth of the best, through two of the posting's
 * words at least; its bar is its score against its own ten most telling terms'. The matches that
 * have questions at the level are listed with the posting's words that found them (none: the
 * page says no strong match); the seniority comes from the posting's words (senior, kıdemli, 资深, intern,
 * stajyer, 实习, the catalog's own level names, years of experience) and starts a practice
 * session over the best topics of the best field at that seniority
 * (<locale>/<field>/practice/?level=<key>&topics=<a>,<b>); the reader may pick another level.
 * No posting text goes through innerHTML. The form is `hidden` until this module runs.
 */
import { h } from "./lib/dom.js";
import { json, root } from "./lib/site.js";
import { CJK, fold, isCjk, stem, stemmerFor, words } from "./lib/tokenize.js";


// Words that name a seniority, folded as Turkish folds (lower case, ASCII): a trailing "*"
// lets the word go on (Turkish suffixes: "kıdemli" in "kıdemliler").
const CUES = {
  senior: [
    "senior", "sr", "lead", "tech lead", "team lead", "principal", "staff engineer", "architect",
    "head of", "kidemli*", "lider*", "takim lideri*", "basmuhendis*",
    "高级", "资深", "专家", "负责人", "架构师", "主管",
  ],
  junior: [
    "junior", "jr", "intern", "interns", "internship", "graduate", "new grad", "entry level",
    "entry-level", "trainee", "stajyer*", "staj", "yeni mezun*", "baslangic seviye*",
    "初级", "实习", "应届", "校招", "毕业生",
  ],
  mid: ["mid level", "mid-level", "midlevel", "intermediate", "orta seviye*", "orta duzey*", "中级"],
};
const RANKS = ["junior", "mid", "senior"];
const DIGITS = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
const YEARS = [
  /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*)?(?:years?|yrs?|yil)/,
  /([0-9一二两三四五六七八九十]{1,2})\s*年(?:以上|及以上|.{0,6}经验)/,
];
const CHUNK = /[\p{L}\p{N}_]+(?:['\u2019]\p{L}+)?/gu;
const CJK_CHARS = new RegExp(`[${CJK}]`, "gu"); // (counting)
const HAS_CJK = new RegExp(`[${CJK}]`, "u");
const SHOWN = 8; // topics listed at most
// A match scores at least the bank's `strong` (match.json: half of what naming a topic scores) …
const WORDS = 2; // … through at least this many of the posting's words …
const KEPT = 0.1; // … and at least this share of the best match's score
const FULL = 10; // a full bar: the score of the topic's FULL most telling terms
const PRACTISED = 0.5; // topics of the best field in the practice link: this share and up

// The posting's language among the site's locales: Chinese by its characters, Turkish by
// its letters and common words, else English; the page's locale when that one is absent.
function language(text, locales, page) {
  const pick = (lang) => locales.find((l) => l.toLowerCase().startsWith(lang)) || page;
  const cjk = (text.match(CJK_CHARS) || []).length;
  const latin = (text.match(/[A-Za-zÀ-ɏ]/g) || []).length;
  if (cjk && cjk * 3 >= latin) return pick("zh");
  const words = text.toLowerCase().match(/\p{L}+/gu) || [];
  const count = (set) => words.filter((w) => set.has(w)).length;
  const tr = count(new Set(["ve", "ile", "için", "bir", "bu", "olan", "veya", "en", "az", "deneyimi"]));
  const en = count(new Set(["the", "and", "with", "for", "of", "to", "you", "our", "in", "a"]));
  const letters = (text.match(/[ğışİĞŞ]/g) || []).length;
  return tr + letters > en ? pick("tr") : pick("en");
}

// {rank: Set of the cue words found}: CUES, the catalog's level names, years of experience.
function seniorityCues(text, data) {
  const folded = fold(text, "tr");
  const title = folded.split("\n").find((line) => line.trim()) || "";
  const found = new Map();
  const votes = new Map();
  const has = (haystack, cue) => {
    const open = cue.endsWith("*");
    const word = open ? cue.slice(0, -1) : cue;
    if (HAS_CJK.test(word)) return haystack.includes(word);
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}${open ? "" : "(?![\\p{L}\\p{N}])"}`, "u").test(haystack);
  };
  const vote = (key, word, where) => {
    if (!found.has(key)) found.set(key, new Set());
    if (found.get(key).has(word) && !where) return;
    found.get(key).add(word);
    votes.set(key, (votes.get(key) || 0) + (where ? 2 : 1));
  };
  const keyOf = rankKeys(data);
  for (const rank of RANKS) {
    for (const cue of CUES[rank]) {
      if (has(folded, cue)) vote(keyOf[rank], cue.replace("*", ""), has(title, cue));
    }
  }
  for (const [key, names] of Object.entries(data.level_names || {})) {
    for (const name of names) {
      const cue = fold(name, "tr");
      if (has(folded, cue)) vote(key, cue, has(title, cue));
    }
  }
  for (const pattern of YEARS) {
    const hit = folded.match(pattern);
    if (!hit) continue;
    const years = /\d/.test(hit[1]) ? Number(hit[1]) : DIGITS[hit[1]] || 0;
    vote(keyOf[years >= 5 ? "senior" : years >= 2 ? "mid" : "junior"], hit[0].trim(), false);
    break;
  }
  return { found, votes };
}

// The catalog key of each rank: the key of that name, else by position (first, middle, last).
function rankKeys(data) {
  const keys = data.seniorities.map(([key]) => key);
  const byPlace = { junior: keys[0], mid: keys[Math.floor((keys.length - 1) / 2)], senior: keys[keys.length - 1] };
  return Object.fromEntries(RANKS.map((rank) => [rank, keys.includes(rank) ? rank : byPlace[rank]]));
}

function seniority(text, data) {
  const { found, votes } = seniorityCues(text, data);
  const keys = data.seniorities.map(([key]) => key);
  const middle = keys.indexOf(rankKeys(data).mid);
  let best = null;
  for (const key of keys) {
    const v = votes.get(key) || 0;
    if (!v) continue;
    const b = best === null ? 0 : votes.get(best);
    const nearer = Math.abs(keys.indexOf(key) - middle) < Math.abs(keys.indexOf(best) - middle);
    if (best === null || v > b || (v === b && nearer)) best = key;
  }
  return best === null
    ? { key: keys[middle], words: [] }
    : { key: best, words: [...found.get(best)] };
}

// The posting's terms: Map(term → {count, surface}), and its CJK runs (arrays of characters).
function postingTerms(text, lang, stemmer) {
  const counts = new Map();
  const runs = [];
  for (const [chunk] of text.matchAll(CHUNK)) {
    const pieces = words(chunk, lang);
    for (const piece of pieces) {
      if (isCjk(piece)) runs.push(Array.from(piece));
      else if (piece.length >= 2) {
        const term = stem(piece, lang, stemmer);
        const seen = counts.get(term);
        if (seen) seen.count += 1;
        else counts.set(term, { count: 1, surface: pieces.length === 1 ? chunk.replace(/['\u2019].*$/u, "") : piece });
      }
    }
  }
  return { counts, runs };
}

// The stretches of the posting's CJK runs that a topic's pairs cover: Map(text → {count,
// weight}); a stretch weighs as its best pair, a little more for each further pair (so a
// long word, cut into many pairs, counts about as one word, as an English word does).
function stretches(runs, terms) {
  const found = new Map();
  for (const chars of runs) {
    let i = 0;
    while (i + 1 < chars.length) {
      let j = i;
      let best = 0;
      while (j + 1 < chars.length && terms[chars[j] + chars[j + 1]]) {
        best = Math.max(best, terms[chars[j] + chars[j + 1]]);
        j += 1;
      }
      if (j > i) {
        const text = chars.slice(i, j + 1).join("");
        const seen = found.get(text);
        if (seen) seen.count += 1;
        else found.set(text, { count: 1, weight: best * (1 + 0.25 * (j - i - 1)) });
      }
      i = Math.max(j, i + 1);
    }
  }
  return found;
}

// Each topic's score and the posting's words that matched it, best first.
function rank(data, posting) {
  const ranked = [];
  for (const topic of data.topics) {
    let score = 0;
    const why = [];
    const matched = [...posting.counts].map(([term, { count, surface }]) => [surface, count, topic.terms[term]]);
    for (const [text, { count, weight }] of stretches(posting.runs, topic.terms)) matched.push([text, count, weight]);
    for (const [surface, count, weight] of matched) {
      if (!weight) continue;
      const part = weight * (1 + Math.log(count));
      score += part;
      why.push([surface, part]);
    }
    if (score > 0) ranked.push({ topic, score, words: new Set(why.map(([word]) => word.toLowerCase())).size, why: dedupe(why) });
  }
  ranked.sort((a, b) => b.score - a.score || a.topic.topic.localeCompare(b.topic.topic));
  return ranked;
}

// What a posting naming the topic's FULL most telling terms once scores: its bar's full length.
function fullScore(topic) {
  const weights = Object.values(topic.terms).sort((a, b) => b - a);
  return weights.slice(0, FULL).reduce((sum, w) => sum + w, 0) || 1;
}

function dedupe(why) {
  const best = new Map();
  for (const [word, part] of why) best.set(word, Math.max(part, best.get(word) || 0));
  return [...best].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([word]) => word);
}

class Matcher {
  constructor(node) {
    this.node = node;
    this.text = JSON.parse(node.dataset.strings);
    this.locale = node.dataset.locale;
    this.locales = node.dataset.locales.split(" ");
    this.root = root;
    this.input = node.querySelector(".qb-match__text");
    this.status = node.querySelector(".qb-match__status");
    this.result = node.querySelector(".qb-match__result");
    this.done = 0;
    this.shown = null;
    for (const part of node.querySelectorAll("[hidden].qb-match__form")) part.hidden = false;
    this.token = 0;
    node.querySelector(".qb-match__go").addEventListener("click", () => this.run());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) this.run();
    });
  }

  async run() {
    const token = ++this.token;
    const posting = this.input.value.trim();
    this.result.replaceChildren();
    this.status.textContent = posting ? this.text.loading : this.text.empty;
    if (posting) {
      try {
        const shown = await this.match(posting);
        if (token === this.token) this.show(shown);
      } catch (error) {
        if (token === this.token) this.status.textContent = this.text.error;
      }
    }
    if (token === this.token) this.node.dataset.done = String(++this.done);
  }

  async match(posting) {
    const lang = language(posting, this.locales, this.locale);
    const [data, names] = await Promise.all([
      json(new URL(`${lang}/api/match.json`, root)),
      json(new URL(`${this.locale}/api/match.json`, root)),
    ]);
    const stemmer = await stemmerFor(data.stem);
    const ranked = rank(data, postingTerms(posting, lang, stemmer));
    const level = seniority(posting, names);
    return { lang, ranked, level, names, strong: data.strong || 1 };
  }

  show(shown, chosen) {
    const { lang, ranked, level, names } = shown;
    this.shown = shown;
    const key = chosen || level.key;
    const text = this.text;
    const levelName = new Map(names.seniorities).get(key) || key;
    const named = new Map(names.topics.map((t) => [`${t.field}/${t.topic}`, t]));
    const fields = new Map(names.fields);
    this.node.dataset.lang = lang;
    this.node.dataset.level = key;
    this.result.replaceChildren();
    const own = (topic) => named.get(`${topic.field}/${topic.topic}`) || topic;
    const least = Math.max(shown.strong, KEPT * (ranked.length ? ranked[0].score : 0));
    const strong = ranked.filter((r) => r.score >= least && r.words >= WORDS);
    const kept = strong.filter((r) => (own(r.topic).levels || {})[key]).slice(0, SHOWN);
    this.status.textContent = !strong.length ? text.weak : kept.length ? "" : text.none_at_level.replace("{level}", levelName);
    this.node.dataset.strong = String(kept.length);
    if (!strong.length) return;
    const choice = h("select", { class: "qb-match__level-choice" });
    for (const [k, name] of names.seniorities) {
      const option = h("option", { value: k }, name);
      option.selected = k === key;
      choice.append(option);
    }
    choice.addEventListener("change", () => this.show(this.shown, choice.value));
    const label = h("label", { class: "qb-match__level-pick" }, `${text.level_pick} `);
    label.append(choice);
    if (!kept.length) {
      const line = h("p");
      line.append(label);
      this.result.append(line);
      return;
    }
    const best = kept[0].score;
    const field = kept[0].topic.field;
    const practised = kept
      .filter((r) => r.topic.field === field && r.score >= PRACTISED * best)
      .map((r) => r.topic.topic);

    const head = h("p", { class: "qb-match__level" }, text.level.replace("{level}", new Map(names.seniorities).get(level.key) || level.key));
    const why = level.words.length ? text.level_why.replace("{words}", level.words.join(", ")) : text.level_default;
    head.append(" ", h("span", { class: "qb-match__level-why" }, `(${why})`), " ", label);
    const go = h("a", { class: "qb-match__practice md-button md-button--primary" }, text.practice.replace("{level}", levelName));
    const target = new URL(`${this.locale}/${field}/practice/`, this.root);
    target.searchParams.set("level", key);
    target.searchParams.set("topics", practised.join(","));
    go.href = target.href;
    const list = h("ol", { class: "qb-match__topics" });
    for (const { topic, score, why: words } of kept) {
      const path = `${topic.field}/${topic.topic}`;
      const mine = own(topic);
      const item = h("li", { class: "qb-match__topic" });
      item.dataset.topic = path;
      const link = h("a", { class: "qb-match__name" }, mine.name);
      link.href = new URL(`${this.locale}/${path}/`, this.root).href;
      const meter = h("meter", { class: "qb-match__score" });
      meter.min = 0;
      meter.max = 100;
      meter.value = Math.min(100, Math.round((100 * score) / fullScore(topic)));
      meter.setAttribute("aria-hidden", "true");
      const where = `${mine.specialization} · ${fields.get(topic.field) || topic.field}`;
      const count = (mine.levels || {})[key] || 0;
      const counted = text.questions.replace("{n}", String(count)).replace("{level}", levelName);
      item.append(link, " ", meter, h("div", { class: "qb-match__where" }, `${where} · ${counted}`));
      const matched = h("div", { class: "qb-match__why" });
      matched.append(h("span", null, `${text.why} `));
      words.forEach((word, i) => matched.append(i ? ", " : "", h("mark", null, word)));
      item.append(matched);
      list.append(item);
    }
    const action = h("p");
    action.append(go);
    this.result.append(head, action, list);
  }
}

/** Sets up the page's posting box (once: instant navigation back to the page brings a new one). */
export function mount() {
  for (const node of document.querySelectorAll(".qb-match")) {
    if (!node.qbMatch) node.qbMatch = new Matcher(node);
  }
}
