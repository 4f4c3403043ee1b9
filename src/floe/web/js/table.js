// The table page: one WebSocket, one seat (or a spectator). Every `state` message is rendered from
// scratch; the only client-side memory is the log (lines arrive once each), the selection in progress and
// the states waiting to be shown (pacing.js: others' moves one at a time, each slid into place by motion.js).
// The board is the table's game's own module (boards.js), loaded once the first message names the game.
import { TableSocket, seatToken, tableIdFromPath } from "./api.js";
import { loadBoard } from "./boards.js";
import { ChatPanel } from "./chat.js";
import { Choices } from "./choices.js";
import { ask, confirmChoice, dismissChoice, showWarnings } from "./confirm.js";
import { h, replaceChildren } from "./dom.js";
import { FocusKeeper } from "./focus.js";
import { installHelp } from "./help.js";
import { startLanguage, t } from "./i18n.js";
import { animateFrom, finishAnimations, markLastMove, measure } from "./motion.js";
import { Pacer, initialPace, paceMenu, reducedMotion } from "./pacing.js";
import { rememberJoin } from "./recent.js";
import { RematchPanel } from "./rematch.js";
import { UndoButton } from "./undo.js";
import { seatLabel } from "./words.js";
import { errorText } from "./errors.js";

await startLanguage(); // before anything is drawn: the static page, then every text in the language
const tableId = tableIdFromPath();
const token = seatToken();

const els = {
  title: document.getElementById("table-title"),
  conn: document.getElementById("conn"),
  statusText: document.getElementById("status-text"),
  deciding: document.getElementById("deciding"),
  timer: document.getElementById("timer"),
  choices: document.getElementById("choices"),
  leave: document.getElementById("leave-toggle"),
  score: document.getElementById("score"),
  board: document.getElementById("board"),
  seats: document.getElementById("seats"),
  log: document.getElementById("log"),
  toast: document.getElementById("toast"),
  notice: document.getElementById("notice"),
  gameNotice: document.getElementById("game-notice"),
  pace: document.getElementById("pace"),
  skip: document.getElementById("skip"),
  announce: document.getElementById("announce"),
};

let mySeat = null;
let summary = null;
let state = null; // the state on the page (newer ones may wait in the pacer)
let lastMove = new Set(); // the keys of the board elements the shown state's move changed
let currentLog = new Set(); // the log lines that came with the shown state
const logLines = new Map(); // index -> text; a reconnect resends the whole log, so keyed, not appended
let moveCounter = 0;
// The move in flight: input stays off until a state newer than the one it was made on (or its error).
// Other changes (someone connecting) also send a state, with the same version, and must not re-enable it.
let pending = null;
const pageId = Date.now().toString(36);
let scoreShown = false;
let announced = { text: null, version: null }; // what the live region said last, for which version

// The board module and its click-to-play controller, loaded for the table's game once it is known; states
// that arrive meanwhile are kept and the latest is drawn when the board is there.
let board = null;
let choices = null;
let boardLoading = false;
const pacer = new Pacer({ show, onQueue: showWaiting, budget: paceBudget });
pacer.setPace(initialPace());
paceMenu(els.pace, pacer.pace, (seconds) => pacer.setPace(seconds));
const socket = new TableSocket(tableId, token, { onMessage, onStatus });
const send = (message) => socket.send(message);
// Focus across redraws: back on the same object or choice, else on the first choice, else on the prompt.
const prompt = els.statusText.closest(".status");
const keeper = new FocusKeeper(els.board.closest(".main-col"), prompt, firstChoices);
const chat = new ChatPanel(document.getElementById("chat"), send);
const rematch = new RematchPanel(document.getElementById("rematch"), send);
const undo = new UndoButton(els.leave.parentElement, () => sendAction({ type: "undo" }));

