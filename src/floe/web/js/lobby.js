// The lobby: create a table (game, seats, rules options, timer, public) and list public tables. Arctic has
// a rules preset and power sides; other games (Arktia) list their options in `/api/games` and get a generic
// form: a select per choice option, a number field per whole-number option.
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { ANIMALS, ANIMAL_NAMES } from "./icons.js";
import { POWER_WORDS, powerName } from "./words.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");
const seatCount = $("seat-count");
const seatRows = $("seat-rows");
const NAME_KEY = "floe-name";

// Bot strengths, weakest first; other specs the server offers follow them in its order.
const BOT_ORDER = [
  "random",
  "baseline",
  "greedy",
  "mcts:ms=200",
  "mcts:ms=500",
  "ismcts:ms=200",
  "ismcts:ms=500",
  "ismcts:ms=1000",
];
const BOT_WORDS = { random: "random (weakest)", baseline: "baseline", greedy: "greedy" };
const GAME_WORDS = { arctic: "Arctic (cards)", arktia: "Arktia (hex board)" };

/** "ismcts:ms=1000" → "ismcts, 1 s a move". */
function botLabel(spec) {
  if (BOT_WORDS[spec]) return BOT_WORDS[spec];
  const ms = /^(is)?mcts:ms=(\d+)$/.exec(spec);
  return ms ? `${ms[1] || ""}mcts, ${Number(ms[2]) / 1000} s a move` : spec;
}

let games = [];
let game = null;
let bots = [];

init();

async function init() {
  try {
    games = await api("/api/games");
  } catch (err) {
    $("create-error").textContent = `Cannot reach the server: ${err.message}`;
    return;
  }
  const picker = $("game");
  for (const g of games) picker.append(h("option", { value: g.name }, GAME_WORDS[g.name] || g.name));
  const wanted = new URLSearchParams(location.search).get("game");
  picker.value = games.some((g) => g.name === wanted) ? wanted : games.some((g) => g.name === "arctic") ? "arctic" : games[0].name;
  picker.addEventListener("change", () => setGame(picker.value));
  setGame(picker.value);
  $("join-name").value = localStorage.getItem(NAME_KEY) || "";
  seatCount.addEventListener("change", renderSeatRows);
  form.addEventListener("submit", createTable);
  refreshTables();
  setInterval(refreshTables, 4000);
}

/** Show the form for one game: player counts, bots, and its options (Arctic: preset and power sides). */
function setGame(name) {
  game = games.find((g) => g.name === name) || games[0];
  bots = botChoices(game.bots || []);
  const count = Number(seatCount.value) || game.min_players || 2;
  replaceChildren(seatCount);
  for (let n = game.min_players || 2; n <= (game.max_players || 4); n++) {
    seatCount.append(h("option", { value: n }, `${n} players`));
  }
  seatCount.value = String(Math.min(Math.max(count, game.min_players || 2), game.max_players || 4));
  const arctic = game.name === "arctic";
  $("preset-field").hidden = !arctic;
  $("power-fieldset").hidden = !arctic;
  replaceChildren($("preset"));
  if (arctic) {
    for (const preset of game.presets || ["rules"]) {
      $("preset").append(h("option", { value: preset }, presetWords(preset)));
    }
    renderPowerRows();
  } else {
    replaceChildren($("power-rows"));
  }
  renderOptionRows();
  // Seat rows are rebuilt: each game has its own bots.
  replaceChildren(seatRows);
  renderSeatRows();
}

/** One field per option the game lists (choice: a select; int: a number field, empty = the default). */
function renderOptionRows() {
  const options = game.options || [];
  $("options-fieldset").hidden = options.length === 0;
  replaceChildren(
    $("game-options"),
    options.map((opt) => {
      let input;
      if (opt.type === "int") {
        input = h("input", {
          type: "number",
          min: opt.min,
          max: opt.max,
          step: 1,
          placeholder: `${opt.default} (default)`,
          "data-testid": `opt-${opt.key}`,
          dataset: { key: opt.key, kind: "int" },
        });
      } else {
        input = h(
          "select",
          { "data-testid": `opt-${opt.key}`, dataset: { key: opt.key, kind: "choice" } },
          (opt.values || []).map((v) => h("option", { value: v.value }, v.text || v.value)),
        );
        input.value = String(opt.default);
      }
      input.classList.add("game-option");
      return h("label", { class: "field" }, opt.label || opt.key, input);
    }),
  );
}

