// Arctic's twelve powers in full: the step each belongs to, when it can first be used and its exact effect as
// the engine plays it (floe/games/arctic/rules.py; docs/arctic-rules.md §6). The help panel lists them all; a power
// card on the board explains its side with `powerTip`.
import { powerName } from "./words.js";
import { N, t } from "/static/js/i18n.js";

export const STEP_WORDS = {
  A: N("step A (placing)"),
  B: N("step B (moving tokens)"),
  C: N("step C (drawing)"),
};

// slug -> [step, effect]. Step A powers work only if you held the card when your turn began (never in the
// turn you take it); step B and C powers work in the very turn you take them.
export const POWER_HELP = {
  "fox-under": [
    "A",
    N(
      "The last card you place this turn may go face-up to the bottom of your pile instead of on top. It counts " +
      "as placed; your visible card stays the one on top. Needs a face-up card on top of your pile.",
    ),
  ],
  "fox-facedown": [
    "A",
    N(
      "The last card you place this turn may go face-down directly under your visible card. During play it has " +
      "no animal and no values; at scoring it counts as the animal that scores you most. Needs a face-up card " +
      "on top of your pile.",
    ),
  ],
  "moose-place": [
    "A",
    N(
      "Place one card more or one fewer than your placement value (0 is allowed while you have a visible card; " +
      "with no visible card, 1 or 2). A short hand pays penalty cards only down to one fewer.",
    ),
  ],
  "moose-draw": [
    "C",
    N(
      "Draw one card more or one fewer than your draw value (0 is allowed when the draw value is 1).",
    ),
  ],
  "walrus-main": [
    "B",
    N(
      "After the tokens move, the main animal's token may move one more step, forward or back (it stays on the " +
      "landscape). Optional.",
    ),
  ],
  "walrus-companion": [
    "B",
    N(
      "After the tokens move, the companion's token may move one more step, forward or back (it stays on the " +
      "landscape). Optional.",
    ),
  ],
  "orca-refill": [
    "C",
    N(
      "The river is refilled to 6 cards right after each card you take from it, so you see new cards while you " +
      "draw. Automatic.",
    ),
  ],
  "orca-deck": [
    "C",
    N(
      "Any of your draws may be the top card of the deck instead of a river card; nobody else sees it. Works " +
      "even with an empty river while the deck has cards.",
    ),
  ],
  "puffin-swap": [
    "A",
    N(
      "Before you place your first card: swap one card of your hand with one card of the river (both are seen by " +
      "everyone). Needs a hand card and a river card.",
    ),
  ],
  "puffin-take-back": [
    "A",
    N(
      "Before you place your first card: take your visible card back into your hand. Your placement value then " +
      "comes from the new top card (1 if the pile is empty or its top card is face-down); the card taken back " +
      "may be placed again.",
    ),
  ],
  "bear-draw-penalty": [
    "C",
    N(
      "Any of your draws may be a card from your own penalty zone instead of the river (one penalty card fewer). " +
      "Penalty cards lie face down (the rulebook): first look at your zone — everyone sees that you look, only " +
      "you see the cards — then choose one, or still draw from the river. With penalties=seen (BGA) you already " +
      "know them; with penalties=hidden_blind the card is an unseen one.",
    ),
  ],
  "bear-give": [
    "C",
    N(
      "Once per turn, after discarding down to 7 cards: give one card of your penalty zone to another player's " +
      "penalty zone, where it lies face down. Not in the final round (with the table option bear_give_step=A: " +
      "before your first card instead, final round included). With face-down penalty cards you may look at your " +
      "zone first, then choose the card to give.",
    ),
  ],
};

/** The order the panel lists them in: each animal's two sides. */
export const POWER_ORDER = [
  ["fox", ["fox-under", "fox-facedown"]],
  ["moose", ["moose-place", "moose-draw"]],
  ["walrus", ["walrus-main", "walrus-companion"]],
  ["orca", ["orca-refill", "orca-deck"]],
  ["puffin", ["puffin-swap", "puffin-take-back"]],
  ["bear", ["bear-draw-penalty", "bear-give"]],
];

/** A power side explained in one paragraph (the tip of a power card). */
export function powerTip(slug) {
  const help = POWER_HELP[slug];
  if (!help) return t("Its side is drawn at the start of the game.");
  const [step, effect] = help;
  const when = step === "A" ? t("usable from the turn after you take it") : t("usable in the turn you take it");
  return `${powerName(slug)} (${t(STEP_WORDS[step])}, ${when}): ${t(effect)}`;
}
