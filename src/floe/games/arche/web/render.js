// The Arche board, drawn from one observation dict (floe.games.arche.observation) and nothing else, so it
// shows exactly what that seat may know: other hands and other pets are not in the view until the end.
//
// Objects a choice can involve carry a `data-obj` key; board.js routes the legal choices onto them:
//   hand:<card>      a card in your hand (play it, put it down as your pet, discard it)
//   display:<card>   a display card (draw it with the deck's top card, or take it for a new cabin)
//   deck             the deck (draw its top card alone, when the display is empty)
//   cabin:<l2>       a cabin of the ark (left row l, right row r, numbered from the bow)
//   new:<l|r>        the place of a new cabin at the end of a row
//   ark:<card>       a card in the ark (a card to evict)
//   score:<category> a scoring card (the Chimpanzee's chip, the figure of a card without a category)
import { h, replaceChildren } from "/static/js/dom.js";
import { clickWord, seatLabel } from "/static/js/words.js";
import { N, nt, t } from "/static/js/i18n.js";
import { cardBack, cardTile, localName } from "./cards.js";
import {
  CATEGORIES,
  CATEGORY_COLOURS,
  CATEGORY_NAMES,
  SEAT_COLOURS,
  SEAT_INK,
  categoryIcon,
  chipIcon,
  figureIcon,
  rainIcon,
  s,
} from "./icons.js";

const MAX_CABIN = 3;
const RAINS = 5;

// The latest view's card table, so the choices panel can name cards (board.js: words).
let lastCards = {};

/** A card's name from the latest view in the reader's language ("Hare", "Hase"), or its slug. */
export function cardName(slug) {
  return lastCards[slug] ? localName(lastCards[slug]) : slug;
}

// --- numbers -------------------------------------------------------------------------------------------------
const FRACTIONS = [
  [1 / 2, "½"],
  [1 / 3, "⅓"],
  [2 / 3, "⅔"],
  [1 / 4, "¼"],
  [3 / 4, "¾"],
  [1 / 5, "⅕"],
  [2 / 5, "⅖"],
  [3 / 5, "⅗"],
  [4 / 5, "⅘"],
];

/** 4 → "4", 4.5 → "4½", 10/3 → "3⅓" (shared places and half figures), else two decimals. */
export function fmt(x) {
  if (Number.isInteger(x)) return String(x);
  const whole = Math.floor(x + 1e-9);
  const frac = x - whole;
  for (const [value, glyph] of FRACTIONS) {
    if (Math.abs(frac - value) < 1e-6) return `${whole || ""}${glyph}`;
  }
  return x.toFixed(2);
}

// The places on a scoring card (at most five seats), each a word of the reader's language.
const ORDINALS = [N("1st"), N("2nd"), N("3rd"), N("4th"), N("5th")];

/** "1st", "2nd–3rd" in the reader's language. */
export function placeWords(place) {
  if (!place) return "–";
  const ord = (n) => (ORDINALS[n - 1] ? t(ORDINALS[n - 1]) : String(n));
  if (place[0] === place[1]) return ord(place[0]);
  return t("%(first)s–%(last)s", { first: ord(place[0]), last: ord(place[1]) });
}

// --- the bar: placeholder marking, scale, rain, deck, bank ---------------------------------------------------------
/** The scale: a beam over its fulcrum tilted to the heavier side, and the marker on the ark card's 5 places. */
function scale(tilt) {
  const by = Math.abs(tilt);
  const words =
    tilt === 0
      ? t("balanced")
      : tilt > 0
        ? t("left side heavier by %(n)s", { n: by })
        : t("right side heavier by %(n)s", { n: by });
  const label = t("the scale: %(words)s", { words });
  const title = t("The scale: %(words)s (it must stay within 2 either way)", { words });
  const svg = s(
    "svg",
    { viewBox: "0 0 170 54", width: 170, height: 54, class: "arche-scale-svg", role: "img", "aria-label": label },
    s("title", {}, title),
    // Tilted beam: heavier on the left (tilt > 0) goes down on the left.
    s(
      "g",
      { transform: `rotate(${-tilt * 7} 85 18)` },
      s("rect", { x: 15, y: 15, width: 140, height: 5, rx: 2.5, fill: "#7a4a24" }),
      s("rect", { x: 12, y: 8, width: 14, height: 7, rx: 2, fill: "#c9a26b" }),
      s("rect", { x: 144, y: 8, width: 14, height: 7, rx: 2, fill: "#c9a26b" }),
    ),
    s("path", { d: "M85 19 L78 31 H92 Z", fill: "#5a3818" }),
    // The ark card's five places; the yellow marker on the current one.
    s("line", { x1: 25, y1: 42, x2: 145, y2: 42, stroke: "#c2ccd6", "stroke-width": 2 }),
    [2, 1, 0, -1, -2].map((v, i) =>
      s("circle", {
        cx: 25 + i * 30,
        cy: 42,
        r: v === tilt ? 7.5 : 4,
        fill: v === tilt ? "#f2c230" : "#fff",
        stroke: v === tilt ? "#9a7400" : "#8a96a3",
        "stroke-width": 1.5,
        class: v === tilt ? "scale-marker" : "scale-place",
      }),
    ),
    s("text", { x: 4, y: 46, "font-size": 10, fill: "#5f6b7a", "font-weight": 700 }, "L"),
    s("text", { x: 159, y: 46, "font-size": 10, fill: "#5f6b7a", "font-weight": 700 }, "R"),
  );
  return h(
    "div",
    { class: "arche-scale", "data-testid": "scale", dataset: { tilt, key: "scale", look: String(tilt) } },
    svg,
    h("span", { class: "scale-words" }, words),
  );
}

