// How to play Arctic: the "How to play" panel and the terms of the prompts (the interface is described in
// docs/server.md, "Help modules"). Written from shared/rules/arctic.md and the engine's decisions
// (docs/arctic-rules.md); the worked example's figures are recomputed by the scoring code in
// tests/games/arctic/test_help.py.
import { ANIMAL_NAMES } from "./icons.js";
import { POWER_HELP, POWER_ORDER, STEP_WORDS } from "./powerhelp.js";
import { powerName } from "./words.js";

export const title = "How to play Arctic";

// The rulebook's scoring example (spec 8.5): the pile bottom to top, the totem and the penalties, and the
// figures the text states. Plain JSON between the markers: the test reads it from this file.
export const EXAMPLE = /* example */ {
  "pile": ["walrus", "puffin", "puffin", "puffin", "orca", "orca", "bear", "bear", "bear", "bear", "bear", "bear",
    "fox", "orca", "orca", "orca", "orca", "orca", "puffin", "puffin", "moose", "moose", "moose", "moose"],
  "totem": "fox",
  "totem_value": 10,
  "penalties": 4,
  "runs": {"fox": 1, "moose": 4, "walrus": 1, "orca": 5, "puffin": 3, "bear": 6},
  "run_points": {"fox": 0, "moose": 6, "walrus": 0, "orca": 10, "puffin": 3, "bear": 15},
  "bonus": 6,
  "total": 46,
  "wildcard": {"pile": ["fox", "fox", "face-down", "moose", "moose", "moose"], "joins": "moose",
    "runs": {"fox": 2, "moose": 4}, "run_points": {"fox": 1, "moose": 6}, "bonus": 1, "runs_and_bonus": 8}
} /* /example */;

const RUN_TABLE = [[0, 0], [1, 0], [2, 1], [3, 3], [4, 6], [5, 10], [6, 15]];

function animal(a) {
  return a === "face-down" ? "face-down" : ANIMAL_NAMES[a];
}

/** The pile as groups of equal animals, bottom to top: [[animal, count], ...]. */
function groups(pile) {
  const out = [];
  for (const a of pile) {
    if (out.length && out[out.length - 1][0] === a) out[out.length - 1][1] += 1;
    else out.push([a, 1]);
  }
  return out;
}

function exampleHtml() {
  const e = EXAMPLE;
  const counted = Object.entries(e.run_points).filter(([, p]) => p > 0);
  const rows = groups(e.pile)
    .map(([a, n]) => {
      const longest = e.runs[a] === n && n >= 2;
      const why = n < 2 ? "a single card: nothing" : longest ? `${animal(a)}'s longest run: ${e.run_points[a]}` : `not ${animal(a)}'s longest run: nothing`;
      return `<tr><td>${animal(a)} × ${n}</td><td>${why}</td></tr>`;
    })
    .join("");
  const runSum = counted.reduce((s, [, p]) => s + p, 0);
  const w = e.wildcard;
  return `
    <p>The rulebook's example: a pile of ${e.pile.length} cards, bottom to top; the totem is the
    ${animal(e.totem)}, whose token ends on the card worth ${e.totem_value}; ${e.penalties} penalty cards.</p>
    <table><tr><th>cards</th><th>points</th></tr>${rows}</table>
    <p>Runs: ${counted.map(([, p]) => p).join(" + ")} = ${runSum}. ${counted.length} animals score a run, so the
    bonus is ${e.bonus}. Totem +${e.totem_value}, penalties −${e.penalties}.</p>
    <p class="example-total" data-testid="example-total">Total: ${runSum} + ${e.bonus} + ${e.totem_value} − ${e.penalties} = ${e.total}</p>
    <p>With a face-down card: ${w.pile.map(animal).join(", ")} scores ${w.runs_and_bonus} for runs and bonus:
    the face-down card counts as a ${animal(w.joins)}, so ${Object.entries(w.runs)
      .map(([a, n]) => `${animal(a)} ${n} cards ${w.run_points[a]}`)
      .join(", ")}, bonus ${w.bonus}.</p>`;
}

function powersHtml() {
  const rows = POWER_ORDER.flatMap(([a, sides]) =>
    sides.map((slug) => {
      const [step, effect] = POWER_HELP[slug];
      const when = step === "A" ? "from the turn after you take it" : "in the turn you take it";
      return `<tr data-power="${slug}"><td><strong>${ANIMAL_NAMES[a]}: ${powerName(slug)}</strong><br>
        <span class="muted small">${STEP_WORDS[step]}, ${when}</span></td><td>${effect}</td></tr>`;
    }),
  ).join("");
  return `
    <p>Each animal has one power card with two sides; one side per animal is in play (drawn at random unless the
    table fixed it; the board shows which). At the end of step A you take the power card of your visible card's
    main animal, from the middle or from whoever holds it, and keep it until someone else takes it. Who holds
    which card is public. Every power is optional; each is used at most once a turn, except that the Orca and
    Polar bear draw powers work for any number of your draws.</p>
    <table class="powers-table">${rows}</table>
    <p class="small muted">The Walrus under the table option walrus_mode=double_move: the token may move one more
    step the way it just moved.</p>`;
}

