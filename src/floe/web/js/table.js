// The table page: one WebSocket, one seat (or a spectator). Every `state` message is rendered from
// scratch; the only client-side memory is the log (lines arrive once each) and the selection in progress.
// The board is the table's game's own module (boards.js), loaded once the first message names the game.
import { TableSocket, seatToken, tableIdFromPath } from "./api.js";
import { loadBoard } from "./boards.js";
import { ChatPanel } from "./chat.js";
import { Choices } from "./choices.js";
import { h, replaceChildren } from "./dom.js";
import { rememberJoin } from "./recent.js";
import { RematchPanel } from "./rematch.js";
import { UndoButton } from "./undo.js";
import { seatLabel } from "./words.js";

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
};

let mySeat = null;
let summary = null;
let state = null;
const logLines = new Map(); // index -> text; a reconnect resends the whole log, so keyed, not appended
let moveCounter = 0;
// The move in flight: input stays off until a state newer than the one it was made on (or its error).
// Other changes (someone connecting) also send a state, with the same version, and must not re-enable it.
let pending = null;
const pageId = Date.now().toString(36);
let scoreShown = false;

// The board module and its click-to-play controller, loaded for the table's game once it is known; states
// that arrive meanwhile are kept and the latest is drawn when the board is there.
let board = null;
let choices = null;
let boardLoading = false;
const socket = new TableSocket(tableId, token, { onMessage, onStatus });
const send = (message) => socket.send(message);
const chat = new ChatPanel(document.getElementById("chat"), send);
const rematch = new RematchPanel(document.getElementById("rematch"), send);
const undo = new UndoButton(els.leave.parentElement, () => sendAction({ type: "undo" }));

els.title.textContent = `Table ${tableId}`;
document.title = `Floe: table ${tableId}`;
els.leave.addEventListener("click", toggleAway);
setInterval(renderTimer, 1000);

function onStatus(status) {
  els.conn.dataset.state = status;
  const words = { connecting: "connecting…", open: "connected", closed: "reconnecting…", refused: "not connected" };
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
      if (token && mySeat === null) notice("This seat link was not accepted: you are watching as a spectator.");
      if (mySeat !== null) rememberJoin(tableId, `/table/${encodeURIComponent(tableId)}#seat=${encodeURIComponent(token)}`);
      break;
    case "state":
      state = msg;
      summary = msg.table || summary;
      if (msg.seat !== undefined) mySeat = msg.seat;
      ensureBoard();
      for (const line of msg.log || []) logLines.set(line.index, line.text);
      if (pending && msg.version > pending.version) pending = null;
      if (board) {
        choices.busy = pending !== null;
        render();
      }
      break;
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
      toast(msg.message || msg.code || "refused");
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
      choices = new Choices(els.choices, (choice) => sendMove(choice), board.choices);
      choices.busy = pending !== null;
      if (state) render();
    })
    .catch((err) => notice(`The board could not be loaded (${err.message}). `, h("a", { href: "" }, "Reload"), "."));
}

/** The game's name in the title bar and its notice (e.g. placeholder components) under it. */
function showGame(info) {
  const title = info ? info.title || info.name : summary.game;
  els.title.textContent = `${title} · table ${tableId}`;
  document.title = `Floe: ${title} table ${tableId}`;
  els.gameNotice.textContent = info && info.notice ? `Note: ${info.notice}.` : "";
  els.gameNotice.hidden = !(info && info.notice);
  if (info && info.icon) document.querySelector("link[rel=icon]").href = info.icon;
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
    toast("Not connected: reconnecting…");
  }
}

function toggleAway() {
  const info = seatInfo(mySeat);
  socket.send({ type: info && info.away ? "back" : "leave" });
}

function seatInfo(seat) {
  return summary && summary.seats ? summary.seats.find((s) => s.seat === seat) : null;
}

function render() {
  const view = state.view;
  renderStatus();
  board.render(els.board, view, { summary });
  choices.bind(els.board, state.to_move === mySeat ? state.legal : [], state.version);
  renderSeats();
  renderLog();
  renderScore();
}

function renderStatus() {
  const s = state;
  const view = s.view;
  let text;
  if (s.status === "finished") text = "The game is over.";
  else if (s.status === "waiting") text = "Waiting for players to open their invitation links.";
  else if (s.to_move === null || s.to_move === undefined) text = "…";
  else if (s.to_move === mySeat) text = "Your turn.";
  else text = `${seatLabel(s.to_move, summary, mySeat)} is playing.`;
  const round = board.status(view);
  replaceChildren(els.statusText, h("strong", {}, text), round ? h("span", { class: "muted" }, ` ${round}`) : null);
  const myTurn = s.to_move === mySeat && s.status === "playing";
  els.statusText.closest(".status").classList.toggle("my-turn", myTurn);
  const deciding = s.deciding && s.status !== "finished";
  replaceChildren(els.deciding, deciding ? [myTurn ? "You decide: " : "Deciding: ", h("em", {}, s.deciding)] : null);
  const info = seatInfo(mySeat);
  els.leave.hidden = !(mySeat !== null && s.status === "playing");
  els.leave.textContent = info && info.away ? "Take my seat back" : "Leave (a bot plays for me)";
  undo.render(s, mySeat, pending !== null);
  renderTimer();
}

function renderTimer() {
  if (!state || !state.deadline || state.status !== "playing") {
    els.timer.textContent = "";
    return;
  }
  const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
  els.timer.textContent = `Time left for this move: ${left} s`;
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
        h("span", { class: `badge badge-${s.kind}` }, s.kind === "bot" ? "bot" : "person"),
        s.kind === "person" ? connectionBadge(s) : null,
        s.away ? h("span", { class: "badge badge-away" }, "away") : null,
      ),
    ),
  );
}

function connectionBadge(seat) {
  const words = !seat.claimed ? "seat free" : seat.connected ? "connected" : "offline";
  return h("span", { class: `badge ${seat.connected ? "badge-on" : "badge-off"}` }, words);
}

// The log follows new lines unless the reader has scrolled up. The flag changes only on scroll events,
// so a resize (rotating a phone) does not stop the following.
let followLog = true;
els.log.addEventListener("scroll", () => {
  followLog = els.log.scrollTop + els.log.clientHeight >= els.log.scrollHeight - 8;
});

function renderLog() {
  const indexes = [...logLines.keys()].sort((a, b) => a - b);
  if (els.log.childElementCount !== indexes.length) {
    replaceChildren(els.log, indexes.map((i) => h("li", { dataset: { index: i } }, logLines.get(i))));
    if (followLog) els.log.scrollTop = els.log.scrollHeight;
  }
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
    const watch = h("a", { href: `/table/${encodeURIComponent(tableId)}` }, "Watch the table as a spectator");
    notice(`This seat link is not valid (${msg.message}). `, watch, ".");
  } else {
    notice(`${msg.message || msg.code}. `, h("a", { href: "/" }, "Back to the lobby"), ".");
  }
}
