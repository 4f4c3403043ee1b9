// Click-to-play for every game: legal choices → clickable things on the board, and a panel of buttons.
//
// A game's board module says, per choice, which board objects (elements with a `data-obj` key) a person
// clicks to make it, step by step (its *route*): one click on one object; or one, then another. The
// controller highlights the objects that can be clicked next, and a click either plays the one choice it
// completes or selects the object, lighting up the next step and narrowing the panel to the choices that
// are still possible. Choices with nothing to click are buttons; the whole list is also there as buttons,
// for keyboards and small screens. Nothing that is not legal is clickable.
import { h, replaceChildren } from "./dom.js";
import { clickWord } from "./words.js";
import { nt, showNotation, t } from "./i18n.js";

/**
 * How a game ties its choices to its board; every hook is optional (with none, every choice is a button).
 * @typedef {object} ChoiceSpec
 * @property {(choice: object) => (string | string[])[] | null} [route]
 *   The `data-obj` keys to click for `choice`, step by step; a step is one key or a list of keys any one of
 *   which will do. Null or []: a button only. A choice whose objects are not on the board is a button too.
 * @property {(choice: object) => boolean} [button]
 *   Whether a choice with a route is also a button at the top of the panel (default: only in the full list).
 * @property {(key: string) => string} [words]  a key in words, for the panel ("the piece on c3")
 * @property {(keys: string[], step: number) => string} [hint]
 *   What to click, in words, given the keys that can be clicked at `step` (0: the first click).
 */

/** The element whose highlighted objects form `el`'s group for the arrow keys: its SVG board, else its parent. */
function home(el) {
  return el.closest("svg") || el.parentElement;
}

/** The highlighted objects of `el`'s group, in the page's order. */
function members(el) {
  const at = home(el);
  return [...at.querySelectorAll("[data-legal]")].filter((x) => home(x) === at);
}

/** A button that plays `choice`. */
function choiceButton(choice, onPlay, disabled) {
  return h(
    "button",
    {
      type: "button",
      class: `choice choice-${choice.verb || "other"}`,
      "data-testid": "choice",
      "data-action": choice.id,
      "data-verb": choice.verb,
      "data-costly": Boolean(choice.confirm), // asks first: never where the focus goes by itself (focus.js)
      title: showNotation(choice.notation),
      disabled,
      onclick: () => onPlay(choice),
    },
    choice.text || showNotation(choice.notation),
  );
}

/**
 * Keeps the choices panel and the board highlights in step with the legal list.
 * `onPlay(choice)` sends the move; the owner calls `bind` after each render and `setBusy` around moves.
 */
export class Choices {
  /**
   * @param {HTMLElement} panel  @param {(choice: object) => void} onPlay  @param {ChoiceSpec} spec
   * @param {object} [hooks]  `announce(text)`: says a selection aloud (a live region); `redrawn()`: called
   *   after every redraw of the panel and the highlights (the page puts focus back where it belongs)
   */
  constructor(panel, onPlay, spec = {}, { announce = () => {}, redrawn = () => {} } = {}) {
    this.panel = panel;
    this.onPlay = onPlay;
    this.spec = spec || {};
    this.announce = announce;
    this.redrawn = redrawn;
    this.listOpen = false; // the full list stays open across redraws once the person opened it
    this.legal = [];
    this.board = null;
    this.routes = new Map(); // choice -> its steps, each a list of keys present on the board
    this.picked = []; // the keys clicked so far, one per step
    this.busy = false;
    this.version = null;
    this.boards = new WeakSet();
  }

