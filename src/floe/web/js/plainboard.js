// The plain board: what a game that ships no board module of its own gets (boards.js). It lays out the
// observation dict a person can read: one row per field, its name in words ("own_bid" -> "own bid"),
// scalars as text, a list of numbers or names as a comma-separated list with its count (cards as text),
// a list with one entry per seat as one line per seat (P1, P2, ...), a nested dict as a nested list of
// fields, a boolean as a ticked or empty box (no word to translate), the seat field as P1, P2... It knows no game: the names and the
// values are the game's own. docs/server.md ("Board modules") describes the interface.
import { h, replaceChildren } from "./dom.js";

/** A field's name for people: words, not an identifier. */
function words(key) {
  return String(key).replace(/_/g, " ");
}

/** Whether `value` is drawn as one line of text (not a list of rows). */
function isFlat(value) {
  return value === null || typeof value !== "object";
}

/** One scalar as text (a boolean as a box, null as a dash). */
function scalar(value) {
  if (typeof value === "boolean") {
    return h("input", { type: "checkbox", disabled: true, checked: value, "aria-checked": String(value), class: "plain-flag" });
  }
  if (value === null || value === undefined) return h("span", { class: "plain-none" }, "–");
  return h("span", { class: "plain-value" }, String(value));
}

/** A list of scalars: its items, comma-separated, and their count; flags one box each (named by seat when
 * there is one per seat). */
function flatList(items, seats) {
  if (!items.length) return h("span", { class: "plain-none" }, "–");
  const texts = items.map((v) => (typeof v === "boolean" || v === null ? null : String(v)));
  if (texts.every((t) => t !== null)) {
    return h("span", { class: "plain-list" }, texts.join(", "), h("span", { class: "plain-count" }, ` (${items.length})`));
  }
  const perSeat = seats > 0 && items.length === seats;
  return h(
    "span",
    { class: "plain-list" },
    ...items.map((v, i) => h("label", { class: "plain-flag-item" }, perSeat ? h("span", { class: "plain-seat" }, `P${i + 1} `) : null, scalar(v))),
  );
}

/** Any value: scalar, list (per seat when it has one entry per seat) or nested fields. */
function value(v, seats) {
  if (isFlat(v)) return scalar(v);
  if (Array.isArray(v)) {
    if (v.every(isFlat)) return flatList(v, seats);
    const perSeat = seats > 0 && v.length === seats;
    return h(
      "ol",
      { class: perSeat ? "plain-seats" : "plain-items" },
      ...v.map((item, i) => h("li", {}, perSeat ? h("span", { class: "plain-seat" }, `P${i + 1}: `) : null, value(item, seats))),
    );
  }
  return fields(v, seats);
}

/** A field's value; a seat number (the observation names its seat, 0-based) as people say it: P1, P2... */
function fieldValue(key, v, seats) {
  return key === "seat" && Number.isInteger(v) ? h("span", { class: "plain-value" }, `P${v + 1}`) : value(v, seats);
}

/** The fields of a dict, one row each (a term and its value). */
function fields(obj, seats) {
  const rows = Object.entries(obj).flatMap(([key, v]) => [h("dt", {}, words(key)), h("dd", {}, fieldValue(key, v, seats))]);
  return h("dl", { class: "plain-fields" }, ...rows);
}

/** The number of seats at the table (from the table's summary), or 0 if unknown. */
function seatCount(summary) {
  return summary && Array.isArray(summary.seats) ? summary.seats.length : 0;
}

const STYLE = new URL("../css/plainboard.css", import.meta.url).href;

/** Link the plain board's style sheet into the page once (the board reads without it, only plainer). */
function linkStyle() {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === STYLE)) return;
  document.head.append(h("link", { rel: "stylesheet", href: STYLE }));
}

/** Draw `view` (the observation dict the seat may see) into `root`. */
export function render(root, view, { summary } = {}) {
  linkStyle();
  const body = view !== null && typeof view === "object" && !Array.isArray(view) ? fields(view, seatCount(summary)) : value(view, 0);
  replaceChildren(root, h("section", { class: "zone plain-board" }, body));
}
