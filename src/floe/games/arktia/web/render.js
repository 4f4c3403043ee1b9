// The Arktia board, drawn from one observation dict (floe.games.arktia.view) and nothing else: an SVG hex
// map of the ice with every field's stack, then each player's supply, captures and points.
//
// Objects a move can involve carry a `data-obj` key; board.js routes the legal choices onto them:
//   cell:<c3>          a field (destination of a placement or a move; a field to melt; a group to keep)
//   part:<c3>:<dg>     a piece and everything above it on field c3 (the part that would be lifted)
//   supply:<g|d|t>     a piece of your own supply           nsupply:<g|d|t>  a neutral piece you still place
import { h, replaceChildren } from "/static/js/dom.js";
import { seatLabel } from "/static/js/words.js";
import { N, nt, t } from "/static/js/i18n.js";
import {
  BORDER_DASH,
  COLOURS,
  HEIGHT,
  R,
  SIZES,
  SIZE_TIPS,
  colourName,
  pieceIcon,
  pieceShape,
  s,
  sizeName,
} from "./pieces.js";

const SQRT3 = Math.sqrt(3);

const STATUS_WORDS = {
  active: N("playing"),
  "(a) cannot act": N("out: could neither place nor move"),
  "(b) cannot melt": N("out: could not melt"),
  "(c) one Muglu left": N("out: one Muglu left"),
  "(d) stopped": N("stopped"),
  "turn limit": N("turn limit reached"),
};

// --- which piece is which ------------------------------------------------------------------------------------
// The view lists each field's stack, not piece identities; to slide a moved piece from its old field to its
// new one (the page's move animation, motion.js), the pieces get ids here by comparing the stacks with the
// last ones drawn: a field's bottom that did not change keeps its ids, a part that left one field and came
// onto another (same pieces, same order) takes its ids along, anything else is new (placed from a supply:
// it slides from there, `data-alias`).
let lastStacks = new Map(); // field -> [{colour, size, id}]
let nextId = 0;

const sig = (p) => `${p.colour}${p.size}`;

/** field -> the ids of its pieces, bottom to top, for `fields` (and remembered for the next call). */
function pieceIds(fields) {
  const lifted = new Map(); // the signature of a part that left a field -> its ids (a list of parts)
  const kept = new Map();
  for (const f of fields) {
    const before = lastStacks.get(f.field) || [];
    const pieces = f.pieces || [];
    let k = 0;
    while (k < before.length && k < pieces.length && sig(before[k]) === sig(pieces[k])) k++;
    kept.set(f.field, before.slice(0, k).map((p) => p.id));
    const gone = before.slice(k);
    if (gone.length) {
      const key = gone.map(sig).join(",");
      lifted.set(key, [...(lifted.get(key) || []), gone.map((p) => p.id)]);
    }
  }
  const ids = new Map();
  const stacks = new Map();
  for (const f of fields) {
    const pieces = f.pieces || [];
    const own = kept.get(f.field);
    const added = pieces.slice(own.length);
    const came = added.length ? lifted.get(added.map(sig).join(",")) : null;
    const moved = came && came.length ? came.shift() : added.map(() => `new${nextId++}`);
    const all = [...own, ...moved];
    ids.set(f.field, all);
    stacks.set(
      f.field,
      pieces.map((p, k) => ({ ...p, id: all[k] })),
    );
  }
  lastStacks = stacks;
  return ids;
}

// --- the board ----------------------------------------------------------------------------------------------
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

/** The pieces of one field, bottom to top, each a <g> keyed by the part it would lift. */
function stackShapes(field, cx, cy, ids) {
  const pieces = field.pieces || [];
  const out = [];
  // The page's move animation: each piece keyed by its id, from a supply if it is new (pieceIds).
  const motion = (k) => ({
    key: `piece:${ids[k]}`,
    look: field.field,
    alias: `supply:${pieces[k].colour}:${pieces[k].size}`,
  });
  const partKey = (k) => `part:${field.field}:${pieces.slice(k).map((p) => p.size).join("")}`;
  const title = (k) => {
    const p = pieces[k];
    const above = pieces.length - 1 - k;
    const values = { who: colourName(p.colour), piece: sizeName(p.size), field: field.field, n: above };
    if (!above) return t("%(piece)s (%(who)s) on %(field)s", values);
    return nt(
      "%(piece)s (%(who)s) on %(field)s (and the piece above)",
      "%(piece)s (%(who)s) on %(field)s (and the %(n)s pieces above)",
      above,
      values,
    );
  };
  if (field.shape === "C") {
    // Tower C: the Globus sits inside the Torus, which is on top and controls the field. The Globus in the
    // ring's hole takes a click only while it is highlighted itself (arktia.css .inside): else the click
    // goes to the highlighted Torus around it, whose hole is part of it.
    const y = cy + 0.34 * R;
    out.push(pieceGroup(partKey(1), title(1), pieceShape("t", pieces[1].colour, cx, y), motion(1)));
    const inner = pieceGroup(partKey(0), title(0), pieceShape("g", pieces[0].colour, cx, y - 0.1 * R), motion(0));
    inner.classList.add("inside");
    out.push(inner);
    return out;
  }
  let base = cy + 0.64 * R;
  pieces.forEach((p, k) => {
    const height = HEIGHT[p.size];
    out.push(pieceGroup(partKey(k), title(k), pieceShape(p.size, p.colour, cx, base - height / 2), motion(k)));
    base -= height;
  });
  return out;
}

