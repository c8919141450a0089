// The study state's shapes and migrations (site_templates/assets/lib/shapes.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { HISTORY, PROGRESS, REVIEW, SAVED, SCHEMA, check, empty, migrate } from "../../site_templates/assets/lib/shapes.js";

const RIGHT = { t: "ml/throughput", r: 1, ts: 1700000000000 };

test("readable progress is whole, fields this version does not know included", () => {
  const value = { a: RIGHT, b: { t: "ml/x", s: "partly", later: [1] } };
  assert.deepEqual(check(PROGRESS, value), { value, whole: true, bad: null });
});

test("a damaged record is named and left out; the others stay", () => {
  const result = check(PROGRESS, { a: RIGHT, b: { t: "ml/x", r: 2 }, c: { r: 1 } });
  assert.deepEqual(result, { value: { a: RIGHT }, whole: false, bad: "b" });
});

test("a value of the wrong type is unreadable as a whole, and reads as empty", () => {
  for (const [key, value] of [[PROGRESS, [RIGHT]], [HISTORY, { ts: 1 }], [REVIEW, "x"], [SAVED, null]]) {
    assert.deepEqual(check(key, value), { value: empty(key), whole: false, bad: "" }, key);
  }
});

test("a record under __proto__ is never read into an object", () => {
  const result = check(PROGRESS, JSON.parse(`{"__proto__": ${JSON.stringify(RIGHT)}}`));
  assert.equal(result.whole, false);
  assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
});

test("the practice history keeps its readable entries and names the first other one", () => {
  const good = { field: "ml", ts: 5 };
  assert.deepEqual(check(HISTORY, [good, { field: 3 }, good]), { value: [good, good], whole: false, bad: "1" });
});

test("bookmarks: version 1 with an items map; a record that is not an object is left out", () => {
  const item = { star: true, url: "en/x/#q-1", t: 9 };
  assert.equal(check(SAVED, { v: 1, items: { q1: item } }).whole, true);
  assert.deepEqual(check(SAVED, { v: 1, items: { q1: item, q2: 3 } }),
    { value: { v: 1, items: { q1: item } }, whole: false, bad: "items → q2" });
  assert.equal(check(SAVED, { v: 2, items: {} }).bad, "v");
});

test("a key qbank does not know has no shape", () => {
  assert.equal(check("qbank:v1:later", {}), null);
  assert.equal(empty("qbank:v1:later"), undefined);
});

test("migrations run in order from the stored schema to this one, and not past it", () => {
  const steps = {
    1: (state) => ({ ...state, progress: { ...state.progress, moved: true } }),
    2: (state) => ({ ...state, extra: [] }),
  };
  assert.deepEqual(migrate({ progress: {} }, 1, steps, 3), { progress: { moved: true }, extra: [] });
  assert.deepEqual(migrate({ progress: {} }, 2, steps, 3), { progress: {}, extra: [] });
  assert.deepEqual(migrate({ progress: {} }, 3, steps, 3), { progress: {} });
  // this release's own: schema 2 (FSRS review records, lib/leitner.js); nothing past it
  assert.equal(SCHEMA, 2);
  const state = { progress: { a: RIGHT } };
  assert.equal(migrate(state, 2), state);
  assert.deepEqual(Object.keys(migrate(state, 1).review), ["a"]);
});
