// Arche's own icons, drawn in SVG here (no picture of the printed game): a card's five features (weight,
// climate, diet, scoring category, ability), the action chip, a player's figure, rain, the deck's back.
// Every icon is a 20×20 viewBox scaled to `size`, with a <title> that says what it shows in words.

import { N, t } from "/static/js/i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

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

/** A 20×20 icon of `size` pixels with a title. */
function icon(title, size, cls, ...shapes) {
  return s(
    "svg",
    { viewBox: "0 0 20 20", width: size, height: size, class: `arche-icon ${cls}`, role: "img", "aria-label": title },
    s("title", {}, title),
    ...shapes,
  );
}

// --- words ---------------------------------------------------------------------------------------------------
export const CATEGORIES = ["heavy", "useful", "shy", "slow", "provisions"];
// Marked with N: translated where shown (t), so a page reads its own language.
export const CATEGORY_NAMES = {
  heavy: N("heavy"),
  useful: N("useful"),
  shy: N("shy"),
  slow: N("slow"),
  provisions: N("provisions"),
  "-": N("no category"),
};
export const CLIMATE_NAMES = { hot: N("hot climate"), cold: N("cold climate"), any: N("any climate") };
export const DIET_NAMES = { H: N("herbivore"), C: N("carnivore"), O: N("omnivore"), "-": N("no diet") };
export const SPECIAL_NAMES = {
  bronto: N("Bronto: its figure on heavy gets a chip under it (1.5)"),
  fox: N("Fox: take 2 chips from the bank"),
  immune: N("immune: carnivores and omnivores leave it alone"),
  mosquito: N("Mosquito: may evict an animal of weight 2 from its cabin"),
  skunk: N("Skunk: may evict any animal from its cabin"),
  spider: N("Spider: may evict a shy animal from its cabin"),
  chimp: N("Chimpanzee: a chip under one of your figures (it counts 1.5)"),
};
// The figures' colours (the game's five wooden colours), one per seat.
// The seats' colours step in lightness (each pair at least 1.6:1 in relative luminance, test_seat_colours), so
// they stay apart under deuteranopia, protanopia and achromatopsia; the scoring rows' dots carry the seat's
// number too (docs/accessibility.md, "Colour"). SEAT_INK: the number's colour on each (4.5:1 or more).
export const SEAT_COLOURS = ["#b3202a", "#3d7fd0", "#f7e463", "#f08c00", "#3b1d66"];
export const SEAT_INK = ["#ffffff", "#000000", "#1d2430", "#1d2430", "#ffffff"];
export const CATEGORY_COLOURS = {
  heavy: "#6b4f3a",
  useful: "#2e8b57",
  shy: "#7a5ea8",
  slow: "#b5651d",
  provisions: "#c08a00",
  "-": "#8a96a3",
};

// --- a card's features -----------------------------------------------------------------------------------------
/** The weight: a kettlebell with the number on it. */
export function weightIcon(weight, size = 22) {
  return icon(
    t("weight %(weight)s", { weight }),
    size,
    "icon-weight",
    s("path", { d: "M6.2 7.2 C6.2 2.2 13.8 2.2 13.8 7.2", fill: "none", stroke: "#2b2f36", "stroke-width": 2.2 }),
    s("path", { d: "M4 9 Q4 6.6 6.4 6.6 H13.6 Q16 6.6 16 9 L17.2 17 Q17.4 18.6 15.8 18.6 H4.2 Q2.6 18.6 2.8 17 Z", fill: "#2b2f36" }),
    s(
      "text",
      { x: 10, y: 15.9, "text-anchor": "middle", "font-size": 9.5, "font-weight": 700, fill: "#fff", "font-family": "system-ui, sans-serif" },
      weight,
    ),
  );
}

function sun(cx, cy, r) {
  const rays = [];
  for (let k = 0; k < 8; k++) {
    const a = (Math.PI / 4) * k;
    rays.push(
      s("line", {
        x1: (cx + Math.cos(a) * (r + 1.4)).toFixed(2),
        y1: (cy + Math.sin(a) * (r + 1.4)).toFixed(2),
        x2: (cx + Math.cos(a) * (r + 3.4)).toFixed(2),
        y2: (cy + Math.sin(a) * (r + 3.4)).toFixed(2),
        stroke: "#d98200",
        "stroke-width": 1.5,
        "stroke-linecap": "round",
      }),
    );
  }
  return [s("circle", { cx, cy, r, fill: "#f5b400", stroke: "#d98200", "stroke-width": 1 }), ...rays];
}