function topBar(view) {
  const rainInDeck = (view.middle_rain || 0) + (view.lower_rain || 0);
  const rain = [];
  for (let k = 0; k < RAINS; k++) rain.push(rainIcon(k < view.rain_out, 18));
  const phase =
    view.phase === "over"
      ? t("game over")
      : view.phase === "endgame"
        ? t("end-game: pass, or pay a chip per animal")
        : t("turn %(n)s", { n: view.turn });
  const rainTitle = t("%(n)s of 5 rain cards out", { n: view.rain_out });
  const deckWords = t("%(n)s + %(rain)s rain", { n: view.stock_count, rain: rainInDeck });
  return h(
    "div",
    { class: "arche-bar", "data-testid": "arche-bar" },
    view.placeholder_cards
      ? h(
          "span",
          { class: "arche-placeholder", "data-testid": "arche-placeholder" },
          t("Placeholder cards, not the printed ones"),
        )
      : h("span", { class: "arche-placeholder arche-loaded", "data-testid": "arche-placeholder" }, t("A deck loaded by the table")),
    scale(view.tilt),
    h(
      "span",
      {
        class: "bar-item",
        "data-testid": "rain",
        dataset: { rainOut: view.rain_out, key: "rain", look: String(view.rain_out) },
        title: rainTitle,
      },
      h("span", { class: "label" }, t("Rain")),
      rain,
      h("strong", {}, ` ${view.rain_out}/5`),
    ),
    h(
      "span",
      { class: "bar-item", "data-testid": "deck-count", title: t("cards in the deck, and rain cards among them") },
      h("span", { class: "label" }, t("Deck")),
      ` ${deckWords}`,
    ),
    h(
      "span",
      { class: "bar-item", "data-testid": "bank", title: t("chips in the bank") },
      h("span", { class: "label" }, t("Bank")),
      chipIcon(15),
      ` ${view.bank}`,
    ),
    h("span", { class: "bar-item bar-phase" }, phase),
  );
}

// --- your hand and the display -------------------------------------------------------------------------------------
function zone(title, cls, ...children) {
  // A zone's hint (its last <p>) is also its tooltip: a wide window leaves the line out (arche.css).
  const hint = children.filter((c) => c instanceof HTMLParagraphElement && c.classList.contains("small")).pop();
  return h(
    "section",
    { class: `zone ${cls}`, title: hint ? hint.textContent : null },
    h("h2", { class: "zone-title" }, title),
    ...children,
  );
}

function myZone(view, me) {
  const mine = view.players_view[me];
  const cards = view.cards;
  const hand = mine.hand || [];
  const pet = mine.pet;
  return zone(
    t("Your hand (%(n)s)", { n: hand.length }),
    "arche-mine",
    h(
      "div",
      { class: "arche-cards", "data-testid": "hand" },
      hand.length
        ? hand.map((c) => cardTile(c, cards, { obj: `hand:${c}`, testid: `hand-card-${c}`, place: "hand" }))
        : h("p", { class: "muted" }, t("empty")),
    ),
    h(
      "div",
      { class: "arche-mine-extra" },
      h(
        "span",
        { class: "mine-pet", "data-testid": `pet-${me}`, dataset: { pet: pet || "none" } },
        h("span", { class: "label" }, t("Your pet: ")),
        pet ? cardTile(pet, cards, { size: "sm", cls: "pet-card" }) : h("span", { class: "muted" }, view.rain_out >= 2 ? t("none") : t("after the 2nd rain")),
      ),
      h("span", {}, h("span", { class: "label" }, t("Chips: ")), chips(mine.chips)),
      h("span", {}, h("span", { class: "label" }, t("Figures left: ")), `${mine.figures_left}`),
    ),
  );
}

