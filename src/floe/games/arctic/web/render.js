// The Arctic board, drawn from one observation dict (docs/observation.md) and nothing else, so it shows
// exactly what that seat may know. The table page and the replay page both use it (through board.js).
//
// Every object a move can involve carries a `data-obj` key; board.js routes the legal choices onto them:
//   hand:<card>   a card in your hand          river:<card>  a river card
//   penalty:<card> one of your penalty cards   deck          the draw pile
//   seat:<n>      a player (Polar bear gifts)
import { cardBack, cardFace } from "./cards.js";
import { h, replaceChildren } from "/static/js/dom.js";
import { seatLabel } from "/static/js/words.js";
import { ANIMALS, ANIMAL_COLOURS, ANIMAL_NAMES, animalIcon, pawIcon } from "./icons.js";
import { powerTip } from "./powerhelp.js";
import { counted, powerEffect, powerName } from "./words.js";
import { t, tc } from "/static/js/i18n.js";

/**
 * Render `view` into `root`. Options:
 *   summary  the table summary (seat names, bot/person, connected/away flags), optional
 *   reveal   every seat's own observation (replay "reveal" once finished), or null
 *   live     false in the replay: the seats' connection flags are left out
 */
export function render(root, view, { summary = null, reveal = null, live = true } = {}) {
  const me = view.seat === undefined ? null : view.seat;
  const mine = me === null ? null : view.players_view[me];
  replaceChildren(
    root,
    mine ? myArea(view, mine) : null,
    landscape(view, mine),
    riverZone(view),
    powersZone(view, summary, me),
    playersZone(view, summary, me, reveal, live),
  );
}

function zone(title, cls, ...children) {
  return h("section", { class: `zone ${cls}` }, h("h2", { class: "zone-title" }, title), ...children);
}

function myArea(view, mine) {
  const hand = mine.hand || [];
  const penalties = mine.penalties;
  return zone(
    t("Your hand (%(n)s)", { n: hand.length }),
    "zone-mine",
    h(
      "div",
      { class: "cards hand", "data-testid": `hand-${view.seat}`, role: "group", "aria-label": t("Your hand (%(n)s)", { n: hand.length }) },
      hand.length ? hand.map((c) => cardFace(c, { obj: `hand:${c}`, place: "hand" })) : h("p", { class: "muted" }, t("empty")),
    ),
    h(
      "div",
      { class: "mine-extra" },
      mine.totem
        ? h(
            "div",
            { class: "totem-line", "data-testid": "my-totem" },
            t("Your totem: "),
            animalIcon(mine.totem, { size: 22 }),
            " " + t("%(animal)s (now worth %(n)s)", { animal: ANIMAL_NAMES[mine.totem], n: view.landscape[view.tokens[mine.totem]] }),
          )
        : null,
      penaltyBlock(penalties, mine.penalty_count, { own: true }),
    ),
  );
}

function penaltyBlock(cards, count, { own = false, testid = null } = {}) {
  if (cards && count) {
    // The cards the owner has seen face up; the rest lie face down until a Polar bear power's look.
    const unseen = Array.from({ length: Math.max(0, count - cards.length) }, () =>
      cardBack({ size: "sm", label: t("face-down penalty card (a Polar bear power lets you look)") }),
    );
    return h(
      "div",
      { class: "penalties", "data-testid": testid },
      h("span", { class: "label" }, (own ? t("Your penalty cards (%(n)s, −1 each):", { n: count }) : t("Penalty cards (%(n)s, −1 each):", { n: count })) + " "),
      h(
        "div",
        { class: "cards" },
        cards.map((c) => cardFace(c, { size: "sm", obj: own ? `penalty:${c}` : null, place: "penalty" })),
        unseen,
      ),
    );
  }
  return h("div", { class: "penalties" }, own ? t("Your penalty cards: %(n)s", { n: count }) : t("Penalty cards: %(n)s", { n: count }));
}

