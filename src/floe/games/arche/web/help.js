// How to play Arche Opti Mix: the "How to play" panel and the terms of the prompts (the interface is
// described in docs/server.md, "Help modules"). Written from docs/arche-rules.md and the engine's
// decisions (docs/arche-rules.md, defaults of every option); the worked example's figures are recomputed by
// the scoring code in tests/games/arche/test_help.py. Every text is in the page's language (the game's
// catalog is loaded before this module).
import { N, lang, t } from "/static/js/i18n.js";
import { CATEGORY_NAMES } from "./icons.js";

export const title = t("How to play Arche Opti Mix");

// A final scoring of 3 players: each player's strength on each scoring card (figures; a figure with a chip
// under it counts 1.5), the points each gets there, the chips left and the totals. Plain JSON between the
// markers: the test reads it from this file.
export const EXAMPLE = /* example */ {
  "strengths": {"heavy": [3, 3, 1], "useful": [2, 1.5, 1], "shy": [1, 0, 1], "slow": [0, 2, 0], "provisions": [1, 1, 1]},
  "points": {"heavy": [8, 8, 2], "useful": [10, 6, 2], "shy": [8, 0, 8], "slow": [0, 10, 0], "provisions": [6, 6, 6]},
  "chips": [2, 0, 1],
  "totals": [34, 30, 19]
} /* /example */;

const p = (text) => `<p>${text}</p>`;
const li = (text) => `<li>${text}</li>`;
const strong = (word) => `<strong>${word}</strong>`;

function exampleHtml() {
  const e = EXAMPLE;
  const seats = e.chips.map((_, q) => `P${q + 1}`);
  const head = `<tr><th>${t("scoring card")}</th>${seats.map((s) => `<th>${s}</th>`).join("")}</tr>`;
  const figures = (value, points) => t("%(figures)s fig. → %(points)s", { figures: value, points });
  const rows = Object.keys(e.strengths)
    .map((cat) => `<tr><td>${t(CATEGORY_NAMES[cat])}</td>${e.strengths[cat].map((v, q) => `<td>${figures(v, e.points[cat][q])}</td>`).join("")}</tr>`)
    .join("");
  const chips = `<tr><td>${t("chips left")}</td>${e.chips.map((c) => `<td>${c}</td>`).join("")}</tr>`;
  const totalWord = t("total");
  const totals = `<tr class="example-total"><td>${totalWord}</td>${e.totals.map((v, q) => `<td data-testid="example-total-${q}">${v}</td>`).join("")}</tr>`;
  const intro = t("Three players at the end (1.5: a figure with a chip under it):");
  const after = t(
    "Heavy: P1 and P2 tie for first and share 10 + 6 (8 each); P3 is third: 2. Shy: P1 and P3 tie for first (8 each); P2 has no figure there: 0. Provisions: all three tie and share 10 + 6 + 2 (6 each).",
  );
  return `${p(intro)}<table>${head}${rows}${chips}${totals}</table>${p(after)}`;
}

function goalHtml() {
  // Static text, whatever the table's deck: the bar above the ark says which deck this table plays.
  const placeholder = `<em>${t("Without a deck file of its own, a table plays placeholder cards, not the printed ones; the bar above the ark says which deck is in play.")}</em>`;
  const goal = t(
    "Load animals and provisions into Noah's ark without tipping it, placing a scoring figure for each card you play on the scoring card of its category (heavy, useful, shy, slow, provisions). At the end the majorities on the scoring cards and your chips decide.",
  );
  const card = t(
    'A card shows its weight (0–4), its climate (hot, cold or any), its diet (herbivore, carnivore, omnivore, or none), its category, and a red "!" if it has a special ability.',
  );
  return p(`${goal} ${placeholder}`) + p(card);
}

function turnHtml() {
  // The bold words first: a marked call inside another's arguments is not extracted.
  const draw = strong(t("Draw"));
  const play = strong(t("Play 1 or 2 cards"));
  // Computed outside the template literal: only a call with plain string arguments is extracted there.
  const drawing = t("%(draw)s: take one of the 3 display cards and the deck's top card into your hand; the display is refilled.", {
    draw,
  });
  const playing = t(
    "%(play)s from your hand, each into a different cabin. A slow animal or a provisions card may only be played alone, as the first card. A card goes into a cabin with fewer than 3 cards, or opens a new cabin at the end of the left or the right row: you give 1 chip to the player on your right (no chips, no new cabin) and take one of the display cards into your hand.",
    { play },
  );
  return (
    p(t("Do one of:")) +
    `<ul>${li(drawing)}${li(playing)}</ul>` +
    p(
      t(
        "For every card you play, put one of your figures (17 each) on the scoring card of its category; a card without a category gives none.",
      ),
    )
  );
}

function arkHtml() {
  const scale = strong(t("Scale"));
  const cabin = strong(t("In one cabin"));
  const shy = strong(t("Shy animals"));
  return (
    p(t("%(scale)s: the left side's weight minus the right side's must stay between −2 and +2 after every single card.", { scale })) +
    p(t("%(cabin)s (at most 3 cards), every pair of cards must get along:", { cabin })) +
    `<ul>${li(t('climate: never hot with cold ("any" goes with everything);'))}${li(
      t("provisions never with a herbivore or an omnivore;"),
    )}${li(
      t(
        "a carnivore or omnivore never with another carnivore or omnivore, and every other animal in the cabin must be strictly heavier than it;",
      ),
    )}${li(t("a shy animal never with a carnivore or omnivore, even a lighter one."))}</ul>` +
    p(
      t(
        "%(shy)s may not be placed next to a cabin holding a carnivore: the cabins before and after in the same row and the one opposite. This is checked only when the shy animal is placed.",
        { shy },
      ),
    )
  );
}

