// The Arktia board, drawn from one observation dict (floe.games.arktia.view) and nothing else: an SVG hex
// map of the ice with every field's stack, then each player's supply, captures and points.
//
// Objects a move can involve carry a `data-obj` key; ArktiaChoices maps the legal choices onto them:
//   cell:<c3>          a field (destination of a placement or a move; a field to melt; a group to keep)
//   part:<c3>:<dg>     a piece and everything above it on field c3 (the part that would be lifted)
//   supply:<g|d|t>     a piece of your own supply           nsupply:<g|d|t>  a neutral piece you still place
import { h, replaceChildren } from "./dom.js";
import { seatLabel } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const R = 34; // hex radius (centre to corner) in SVG units
const SQRT3 = Math.sqrt(3);

export const COLOURS = { p1: "#d64541", p2: "#2f6fd1", p3: "#2e9e5b", p4: "#8e44ad", n: "#a3acb6" };
const DARKER = { p1: "#7d1f1b", p2: "#173b78", p3: "#175c33", p4: "#4d2260", n: "#4d565f" };
export const SIZE_NAMES = { g: "Globus", d: "Diskus", t: "Torus" };
const SIZES = ["g", "d", "t"];
const STATUS_WORDS = {
  active: "playing",
  "(a) cannot act": "out: could neither place nor move",
  "(b) cannot melt": "out: could not melt",
  "(c) one Muglu left": "out: one Muglu left",
  "(d) stopped": "stopped",
  "turn limit": "turn limit reached",
};