export const sections = [
  {
    id: "goal",
    title: "Goal",
    html: `
      <p>Build a pile of cards with long runs of the same animal, move your secret totem animal towards the pack
      ice (the landscape card worth 15), and collect few penalty cards. The highest score wins.</p>
      <p>Each card shows its main animal (big), its companion (small), its placement value (top left) and its
      draw value (bottom right); the two values always add up to 6.</p>`,
  },
  {
    id: "turn",
    title: "Your turn",
    html: `
      <p>Play goes round the table from the first player. A turn has three steps:</p>
      <ol>
        <li><strong>A, place cards.</strong> Place as many cards from your hand on top of your pile as your
        visible card's placement value (1 if you have no visible card), one at a time, in any order. If your
        hand runs out first, the missing cards are drawn from the deck face-down into your penalty zone. Then
        take the power card of your visible card's main animal.</li>
        <li><strong>B, move tokens.</strong> Your visible card's main animal token moves one step forward and
        its companion's one step back, or the other way round: you choose. A token on an edge (0 or 15) must
        move towards the middle; then the other token moves the opposite way (if both are on edges, both move
        towards the middle).</li>
        <li><strong>C, draw cards.</strong> Draw as many cards from the river as your visible card's draw value,
        one at a time. The river is then refilled to 6. If you hold more than 7 cards, discard down to 7 into
        your penalty zone.</li>
      </ol>`,
  },
  { id: "powers", title: "Powers", html: powersHtml() },
  {
    id: "end",
    title: "End of the game",
    html: `
      <p>When the last card of the deck is drawn, the reserve becomes the deck and the round is played to its end
      (up to the player before the first player). Then comes the final round: one more turn each, from the first
      player, with steps A and B only (no drawing, so no step C powers). Then the game is scored.</p>`,
  },
  {
    id: "scoring",
    title: "Scoring",
    html: `
      <p>A run is a block of consecutive cards of the same main animal in your pile. For each animal only its
      longest run counts, and only from 2 cards on:</p>
      <table><tr><th>run of</th>${RUN_TABLE.map(([n]) => `<td>${n === 6 ? "6+" : n}</td>`).join("")}</tr>
      <tr><th>points</th>${RUN_TABLE.map(([, p]) => `<td>${p}</td>`).join("")}</tr></table>
      <p>Bonus: the same table again for the number of animals that scored a run. Totem: the value of the
      landscape card under your totem animal's token (0, 1, 3, 6, 10 or 15). Penalties: −1 per card in your
      penalty zone (cards in hand cost nothing). A face-down card (Fox power) counts as the animal that scores you
      most (with the bga preset, only as the run just below or above it). Equal scores: the player earlier in
      turn order from the first player ranks higher.</p>`,
  },
  { id: "example", title: "Worked example", html: exampleHtml() },
];

export const terms = [
  { term: "placement value", tip: "the number at a card's top left (1–5). While the card is your visible card, you place that many cards at the start of your next turn; with no visible card it is 1." },
  { term: "draw value", tip: "the number at a card's bottom right (6 − its placement value): how many cards you draw in step C while the card is your visible card." },
  { term: "visible card", tip: "the top card of your pile, if it is face-up. It sets your placement and draw values, its main animal and companion move in step B, and you take its main animal's power card." },
  { term: "main animal", tip: "the big animal of a card: it is what scores in runs, and its power card is the one you take." },
  { term: "companion", tip: "the small animal of a card: in step B its token moves the opposite way to the main animal's." },
  { term: "forward", tip: "towards the pack ice: to the right, towards the landscape card worth 15." },
  { term: "back", pattern: "(?<=(?:token|step) )back\\b", tip: "away from the pack ice: to the left, towards the landscape card worth 0." },
  { term: "river", tip: "the row of 6 face-up cards you draw from in step C; refilled to 6 after each turn." },
  { term: "penalty zone", pattern: "\\bpenalty (?:zone|cards?)\\b", tip: "your face-down penalty cards: −1 point each at the end." },
  { term: "pile", pattern: "\\bpiles?\\b", tip: "the cards you have placed, bottom to top. Its runs of the same animal score at the end." },
  { term: "totem", tip: "your secret animal: at the end you score the value of the landscape card its token stands on." },
  { term: "power card", tip: "one per animal, on one of its two sides. You take the one of your visible card's main animal at the end of step A." },
  { term: "final round", tip: "after the deck ran out: one more turn each, steps A and B only." },
];