// The special abilities: the card's name stays (card names are not translated), its effect in words.
const ABILITIES = [
  ["fox", "Fox", null, N("When played: take 2 chips from the bank (what it has left).")],
  [
    "hedgehog",
    "Hedgehog",
    N("immune"),
    N(
      "Carnivores and omnivores leave it alone: the predator rule is not checked between it and them, so it may share their cabin. Its own diet's limits towards other animals still apply.",
    ),
  ],
  ["tortoise", "Tortoise", N("immune"), N("The same as the Hedgehog.")],
  ["mosquito", "Mosquito", null, N("May evict an animal of weight 2 from the cabin it enters.")],
  ["skunk", "Skunk", null, N("May evict any animal from the cabin it enters.")],
  ["spider", "Spider", null, N("May evict a shy animal from the cabin it enters.")],
  ["bronto", "Brontosaurus", null, N("Counts 1.5: its figure on heavy gets a chip from the bank under it.")],
  [
    "chimp",
    "Chimpanzee",
    null,
    N(
      "After its own figure: put a chip from the bank under one of your figures on heavy, useful, shy or slow that has none; that figure counts 1.5.",
    ),
  ],
];

function abilitiesHtml() {
  const rows = ABILITIES.map(
    ([key, name, note, effect]) =>
      `<tr data-ability="${key}"><td>${strong(name)}${note ? ` (${t(note)})` : ""}</td><td>${t(effect)}</td></tr>`,
  ).join("");
  const evicting = strong(t("Evicting"));
  return (
    `<table class="powers-table">${rows}</table>` +
    p(
      t(
        "%(evicting)s: the evicter takes the evicted animal's place (so a full cabin will do) and must fit the cabin and the scale without it. The evicted card leaves the game; its figure stays. You also put a figure on the evicted animal's category (with the Bronto's chip, or the Chimpanzee's chip, if you evict one of those). Provisions, the Fox, the Spider and the Mosquito cannot be evicted. Evicting is optional.",
        { evicting },
      ),
    )
  );
}

export const sections = [
  { id: "goal", title: t("Goal"), html: goalHtml() },
  { id: "turn", title: t("Your turn"), html: turnHtml() },
  { id: "ark", title: t("The ark: scale and cabins"), html: arkHtml() },
  { id: "abilities", title: t("Special abilities (!)"), html: abilitiesHtml() },
  {
    id: "rain",
    title: t("Rain, pets and the end-game"),
    html: p(
      t(
        'Five rain cards are in the deck. A rain card that shows up is set aside and replaced. At the 2nd rain comes the pet round: everyone puts one animal of weight below 3 without "!" face down as their pet (if they have one); it scores a figure at the end. The 5th rain is not replaced: the end-game begins with the next player. In turn, each player either passes for good, or pays 1 chip to the bank and plays one animal (no slow animal, no provisions; a new cabin costs one more chip to the right-hand neighbour), round and round until everyone has passed.',
      ),
    ),
  },
  {
    id: "scoring",
    title: t("Scoring"),
    html: p(
      t(
        "Pets are revealed and get their figure. On each scoring card the players with figures there are ranked by figures (1.5 for one with a chip): most 10 points, second 6, every other player with a figure 2. Tied players share the points of the places they cover (two tied first: (10 + 6) / 2 = 8 each). Each chip you hold is 1 point. Highest total wins; a tie goes to fewer animal cards left in hand.",
      ),
    ),
  },
  { id: "example", title: t("Worked example"), html: exampleHtml() },
];

// The terms of the prompts, in the page's language; an English-only `pattern` (a verb's forms, a whole word)
// applies to English alone, other languages match the term itself.
const english = lang === "en";
const term = (word, tip, pattern = null) => ({ term: word, tip, ...(english && pattern ? { pattern } : {}) });

export const terms = [
  term(t("display"), t("the 3 face-up cards: drawing takes one of them (plus the deck's top card); opening a new cabin takes one too.")),
  term(t("cabin"), t("a place in the ark for up to 3 cards that get along (climate, diet, weight, shy).")),
  term(t("scale"), t("left side's weight minus the right side's: it must stay between −2 and +2 after every card.")),
  // "action chip": the catalog's "chip" is also a plural id ("chip"/"chips"), which a plain t() cannot read.
  term(
    t("action chip"),
    t("an action chip: 1 point at the end. Opening a cabin gives one to your right-hand neighbour; the end-game's plays cost one."),
    "\\bchips?\\b",
  ),
  term(t("figure"), t("your scoring marker: one goes on the scoring card of every card you play. 1.5 with a chip under it.")),
  term(t("scoring card"), t("one per category (heavy, useful, shy, slow, provisions): majorities of figures score 10 / 6 / 2.")),
  term(t("pet"), t("an animal of weight below 3 without ! put face down at the 2nd rain: it scores its figure at the end.")),
  term(t("end-game"), t("after the 5th rain: pass for good, or pay a chip and play one animal.")),
  term(
    t("evict"),
    t("the Mosquito, Skunk or Spider takes the place of an animal in the cabin it enters; that animal leaves the game."),
    "\\bevict(?:s|ing|ed)?\\b",
  ),
  term(t("slow"), t("a category (snail-like animals): like provisions, only played alone as the first card of a turn."), "\\bslow\\b"),
  term(t("provisions"), t("food, not an animal: never with a herbivore or omnivore; only played alone as the first card of a turn.")),
];
