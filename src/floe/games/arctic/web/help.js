// How to play Arctic: the "How to play" panel and the terms of the prompts (the interface is described in
// docs/server.md, "Help modules"). Written from docs/arctic-rules.md and the engine's decisions
// (docs/arctic-rules.md); the worked example's figures are recomputed by the scoring code in
// tests/games/arctic/test_help.py.
import { ANIMAL_NAMES } from "./icons.js";
import { POWER_HELP, POWER_ORDER, STEP_WORDS } from "./powerhelp.js";
import { powerName } from "./words.js";
import { lang, t } from "/static/js/i18n.js";

// The rulebook's scoring example (docs/arctic-rules.md §8.5): the pile bottom to top, the totem and the penalties, and the
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

const p = (text, cls = "") => `<p${cls ? ` class="${cls}"` : ""}>${text}</p>`;

function animal(a) {
  return a === "face-down" ? t("face-down") : ANIMAL_NAMES[a];
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
  const counted = Object.entries(e.run_points).filter(([, pts]) => pts > 0);
  const rows = groups(e.pile)
    .map(([a, n]) => {
      const longest = e.runs[a] === n && n >= 2;
      const why =
        n < 2
          ? t("a single card: nothing")
          : longest
            ? t("%(animal)s's longest run: %(n)s", { animal: animal(a), n: e.run_points[a] })
            : t("not %(animal)s's longest run: nothing", { animal: animal(a) });
      return `<tr><td>${animal(a)} × ${n}</td><td>${why}</td></tr>`;
    })
    .join("");
  const runSum = counted.reduce((sum, [, pts]) => sum + pts, 0);
  const w = e.wildcard;
  const intro = t(
    "The rulebook's example: a pile of %(n)s cards, bottom to top; the totem is the %(totem)s, whose token " +
      "ends on the card worth %(value)s; %(penalties)s penalty cards.",
    { n: e.pile.length, totem: animal(e.totem), value: e.totem_value, penalties: e.penalties },
  );
  const runs = t("Runs: %(sum)s = %(total)s. %(n)s animals score a run, so the bonus is %(bonus)s. Totem +%(totem)s, penalties −%(penalties)s.", {
    sum: counted.map(([, pts]) => pts).join(" + "),
    total: runSum,
    n: counted.length,
    bonus: e.bonus,
    totem: e.totem_value,
    penalties: e.penalties,
  });
  const total = t("Total: %(sum)s", { sum: `${runSum} + ${e.bonus} + ${e.totem_value} − ${e.penalties} = ${e.total}` });
  const parts = Object.entries(w.runs)
    .map(([a, n]) => t("%(animal)s %(n)s cards %(points)s", { animal: animal(a), n, points: w.run_points[a] }))
    .join(", ");
  const wildcard = t(
    "With a face-down card: %(pile)s scores %(points)s for runs and bonus: the face-down card counts as a " +
      "%(animal)s, so %(parts)s, bonus %(bonus)s.",
    { pile: w.pile.map(animal).join(", "), points: w.runs_and_bonus, animal: animal(w.joins), parts, bonus: w.bonus },
  );
  const head = `<tr><th>${t("cards")}</th><th>${t("points")}</th></tr>`;
  return (
    p(intro) +
    `<table>${head}${rows}</table>` +
    p(runs) +
    `<p class="example-total" data-testid="example-total">${total}</p>` +
    p(wildcard)
  );
}

function powersHtml() {
  const rows = POWER_ORDER.flatMap(([a, sides]) =>
    sides.map((slug) => {
      const [step, effect] = POWER_HELP[slug];
      const when = step === "A" ? t("from the turn after you take it") : t("in the turn you take it");
      return `<tr data-power="${slug}"><td><strong>${ANIMAL_NAMES[a]}: ${powerName(slug)}</strong><br>
        <span class="muted small">${t(STEP_WORDS[step])}, ${when}</span></td><td>${t(effect)}</td></tr>`;
    }),
  ).join("");
  return (
    p(
      t(
        "Each animal has one power card with two sides; one side per animal is in play (drawn at random unless " +
          "the table fixed it; the board shows which). At the end of step A you take the power card of your " +
          "visible card's main animal, from the middle or from whoever holds it, and keep it until someone " +
          "else takes it. Who holds which card is public. Every power is optional; each is used at most once " +
          "a turn, except that the Orca and Polar bear draw powers work for any number of your draws.",
      ),
    ) +
    `<table class="powers-table">${rows}</table>` +
    p(
      t(
        "The Walrus under the table option walrus_mode=double_move: the token may move one more step the " +
          "way it just moved.",
      ),
      "small muted",
    )
  );
}