function chips(n) {
  const icons = [];
  for (let k = 0; k < Math.min(n, 8); k++) icons.push(chipIcon(15));
  return h("span", { class: "chips", title: nt("%(n)s action chip", "%(n)s action chips", n, { n }), dataset: { chips: n } }, icons, h("strong", {}, ` ${n}`));
}

function displayZone(view) {
  const cards = view.cards;
  const display = view.display || [];
  const over = view.phase === "over" || view.phase === "endgame";
  return zone(
    t("Display and deck"),
    "arche-display",
    h(
      "div",
      { class: "arche-cards", "data-testid": "display" },
      display.map((c) => cardTile(c, cards, { obj: `display:${c}`, testid: `display-card-${c}`, place: "display" })),
      display.length ? null : h("p", { class: "muted" }, t("empty")),
      cardBack({
        label: nt("the deck: %(n)s card", "the deck: %(n)s cards", view.stock_count, { n: view.stock_count }),
        obj: over ? null : "deck",
        testid: "deck",
        extra: h("span", { class: "deck-count" }, `${view.stock_count}`),
      }),
    ),
    h(
      "p",
      { class: "small muted" },
      over ? t("No more cards are drawn.") : t("Draw: %(click)s a display card (you also get the deck's top card).", { click: clickWord() }),
    ),
  );
}

// --- the ark ---------------------------------------------------------------------------------------------------------
function cabinWeight(cab, cards) {
  return cab.reduce((sum, c) => sum + (cards[c] ? cards[c].weight : 0), 0);
}

function cabin(view, side, index) {
  const cards = view.cards;
  const row = side === "l" ? view.ark.left : view.ark.right;
  const name = `${side}${index + 1}`;
  const cab = row[index];
  const free = [];
  for (let k = cab.length; k < MAX_CABIN; k++) free.push(h("span", { class: "cabin-free" }));
  const cabinWords = t("cabin %(cabin)s: %(n)s of 3 places, weight %(weight)s", {
    cabin: name.toUpperCase(),
    n: cab.length,
    weight: cabinWeight(cab, cards),
  });
  return h(
    "div",
    {
      class: `cabin cabin-${side}`,
      "data-testid": `cabin-${name}`,
      dataset: { obj: `cabin:${name}`, cards: cab.length },
      title: cabinWords,
      // A named group of its cards (each named too); a button while it is a destination.
      role: "group",
      "aria-label": cabinWords,
    },
    h("span", { class: "cabin-label", "aria-hidden": "true" }, name.toUpperCase(), h("small", {}, ` w${cabinWeight(cab, cards)}`)),
    h(
      "div",
      { class: "cabin-cards" },
      cab.map((c) => cardTile(c, cards, { size: "sm", obj: `ark:${c}`, testid: `ark-card-${c}`, place: `cabin:${name}` })),
      free,
    ),
  );
}

function newCabin(side, index) {
  const cabin = `${side.toUpperCase()}${index + 1}`;
  return h(
    "div",
    {
      class: `cabin cabin-new cabin-${side}`,
      "data-testid": `new-${side}`,
      dataset: { obj: `new:${side}` },
      title:
        side === "l"
          ? t("a new cabin at the end of the left row (%(cabin)s): give a chip to your right-hand neighbour", { cabin })
          : t("a new cabin at the end of the right row (%(cabin)s): give a chip to your right-hand neighbour", { cabin }),
    },
    h("span", { class: "cabin-label" }, t("+ new %(cabin)s", { cabin })),
  );
}

