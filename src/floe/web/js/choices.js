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
  /** @param {HTMLElement} panel  @param {(choice: object) => void} onPlay  @param {ChoiceSpec} spec */
  constructor(panel, onPlay, spec = {}) {
    this.panel = panel;
    this.onPlay = onPlay;
    this.spec = spec || {};
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
  click(before, key) {
    const path = [...before, key];
    const left = this.candidates(path);
    const done = left.filter((c) => this.routes.get(c).length === path.length);
    if (left.length === 1 && done.length === 1) return this.play(done[0]);
    return this.pick(path);
  }

  pick(path) {
    this.picked = path;
    this.refresh();
  }

  /**
   * A click on a highlighted object (or on something inside it): the innermost highlighted key that
   * continues the selection wins, so a destination is reached even through a piece standing on it; else a
   * first-step key starts a new selection; a selected key clicked again is unselected.
   */
  activate(el) {
    if (this.busy) return;
    const keys = [];
    for (let x = el; x && x !== this.board; x = x.parentElement) {
      if (x.dataset && x.dataset.obj && x.hasAttribute("data-legal")) keys.push(x.dataset.obj);
    }
    const onward = this.picked.length ? this.next() : new Map();
    const first = this.next([]);
    const go = keys.find((k) => onward.has(k));
    if (go !== undefined) return this.click(this.picked, go);
    const again = keys.find((k) => this.picked.includes(k));
    if (again !== undefined) return this.pick(this.picked.slice(0, this.picked.indexOf(again)));
    const start = keys.find((k) => first.has(k));
    if (start !== undefined) return this.click([], start);
    return this.pick([]);
  }

  refresh() {
    this.highlight();
    this.renderPanel();
  }

  highlight() {
    if (!this.board) return;
    for (const el of this.board.querySelectorAll("[data-legal]")) {
      el.classList.remove("legal", "selected", "dest");
      el.removeAttribute("data-legal");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.onclick = null;
      el.onkeydown = null;
    }
    this.board.classList.toggle("has-selection", this.picked.length > 0 && !this.busy);
    if (this.busy) return;
    const mark = (el, kind) => {
      el.classList.add("legal");
      if (kind === "dest") el.classList.add("dest");
      el.setAttribute("data-legal", kind);
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.onclick = (ev) => {
        ev.stopPropagation();
        this.activate(ev.target instanceof Element ? ev.target : el);
      };
      el.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.activate(el);
        }
      };
    };
    // The first step stays clickable while something is selected (to start again from another object).
    // data-legal says what a click does: "play" at once, select a "source", or reach a "dest".
    for (const [key, list] of this.next([])) {
      const plays = list.length === 1 && this.routes.get(list[0]).length === 1;
      for (const el of this.find(key)) {
        mark(el, plays ? "play" : "source");
        if (this.picked.includes(key)) el.classList.add("selected");
      }
    }
    // Later picks (a multi-step route) stay marked; a click on one goes back to before it.
    for (const key of this.picked.slice(1)) {
      for (const el of this.find(key)) {
        mark(el, "selected");
        el.classList.add("selected");
      }
    }
    if (this.picked.length) for (const key of this.next().keys()) for (const el of this.find(key)) mark(el, "dest");
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
        // Before the choices, at every width and in the focus order: after a long list it lay below the
        // prompt's scrolled part (German, two choices a line each).
        h(
          "button",
          { type: "button", class: "choice-back", "data-testid": "choice-back", onclick: () => this.pick([]) },
          t("Back to all choices"),
        ),
        h("div", { class: "choice-list" }, this.candidates().map(button)),
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
            { class: "all-choices" },
            h("summary", {}, nt("All %(n)s choice as a list", "All %(n)s choices as a list", this.legal.length)),
            h("div", { class: "choice-list" }, this.legal.map(button)),
          )
        : null,
    );
  }
}
