// Rules help for every game: a "How to play" panel and the game's terms explained where they are used.
//
// A game that ships help has a module `help.js` in its web folder (GET /api/games names it: `help`); it
// exports `title`, `sections` ([{id, title, html}], the game's own static text) and `terms`
// ([{term, tip, pattern?}]: a word or phrase of its prompts and what it means; `pattern`, a regular
// expression, when the plain word would also match where it means something else). A game without help gets
// no button and no marked terms. The interface is described in docs/server.md ("Help modules").
import { h, replaceChildren } from "./dom.js";
import { hide, installTips } from "./tips.js";
import { t } from "./i18n.js";

const modules = new Map(); // url -> promise of the module

/** The help module of a game (`info` from GET /api/games), or null if it has none. */
export function loadHelp(info) {
  if (!info || !info.help) return Promise.resolve(null);
  const url = new URL(info.help, location.href).href;
  if (!modules.has(url)) {
    const loading = import(url).catch((err) => {
      modules.delete(url); // try again next time
      throw err;
    });
    modules.set(url, loading);
  }
  return modules.get(url);
}

/** A "How to play" button for game `info` (null if the game has no help). */
export function helpButton(info, { testid = "help-open" } = {}) {
  if (!info || !info.help) return null;
  installTips();
  return h(
    "button",
    {
      type: "button",
      class: "help-open secondary",
      "data-testid": testid,
      "aria-haspopup": "dialog",
      onclick: () => openHelp(info),
    },
    t("How to play"),
  );
}

/**
 * On a table or replay page: tips on (boards' cards explain themselves), the "How to play" button in the
 * header, and the game's terms marked wherever `roots` (the prompt: the decision line, the choices) show
 * them, re-marked as those parts are redrawn.
 */
export async function installHelp(info, roots) {
  installTips();
  if (!info || !info.help) return;
  const button = helpButton(info);
  const bar = document.querySelector(".topbar-actions") || document.querySelector(".topbar");
  if (bar) bar.append(button);
  const module = await loadHelp(info);
  const terms = compile(module.terms);
  for (const root of roots) watchTerms(root, terms);
}

let panel = null;

/** Open the help panel of game `info`. */
export async function openHelp(info) {
  const module = await loadHelp(info);
  if (!module) return;
  installTips();
  if (!panel) {
    panel = h("dialog", { class: "help-panel", "data-testid": "help-panel", "aria-labelledby": "help-title" });
    // A click on the backdrop (outside the panel's box) closes it, as Escape does.
    panel.addEventListener("click", (ev) => {
      const box = panel.getBoundingClientRect();
      const inside = ev.clientX >= box.left && ev.clientX <= box.right && ev.clientY >= box.top && ev.clientY <= box.bottom;
      if (ev.target === panel && !inside) panel.close();
    });
    panel.addEventListener("close", hide);
    document.body.append(panel);
  }
  const sections = [...(module.sections || [])];
  const glossary = glossarySection(module.terms);
  if (glossary) sections.push(glossary);
  const close = h(
    "button",
    { type: "button", class: "help-close secondary", "data-testid": "help-close", "aria-label": t("Close"), onclick: () => panel.close() },
    "✕",
  );
  const body = h("div", { class: "help-body", "data-testid": "help-body" });
  const terms = compile(module.terms);
  for (const section of sections) {
    const content = document.createElement("template");
    if (section.html) content.innerHTML = section.html; // the game's own static text, never a player's
    const part = h("section", { class: "help-section", id: `help-${section.id}`, "data-testid": `help-${section.id}` },
      h("h3", {}, section.title),
      section.nodes || content.content);
    if (section !== glossary) markTerms(part, terms, { once: true }); // a term's first use in a section: enough
    body.append(part);
  }
  const nav = h(
    "nav",
    { class: "help-nav", "aria-label": t("Sections") },
    sections.map((s) =>
      h("a", { href: `#help-${s.id}`, onclick: (ev) => {
        ev.preventDefault();
        body.querySelector(`#help-${CSS.escape(s.id)}`).scrollIntoView({ block: "start" });
      } }, s.title),
    ),
  );
  replaceChildren(panel, h("header", { class: "help-head" }, h("h2", { id: "help-title" }, module.title || t("How to play")), close), nav, body);
  if (!panel.open) panel.showModal();
  body.scrollTop = 0;
}

/** The game's marked terms and what they mean, as the help panel's last section (null: no terms). */
function glossarySection(terms) {
  if (!terms || !terms.length) return null;
  const sorted = [...terms].sort((a, b) => a.term.localeCompare(b.term));
  const list = h("dl", { class: "help-terms" }, sorted.map((term) => [h("dt", {}, term.term), h("dd", {}, term.tip)]));
  return { id: "terms", title: t("Terms used"), nodes: list };
}

/** The terms as matchers, longest first (so "placement value" wins over "value"). */
function compile(terms) {
  const out = [];
  for (const t of terms || []) {
    try {
      const re = new RegExp(t.pattern || `\\b${t.term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}s?\\b`, "i");
      out.push({ tip: `${t.term}: ${t.tip}`, term: t.term, re });
    } catch {
      // A pattern this browser cannot read (e.g. a look-behind in an old Safari): that term goes unmarked.
    }
  }
  return out.sort((a, b) => b.term.length - a.term.length);
}

// Where terms are never marked: inside a mark already, and in things that are not prose.
const SKIP = ".term, script, style, svg, input, select, textarea, dialog.help-panel .help-nav";

/**
 * Wrap each term in the text under `root` in a span that explains it (see tips.js); with `once`, only the
 * first use of each term.
 */
export function markTerms(root, terms, { once = false } = {}) {
  if (!terms.length) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeValue.trim() && !(n.parentElement && n.parentElement.closest(SKIP))) texts.push(n);
  }
  const done = once ? new Set() : null;
  for (const text of texts) markText(text, done ? terms.filter((t) => !done.has(t)) : terms, done);
}

function markText(text, terms, done) {
  let node = text;
  while (node && node.nodeValue) {
    let best = null;
    for (const t of terms) {
      if (done && done.has(t)) continue;
      const m = t.re.exec(node.nodeValue);
      if (m && m[0] && (!best || m.index < best.m.index)) best = { m, t };
    }
    if (!best) return;
    const start = node.splitText(best.m.index);
    node = start.splitText(best.m[0].length);
    // The mark explains on hover and on a tap (inside a button, a choice, a tap plays it). It is no Tab stop
    // of its own (a prompt would have one per term): the panel's list of terms explains them to a keyboard.
    const mark = h("span", { class: "term", "data-tip": best.t.tip, "data-term": best.t.term, "data-testid": "term" });
    start.replaceWith(mark);
    mark.append(start);
    if (done) done.add(best.t);
  }
}

/** Mark terms under `root` now and whenever its content is redrawn. */
export function watchTerms(root, terms) {
  if (!root || !terms.length) return;
  installTips();
  markTerms(root, terms);
  // Marking changes the tree too; those changes add only marks, whose text is skipped, so this settles.
  new MutationObserver(() => markTerms(root, terms)).observe(root, { childList: true, subtree: true, characterData: true });
}