function arkZone(view) {
  const left = view.ark.left;
  const right = view.ark.right;
  const cards = view.cards;
  const rows = Math.max(left.length, right.length) + 1;
  const weight = (row) => row.reduce((sum, cab) => sum + cabinWeight(cab, cards), 0);
  const leftWords = t("Left row · weight %(weight)s", { weight: weight(left) });
  const rightWords = t("Right row · weight %(weight)s", { weight: weight(right) });
  const grid = [];
  for (let i = 0; i < rows; i++) {
    for (const [side, row] of [
      ["l", left],
      ["r", right],
    ]) {
      const cell = i < row.length ? cabin(view, side, i) : i === row.length ? newCabin(side, i) : h("div", { class: "cabin-none" });
      if (side === "r") grid.push(h("div", { class: "ark-keel" }, `${i + 1}`));
      grid.push(cell);
    }
  }
  return zone(
    t("The ark (cabins numbered from the bow)"),
    "arche-ark-zone",
    h(
      "div",
      { class: "ark", "data-testid": "ark" },
      s(
        "svg",
        { class: "ark-bow", viewBox: "0 0 200 30", preserveAspectRatio: "none", "aria-hidden": "true" },
        s("path", { d: "M0 30 Q40 0 100 0 Q160 0 200 30 Z", fill: "#8b5a2b" }),
      ),
      h(
        "div",
        { class: "ark-head" },
        h("span", {}, leftWords),
        h("span", {}, ""),
        h("span", {}, rightWords),
      ),
      // The band titles of the ark lying on its side (a wide window: arche.css).
      h(
        "div",
        {
          class: "ark-grid",
          "data-left": leftWords,
          "data-right": rightWords,
        },
        grid,
      ),
    ),
  );
}

// --- scoring cards ----------------------------------------------------------------------------------------------------
function scoringZone(view, summary, me) {
  const seats = view.players_view;
  // The engine's majorities if the game ended now (the server's `standings`: arche/scoring.py).
  const standings = view.standings.cards;
  const counts = {};
  for (const info of Object.values(view.cards)) counts[info.category] = (counts[info.category] || 0) + 1;
  return zone(
    t("Scoring cards (10 / 6 / 2 for the most figures)"),
    "arche-scoring",
    h(
      "div",
      { class: "scoring-cards" },
      CATEGORIES.map((cat) => {
        const rows = standings[cat];
        const name = t(CATEGORY_NAMES[cat]);
        const count = counts[cat] || 0;
        const countWords = nt("%(n)s card", "%(n)s cards", count, { n: count });
        return h(
          "div",
          {
            class: "scoring-card",
            "data-testid": `scoring-${cat}`,
            dataset: { obj: `score:${cat}` },
            style: { "--c": CATEGORY_COLOURS[cat] },
            // A named group of the seats' rows (each named: whose it is, figures, points).
            role: "group",
            "aria-label": name,
            title: nt("%(category)s: %(n)s card of the deck", "%(category)s: %(n)s cards of the deck", count, { category: name, n: count }),
          },
          h("div", { class: "scoring-head" }, categoryIcon(cat, 22), h("strong", {}, name), h("small", { class: "muted" }, ` ${countWords}`)),
          seats.map((pv, q) => {
            const value = rows[q].figures;
            const points = rows[q].points;
            const figs = [];
            const whole = pv.figures[cat];
            for (let k = 0; k < Math.min(whole, 6); k++) {
              figs.push(figureIcon(SEAT_COLOURS[q], 14, { half: k < pv.halves[cat] }));
            }
            const rowWords = t("%(who)s: %(figures)s figures, %(points)s points if the game ended now", {
              who: seatLabel(q, summary, me),
              figures: fmt(value),
              points: fmt(points),
            });
            return h(
              "div",
              {
                class: `scoring-seat${q === me ? " scoring-me" : ""}`,
                dataset: { seat: q, figures: value, key: `score:${cat}:${q}`, look: String(value) },
                title: rowWords,
                role: "img",
                "aria-label": rowWords,
              },
              // The seat's number in its colour: whose row it is without telling colours apart.
              h("span", { class: "seat-dot", style: { background: SEAT_COLOURS[q], "--dot-ink": SEAT_INK[q] } }, `${q + 1}`),
              h("span", { class: "scoring-figs" }, figs, whole > 6 ? h("small", {}, "…") : null),
              h("strong", { class: "scoring-count" }, fmt(value)),
              h("small", { class: "muted scoring-now" }, value > 0 ? t("%(points)s pt", { points: fmt(points) }) : ""),
            );
          }),
        );
      }),
    ),
    h(
      "p",
      { class: "small muted" },
      t("Figures per player (a chip under a figure counts 1.5), and the points each would get if the game ended now."),
    ),
  );
}

