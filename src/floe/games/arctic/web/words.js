// Arctic in words: power sides and card descriptions.
import { ANIMAL_NAMES } from "./icons.js";
import { N, t } from "/static/js/i18n.js";

// Short name and effect of each power side (slug as sent by the engine, e.g. "fox-under").
export const POWER_WORDS = {
  "fox-facedown": [N("face-down wildcard"), N("the last card placed may go face-down under your visible card")],
  "fox-under": [N("under the pile"), N("the last card placed may go to the bottom of your pile")],
  "moose-draw": [N("draw ±1"), N("draw one card more or one fewer")],
  "moose-place": [N("place ±1"), N("place one card more or one fewer")],
  "walrus-main": [N("main extra step"), N("the main animal's token may move one more step")],
  "walrus-companion": [N("companion extra step"), N("the companion's token may move one more step")],
  "orca-refill": [N("refill after each"), N("the river refills after each card you take from it")],
  "orca-deck": [N("draw from the deck"), N("any draw may be the top card of the deck")],
  "puffin-swap": [N("swap"), N("before placing, swap a hand card with a river card")],
  "puffin-take-back": [N("take back"), N("before placing, take your visible card back into your hand")],
  "bear-draw-penalty": [N("draw a penalty card"), N("any draw may be a card from your own penalty zone")],
  "bear-give": [N("give a penalty card"), N("give one of your penalty cards to another player")],
};

export function powerName(slug) {
  return POWER_WORDS[slug] ? t(POWER_WORDS[slug][0]) : slug || t("side not drawn yet");
}

export function powerEffect(slug) {
  return POWER_WORDS[slug] ? t(POWER_WORDS[slug][1]) : "";
}

/** Parse "fox-walrus-4" into its parts; the draw value is 6 − placement on every card. */
export function parseCard(notation) {
  const parts = String(notation).split("-");
  const placement = Number(parts[2]);
  return { main: parts[0], companion: parts[1], placement, draw: 6 - placement };
}

export function cardWords(notation) {
  const c = parseCard(notation);
  return t("%(main)s (companion %(companion)s), place %(place)s / draw %(draw)s", {
    main: ANIMAL_NAMES[c.main],
    companion: ANIMAL_NAMES[c.companion],
    place: c.placement,
    draw: c.draw,
  });
}

// The count with its noun, one form or the other: shared by every game's pages.
export { counted } from "/static/js/words.js";
