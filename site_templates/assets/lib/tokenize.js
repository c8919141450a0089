/* Search terms: the same cuts as qbank/search/tokenize.py, function for function (folding with
 * Turkish case rules and ASCII, Turkish suffix rules read from the index's manifest, Snowball
 * English from assets/snowball-english.js, CJK characters and pairs). Pure: search.js cuts
 * queries with it, match.js job postings; tests/test_search_tokenize.py runs it in node against
 * the Python tokenizer, tests/js/tokenize.test.js on its own. */

export const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const PIECES = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}_])+`, "gu");
const CJK_RUN = new RegExp(`^[${CJK}]+$`, "u");
const APOSTROPHE_SUFFIX = /['\u2019]\p{L}+/gu;
const TO_ASCII = { ç: "c", ğ: "g", ı: "i", ö: "o", ş: "s", ü: "u", â: "a", î: "i", û: "u" };
const VOWELS = "aeiou";

const turkic = (locale) => /^(tr|az)/i.test(locale);
export const length = (text) => Array.from(text).length;

export function fold(text, locale) {
  const normal = text.normalize("NFC");
  if (!turkic(locale)) return normal.toLowerCase();
  const lower = normal.replace(/I/g, "ı").replace(/İ/g, "i").toLowerCase();
  return lower.replace(/[çğıöşüâîû]/g, (char) => TO_ASCII[char]);
}

export function words(text, locale) {
  const cut = turkic(locale) ? text.replace(APOSTROPHE_SUFFIX, "") : text;
  return fold(cut, locale).match(PIECES) || [];
}

export const isCjk = (term) => CJK_RUN.test(term);

// A Turkish word (ASCII-folded) without its suffixes, by the manifest's rules.
function stripTurkish(word, rules) {
  for (let round = 0; round < rules.rounds; round += 1) {
    let best = "";
    for (const rule of rules.suffixes) {
      const suffix = rule.replace(/^[+-]/, "");
      if (suffix.length <= best.length || !word.endsWith(suffix)) continue;
      const stem = word.slice(0, word.length - suffix.length);
      if (length(stem) < rules.min || ![...stem].some((c) => VOWELS.includes(c))) continue;
      const last = stem[stem.length - 1];
      if (rule[0] === "+" && (!VOWELS.includes(last) || length(stem) < rules.after_vowel)) continue;
      if (rule[0] === "-" && VOWELS.includes(last)) continue;
      best = suffix;
    }
    if (!best) break;
    word = word.slice(0, word.length - best.length);
  }
  const last = word.slice(-1);
  if (length(word) > rules.min && rules.final[last] !== undefined) {
    return word.slice(0, -1) + rules.final[last];
  }
  return word;
}

// stemmer: {rules} (Turkish), {snowball: a Snowball stemmer object} or null.
export function stem(word, locale, stemmer) {
  if (!stemmer) return word;
  if (turkic(locale)) return stripTurkish(word, stemmer.rules);
  return stemmer.snowball ? stemmer.snowball.stemWord(word) : word;
}

export function* terms(text, locale, stemmer) {
  for (const piece of words(text, locale)) {
    if (isCjk(piece)) {
      const chars = Array.from(piece);
      yield* chars;
      for (let i = 0; i + 1 < chars.length; i += 1) yield chars[i] + chars[i + 1];
    } else yield stem(piece, locale, stemmer);
  }
}

/** The stemmer a manifest's `stem` names: {rules} (Turkish), {snowball} (a Snowball stemmer,
 * its module loaded beside this one's folder on first use) or null. */
export async function stemmerFor(spec) {
  if (!spec) return null;
  if (spec.suffixes) return { rules: spec };
  const module = await import(new URL(`../snowball-${spec.snowball}.js`, import.meta.url).href);
  return { snowball: new module.default() };
}
