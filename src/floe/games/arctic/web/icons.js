// Our own simple animal drawings (SVG, 32×32 grid). Each animal has one colour used everywhere:
// cards, tokens, power cards and score rows, so an animal can be recognised by colour alone.
import { t } from "/static/js/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const ANIMALS = ["fox", "moose", "walrus", "orca", "puffin", "bear"];

// Getters: each name is read in the page's language when it is used (the catalogs load before the board).
export const ANIMAL_NAMES = {
  get fox() {
    return t("Fox");
  },
  get moose() {
    return t("Moose");
  },
  get walrus() {
    return t("Walrus");
  },
  get orca() {
    return t("Orca");
  },
  get puffin() {
    return t("Puffin");
  },
  get bear() {
    return t("Polar bear");
  },
};

export const ANIMAL_COLOURS = {
  fox: "#e0731f",
  moose: "#8a5a2e",
  walrus: "#8760b0",
  orca: "#27406e",
  puffin: "#cf3346",
  bear: "#2e97ad",
};

// Shapes per animal: [tag, attributes]. "C" is replaced by the animal's colour, so the drawing stays
// readable on the pale card background and on a white token alike.
const DARK = "#1d2430";
const LIGHT = "#ffffff";
const SHAPES = {
  fox: [
    ["path", { d: "M4 5 L12 12 H20 L28 5 L27 17 L16 29 L5 17 Z", fill: "C" }],
    ["path", { d: "M6 17 L16 29 L26 17 L16 22 Z", fill: LIGHT }],
    ["circle", { cx: 12, cy: 16, r: 1.7, fill: DARK }],
    ["circle", { cx: 20, cy: 16, r: 1.7, fill: DARK }],
    ["circle", { cx: 16, cy: 27.5, r: 1.6, fill: DARK }],
  ],
  moose: [
    ["path", { d: "M14 11 L3 4 L5 9 L2 10 L6 12 L4 15 L13 14 Z", fill: "C" }],
    ["path", { d: "M18 11 L29 4 L27 9 L30 10 L26 12 L28 15 L19 14 Z", fill: "C" }],
    ["path", { d: "M12 12 H20 L21 24 Q21 30 16 30 Q11 30 11 24 Z", fill: "C" }],
    ["circle", { cx: 13.8, cy: 17, r: 1.4, fill: DARK }],
    ["circle", { cx: 18.2, cy: 17, r: 1.4, fill: DARK }],
    ["ellipse", { cx: 16, cy: 27, rx: 3.2, ry: 1.8, fill: DARK, opacity: 0.35 }],
  ],
  walrus: [
    ["ellipse", { cx: 16, cy: 14, rx: 12, ry: 10, fill: "C" }],
    ["path", { d: "M12 19 L11 31 L14.5 20 Z", fill: LIGHT, stroke: DARK, "stroke-width": 0.6 }],
    ["path", { d: "M20 19 L21 31 L17.5 20 Z", fill: LIGHT, stroke: DARK, "stroke-width": 0.6 }],
    ["circle", { cx: 13, cy: 17.5, r: 3.6, fill: LIGHT, opacity: 0.55 }],
    ["circle", { cx: 19, cy: 17.5, r: 3.6, fill: LIGHT, opacity: 0.55 }],
    ["circle", { cx: 11.5, cy: 10.5, r: 1.6, fill: DARK }],
    ["circle", { cx: 20.5, cy: 10.5, r: 1.6, fill: DARK }],
    ["ellipse", { cx: 16, cy: 14.5, rx: 2, ry: 1.3, fill: DARK }],
  ],
  orca: [
    ["path", { d: "M2 19 C6 10 19 9 26 15 L31 10 L29.5 18 L31 25 L26 21 C19 27 7 27 2 19 Z", fill: "C" }],
    ["path", { d: "M13 12 L16 2.5 L19 11.5 Z", fill: "C" }],
    ["ellipse", { cx: 9, cy: 16.2, rx: 2.8, ry: 1.5, fill: LIGHT }],
    ["path", { d: "M4 20 C9 25 17 25 22 21 C16 22 10 22 4 20 Z", fill: LIGHT }],
  ],
  puffin: [
    ["circle", { cx: 12, cy: 16, r: 11, fill: DARK }],
    ["ellipse", { cx: 11, cy: 17, rx: 7, ry: 6.5, fill: LIGHT }],
    ["path", { d: "M18 9.5 Q27 11 31 17 Q27 22 18 24.5 Z", fill: "C" }],
    ["path", { d: "M18 17 H31 Q27 22 18 24.5 Z", fill: "#f3a43b" }],
    ["path", { d: "M17.5 9 V25", stroke: "#f6d75a", "stroke-width": 2.2 }],
    ["circle", { cx: 11, cy: 15, r: 1.8, fill: DARK }],
    ["path", { d: "M8 12.5 L10 13.5", stroke: "C", "stroke-width": 1 }],
  ],
  bear: [
    ["circle", { cx: 7.5, cy: 8, r: 4.3, fill: "C" }],
    ["circle", { cx: 24.5, cy: 8, r: 4.3, fill: "C" }],
    ["circle", { cx: 16, cy: 17.5, r: 12, fill: "C" }],
    ["ellipse", { cx: 16, cy: 22, rx: 5.5, ry: 4.3, fill: LIGHT, opacity: 0.8 }],
    ["ellipse", { cx: 16, cy: 20.3, rx: 2.2, ry: 1.5, fill: DARK }],
    ["circle", { cx: 11.5, cy: 14, r: 1.6, fill: DARK }],
    ["circle", { cx: 20.5, cy: 14, r: 1.6, fill: DARK }],
  ],
};

/** An inline SVG drawing of `animal`. `title` gives it an accessible name (omit it for decoration). */
export function animalIcon(animal, { size = 32, title = null, className = "icon" } = {}) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", className);
  svg.dataset.animal = animal;
  if (title) {
    svg.setAttribute("role", "img");
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = title;
    svg.appendChild(t);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const colour = ANIMAL_COLOURS[animal] || DARK;
  for (const [tag, attrs] of SHAPES[animal] || []) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v === "C" ? colour : v);
    svg.appendChild(el);
  }
  return svg;
}

/** A paw print (first-player marker and card backs). */
export function pawIcon({ size = 20, className = "icon paw" } = {}) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  const parts = [
    ["ellipse", { cx: 16, cy: 21, rx: 7.5, ry: 6.5 }],
    ["ellipse", { cx: 7, cy: 13, rx: 3, ry: 3.8 }],
    ["ellipse", { cx: 12.5, cy: 7.5, rx: 3, ry: 3.8 }],
    ["ellipse", { cx: 19.5, cy: 7.5, rx: 3, ry: 3.8 }],
    ["ellipse", { cx: 25, cy: 13, rx: 3, ry: 3.8 }],
  ];
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.setAttribute("fill", "currentColor");
    svg.appendChild(el);
  }
  return svg;
}