function pieceGroup(key, title, shapes, motion) {
  // A named picture (a button while it is clickable: /static/js/choices.js puts the role back after).
  return s(
    "g",
    { class: "piece", dataset: { obj: key, ...motion }, role: "img", "aria-label": title },
    s("title", {}, title),
    shapes,
  );
}

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
    // A labelled group of named fields (not one picture: its fields and pieces are buttons when legal).
    role: "group",
    "aria-label": t("the ice: hexagonal fields with their Muglus"),
    "data-testid": "hexboard",
    style: `max-width: ${Math.round(width * 1.5)}px`,
  });
  for (const [x, y] of gaps) {
    svg.append(s("polygon", { class: "hex-gap", points: hexPoints(x, y, R - 1.5) }));
  }
  const ids = pieceIds(fields);
  for (const p of placed) svg.append(fieldGroup(p.f, p.x, p.y, ids.get(p.f.field)));
  return svg;
}

function fieldGroup(field, x, y, ids) {
  const melted = field.melted;
  const control = field.control || null;
  const cls = melted ? "cell cell-melted" : `cell${control ? " cell-held" : " cell-empty"}`;
  // Keyed for the move animation: a field that melted is marked as the last move.
  const motion = { key: `cell:${field.field}`, look: melted ? "melted" : "ice" };
  const g = s("g", { class: cls, dataset: { obj: `cell:${field.field}`, cell: field.field, ...motion } });
  const what = melted
    ? t("%(field)s: melted (water)", { field: field.field })
    : control
      ? t("%(field)s: %(pieces)s, controlled by %(who)s", {
          field: field.field,
          pieces: fieldWords(field),
          who: colourName(control),
        })
      : t("%(field)s: empty ice", { field: field.field });
  g.dataset.tip = what; // explained on hover and tap (/static/js/tips.js)
  // A named group of its pieces (each named too); a button while it is a destination.
  g.setAttribute("role", "group");
  g.setAttribute("aria-label", what);
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
        "stroke-dasharray": BORDER_DASH[control],
        "data-seat": control,
      }),
    );
  }
  if (!melted) g.append(...stackShapes(field, x, y, ids));
  // The name last, with a halo, so no piece or border hides it (it takes no clicks).
  g.append(
    s(
      "text",
      {
        class: "cell-name",
        x,
        y: y - 0.6 * R,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "aria-hidden": "true", // the field's own name says it
      },
      field.field,
    ),
  );
  return g;
}

function fieldWords(field) {
  const pieces = field.pieces || [];
  const list = pieces.map((p) => `${sizeName(p.size)} (${colourName(p.colour)})`).join(", ");
  return t("%(pieces)s (bottom to top)", { pieces: list });
}

/** A seat's border in the legend: its colour and dash pattern, then its number. */
function borderSample(colour) {
  return h(
    "span",
    { class: "legend-item", "data-testid": `legend-${colour}` },
    s(
      "svg",
      { width: 26, height: 10, viewBox: "0 0 26 10", "aria-hidden": "true" },
      s("line", {
        x1: 1,
        y1: 5,
        x2: 25,
        y2: 5,
        stroke: COLOURS[colour],
        "stroke-width": 4,
        "stroke-dasharray": BORDER_DASH[colour],
      }),
    ),
    " " + colourName(colour),
  );
}

function legend(seats) {
  return h(
    "div",
    { class: "arktia-legend small muted" },
    SIZES.map((size) => h("span", { class: "legend-item" }, pieceIcon(size, "n", 30), " " + sizeName(size))),
    h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-water" }), " " + t("melted")),
    h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-gap" }), " " + t("no ice")),
    h("span", { class: "legend-item" }, t("coloured border: who controls the field")),
    seats.map((_, q) => borderSample(`p${q + 1}`)),
  );
}

