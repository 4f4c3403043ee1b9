// Arktia's pieces drawn in SVG: a ring (Torus), a flat disc (Diskus) or a ball (Globus), in each colour.

import { N, t } from "/static/js/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const R = 34; // hex radius (centre to corner) in SVG units, the scale of every piece

export const COLOURS = { p1: "#d64541", p2: "#2f6fd1", p3: "#2e9e5b", p4: "#8e44ad", n: "#a3acb6" };
const DARKER = { p1: "#7d1f1b", p2: "#173b78", p3: "#175c33", p4: "#4d2260", n: "#4d565f" };
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
    return [hit, s("path", { d: ring, class: "body", fill, stroke: edge, "stroke-width": 1.6, "fill-rule": "evenodd" })];
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
      s("line", {
        x1: x - w / 2 + hh / 2,
        x2: x + w / 2 - hh / 2,
        y1: y - hh * 0.12,
        y2: y - hh * 0.12,
        stroke: "#fff",
        "stroke-opacity": 0.45,
        "stroke-width": 1.4,
      }),
    ];
  }
  const r = 0.19 * k;
  return [
    s("circle", { class: "body", cx: x, cy: y, r, fill, stroke: edge, "stroke-width": 1.6 }),
    s("circle", { cx: x - r * 0.35, cy: y - r * 0.35, r: r * 0.3, fill: "#fff", "fill-opacity": 0.55 }),
  ];
}

/** A small stand-alone piece icon (supplies, legend). */
export function pieceIcon(size, colour, px = 26) {
  const svg = s("svg", { viewBox: `${-0.8 * R} ${-0.4 * R} ${1.6 * R} ${0.8 * R}`, width: px, height: px / 2, class: "piece-icon" });
  svg.append(...pieceShape(size, colour, 0, 0, size === "g" ? 1.5 : 1));
  return svg;
}
