// Arctic's board module: what the table and replay pages (served from /static/js/) load for an Arctic
// table, from /games/arctic/board.js. The interface every board module exports:
//   css                 style sheets to link, relative to this module
//   render(root, view, {summary, reveal, live})   draw one observation dict into `root`
//   choices             the click-to-play routes (a ChoiceSpec for /static/js/choices.js)
//   status(view)        a few words for the status line ("Round 3 (final round)")
//   toAct(view)         the seat deciding in `view`, or null (the replay's frame line)
//   scoreScreen(args)   the final score screen
import { cardWords } from "./words.js";
import { t } from "/static/js/i18n.js";

export { render } from "./render.js";
export { scoreScreen } from "./score.js";

export const css = ["arctic.css"];

// Hand-card verbs: the card clicked is in the player's hand.
const HAND_VERBS = new Set(["place", "under", "facedown", "discard", "swap"]);

/** The clicks that make an Arctic choice (keys as render.js draws them); null: a button only. */
function route(choice) {
  const verb = choice.verb || String(choice.notation || "").split(" ")[0];
  const card = choice.card || null;
  const seat = Number.isInteger(choice.seat) ? `seat:${choice.seat}` : null;
  if (HAND_VERBS.has(verb) && card) return [`hand:${card}`];
  if (verb === "river" && card) return [`river:${card}`];
  if (verb === "deck") return ["deck"];
  if (verb === "penalty" && card) return [`penalty:${card}`];
  // A Polar bear gift: the penalty card, then the player (or only the player when the card is unseen).
  if (verb === "give") return card ? [`penalty:${card}`, seat] : seat ? [seat] : null;
  return null;
}

function words(key) {
  const kind = key.split(":")[0];
  const rest = key.slice(key.indexOf(":") + 1);
  if (kind === "hand") return t("your card %(card)s", { card: cardWords(rest) });
  if (kind === "river") return t("the river card %(card)s", { card: cardWords(rest) });
  if (kind === "penalty") return t("your penalty card %(card)s", { card: cardWords(rest) });
  if (kind === "seat") return `P${Number(rest) + 1}`;
  if (key === "deck") return t("the deck");
  return key;
}

/** "a highlighted card or the deck", "a highlighted player", ... */
function hint(keys) {
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  const parts = [];
  if (kinds.has("hand") || kinds.has("river") || kinds.has("penalty")) parts.push(t("a highlighted card"));
  if (kinds.has("deck")) parts.push(t("the deck"));
  if (kinds.has("seat")) parts.push(t("a highlighted player"));
  return parts.join(t(" or "));
}

export const choices = {
  route,
  words,
  hint,
  // A gift of an unseen penalty card has only the player to click: a button as well.
  button: (choice) => choice.verb === "give" && !choice.card,
};

/** The round line: "Round 3 (final round)". */
export function status(view) {
  let round = view && view.round ? t("Round %(n)s", { n: view.round }) : "";
  if (round && view.final_round) round += ` ${t("(final round)")}`;
  else if (round && view.end_triggered) round += ` ${t("(end triggered: this is the last normal round)")}`;
  return round;
}

/** The seat deciding in `view` (null once over). */
export function toAct(view) {
  return view && Number.isInteger(view.current_player) && view.current_player >= 0 ? view.current_player : null;
}
