// Moves made visible: each board element that stands for a thing of the game (a card, a token, a piece)
// carries a stable `data-key` from the board module; before a re-render the page measures where every keyed
// element is, after it where they went, and slides each moved one from its old place to its new one (FLIP:
// first, last, invert, play). What the move changed is marked `last-move` until the next move: an element
// that is new, or whose `data-look` changed (a board puts the element's place in the game into it — "hand",
// "river", a field — and what else may change about it, so a card that only shifted because its neighbour
// left slides but is not marked).
//
// An element may also carry `data-alias`: the key it had before, if it may have had another (a piece placed
// from a supply came from the supply's piece). Keys seen twice in one render are left alone.

/** Every element under `root` with a key that is there once: key -> the element. */
function keyed(root) {
  const found = new Map();
  const twice = new Set();
  for (const el of root.querySelectorAll("[data-key]")) {
    const key = el.dataset.key;
    if (found.has(key)) twice.add(key);
    else found.set(key, el);
  }
  for (const key of twice) found.delete(key);
  return found;
}

/**
 * How every keyed element under `root` looks, and with `boxes` where it is: key -> {box, look}. (Measuring
 * makes the browser lay the page out: without a slide to play, it is left out.)
 */
export function measure(root, { boxes = true } = {}) {
  const out = new Map();
  for (const [key, el] of keyed(root)) {
    out.set(key, { box: boxes ? el.getBoundingClientRect() : null, look: el.dataset.look });
  }
  return out;
}

/**
 * Compare the freshly rendered `root` with `before` (from `measure`): returns the keys that moved,
 * appeared or changed their look (`data-look`: e.g. a field that melted, a power card that changed hands).
 * With `duration` > 0 the moved elements slide from where they were and the new ones fade in.
 */
export function animateFrom(root, before, { duration = 0 } = {}) {
  const changed = new Set();
  for (const [key, el] of keyed(root)) {
    const was = before.get(key) || (el.dataset.alias ? before.get(el.dataset.alias) : undefined);
    if (!was) {
      changed.add(key);
      if (duration > 0) fadeIn(el, duration);
      continue;
    }
    // Marked: what came from another key (its alias) or changed its look (its place is part of it); what
    // only shifted because something next to it left slides, unmarked.
    if (!before.has(key) || was.look !== el.dataset.look) changed.add(key);
    if (duration <= 0 || !was.box) continue;
    const now = el.getBoundingClientRect();
    const dx = was.box.left - now.left;
    const dy = was.box.top - now.top;
    if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) slide(el, dx, dy, duration);
  }
  return changed;
}

/** Mark the elements of `keys` as the last move (and unmark the others). */
export function markLastMove(root, keys) {
  for (const el of root.querySelectorAll(".last-move")) el.classList.remove("last-move");
  for (const el of root.querySelectorAll("[data-key]")) {
    if (keys.has(el.dataset.key)) el.classList.add("last-move");
  }
}

/** Stop every slide and fade still running under `root` (a skip: the board shows where things are). */
export function finishAnimations(root) {
  for (const anim of root.getAnimations({ subtree: true })) anim.finish();
}

// An SVG element's CSS transform is in the drawing's own units, not the screen's pixels: scale the shift.
function screenToLocal(el, dx, dy) {
  if (!(el instanceof SVGElement) || !el.ownerSVGElement) return [dx, dy];
  const ctm = el.ownerSVGElement.getScreenCTM();
  if (!ctm || !ctm.a || !ctm.d) return [dx, dy];
  return [dx / ctm.a, dy / ctm.d];
}

function slide(el, dx, dy, duration) {
  const [x, y] = screenToLocal(el, dx, dy);
  el.animate([{ transform: `translate(${x}px, ${y}px)` }, { transform: "translate(0, 0)" }], {
    duration,
    easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
  });
}

function fadeIn(el, duration) {
  el.animate([{ opacity: 0, transform: "scale(0.6)" }, { opacity: 1, transform: "scale(1)" }], {
    duration: Math.min(duration, 300),
    easing: "ease-out",
  });
}
