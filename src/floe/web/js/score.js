// The final score screen, for every game: one column per player (best first), one row per part of the
// score as the game's board module lists them, then the total, the winner (or a shared win), the ranking
// and the game's own explanation. Used by the table and the replay.
import { h } from "./dom.js";
import { counted, seatLabel } from "./words.js";
import { t } from "./i18n.js";

/**
 * Seats best first by total (equal totals share a place, listed in seat order): the default ranking.
 * A game with a tie-break passes its own `rank`. Returns the order and each seat's place (1 = first).
 */
export function rankByTotal(breakdowns, compare = (a, b) => breakdowns[b].total - breakdowns[a].total) {
  const order = [...breakdowns.keys()].sort((a, b) => compare(a, b) || a - b);
  // A seat's place is one more than the number of seats strictly better: equal seats share it.
  const place = {};
  for (const q of order) place[q] = 1 + order.filter((o) => compare(o, q) < 0).length;
  return { order, place };
}

/**
 * The score screen.
 * @param {object} args  `breakdowns[q]` (the game's score breakdown of seat q, with at least `total`),
 *   `ranking` (seats best first, as the server ranked them; computed with `rank` when missing), `view`,
 *   `summary`, `me` (this page's seat or null), `replayLink` (or null)
 * @param {object} game  `rows`: [{label, cell(q, breakdown) -> <td>}] above the total; `explain`: words
 *   under the table; `rank(breakdowns, args)` -> {order, place} (default: by total, equal totals share)
 */
export function scoreScreen(args, { rows = [], explain = "", rank = null } = {}) {
  const { breakdowns, ranking, summary, me, replayLink = null } = args;
  const { order: computed, place } = rank ? rank(breakdowns, args) : rankByTotal(breakdowns);
  const order = ranking && ranking.length ? ranking : computed;
  const name = (q) => seatLabel(q, summary, me);
  // Players are columns (at most a few) and score parts are rows, so the table fits a phone's width.
  const head = h(
    "tr",
    {},
    h("td", {}),
    order.map((q) => h("th", { scope: "col", class: q === me ? "col-me" : "" }, `${place[q]}. ${name(q)}`)),
  );
  const row = (label, cell, attrs = {}) =>
    h("tr", attrs, h("th", { scope: "row" }, label), order.map((q) => cell(q, breakdowns[q])));
  const total = (q, b) => h("td", { class: "total", "data-testid": `total-${q}` }, b.total);
  const body = [...rows.map((r) => row(r.label, r.cell)), row(t("Total"), total, { class: "row-total" })];
  return h(
    "section",
    { class: "zone score-screen", "data-testid": "score-screen" },
    h("h2", { class: "zone-title" }, t("Final scores")),
    h("p", { class: "winner" }, verdict(order.filter((q) => place[q] === 1), me, name)),
    h("div", { class: "score-wrap" }, h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, body))),
    h(
      "ol",
      { class: "ranking", "data-testid": "ranking" },
      order.map((q) => h("li", { dataset: { seat: q } }, `${name(q)}: ${counted(breakdowns[q].total, "point", "points")}`)),
    ),
    explain ? h("p", { class: "muted small" }, explain) : null,
    replayLink ? h("p", {}, h("a", { href: replayLink, "data-testid": "replay-link" }, t("Watch the replay"))) : null,
  );
}

function verdict(winners, me, name) {
  const and = t(" and ");
  if (winners.length === 1) return winners[0] === me ? t("You win!") : t("%(who)s wins.", { who: name(winners[0]) });
  if (winners.includes(me)) return t("You share the win with %(who)s.", { who: winners.filter((q) => q !== me).map(name).join(and) });
  return t("%(who)s share the win.", { who: winners.map(name).join(and) });
}
