/* Which cards a flashcard run holds, in which order (assets/flashcards.js). Pure: no page, no
 * storage (tests/js/deck.test.mjs). */

import { day, missed, scheduled } from "./schedule.js";

/** The cards of `questions` (practice list stubs or items: id, topic; by id once) for
 * `source`: "all" (every question in `scope`, in the files' order), "due" (due today, most
 * overdue first), "misses" (whose latest answer was Again) or "saved" (starred or noted), from the stored `progress`,
 * `reviews` and `saved` items at `now`. `scope`: {field, topic}. */
export function deck(questions, source, { progress, reviews, saved }, scope, now) {
  const inScope = (q) => (!scope.topic || q.topic === scope.topic) &&
    (!scope.field || q.topic.split("/")[0] === scope.field);
  const byId = new Map();
  for (const q of questions) if (!byId.has(q.id) && inScope(q)) byId.set(q.id, q);
  if (source === "saved") return [...byId.values()].filter((q) => Object.hasOwn(saved, q.id));
  if (source === "due" || source === "misses") {
    const today = day(now);
    return scheduled(progress, reviews, scope)
      .filter((s) => (source === "due" ? s.due <= today : missed(s)))
      .map((s) => byId.get(s.id))
      .filter(Boolean);
  }
  return [...byId.values()];
}

/** The rating (1..4) a key or a swipe gives: "1".."4", or a horizontal swipe of `dx` pixels
 * (left Again, right Good) longer than `reach`; else null. */
export function ratingOf(key, dx = 0, reach = 60) {
  if (/^[1-4]$/.test(key)) return Number(key);
  if (key === "swipe" && Math.abs(dx) >= reach) return dx < 0 ? 1 : 3;
  return null;
}