/** The options the form sets, as the server reads them ("default" and empty fields are left out). */
function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll(".game-option")) {
    const key = input.dataset.key;
    const value = input.value.trim();
    if (!value || value === "default") continue;
    if (input.dataset.kind === "int") out[key] = Number(value);
    else if (value === "true" || value === "false") out[key] = value === "true";
    else out[key] = value;
  }
  return out;
}

/** The bot specs to offer: every bot the server names, with ismcts at two thinking times. */
function botChoices(names) {
  const out = [];
  for (const name of names) {
    if (name === "ismcts" && !names.some((n) => n.startsWith("ismcts:"))) out.push("ismcts:ms=200", "ismcts:ms=1000");
    else out.push(name);
  }
  const rank = (b) => (BOT_ORDER.includes(b) ? BOT_ORDER.indexOf(b) : BOT_ORDER.length);
  return [...new Set(out)].sort((a, b) => rank(a) - rank(b));
}

function presetWords(preset) {
  return { rules: "rulebook (default)", bga: "Board Game Arena compatible" }[preset] || preset;
}

function renderSeatRows() {
  const n = Number(seatCount.value);
  const old = [...seatRows.children].map(readSeatRow);
  const rows = [];
  for (let i = 0; i < n; i++) {
    // New rows: you in the first seat, bots elsewhere.
    const fresh =
      i === 0 ? { kind: "person", name: localStorage.getItem(NAME_KEY) || "" } : { kind: "bot", bot: defaultBot() };
    const prev = old[i] || fresh;
    rows.push(seatRow(i, prev));
  }
  replaceChildren(seatRows, rows);
}

function seatRow(i, prev) {
  const kind = h(
    "select",
    { class: "seat-kind", "data-testid": `seat-kind-${i}`, "aria-label": `seat ${i + 1}: person or bot` },
    h("option", { value: "person" }, "person"),
    h("option", { value: "bot" }, "bot"),
  );
  kind.value = prev.kind;
  const name = h("input", {
    class: "seat-name-input",
    "data-testid": `seat-name-${i}`,
    placeholder: `Player ${i + 1}`,
    maxlength: 40,
    "aria-label": `seat ${i + 1}: name`,
    value: prev.name || "",
  });
  const bot = h(
    "select",
    { class: "seat-bot", "data-testid": `seat-bot-${i}`, "aria-label": `seat ${i + 1}: bot strength` },
    bots.map((b) => h("option", { value: b }, botLabel(b))),
  );
  bot.value = prev.bot && bots.includes(prev.bot) ? prev.bot : defaultBot();
  const row = h("div", { class: "seat-row", dataset: { seat: i } }, h("span", { class: "seat-no" }, `P${i + 1}`));
  row.append(kind, name, bot);
  const sync = () => {
    name.hidden = kind.value !== "person";
    bot.hidden = kind.value !== "bot";
  };
  kind.addEventListener("change", sync);
  sync();
  return row;
}

/** A new bot seat: Arctic's baseline, else the first suggested bot stronger than random. */
function defaultBot() {
  if (bots.includes("baseline")) return "baseline";
  return bots.find((b) => b !== "random") || bots[0];
}

function readSeatRow(row) {
  return {
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name-input").value.trim(),
    bot: row.querySelector(".seat-bot").value,
  };
}

/** animal -> its two power slugs, from the server's `powers` in whatever shape it lists them. */
function powerSides() {
  const found = new Set();
  const walk = (x) => {
    if (typeof x === "string") {
      if (POWER_WORDS[x]) found.add(x);
    } else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) walk(k), walk(v);
  };
  walk(game.powers || {});
  const slugs = found.size ? [...found] : Object.keys(POWER_WORDS);
  const byAnimal = {};
  for (const animal of ANIMALS) byAnimal[animal] = slugs.filter((s) => s.startsWith(`${animal}-`)).sort();
  return byAnimal;
}

function renderPowerRows() {
  const sides = powerSides();
  replaceChildren(
    $("power-rows"),
    ANIMALS.map((animal) =>
      h(
        "label",
        {},
        ANIMAL_NAMES[animal],
        h(
          "select",
          { class: "power-side", dataset: { animal }, "data-testid": `power-side-${animal}` },
          h("option", { value: "" }, "random side"),
          sides[animal].map((slug) => h("option", { value: slug, title: POWER_WORDS[slug][1] }, powerName(slug))),
        ),
      ),
    ),
  );
}

