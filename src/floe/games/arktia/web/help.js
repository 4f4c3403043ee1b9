// How to play Arktia: the "How to play" panel and the terms of the prompts (the interface is described in
// docs/server.md, "Help modules"). Written from shared/rules/arktia.md and the engine's decisions
// (docs/arktia-rules.md); the worked example's figures are recomputed by the scoring code in
// tests/games/arktia/test_help.py.

export const title = "How to play Arktia";

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
const WHO = { p1: "P1", p2: "P2", n: "neutral" };
const BOTTOM_UP = { "a lone Globus": ["g"], "tower A": ["d", "g"], "tower B": ["t", "d"], "tower C": ["t", "g"], "tower D": ["t", "d", "g"] };

function fieldRow(f) {
  const order = BOTTOM_UP[f.shape].map((s) => `${WHO[f.pieces[s]]} ${SIZE[s]}`);
  const what = f.shape === "tower C" ? `${order[0]} around ${order[1]}` : order.join(", then ");
  const control = f.control === "n" ? "nobody (a neutral top)" : WHO[f.control];
  return `<tr><td>${f.field}</td><td>${what} (${f.shape})</td><td>${control}</td></tr>`;
}

function exampleHtml() {
  const e = EXAMPLE;
  const rows = e.fields.map(fieldRow).join("");
  const lines = Object.entries(e.players)
    .map(([p, s]) => `<li data-testid="example-${p}">${WHO[p]}: ${s.captured} captured + ${s.controlled} controlled + ${s.melted} melted = <strong>${s.total}</strong></li>`)
    .join("");
  return `
    <p>At the end of a 2-player game, these fields hold Muglus (bottom to top):</p>
    <table><tr><th>field</th><th>stack</th><th>controlled by</th></tr>${rows}</table>
    <p>P1 removed 2 Muglus during the game and melted 3 fields; P2 removed 1 and melted 1.</p>
    <ul class="example-total" data-testid="example-total">${lines}</ul>`;
}

