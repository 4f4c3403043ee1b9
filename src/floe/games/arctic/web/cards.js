// Card faces and backs. A face shows the main animal big, the companion small, the placement value
// (top left) and the draw value (bottom right, 6 − placement), tinted in the main animal's colour.
import { h } from "/static/js/dom.js";
import { ANIMAL_COLOURS, ANIMAL_NAMES, animalIcon, pawIcon } from "./icons.js";
import { cardWords, parseCard } from "./words.js";
import { t } from "/static/js/i18n.js";

/**
 * A card face. Options: size ("lg" hand/river, "sm" piles), faceDown (a face-down card whose identity
 * this viewer knows: drawn dimmed and marked), obj (the clickable-object key, see table.js), place (where
 * it lies — "hand", "river", "pile:2" —: the card is then keyed for the page's move animation, motion.js).
 */
export function cardFace(notation, { size = "lg", faceDown = false, obj = null, testid = null, place = null } = {}) {
  const c = parseCard(notation);
  const label = faceDown ? t("face-down: %(card)s", { card: cardWords(notation) }) : cardWords(notation);
  return h(
    "div",
    {
      class: `card card-${size}${faceDown ? " card-facedown-known" : ""}`,
      style: { "--c": ANIMAL_COLOURS[c.main] },
      dataset: {
        card: notation,
        animal: c.main,
        ...(obj ? { obj } : {}),
        ...(place ? { key: `card:${notation}`, look: `${place}${faceDown ? ":down" : ""}` } : {}),
      },
      "data-testid": testid,
      "data-tip": faceDown
        ? t("%(card)s. Face-down it has no animal and no values in play; at scoring it counts as the animal that scores most.", { card: label })
        : t(
            "%(card)s. Main animal %(main)s: scores in runs, gives its power card. " +
              "Companion %(companion)s: its token moves the other way. Placement value %(place)s: " +
              "cards to place next turn while it is your visible card. Draw value %(draw)s: cards to draw this turn.",
            { card: label, main: ANIMAL_NAMES[c.main], companion: ANIMAL_NAMES[c.companion], place: c.placement, draw: c.draw },
          ),
      // A picture with a name (an aria-label on a plain div is not read); a button while it is clickable.
      role: "img",
      "aria-label": label,
    },
    h("span", { class: "card-place" }, c.placement),
    h("span", { class: "card-main" }, animalIcon(c.main, { size: size === "lg" ? 40 : 22 })),
    h(
      "span",
      { class: "card-comp" },
      animalIcon(c.companion, { size: size === "lg" ? 16 : 11 }),
    ),
    h("span", { class: "card-draw" }, c.draw),
    faceDown ? h("span", { class: "card-fd-mark" }, t("face-down")) : null,
  );
}

/** A card back: a face-down card nobody may name (or the deck). */
export function cardBack({ size = "lg", label = t("face-down card"), obj = null, testid = null } = {}) {
  return h(
    "div",
    {
      class: `card card-${size} card-back`,
      "data-tip": label,
      role: "img",
      "aria-label": label,
      dataset: obj ? { obj } : {},
      "data-testid": testid,
    },
    pawIcon({ size: size === "lg" ? 26 : 14 }),
  );
}
