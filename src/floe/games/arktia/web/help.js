// How to play Arktia: the "How to play" panel and the terms of the prompts (the interface is described in
// docs/server.md, "Help modules"). Written from docs/arktia-rules.md and the engine's decisions
// (docs/arktia-rules.md); the worked example's figures are recomputed by the scoring code in
// tests/games/arktia/test_help.py. Every text is in the page's language (the game's catalog is loaded
// before this module).
import { lang, t } from "/static/js/i18n.js";

export const title = t("How to play Arktia");

// A scoring example at the end of a 2-player game: some fields with what stands on them (size → colour, p1,
// p2 or n for neutral), who controls each, and each player's counters and total. Plain JSON between the
// markers: the test reads it from this file.
export const EXAMPLE = /* example */ {
  "fields": [
    {"field": "c3", "pieces": {"g": "p1"}, "shape": "a lone Globus", "control": "p1"},
    {"field": "d3", "pieces": {"t": "p2", "d": "p1"}, "shape": "tower B", "control": "p1"},
    {"field": "e3", "pieces": {"d": "p1", "g": "p2"}, "shape": "tower A", "control": "p2"},
    {"field": "b2", "pieces": {"t": "p1", "g": "n"}, "shape": "tower C", "control": "p1"},
    {"field": "c2", "pieces": {"t": "p2", "d": "p2", "g": "n"}, "shape": "tower D", "control": "n"}
  ],
  "players": {
    "p1": {"captured": 2, "controlled": 3, "melted": 3, "total": 8},
    "p2": {"captured": 1, "controlled": 1, "melted": 1, "total": 3}
  }
} /* /example */;

const SIZE = { g: "Globus", d: "Diskus", t: "Torus" };
const who = (p) => (p === "n" ? t("neutral") : p.toUpperCase());
const BOTTOM_UP = { "a lone Globus": ["g"], "tower A": ["d", "g"], "tower B": ["t", "d"], "tower C": ["t", "g"], "tower D": ["t", "d", "g"] };
// The example's shapes in words (its JSON keeps the English keys the test reads).
const SHAPE_WORDS = {
  "a lone Globus": () => t("a lone Globus"),
  "tower A": () => t("tower A"),
  "tower B": () => t("tower B"),
  "tower C": () => t("tower C"),
  "tower D": () => t("tower D"),
};

function fieldRow(f) {
  const order = BOTTOM_UP[f.shape].map((s) => `${t(SIZE[s])} (${who(f.pieces[s])})`);
  const what =
    f.shape === "tower C" ? t("%(outer)s around %(inner)s", { outer: order[0], inner: order[1] }) : order.join(", ");
  const control = f.control === "n" ? t("nobody (a neutral top)") : who(f.control);
  return `<tr><td>${f.field}</td><td>${what} (${SHAPE_WORDS[f.shape]()})</td><td>${control}</td></tr>`;
}

function exampleHtml() {
  const e = EXAMPLE;
  const rows = e.fields.map(fieldRow).join("");
  const lines = Object.entries(e.players)
    .map(([p, s]) => {
      const sum = t("%(captured)s captured + %(controlled)s controlled + %(melted)s melted", s);
      return `<li data-testid="example-${p}">${who(p)}: ${sum} = <strong>${s.total}</strong></li>`;
    })
    .join("");
  const intro = t("At the end of a 2-player game, these fields hold Muglus (bottom to top):");
  const removed = t("P1 removed 2 Muglus during the game and melted 3 fields; P2 removed 1 and melted 1.");
  return `
    <p>${intro}</p>
    <table><tr><th>${t("field")}</th><th>${t("stack")}</th><th>${t("controlled by")}</th></tr>${rows}</table>
    <p>${removed}</p>
    <ul class="example-total" data-testid="example-total">${lines}</ul>`;
}

const p = (text) => `<p>${text}</p>`;
const li = (text) => `<li>${text}</li>`;
const strong = (word) => ({ verb: `<strong>${word}</strong>` });

function turnHtml() {
  // The verbs first: a marked call inside another's arguments is not extracted.
  const [place, move, stop] = [strong(t("Place")), strong(t("Move")), strong(t("Stop"))];
  return (
    p(t("Do exactly one of:")) +
    "<ul>" +
    li(
      t(
        "%(verb)s a Muglu from your supply on a free field next to a field holding one of your Muglus (at any height). Placing never builds a tower.",
        place,
      ),
    ) +
    li(
      t(
        "%(verb)s a Muglu, the top part of a stack or a whole stack whose top piece is yours, any distance in a straight line (one of the six directions across a hex side). It may pass over Muglus but not over melted fields. Your own Muglus must still form one group afterwards.",
        move,
      ),
    ) +
    li(
      t(
        "%(verb)s: end your game for good (from round 3 on). Your Muglus stay on the board and score (table option out_pieces=remove: they leave it). The table asks before it plays a stop.",
        stop,
      ),
    ) +
    "</ul>" +
    p(t("Then cut-off Muglus are removed, then you melt a field if you must."))
  );
}

