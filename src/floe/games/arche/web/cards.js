// Arche's cards as HTML tiles: the five features at a glance (the background is the climate, the kettlebell
// the weight, then the diet, the scoring category and the red "!" of an ability), the name underneath; the
// whole card in words as its tip (shown on hover and tap, /static/js/tips.js). A card back for the deck and face-down pets.
import { h } from "/static/js/dom.js";
import { lang, t, tc } from "/static/js/i18n.js";
import {
  CATEGORY_NAMES,
  CLIMATE_NAMES,
  DIET_NAMES,
  SPECIAL_NAMES,
  abilityIcon,
  arkShape,
  categoryIcon,
  climateIcon,
  dietIcon,
  s,
  weightIcon,
} from "./icons.js";

/** A card's name in the reader's language: the deck's own German column in German, else the catalog's name
 * (context "card"), else the English name (as Python's Deck.name). */
export function localName(info) {
  return lang === "de" && info.name_de ? info.name_de : tc("card", info.name);
}

/** "Hare: weight 1, cold climate, herbivore, shy" (and its ability), in the reader's language. */
export function cardWords(slug, info) {
  if (!info) return slug;
  const parts = [t("weight %(weight)s", { weight: info.weight }), t(CLIMATE_NAMES[info.climate] || info.climate)];
  if (info.diet !== "-") parts.push(t(DIET_NAMES[info.diet] || info.diet));
  parts.push(t(CATEGORY_NAMES[info.category] || info.category));
  if (info.special !== "-") parts.push(`! ${t(SPECIAL_NAMES[info.special] || info.special)}`);
  return t("%(card)s: %(features)s", { card: localName(info), features: parts.join(", ") });
}

/**
 * A card face. `cards` is the view's card table (slug → features). Options: size ("lg" hand and display,
 * "sm" the ark and the players), obj (the clickable-object key), testid, extra classes, place (where it
 * lies — "hand", "display", "cabin:l2" —: the card is then keyed for the page's move animation, motion.js).
 */
export function cardTile(slug, cards, { size = "lg", obj = null, testid = null, cls = "", place = null } = {}) {
  const info = cards[slug];
  const words = cardWords(slug, info);
  if (!info) {
    return h(
      "div",
      { class: `arche-card arche-card-${size}`, "data-tip": slug, role: "img", "aria-label": slug, dataset: obj ? { obj } : {} },
      slug,
    );
  }
  const big = size === "lg";
  return h(
    "div",
    {
      class: `arche-card arche-card-${size} climate-${info.climate} cat-${info.category === "-" ? "none" : info.category}${cls ? ` ${cls}` : ""}`,
      "data-tip": words,
      // A picture with a name (an aria-label on a plain div is not read); a button while it is clickable.
      role: "img",
      "aria-label": words,
      "data-testid": testid,
      dataset: { card: slug, ...(obj ? { obj } : {}), ...(place ? { key: `card:${slug}`, look: place } : {}) },
    },
    h(
      "span",
      { class: "ac-row ac-top" },
      weightIcon(info.weight, big ? 22 : 17),
      climateIcon(info.climate, big ? 18 : 14),
      info.special !== "-" ? abilityIcon(info.special, big ? 18 : 14) : null,
    ),
    h(
      "span",
      { class: "ac-row ac-mid" },
      categoryIcon(info.category, big ? 26 : 18),
      info.diet !== "-" ? dietIcon(info.diet, big ? 18 : 14) : null,
    ),
    h("span", { class: "ac-name" }, localName(info)),
  );
}

/** A card back (the deck, a face-down pet): the ark on a wooden pattern. */
export function cardBack({ size = "lg", label = null, obj = null, testid = null, extra = null } = {}) {
  return h(
    "div",
    {
      class: `arche-card arche-card-${size} arche-back`,
      "data-tip": label || t("face-down card"),
      role: "img",
      "aria-label": label || t("face-down card"),
      "data-testid": testid,
      dataset: obj ? { obj } : {},
    },
    s("svg", { viewBox: "0 0 20 20", width: size === "lg" ? 34 : 22, height: size === "lg" ? 34 : 22 }, arkShape("#f3e2c0", "#f3e2c0")),
    extra,
  );
}
