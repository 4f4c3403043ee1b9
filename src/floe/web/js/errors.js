// A refusal from the server in the page's language. The server writes its `message` in the language the
// page asks for (api.js sends it as Accept-Language, the WebSocket's hello says `lang`), details and all:
// an option's bounds, a name's problem, a limit. Two codes read better as the page's own sentence: their
// message names protocol numbers (a table's version, an action's index) that mean nothing to a player.
import { N, t } from "./i18n.js";

const SENTENCES = {
  stale: N("The table moved on before your move arrived; it was not played."),
  illegal: N("That move is not legal now."),
};

/** What to show for a refusal `{code, message}` (a WebSocket `error` or an ApiError). */
export function errorText(err) {
  const sentence = err && SENTENCES[err.code];
  if (sentence) return t(sentence);
  return (err && (err.message || err.code)) || t("refused");
}