function flake(cx, cy, r) {
  const arms = [];
  for (let k = 0; k < 3; k++) {
    const a = (Math.PI / 3) * k + Math.PI / 2;
    const dx = Math.cos(a) * r;
    const dy = Math.sin(a) * r;
    arms.push(s("line", { x1: cx - dx, y1: cy - dy, x2: cx + dx, y2: cy + dy }));
    for (const sign of [1, -1]) {
      // Little ticks near each end of an arm.
      const ex = cx + sign * dx * 0.62;
      const ey = cy + sign * dy * 0.62;
      arms.push(
        s("line", { x1: ex, y1: ey, x2: ex + sign * 0.35 * r * Math.cos(a + 0.7), y2: ey + sign * 0.35 * r * Math.sin(a + 0.7) }),
        s("line", { x1: ex, y1: ey, x2: ex + sign * 0.35 * r * Math.cos(a - 0.7), y2: ey + sign * 0.35 * r * Math.sin(a - 0.7) }),
      );
    }
  }
  return s("g", { stroke: "#1f6fb2", "stroke-width": 1.4, "stroke-linecap": "round" }, arms);
}

/** The climate: a sun (hot), a snowflake (cold), or half of each (any climate). */
export function climateIcon(climate, size = 18) {
  const title = t(CLIMATE_NAMES[climate] || climate);
  if (climate === "hot") return icon(title, size, "icon-climate", sun(10, 10, 4.4));
  if (climate === "cold") return icon(title, size, "icon-climate", flake(10, 10, 7.6));
  // Any climate: half a sun and half a snowflake, side by side.
  return icon(
    title,
    size,
    "icon-climate",
    s("g", { transform: "translate(-1.2 2.6) scale(0.72)" }, sun(6, 10, 3.8)),
    s("g", { transform: "translate(6.8 2.6) scale(0.72)" }, flake(10, 10, 7)),
  );
}

function leaf(transform = "") {
  return s(
    "g",
    { transform },
    s("path", { d: "M3.5 16.5 C3 8 8 3.2 17 3 C17 12 12 17 3.5 16.5 Z", fill: "#3a9d4a", stroke: "#1f6b2c", "stroke-width": 1 }),
    s("path", { d: "M3.5 16.5 L13 7", stroke: "#1f6b2c", "stroke-width": 1.1, fill: "none" }),
  );
}

function drumstick(transform = "") {
  return s(
    "g",
    { transform },
    s("ellipse", { cx: 12.6, cy: 7.6, rx: 5.2, ry: 4.4, transform: "rotate(-40 12.6 7.6)", fill: "#c0392b", stroke: "#7d1f1b", "stroke-width": 1 }),
    s("path", { d: "M9.2 10.6 L4.6 15.2", stroke: "#f3ead8", "stroke-width": 2.4, "stroke-linecap": "round" }),
    s("circle", { cx: 3.8, cy: 14.6, r: 1.5, fill: "#f3ead8", stroke: "#8a7a5a", "stroke-width": 0.6 }),
    s("circle", { cx: 5.4, cy: 16.4, r: 1.5, fill: "#f3ead8", stroke: "#8a7a5a", "stroke-width": 0.6 }),
  );
}

/** The diet: a leaf (herbivore), a drumstick (carnivore), both (omnivore); null for none. */
export function dietIcon(diet, size = 18) {
  const title = t(DIET_NAMES[diet] || diet);
  if (diet === "H") return icon(title, size, "icon-diet", leaf());
  if (diet === "C") return icon(title, size, "icon-diet", drumstick());
  if (diet === "O") {
    return icon(
      title,
      size,
      "icon-diet",
      leaf("translate(-2 -2) scale(0.75)"),
      drumstick("translate(6 6) scale(0.75)"),
    );
  }
  return null;
}

/** The scoring category: an anvil (heavy), a horseshoe (useful), a shut eye (shy), a snail (slow), a sack
 * (provisions), a dashed ring (none). */
