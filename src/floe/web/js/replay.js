// The replay page: step through the frames of a table (one per decision, plus the final position) and
// draw each frame's view with the same renderer as the live table.
import { api, seatToken, tableIdFromPath } from "./api.js";
import { boardFor } from "./boards.js";
import { h, replaceChildren } from "./dom.js";
import { scoreScreen } from "./score.js";
import { seatLabel } from "./words.js";

const $ = (id) => document.getElementById(id);
const tableId = tableIdFromPath();
const token = seatToken();
let frames = [];
let summary = null;
let index = 0;
let revealed = false;

$("replay-title").textContent = `Replay of table ${tableId}`;
document.title = `Floe: replay ${tableId}`;
$("to-table").href = `/table/${encodeURIComponent(tableId)}${token ? `#seat=${encodeURIComponent(token)}` : ""}`;
$("first").onclick = () => go(0);
$("prev").onclick = () => go(index - 1);
$("next").onclick = () => go(index + 1);
$("last").onclick = () => go(frames.length - 1);
$("slider").oninput = (ev) => go(Number(ev.target.value));
$("reveal").onchange = (ev) => load(ev.target.checked);
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range" && ev.target.type !== "checkbox") return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 };
  if (ev.key in moves) {
    ev.preventDefault();
    go(moves[ev.key]);
  }
});

load(false);

async function load(reveal) {
  $("replay-error").textContent = "";
  try {
    const query = reveal ? "?reveal=true" : "";
    const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay${query}`, { token });
    const keep = frames.length ? index : null;
    frames = data.frames || [];
    summary = data.table;
    revealed = reveal;
    $("reveal").disabled = !summary || summary.status !== "finished";
    // Arktia has no hidden information: nothing to reveal.
    $("reveal-label").hidden = Boolean(summary && summary.game === "arktia");
    $("reveal").checked = reveal;
    $("slider").max = String(Math.max(0, frames.length - 1));
    go(keep === null ? 0 : keep);
  } catch (err) {
    $("replay-error").textContent = err.message;
    $("reveal").checked = revealed;
  }
}

function go(i) {
  if (!frames.length) {
    $("frame-info").textContent = "No frames yet.";
    return;
  }
  index = Math.max(0, Math.min(frames.length - 1, i));
  const frame = frames[index];
  const view = frame.view;
  $("slider").value = String(index);
  const me = view.seat === undefined ? null : view.seat;
  // A frame is the position after `actor`'s decision (the first one: after the setup).
  const parts = [`Frame ${index + 1} of ${frames.length}`];
  const seat = (q) => seatLabel(q, summary, me);
  parts.push(Number.isInteger(frame.actor) ? `after ${seat(frame.actor)}'s move` : index === 0 ? "the start" : "");
  // Arctic names the seat to decide `current_player`; Arktia `player` (-1 once over).
  const toDecide = Number.isInteger(view.current_player) ? view.current_player : view.player;
  if (view.step === "over") parts.push("game over");
  else if (Number.isInteger(toDecide) && toDecide >= 0) parts.push(`${seat(toDecide)} to decide`);
  if (view.round) parts.push(`round ${view.round}`);
  if (summary && summary.game === "arktia" && view.step !== "over") parts.push(`turn ${view.turn + 1}`);
  $("frame-info").textContent = parts.filter(Boolean).join(" · ");
  const board = boardFor(summary && summary.game);
  board.render($("board"), view, { summary, reveal: revealed && frame.views ? frame.views : null, live: false });
  renderLog();
  const scores = view.scores;
  replaceChildren($("score"), scores ? scoreScreen({ breakdowns: scores, ranking: null, view, summary, me }) : null);
  const atEnd = index === frames.length - 1;
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = atEnd;
}

// Every line up to this frame; the current frame's lines are marked so a step shows what just happened.
function renderLog() {
  const items = [];
  frames.slice(0, index + 1).forEach((frame, i) => {
    for (const line of frame.log || []) {
      items.push(h("li", { class: i === index ? "current" : "" }, typeof line === "string" ? line : line.text));
    }
  });
  const log = $("log");
  replaceChildren(log, items);
  const current = log.querySelector("li.current");
  log.scrollTop = current ? current.offsetTop - log.clientHeight / 2 : log.scrollHeight;
}