  /** Tie `legal` (for `version`) to the freshly rendered `board`; a new version drops the selection. */
  bind(board, legal, version) {
    if (version !== this.version) this.picked = [];
    this.version = version;
    this.board = board;
    if (!this.boards.has(board)) {
      // A click on the board that no highlighted object took drops the selection.
      this.boards.add(board);
      board.addEventListener("click", () => {
        if (this.board === board && this.picked.length) this.pick([]);
      });
      // The object focused (by an arrow key, a click, focus put back after a redraw) is its group's Tab stop.
      board.addEventListener("focusin", (ev) => {
        if (this.board === board && ev.target instanceof Element && ev.target.hasAttribute("data-legal")) this.rove(ev.target);
      });
    }
    this.legal = legal || [];
    this.routes = new Map();
    for (const choice of this.legal) {
      const route = this.spec.route ? this.spec.route(choice) : null;
      if (!route || !route.length) continue;
      // Only objects actually on the board count (a board may leave out what this seat may not see).
      const steps = route.map((step) => (Array.isArray(step) ? step : [step]).filter((k) => this.find(k).length));
      if (steps.every((step) => step.length)) this.routes.set(choice, steps);
    }
    if (!this.candidates().length) this.picked = [];
    this.refresh();
  }

  find(key) {
    if (!this.board) return [];
    return [...this.board.querySelectorAll(`[data-obj="${CSS.escape(key)}"]`)];
  }

  setBusy(busy) {
    this.busy = busy;
    this.refresh();
  }

  play(choice) {
    if (this.busy || !choice) return;
    this.picked = [];
    this.onPlay(choice);
  }

  /** The choices whose route starts with the keys picked so far. */
  candidates(picked = this.picked) {
    const out = [];
    for (const [choice, steps] of this.routes) {
      if (steps.length >= picked.length && picked.every((key, i) => steps[i].includes(key))) out.push(choice);
    }
    return out;
  }

  /** key -> the choices a click on it keeps, for the keys that can be clicked after `picked`. */
  next(picked = this.picked) {
    const out = new Map();
    for (const choice of this.candidates(picked)) {
      const step = this.routes.get(choice)[picked.length];
      for (const key of step || []) {
        if (!out.has(key)) out.set(key, []);
        out.get(key).push(choice);
      }
    }
    return out;
  }

  /** Click `key` after the keys picked before it: play the one choice it completes, or select it. */
  click(before, key, keyboard = false) {
    const path = [...before, key];
    const left = this.candidates(path);
    const done = left.filter((c) => this.routes.get(c).length === path.length);
    if (left.length === 1 && done.length === 1) return this.play(done[0]);
    return this.pick(path, { keyboard });
  }

  pick(path, { keyboard = false } = {}) {
    const grew = path.length > this.picked.length;
    const had = this.board && this.board.contains(document.activeElement);
    this.picked = path;
    this.refresh();
    const line = this.panel.querySelector("[data-testid=selection]");
    if (path.length && line) this.announce(line.textContent);
    // A step made from the board goes on to the next step's objects (the destinations), not to the other
    // pieces after the selected one in the Tab order; a mouse's click does not scroll the page for it.
    if (grew && had) {
      const next = this.board.querySelector("[data-legal=dest]") || this.panel.querySelector(".choice-list > button");
      if (next) next.focus({ preventScroll: !keyboard });
    }
  }

  /**
   * A click on a highlighted object (or on something inside it): the innermost highlighted key that
   * continues the selection wins, so a destination is reached even through a piece standing on it; else a
   * first-step key starts a new selection; a selected key clicked again is unselected.
   */
  activate(el, { keyboard = false } = {}) {
    if (this.busy) return;
    const keys = [];
    for (let x = el; x && x !== this.board; x = x.parentElement) {
      if (x.dataset && x.dataset.obj && x.hasAttribute("data-legal")) keys.push(x.dataset.obj);
    }
    const onward = this.picked.length ? this.next() : new Map();
    const first = this.next([]);
    const go = keys.find((k) => onward.has(k));
    if (go !== undefined) return this.click(this.picked, go, keyboard);
    const again = keys.find((k) => this.picked.includes(k));
    if (again !== undefined) return this.pick(this.picked.slice(0, this.picked.indexOf(again)));
    const start = keys.find((k) => first.has(k));
    if (start !== undefined) return this.click([], start, keyboard);
    return this.pick([]);
  }

