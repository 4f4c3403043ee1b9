// Confirmation where a click is final and costly, for every game: a choice the game's presenter marks with
// `confirm` (the question, in words) is played only once the person confirms it in a dialog; `warning` (what
// a choice costs, e.g. "ends your game") is shown above the choices when every choice carries one, so the
// person knows there is no way around it. The page uses the same dialog before it hands a seat to a bot.
import { h, replaceChildren } from "./dom.js";
import { linkCss } from "./tips.js";
import { t } from "./i18n.js";

let dialog = null;
let settle = null; // resolves the question on show
let about = null; // what it is about: "choice" (a move, stale once the position changes) or null

/**
 * Ask `question` in a modal dialog; resolves true if confirmed, false if cancelled (the cancel button,
 * Escape, or a newer question replacing it).
 */
export function ask(question, { yes = t("Confirm"), no = t("Cancel"), kind = null } = {}) {
  linkCss("/static/css/help.css");
  if (!dialog) {
    // Named by its question (read when it opens), as a dialog must be.
    dialog = h("dialog", { class: "confirm-dialog", "data-testid": "confirm-dialog", role: "alertdialog", "aria-labelledby": "confirm-text" });
    dialog.addEventListener("cancel", (ev) => {
      ev.preventDefault(); // Escape: answered here, so the dialog's own closing cannot race a newer question
      finish(false);
    });
    document.body.append(dialog);
  }
  finish(false); // a question still open is answered "no"
  return new Promise((resolve) => {
    settle = resolve;
    about = kind;
    const cancel = h("button", { type: "button", class: "secondary", "data-testid": "confirm-cancel", onclick: () => finish(false) }, no);
    const ok = h("button", { type: "button", class: "danger", "data-testid": "confirm-ok", onclick: () => finish(true) }, yes);
    replaceChildren(dialog, h("p", { class: "confirm-text", id: "confirm-text", "data-testid": "confirm-text" }, question), h("div", { class: "confirm-buttons" }, cancel, ok));
    dialog.showModal();
    cancel.focus(); // the safe answer is the one a stray Enter gives
  });
}

function finish(value) {
  const resolve = settle;
  settle = null;
  if (dialog && dialog.open) dialog.close();
  if (resolve) resolve(value);
}

/** Close a question about a move still open (its answer is "no"): the position has changed. */
export function dismissChoice() {
  if (about === "choice") finish(false);
}

/**
 * `play(choice)` for a choice that needs no confirmation, else once its question is confirmed; `current()`
 * says whether the position the choice was offered in is still the one on the table (a move made meanwhile,
 * by a bot or a timer, makes it stale: it is then not played).
 */
export async function confirmChoice(choice, play, current) {
  if (!choice.confirm) return play(choice);
  const ok = await ask(choice.confirm, { yes: t("Yes, play it"), no: t("No, go back"), kind: "choice" });
  if (ok && current()) play(choice);
}

/**
 * The warning line above the choices: shown when every legal choice carries a `warning` ("Careful: every
 * choice you have ends your game."), hidden otherwise. `anchor` is the choices panel; the line goes before it.
 */
export function showWarnings(anchor, legal) {
  let line = anchor.previousElementSibling;
  if (!line || !line.classList.contains("choice-warning")) {
    line = h("p", { class: "choice-warning", role: "alert", "data-testid": "choice-warning", hidden: true });
    anchor.before(line);
  }
  const all = legal && legal.length > 0 && legal.every((c) => c.warning);
  const words = all ? [...new Set(legal.map((c) => c.warning))] : [];
  line.textContent = all ? t("Careful: every choice you have %(what)s.", { what: words.join(t(" or ")) }) : "";
  line.hidden = !all;
}
