/* Companion phone page: one seat's private screen. No build step, no network but the Pi.
 *
 * Protocol (docs/protocol.md): hello {token, device} -> welcome | error; then the server pushes
 * {type:"state", ...snapshot} after every change; we send {type:"intent", id, seq, intent} and get
 * {type:"ack", id, seq} or {type:"refused", id, code, params, text}. An action is shown as done only
 * after its ack.
 *
 * This file is the shell (connection, texts, undo). Each game's screens are one ES module,
 * /static/games/<game>.js, exporting render(state, ctx); the shell loads it the first time a state
 * of that game arrives. A game without a module is shown by the fallback below (its view as text).
 */
import { el } from "./kit.js";
import { language as languageOf, render as fill } from "./texts.js";

const fallback = { render: (state, { el }) =>
  el("div", {}, el("section", {}, el("div", { class: "pre", text: JSON.stringify(state.view, null, 1) }))) };

// Errors after which the page connects again by itself (docs/protocol.md); every other one is final.
const RETRYABLE = new Set(["link.busy", "hello.timeout"]);

const C = (() => {
  const token = decodeURIComponent((location.pathname.split("/s/")[1] || "").split("/")[0]);
  const deviceKey = "companion.device." + token;
  const langKey = "companion.lang." + token;  // this seat's own language, when its player chose one
  let languages = [];        // [{code, name}] from the welcome
  let ownLang = false;       // the server says this seat has its own language
  let texts = {};
  let lang = "en";
  let rules = languageOf({});  // the loaded texts' plural rule and digit grouping
  let ws = null;
  let retry = 0;
  let fatal = false;
  let nextId = 1;
  let pending = null;        // {id, label} while an intent waits for the Pi
  let state = null;          // the latest {type:"state", ...}
  let mySeat = null;         // the seat id from the welcome ("@table" for the table link)
  let ui = {};               // per-screen choices (selected figure, ...), kept across re-renders
  let reconnectTimer = null;
  let received = 0;          // states received, so a state that waited for its game's module never wins over a newer one
  const loading = {};        // game -> promise of loading its screens' module
  const loaded = {};         // game -> its module once loaded (the fallback if it has none)

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
        try { return fill(texts[probe], params, rules); } catch (e) { return texts[probe]; }
      }
      const cut = probe.lastIndexOf(".");
      probe = cut > 0 ? probe.slice(0, cut) : "";
    }
    return code;
  }


  function setStatus(kind) {
    const s = document.getElementById("status");
    s.className = "status " + kind;
    s.textContent = t("phone." + kind);
    s.dataset.state = kind;
  }

  let noticeTimer = null;
  function notice(text, info) {
    const n = document.getElementById("notice");
    clearTimeout(noticeTimer);
    if (!text) { n.hidden = true; n.textContent = ""; return; }
    n.hidden = false;
    n.className = info ? "info" : "";
    n.textContent = text;
    // "Done." fades away; refusals stay until the next action so nobody misses them.
    if (info && !pending) noticeTimer = setTimeout(() => notice(null), 3000);
  }

  async function loadTexts(language) {
    try {
      const r = await fetch("/texts/" + language + ".json", { cache: "no-store" });
      if (r.ok) { texts = await r.json(); rules = languageOf(texts); lang = language; document.documentElement.lang = language; }
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
      case "welcome": {
        retry = 0;
        mySeat = msg.seat;
        languages = msg.languages || [];
        ownLang = !!msg.own_lang;
        const mine = localStorage.getItem(langKey);
        if (mine && !ownLang && languages.some((l) => l.code === mine)) {
          ws.send(JSON.stringify({ type: "lang", lang: mine }));  // the Pi restarted since: tell it again
        }
        if (msg.lang !== lang || !Object.keys(texts).length) await loadTexts(msg.lang);
        setStatus("connected");
        notice(null);
        footer();
        render();  // a state may have arrived while the texts were loading
        break;
      }
      case "lang":  // the table's language changed, or this seat chose its own: every word again
        ownLang = !!msg.own_lang;
        if (msg.lang !== lang) await loadTexts(msg.lang);
        setStatus(document.getElementById("status").dataset.state || "connected");
        footer();
        render();
        break;
      case "error":
        fatal = !RETRYABLE.has(msg.code);  // busy or slow: the page tries again by itself
        notice(msg.text || msg.code);
        document.getElementById("main").replaceChildren();
        break;
      case "state": {
        const n = ++received;
        await gameModule(msg.game);
        if (n !== received) break;
        state = msg;
        render();
        break;
      }
      case "no_game":
        received++;  // a state still waiting for its game's module is out of date
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

  function gameModule(game) {
    if (!loading[game]) {
      const found = /^[a-z0-9_]+$/.test(game || "")
        ? import("./games/" + game + ".js").then((m) => (typeof m.render === "function" ? m : fallback), () => fallback)
        : Promise.resolve(fallback);
      loading[game] = found.then((m) => { loaded[game] = m; });
    }
    return loading[game];
  }

  /* The language choice under the screen: the table's (the default), or this seat's own. */
  function footer() {
    const foot = document.getElementById("foot");
    if (!foot || !languages.length) return;
    const choose = (ev) => {
      const code = ev.target.value || null;
      if (code) localStorage.setItem(langKey, code); else localStorage.removeItem(langKey);
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "lang", lang: code }));
    };
    const select = el("select", { "data-lang-select": "", onchange: choose, "aria-label": t("phone.language") },
      el("option", { value: "", selected: !ownLang }, t("phone.language.table")),
      languages.map((l) => el("option", { value: l.code, selected: ownLang && l.code === lang }, l.name)));
    foot.replaceChildren(el("label", {}, t("phone.language") + " ", select));
  }

  function render() {
    if (!state) return;
    const main = document.getElementById("main");
    const renderer = (loaded[state.game] || fallback).render;
    document.getElementById("title").textContent = state.title || t("game." + state.game);
    const screen = renderer(state, { t, el, send, ui, busy: !!pending, rerender: render });
    if (state.can_undo) {
      screen.append(el("section", {}, el("button", {
        onclick: () => send({ kind: "core.undo" }, "undo"), disabled: !!pending, "data-action": "undo",
      }, t(mySeat === "@table" ? "phone.undo_table" : "phone.undo"))));
    }
    main.replaceChildren(screen);
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden) { retry = 0; connect(); } });
  window.addEventListener("online", () => { retry = 0; connect(); });
  window.addEventListener("pageshow", () => connect());
  return { connect, t, el, get state() { return state; } };
})();

window.C = C;  // the browser tests read C.state
C.connect();