  /**
   * The highlighted objects the arrow keys move among from `el`, and the Tab stop among them: those of the
   * same group (the same SVG board, else the same parent: a hand, a row of cards). While something is
   * selected only what continues the selection counts (its destinations, the selected objects): the other
   * pieces would start a different move.
   */
  group(el) {
    const all = members(el);
    if (!this.picked.length) return all;
    return all.filter((x) => x.dataset.legal === "dest" || x.classList.contains("selected"));
  }

  /** The object an arrow key (or Home, End) goes to from `el`: the nearest one that way on the screen. */
  arrowTarget(el, key) {
    const group = this.group(el);
    if (key === "Home") return group[0];
    if (key === "End") return group[group.length - 1];
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    if (!dir) return null;
    const centre = (x) => {
      const r = x.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x0, y0] = centre(el);
    let best = null;
    let bestScore = Infinity;
    for (const other of group) {
      if (other === el || other.contains(el) || el.contains(other)) continue;
      const [x, y] = centre(other);
      const along = (x - x0) * dir[0] + (y - y0) * dir[1];
      const across = Math.abs((x - x0) * dir[1] - (y - y0) * dir[0]);
      // Within a quarter turn of the key's way; a hex board's diagonal neighbour beats one two rows away.
      if (along <= 0.5 || across > along) continue;
      const score = along + across;
      if (score < bestScore) [best, bestScore] = [other, score];
    }
    return best;
  }

  /**
   * One Tab stop per group (a roving tabindex): the focused object, else a destination, else a selected
   * object, else the first; the others are reached with the arrow keys. While something is selected, groups
   * with nothing that continues it are left out of the Tab order (Escape or "Back to all choices" ends it).
   */
  rove(focused = document.activeElement) {
    const seen = new Set();
    for (const el of this.board.querySelectorAll("[data-legal]")) {
      if (seen.has(home(el))) continue;
      seen.add(home(el));
      const all = members(el);
      const group = this.group(el);
      const stop = group.includes(focused) ? focused : group.find((x) => x.dataset.legal === "dest") || group[0];
      for (const x of all) x.setAttribute("tabindex", x === stop ? "0" : "-1");
    }
  }

  refresh() {
    this.highlight();
    this.renderPanel();
    this.redrawn();
  }