export function categoryIcon(category, size = 22) {
  const title = t(CATEGORY_NAMES[category] || category);
  const c = CATEGORY_COLOURS[category] || "#8a96a3";
  const shapes = {
    heavy: [
      s("path", { d: "M2.5 6 H17.5 Q17.5 9 14 9.5 L13 13 H15.5 V16.5 H4.5 V13 H7 L6 9.5 Q2.5 9 2.5 6 Z", fill: c }),
      s("text", { x: 10, y: 8.4, "text-anchor": "middle", "font-size": 3.6, fill: "#fff", "font-weight": 700, "font-family": "system-ui, sans-serif" }, "TON"),
    ],
    useful: [
      s("path", {
        d: "M5 17 L4 10 C3.5 4.5 16.5 4.5 16 10 L15 17 H12.4 L13 10.5 C13.3 7.5 6.7 7.5 7 10.5 L7.6 17 Z",
        fill: c,
      }),
      s("circle", { cx: 5.6, cy: 12.5, r: 0.7, fill: "#fff" }),
      s("circle", { cx: 14.4, cy: 12.5, r: 0.7, fill: "#fff" }),
      s("circle", { cx: 6.2, cy: 9, r: 0.7, fill: "#fff" }),
      s("circle", { cx: 13.8, cy: 9, r: 0.7, fill: "#fff" }),
    ],
    shy: [
      s("path", { d: "M2.5 9.5 Q10 15.5 17.5 9.5", fill: "none", stroke: c, "stroke-width": 2, "stroke-linecap": "round" }),
      s("g", { stroke: c, "stroke-width": 1.5, "stroke-linecap": "round" }, [
        s("line", { x1: 5, y1: 11.8, x2: 4, y2: 14.2 }),
        s("line", { x1: 10, y1: 12.9, x2: 10, y2: 15.6 }),
        s("line", { x1: 15, y1: 11.8, x2: 16, y2: 14.2 }),
      ]),
      s("path", { d: "M6.5 6.5 Q10 3.8 13.5 6.5", fill: "none", stroke: c, "stroke-width": 1.3, "stroke-linecap": "round" }),
    ],
    slow: [
      s("path", { d: "M2 16.5 H15.5 Q18.5 16.5 18 13.5 L17 11", fill: "none", stroke: c, "stroke-width": 1.8, "stroke-linecap": "round" }),
      s("circle", { cx: 9, cy: 10.5, r: 5.6, fill: "#f7e3c8", stroke: c, "stroke-width": 1.6 }),
      s("path", { d: "M9 10.5 m0 0 a1.4 1.4 0 1 1 1.4 1.4 a2.8 2.8 0 1 1 -2.8 -2.8 a4.2 4.2 0 1 1 4.2 4.2", fill: "none", stroke: c, "stroke-width": 1.1 }),
      s("line", { x1: 16.6, y1: 11.2, x2: 17.6, y2: 7.6, stroke: c, "stroke-width": 1 }),
      s("circle", { cx: 17.6, cy: 7.4, r: 0.9, fill: c }),
    ],
    provisions: [
      s("path", { d: "M6.5 5.5 Q4 9 3.8 13 Q3.8 17.5 10 17.5 Q16.2 17.5 16.2 13 Q16 9 13.5 5.5 Z", fill: c }),
      s("path", { d: "M6.2 5.4 Q10 6.8 13.8 5.4 L12.8 3 Q10 4.2 7.2 3 Z", fill: c, stroke: "#fff", "stroke-width": 0.6 }),
      s("line", { x1: 6.4, y1: 5.6, x2: 13.6, y2: 5.6, stroke: "#5a3f00", "stroke-width": 1.2 }),
      s("path", { d: "M10 9 V15 M8 10.5 L10 12 L12 10.5 M8 12.8 L10 14.3 L12 12.8", fill: "none", stroke: "#fff3c4", "stroke-width": 0.9 }),
    ],
  };
  const parts = shapes[category] || [
    s("circle", { cx: 10, cy: 10, r: 6.5, fill: "none", stroke: c, "stroke-width": 1.5, "stroke-dasharray": "2 2" }),
  ];
  return icon(title, size, `icon-category icon-${category === "-" ? "none" : category}`, parts);
}

