/* Which questions a practice session draws (assets/practice.js). Pure: no page, no storage
 * (tests/js/draw.test.mjs). The practice lists name the topic page (part) of every
 * question, and a session downloads the pages of the questions it draws: so it draws whole
 * pages, in a random order, until they hold enough of the questions wanted, then draws at
 * random among those. Each question is as likely to be drawn as any other; 20 questions
 * cost two or three pages instead of the whole field. */

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

/** `count` of `pool` (each with a `file`, its page's URL) at random, from as few pages as
 * hold that many: the pages in a random order, taken whole until they hold `count`. */
export function draw(pool, count, random = Math.random) {
  const byFile = new Map();
  for (const item of pool) {
    if (!byFile.has(item.file)) byFile.set(item.file, []);
    byFile.get(item.file).push(item);
  }
  const taken = [];
  for (const file of shuffle([...byFile.keys()], random)) {
    if (taken.length >= count) break;
    taken.push(...byFile.get(file));
  }
  return shuffle(taken, random).slice(0, count);
}
