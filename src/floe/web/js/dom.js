// A tiny element builder, so renderers read as a tree instead of long createElement sequences.

/**
 * h("div", {class: "x", dataset: {seat: 1}, onclick: fn}, child, "text", [more, children])
 * Attributes whose value is null, undefined or false are left out; children may be nested arrays,
 * strings, numbers or nodes (null and false are skipped, which keeps conditional parts short).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      // setProperty, not assignment: custom properties such as "--c" are ignored by Object.assign.
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    }
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace every child of `el` with `children`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