async function createTable(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const seats = [...seatRows.children].map(readSeatRow).map((s, i) =>
    s.kind === "person" ? { kind: "person", name: s.name || `Player ${i + 1}` } : { kind: "bot", bot: s.bot },
  );
  const options = readOptions();
  if (game.name === "arctic") {
    options.preset = $("preset").value;
    const powers = [...document.querySelectorAll(".power-side")].map((s) => s.value).filter(Boolean);
    if (powers.length) options.powers = powers;
  }
  const timer = Number($("turn-timer").value);
  const body = { game: game.name, seats, options, turn_timer: timer > 0 ? timer : null, public: $("public").checked };
  const firstPerson = seats.find((s) => s.kind === "person");
  if (firstPerson) localStorage.setItem(NAME_KEY, firstPerson.name);
  try {
    const made = await api("/api/tables", { method: "POST", body });
    showCreated(made, seats);
    refreshTables();
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

function showCreated(made, seats) {
  const id = made.table.id;
  const links = made.seats || [];
  replaceChildren(
    $("links"),
    links.map((s) => {
      const url = new URL(s.link, location.origin).href;
      const input = h("input", {
        readonly: true,
        value: url,
        "data-testid": `link-${s.seat}`,
        "aria-label": `invitation link for P${s.seat + 1}`,
      });
      const copy = h("button", { type: "button", class: "secondary", "data-testid": `copy-${s.seat}` }, "Copy");
      copy.addEventListener("click", () => copyText(input, copy));
      const who = `P${s.seat + 1} ${seats[s.seat] ? seats[s.seat].name || "" : ""}${s === links[0] ? " (you)" : ""}`;
      return h("li", {}, h("strong", {}, who), input, copy);
    }),
  );
  const open = $("open-seat");
  open.hidden = !links.length;
  open.onclick = () => (location.href = links[0].link);
  $("watch-created").href = `/table/${encodeURIComponent(id)}`;
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "nearest" });
}

async function copyText(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // No clipboard API (plain http on another host): select the text and use the old command.
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

async function refreshTables() {
  let tables;
  try {
    tables = await api("/api/tables");
    $("list-error").textContent = "";
  } catch (err) {
    $("list-error").textContent = `Cannot load the tables: ${err.message}`;
    return;
  }
  $("list-empty").hidden = tables.length > 0;
  replaceChildren($("table-list"), tables.map(tableRow));
}

function tableRow(t) {
  const seats = t.seats || [];
  const free = seats.some((s) => s.kind === "person" && !s.claimed);
  const seatWords = (s) => (s.kind === "bot" ? `bot ${s.bot}` : s.claimed ? s.name || "person" : "(free seat)");
  const who = seats.map((s) => `P${s.seat + 1} ${seatWords(s)}`).join(", ");
  const moving = t.status === "playing" && Number.isInteger(t.to_move);
  const status = moving ? `playing: P${t.to_move + 1} to move` : t.status;
  const id = encodeURIComponent(t.id);
  return h(
    "tr",
    { dataset: { table: t.id }, "data-testid": "table-row" },
    h("td", {}, h("code", {}, t.id)),
    h("td", {}, t.game === "arktia" ? "Arktia" : t.game === "arctic" ? "Arctic" : t.game),
    h("td", {}, who),
    h("td", {}, status),
    h(
      "td",
      {},
      h(
        "div",
        { class: "actions" },
        free && t.status !== "finished"
          ? h("button", { type: "button", "data-testid": "join", onclick: () => join(t.id) }, "Join")
          : null,
        h("a", { href: `/table/${id}`, "data-testid": "watch" }, "Watch"),
        t.status === "finished" ? h("a", { href: `/replay/${id}`, "data-testid": "replay" }, "Replay") : null,
      ),
    ),
  );
}

async function join(id) {
  const name = $("join-name").value.trim() || "Guest";
  localStorage.setItem(NAME_KEY, name);
  try {
    const seat = await api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", body: { name } });
    location.href = seat.link;
  } catch (err) {
    $("list-error").textContent = err.code === "no_free_seat" ? "That table has no free seat any more." : err.message;
    refreshTables();
  }
}
