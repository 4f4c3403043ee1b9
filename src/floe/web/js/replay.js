// The replay page: step through the frames of a table (one per decision, plus the final position) and
// draw each frame's view with the same board module as the live table.
import { api, seatToken, tableIdFromPath } from "./api.js";
import { loadBoard } from "./boards.js";
import { chatItem } from "./chat.js";
import { h, replaceChildren } from "./dom.js";
import { installHelp } from "./help.js";
import { lang, startLanguage, t } from "./i18n.js";
import { seatLabel } from "./words.js";
import { errorText } from "./errors.js";

const $ = (id) => document.getElementById(id);
const tableId = tableIdFromPath();
const token = seatToken();
let frames = [];
let summary = null;
let index = 0;
let revealed = false;
let board = null; // the game's board module, loaded with the first frames
let chat = []; // the table's chat lines, each shown from the frame of the version it was said at

$("replay-title").textContent = t("Replay of table %(id)s", { id: tableId });
document.title = "Floe: " + t("Replay of table %(id)s", { id: tableId });
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

await startLanguage();
load(false);

async function load(reveal) {
  $("replay-error").textContent = "";
  try {
    const query = `?lang=${lang}${reveal ? "&reveal=true" : ""}`;
    const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay${query}`, { token });
    const keep = frames.length ? index : null;
    summary = data.table;
    if (!board) {
      const loaded = await loadBoard(summary.game);
      board = loaded.board;
      showGame(loaded.info);
      // Tips on the cards and the rules panel: helps, not needed to replay, so a failure is not shown.
      installHelp(loaded.info, []).catch(() => {});
    }
    frames = data.frames || [];
    chat = data.chat || [];
    revealed = reveal;
    $("reveal").disabled = !summary || summary.status !== "finished";
    $("reveal").checked = reveal;
    $("slider").max = String(Math.max(0, frames.length - 1));
    go(keep === null ? 0 : keep);
  } catch (err) {
    $("replay-error").textContent = errorText(err);
    $("reveal").checked = revealed;
  }
}

/** The game's name in the title; no "reveal" for a game without hidden information. */
function showGame(info) {
  const title = info ? info.title || info.name : summary.game;
  const named = summary && summary.name ? ` (${summary.name})` : "";
  $("replay-title").textContent = t("Replay of %(game)s table %(id)s", { game: t(title), id: tableId }) + named;
  $("reveal-label").hidden = Boolean(info && info.information === "perfect");
  $("game-notice").textContent = info && info.notice ? t("Note: %(notice)s.", { notice: t(info.notice) }) : "";
  $("game-notice").hidden = !(info && info.notice);
}

function go(i) {
  if (!frames.length) {
    $("frame-info").textContent = t("No frames yet.");
    return;
  }
  index = Math.max(0, Math.min(frames.length - 1, i));
  const frame = frames[index];
  const view = frame.view;
  $("slider").value = String(index);
  const me = view.seat === undefined ? null : view.seat;
  const atEnd = index === frames.length - 1;
  // A frame is the position after `actor`'s decision (the first one: after the setup).
  const parts = [t("Frame %(n)s of %(total)s", { n: index + 1, total: frames.length })];
  const seat = (q) => seatLabel(q, summary, me);
  parts.push(Number.isInteger(frame.actor) ? t("after the move of %(seat)s", { seat: seat(frame.actor) }) : index === 0 ? t("the start") : "");
  const toDecide = board.toAct(view);
  if (atEnd && summary.status === "finished") parts.push(t("game over"));
  else if (Number.isInteger(toDecide)) parts.push(t("%(seat)s to decide", { seat: seat(toDecide) }));
  parts.push(board.status(view));
  $("frame-info").textContent = parts.filter(Boolean).join(" · ");
  board.render($("board"), view, { summary, reveal: revealed && frame.views ? frame.views : null, live: false });
  renderLog();
  renderChat(frame, me);
  const scores = view.scores;
  const screen = scores ? board.scoreScreen({ breakdowns: scores, ranking: null, view, summary, me }) : null;
  replaceChildren($("score"), screen);
  const focused = document.activeElement;
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = atEnd;
  // A button that has just become disabled would drop the focus to the page: it goes to the other way.
  if (focused instanceof HTMLButtonElement && focused.disabled) {
    const other = atEnd ? $("prev") : $("next");
    (other.disabled ? $("slider") : other).focus();
  }
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

// The chat said up to this frame (all of it at the last frame, which includes what was said after the end).
function renderChat(frame, me) {
  const last = index === frames.length - 1;
  const shown = chat.filter((line) => last || line.version <= frame.version);
  $("chat-zone").hidden = !chat.length;
  replaceChildren($("chat"), shown.map((line) => chatItem(line, me)));
}