// --- players ------------------------------------------------------------------------------------------------------------
function playerPanel(view, q, summary, me, reveal) {
  const pv = view.players_view[q];
  const cards = view.cards;
  const toAct = view.current_player === q;
  const passed = (view.passed || []).includes(q);
  // The replay's reveal gives each seat's own view: its hand and its pet.
  const own = reveal && reveal[q] ? reveal[q].players_view[q] : null;
  const hand = pv.hand || (own ? own.hand : null);
  const pet = pv.pet || (own ? own.pet : null);
  let petNode;
  if (pet) petNode = cardTile(pet, cards, { size: "sm", cls: "pet-card", place: `pet:${q}` });
  else if (pv.has_pet) petNode = cardBack({ size: "sm", label: t("a pet, face down") });
  else petNode = h("span", { class: "muted" }, t("none"));
  return h(
    "div",
    {
      class: `player arche-player${toAct ? " player-to-act" : ""}${q === me ? " player-me" : ""}`,
      "data-testid": `arche-player-${q}`,
      style: { "--c": SEAT_COLOURS[q] },
    },
    h(
      "div",
      { class: "player-head" },
      figureIcon(SEAT_COLOURS[q], 20, { title: t("P%(n)s's figures", { n: q + 1 }) }),
      h("strong", { class: "player-name" }, seatLabel(q, summary, me)),
      view.first_player === q ? h("span", { class: "badge", title: t("the first player") }, t("first")) : null,
      toAct ? h("span", { class: "turn-mark" }, `◀ ${t("to act")}`) : null,
      passed ? h("span", { class: "badge badge-away" }, t("passed")) : null,
    ),
    h(
      "div",
      { class: "player-stats" },
      h("span", {}, `${t("chips")} `, chips(pv.chips)),
      h("span", {}, t("%(n)s in hand", { n: pv.hand_count })),
      h("span", {}, nt("%(n)s figure left", "%(n)s figures left", pv.figures_left, { n: pv.figures_left })),
    ),
    hand && q !== me
      ? h("div", { class: "arche-cards small-cards", "data-testid": `hand-${q}` }, h("span", { class: "label" }, t("Hand: ")), hand.map((c) => cardTile(c, cards, { size: "sm", place: `hand:${q}` })))
      : null,
    !hand && pv.known_hand && pv.known_hand.length
      ? h(
          "div",
          { class: "arche-cards small-cards", "data-testid": `known-${q}`, title: t("taken from the display and not played since") },
          h("span", { class: "label" }, t("Known in hand: ")),
          pv.known_hand.map((c) => cardTile(c, cards, { size: "sm", place: `known:${q}` })),
        )
      : null,
    h(
      "div",
      { class: "player-pet", "data-testid": `pet-${q}`, dataset: { pet: pet || (pv.has_pet ? "hidden" : "none") } },
      h("span", { class: "label" }, t("Pet: ")),
      petNode,
    ),
  );
}

function playersZone(view, summary, me, reveal) {
  return zone(
    t("Players"),
    "arche-players",
    h("div", { class: "players" }, view.players_view.map((_, q) => playerPanel(view, q, summary, me, reveal))),
  );
}

function outZone(view) {
  const out = view.out || [];
  if (!out.length) return null;
  return zone(
    t("Out of the game (%(n)s)", { n: out.length }),
    "arche-out",
    h("div", { class: "arche-cards small-cards", "data-testid": "out" }, out.map((c) => cardTile(c, view.cards, { size: "sm", place: "out" }))),
  );
}

/**
 * Render `view` into `root`. Options: `summary` (seat names), `reveal` (the replay of a finished game: every
 * seat's own view, so hands and pets can be shown), `live` (unused: nothing here depends on connections).
 */
export function render(root, view, { summary = null, reveal = null } = {}) {
  const me = Number.isInteger(view.seat) ? view.seat : null;
  lastCards = view.cards || {};
  replaceChildren(
    root,
    topBar(view),
    h("div", { class: "arche-top-row" }, me !== null ? myZone(view, me) : null, displayZone(view)),
    arkZone(view),
    scoringZone(view, summary, me),
    playersZone(view, summary, me, reveal),
    outZone(view),
  );
}

/** The status line's extra words: "Turn 9 · rain 2 of 5", "End-game · rain 5 of 5". */
export function status(view) {
  if (!view) return "";
  if (view.phase === "over") return nt("%(n)s turn played.", "%(n)s turns played.", view.turn, { n: view.turn });
  const values = { turn: view.turn, rain: view.rain_out };
  if (view.phase === "endgame") return t("End-game · rain %(rain)s of 5", values);
  return t("Turn %(turn)s · rain %(rain)s of 5", values);
}
