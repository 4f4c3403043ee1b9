// Arche's score screen: the shared table (points per scoring card with the figures in brackets, chips, the
// tie-breaker, the pets) and, under it, the majority table of each scoring card: who had how many figures,
// which place each took and what it paid (10 / 6 / 2, equal seats sharing their places' points).
import { h } from "/static/js/dom.js";
import { rankByTotal, scoreScreen as sharedScoreScreen } from "/static/js/score.js";
import { seatLabel } from "/static/js/words.js";
import { cardTile } from "./cards.js";
import { CATEGORIES, CATEGORY_COLOURS, CATEGORY_NAMES, SEAT_COLOURS, SEAT_INK, categoryIcon, figureIcon } from "./icons.js";
import { fmt, placeWords } from "./render.js";
import { nt, t } from "/static/js/i18n.js";

/** How the points are made, in the reader's language. */
function explain() {
  return t("Each scoring card pays 10 points for the most figures, 6 for the second most and 2 for every other player with a figure there; equal players share the points of the places they take (two first: (10+6)/2 = 8 each). A chip under a figure makes it count 1.5; each chip in hand is 1 point; the pets add their figures at the end. Equal totals: fewer animal cards left in hand is better.");
}

/** A scoring card's name in the reader's language (the ids are the Python catalog's). */
const categoryName = (cat) => t(CATEGORY_NAMES[cat]);

/** ``2 figures``, ``1 point`` in the reader's language. */
const figuresWords = (n) => nt("%(n)s figure", "%(n)s figures", n, { n: fmt(n) });
const pointsWords = (n) => nt("%(n)s point", "%(n)s points", n, { n: fmt(n) });

/** Seats best first: higher total, then fewer animals in hand; seats equal in both share the place.
 * (`value` is the total as a number: `total` is written for people, "25⅓".) */
function rank(breakdowns) {
  return rankByTotal(
    breakdowns,
    (a, b) => breakdowns[b].value - breakdowns[a].value || breakdowns[a].animals_in_hand - breakdowns[b].animals_in_hand,
  );
}

function categoryRow(cat) {
  return {
    label: [categoryIcon(cat, 18), " " + categoryName(cat)],
    cell: (q, b) => {
      const part = b.cards[cat];
      return h(
        "td",
        {
          class: part.points ? "scored" : "",
          style: { "--c": CATEGORY_COLOURS[cat] },
          title: t("%(figures)s on %(category)s: %(points)s", {
            figures: figuresWords(part.figures),
            category: categoryName(cat),
            points: pointsWords(part.points),
          }),
        },
        fmt(part.points),
        h("small", { class: "muted" }, ` (${fmt(part.figures)})`),
      );
    },
  };
}

/** The majority table of one scoring card, seats by figures (most first); `rows` are the engine's standings of
 * the card (the view's `standings`: arche/scoring.py), each seat's figures, points, place and the places' values. */
function majorityTable(cat, rows, name) {
  const figures = rows.map((r) => r.figures);
  const order = [...rows.keys()].sort((a, b) => figures[b] - figures[a] || a - b);
  const paid = (values) => (values.length === 1 ? "" : t("(%(sum)s)/%(n)s, shared", { sum: values.join("+"), n: values.length }));
  return h(
    "div",
    { class: "majority", "data-testid": `majority-${cat}`, style: { "--c": CATEGORY_COLOURS[cat] } },
    h("h3", { class: "majority-title" }, categoryIcon(cat, 20), " " + categoryName(cat)),
    h(
      "table",
      { class: "scores majority-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Place")), h("th", {}, t("Player")), h("th", {}, t("Figures")), h("th", {}, t("Points")))),
      h(
        "tbody",
        {},
        order.map((q) => {
          const { place, points } = rows[q];
          const tie = place && place[0] !== place[1];
          return h(
            "tr",
            {
              class: `${tie ? "tie" : ""}${points ? " scored" : ""}`,
              dataset: { seat: q, figures: figures[q], points, place: place ? `${place[0]}-${place[1]}` : "" },
            },
            h("td", { class: "majority-place" }, placeWords(place), tie ? h("small", { class: "tie-mark" }, " " + t("tie")) : null),
            h("th", { scope: "row" }, h("span", { class: "seat-dot", "aria-hidden": "true", style: { background: SEAT_COLOURS[q], "--dot-ink": SEAT_INK[q] } }, `${q + 1}`), ` ${name(q)}`),
            h("td", { class: "majority-figures" }, figures[q] ? figureIcon(SEAT_COLOURS[q], 14) : null, ` ${fmt(figures[q])}`),
            h(
              "td",
              { class: "majority-points", title: place ? t("%(place)s place: %(points)s", { place: placeWords(place), points: pointsWords(points) }) : t("no figure") },
              h("strong", {}, fmt(points)),
              tie ? h("small", { class: "muted" }, ` ${paid(rows[q].paid)}`) : null,
            ),
          );
        }),
      ),
    ),
  );
}

/** The score screen (see /static/js/score.js), with the majority tables under the totals. */
export function scoreScreen(args) {
  const { breakdowns, view, summary, me } = args;
  const cards = (view && view.cards) || {};
  // The final position's standings are the final scoring's majorities, places included.
  const standings = view.standings.cards;
  const rows = [
    ...CATEGORIES.map(categoryRow),
    { label: t("Chips"), cell: (q, b) => h("td", {}, b.chips) },
    { label: t("Animals left in hand (tie-breaker)"), cell: (q, b) => h("td", { class: "muted" }, b.animals_in_hand) },
    {
      label: t("Pet"),
      cell: (q, b) =>
        h("td", { class: "score-pet", dataset: { pet: b.pet || "none" } }, b.pet ? cardTile(b.pet, cards, { size: "sm" }) : t("none")),
    },
  ];
  // Shared places give fractions (three tied seconds: 10/3 each): the shared screen prints `total` as it is,
  // so it gets the total in words and the ranking keeps the number.
  const written = breakdowns.map((b) => ({ ...b, total: fmt(b.total), value: b.total }));
  const screen = sharedScoreScreen({ ...args, breakdowns: written }, { rows, explain: explain(), rank });
  const name = (q) => seatLabel(q, summary, me);
  const tables = h(
    "div",
    { class: "majorities", "data-testid": "majorities" },
    h("h3", { class: "zone-title" }, t("Majorities per scoring card")),
    h("div", { class: "majority-grid" }, CATEGORIES.map((cat) => majorityTable(cat, standings[cat], name))),
  );
  const wrap = screen.querySelector(".score-wrap");
  if (wrap) wrap.after(tables);
  else screen.append(tables);
  return screen;
}
