// Words every game's pages share: how a seat is named on the table.
import { nt, t } from "./i18n.js";

/** "P2 Ann", "P1 (you)", "P3 bot ISMCTS · 0.5 s": how a seat is named on the table (a bot by the name the
 * server gives it, its spec if it has none). */
export function seatLabel(seat, summary, me) {
  const info = summary && summary.seats ? summary.seats.find((s) => s.seat === seat) : null;
  let name = `P${seat + 1}`;
  const label = info ? info.label || info.bot || info.name || "" : "";
  if (info && info.kind === "bot") name += ` ${t("bot")} ${label ? botWords(label) : ""}`.trimEnd();
  else if (info && info.name) name += ` ${info.name}`;
  if (seat === me) name += ` ${t("(you)")}`;
  return name;
}

/** A bot's label as the server words it (English: "ISMCTS · 200 iterations", "Baseline (BGA's automatic
 * player)") in the page's language, piece by piece: the name through the catalogs, the iterations counted
 * (bots/labels.py words it the same way in Python). */
export function botWords(label) {
  return String(label)
    .split(" · ")
    .map((piece) => {
      const counted = /^(\d+) iterations?$/.exec(piece);
      return counted ? nt("%(n)s iteration", "%(n)s iterations", Number(counted[1])) : t(piece);
    })
    .join(" · ");
}

/** "tap" on a touch screen (a coarse pointer), else "click"; `capital` gives "Tap" / "Click". */
export function clickWord(capital = false) {
  const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  const word = coarse ? t("tap") : t("click");
  return capital ? word[0].toUpperCase() + word.slice(1) : word;
}

/** "1 point", "2 points", "-1 point"; Polish "2 punkty", "5 punktów": the count and the noun in the form the
 * count asks for, the noun's forms a plural message of the catalogs (as Python's words.counted). */
export function counted(n, singular, plural) {
  return `${n} ${nt(singular, plural, Math.abs(n))}`;
}

/** A table's status in words: waiting, playing, finished. */
export function statusWord(status) {
  const words = { waiting: t("waiting"), playing: t("playing"), finished: t("finished") };
  return words[status] || status;
}

/** A listed table's status as the lobby and the recent list tell it: "playing: P2 to move"; a table whose
 * seats are all taken but some person's link was never opened (the creator's own, say) is "waiting for
 * players", not "playing" (the server's `opened`). */
export function tableStatus(row) {
  if (row.status === "playing" && row.opened === false) return t("waiting for players");
  if (row.status === "playing" && Number.isInteger(row.to_move)) return t("playing: P%(n)s to move", { n: row.to_move + 1 });
  return statusWord(row.status);
}
