// Progress that travels (site_templates/assets/lib/merge.js): reading a file, merging it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FORMAT, Refusal, cutShort, exported, plan, read } from "../../site_templates/assets/lib/merge.js";
import { SCHEMA } from "../../site_templates/assets/lib/shapes.js";

const RIGHT = { t: "ml/x", r: 1, ts: 100 };
const file = (data, more = {}) => JSON.stringify({ format: FORMAT, version: 1, schema: 1, exported: "2026-01-10", data, ...more });
const refusal = (text) => {
  try {
    read(text);
  } catch (error) {
    assert.ok(error instanceof Refusal, error);
    return [error.key, error.values];
  }
  return null;
};

test("an exported file reads back as its data", () => {
  const data = { progress: { a: RIGHT }, practice: [{ field: "ml", ts: 1 }] };
  assert.deepEqual(read(JSON.stringify(exported(data, "2026-01-10T00:00:00Z"))), data);
});

test("a file that is not ours, cut short or newer is refused with the reason", () => {
  assert.deepEqual(refusal('{"format": "qbank-study-state", "data": {'), ["progress_err_cut", {}]);
  assert.equal(cutShort('{"a": "b'), true);
  assert.equal(cutShort("{]"), false);
  assert.deepEqual(refusal("nonsense"), ["progress_err_json", {}]);
  assert.deepEqual(refusal('{"format": "other"}'), ["progress_err_foreign", {}]);
  assert.deepEqual(refusal(file({}, { version: "1" })), ["progress_err_fields", {}]);
  assert.deepEqual(refusal(file({}, { schema: 7 })), ["progress_err_newer", { version: 1, schema: 7, ours: SCHEMA }]);
});

test("a damaged entry is refused with where it is", () => {
  assert.deepEqual(refusal(file({ progress: { a: RIGHT, b: { r: 1 } } })), ["progress_err_entry", { where: "progress → b" }]);
  assert.deepEqual(refusal(file({ practice: [{ field: "ml", ts: 1 }, 3] })), ["progress_err_entry", { where: "practice → 1" }]);
  assert.deepEqual(refusal(file({ "progress:damaged:1": {} })), ["progress_err_entry", { where: "progress:damaged:1" }]);
  assert.deepEqual(refusal(file({ later: { a: 3 } })), ["progress_err_entry", { where: "later → a" }]);
});

test("the storage notice's download is read as a schema-1 file (its answers then scheduled by FSRS)", () => {
  const rescue = { exported: "2026-01-10", site: "x", readable: { "qbank:v1:progress": { a: RIGHT }, "qbank:v1:practice": null }, setAside: {} };
  const data = read(JSON.stringify(rescue));
  assert.deepEqual(data.progress, { a: RIGHT });
  assert.deepEqual(Object.keys(data.review), ["a"]);
});

test("merging: the newer record wins, new ones are added, lists are joined once", () => {
  const here = { progress: { a: RIGHT, b: { t: "ml/x", r: 0, ts: 500 } }, practice: [{ field: "ml", ts: 2 }] };
  const there = {
    progress: { a: { ...RIGHT, ts: 900 }, b: { t: "ml/x", r: 1, ts: 200 }, c: RIGHT },
    practice: [{ field: "ml", ts: 2 }, { field: "ml", ts: 1 }],
    saved: { v: 1, items: { a: { star: true, t: 1 } } },
  };
  const rows = Object.fromEntries(plan(here, there).map((row) => [row.name, row]));
  assert.deepEqual(rows.progress.count, { added: 1, newer: 1, kept: 1, same: 0 });
  assert.deepEqual(rows.progress.value, { a: { ...RIGHT, ts: 900 }, b: here.progress.b, c: RIGHT });
  assert.deepEqual(rows.practice.value, [{ field: "ml", ts: 1 }, { field: "ml", ts: 2 }]);
  assert.deepEqual(rows.practice.count, { added: 1, newer: 0, kept: 0, same: 1 });
  assert.deepEqual(rows.saved.count.added, 1);
  assert.equal(plan(here, { progress: { a: RIGHT } })[0].changed, false);
});

test("a kind stored here in another shape is refused, not merged", () => {
  assert.throws(() => plan({ practice: {} }, { practice: [] }), (e) => e.key === "progress_err_kind");
});

test("a kind qbank knows, in a file as a list instead of a map, has another form", () => {
  assert.deepEqual(refusal(file({ saved: [1, 2] })), ["progress_err_kind", { where: "saved" }]);
  assert.deepEqual(refusal(file({ practice: {} })), ["progress_err_kind", { where: "practice" }]);
  assert.deepEqual(refusal(file({ saved: 5 })), ["progress_err_entry", { where: "saved" }]);
});