els.title.textContent = t("Table %(id)s", { id: tableId });
document.title = "Floe: " + t("Table %(id)s", { id: tableId });
els.leave.addEventListener("click", toggleAway);
els.skip.addEventListener("click", skip);
listenForSkips();
// The prompt's height, for a board whose own bar sticks just under it (CSS: var(--prompt-h)); none when
// the prompt does not stick (a very short window, the full list of choices open).
new ResizeObserver(() => {
  const sticks = getComputedStyle(prompt).position === "sticky";
  document.documentElement.style.setProperty("--prompt-h", `${sticks ? prompt.offsetHeight : 0}px`);
}).observe(prompt);
setInterval(renderTimer, 1000);

function onStatus(status) {
  els.conn.dataset.state = status;
  const words = { connecting: t("connecting…"), open: t("connected"), closed: t("reconnecting…"), refused: t("not connected") };
  els.conn.textContent = words[status];
  if (status !== "open" && choices) choices.setBusy(true);
}

function onMessage(msg, { welcomed = true } = {}) {
  switch (msg.type) {
    case "welcome":
      pending = null; // a new connection: the fresh state says whether the move got through
      mySeat = msg.seat === undefined ? null : msg.seat;
      summary = msg.table || summary;
      ensureBoard();
      chat.setSeat(mySeat);
      if (token && mySeat === null) notice(t("This seat link was not accepted: you are watching as a spectator."));
      if (mySeat !== null) rememberJoin(tableId, `/table/${encodeURIComponent(tableId)}#seat=${encodeURIComponent(token)}`);
      break;
    case "state": {
      // A newer position closes a question about the old one (the question was about the state shown).
      if (state && msg.version !== state.version) dismissChoice();
      // The state after this page's own move is shown at once (with any still waiting before it).
      const own = pending !== null && msg.version > pending.version;
      if (own) pending = null;
      summary = msg.table || summary;
      if (msg.seat !== undefined) mySeat = msg.seat;
      ensureBoard();
      pacer.push(msg, { now: own });
      break;
    }
    case "seats":
      // Only the seats' flags changed (someone connected or left): the rest of the state stands.
      summary = msg.table || summary;
      if (board && state) {
        renderStatus();
        renderSeats();
      }
      break;
    case "error":
      if (!welcomed) {
        refused(msg);
        break;
      }
      toast(errorText(msg));
      rematch.onError();
      if (!pending || msg.id === null || msg.id === undefined || msg.id === pending.id) {
        pending = null;
        if (choices) choices.setBusy(false);
      }
      break;
    case "chat":
      chat.add(msg.lines);
      break;
    case "rematch_offer":
      rematch.onOffer(msg);
      break;
    case "rematch_seat":
      rematch.onSeat(msg);
      break;
    default:
      break; // ack (the state follows), pong
  }
}

function ensureBoard() {
  if (boardLoading || !summary) return;
  boardLoading = true;
  document.body.dataset.game = summary.game;
  loadBoard(summary.game)
    .then(({ info, board: loaded }) => {
      showGame(info);
      board = loaded;
      choices = new Choices(els.choices, playChoice, board.choices, { announce, redrawn: () => keeper.restore() });
      installHelp(info, [els.deciding, els.choices]).catch((err) => toast(t("The rules help could not be loaded (%(error)s).", { error: err.message })));
      choices.busy = pending !== null;
      if (state) render({ version: null });
    })
    .catch((err) => notice(t("The board could not be loaded (%(error)s).", { error: err.message }) + " ", h("a", { href: "" }, t("Reload")), "."));
}

/** The game's name in the title bar and its notice (e.g. placeholder components) under it. */
function showGame(info) {
  const title = t(info ? info.title || info.name : summary.game);
  const named = summary && summary.name ? ` · ${summary.name}` : "";
  const tableWords = t("Table %(id)s", { id: tableId });
  els.title.textContent = `${title} · ${tableWords}${named}`;
  document.title = `Floe: ${title} · ${tableWords}${named}`;
  els.gameNotice.textContent = info && info.notice ? t("Note: %(notice)s.", { notice: t(info.notice) }) : "";
  els.gameNotice.hidden = !(info && info.notice);
  if (info && info.icon) document.querySelector("link[rel=icon]").href = info.icon;
}

