// The flashcards' deck (site_templates/assets/lib/deck.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { deck, ratingOf } from "../../site_templates/assets/lib/deck.js";

const NOON = Date.UTC(2026, 0, 10, 12);
const DAY = 86400000;
const Q = (id, topic) => ({ id, topic, kind: "choice" });
const questions = [Q("a", "ml/x"), Q("b", "ml/y"), Q("c", "web/z"), Q("a", "ml/x")];
const progress = { a: { t: "ml/x", r: 0, ts: NOON - 2 * DAY }, b: { t: "ml/y", r: 1, ts: NOON } };
const stored = { progress, reviews: {}, saved: { c: { star: true } } };

test("every question of the scope, once, in the files' order", () => {
  assert.deepEqual(deck(questions, "all", stored, {}, NOON).map((q) => q.id), ["a", "b", "c"]);
  assert.deepEqual(deck(questions, "all", stored, { field: "ml" }, NOON).map((q) => q.id), ["a", "b"]);
  assert.deepEqual(deck(questions, "all", stored, { topic: "ml/y" }, NOON).map((q) => q.id), ["b"]);
});

test("due, misses and saved cards come from the stored state", () => {
  assert.deepEqual(deck(questions, "due", stored, {}, NOON).map((q) => q.id), ["a"]);
  assert.deepEqual(deck(questions, "due", stored, {}, NOON + 3 * DAY).map((q) => q.id), ["a", "b"]);
  assert.deepEqual(deck(questions, "misses", stored, {}, NOON).map((q) => q.id), ["a"]);
  assert.deepEqual(deck(questions, "saved", stored, {}, NOON).map((q) => q.id), ["c"]);
  assert.deepEqual(deck(questions, "saved", stored, { field: "ml" }, NOON), []);
});

test("keys 1-4 rate, a long enough swipe left is Again and right is Good", () => {
  assert.deepEqual(["1", "2", "3", "4", "5", " "].map((k) => ratingOf(k)), [1, 2, 3, 4, null, null]);
  assert.equal(ratingOf("swipe", -80), 1);
  assert.equal(ratingOf("swipe", 80), 3);
  assert.equal(ratingOf("swipe", 20), null);
});
