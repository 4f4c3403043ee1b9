// The Undo button of a table page: shown while the server says this seat may take its last decision back
// (`can_undo` in its state: its own turn, nothing drawn or shown since; docs/server.md, "Undo").
import { h } from "./dom.js";
import { t } from "./i18n.js";

export class UndoButton {
  /** `parent`: where the button goes; `undo()`: sends the undo (returns false when not connected). */
  constructor(parent, undo) {
    this.button = h("button", { type: "button", class: "secondary", "data-testid": "undo", hidden: true }, t("Undo my last move"));
    this.button.addEventListener("click", () => undo());
    parent.append(this.button);
  }

  render(state, mySeat, busy) {
    const allowed = state && state.can_undo && state.status === "playing" && state.to_move === mySeat;
    this.button.hidden = !allowed;
    this.button.disabled = Boolean(busy);
  }
}