function landscape(view, mine) {
  const byPos = view.landscape.map(() => []);
  for (const animal of ANIMALS) byPos[view.tokens[animal]].push(animal);
  const cols = view.landscape.map((value, pos) =>
    h(
      "div",
      {
        class: `land land-${pos}`,
        dataset: { pos },
        // Each space a named group of its tokens, so a reader hears where every token stands.
        role: "group",
        "aria-label": t("space %(n)s of %(all)s, worth %(value)s", { n: pos + 1, all: view.landscape.length, value }),
      },
      h("div", { class: "land-value", "aria-hidden": "true" }, value),
      h(
        "div",
        { class: "land-tokens" },
        byPos[pos].map((animal) =>
          h(
            "span",
            {
              class: `token${mine && mine.totem === animal ? " token-totem" : ""}`,
              style: { "--c": ANIMAL_COLOURS[animal] },
              dataset: { animal, key: `token:${animal}`, look: String(pos) },
              "data-testid": `token-${animal}`,
              title: tokenWords(animal, value, mine && mine.totem === animal),
              role: "img",
              "aria-label": tokenWords(animal, value, mine && mine.totem === animal),
            },
            animalIcon(animal, { size: 26 }),
          ),
        ),
      ),
    ),
  );
  return zone(t("Landscape"), "zone-landscape", h("div", { class: "landscape", "data-testid": "landscape" }, cols));
}

/** The name of an animal's token where it stands (its tip too). */
function tokenWords(animal, value, totem) {
  return capital(
    totem
      ? t("%(animal)s token on %(n)s (your totem)", { animal: tc("token", animal), n: value })
      : t("%(animal)s token on %(n)s", { animal: tc("token", animal), n: value }),
  );
}

function riverZone(view) {
  const river = view.river || [];
  return zone(
    t("River"),
    "zone-river",
    h(
      "div",
      { class: "river-row" },
      h(
        "div",
        { class: "cards river", "data-testid": "river" },
        river.length ? river.map((c) => cardFace(c, { obj: `river:${c}`, place: "river" })) : h("p", { class: "muted" }, t("empty")),
      ),
      h(
        "div",
        { class: "stock" },
        h(
          "div",
          { class: "stock-item" },
          cardBack({ label: t("deck: %(cards)s", { cards: counted(view.deck_count, "card", "cards") }), obj: "deck", testid: "deck" }),
          h("span", { class: "stock-label" }, t("deck %(n)s", { n: view.deck_count })),
        ),
        h("div", { class: "stock-item" }, h("span", { class: "stock-label" }, t("reserve %(n)s", { n: view.reserve_count }))),
      ),
    ),
  );
}

function powersZone(view, summary, me) {
  const cards = ANIMALS.map((animal) => {
    const p = (view.powers || {})[animal] || {};
    const holder = p.holder === null || p.holder === undefined ? null : p.holder;
    return h(
      "div",
      {
        class: `power${holder === me && me !== null ? " power-mine" : ""}`,
        style: { "--c": ANIMAL_COLOURS[animal] },
        dataset: {
          animal,
          power: p.power || "",
          tip: `${ANIMAL_NAMES[animal]}: ${powerTip(p.power)}`,
          key: `power:${animal}`,
          look: String(holder),
        },
        "data-testid": `power-${animal}`,
      },
      h("div", { class: "power-head" }, animalIcon(animal, { size: 22 }), h("strong", {}, ANIMAL_NAMES[animal])),
      h("div", { class: "power-name" }, powerName(p.power)),
      h("div", { class: "power-effect" }, powerEffect(p.power)),
      h(
        "div",
        { class: "power-holder" },
        holder === null ? t("in the centre") : t("held by %(seat)s", { seat: seatLabel(holder, summary, me) }),
      ),
    );
  });
  return zone(t("Power cards"), "zone-powers", h("div", { class: "powers" }, cards));
}

function playersZone(view, summary, me, reveal, live) {
  const panels = view.players_view.map((pv) => playerPanel(view, pv, summary, me, reveal, live));
  return zone(t("Players"), "zone-players", h("div", { class: "players" }, panels));
}