/** Play a choice, once confirmed if it is a costly one (confirm.js), and only on the position it was offered in. */
function playChoice(choice) {
  const version = state && state.version;
  confirmChoice(choice, sendMove, () => state && state.version === version);
}

function sendMove(choice) {
  sendAction({ type: "move", action: choice.id });
}

/** Send a move or an undo made on the current version; input waits for its answer. */
function sendAction(action) {
  if (!state) return;
  moveCounter += 1;
  const message = { ...action, version: state.version, id: `${pageId}-${moveCounter}` };
  if (socket.send(message)) {
    pending = { id: message.id, version: message.version };
    if (choices) choices.setBusy(true);
    undo.render(state, mySeat, true);
  } else {
    toast(t("Not connected: reconnecting…"));
  }
}

async function toggleAway() {
  const info = seatInfo(mySeat);
  if (info && info.away) {
    socket.send({ type: "back" });
    return;
  }
  const question = t("Leave your seat? A bot plays every move for you until you take your seat back.");
  const leave = await ask(question, { yes: t("Leave, a bot plays"), no: t("Stay") });
  if (leave && state && state.status === "playing") socket.send({ type: "leave" }); // not once the game is over
}

function seatInfo(seat) {
  return summary && summary.seats ? summary.seats.find((s) => s.seat === seat) : null;
}

/**
 * Draw `msgs` (from the pacer, oldest first): their log lines, and the last one's state. `why` is "paced"
 * (another seat's move, slid into place), "own" (this page's move), "skip" (the reader asked for the newest
 * now: no animation) or "now" (the first state, or the same state again).
 */
function show(msgs, why) {
  const shown = state ? state.version : null;
  currentLog = new Set();
  for (const msg of msgs) {
    for (const line of msg.log || []) {
      logLines.set(line.index, line.text);
      currentLog.add(line.index);
    }
  }
  state = msgs[msgs.length - 1];
  if (state.version === shown) currentLog = new Set(); // a refresh: the lines of the move shown stay marked
  if (!board) return;
  choices.busy = pending !== null;
  render({ version: shown, why });
}

/** Milliseconds a move slides for: a fraction of the pace for others' moves, short for one's own. */
function slideTime(why) {
  if (reducedMotion() || pacer.pace === 0 || why === "skip" || why === "now") return 0;
  return why === "own" ? 180 : Math.min(600, pacer.pace * 800);
}

function render({ version, why = "now" }) {
  const view = state.view;
  renderStatus();
  const duration = slideTime(why);
  const before = measure(els.board, { boxes: duration > 0 });
  board.render(els.board, view, { summary });
  // A new version: what moved is slid into place and marked until the next move; the same version drawn
  // again (a seat connected) keeps the marks.
  if (version !== null && state.version > version) lastMove = animateFrom(els.board, before, { duration });
  else if (version === null || state.version < version) lastMove = new Set();
  markLastMove(els.board, lastMove);
  // The version on the page and who is to move in it, for tests that follow the pace.
  document.body.dataset.version = state.version;
  document.body.dataset.toMove = state.to_move ?? "";
  choices.bind(els.board, state.to_move === mySeat ? state.legal : [], state.version);
  showWarnings(els.choices, state.to_move === mySeat ? state.legal : []);
  renderSeats();
  renderLog();
  renderScore();
  announceStatus();
  keeper.restore();
}

/**
 * The prompt's choices in the order focus goes to them when the focused one is gone: the destinations of a
 * selection, the panel's buttons, the board's objects, the full list, and last a button that asks before it
 * plays (it ends a seat's game). None while a move is on its way (the prompt holds the focus until the
 * answer, then the choice that stands for the same thing gets it back).
 */
