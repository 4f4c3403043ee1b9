// Arktia's pieces drawn in SVG: a ring (Torus), a flat disc (Diskus) or a ball (Globus), in each colour.

import { N, t } from "/static/js/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const R = 34; // hex radius (centre to corner) in SVG units, the scale of every piece

// The seats' colours step in lightness (each pair at least 1.6:1 in relative luminance, test_seat_colours), so
// they stay apart under deuteranopia, protanopia and achromatopsia; each seat's pieces also carry its number
// and its control border its own dash pattern (the second cue: docs/accessibility.md, "Colour").
export const COLOURS = { p1: "#b3202a", p2: "#3d7fd0", p3: "#f5b700", p4: "#3b1d66", n: "#a3acb6" };
const DARKER = { p1: "#5e1016", p2: "#1d3f6b", p3: "#8a6600", p4: "#1c0c33", n: "#4d565f" };
// The number's colour on each seat's pieces (4.5:1 or more against the piece).
const NUMBER_INK = { p1: "#ffffff", p2: "#000000", p3: "#1d2430", p4: "#ffffff" };
/** A seat's control border: solid, dashed, dotted, dash-dot (SVG stroke-dasharray; none for solid). */
export const BORDER_DASH = { p1: null, p2: "9 4", p3: "2.5 3", p4: "10 3 2.5 3" };
// Message ids: shown with sizeName (the catalog loads after this module is read).
export const SIZE_NAMES = { g: N("Globus"), d: N("Diskus"), t: N("Torus") };
// What each size may stack with (the tower table, docs/arktia-rules.md §4): the tip of a supply piece.
export const SIZE_TIPS = {
  g: N(
    "the small ball: it may go onto a lone Diskus (tower A) or onto tower B (tower D); a Torus may drop around a lone Globus (tower C)",
  ),
  d: N("the medium disc: it may go onto a lone Torus (tower B) and carry a Globus (tower A)"),
  t: N("the large ring: it may carry a Diskus (tower B) or drop around a lone Globus (tower C, nothing goes on it)"),
};
export const SIZES = ["g", "d", "t"];

/** An SVG element: s("circle", {r: 3}, child, ...). Null/undefined/false attributes are left out. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A size's name in the page's language ("Globus"). */
export function sizeName(size) {
  return t(SIZE_NAMES[size]);
}

/** "P2" or "neutral" (in the page's language). */
export function colourName(colour) {
  return colour === "n" ? t("neutral") : `P${colour.slice(1)}`;
}

// How tall each piece is drawn when stacked.
export const HEIGHT = { t: 0.44 * R, d: 0.27 * R, g: 0.38 * R };

/** A seat's number on its piece at (x, y) (none on a neutral piece): the cue that does not need colour. */
function seatNumber(colour, x, y, k) {
  if (!NUMBER_INK[colour]) return null;
  return s(
    "text",
    {
      class: "piece-num",
      x,
      y,
      fill: NUMBER_INK[colour],
      "font-size": (0.27 * k).toFixed(1),
      "text-anchor": "middle",
      "dominant-baseline": "central",
      "aria-hidden": "true",
    },
    colour.slice(1),
  );
}

/** One piece drawn with its middle at (x, y): a ring (Torus), a flat disc (Diskus) or a ball (Globus). */
export function pieceShape(size, colour, x, y, scale = 1) {
  const fill = COLOURS[colour] || "#888";
  const edge = DARKER[colour] || "#333";
  const k = R * scale;
  if (size === "t") {
    const [ox, oy, ix, iy] = [0.66 * k, 0.22 * k, 0.27 * k, 0.085 * k];
    const ring =
      `M ${x - ox} ${y} a ${ox} ${oy} 0 1 0 ${2 * ox} 0 a ${ox} ${oy} 0 1 0 ${-2 * ox} 0 Z ` +
      `M ${x - ix} ${y} a ${ix} ${iy} 0 1 0 ${2 * ix} 0 a ${ix} ${iy} 0 1 0 ${-2 * ix} 0 Z`;
    // The hole is part of the piece for a click (arktia.css: only while the piece is highlighted, so a
    // click through the hole of any other Torus still reaches the field below).
    const hit = s("ellipse", { class: "hit", cx: x, cy: y, rx: ox, ry: oy, fill: "transparent", stroke: "none" });
    return [
      hit,
      s("path", { d: ring, class: "body", fill, stroke: edge, "stroke-width": 1.6, "fill-rule": "evenodd" }),
      seatNumber(colour, x - 0.465 * k, y, k),
    ];
  }
  if (size === "d") {
    const [w, hh] = [0.95 * k, 0.26 * k];
    return [
      s("rect", {
        class: "body",
        x: x - w / 2,
        y: y - hh / 2,
        width: w,
        height: hh,
        rx: hh / 2,
        fill,
        stroke: edge,
        "stroke-width": 1.6,
      }),
      seatNumber(colour, x, y, k),
    ];
  }
  const r = 0.19 * k;
  return [
    s("circle", { class: "body", cx: x, cy: y, r, fill, stroke: edge, "stroke-width": 1.6 }),
    seatNumber(colour, x, y, k),
  ];
}

/** A small stand-alone piece icon (supplies, legend). */
export function pieceIcon(size, colour, px = 26) {
  const svg = s("svg", {
    viewBox: `${-0.8 * R} ${-0.4 * R} ${1.6 * R} ${0.8 * R}`,
    width: px,
    height: px / 2,
    class: "piece-icon",
    "aria-hidden": "true", // named by what holds it
  });
  svg.append(...pieceShape(size, colour, 0, 0, size === "g" ? 1.5 : 1).filter(Boolean));
  return svg;
}
