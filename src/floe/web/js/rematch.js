// Rematch on the score screen (docs/server.md, "Rematch"): "Play again" asks the server for a new table with
// the same seats; everyone at the table then sees the invitation, and a person accepts it to get their own
// link to the new table (kept in this browser's recent tables).
import { h, replaceChildren } from "./dom.js";
import { clientKey, rememberJoin } from "./recent.js";
import { t } from "./i18n.js";

export class RematchPanel {
  /** `root`: the panel's element; `send(message)` sends over the table's socket. */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.offer = null; // {table, by}: a rematch someone asked for
    this.link = null; // this seat's link at the new table, once accepted
    this.waiting = false;
  }

  onOffer(msg) {
    this.offer = msg;
    this.show();
  }

  onSeat(msg) {
    this.link = msg.link;
    this.waiting = false;
    rememberJoin(msg.table, msg.link);
    this.show();
  }

  onError() {
    this.waiting = false;
    this.show();
  }

  /** Show the panel once the game is over (hidden before). */
  render(state, mySeat) {
    this.finished = state && state.status === "finished";
    this.me = mySeat;
    this.show();
  }

  ask() {
    if (this.send({ type: "rematch", key: clientKey() })) {
      this.waiting = true;
      this.show();
    }
  }

  show() {
    const root = this.root;
    root.hidden = !this.finished;
    if (!this.finished) return;
    const parts = [h("h2", { class: "zone-title" }, t("Play again"))];
    if (this.link) {
      parts.push(h("p", {}, h("a", { href: this.link, "data-testid": "rematch-open" }, t("Open your seat at the new table"))));
    } else if (this.me === null) {
      parts.push(
        this.offer
          ? h("p", {}, t("The players are setting up a rematch:") + " ", h("a", { href: `/table/${encodeURIComponent(this.offer.table)}`, "data-testid": "rematch-watch" }, t("watch it")), ".")
          : h("p", { class: "muted" }, t("The players may ask for a rematch here.")),
      );
    } else {
      // The one who asked (back at the finished table later) is not asked to accept their own offer.
      const mine = this.offer && this.offer.by === this.me;
      let words = t("A new table with the same seats, options and bots; everyone here is invited.");
      let label = t("Play again");
      if (mine) {
        words = t("You asked for a rematch with the same seats; the others are invited.");
        label = t("Open your seat at the new table");
      } else if (this.offer) {
        words = t("P%(n)s asks for a rematch with the same seats.", { n: this.offer.by + 1 });
        label = t("Accept the rematch");
      }
      parts.push(
        h("p", { "data-testid": "rematch-words" }, words),
        h("button", { type: "button", "data-testid": "rematch", disabled: this.waiting, onclick: () => this.ask() }, label),
      );
    }
    replaceChildren(root, ...parts);
  }
}