function firstChoices() {
  if (!choices || choices.busy) return [];
  return [
    ...els.board.querySelectorAll("[data-legal=dest]"),
    ...els.choices.querySelectorAll(".choice-list > button:not([data-costly])"),
    ...els.board.querySelectorAll("[data-legal=play], [data-legal=source]"),
    ...els.choices.querySelectorAll(".all-choices > summary"),
    ...els.choices.querySelectorAll(".choice-list > button[data-costly]"),
  ];
}

/** Say something in the polite live region (a screen reader reads it when the person pauses). */
function announce(text) {
  // The same words again would not be read: a no-break space at the end makes them new text.
  els.announce.textContent = text === els.announce.textContent ? `${text}\u00a0` : text;
}

/** Announce the turn and the prompt when they change, and every new prompt of this seat's own turn. */
function announceStatus() {
  // Sentences, so a screen reader pauses between the turn, the round and the prompt.
  const parts = [...els.statusText.childNodes, els.deciding].map((el) => el.textContent.trim()).filter(Boolean);
  const text = parts.map((part) => (/[.!?:…]$/.test(part) ? part : `${part}.`)).join(" ");
  const myNewPrompt = state.to_move === mySeat && state.status === "playing" && state.version !== announced.version;
  if (text === announced.text && !myNewPrompt) return;
  announced = { text, version: state.version };
  announce(text);
}

function renderStatus() {
  const s = state;
  const view = s.view;
  let text;
  if (s.status === "finished") text = t("The game is over.");
  else if (s.status === "waiting") text = t("Waiting for players to open their invitation links.");
  else if (s.to_move === null || s.to_move === undefined) text = "…";
  else if (s.to_move === mySeat) text = t("Your turn.");
  else text = t("%(seat)s is playing.", { seat: seatLabel(s.to_move, summary, mySeat) });
  const round = board.status(view);
  replaceChildren(els.statusText, h("strong", {}, text), round ? h("span", { class: "muted" }, ` ${round}`) : null);
  const myTurn = s.to_move === mySeat && s.status === "playing";
  els.statusText.closest(".status").classList.toggle("my-turn", myTurn);
  const deciding = s.deciding && s.status !== "finished";
  replaceChildren(els.deciding, deciding ? [myTurn ? t("You decide: ") : t("Deciding: "), h("em", {}, s.deciding)] : null);
  const info = seatInfo(mySeat);
  els.leave.hidden = !(mySeat !== null && s.status === "playing");
  els.leave.textContent = info && info.away ? t("Take my seat back") : t("Leave (a bot plays for me)");
  undo.render(s, mySeat, pending !== null);
  renderTimer();
}

function renderTimer() {
  if (!state || !state.deadline || state.status !== "playing") {
    els.timer.textContent = "";
    return;
  }
  const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
  els.timer.textContent = t("Time left for this move: %(n)s s", { n: left });
  els.timer.classList.toggle("urgent", left <= 10);
}

function renderSeats() {
  const seats = summary && summary.seats ? summary.seats : [];
  replaceChildren(
    els.seats,
    seats.map((s) =>
      h(
        "li",
        { class: state.to_move === s.seat ? "to-move" : "", dataset: { seat: s.seat } },
        h("span", { class: "seat-name" }, seatLabel(s.seat, summary, mySeat)),
        h("span", { class: `badge badge-${s.kind}` }, s.kind === "bot" ? t("bot") : t("person")),
        s.kind === "person" ? connectionBadge(s) : null,
        s.away ? h("span", { class: "badge badge-away" }, t("away")) : null,
      ),
    ),
  );
}

function connectionBadge(seat) {
  const words = !seat.claimed ? t("seat free") : seat.connected ? t("connected") : t("offline");
  return h("span", { class: `badge ${seat.connected ? "badge-on" : "badge-off"}` }, words);
}

