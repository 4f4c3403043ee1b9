// Arche's board module, loaded by the table and replay pages from /games/arche/board.js (the interface is
// described in docs/server.md, "Board modules"): the ark with its cabins and the scale, the display, your
// hand, the scoring cards and the players; the click-to-play routes; the status line; the score screen.
import { CATEGORY_NAMES } from "./icons.js";
import { cardName } from "./render.js";
import { t } from "/static/js/i18n.js";

export { render, status } from "./render.js";
export { scoreScreen } from "./score.js";

export const css = ["arche.css"];

/**
 * The clicks that make an Arche choice (keys as render.js draws them); null: a button only (done, pass,
 * no pet, evict nobody).
 *   draw / take          the display card
 *   draw-top             the deck
 *   play                 the hand card, then its cabin, the new-cabin place of a row, or the card it evicts
 *   pet / discard        the hand card
 *   evict (any cabin)    the card in the ark
 *   chip / figure        the scoring card
 */
function route(choice) {
  switch (choice.verb) {
    case "draw":
    case "take":
      return [`display:${choice.card}`];
    case "draw-top":
      return ["deck"];
    case "play": {
      let to;
      if (choice.target) to = `ark:${choice.target}`;
      else if (choice.new_cabin) to = `new:${choice.side === "left" ? "l" : "r"}`;
      else to = `cabin:${choice.cabin}`;
      return [`hand:${choice.card}`, to];
    }
    case "pet":
    case "discard":
      return [`hand:${choice.card}`];
    case "evict":
      return [`ark:${choice.card}`];
    case "chip":
    case "figure":
      return [`score:${choice.category}`];
    default:
      return null;
  }
}

function words(key) {
  const [kind, rest] = [key.split(":")[0], key.slice(key.indexOf(":") + 1)];
  const card = kind === "cabin" ? rest.toUpperCase() : cardName(rest);
  if (kind === "hand") return t("your %(card)s", { card });
  if (kind === "display") return t("the display's %(card)s", { card });
  if (kind === "ark") return t("the %(card)s in the ark", { card });
  if (kind === "cabin") return t("cabin %(cabin)s", { cabin: card });
  if (kind === "new") return rest === "l" ? t("a new cabin on the left") : t("a new cabin on the right");
  if (kind === "score") return t("the %(category)s scoring card", { category: t(CATEGORY_NAMES[rest] || rest) });
  if (key === "deck") return t("the deck");
  return key;
}

/** What to click, in words, for the keys that can be clicked now. */
function hint(keys, step) {
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  if (step > 0) {
    const parts = [];
    if (kinds.has("cabin")) parts.push(t("a highlighted cabin"));
    if (kinds.has("new")) parts.push(t("a new-cabin place"));
    if (kinds.has("ark")) parts.push(t("a card to evict"));
    return parts.join(t(" or "));
  }
  const parts = [];
  if (kinds.has("hand")) parts.push(t("a card in your hand"));
  if (kinds.has("display")) parts.push(t("a display card"));
  if (kinds.has("deck")) parts.push(t("the deck"));
  if (kinds.has("ark")) parts.push(t("a card in the ark"));
  if (kinds.has("score")) parts.push(t("a scoring card"));
  return parts.join(t(", or "));
}

export const choices = { route, words, hint };

/** The seat deciding in `view` (null at a chance event or once over). */
export function toAct(view) {
  return view && Number.isInteger(view.current_player) && view.current_player >= 0 ? view.current_player : null;
}
