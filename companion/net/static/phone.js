/* Companion phone page: one seat's private screen. No build step, no network but the Pi.
 *
 * Protocol (docs/protocol.md): hello {token, device} -> welcome | error; then the server pushes
 * {type:"state", ...snapshot} after every change; we send {type:"intent", id, seq, intent} and get
 * {type:"ack", id, seq} or {type:"refused", id, code, params, text}. An action is shown as done only
 * after its ack. Game screens are renderers registered in RENDERERS below.
 */
"use strict";

const C = (() => {
  const token = decodeURIComponent((location.pathname.split("/s/")[1] || "").split("/")[0]);
  const deviceKey = "companion.device." + token;
  let texts = {};
  let lang = "en";
  let ws = null;
  let retry = 0;
  let fatal = false;
  let nextId = 1;
  let pending = null;        // {id, label} while an intent waits for the Pi
  let state = null;          // the latest {type:"state", ...}
  let ui = {};               // per-screen choices (selected figure, ...), kept across re-renders
  let reconnectTimer = null;

  function device() {
    let d = localStorage.getItem(deviceKey);
    if (!d || !/^[0-9a-f]{64}$/.test(d)) {
      const bytes = new Uint8Array(32);
      crypto.getRandomValues(bytes);
      d = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(deviceKey, d);
    }
    return d;
  }

  function t(code, params) {
    let probe = code;
    while (probe) {
      if (Object.prototype.hasOwnProperty.call(texts, probe)) {
        return texts[probe].replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
      }
      const cut = probe.lastIndexOf(".");
      probe = cut > 0 ? probe.slice(0, cut) : "";
    }
    return code;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "onclick") node.addEventListener("click", v);
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

  function setStatus(kind) {
    const s = document.getElementById("status");
    s.className = "status " + kind;
    s.textContent = t("phone." + kind);
    s.dataset.state = kind;
  }

  function notice(text, info) {
    const n = document.getElementById("notice");
    if (!text) { n.hidden = true; n.textContent = ""; return; }
    n.hidden = false;
    n.className = info ? "info" : "";
    n.textContent = text;
  }

  async function loadTexts(language) {
    try {
      const r = await fetch("/texts/" + language + ".json", { cache: "no-store" });
      if (r.ok) { texts = await r.json(); lang = language; document.documentElement.lang = language; }
    } catch (e) { /* keep the old texts */ }
  }

  function connect() {
    clearTimeout(reconnectTimer);
    if (fatal) return;
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
    setStatus(retry ? "reconnecting" : "connecting");
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, device: device() }));
    ws.onmessage = (ev) => receive(JSON.parse(ev.data));
    ws.onclose = () => {
      ws = null;
      if (pending) { pending = null; render(); }
      if (fatal) { setStatus("closed"); return; }
      setStatus("reconnecting");
      retry = Math.min(retry + 1, 5);
      reconnectTimer = setTimeout(connect, 500 * 2 ** (retry - 1));
    };
  }

  async function receive(msg) {
    switch (msg.type) {
      case "welcome":
        retry = 0;
        if (msg.lang !== lang || !Object.keys(texts).length) await loadTexts(msg.lang);
        setStatus("connected");
        notice(null);
        break;
      case "error":
        fatal = true;
        notice(msg.text || msg.code);
        document.getElementById("main").replaceChildren();
        break;
      case "state":
        state = msg;
        render();
        break;
      case "no_game":
        state = null;
        document.getElementById("main").replaceChildren(el("section", {}, el("p", { text: t("phone.no_game") })));
        break;
      case "ack":
        if (pending && pending.id === msg.id) { pending = null; ui = {}; notice(t("phone.done"), true); render(); }
        break;
      case "refused":
        if (pending && (msg.id === null || pending.id === msg.id)) pending = null;
        notice(msg.text || msg.code);
        render();
        break;
    }
  }

  function send(intent, label) {
    if (!ws || ws.readyState !== WebSocket.OPEN || !state || pending) return;
    const id = nextId++;
    pending = { id, label: label || "" };
    notice(t("phone.waiting"), true);
    ws.send(JSON.stringify({ type: "intent", id, seq: state.seq, intent }));
    render();
  }

  function render() {
    if (!state) return;
    const main = document.getElementById("main");
    const renderer = RENDERERS[state.game] || RENDERERS.fallback;
    document.getElementById("title").textContent = state.title || t("game." + state.game);
    const screen = renderer(state, { t, el, send, ui, busy: !!pending, rerender: render });
    if (state.can_undo) {
      screen.append(el("section", {}, el("button", {
        onclick: () => send({ kind: "core.undo" }, "undo"), disabled: !!pending, "data-action": "undo",
      }, t("phone.undo"))));
    }
    main.replaceChildren(screen);
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) { retry = 0; connect(); } });
  window.addEventListener("online", () => { retry = 0; connect(); });
  window.addEventListener("pageshow", () => connect());
  return { connect, t, el, get state() { return state; } };
})();

/* ---- game screens ------------------------------------------------------------------------ */
const RENDERERS = {};

RENDERERS.fallback = (state, { el }) =>
  el("div", {}, el("section", {}, el("div", { class: "pre", text: JSON.stringify(state.view, null, 1) })));

/* GAME RENDERERS */

C.connect();
