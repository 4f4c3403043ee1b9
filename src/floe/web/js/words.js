// Words every game's pages share: how a seat is named on the table.

/** "P2 Ann", "P1 (you)", "P3 bot ISMCTS · 0.5 s": how a seat is named on the table (a bot by the name the
 * server gives it, its spec if it has none). */
export function seatLabel(seat, summary, me) {
  const info = summary && summary.seats ? summary.seats.find((s) => s.seat === seat) : null;
  let name = `P${seat + 1}`;
  if (info && info.kind === "bot") name += ` bot ${info.label || info.bot || info.name || ""}`.trimEnd();
  else if (info && info.name) name += ` ${info.name}`;
  if (seat === me) name += " (you)";
  return name;
}

/** "tap" on a touch screen (a coarse pointer), else "click"; `capital` gives "Tap" / "Click". */
export function clickWord(capital = false) {
  const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  const word = coarse ? "tap" : "click";
  return capital ? word[0].toUpperCase() + word.slice(1) : word;
}

/** "1 point", "2 points", "-1 point": the count and its noun in the right number (`plural` if not "+s"). */
export function counted(n, noun, plural = `${noun}s`) {
  return `${n} ${Math.abs(n) === 1 ? noun : plural}`;
}
