// Explanations in place, for every page and every game: an element with a `data-tip` attribute shows that
// text in a small popover when a mouse (or pen) hovers it, when it has keyboard focus, and when it is tapped
// or clicked. A tap on something that is also a choice plays the choice instead: choices.js stops that click
// before it gets here, so a tip never steals a move. One popover serves the whole page.
import { h } from "./dom.js";

let popover = null;
let owner = null; // the element whose tip shows
let pinned = false; // shown by a tap or click: stays until the next tap, click elsewhere or Escape

/** Start showing tips on this page (once; later calls do nothing). */
export function installTips() {
  if (popover) return;
  linkCss("/static/css/help.css");
  popover = h("div", { class: "tip", role: "tooltip", id: "floe-tip", "data-testid": "tip", hidden: true });
  document.body.append(popover);
  document.addEventListener("pointerover", (ev) => {
    if (ev.pointerType === "touch" || pinned) return; // a touch shows its tip on the click that follows
    const el = tipOwner(ev.target);
    if (el) show(el, false);
  });
  document.addEventListener("pointerout", (ev) => {
    if (pinned || !owner || ev.pointerType === "touch") return;
    if (!(ev.relatedTarget instanceof Node && owner.contains(ev.relatedTarget))) hide();
  });
  // Focus from the keyboard shows the tip; focus a page puts back after a mouse's move (focus.js) does not.
  document.addEventListener("focusin", (ev) => {
    const el = tipOwner(ev.target);
    if (el && el.matches(":focus-visible")) show(el, false);
  });
  document.addEventListener("focusout", () => {
    if (!pinned) hide();
  });
  document.addEventListener("click", (ev) => {
    const el = tipOwner(ev.target);
    // A click inside a button is the button's (a choice, played): the tip would outlive what it explains.
    if (el && !el.closest("button") && !(pinned && owner === el)) show(el, true);
    else hide();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") hide();
  });
  // A scroll (of the page or of a panel) or a resize moves the element: the tip follows it.
  const follow = () => {
    if (owner && owner.isConnected) place(owner);
    else if (owner) hide();
  };
  window.addEventListener("scroll", follow, { capture: true, passive: true });
  window.addEventListener("resize", follow);
}

function tipOwner(target) {
  const el = target instanceof Element ? target.closest("[data-tip]") : null;
  return el && el.dataset.tip ? el : null;
}

function show(el, pin) {
  owner = el;
  pinned = pin;
  // An open modal dialog (the rules panel) is drawn above the page: the tip of something in it lives in it.
  const host = el.closest("dialog[open]") || document.body;
  if (popover.parentElement !== host) host.append(popover);
  popover.textContent = el.dataset.tip;
  popover.hidden = false;
  el.setAttribute("aria-describedby", popover.id);
  place(el);
}

/** Hide the tip (if any). */
export function hide() {
  if (!popover) return;
  if (owner) owner.removeAttribute("aria-describedby");
  owner = null;
  pinned = false;
  popover.hidden = true;
}

/** Below the element (above it when there is no room), kept inside the window. */
function place(el) {
  const box = el.getBoundingClientRect();
  popover.style.left = "0px";
  popover.style.top = "0px";
  const tip = popover.getBoundingClientRect();
  const gap = 6;
  let top = box.bottom + gap;
  if (top + tip.height > window.innerHeight && box.top - gap - tip.height >= 0) top = box.top - gap - tip.height;
  const left = Math.min(Math.max(4, box.left + box.width / 2 - tip.width / 2), window.innerWidth - tip.width - 4);
  popover.style.left = `${Math.max(4, left)}px`;
  popover.style.top = `${Math.max(4, top)}px`;
}

/** Link a style sheet once. */
export function linkCss(href) {
  const url = new URL(href, location.href).href;
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === url)) return;
  document.head.append(h("link", { rel: "stylesheet", href: url }));
}
