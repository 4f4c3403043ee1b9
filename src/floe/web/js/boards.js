// Which board a table's game draws with: the renderer, the click-to-play controller, the status words and
// the score screen. The table and replay pages pick one by `table.game` (the summary's game name).
import { renderArctic } from "./arctic.js";
import { ArktiaChoices, arktiaStatus, renderArktia } from "./arktia.js";
import { Choices } from "./choices.js";

/** Arctic's round line: "Round 3 (final round)". */
function arcticStatus(view) {
  let round = view && view.round ? `Round ${view.round}` : "";
  if (round && view.final_round) round += " (final round)";
  else if (round && view.end_triggered) round += " (end triggered: this is the last normal round)";
  return round;
}

const BOARDS = {
  arctic: { render: renderArctic, Choices, status: arcticStatus },
  arktia: { render: renderArktia, Choices: ArktiaChoices, status: arktiaStatus },
};

/** The board module of `game` (Arctic's for an unknown name, as before there were several games). */
export function boardFor(game) {
  return BOARDS[game] || BOARDS.arctic;
}
