// Focus across redraws, for every game. A table page redraws its prompt, choices and board whole after every
// state, selection and answer, so the element a person had focused is usually replaced by a new one: the
// browser then puts focus on the page itself and a screen reader loses its place. FocusKeeper remembers
// what was focused by what it stands for (its board object, its choice, its test id), not by the element,
// and after each redraw puts focus back on the element that stands for the same thing, else on purpose on
// the prompt's first choice, else on the prompt itself. It acts only when the redraw took the focus away from
// its area: focus the person moved elsewhere (the chat, the header) is left alone.

/** A CSS selector for what `el` stands for (null: nothing that survives a redraw), and its rank among matches. */
export function identity(el, root) {
  let selector = null;
  if (el.dataset.obj !== undefined) selector = `[data-obj="${CSS.escape(el.dataset.obj)}"]`;
  else if (el.dataset.action !== undefined) selector = `[data-testid="choice"][data-action="${CSS.escape(el.dataset.action)}"]`;
  else if (el.id) selector = `#${CSS.escape(el.id)}`;
  else if (el.dataset.testid) selector = `[data-testid="${CSS.escape(el.dataset.testid)}"]`;
  else if (el.matches(".all-choices > summary")) selector = ".all-choices > summary";
  if (!selector) return null;
  // The same choice may be both a button at the top and one of the full list: the rank tells them apart.
  const rank = [...root.querySelectorAll(selector)].indexOf(el);
  return { selector, rank: Math.max(0, rank) };
}

/** Whether `el` can take focus now and is on the page (not in a closed list, not hidden, not disabled). */
export function focusable(el) {
  if (!el || !el.isConnected || el.disabled || el.closest("[hidden], [inert]")) return false;
  if (el.closest("details:not([open])") && !el.matches("details > summary")) return false;
  if (!el.getClientRects().length) return false;
  // A highlighted board object out of the Tab order (choices.js: one Tab stop per group) still takes focus.
  return el.tabIndex >= 0 || el.matches("[data-legal], a[href], button, input, select, textarea, summary");
}

export class FocusKeeper {
  /**
   * @param {HTMLElement} root  the area that is redrawn (the table's main column)
   * @param {HTMLElement} prompt  the prompt, focused when nothing else fits (made focusable by script only)
   * @param {() => HTMLElement[]} firstChoices  the prompt's choices in order, for when the old one is gone
   */
  constructor(root, prompt, firstChoices) {
    this.root = root;
    this.prompt = prompt;
    this.firstChoices = firstChoices;
    this.wanted = null; // what the person last focused in the area
    this.inside = false; // whether the focus was last in the area (so a loss of it is the redraw's doing)
    this.pointer = false; // whether the last input was a pointer's (the focus is then put back without a scroll)
    document.addEventListener("pointerdown", () => (this.pointer = true), true);
    document.addEventListener("keydown", () => (this.pointer = false), true);
    prompt.setAttribute("tabindex", "-1");
    document.addEventListener("focusin", (ev) => {
      const el = ev.target;
      // A dialog (a confirmation, the rules) is a detour: the focus comes back from it to the area.
      if (el instanceof Element && el.closest("dialog")) return;
      this.inside = el instanceof Element && root.contains(el);
      if (this.inside && el !== prompt) this.wanted = identity(el, root);
    });
  }

  /** After a redraw: focus back on the same thing, or on purpose on the first choice or the prompt. */
  restore() {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (!this.inside || !(lost || active === this.prompt || !focusable(active))) return;
    const same = this.wanted ? [...this.root.querySelectorAll(this.wanted.selector)].filter(focusable) : [];
    const target = same[Math.min(this.wanted ? this.wanted.rank : 0, same.length - 1)] || this.firstChoices().find(focusable);
    // A keyboard's focus is scrolled into view; a mouse's is not (the page would jump under the pointer).
    const options = { preventScroll: this.pointer };
    if (target) target.focus(options);
    else if (active !== this.prompt) this.prompt.focus(options);
  }
}