function playerPanel(view, pv, summary, me, reveal, live) {
  const q = pv.seat;
  const info = summary && summary.seats ? summary.seats.find((s) => s.seat === q) : null;
  const toAct = view.current_player === q;
  // With "reveal" (replay, game over) the seat's own view knows its hand, penalties and face-down cards.
  const own = reveal && reveal[q] ? reveal[q].players_view[q] : null;
  const pile = own ? own.pile : pv.pile;
  const flags = [];
  if (info) {
    flags.push(h("span", { class: `badge badge-${info.kind}` }, info.kind === "bot" ? t("bot") : t("person")));
    // Connection flags describe the table now, so a replay (live = false) leaves them out.
    if (live && info.kind === "person") {
      if (!info.claimed) flags.push(h("span", { class: "badge badge-off" }, t("seat free")));
      else if (!info.connected) flags.push(h("span", { class: "badge badge-off" }, t("offline")));
    }
    if (live && info.away) flags.push(h("span", { class: "badge badge-away" }, t("away: bot plays")));
  }
  return h(
    "article",
    {
      class: `player${toAct ? " player-to-act" : ""}${q === me ? " player-me" : ""}`,
      dataset: { seat: q },
      "data-testid": `player-${q}`,
    },
    h(
      "header",
      { class: "player-head", dataset: { obj: `seat:${q}` } },
      toAct ? h("span", { class: "turn-mark", title: t("to move"), role: "img", "aria-label": t("to move") }, "▶") : null,
      h("strong", { class: "player-name" }, seatLabel(q, summary, me)),
      view.first_player === q
        ? h("span", { class: "first-mark", title: t("first player"), role: "img", "aria-label": t("first player") }, pawIcon({ size: 16 }))
        : null,
      ...flags,
    ),
    h(
      "div",
      { class: "player-stats" },
      h("span", {}, t("hand %(n)s", { n: pv.hand_count })),
      h("span", {}, t("penalties %(n)s", { n: pv.penalty_count })),
      h("span", {}, t("pile %(n)s", { n: pile.length })),
      h("span", {}, t("turns %(n)s", { n: pv.turns })),
    ),
    pv.powers && pv.powers.length
      ? h(
          "div",
          { class: "held-powers" },
          pv.powers.map((slug) => {
            const animal = slug.split("-")[0];
            return h(
              "span",
              { class: "chip", style: { "--c": ANIMAL_COLOURS[animal] }, dataset: { tip: powerTip(slug) } },
              animalIcon(animal, { size: 14 }),
              ` ${powerName(slug)}`,
            );
          }),
        )
      : null,
    pv.totem
      ? h(
          "div",
          { class: "totem-line", "data-testid": `totem-${q}` },
          t("Totem: "),
          animalIcon(pv.totem, { size: 18 }),
          ` ${ANIMAL_NAMES[pv.totem]}`,
        )
      : null,
    pileRow(pile, q),
    own && q !== me && own.hand
      ? h(
          "div",
          { class: "revealed" },
          h("span", { class: "label" }, t("Hand (%(n)s):", { n: own.hand.length }) + " "),
          h(
            "div",
            { class: "cards", "data-testid": `hand-${q}` },
            own.hand.map((c) => cardFace(c, { size: "sm", place: `hand:${q}` })),
          ),
        )
      : null,
    own && q !== me && own.penalties
      ? penaltyBlock(own.penalties, own.penalty_count, { testid: `penalties-${q}` })
      : null,
    q !== me && pv.known_hand && pv.known_hand.length && !own
      ? h(
          "div",
          { class: "known" },
          h(
            "span",
            { class: "label", title: t("cards seen entering this hand and not seen leaving it") },
            t("Seen in hand: "),
          ),
          h("div", { class: "cards" }, pv.known_hand.map((c) => cardFace(c, { size: "sm", place: `known:${q}` }))),
        )
      : null,
  );
}

function pileRow(pile, q) {
  if (!pile.length) return h("div", { class: "pile pile-empty muted", "data-testid": `pile-${q}` }, t("pile empty"));
  const last = pile.length - 1;
  return h(
    "div",
    { class: "pile cards", "data-testid": `pile-${q}`, title: t("pile, bottom to top"), role: "group", "aria-label": t("pile, bottom to top") },
    pile.map((entry, i) => {
      let el;
      if (entry.hidden) el = cardBack({ size: "sm", label: t("covered card (piles are not public)") });
      else if (entry.face_down && entry.card) el = cardFace(entry.card, { size: "sm", faceDown: true, place: `pile:${q}` });
      else if (entry.face_down) el = cardBack({ size: "sm", label: t("face-down card") });
      else el = cardFace(entry.card, { size: "sm", place: `pile:${q}` });
      if (i === last && !entry.face_down && !entry.hidden) el.classList.add("card-visible");
      return el;
    }),
  );
}

/** `text` with a capital first letter (a tip that starts with an animal's name: "Fox token on 3"). */
function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