// --- players ------------------------------------------------------------------------------------------------
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
          // Named by the piece and how many are left ("×3" alone says neither); a button while legal.
          role: "img",
          "aria-label": t("%(piece)s (%(who)s): %(n)s left", {
            piece: sizeName(size),
            who: colourName(colour),
            n: counts[size],
          }),
          "data-tip": t("%(piece)s: %(n)s left; %(tip)s.", {
            piece: sizeName(size),
            n: counts[size],
            tip: t(SIZE_TIPS[size]),
          }),
          dataset: {
            ...(keyPrefix && counts[size] ? { obj: `${keyPrefix}:${size}` } : {}),
            // Where a placed piece slides from (render.js: pieceIds); the neutral supply is "n"'s.
            key: `supply:${colour}:${size}`,
          },
        },
        pieceIcon(size, colour, 34),
        h("span", { class: "supply-count", "aria-hidden": "true" }, `×${counts[size]}`),
      ),
    ),
  );
}

function playerPanel(view, q, summary, me) {
  const seat = view.seats[q];
  const colour = `p${q + 1}`;
  const toAct = view.step !== "over" && view.player === q;
  // Points so far as the engine counts them (the view's `standings`: arktia/scoring.py), the final score at the end.
  const points = view.standings.seats[q];
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
      h("span", { class: "swatch", style: { background: COLOURS[colour] }, "aria-hidden": "true" }),
      h("strong", { class: "player-name" }, seatLabel(q, summary, me)),
      toAct ? h("span", { class: "turn-mark" }, "◀ " + t("to act")) : null,
      seat.status !== "active" ? h("span", { class: "badge" }, t(STATUS_WORDS[seat.status] || seat.status)) : null,
    ),
    supplyRow(seat.supply, colour, {
      label: t("Supply"),
      keyPrefix: own ? "supply" : null,
      testid: `supply-${q}`,
    }),
    neutral
      ? supplyRow(seat.neutral_supply, "n", { label: t("Neutral to place"), keyPrefix: own ? "nsupply" : null })
      : null,
    h(
      "div",
      { class: "player-stats" },
      h("span", {}, t("captured %(n)s", { n: seat.captured })),
      h("span", {}, t("melted %(n)s", { n: seat.melted })),
      h("span", {}, t("controls %(n)s", { n: points.controlled })),
      h("span", {}, t("lost %(n)s", { n: seat.lost })),
      h("strong", { "data-testid": `points-${q}` }, nt("%(n)s point", "%(n)s points", points.total)),
    ),
  );
}

/**
 * Render `view` into `root`. Options: `summary` (seat names, bot/person), `live` (unused: Arktia has no
 * hidden information, so the replay draws exactly what the table drew).
 */
export function render(root, view, { summary = null } = {}) {
  const me = view.seat === undefined ? null : view.seat;
  const seats = view.seats || [];
  replaceChildren(
    root,
    h(
      "section",
      { class: "zone zone-arktia", "data-testid": "arktia-board" },
      h(
        "h2",
        { class: "zone-title" },
        view.step === "over" ? t("The ice · final position") : t("The ice · turn %(n)s", { n: view.turn + 1 }),
      ),
      boardSvg(view),
      legend(seats),
    ),
    h(
      "section",
      { class: "zone" },
      h("h2", { class: "zone-title" }, t("Players")),
      h("div", { class: "players" }, seats.map((_, q) => playerPanel(view, q, summary, me))),
      view.neutral_lost
        ? h("p", { class: "small muted" }, t("Neutral Muglus removed: %(n)s", { n: view.neutral_lost }))
        : null,
    ),
  );
}

/**
 * The status line's extra words for the table page: the turn, the turns played against the table's turn
 * limit (option max_turns: the game ends there), and a warning once the limit is less than a round away.
 */
export function status(view) {
  if (!view) return "";
  const limit = view.raw && view.raw.config ? view.raw.config.max_turns : null;
  // A sentence after the page's own "The game is over." / "Your turn.".
  if (view.step === "over") return nt("%(n)s turn played.", "%(n)s turns played.", view.turn);
  let text = limit ? t("Turn %(n)s of at most %(limit)s", { n: view.turn + 1, limit }) : t("Turn %(n)s", { n: view.turn + 1 });
  if (view.step === "neutral-setup") text += " " + t("(placing the neutral Muglus)");
  const left = limit ? limit - view.turn : null;
  if (left !== null && left <= view.seats.filter((s) => s.status === "active").length) {
    text +=
      left === 1
        ? ": " + t("the turn limit ends the game after this turn")
        : ": " + nt("the turn limit ends the game in %(n)s turn", "the turn limit ends the game in %(n)s turns", left);
  }
  return text;
}
