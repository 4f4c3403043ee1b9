// Arktia's score rows for the shared score screen: captured Muglus, controlled and melted fields.
import { h } from "/static/js/dom.js";
import { rankByTotal, scoreScreen as sharedScoreScreen } from "/static/js/score.js";
import { t } from "/static/js/i18n.js";

const EXPLAIN = () =>
  t(
    "One point per captured Muglu, per field you control (your piece on top) and per field you melted. " +
      "Equal totals share the win, unless the table ranks fewer lost Muglus higher (tie break).",
  );

/** Seats best first: higher total, then (tie_break fewer_lost) fewer lost; equal seats share a place. */
function rank(breakdowns, { summary, view }) {
  const options = (summary && summary.options) || (view && view.raw && view.raw.config) || {};
  const fewerLost = options.tie_break === "fewer_lost";
  return rankByTotal(
    breakdowns,
    (a, b) => breakdowns[b].total - breakdowns[a].total || (fewerLost ? breakdowns[a].lost - breakdowns[b].lost : 0),
  );
}

// Built when shown: the game's catalog loads after this module is read.
const rows = () => [
  { label: t("Captured Muglus"), cell: (q, b) => h("td", {}, b.captured) },
  { label: t("Controlled fields"), cell: (q, b) => h("td", {}, b.controlled) },
  { label: t("Melted fields"), cell: (q, b) => h("td", {}, b.melted) },
  { label: t("Muglus lost"), cell: (q, b) => h("td", { class: "muted" }, b.lost) },
];

/** The score screen (see /static/js/score.js). */
export function scoreScreen(args) {
  return sharedScoreScreen(args, { rows: rows(), explain: EXPLAIN(), rank });
}
