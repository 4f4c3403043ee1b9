// What this browser remembers of its tables: its random key (the server lists the tables the key took part
// in: POST /api/recent) and the seat links it was given (table id -> link; the server never gives a link
// again). The lobby shows the list; the table page and a rematch add links to it.
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { t as tr } from "./i18n.js";
import { tableStatus } from "./words.js";

// This browser's key: a lobby join sends it, and the server gives one browser one seat per table.
const CLIENT_KEY = "floe-client-key";
// The seat links this browser got (table id -> link), so "Join" or "Open my seat" goes back to the seat.
const JOINED_KEY = "floe-joined";

/** This browser's random key (kept in localStorage; crypto.getRandomValues works on plain http too). */
export function clientKey() {
  let key = localStorage.getItem(CLIENT_KEY);
  if (!key || !/^[A-Za-z0-9_-]{16,64}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(CLIENT_KEY, key);
  }
  return key;
}

/** The seat links this browser keeps (table id -> link). */
export function joinedLinks() {
  try {
    const links = JSON.parse(localStorage.getItem(JOINED_KEY) || "{}");
    return links && typeof links === "object" ? links : {};
  } catch {
    return {};
  }
}

/** Keep the link of a seat (the 50 latest). */
export function rememberJoin(id, link) {
  const links = joinedLinks();
  delete links[id];
  links[id] = link;
  const ids = Object.keys(links);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete links[old];
  localStorage.setItem(JOINED_KEY, JSON.stringify(links));
}

/** Fill `list` (a <ul>) with this browser's recent tables; `section` is hidden when there are none. */
export async function showRecent(section, list, gameTitle) {
  let tables;
  try {
    tables = await api("/api/recent", { method: "POST", body: { key: clientKey() } });
  } catch {
    return; // the list is a convenience: the lobby works without it
  }
  const links = joinedLinks();
  section.hidden = !tables.length;
  replaceChildren(
    list,
    tables.map((row) => {
      const id = encodeURIComponent(row.id);
      const mine = links[row.id];
      const status = tableStatus(row);
      return h(
        "li",
        { dataset: { table: row.id }, "data-testid": "recent-row" },
        h("strong", {}, gameTitle(row.game)),
        ` · ${tr("table")} `,
        h("code", {}, row.id),
        ` · ${tr("you were P%(n)s", { n: row.my_seat + 1 })} · ${status} `,
        mine && row.status !== "finished" ? h("a", { href: mine, "data-testid": "recent-open" }, tr("Open my seat")) : null,
        " ",
        h("a", { href: `/table/${id}` }, tr("Watch")),
        " ",
        row.status === "finished" ? h("a", { href: `/replay/${id}${mine ? mine.slice(mine.indexOf("#")) : ""}` }, tr("Replay")) : null,
      );
    }),
  );
}
