// Table chat (docs/server.md, "Chat"): the lines of the people at the table and its spectators, shown as
// text only (every line becomes a text node through h(), never parsed as markup), and a box to write one.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

export const MAX_CHARS = 300; // the server's default chat_max_chars; it refuses longer lines anyway

/** "P1 Ann (you)" for a seat's line, "Zoe (spectator)" for a spectator's. */
export function speaker(line, me) {
  if (line.spectator) return `${line.name} ${t("(spectator)")}`;
  return `P${line.seat + 1} ${line.name}${line.seat === me ? ` ${t("(you)")}` : ""}`;
}

/** One line of chat as a list item. */
export function chatItem(line, me) {
  return h(
    "li",
    { class: line.spectator ? "chat-spectator" : "", dataset: { idx: line.idx }, "data-testid": "chat-line" },
    h("span", { class: "chat-who" }, `${speaker(line, me)}: `),
    h("span", { class: "chat-text" }, line.text),
  );
}

/** The chat panel of a table page: `send(message)` sends a chat message over the table's socket. */
export class ChatPanel {
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.me = null;
    this.lines = new Map(); // idx -> line: a reconnect sends the history again
    // A live region that only grows (a screen reader reads each new line once), focusable to scroll it.
    this.list = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite", tabindex: "0", "aria-labelledby": "chat-title" });
    this.drawnFor = undefined; // the seat the drawn lines were worded for ("(you)")
    this.name = h("input", { class: "chat-name", maxlength: 40, placeholder: t("your name"), "data-testid": "chat-name", "aria-label": t("your name") });
    this.input = h("input", { class: "chat-input", maxlength: MAX_CHARS, placeholder: t("Say something…"), "data-testid": "chat-input", "aria-label": t("chat message") });
    const form = h(
      "form",
      { class: "chat-form", "data-testid": "chat-form" },
      this.name,
      this.input,
      h("button", { type: "submit", class: "secondary", "data-testid": "chat-send" }, t("Send")),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.submit();
    });
    replaceChildren(root, h("h2", { class: "zone-title", id: "chat-title" }, t("Chat")), this.list, form);
    this.name.value = localStorage.getItem("floe-name") || "";
    this.setSeat(null);
  }

  /** The page's seat (null: a spectator, who writes under a name of their choice). */
  setSeat(seat) {
    this.me = seat;
    this.name.hidden = seat !== null;
    this.render();
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const message = { type: "chat", text };
    const name = this.name.value.trim();
    if (this.me === null && name) {
      message.name = name;
      localStorage.setItem("floe-name", name);
    }
    if (this.send(message)) this.input.value = "";
  }

  add(lines) {
    for (const line of lines || []) this.lines.set(line.idx, line);
    this.render();
  }

  /** Add the lines not shown yet, each in its place; all of them again only when the page's seat changed. */
  render() {
    const follow = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    if (this.drawnFor !== this.me) {
      replaceChildren(this.list);
      this.drawnFor = this.me;
    }
    const shown = new Set([...this.list.children].map((li) => Number(li.dataset.idx)));
    const added = [...this.lines.values()].filter((line) => !shown.has(line.idx)).sort((a, b) => a.idx - b.idx);
    for (const line of added) {
      const after = [...this.list.children].find((li) => Number(li.dataset.idx) > line.idx);
      this.list.insertBefore(chatItem(line, this.me), after || null);
    }
    if (added.length && follow) this.list.scrollTop = this.list.scrollHeight;
  }
}
