// Arktia's board module, loaded by the table and replay pages from /games/arktia/board.js (the interface is
// described in docs/server.md, "Board modules"): the SVG hex board, the click-to-play routes, the status
// line, the seat to act and the score screen.
import { t } from "/static/js/i18n.js";
import { sizeName } from "./pieces.js";

export { render, status } from "./render.js";
export { scoreScreen } from "./score.js";

export const css = ["arktia.css"];

/**
 * The clicks that make an Arktia choice (keys as render.js draws them): a piece on the board or in the
 * supply, then the field it goes to; a field to melt; any field of the group to keep. Stop is a button.
 */
function route(choice) {
  const to = choice.to ? `cell:${choice.to}` : null;
  if (choice.verb === "move") return [`part:${choice.from}:${choice.part}`, to];
  if (choice.verb === "place") return [`supply:${choice.part}`, to];
  if (choice.verb === "neutral") return [`nsupply:${choice.part}`, to];
  if (choice.verb === "keep") return [(choice.group || [choice.to]).map((cell) => `cell:${cell}`)];
  if (choice.verb === "melt") return [to];
  return null;
}

function words(key) {
  const [kind, a, b] = key.split(":");
  if (kind === "supply") return t("a %(piece)s from your supply", { piece: sizeName(a) });
  if (kind === "nsupply") return t("a neutral %(piece)s", { piece: sizeName(a) });
  if (kind === "cell") return a;
  const names = [...b].map((x) => sizeName(x)).join("+");
  if (b.length > 1) return t("the stack part %(pieces)s on %(field)s", { pieces: names, field: a });
  return t("the %(piece)s on %(field)s", { piece: names, field: a });
}

/** What to click: "one of your highlighted pieces or a piece of the supply, then a highlighted field", ... */
function hint(keys, step) {
  if (step > 0) return t("a highlighted field");
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  const part = kinds.has("part");
  const supply = kinds.has("supply") || kinds.has("nsupply");
  let what = null;
  if (part && supply) what = t("one of your highlighted pieces or a piece of the supply, then a highlighted field");
  else if (part) what = t("one of your highlighted pieces, then a highlighted field");
  else if (supply) what = t("a piece of the supply, then a highlighted field");
  const fields = kinds.has("cell") ? t("a highlighted field") : null;
  if (what && fields) return t("%(what)s, or %(fields)s", { what, fields });
  return what || fields || "";
}

export const choices = {
  route,
  words,
  hint,
  // Melting a field and keeping a group are one click on the board, and buttons too.
  button: (choice) => choice.verb === "melt" || choice.verb === "keep",
};

/** The seat deciding in `view` (null once over). */
export function toAct(view) {
  return view && view.step !== "over" && Number.isInteger(view.player) && view.player >= 0 ? view.player : null;
}
