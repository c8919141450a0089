// The practice draw (site_templates/assets/lib/draw.js): whole chunks, then at random.
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
// 10 chunks of 30 questions each
const pool = Array.from({ length: 300 }, (_, n) => ({ id: `q${n}`, file: `c${n % 10}` }));

test("20 of 300 come from as few chunks as hold 20: one chunk of 30", () => {
  for (let seed = 1; seed < 30; seed++) {
    const drawn = draw(pool, 20, seeded(seed));
    assert.equal(drawn.length, 20);
    assert.equal(new Set(drawn.map((q) => q.id)).size, 20);
    assert.equal(new Set(drawn.map((q) => q.file)).size, 1);
  }
});

test("more than a chunk holds takes the next chunks whole, drawing among them", () => {
  const drawn = draw(pool, 45, seeded(7));
  assert.equal(drawn.length, 45);
  assert.equal(new Set(drawn.map((q) => q.file)).size, 2);
  assert.equal(draw(pool, 1000, seeded(7)).length, 300);
  assert.deepEqual(draw([], 20), []);
});

test("every chunk and every question is drawn in the long run", () => {
  const seen = new Set();
  const random = seeded(3);
  for (let run = 0; run < 400; run++) for (const q of draw(pool, 20, random)) seen.add(q.id);
  assert.equal(seen.size, 300);
});

test("shuffle keeps every item", () => {
  const items = [1, 2, 3, 4, 5, 6];
  assert.deepEqual(shuffle(items, seeded(5)).sort(), items);
});
