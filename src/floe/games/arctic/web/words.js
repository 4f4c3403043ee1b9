// Arctic in words: power sides and card descriptions.
import { ANIMAL_NAMES } from "./icons.js";

// Short name and effect of each power side (slug as sent by the engine, e.g. "fox-under").
export const POWER_WORDS = {
  "fox-facedown": ["face-down wildcard", "the last card placed may go face-down under your visible card"],
  "fox-under": ["under the pile", "the last card placed may go to the bottom of your pile"],
  "moose-draw": ["draw ±1", "draw one card more or one fewer"],
  "moose-place": ["place ±1", "place one card more or one fewer"],
  "walrus-main": ["main extra step", "the main animal's token may move one more step"],
  "walrus-companion": ["companion extra step", "the companion's token may move one more step"],
  "orca-refill": ["refill after each", "the river refills after each card you take from it"],
  "orca-deck": ["draw from the deck", "any draw may be the top card of the deck"],
  "puffin-swap": ["swap", "before placing, swap a hand card with a river card"],
  "puffin-take-back": ["take back", "before placing, take your visible card back into your hand"],
  "bear-draw-penalty": ["draw a penalty card", "any draw may be a card from your own penalty zone"],
  "bear-give": ["give a penalty card", "give one of your penalty cards to another player"],
};

export function powerName(slug) {
  return POWER_WORDS[slug] ? POWER_WORDS[slug][0] : slug || "side not drawn yet";
}

export function powerEffect(slug) {
  return POWER_WORDS[slug] ? POWER_WORDS[slug][1] : "";
}

/** Parse "fox-walrus-4" into its parts; the draw value is 6 − placement on every card. */
export function parseCard(notation) {
  const parts = String(notation).split("-");
  const placement = Number(parts[2]);
  return { main: parts[0], companion: parts[1], placement, draw: 6 - placement };
}

export function cardWords(notation) {
  const c = parseCard(notation);
  return `${ANIMAL_NAMES[c.main]} (companion ${ANIMAL_NAMES[c.companion]}), place ${c.placement} / draw ${c.draw}`;
}

// The count with its noun, one form or the other: shared by every game's pages.
export { counted } from "/static/js/words.js";
