// The lobby: create a table (game, seats, rules options, timer, public) and list public tables. Everything
// about a game comes from GET /api/games: its title, summary and notice, its player range, the bots the
// server suggests for it, and its option schema, from which the rules fields are built (optionform.js).
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { helpButton } from "./help.js";
import { loadMessages, nt, startLanguage, t } from "./i18n.js";
import { OptionForm } from "./optionform.js";
import { clientKey, joinedLinks, rememberJoin, showRecent } from "./recent.js";
import { botWords, tableStatus } from "./words.js";
import { errorText } from "./errors.js";

const $ = (id) => document.getElementById(id);
const form = $("create-form");
const seatCount = $("seat-count");
const seatRows = $("seat-rows");
const NAME_KEY = "floe-name";
const rules = new OptionForm($("game-options"), $("advanced-options"));

/** The name the server gives a bot ("ISMCTS · 1 s", "Baseline (BGA's automatic player)"), else its spec. */
function botLabel(spec) {
  const labels = (game && game.bot_labels) || {};
  return botWords(labels[spec] || spec);
}

let games = [];
let game = null;
let bots = [];

await startLanguage();
init();

async function init() {
  try {
    games = await api("/api/games");
    await Promise.all(games.map((g) => loadMessages(g.name))); // each game's names, options and help
  } catch (err) {
    $("create-error").textContent = t("Cannot reach the server: %(error)s", { error: err.message });
    return;
  }
  const picker = $("game");
  for (const g of games) picker.append(h("option", { value: g.name }, t(g.title || g.name)));
  const wanted = new URLSearchParams(location.search).get("game");
  picker.value = games.some((g) => g.name === wanted) ? wanted : games[0].name;
  picker.addEventListener("change", () => setGame(picker.value));
  setGame(picker.value);
  $("join-name").value = localStorage.getItem(NAME_KEY) || "";
  seatCount.addEventListener("change", () => {
    renderSeatRows();
    rules.show(game.options, Number(seatCount.value), { keep: true });
  });
  form.addEventListener("submit", createTable);
  refreshTables();
  setInterval(refreshTables, 4000);
}

/** Show the form for one game: what it is, its player counts, its bots and its rules options. */
function setGame(name) {
  game = games.find((g) => g.name === name) || games[0];
  bots = game.bots && game.bots.length ? game.bots : game.bot_names || [];
  const low = game.min_players || 1;
  const high = game.max_players || low;
  const count = Number(seatCount.value) || low;
  replaceChildren(seatCount);
  for (let n = low; n <= high; n++) seatCount.append(h("option", { value: n }, nt("%(n)s player", "%(n)s players", n)));
  seatCount.value = String(Math.min(Math.max(count, low), high));
  replaceChildren(
    $("game-about"),
    game.icon ? h("img", { src: game.icon, alt: "", width: 28, height: 28, class: "game-icon" }) : null,
    h("span", {}, game.summary ? t(game.summary) : ""),
    helpButton(game),
  );
  $("game-notice").textContent = game.notice ? t("Note: %(notice)s.", { notice: t(game.notice) }) : "";
  $("game-notice").hidden = !game.notice;
  const options = game.options || [];
  rules.show(options, Number(seatCount.value));
  $("options-fieldset").hidden = options.length === 0;
  $("more-rules").hidden = !options.some((o) => o.advanced);
  // Seat rows are rebuilt: each game has its own bots.
  replaceChildren(seatRows);
  renderSeatRows();
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
    { class: "seat-kind", "data-testid": `seat-kind-${i}`, "aria-label": t("seat %(n)s: person or bot", { n: i + 1 }) },
    h("option", { value: "person" }, t("person")),
    h("option", { value: "bot" }, t("bot")),
  );
  kind.value = prev.kind;
  const name = h("input", {
    class: "seat-name-input",
    "data-testid": `seat-name-${i}`,
    placeholder: t("Player %(n)s", { n: i + 1 }),
    maxlength: 40,
    "aria-label": t("seat %(n)s: name", { n: i + 1 }),
    value: prev.name || "",
  });
  const bot = h(
    "select",
    { class: "seat-bot", "data-testid": `seat-bot-${i}`, "aria-label": t("seat %(n)s: bot strength", { n: i + 1 }) },
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

/** A new bot seat: the game's default opponent, else the first suggested bot stronger than random (the
 * suggestions come weakest first). */
function defaultBot() {
  if (game && game.default_bot && bots.includes(game.default_bot)) return game.default_bot;
  return bots.find((b) => b !== "random") || bots[0];
}

function readSeatRow(row) {
  return {
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name-input").value.trim(),
    bot: row.querySelector(".seat-bot").value,
  };
}

async function createTable(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const seats = [...seatRows.children].map(readSeatRow).map((s, i) =>
    s.kind === "person" ? { kind: "person", name: s.name || t("Player %(n)s", { n: i + 1 }) } : { kind: "bot", bot: s.bot },
  );
  const options = rules.read();
  const timer = Number($("turn-timer").value);
  const tableName = $("table-name").value.trim();
  const body = { game: game.name, seats, options, turn_timer: timer > 0 ? timer : null, public: $("public").checked, key: clientKey() };
  if (tableName) body.name = tableName;
  const firstPerson = seats.find((s) => s.kind === "person");
  if (firstPerson) localStorage.setItem(NAME_KEY, firstPerson.name);
  try {
    const made = await api("/api/tables", { method: "POST", body });
    if (made.seats && made.seats.length) rememberJoin(made.table.id, made.seats[0].link);
    showCreated(made, seats);
    refreshTables();
  } catch (err) {
    $("create-error").textContent = errorText(err);
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
        "aria-label": t("invitation link for P%(n)s", { n: s.seat + 1 }),
      });
      const copy = h("button", { type: "button", class: "secondary", "data-testid": `copy-${s.seat}` }, t("Copy"));
      copy.addEventListener("click", () => copyText(input, copy));
      const who = `P${s.seat + 1} ${seats[s.seat] ? seats[s.seat].name || "" : ""}${s === links[0] ? ` ${t("(you)")}` : ""}`;
      return h("li", {}, h("strong", {}, who), input, copy);
    }),
  );
  // What the server changed (a bot budget above its own, lowered to it), in its words.
  const notices = made.notices || [];
  $("created-notices").textContent = notices.join(" · ");
  $("created-notices").hidden = !notices.length;
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
  button.textContent = t("Copied");
  setTimeout(() => (button.textContent = t("Copy")), 1500);
}

