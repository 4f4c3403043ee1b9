// A refusal from the server in the page's language. The server's `message` is English and may carry
// details (an option's bounds, a name's problem); a code whose meaning is fixed reads as a translated
// sentence, any other as the server's words. English pages show the server's words as they are.
import { N, lang, t } from "./i18n.js";

const SENTENCES = {
  stale: N("The table moved on before your move arrived; it was not played."),
  not_your_turn: N("It is not your turn."),
  illegal: N("That move is not legal now."),
  unknown_table: N("There is no such table."),
  not_started: N("The game has not started yet."),
  finished: N("The game is over."),
  not_finished: N("That is shown only once the game is over."),
  no_free_seat: N("That table has no free seat any more."),
  too_fast: N("Too fast: wait a moment."),
  rate_limited: N("Too many new tables: try again in a moment."),
  too_many_tables: N("You have too many open tables: finish one first."),
  server_full: N("The server is full: try again later."),
  too_many_connections: N("This table has as many connections as it takes: close one and try again."),
  storage: N("The table could not be saved; try again."),
};

/** What to show for a refusal `{code, message}` (a WebSocket `error` or an ApiError). */
export function errorText(err) {
  const sentence = err && SENTENCES[err.code];
  if (sentence && lang !== "en") return t(sentence);
  return (err && (err.message || err.code)) || t("refused");
}
