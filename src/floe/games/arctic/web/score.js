// Arctic's score rows for the shared score screen: the longest run of each animal and its points, the bonus
// for animals with a run, the totem's landscape value and the penalties.
import { h } from "/static/js/dom.js";
import { rankByTotal, scoreScreen as sharedScoreScreen } from "/static/js/score.js";
import { ANIMALS, ANIMAL_COLOURS, ANIMAL_NAMES, animalIcon } from "./icons.js";
import { counted } from "./words.js";
import { t } from "/static/js/i18n.js";

const EXPLAIN = () =>
  t(
    "Runs: points for the longest run of each animal in the pile (its length in brackets). " +
      "Bonus: for the number of animals with a run of 2 or more. " +
      "Totem: the landscape value under your totem animal's token. Penalties: −1 per penalty card. " +
      "Equal totals rank by turn order from the first player.",
  );

/** Seats best first: higher total, then turn order from the first player (every place is distinct). */
function rank(breakdowns, { view }) {
  const n = breakdowns.length;
  const first = view && Number.isInteger(view.first_player) ? view.first_player : 0;
  const turnOrder = (q) => (q - first + n) % n;
  const { order } = rankByTotal(breakdowns, (a, b) => breakdowns[b].total - breakdowns[a].total || turnOrder(a) - turnOrder(b));
  const place = {};
  order.forEach((q, i) => (place[q] = i + 1));
  return { order, place };
}

function runRow(animal) {
  return {
    label: [animalIcon(animal, { size: 18 }), " " + t("%(animal)s run", { animal: ANIMAL_NAMES[animal] })],
    cell: (q, b) => {
      const run = b.runs ? b.runs[animal] : 0;
      const pts = b.run_points ? b.run_points[animal] : 0;
      return h(
        "td",
        {
          class: pts ? "scored" : "",
          style: { "--c": ANIMAL_COLOURS[animal] },
          title: t("longest %(animal)s run: %(cards)s, %(points)s", {
            animal: ANIMAL_NAMES[animal],
            cards: counted(run || 0, "card", "cards"),
            points: counted(pts || 0, "point", "points"),
          }),
        },
        `${pts || 0}`,
        h("small", { class: "muted" }, ` (${run || 0})`),
      );
    },
  };
}

/** The score screen (see /static/js/score.js); `view` gives the totems, revealed at the end. */
export function scoreScreen(args) {
  const totem = (q) => (args.view && args.view.players_view[q] ? args.view.players_view[q].totem : null);
  const totemCell = (q, b) => {
    const animal = totem(q);
    if (!animal) return h("td", {}, b.totem);
    return h(
      "td",
      { title: t("landscape value of the %(animal)s token", { animal: ANIMAL_NAMES[animal] }) },
      animalIcon(animal, { size: 16, title: ANIMAL_NAMES[animal] }),
      ` ${b.totem}`,
    );
  };
  const rows = [
    ...ANIMALS.map(runRow),
    { label: t("Bonus"), cell: (q, b) => h("td", {}, b.bonus) },
    { label: t("Totem"), cell: totemCell },
    { label: t("Penalties"), cell: (q, b) => h("td", {}, b.penalties ? `−${b.penalties}` : "0") },
  ];
  return sharedScoreScreen(args, { rows, explain: EXPLAIN(), rank });
}