export const sections = [
  {
    id: "goal",
    title: "Goal",
    html: `
      <p>Each player has 9 Muglus: 3 Globus (small ball), 3 Diskus (medium disc), 3 Torus (large ring). Spread
      over the ice, stack on top of other Muglus to control their fields, cut off your opponents' Muglus and melt
      the ice. At the end you score 1 point per Muglu you removed, per field you control and per field you
      melted.</p>`,
  },
  {
    id: "opening",
    title: "Set-up and opening",
    html: `
      <p>With 2 players (and in the 3-player neutral variant) the players first place the neutral Muglus one at a
      time on free fields, each next to a neutral one already placed. In round 1 each player places a Muglu on a
      free field next to any Muglu (the very first one anywhere); in round 2 next to one of their own. Moving
      and stopping start in round 3.</p>`,
  },
  {
    id: "turn",
    title: "Your turn",
    html: `
      <p>Do exactly one of:</p>
      <ul>
        <li><strong>Place</strong> a Muglu from your supply on a free field next to a field holding one of your
        Muglus (at any height). Placing never builds a tower.</li>
        <li><strong>Move</strong> a Muglu, the top part of a stack or a whole stack whose top piece is yours, any
        distance in a straight line (one of the six directions across a hex side). It may pass over Muglus but
        not over melted fields. Your own Muglus must still form one group afterwards.</li>
        <li><strong>Stop</strong>: end your game for good (from round 3 on). Your Muglus stay on the board and
        score (table option out_pieces=remove: they leave it). The table asks before it plays a stop.</li>
      </ul>
      <p>Then cut-off Muglus are removed, then you melt a field if you must.</p>`,
  },
  {
    id: "towers",
    title: "Stacks (towers)",
    html: `
      <p>Only these stacks exist; the top piece controls the field (who may move it, and who scores it):</p>
      <table>
        <tr><th>tower</th><th>bottom to top</th><th>controls</th><th>built by</th></tr>
        <tr><td>A</td><td>Diskus, Globus</td><td>Globus</td><td>a Globus onto a lone Diskus</td></tr>
        <tr><td>B</td><td>Torus, Diskus</td><td>Diskus</td><td>a Diskus onto a lone Torus</td></tr>
        <tr><td>C</td><td>Torus around a Globus</td><td>Torus</td><td>a Torus onto a lone Globus (nothing may go on C)</td></tr>
        <tr><td>D</td><td>Torus, Diskus, Globus</td><td>Globus</td><td>tower A onto a lone Torus, or a Globus onto tower B</td></tr>
      </table>
      <p>From a stack you may lift the top piece, the top two of D together (a tower A), or the whole stack. The
      Globus inside C never moves alone. Nobody moves a stack with a neutral top, and it scores for nobody.</p>`,
  },
  {
    id: "removal",
    title: "Cut-off Muglus",
    html: `
      <p>After every move each colour is checked: Muglus of a colour on neighbouring fields form a group (size =
      number of Muglus). Every Muglu outside that colour's largest group is removed, and the mover takes it (1
      point each). If the largest groups tie, the mover chooses which one stays (the "keep" choice). Only a
      move that carries other Muglus under your top piece can cut anything off. When a piece leaves a stack the
      rest settles: D without its Diskus becomes C, without its Torus A, without its Globus B.</p>`,
  },
  {
    id: "melting",
    title: "Melting",
    html: `
      <p>Once all 9 of your Muglus are placed, from your next turn on you must melt a field at the end of each
      turn: an empty field at the edge of the ice (fewer than 6 neighbours) whose removal keeps the ice in one
      piece. You keep it: 1 point. Melted fields block moves.</p>`,
  },
  {
    id: "end",
    title: "End of the game",
    html: `
      <p>Your game ends when (a) you can neither place nor move, (b) you must melt and cannot (also when every
      free edge field would split the ice), (c) you have only one Muglu left on the board (checked after round 2,
      after every turn), or (d) you stop. The others play on until nobody can or wants to.</p>
      <p>The table also has a turn limit (option max_turns, shown in the status line as turns played / limit):
      when it is reached every game ends and the board is scored. When every choice you have ends your game, the
      table says so above the choices.</p>`,
  },
  {
    id: "scoring",
    title: "Scoring",
    html: `
      <p>1 point for each Muglu you removed, each field you control (your colour on top) and each field you
      melted. The highest total wins; equal totals share the win (table option tie_break=fewer_lost: fewer
      Muglus lost ranks higher).</p>`,
  },
  { id: "example", title: "Worked example", html: exampleHtml() },
];

export const terms = [
  { term: "Muglu", tip: "a playing piece. Each player has 9: 3 Globus, 3 Diskus, 3 Torus." },
  { term: "Globus", pattern: "\\bGlobus\\b", tip: "the small ball: it can sit on a Diskus (tower A) or on tower B (tower D), or be enclosed by a Torus (tower C)." },
  { term: "Diskus", pattern: "\\bDiskus\\b", tip: "the medium disc: it can sit on a lone Torus (tower B) and carry a Globus (tower A)." },
  { term: "Torus", pattern: "\\bTorus\\b", tip: "the large ring: it can carry a Diskus (tower B) or drop around a lone Globus (tower C)." },
  { term: "stack", tip: "Muglus on one field (towers A–D). The top piece controls the field: its owner may move it and scores it." },
  { term: "straight line", tip: "one of the six directions across a hex side, any distance; over Muglus, never over melted fields." },
  { term: "melt", pattern: "\\bmelt(?:s|ed)?\\b", tip: "remove an empty field at the edge of the ice (the ice must stay in one piece): 1 point. Due every turn once all your Muglus are placed." },
  { term: "opening round", tip: "rounds 1 and 2: only placing (round 1 next to any Muglu, round 2 next to your own)." },
  { term: "tied groups", tip: "a colour's largest groups of Muglus are equally big: the mover chooses which one stays; the others are removed and the mover takes them." },
  { term: "supply", tip: "your Muglus not placed yet." },
  { term: "turn limit", tip: "the table's limit on turns (option max_turns): when it is reached every game ends and the board is scored." },
  { term: "end your game", tip: "you take no more turns; your Muglus stay on the board and still score (unless the table removes them)." },
];