// The log follows new lines unless the reader has scrolled up. The flag changes only on scroll events,
// so a resize (rotating a phone) does not stop the following.
let followLog = true;
els.log.addEventListener("scroll", () => {
  followLog = els.log.scrollTop + els.log.clientHeight >= els.log.scrollHeight - 8;
});

// The log is a live region (role="log"): lines are only ever added, each in its place, so a screen reader
// reads the new ones and nothing else.
function renderLog() {
  const shown = new Set([...els.log.children].map((li) => Number(li.dataset.index)));
  const added = [...logLines.keys()].filter((i) => !shown.has(i)).sort((a, b) => a - b);
  for (const i of added) {
    const li = h("li", { dataset: { index: i } }, logLines.get(i));
    const after = [...els.log.children].find((other) => Number(other.dataset.index) > i);
    els.log.insertBefore(li, after || null);
  }
  if (added.length && followLog) els.log.scrollTop = els.log.scrollHeight;
  for (const li of els.log.children) li.classList.toggle("current", currentLog.has(Number(li.dataset.index)));
}

/** How long the waiting states may take at most: a fifth of this seat's turn timer, if it is running. */
function paceBudget(newest) {
  if (!newest || newest.to_move !== mySeat || mySeat === null || !newest.deadline) return null;
  return Math.max(0, (newest.deadline - Date.now() / 1000) / 5);
}

/** The skip button, while states wait (their number in `data-waiting`). */
function showWaiting(n) {
  els.skip.hidden = n === 0;
  els.skip.dataset.waiting = n;
}

/** Show the newest state now and end any slide still running. */
function skip() {
  pacer.skip();
  finishAnimations(els.board);
}

/**
 * While states wait, a click on the table or a key (not in a form field, not on a link or the page's
 * controls) shows the newest at once; that click does nothing else, so it cannot act on a board that is
 * about to change.
 */
function listenForSkips() {
  const exempt = (target) =>
    target instanceof Element && target.closest("input, select, textarea, a, .topbar, .side-col, [data-no-skip]");
  document.addEventListener(
    "click",
    (ev) => {
      if (!pacer.pacing || exempt(ev.target)) return;
      ev.stopPropagation();
      ev.preventDefault();
      skip();
    },
    true,
  );
  document.addEventListener("keydown", (ev) => {
    if (!pacer.pacing || exempt(ev.target) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (!["Escape", " ", "Enter", "ArrowRight"].includes(ev.key)) return;
    ev.preventDefault();
    skip();
  });
}

function renderScore() {
  rematch.render(state, mySeat);
  const result = state.result;
  if (state.status !== "finished" || !result) {
    replaceChildren(els.score);
    return;
  }
  const breakdowns = result.breakdowns || (state.view && state.view.scores) || [];
  const hash = token ? `#seat=${encodeURIComponent(token)}` : "";
  const replayLink = `/replay/${encodeURIComponent(tableId)}${hash}`;
  const ranking = result.ranking;
  const screen = board.scoreScreen({ breakdowns, ranking, view: state.view, summary, me: mySeat, replayLink });
  replaceChildren(els.score, screen);
  if (!scoreShown) {
    scoreShown = true;
    els.score.scrollIntoView({ block: "start" });
  }
}

let toastTimer = null;
function toast(text) {
  els.toast.textContent = text;
  els.toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (els.toast.hidden = true), 4000);
}

function notice(...content) {
  replaceChildren(els.notice, ...content);
  els.notice.hidden = false;
}

// The hello was refused: a seat link that is wrong (offer to watch instead) or a table that does not exist.
function refused(msg) {
  if (msg.code === "bad_token") {
    const watch = h("a", { href: `/table/${encodeURIComponent(tableId)}` }, t("Watch the table as a spectator"));
    notice(t("This seat link is not valid (%(error)s).", { error: msg.message }) + " ", watch, ".");
  } else {
    notice(`${errorText(msg)} `, h("a", { href: "/" }, t("Back to the lobby")), ".");
  }
}
