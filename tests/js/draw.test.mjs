// The practice draw (site_templates/assets/lib/draw.js): a few of each page, pages at random.
import assert from "node:assert/strict";
import { test } from "node:test";

import { draw, shuffle } from "../../site_templates/assets/lib/draw.js";

function seeded(seed) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}
// 10 pages of 30 questions each
const pool = Array.from({ length: 300 }, (_, n) => ({ id: `q${n}`, file: `c${n % 10}` }));

test("20 of 300 come from three pages, at most 7 of each", () => {
  for (let seed = 1; seed < 30; seed++) {
    const drawn = draw(pool, 20, seeded(seed));
    assert.equal(drawn.length, 20);
    assert.equal(new Set(drawn.map((q) => q.id)).size, 20);
    const counts = new Map();
    for (const q of drawn) counts.set(q.file, (counts.get(q.file) || 0) + 1);
    assert.equal(counts.size, 3);
    assert.ok(Math.max(...counts.values()) <= 7);
  }
});

test("more questions take more pages; short of pages, the pages' other questions", () => {
  const drawn = draw(pool, 45, seeded(7));
  assert.equal(drawn.length, 45);
  assert.equal(new Set(drawn.map((q) => q.id)).size, 45);
  assert.equal(new Set(drawn.map((q) => q.file)).size, 3);
  assert.equal(draw(pool, 1000, seeded(7)).length, 300);
  assert.deepEqual(draw([], 20), []);
  // one page of 30 (a one-topic field): 20 of it, not 7
  const one = pool.filter((q) => q.file === "c0");
  assert.equal(draw(one, 20, seeded(2)).length, 20);
  // two pages: 20 of their 60
  const two = pool.filter((q) => q.file === "c0" || q.file === "c1");
  const both = draw(two, 20, seeded(4));
  assert.equal(new Set(both.map((q) => q.id)).size, 20);
  assert.equal(new Set(both.map((q) => q.file)).size, 2);
});

test("every page and every question is drawn in the long run", () => {
  const seen = new Set();
  const random = seeded(3);
  for (let run = 0; run < 400; run++) for (const q of draw(pool, 20, random)) seen.add(q.id);
  assert.equal(seen.size, 300);
});

test("shuffle keeps every item", () => {
  const items = [1, 2, 3, 4, 5, 6];
  assert.deepEqual(shuffle(items, seeded(5)).sort(), items);
});
