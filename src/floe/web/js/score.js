// The final score screen: each player's breakdown and the ranking. Arctic: longest runs and their points,
// the bonus for animals with a run, the totem's landscape value, penalties. Arktia: captured Muglus,
// controlled fields, melted fields. Used by the table and the replay; the game comes from the summary.
import { h } from "./dom.js";
import { ANIMALS, ANIMAL_COLOURS, ANIMAL_NAMES, animalIcon } from "./icons.js";
import { seatLabel } from "./words.js";

const EXPLAIN =
  "Runs: points for the longest run of each animal in the pile (its length in brackets). " +
  "Bonus: for the number of animals with a run of 2 or more. " +
  "Totem: the landscape value under your totem animal's token. Penalties: −1 per penalty card. " +
  "Equal totals rank by turn order from the first player.";

/** Seats best first: higher total, then turn order from the first player (used when no ranking is sent). */
function rankSeats(breakdowns, first) {
  const n = breakdowns.length;
  const turnOrder = (q) => (q - first + n) % n;
  return [...Array(n).keys()].sort((a, b) => breakdowns[b].total - breakdowns[a].total || turnOrder(a) - turnOrder(b));
}

/**
 * `breakdowns[q]` as in state.score_breakdowns(); `ranking` seats best first (computed from the totals
 * if missing); `view` gives the revealed totems at the end.
 */
export function scoreScreen(args) {
  if ((args.summary && args.summary.game === "arktia") || (args.view && args.view.raw)) return arktiaScoreScreen(args);
  return arcticScoreScreen(args);
}

function arcticScoreScreen({ breakdowns, ranking, view, summary, me, replayLink = null }) {
  const first = view && Number.isInteger(view.first_player) ? view.first_player : 0;
  const order = ranking && ranking.length ? ranking : rankSeats(breakdowns, first);
  const place = {};
  order.forEach((seat, i) => (place[seat] = i + 1));
  const name = (q) => seatLabel(q, summary, me);
  const totem = (q) => (view && view.players_view[q] ? view.players_view[q].totem : null);

  // Players are columns (at most 4) and score parts are rows, so the table fits a phone's width.
  const head = h(
    "tr",
    {},
    h("th", {}, ""),
    order.map((q) => h("th", { scope: "col", class: q === me ? "col-me" : "" }, `${place[q]}. ${name(q)}`)),
  );
  const row = (label, cell, attrs = {}) =>
    h("tr", attrs, h("th", { scope: "row" }, label), order.map((q) => cell(q, breakdowns[q])));

  const runRow = (a) =>
    row([animalIcon(a, { size: 18 }), ` ${ANIMAL_NAMES[a]} run`], (q, b) => {
      const run = b.runs ? b.runs[a] : 0;
      const pts = b.run_points ? b.run_points[a] : 0;
      return h(
        "td",
        {
          class: pts ? "scored" : "",
          style: { "--c": ANIMAL_COLOURS[a] },
          title: `longest ${ANIMAL_NAMES[a]} run: ${run} cards, ${pts} points`,
        },
        `${pts || 0}`,
        h("small", { class: "muted" }, ` (${run || 0})`),
      );
    });
  const totemCell = (q, b) => {
    const t = totem(q);
    if (!t) return h("td", {}, b.totem);
    return h(
      "td",
      { title: `${ANIMAL_NAMES[t]} token's landscape value` },
      animalIcon(t, { size: 16, title: ANIMAL_NAMES[t] }),
      ` ${b.totem}`,
    );
  };
  const rows = [
    ...ANIMALS.map(runRow),
    row("Bonus", (q, b) => h("td", {}, b.bonus)),
    row("Totem", totemCell),
    row("Penalties", (q, b) => h("td", {}, b.penalties ? `−${b.penalties}` : "0")),
    row("Total", (q, b) => h("td", { class: "total", "data-testid": `total-${q}` }, b.total), { class: "row-total" }),
  ];

  const winner = order[0];
  return h(
    "section",
    { class: "zone score-screen", "data-testid": "score-screen" },
    h("h2", { class: "zone-title" }, "Final scores"),
    h("p", { class: "winner" }, winner === me ? "You win!" : `${name(winner)} wins.`),
    h("div", { class: "score-wrap" }, h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows))),
    h(
      "ol",
      { class: "ranking", "data-testid": "ranking" },
      order.map((q) => h("li", { dataset: { seat: q } }, `${name(q)}: ${breakdowns[q].total} points`)),
    ),
    h("p", { class: "muted small" }, EXPLAIN),
    replayLink ? h("p", {}, h("a", { href: replayLink, "data-testid": "replay-link" }, "Watch the replay")) : null,
  );
}