/** A card's "!" ability: a red badge with the ability's own sign. */
export function abilityIcon(special, size = 18) {
  const title = t(SPECIAL_NAMES[special] || special);
  const signs = {
    fox: [chipShape(8, 12.5, 3.2), chipShape(12, 9.5, 3.2)],
    bronto: [chipShape(10, 14, 3.4), figureShape(10, 9.5, 0.55, "#fff")],
    chimp: [chipShape(10, 14, 3.4), figureShape(10, 9.5, 0.55, "#fff")],
    immune: [s("path", { d: "M10 4 L15.5 6 V10 Q15.5 14.5 10 16.5 Q4.5 14.5 4.5 10 V6 Z", fill: "#fff" })],
    // The evicters: an arrow out of a box.
    mosquito: [evictSign()],
    skunk: [evictSign()],
    spider: [evictSign()],
  };
  return icon(
    `! ${title}`,
    size,
    "icon-ability",
    s("circle", { cx: 10, cy: 10, r: 9.4, fill: "#b3261e" }),
    ...(signs[special] || [
      s("text", { x: 10, y: 14.5, "text-anchor": "middle", "font-size": 13, "font-weight": 800, fill: "#fff" }, "!"),
    ]),
  );
}

function evictSign() {
  return s(
    "g",
    { fill: "none", stroke: "#fff", "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" },
    s("path", { d: "M9 5 H5 V15 H9" }),
    s("path", { d: "M8 10 H16 M13 7 L16 10 L13 13" }),
  );
}

function chipShape(cx, cy, r) {
  return s("circle", { cx, cy, r, fill: "#f07f13", stroke: "#9b4a00", "stroke-width": 0.9 });
}

function figureShape(cx, cy, k, fill, stroke = "rgba(0,0,0,0.45)") {
  // A little dinosaur: body, neck and head, tail, two legs.
  const d =
    "M-7 2 Q-9 1.2 -10 -1 Q-7 0 -4.5 -0.5 Q-2.5 -4 2 -3.6 Q3.4 -3.4 4 -5.5 L4.6 -8.2 Q5.2 -9.8 7.2 -9.6 " +
    "Q8.8 -9.2 8.4 -8 L6.6 -7.6 L6.2 -3 Q7 0.6 4.6 2.4 L4.6 6 H2.8 L2.4 3.2 H-2.2 L-2.6 6 H-4.4 L-4.4 2.8 Z";
  return s("path", { d, transform: `translate(${cx} ${cy}) scale(${k})`, fill, stroke, "stroke-width": 1 / k });
}

/** An action chip (the game's orange wooden disc). */
export function chipIcon(size = 16, title = null) {
  return icon(title || t("action chip"), size, "icon-chip", chipShape(10, 10, 8), s("circle", { cx: 10, cy: 10, r: 4.6, fill: "none", stroke: "#ffd3a6", "stroke-width": 1 }));
}

/** A player's figure in the seat's colour; `half` puts a chip under it (it counts 1.5). */
export function figureIcon(colour, size = 16, { half = false, title = null } = {}) {
  return icon(
    title || t("figure"),
    size,
    "icon-figure",
    half ? s("ellipse", { cx: 10, cy: 17.6, rx: 8.6, ry: 2.2, fill: "#f07f13", stroke: "#9b4a00", "stroke-width": 0.7 }) : null,
    figureShape(10, 10.5, 0.9, colour),
  );
}

/** A rain card: a drop, filled once it has come out of the deck. */
export function rainIcon(out, size = 18) {
  return icon(
    out ? t("a rain card that has come out") : t("a rain card still in the deck"),
    size,
    `icon-rain${out ? " rain-out" : ""}`,
    s("path", {
      d: "M10 2 C13 7 16 10 16 13 A6 6 0 0 1 4 13 C4 10 7 7 10 2 Z",
      fill: out ? "#2f6fd1" : "#fff",
      stroke: "#2f6fd1",
      "stroke-width": 1.5,
    }),
  );
}

/** The ark for a card back and the game's icon: a hull with a cabin. */
export function arkShape(fill = "#7a4a24", roof = "#c0392b") {
  return [
    s("path", { d: "M1.5 11 H18.5 L16 16.5 H4 Z", fill }),
    s("rect", { x: 5, y: 6.5, width: 10, height: 4.5, fill: "#e9d3a8", stroke: fill, "stroke-width": 0.8 }),
    s("path", { d: "M4 6.8 L10 3 L16 6.8 Z", fill: roof }),
  ];
}

export function arkIcon(size = 28) {
  return icon(t("the ark"), size, "icon-ark", ...arkShape());
}