  highlight() {
    if (!this.board) return;
    // What stays clickable keeps its tabindex throughout (removed and put back, a focused object would lose
    // the focus): only what is no longer clickable loses it, after the new marks are made.
    const before = [...this.board.querySelectorAll("[data-legal]")];
    for (const el of before) el.classList.remove("legal", "selected", "dest");
    const marked = new Set();
    this.board.classList.toggle("has-selection", this.picked.length > 0 && !this.busy);
    const mark = (el, kind) => {
      marked.add(el);
      el.classList.add("legal");
      if (kind === "dest") el.classList.add("dest");
      el.setAttribute("data-legal", kind);
      el.setAttribute("tabindex", "0");
      if (el.dataset.role === undefined) el.dataset.role = el.getAttribute("role") || "";
      el.setAttribute("role", "button");
      el.onclick = (ev) => {
        ev.stopPropagation();
        this.activate(ev.target instanceof Element ? ev.target : el);
      };
      el.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.activate(el, { keyboard: true });
        } else if (ev.key === "Escape" && this.picked.length) {
          // The selection ends; the focus goes back to the object that was selected, as if pressed again.
          ev.preventDefault();
          const [selected] = this.find(this.picked[0]);
          this.pick([]);
          if (selected && selected.hasAttribute("data-legal")) selected.focus();
        } else if (!ev.altKey && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey) {
          const to = this.arrowTarget(el, ev.key);
          if (to) {
            ev.preventDefault();
            ev.stopPropagation(); // the replay's and the page's own arrow keys are not for this
            to.focus();
          }
        }
      };
    };
    // The first step stays clickable while something is selected (to start again from another object).
    // data-legal says what a click does: "play" at once, select a "source", or reach a "dest". Nothing
    // while a move is on its way.
    for (const [key, list] of this.busy ? [] : this.next([])) {
      const plays = list.length === 1 && this.routes.get(list[0]).length === 1;
      for (const el of this.find(key)) {
        mark(el, plays ? "play" : "source");
        if (this.picked.includes(key)) el.classList.add("selected");
      }
    }
    // Later picks (a multi-step route) stay marked; a click on one goes back to before it.
    for (const key of this.busy ? [] : this.picked.slice(1)) {
      for (const el of this.find(key)) {
        mark(el, "selected");
        el.classList.add("selected");
      }
    }
    if (this.picked.length && !this.busy) for (const key of this.next().keys()) for (const el of this.find(key)) mark(el, "dest");
    for (const el of before) {
      if (marked.has(el)) continue;
      el.removeAttribute("data-legal");
      el.removeAttribute("tabindex");
      // The object's own role (a board draws a card as role="img" with its name) comes back once it is no
      // longer a button: an aria-label on an element without a role is not read.
      if (el.dataset.role) el.setAttribute("role", el.dataset.role);
      else el.removeAttribute("role");
      el.onclick = null;
      el.onkeydown = null;
    }
    this.rove();
  }

  words(key) {
    return this.spec.words ? this.spec.words(key) : key;
  }

  hint(keys, step) {
    return this.spec.hint ? this.spec.hint(keys, step) : t("a highlighted object");
  }

  renderPanel() {
    const button = (c) => choiceButton(c, (ch) => this.play(ch), this.busy);
    if (!this.legal.length) {
      replaceChildren(this.panel);
      this.panel.hidden = true;
      return;
    }
    this.panel.hidden = false;
    if (this.picked.length) {
      const onward = [...this.next().keys()];
      const what = this.picked.map((k) => this.words(k)).join(t(", then "));
      const then = onward.length
        ? t("%(click)s %(target)s (%(n)s), or choose below.", { click: clickWord(true), target: this.hint(onward, this.picked.length), n: onward.length })
        : t("Choose:");
      replaceChildren(
        this.panel,
        h("p", { class: "choices-title", "data-testid": "selection" }, t("Selected: %(what)s.", { what }) + " " + then),
        h("div", { class: "choice-list" }, this.candidates().map(button)),
        h(
          "button",
          { type: "button", class: "choice-back", "data-testid": "choice-back", onclick: () => this.pick([]) },
          t("Back to all choices"),
        ),
      );
      return;
    }
    const buttons = this.legal.filter((c) => !this.routes.has(c) || (this.spec.button && this.spec.button(c)));
    const first = [...this.next([]).keys()];
    replaceChildren(
      this.panel,
      first.length
        ? h(
            "p",
            { class: "choices-hint" },
            buttons.length
              ? t("Choose below, or %(click)s %(target)s.", { click: clickWord(), target: this.hint(first, 0) })
              : t("%(click)s %(target)s.", { click: clickWord(true), target: this.hint(first, 0) }),
          )
        : null,
      buttons.length ? h("div", { class: "choice-list" }, buttons.map(button)) : null,
      first.length
        ? h(
            "details",
            // Open again after a redraw if the person had opened it: the focus may be on one of its buttons.
            { class: "all-choices", open: this.listOpen, ontoggle: (ev) => (this.listOpen = ev.target.open) },
            h("summary", {}, nt("All %(n)s choice as a list", "All %(n)s choices as a list", this.legal.length)),
            h("div", { class: "choice-list" }, this.legal.map(button)),
          )
        : null,
    );
  }
}