const ARKTIA_EXPLAIN =
  "One point per captured Muglu, per field you control (your piece on top) and per field you melted. " +
  "Equal totals share the win, unless the table ranks fewer lost Muglus higher (tie break).";

/** Arktia's seats best first: higher total, then (tie_break fewer_lost) fewer lost, then seat order. */
function arktiaRank(breakdowns, fewerLost) {
  const cmp = (a, b) =>
    breakdowns[b].total - breakdowns[a].total || (fewerLost ? breakdowns[a].lost - breakdowns[b].lost : 0);
  const order = [...breakdowns.keys()].sort((a, b) => cmp(a, b) || a - b);
  // A seat's place is one more than the number of seats strictly better: equal seats share it.
  const place = {};
  for (const q of order) place[q] = 1 + order.filter((o) => cmp(o, q) < 0).length;
  return { order, place };
}

function arktiaScoreScreen({ breakdowns, ranking, view, summary, me, replayLink = null }) {
  const options = (summary && summary.options) || (view && view.raw && view.raw.config) || {};
  const fewerLost = options.tie_break === "fewer_lost";
  const { order: computed, place } = arktiaRank(breakdowns, fewerLost);
  const order = ranking && ranking.length ? ranking : computed;
  const name = (q) => seatLabel(q, summary, me);
  const head = h(
    "tr",
    {},
    h("th", {}, ""),
    order.map((q) => h("th", { scope: "col", class: q === me ? "col-me" : "" }, `${place[q]}. ${name(q)}`)),
  );
  const row = (label, cell, attrs = {}) =>
    h("tr", attrs, h("th", { scope: "row" }, label), order.map((q) => cell(q, breakdowns[q])));
  const rows = [
    row("Captured Muglus", (q, b) => h("td", {}, b.captured)),
    row("Controlled fields", (q, b) => h("td", {}, b.controlled)),
    row("Melted fields", (q, b) => h("td", {}, b.melted)),
    row("Muglus lost", (q, b) => h("td", { class: "muted" }, b.lost)),
    row("Total", (q, b) => h("td", { class: "total", "data-testid": `total-${q}` }, b.total), { class: "row-total" }),
  ];
  const winners = order.filter((q) => place[q] === 1);
  let verdict;
  if (winners.length > 1) {
    const mine = winners.includes(me);
    verdict = mine ? `You share the win with ${winners.filter((q) => q !== me).map(name).join(" and ")}.`
      : `${winners.map(name).join(" and ")} share the win.`;
  } else verdict = winners[0] === me ? "You win!" : `${name(winners[0])} wins.`;
  return h(
    "section",
    { class: "zone score-screen", "data-testid": "score-screen" },
    h("h2", { class: "zone-title" }, "Final scores"),
    h("p", { class: "winner" }, verdict),
    h("div", { class: "score-wrap" }, h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows))),
    h(
      "ol",
      { class: "ranking", "data-testid": "ranking" },
      order.map((q) => h("li", { dataset: { seat: q } }, `${name(q)}: ${breakdowns[q].total} points`)),
    ),
    h("p", { class: "muted small" }, ARKTIA_EXPLAIN),
    replayLink ? h("p", {}, h("a", { href: replayLink, "data-testid": "replay-link" }, "Watch the replay")) : null,
  );
}
