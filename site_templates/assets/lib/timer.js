/* A session's clock (practice and exam sessions, assets/practice.js): counts up, or down from
 * a time limit that the reader may turn off, set, extend and pause (WCAG 2.2.1, Timing
 * Adjustable). Pure: no page, no storage (tests/js/timer.test.mjs); its state is plain data,
 * kept with the session in sessionStorage so a reload resumes it.
 *
 * State: {spent: ms counted before `since`, since: ms the clock last started, or null while
 * paused, limit: ms allowed in all (0: no limit)}. */

const MINUTE = 60000;

/* Moments at which the time left is announced to screen readers (ms left), never every
 * second: five minutes, one minute and twenty seconds before the end (time enough to extend). */
export const ANNOUNCE = [5 * MINUTE, MINUTE, 20000];

export function started(now, limitMinutes = 0) {
  return { spent: 0, since: now, limit: Math.max(0, limitMinutes) * MINUTE };
}

/** Milliseconds counted so far. */
export function elapsed(clock, now) {
  return clock.spent + (clock.since === null ? 0 : Math.max(0, now - clock.since));
}

/** Milliseconds left (Infinity without a limit). */
export function left(clock, now) {
  return clock.limit ? Math.max(0, clock.limit - elapsed(clock, now)) : Infinity;
}

export const paused = (clock) => clock.since === null;

export function pause(clock, now) {
  return paused(clock) ? clock : { ...clock, spent: elapsed(clock, now), since: null };
}

export function resume(clock, now) {
  return paused(clock) ? { ...clock, since: now } : clock;
}

/** The clock with `minutes` more allowed (a clock without a limit stays so). */
export function extend(clock, minutes) {
  return clock.limit ? { ...clock, limit: clock.limit + minutes * MINUTE } : clock;
}

/** The clock without its limit: it counts up from here on. */
export function unlimited(clock) {
  return { ...clock, limit: 0 };
}

/** Whether a limited clock has run out. */
export function expired(clock, now) {
  return clock.limit > 0 && left(clock, now) === 0;
}

/** The announcement moment (one of ANNOUNCE) passed between `before` and `now`, or null. */
export function crossed(clock, before, now) {
  if (!clock.limit) return null;
  const was = left(clock, before);
  const is = left(clock, now);
  for (const moment of ANNOUNCE) if (was > moment && is <= moment) return moment;
  return null;
}

/** "mm:ss" (or "h:mm:ss") of `ms`, rounded up for a count-down, down for a count-up. */
export function shown(ms, up = false) {
  const total = up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => (n < 10 ? "0" : "") + n;
  return (hours ? `${hours}:${two(minutes)}` : two(minutes)) + `:${two(seconds)}`;
}
