/* What one answer says, without the memory model (so that a topic page's widget need not
 * load FSRS): the reader's calendar day of a time and the FSRS rating of a result. The
 * ratings are FSRS's numbers (1 Again, 2 Hard, 3 Good, 4 Easy; ts-fsrs's Rating). */

import { plain } from "./shapes.js";

const DAY = 86400000;
export const AGAIN = 1;
export const HARD = 2;
export const GOOD = 3;
const RATED = { know: GOOD, partly: HARD, no: AGAIN };

/** The local calendar day of a time (ms): "today" turns at the reader's midnight. */
export function day(ms) {
  return Math.floor((ms - new Date(ms).getTimezoneOffset() * 60000) / DAY);
}

/** The FSRS rating (1 Again .. 4 Easy) of one answer: {g} a flashcard's rating, {s} an open
 * question's self-assessment, {r: 1|0} a choice (h: after a hint, which makes a known one
 * Hard); else undefined. */
export function rating(result) {
  if (!plain(result)) return undefined;
  if (Number.isInteger(result.g) && result.g >= 1 && result.g <= 4) return result.g;
  if (result.s !== undefined) return result.h && result.s === "know" ? HARD : RATED[result.s];
  if (result.r === 0) return AGAIN;
  if (result.r === 1) return result.h ? HARD : GOOD;
  return undefined;
}

