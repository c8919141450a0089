// Search terms (site_templates/assets/lib/tokenize.js); tests/test_search_tokenize.py checks
// the same functions against the Python tokenizer on shared cases and the sample bank.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fold, isCjk, stem, stemmerFor, terms, words } from "../../site_templates/assets/lib/tokenize.js";

test("Turkish folds with its own dotted and dotless i, then to ASCII", () => {
  assert.equal(fold("IŞIK İstanbul", "tr"), "isik istanbul");
  assert.equal(fold("IŞIK", "en"), "işik");
});

test("a Turkish apostrophe suffix is dropped; CJK runs are pieces of their own", () => {
  assert.deepEqual(words("React'ın Promise’ler", "tr"), ["react", "promise"]);
  assert.deepEqual(words("用SQL查询", "zh"), ["用", "sql", "查询"]);
  assert.equal(isCjk("查询"), true);
  assert.equal(isCjk("sql"), false);
});

test("CJK terms are characters and neighbouring pairs", () => {
  assert.deepEqual([...terms("变量提升", "zh", null)], ["变", "量", "提", "升", "变量", "量提", "提升"]);
});

test("English is stemmed by the Snowball module, loaded on first use", async () => {
  const english = await stemmerFor({ snowball: "english" });
  assert.deepEqual(["collection", "collected", "collecting"].map((w) => stem(w, "en", english)), ["collect", "collect", "collect"]);
  assert.equal(await stemmerFor(null), null);
});

test("Turkish suffixes come off by the manifest's rules", async () => {
  const rules = { suffixes: ["ler", "lar", "+yi", "i"], rounds: 2, min: 3, final: {} };
  const turkish = await stemmerFor(rules);
  assert.deepEqual(turkish, { rules });
  assert.equal(stem("kitaplar", "tr", turkish), "kitap");
  assert.equal(stem("evler", "tr", turkish), "evler"); // the stem would be shorter than min
});
