// Legal choices → clickable things. Each legal choice is tied to the board objects it involves (a hand
// card, a river card, the deck, a penalty card, a player); those objects are highlighted and become
// clickable. A click plays the choice at once when only one choice involves the object, otherwise it
// narrows the choices panel to those choices. Choices with no card on the board (stop, pass, token moves,
// take-back, "penalty ?", "give ? to P2", ...) are buttons. Nothing that is not legal is clickable.
import { h, replaceChildren } from "./dom.js";
import { cardWords } from "./words.js";

const HAND_VERBS = new Set(["place", "under", "facedown", "discard", "swap"]);

/** The data-obj keys (see arctic.js) that `choice` involves. */
export function objectKeys(choice) {
  const verb = choice.verb || String(choice.notation || "").split(" ")[0];
  const card = choice.card || null;
  const keys = [];
  if (HAND_VERBS.has(verb) && card) keys.push(`hand:${card}`);
  else if (verb === "river" && card) keys.push(`river:${card}`);
  else if (verb === "deck") keys.push("deck");
  else if ((verb === "penalty" || verb === "give") && card) keys.push(`penalty:${card}`);
  if (verb === "give" && choice.seat !== null && choice.seat !== undefined) keys.push(`seat:${choice.seat}`);
  return keys;
}

function choiceButton(choice, onPlay, disabled) {
  return h(
    "button",
    {
      type: "button",
      class: `choice choice-${choice.verb || "other"}`,
      "data-testid": "choice",
      "data-action": choice.id,
      title: choice.notation,
      disabled,
      onclick: () => onPlay(choice),
    },
    choice.text || choice.notation,
  );
}

/**
 * Keeps the choices panel and the board highlights in step with the legal list.
 * `onPlay(choice)` sends the move; the owner calls `bind` after each render and `setBusy` around moves.
 */
export class Choices {
  constructor(panel, onPlay) {
    this.panel = panel;
    this.onPlay = onPlay;
    this.legal = [];
    this.board = null;
    this.byKey = new Map();
    this.free = [];
    this.narrowed = null;
    this.busy = false;
    this.version = null;
  }

  /** Tie `legal` (for `version`) to the freshly rendered `board`. */
  bind(board, legal, version) {
    if (version !== this.version) this.narrowed = null;
    this.version = version;
    this.board = board;
    this.legal = legal || [];
    this.byKey = new Map();
    this.free = [];
    for (const choice of this.legal) {
      // Only objects actually on the board count (e.g. penalty cards are absent if the owner may not look).
      const keys = objectKeys(choice).filter((k) => this.find(k).length);
      if (!keys.some((k) => !k.startsWith("seat:"))) this.free.push(choice);
      for (const key of keys) {
        if (!this.byKey.has(key)) this.byKey.set(key, []);
        this.byKey.get(key).push(choice);
      }
    }
    if (this.narrowed && !this.byKey.has(this.narrowed)) this.narrowed = null;
    this.highlight();
    this.renderPanel();
  }

  find(key) {
    if (!this.board) return [];
    return [...this.board.querySelectorAll(`[data-obj="${CSS.escape(key)}"]`)];
  }

  setBusy(busy) {
    this.busy = busy;
    this.highlight();
    this.renderPanel();
  }

  play(choice) {
    if (this.busy) return;
    this.onPlay(choice);
  }

  highlight() {
    if (!this.board) return;
    for (const el of this.board.querySelectorAll("[data-legal]")) {
      el.classList.remove("legal", "selected");
      el.removeAttribute("data-legal");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.onclick = null;
      el.onkeydown = null;
    }
    if (this.busy) return;
    for (const [key, list] of this.byKey) {
      for (const el of this.find(key)) {
        el.classList.add("legal");
        if (key === this.narrowed) el.classList.add("selected");
        el.setAttribute("data-legal", list.length === 1 ? "play" : "narrow");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        const act = () => (list.length === 1 ? this.play(list[0]) : this.narrow(key));
        el.onclick = act;
        el.onkeydown = (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            act();
          }
        };
      }
    }
  }

  /** What the hint asks to click: "a highlighted card or the deck", "a highlighted player", ... */
  targetWords() {
    const kinds = new Set([...this.byKey.keys()].map((k) => k.split(":")[0]));
    const parts = [];
    if (kinds.has("hand") || kinds.has("river") || kinds.has("penalty")) parts.push("a highlighted card");
    if (kinds.has("deck")) parts.push("the deck");
    if (kinds.has("seat")) parts.push("a highlighted player");
    return parts.join(" or ");
  }

  narrow(key) {
    this.narrowed = this.narrowed === key ? null : key;
    this.highlight();
    this.renderPanel();
  }

  renderPanel() {
    const disabled = this.busy;
    if (!this.legal.length) {
      replaceChildren(this.panel);
      this.panel.hidden = true;
      return;
    }
    this.panel.hidden = false;
    if (this.narrowed) {
      const list = this.byKey.get(this.narrowed) || [];
      replaceChildren(
        this.panel,
        h("p", { class: "choices-title" }, `Choose for ${keyWords(this.narrowed)}:`),
        h("div", { class: "choice-list" }, list.map((c) => choiceButton(c, (ch) => this.play(ch), disabled))),
        h(
          "button",
          {
            type: "button",
            class: "choice-back",
            "data-testid": "choice-back",
            onclick: () => this.narrow(this.narrowed),
          },
          "Back to all choices",
        ),
      );
      return;
    }
    const tied = this.legal.length - this.free.length;
    replaceChildren(
      this.panel,
      this.free.length
        ? h("div", { class: "choice-list" }, this.free.map((c) => choiceButton(c, (ch) => this.play(ch), disabled)))
        : null,
      tied
        ? h("p", { class: "choices-hint" }, `${this.free.length ? "…or click" : "Click"} ${this.targetWords()}.`)
        : null,
      // The full list as buttons too, for keyboards and small screens where the board is far away.
      tied
        ? h(
            "details",
            { class: "all-choices" },
            h("summary", {}, `All ${this.legal.length} choices as a list`),
            h("div", { class: "choice-list" }, this.legal.map((c) => choiceButton(c, (ch) => this.play(ch), disabled))),
          )
        : null,
    );
  }
}

function keyWords(key) {
  const [kind, rest] = [key.split(":")[0], key.slice(key.indexOf(":") + 1)];
  if (kind === "hand") return `your card ${cardWords(rest)}`;
  if (kind === "river") return `the river card ${cardWords(rest)}`;
  if (kind === "penalty") return `your penalty card ${cardWords(rest)}`;
  if (kind === "seat") return `P${Number(rest) + 1}`;
  if (key === "deck") return "the deck";
  return key;
}