function turnHtml() {
  const item = (head, text) => `<li><strong>${head}</strong> ${text}</li>`;
  return (
    p(t("Play goes round the table from the first player. A turn has three steps:")) +
    "<ol>" +
    item(
      t("A, place cards."),
      t(
        "Place as many cards from your hand on top of your pile as your visible card's placement value (1 if " +
          "you have no visible card), one at a time, in any order. If your hand runs out first, the missing " +
          "cards are drawn from the deck face-down into your penalty zone. Then take the power card of your " +
          "visible card's main animal.",
      ),
    ) +
    item(
      t("B, move tokens."),
      t(
        "Your visible card's main animal token moves one step forward and its companion's one step back, or " +
          "the other way round: you choose. A token on an edge (0 or 15) must move towards the middle; then " +
          "the other token moves the opposite way (if both are on edges, both move towards the middle).",
      ),
    ) +
    item(
      t("C, draw cards."),
      t(
        "Draw as many cards from the river as your visible card's draw value, one at a time. The river is " +
          "then refilled to 6. If you hold more than 7 cards, discard down to 7 into your penalty zone.",
      ),
    ) +
    "</ol>"
  );
}

function scoringHtml() {
  const runOf = RUN_TABLE.map(([n]) => `<td>${n === 6 ? "6+" : n}</td>`).join("");
  const points = RUN_TABLE.map(([, pts]) => `<td>${pts}</td>`).join("");
  return (
    p(
      t(
        "A run is a block of consecutive cards of the same main animal in your pile. For each animal only its " +
          "longest run counts, and only from 2 cards on:",
      ),
    ) +
    `<table><tr><th>${t("run of")}</th>${runOf}</tr><tr><th>${t("points")}</th>${points}</tr></table>` +
    p(
      t(
        "Bonus: the same table again for the number of animals that scored a run. Totem: the value of the " +
          "landscape card under your totem animal's token (0, 1, 3, 6, 10 or 15). Penalties: −1 per card in " +
          "your penalty zone (cards in hand cost nothing). A face-down card (Fox power) counts as the animal " +
          "that scores you most (with the bga preset, only as the run just below or above it). Equal scores: " +
          "the player earlier in turn order from the first player ranks higher.",
      ),
    )
  );
}

export const title = t("How to play Arctic");

export const sections = [
  {
    id: "goal",
    title: t("Goal"),
    html:
      p(
        t(
          "Build a pile of cards with long runs of the same animal, move your secret totem animal towards the " +
            "pack ice (the landscape card worth 15), and collect few penalty cards. The highest score wins.",
        ),
      ) +
      p(
        t(
          "Each card shows its main animal (big), its companion (small), its placement value (top left) and " +
            "its draw value (bottom right); the two values always add up to 6.",
        ),
      ),
  },
  { id: "turn", title: t("Your turn"), html: turnHtml() },
  { id: "powers", title: t("Powers"), html: powersHtml() },
  {
    id: "end",
    title: t("End of the game"),
    html: p(
      t(
        "When the last card of the deck is drawn, the reserve becomes the deck and the round is played to its " +
          "end (up to the player before the first player). Then comes the final round: one more turn each, " +
          "from the first player, with steps A and B only (no drawing, so no step C powers). Then the game is " +
          "scored.",
      ),
    ),
  },
  { id: "scoring", title: t("Scoring"), html: scoringHtml() },
  { id: "example", title: t("Worked example"), html: exampleHtml() },
];

// The terms of the prompts, in the page's language; an English-only `pattern` (a look-behind, a plural)
// applies to English alone, other languages match the term itself.
const english = lang === "en";
const term = (word, tip, pattern = null) => ({ term: word, tip, ...(english && pattern ? { pattern } : {}) });

export const terms = [
  term(t("placement value"), t("the number at a card's top left (1–5). While the card is your visible card, you place that many cards at the start of your next turn; with no visible card it is 1.")),
  term(t("draw value"), t("the number at a card's bottom right (6 − its placement value): how many cards you draw in step C while the card is your visible card.")),
  term(t("visible card"), t("the top card of your pile, if it is face-up. It sets your placement and draw values, its main animal and companion move in step B, and you take its main animal's power card.")),
  term(t("main animal"), t("the big animal of a card: it is what scores in runs, and its power card is the one you take.")),
  term(t("companion"), t("the small animal of a card: in step B its token moves the opposite way to the main animal's.")),
  term(t("forward"), t("towards the pack ice: to the right, towards the landscape card worth 15.")),
  term(t("back"), t("away from the pack ice: to the left, towards the landscape card worth 0."), "(?<=(?:token|step) )back\\b"),
  term(t("river"), t("the row of 6 face-up cards you draw from in step C; refilled to 6 after each turn.")),
  term(t("penalty zone"), t("your face-down penalty cards: −1 point each at the end."), "\\bpenalty (?:zone|cards?)\\b"),
  term(t("pile"), t("the cards you have placed, bottom to top. Its runs of the same animal score at the end."), "\\bpiles?\\b"),
  term(t("totem"), t("your secret animal: at the end you score the value of the landscape card its token stands on.")),
  term(t("power card"), t("one per animal, on one of its two sides. You take the one of your visible card's main animal at the end of step A.")),
  term(t("final round"), t("after the deck ran out: one more turn each, steps A and B only.")),
];