async function refreshTables() {
  let tables;
  try {
    tables = await api("/api/tables");
    $("list-error").textContent = "";
  } catch (err) {
    $("list-error").textContent = t("Cannot load the tables: %(error)s", { error: err.message });
    return;
  }
  $("list-empty").hidden = tables.length > 0;
  replaceChildren($("table-list"), tables.map(tableRow));
  showRecent($("recent"), $("recent-list"), gameTitle);
}

function tableRow(row) {
  const seats = row.seats || [];
  const free = seats.some((s) => s.kind === "person" && !s.claimed);
  const seatWords = (s) =>
    s.kind === "bot" ? t("bot %(name)s", { name: botWords(s.label || s.bot) }) : s.claimed ? s.name || t("person") : t("(free seat)");
  const who = seats.map((s) => `P${s.seat + 1} ${seatWords(s)}`).join(", ");
  const status = tableStatus(row);
  const id = encodeURIComponent(row.id);
  return h(
    "tr",
    { dataset: { table: row.id }, "data-testid": "table-row" },
    h(
      "td",
      {},
      row.name ? h("div", {}, h("strong", { "data-testid": "table-name" }, row.name)) : null,
      h("code", {}, row.id),
    ),
    h("td", {}, gameTitle(row.game)),
    h("td", {}, who),
    h("td", {}, status),
    h(
      "td",
      {},
      h(
        "div",
        { class: "actions" },
        free && row.status !== "finished"
          ? h("button", { type: "button", "data-testid": "join", onclick: () => join(row.id) }, t("Join"))
          : null,
        h("a", { href: `/table/${id}`, "data-testid": "watch" }, t("Watch")),
        row.status === "finished" ? h("a", { href: `/replay/${id}`, "data-testid": "replay" }, t("Replay")) : null,
      ),
    ),
  );
}

function gameTitle(name) {
  const found = games.find((g) => g.name === name);
  return found ? t(found.title || name) : name;
}

async function join(id) {
  const name = $("join-name").value.trim() || t("Guest");
  localStorage.setItem(NAME_KEY, name);
  const joined = joinedLinks();
  if (joined[id]) {
    location.href = joined[id];
    return;
  }
  try {
    const body = { name, key: clientKey() };
    const seat = await api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", body });
    rememberJoin(id, seat.link);
    location.href = seat.link;
  } catch (err) {
    const words = { no_free_seat: t("That table has no free seat any more.") };
    $("list-error").textContent = words[err.code] || errorText(err);
    refreshTables();
  }
}
