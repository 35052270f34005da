/* Shared by the phone page's shell and the game modules: building DOM nodes, a number stepper. */

/* el("button", {class, onclick, text, "data-x": 1}, ...children): one element; null/false children are
 * skipped; any on<event> given a function listens to that event (onclick, oninput, onchange). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/* A number with − and + buttons (zone counts, segment parts, counters); `set(n)` gets the new value. */
export function stepper(el, value, min, max, busy, set) {
  return [
    el("button", { class: "step", disabled: busy || value <= min, "data-step": "-", onclick: () => set(value - 1) }, "−"),
    el("b", { class: "step-n" }, String(value)),
    el("button", { class: "step", disabled: busy || value >= max, "data-step": "+", onclick: () => set(value + 1) }, "+"),
  ];
}