/** An SVG element: s("circle", {r: 3}, child, ...). Null/undefined/false attributes are left out. */
function s(tag, attrs = {}, ...children) {
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

export function colourName(colour) {
  return colour === "n" ? "neutral" : `P${colour.slice(1)}`;
}

/** "c3" -> [q, r] (column letter q, row number r + 1). */
function coords(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

function centre(q, r) {
  return [R * SQRT3 * (q + r / 2), R * 1.5 * r];
}

function hexPoints(cx, cy, radius) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${(cx + radius * Math.cos(a)).toFixed(1)},${(cy + radius * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// --- pieces -------------------------------------------------------------------------------------------------
const HEIGHT = { t: 0.44 * R, d: 0.27 * R, g: 0.38 * R };

/** One piece drawn with its middle at (x, y): a ring (Torus), a flat disc (Diskus) or a ball (Globus). */
function pieceShape(size, colour, x, y, scale = 1) {
  const fill = COLOURS[colour] || "#888";
  const edge = DARKER[colour] || "#333";
  const k = R * scale;
  if (size === "t") {
    const [ox, oy, ix, iy] = [0.66 * k, 0.22 * k, 0.27 * k, 0.085 * k];
    const ring =
      `M ${x - ox} ${y} a ${ox} ${oy} 0 1 0 ${2 * ox} 0 a ${ox} ${oy} 0 1 0 ${-2 * ox} 0 Z ` +
      `M ${x - ix} ${y} a ${ix} ${iy} 0 1 0 ${2 * ix} 0 a ${ix} ${iy} 0 1 0 ${-2 * ix} 0 Z`;
    return [s("path", { d: ring, class: "body", fill, stroke: edge, "stroke-width": 1.6, "fill-rule": "evenodd" })];
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

/** The pieces of one field, bottom to top, each a <g> keyed by the part it would lift. */
function stackShapes(field, cx, cy) {
  const pieces = field.pieces || [];
  const out = [];
  const partKey = (k) => `part:${field.field}:${pieces.slice(k).map((p) => p.size).join("")}`;
  const title = (k) => {
    const p = pieces[k];
    const above = pieces.length - 1 - k;
    const extra = above ? ` (and the ${above === 1 ? "piece" : "pieces"} above)` : "";
    return `${colourName(p.colour)} ${SIZE_NAMES[p.size]} on ${field.field}${extra}`;
  };
  if (field.shape === "C") {
    // Tower C: the Globus sits inside the Torus, which is on top and controls the field.
    const y = cy + 0.34 * R;
    out.push(pieceGroup(partKey(1), title(1), pieceShape("t", pieces[1].colour, cx, y)));
    out.push(pieceGroup(partKey(0), title(0), pieceShape("g", pieces[0].colour, cx, y - 0.1 * R)));
    return out;
  }
  let base = cy + 0.64 * R;
  pieces.forEach((p, k) => {
    const height = HEIGHT[p.size];
    out.push(pieceGroup(partKey(k), title(k), pieceShape(p.size, p.colour, cx, base - height / 2)));
    base -= height;
  });
  return out;
}

function pieceGroup(key, title, shapes) {
  return s("g", { class: "piece", dataset: { obj: key } }, s("title", {}, title), shapes);
}

// --- the board ----------------------------------------------------------------------------------------------
function boardSvg(view) {
  const fields = view.board || [];
  const placed = fields.map((f) => {
    const [q, r] = coords(f.field);
    const [x, y] = centre(q, r);
    return { f, q, r, x, y };
  });
  // Layout gaps: positions inside a row's span that are not fields.
  const rows = new Map();
  for (const p of placed) {
    const span = rows.get(p.r) || [p.q, p.q];
    rows.set(p.r, [Math.min(span[0], p.q), Math.max(span[1], p.q)]);
  }
  const have = new Set(placed.map((p) => `${p.q},${p.r}`));
  const gaps = [];
  for (const [r, [q0, q1]] of rows) {
    for (let q = q0; q <= q1; q++) if (!have.has(`${q},${r}`)) gaps.push(centre(q, r));
  }
  const xs = placed.map((p) => p.x);
  const ys = placed.map((p) => p.y);
  const pad = 4;
  const minX = Math.min(...xs) - (SQRT3 / 2) * R - pad;
  const minY = Math.min(...ys) - R - pad;
  const width = Math.max(...xs) - Math.min(...xs) + SQRT3 * R + 2 * pad;
  const height = Math.max(...ys) - Math.min(...ys) + 2 * R + 2 * pad;
  const svg = s("svg", {
    class: "hexboard",
    viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
    role: "img",
    "aria-label": "the ice: hexagonal fields with their Muglus",
    "data-testid": "hexboard",
    style: `max-width: ${Math.round(width * 1.5)}px`,
  });
  for (const [x, y] of gaps) {
    svg.append(s("polygon", { class: "hex-gap", points: hexPoints(x, y, R - 1.5) }));
  }
  for (const p of placed) svg.append(fieldGroup(p.f, p.x, p.y));
  return svg;
}

function fieldGroup(field, x, y) {
  const melted = field.melted;
  const control = field.control || null;
  const cls = melted ? "cell cell-melted" : `cell${control ? " cell-held" : " cell-empty"}`;
  const g = s("g", { class: cls, dataset: { obj: `cell:${field.field}`, cell: field.field } });
  const what = melted
    ? `${field.field}: melted (water)`
    : control
      ? `${field.field}: ${fieldWords(field)}, controlled by ${colourName(control)}`
      : `${field.field}: empty ice`;
  g.append(s("title", {}, what));
  g.append(s("polygon", { class: "hex", points: hexPoints(x, y, R - 1.5) }));
  if (melted) {
    for (const dy of [-0.12, 0.18]) {
      const y0 = y + dy * R;
      const w = 0.55 * R;
      g.append(
        s("path", {
          class: "wave",
          d: `M ${x - w} ${y0} q ${w / 4} ${-0.12 * R} ${w / 2} 0 t ${w / 2} 0 t ${w / 2} 0 t ${w / 2} 0`,
        }),
      );
    }
  } else if (control) {
    g.append(
      s("polygon", {
        class: "control",
        points: hexPoints(x, y, R - 4.5),
        stroke: COLOURS[control],
        fill: COLOURS[control],
      }),
    );
  }
  if (!melted) g.append(...stackShapes(field, x, y));
  // The name last, with a halo, so no piece or border hides it (it takes no clicks).
  g.append(
    s(
      "text",
      { class: "cell-name", x, y: y - 0.6 * R, "text-anchor": "middle", "dominant-baseline": "central" },
      field.field,
    ),
  );
  return g;
}

function fieldWords(field) {
  const pieces = field.pieces || [];
  return pieces.map((p) => `${colourName(p.colour)} ${SIZE_NAMES[p.size]}`).join(", ") + " (bottom to top)";
}

function legend() {
  return h(
    "div",
    { class: "arktia-legend small muted" },
    SIZES.map((size) => h("span", { class: "legend-item" }, pieceIcon(size, "n", 30), ` ${SIZE_NAMES[size]}`)),
    h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-water" }), " melted"),
    h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-gap" }), " no ice"),
    h("span", { class: "legend-item" }, "coloured border: who controls the field"),
  );
}

// --- players ------------------------------------------------------------------------------------------------
/** Points so far: captured + controlled fields + melted fields (the final score at the end). */
export function livePoints(view, q) {
  const seat = view.seats[q];
  const colour = `p${q + 1}`;
  const controlled = (view.board || []).filter((f) => f.control === colour).length;
  return { controlled, total: seat.captured + seat.melted + controlled };
}

function supplyRow(counts, colour, { label, keyPrefix = null, testid = null }) {
  return h(
    "div",
    { class: "supply", "data-testid": testid },
    h("span", { class: "label" }, label),
    SIZES.map((size) =>
      h(
        "span",
        {
          class: `supply-piece${counts[size] ? "" : " supply-none"}`,
          title: `${SIZE_NAMES[size]}: ${counts[size]} left`,
          dataset: keyPrefix && counts[size] ? { obj: `${keyPrefix}:${size}` } : {},
        },
        pieceIcon(size, colour, 34),
        h("span", { class: "supply-count" }, `×${counts[size]}`),
      ),
    ),
  );
}

function playerPanel(view, q, summary, me) {
  const seat = view.seats[q];
  const colour = `p${q + 1}`;
  const toAct = view.step !== "over" && view.player === q;
  const points = livePoints(view, q);
  const neutral = Object.values(seat.neutral_supply || {}).some((n) => n > 0);
  const own = q === me && toAct;
  return h(
    "div",
    {
      class: `player${toAct ? " player-to-act" : ""}${q === me ? " player-me" : ""}`,
      style: { "--c": COLOURS[colour] },
      "data-testid": `arktia-player-${q}`,
    },
    h(
      "div",
      { class: "player-head" },
      h("span", { class: "swatch", style: { background: COLOURS[colour] } }),
      h("strong", { class: "player-name" }, seatLabel(q, summary, me)),
      toAct ? h("span", { class: "turn-mark", title: "to act" }, "◀ to act") : null,
      seat.status !== "active" ? h("span", { class: "badge" }, STATUS_WORDS[seat.status] || seat.status) : null,
    ),
    supplyRow(seat.supply, colour, {
      label: "Supply",
      keyPrefix: own ? "supply" : null,
      testid: `supply-${q}`,
    }),
    neutral
      ? supplyRow(seat.neutral_supply, "n", { label: "Neutral to place", keyPrefix: own ? "nsupply" : null })
      : null,
    h(
      "div",
      { class: "player-stats" },
      h("span", {}, `captured ${seat.captured}`),
      h("span", {}, `melted ${seat.melted}`),
      h("span", {}, `controls ${points.controlled}`),
      h("span", {}, `lost ${seat.lost}`),
      h("strong", { "data-testid": `points-${q}` }, `${points.total} ${points.total === 1 ? "point" : "points"}`),
    ),
  );
}

/**
 * Render `view` into `root`. Options: `summary` (seat names, bot/person), `live` (unused: Arktia has no
 * hidden information, so the replay draws exactly what the table drew).
 */
export function renderArktia(root, view, { summary = null } = {}) {
  const me = view.seat === undefined ? null : view.seat;
  const seats = view.seats || [];
  replaceChildren(
    root,
    h(
      "section",
      { class: "zone zone-arktia", "data-testid": "arktia-board" },
      h("h2", { class: "zone-title" }, view.step === "over" ? "The ice · final position" : `The ice · turn ${view.turn + 1}`),
      boardSvg(view),
      legend(),
    ),
    h(
      "section",
      { class: "zone" },
      h("h2", { class: "zone-title" }, "Players"),
      h("div", { class: "players" }, seats.map((_, q) => playerPanel(view, q, summary, me))),
      view.neutral_lost ? h("p", { class: "small muted" }, `Neutral Muglus removed: ${view.neutral_lost}`) : null,
    ),
  );
}

/** The status line's extra words for the table page. */
export function arktiaStatus(view) {
  if (!view) return "";
  if (view.step === "over") return `after ${view.turn} turns`;
  let text = `Turn ${view.turn + 1}`;
  if (view.step === "neutral-setup") text += " (placing the neutral Muglus)";
  return text;
}

// --- choices ------------------------------------------------------------------------------------------------
function choiceButton(choice, onPlay, disabled) {
  return h(
    "button",
    {
      type: "button",
      class: `choice choice-${choice.verb || "other"}`,
      "data-testid": "choice",
      "data-action": choice.id,
      "data-verb": choice.verb,
      title: choice.notation,
      disabled,
      onclick: () => onPlay(choice),
    },
    choice.text || choice.notation,
  );
}

function sourceKey(choice) {
  if (choice.verb === "move") return `part:${choice.from}:${choice.part}`;
  if (choice.verb === "place") return `supply:${choice.part}`;
  if (choice.verb === "neutral") return `nsupply:${choice.part}`;
  return null;
}

function sourceWords(key) {
  const [kind, a, b] = key.split(":");
  if (kind === "supply") return `a ${SIZE_NAMES[a]} from your supply`;
  if (kind === "nsupply") return `a neutral ${SIZE_NAMES[a]}`;
  const names = [...b].map((x) => SIZE_NAMES[x]).join("+");
  return `${b.length > 1 ? "the stack part " : "the "}${names} on ${a}`;
}

/**
 * Arktia's click-to-play: click a highlighted piece (a stack part on the board, or a supply piece), its legal
 * destinations light up, click one. Melting and keeping a group are one click on a highlighted field; stop
 * (and every choice, for keyboards) is a button. Same interface as choices.js: bind / setBusy / busy.
 */
export class ArktiaChoices {
  constructor(panel, onPlay) {
    this.panel = panel;
    this.onPlay = onPlay;
    this.legal = [];
    this.board = null;
    this.sources = new Map(); // source key -> choices
    this.direct = new Map(); // cell key -> the choice a click on that field plays
    this.free = []; // choices with nothing to click on the board
    this.selected = null;
    this.busy = false;
    this.version = null;
    this.boards = new WeakSet();
  }

  bind(board, legal, version) {
    if (version !== this.version) this.selected = null;
    this.version = version;
    this.board = board;
    if (!this.boards.has(board)) {
      // A click on the board that no highlighted object took drops the selection.
      this.boards.add(board);
      board.addEventListener("click", () => {
        if (this.board === board && this.selected) this.select(null);
      });
    }
    this.legal = legal || [];
    this.sources = new Map();
    this.direct = new Map();
    this.free = [];
    for (const choice of this.legal) {
      const key = sourceKey(choice);
      if (key && this.find(key).length && this.find(`cell:${choice.to}`).length) {
        if (!this.sources.has(key)) this.sources.set(key, []);
        this.sources.get(key).push(choice);
      } else if (choice.verb === "melt" || choice.verb === "keep") {
        for (const cell of choice.group || [choice.to]) this.direct.set(`cell:${cell}`, choice);
        this.free.push(choice);
      } else {
        this.free.push(choice);
      }
    }
    if (this.selected && !this.sources.has(this.selected)) this.selected = null;
    this.highlight();
    this.renderPanel();
  }

  find(key) {
    if (!this.board) return [];
    return [...this.board.querySelectorAll(`[data-obj="${CSS.escape(key)}"]`)];
  }

  setBusy(busy) {
    this.busy = busy;
    this.highlight();
    this.renderPanel();
  }

  play(choice) {
    if (this.busy || !choice) return;
    this.selected = null;
    this.onPlay(choice);
  }

  select(key) {
    this.selected = this.selected === key ? null : key;
    this.highlight();
    this.renderPanel();
  }

  destinations() {
    const out = new Map();
    for (const choice of this.sources.get(this.selected) || []) out.set(`cell:${choice.to}`, choice);
    return out;
  }

  highlight() {
    if (!this.board) return;
    for (const el of this.board.querySelectorAll("[data-legal]")) {
      el.classList.remove("legal", "selected", "dest");
      el.removeAttribute("data-legal");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.onclick = null;
      el.onkeydown = null;
    }
    const svg = this.board.querySelector(".hexboard");
    if (svg) svg.classList.toggle("has-selection", !!this.selected && !this.busy);
    if (this.busy) return;
    const mark = (el, kind) => {
      el.classList.add("legal");
      if (kind === "dest") el.classList.add("dest");
      el.setAttribute("data-legal", kind);
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.onclick = (ev) => {
        ev.stopPropagation();
        this.activate(el);
      };
      el.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.activate(el);
        }
      };
    };
    for (const key of this.sources.keys()) {
      for (const el of this.find(key)) {
        mark(el, "source");
        if (key === this.selected) el.classList.add("selected");
      }
    }
    for (const key of this.destinations().keys()) for (const el of this.find(key)) mark(el, "dest");
    for (const key of this.direct.keys()) for (const el of this.find(key)) mark(el, "play");
  }

  /** A click on a highlighted object: a destination (even through a piece standing on it) plays. */
  activate(el) {
    if (this.busy) return;
    const cell = el.closest("[data-obj^='cell:']");
    const dests = this.destinations();
    if (cell && dests.has(cell.dataset.obj)) return this.play(dests.get(cell.dataset.obj));
    if (el.dataset.legal === "source") return this.select(el.dataset.obj);
    if (cell && this.direct.has(cell.dataset.obj)) return this.play(this.direct.get(cell.dataset.obj));
    return this.select(null);
  }

  renderPanel() {
    const disabled = this.busy;
    const button = (c) => choiceButton(c, (ch) => this.play(ch), disabled);
    if (!this.legal.length) {
      replaceChildren(this.panel);
      this.panel.hidden = true;
      return;
    }
    this.panel.hidden = false;
    if (this.selected) {
      const dests = [...this.destinations().values()];
      replaceChildren(
        this.panel,
        h(
          "p",
          { class: "choices-title", "data-testid": "selection" },
          `Selected: ${sourceWords(this.selected)}. Click a highlighted field (${dests.length}).`,
        ),
        h("div", { class: "choice-list" }, dests.map(button)),
        h(
          "button",
          { type: "button", class: "choice-back", "data-testid": "choice-back", onclick: () => this.select(null) },
          "Cancel",
        ),
      );
      return;
    }
    const hints = [];
    if (this.sources.size) {
      const supply = [...this.sources.keys()].some((k) => !k.startsWith("part:"));
      const board = [...this.sources.keys()].some((k) => k.startsWith("part:"));
      const what = [board ? "one of your highlighted pieces" : null, supply ? "a piece of the supply" : null];
      hints.push(`Click ${what.filter(Boolean).join(" or ")}, then a highlighted field.`);
    }
    if (this.direct.size) hints.push("Click a highlighted field, or choose below.");
    replaceChildren(
      this.panel,
      hints.length ? h("p", { class: "choices-hint" }, hints.join(" ")) : null,
      this.free.length ? h("div", { class: "choice-list" }, this.free.map(button)) : null,
      this.sources.size
        ? h(
            "details",
            { class: "all-choices" },
            h("summary", {}, `All ${this.legal.length} choices as a list`),
            h("div", { class: "choice-list" }, this.legal.map(button)),
          )
        : null,
    );
  }
}