function towersHtml() {
  const row = (tower, stack, top, built) => `<tr><td>${tower}</td><td>${stack}</td><td>${top}</td><td>${built}</td></tr>`;
  const [g, d, tt] = [t("Globus"), t("Diskus"), t("Torus")];
  return (
    p(t("Only these stacks exist; the top piece controls the field (who may move it, and who scores it):")) +
    "<table>" +
    `<tr><th>${t("tower")}</th><th>${t("bottom to top")}</th><th>${t("controls")}</th><th>${t("built by")}</th></tr>` +
    row("A", `${d}, ${g}`, g, t("a Globus onto a lone Diskus")) +
    row("B", `${tt}, ${d}`, d, t("a Diskus onto a lone Torus")) +
    row("C", t("Torus around a Globus"), tt, t("a Torus onto a lone Globus (nothing may go on C)")) +
    row("D", `${tt}, ${d}, ${g}`, g, t("tower A onto a lone Torus, or a Globus onto tower B")) +
    "</table>" +
    p(
      t(
        "From a stack you may lift the top piece, the top two of D together (a tower A), or the whole stack. The Globus inside C never moves alone. Nobody moves a stack with a neutral top, and it scores for nobody.",
      ),
    )
  );
}

export const sections = [
  {
    id: "goal",
    title: t("Goal"),
    html: p(
      t(
        "Each player has 9 Muglus: 3 Globus (small ball), 3 Diskus (medium disc), 3 Torus (large ring). Spread over the ice, stack on top of other Muglus to control their fields, cut off your opponents' Muglus and melt the ice. At the end you score 1 point per Muglu you removed, per field you control and per field you melted.",
      ),
    ),
  },
  {
    id: "opening",
    title: t("Set-up and opening"),
    html: p(
      t(
        "With 2 players (and in the 3-player neutral variant) the players first place the neutral Muglus one at a time on free fields, each next to a neutral one already placed. In round 1 each player places a Muglu on a free field next to any Muglu (the very first one anywhere); in round 2 next to one of their own. Moving and stopping start in round 3.",
      ),
    ),
  },
  { id: "turn", title: t("Your turn"), html: turnHtml() },
  { id: "towers", title: t("Stacks (towers)"), html: towersHtml() },
  {
    id: "removal",
    title: t("Cut-off Muglus"),
    html: p(
      t(
        "After every move each colour is checked: Muglus of a colour on neighbouring fields form a group (size = number of Muglus). Every Muglu outside that colour's largest group is removed, and the mover takes it (1 point each). If the largest groups tie, the mover chooses which one stays (the \"keep\" choice). Only a move that carries other Muglus under your top piece can cut anything off. When a piece leaves a stack the rest settles: D without its Diskus becomes C, without its Torus A, without its Globus B.",
      ),
    ),
  },
  {
    id: "melting",
    title: t("Melting"),
    html: p(
      t(
        "Once all 9 of your Muglus are placed, from your next turn on you must melt a field at the end of each turn: an empty field at the edge of the ice (fewer than 6 neighbours) whose removal keeps the ice in one piece. You keep it: 1 point. Melted fields block moves.",
      ),
    ),
  },
  {
    id: "end",
    title: t("End of the game"),
    html:
      p(
        t(
          "Your game ends when (a) you can neither place nor move, (b) you must melt and cannot (also when every free edge field would split the ice), (c) you have only one Muglu left on the board (checked after round 2, after every turn), or (d) you stop. The others play on until nobody can or wants to.",
        ),
      ) +
      p(
        t(
          "The table also has a turn limit (option max_turns, shown in the status line as turns played / limit): when it is reached every game ends and the board is scored. When every choice you have ends your game, the table says so above the choices.",
        ),
      ),
  },
  {
    id: "scoring",
    title: t("Scoring"),
    html: p(
      t(
        "1 point for each Muglu you removed, each field you control (your colour on top) and each field you melted. The highest total wins; equal totals share the win (table option tie_break=fewer_lost: fewer Muglus lost ranks higher).",
      ),
    ),
  },
  { id: "example", title: t("Worked example"), html: exampleHtml() },
];

// The terms of the prompts, in the page's language; an English-only `pattern` (a plural, a verb's forms)
// applies to English alone, other languages match the term itself.
const english = lang === "en";
const term = (word, tip, pattern = null) => ({ term: word, tip, ...(english && pattern ? { pattern } : {}) });

export const terms = [
  term("Muglu", t("a playing piece. Each player has 9: 3 Globus, 3 Diskus, 3 Torus.")),
  term(t("Globus"), t("the small ball: it can sit on a Diskus (tower A) or on tower B (tower D), or be enclosed by a Torus (tower C)."), "\\bGlobus\\b"),
  term(t("Diskus"), t("the medium disc: it can sit on a lone Torus (tower B) and carry a Globus (tower A)."), "\\bDiskus\\b"),
  term(t("Torus"), t("the large ring: it can carry a Diskus (tower B) or drop around a lone Globus (tower C)."), "\\bTorus\\b"),
  term(t("stack"), t("Muglus on one field (towers A–D). The top piece controls the field: its owner may move it and scores it.")),
  term(t("straight line"), t("one of the six directions across a hex side, any distance; over Muglus, never over melted fields.")),
  term(
    t("melt"),
    t("remove an empty field at the edge of the ice (the ice must stay in one piece): 1 point. Due every turn once all your Muglus are placed."),
    "\\bmelt(?:s|ed)?\\b",
  ),
  term(t("opening round"), t("rounds 1 and 2: only placing (round 1 next to any Muglu, round 2 next to your own).")),
  term(
    t("tied groups"),
    t("a colour's largest groups of Muglus are equally big: the mover chooses which one stays; the others are removed and the mover takes them."),
  ),
  term(t("supply"), t("your Muglus not placed yet.")),
  term(t("turn limit"), t("the table's limit on turns (option max_turns): when it is reached every game ends and the board is scored.")),
  term(
    t("end your game"),
    t("you take no more turns; your Muglus stay on the board and still score (unless the table removes them)."),
  ),
];
