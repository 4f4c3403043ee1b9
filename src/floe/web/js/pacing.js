// The table's pace: the server sends every new state at once (two bot turns of ~16 actions arrive within a
// quarter of a second); the page shows them one at a time, `pace` seconds apart, so a person can follow
// what the others did. Only the page waits: spectators, replays and tests that read the server are as fast
// as ever. A person's own move is shown at once; a click on the table or a key shows the newest state now.
//
// The pace is chosen in the page (the header's "Pace" menu), remembered in localStorage ("floe.pace",
// seconds); "?pace=<seconds>" in the page's address sets it for that page alone (browser tests use
// ?pace=0 or set the key to "0": every state is drawn as it comes, with no animation).
import { t } from "./i18n.js";

export const PACE_KEY = "floe.pace";
export const DEFAULT_PACE = 0.7;
export const MAX_PACE = 5;
const CHOICES = [
  [0, () => t("instant")],
  [0.3, () => t("fast")],
  [0.7, () => t("normal")],
  [1.2, () => t("slow")],
  [2, () => t("very slow")],
];

/** A pace in seconds from text: a number in [0, MAX_PACE], else null. */
export function parsePace(text) {
  if (text === null || text === undefined || String(text).trim() === "") return null;
  const x = Number(text);
  return Number.isFinite(x) && x >= 0 && x <= MAX_PACE ? x : null;
}

/** The pace to use: the page address's `pace`, else the remembered one, else the default. */
export function initialPace() {
  const fromUrl = parsePace(new URLSearchParams(location.search).get("pace"));
  if (fromUrl !== null) return fromUrl;
  let stored = null;
  try {
    stored = parsePace(localStorage.getItem(PACE_KEY));
  } catch {
    stored = null; // storage refused (private mode): the default
  }
  return stored === null ? DEFAULT_PACE : stored;
}

/** Whether the reader asked their system for less motion (then nothing slides; the highlight stays). */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The pace menu: a <select> with the usual paces (and the current one, if it is another); changing it
 * remembers the choice and calls `onChange(seconds)`.
 */
export function paceMenu(select, pace, onChange) {
  const options = CHOICES.some(([x]) => x === pace) ? CHOICES : [...CHOICES, [pace, `${pace} s`]];
  select.replaceChildren(
    ...options.map(([x, words]) => {
      const option = document.createElement("option");
      option.value = String(x);
      const label = typeof words === "function" ? words() : words;
      option.textContent = x > 0 && label !== `${x} s` ? `${label} (${x} s)` : label;
      option.selected = x === pace;
      return option;
    }),
  );
  select.addEventListener("change", () => {
    const x = parsePace(select.value);
    if (x === null) return;
    try {
      localStorage.setItem(PACE_KEY, String(x));
    } catch {
      // not remembered; still used on this page
    }
    onChange(x);
  });
}

/**
 * The states waiting to be shown. `push(msg, {now})` queues a state (`now`: the page's own move, or a
 * state that only refreshes the one shown: drawn at once); `show(msgs, why)` is called with the states to
 * draw, oldest first, the last one to be drawn (the others were skipped, their log lines still count), and
 * why now: "paced", "own", "skip" or "now" (the first state, or the shown one again).
 */
export class Pacer {
  constructor({ show, onQueue = () => {}, budget = () => null }) {
    this.show = show;
    this.onQueue = onQueue;
    // Seconds all the waiting states may take at most, given the newest (null: no limit): the page gives
    // a fifth of the person's turn timer, so watching the others never eats their own time.
    this.budget = budget;
    this.pace = 0; // seconds
    this.queue = [];
    this.shownVersion = null;
    this.shownAt = 0;
    this.timer = null;
    this.frame = null;
  }

  setPace(seconds) {
    this.pace = seconds;
    if (seconds === 0) this.skip();
    else this.schedule();
  }

  /** Whether states wait to be drawn one at a time (a skip has something to do). */
  get pacing() {
    return this.pace > 0 && this.queue.length > 0;
  }

  push(msg, { now = false } = {}) {
    const last = this.queue.length ? this.queue[this.queue.length - 1] : null;
    if (last && msg.version <= last.version) {
      // The same state again (someone connected): it replaces the one waiting, in its place.
      this.queue[this.queue.length - 1] = { ...msg, log: [...(last.log || []), ...(msg.log || [])] };
      return;
    }
    const same = this.shownVersion !== null && msg.version <= this.shownVersion;
    if (!last && (now || same || this.shownVersion === null)) {
      this.draw([msg], now ? "own" : "now");
      return;
    }
    if (this.pace === 0 && !now) {
      // No pace: what came in one burst is drawn once, at the next frame (a page that drew each of a
      // hundred states the bots sent in a second would fall behind the table).
      this.queue.push(msg);
      if (this.frame === null) {
        this.frame = requestAnimationFrame(() => {
          this.frame = null;
          if (this.queue.length) this.draw(this.queue, "paced");
        });
      }
      return;
    }
    if (now) {
      this.draw([...this.queue, msg], "own"); // the page's own move: whatever waited is shown with it
      return;
    }
    this.queue.push(msg);
    this.schedule();
  }

  /** Show the newest state now (a click or a key while states wait). */
  skip() {
    if (this.queue.length) this.draw(this.queue, "skip");
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = null;
    this.onQueue(this.pace > 0 ? this.queue.length : 0);
    if (!this.queue.length || this.pace === 0) return;
    const budget = this.budget(this.queue[this.queue.length - 1]);
    const pace = budget === null ? this.pace : Math.min(this.pace, budget / this.queue.length);
    const wait = this.shownAt + pace * 1000 - performance.now();
    if (wait <= 0) {
      this.draw([this.queue[0]], "paced");
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.queue.length) this.draw([this.queue[0]], "paced");
    }, wait);
  }

  draw(msgs, why) {
    const drawn = new Set(msgs);
    this.queue = this.queue.filter((m) => !drawn.has(m));
    const last = msgs[msgs.length - 1];
    this.shownVersion = last.version;
    this.show(msgs, why);
    this.shownAt = performance.now(); // once drawn: the pace is the time each state is on the screen
    this.schedule();
  }
}
