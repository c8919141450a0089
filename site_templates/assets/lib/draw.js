/* Which questions a practice session draws (assets/practice.js). Pure: no page, no storage
 * (tests/js/draw.test.mjs). The practice lists name the topic page (part) of every
 * question, and a session downloads the pages of the questions it draws: so it draws pages
 * in a random order and a few questions at random from each (a third of the session at
 * most, so a session spans three pages or more when there are that many: topic pages hold
 * one topic each), until it has the questions wanted; short of pages, the rest come from
 * the pages drawn. Each question is about as likely to be drawn as any other; 20 questions
 * cost three pages instead of the whole field. */

/** `items` in a random order (Fisher–Yates; `random` returns [0, 1)). */
export function shuffle(items, random = Math.random) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const x = a[i];
    a[i] = a[j];
    a[j] = x;
  }
  return a;
}

/** `count` of `pool` (each with a `file`, its page's URL) at random, from `spread` pages
 * or more when there are as many: the pages in a random order, up to count / spread
 * questions of each, at random, until they make `count`; then, when the pages ran out, the
 * pages' other questions. */
export function draw(pool, count, random = Math.random, spread = 3) {
  const byFile = new Map();
  for (const item of pool) {
    if (!byFile.has(item.file)) byFile.set(item.file, []);
    byFile.get(item.file).push(item);
  }
  const each = Math.max(1, Math.ceil(count / spread));
  const taken = [];
  const others = [];
  for (const file of shuffle([...byFile.keys()], random)) {
    if (taken.length >= count) break;
    const items = shuffle(byFile.get(file), random);
    taken.push(...items.slice(0, each));
    others.push(...items.slice(each));
  }
  if (taken.length < count) taken.push(...shuffle(others, random).slice(0, count - taken.length));
  return shuffle(taken, random).slice(0, count);
}
