// A table's board module: the game's own, served from its package at /games/<name>/board.js (the URL comes
// from GET /api/games), imported when the page knows the table's game, with its style sheets linked into
// the page first. A game without one gets the plain board (plainboard.js): the observation's fields laid
// out as text, every choice a button. The interface a board module exports is described in docs/server.md ("Board modules").
import { api } from "./api.js";
import { h } from "./dom.js";
import { loadMessages } from "./i18n.js";
import * as PLAIN from "./plainboard.js";
import { scoreScreen } from "./score.js";

let games = null;

/** The facts of game `name` from GET /api/games (fetched once per page), or null if the server has none. */
export async function gameInfo(name) {
  if (!games) games = api("/api/games");
  try {
    return (await games).find((g) => g.name === name) || null;
  } catch (err) {
    games = null; // try again next time
    throw err;
  }
}

/** Link a style sheet once; resolves when it has loaded (or failed: the board still works unstyled). */
function linkStyle(href) {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}

/**
 * The board of game `name`, with every part of the interface filled in (defaults for what a module leaves
 * out), and the game's facts: {info, board}.
 */
export async function loadBoard(name) {
  const [info] = await Promise.all([gameInfo(name), loadMessages(name)]); // the game's own catalog too
  let module = PLAIN;
  if (info && info.board) {
    const url = new URL(info.board, location.href);
    module = await import(url.href);
    await Promise.all((module.css || []).map((href) => linkStyle(new URL(href, url).href)));
  }
  const board = {
    render: module.render,
    choices: module.choices || {},
    status: module.status || (() => ""),
    toAct: module.toAct || (() => null),
    scoreScreen: module.scoreScreen || ((args) => scoreScreen(args)),
  };
  return { info, board };
}
