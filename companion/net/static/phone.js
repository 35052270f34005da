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


/* Scotland Yard ---------------------------------------------------------------------------- */
const TICKETS = ["taxi", "bus", "underground", "black"];

function chip(el, t, ticket) {
  return el("span", { class: "chip t-" + ticket }, t("phone.sy.ticket." + ticket));
}

function syLog(view, secretRoute, { el, t }) {
  const fields = [];
  const byField = {};
  for (const f of view.log) byField[f.field] = f;
  const mine = {};
  for (const f of secretRoute || []) mine[f.field] = f;
  const reveals = new Set(view.reveal_fields);
  for (let n = 1; n <= 24; n++) {
    const f = byField[n];
    const station = mine[n] ? mine[n].station : f && f.station;
    fields.push(el("div", { class: reveals.has(n) ? "reveal" : "", "data-field": n },
      el("div", { class: "muted" }, String(n)),
      f ? chip(el, t, f.ticket) : "",
      station ? el("div", {}, el("b", {}, String(station))) : ""));
  }
  return el("section", {}, el("h2", {}, t("phone.sy.log")), el("div", { class: "log" }, fields));
}

function syFigures(view, { el, t }) {
  const rows = view.figures.map((f) => {
    const seat = view.seats.find((s) => (s.figures || []).includes(f.figure) && !f.bobby);
    const tk = seat ? seat.tickets : null;
    return el("tr", { "data-figure": f.figure },
      el("td", {}, el("b", {}, f.figure), f.bobby ? " " + t("phone.sy.bobby") : ""),
      el("td", {}, f.station ? String(f.station) : "–"),
      el("td", { class: "muted" }, tk ? `${tk.taxi}/${tk.bus}/${tk.underground}` : t("phone.sy.free_ride")),
      el("td", {}, f.moved ? "✓" : ""));
  });
  return el("section", {}, el("h2", {}, t("phone.sy.figures")),
    el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.sy.station")),
      el("th", {}, t("phone.sy.tickets_short")), el("th", {}, "")), rows));
}

function syEnd(view, { el, t }) {
  const e = view.end;
  return el("section", { "data-end": e.reason },
    el("div", { class: "big" }, t("phone.sy.winner." + (e.winner || "nobody"))),
    el("p", {}, t("phone.sy.end." + e.reason, { figure: e.figure || "", station: e.station || "" })));
}

function destButtons(options, chosen, pick, { el, t }, busy) {
  const groups = [];
  for (const ticket of TICKETS.concat(["ferry"])) {
    const dests = options[ticket];
    if (!dests || !dests.length) continue;
    groups.push(el("div", { style: "margin:8px 0" }, chip(el, t, ticket), " ",
      el("div", { class: "row", style: "margin-top:6px" }, dests.map((d) => el("button", {
        class: "dest" + (chosen && chosen.ticket === ticket && chosen.station === d ? " sel" : ""),
        "data-ticket": ticket, "data-station": d, disabled: busy,
        onclick: () => pick({ ticket, station: d }),
      }, String(d))))));
  }
  return groups;
}

function syMrx(state, ctx) {
  const { el, t, send, ui, busy, rerender } = ctx;
  const view = state.view, secret = view.secret, legal = state.legal || { intents: [] };
  const out = el("div", {});
  out.append(el("section", {},
    el("div", { class: "spread" },
      el("div", {}, el("div", { class: "muted" }, t("phone.sy.you_are_at")),
        el("div", { class: "big", "data-my-station": secret.station || "" }, secret.station ? String(secret.station) : "?")),
      el("div", { style: "text-align:right" },
        el("div", {}, t("phone.sy.round", { round: view.round, rounds: view.rounds })),
        el("div", {}, chip(el, t, "black"), " ×" + view.mrx.black),
        el("div", { style: "margin-top:4px" }, el("span", { class: "chip t-double" }, t("phone.sy.double")), " ×" + view.mrx.double))),
    el("div", { class: "muted", style: "margin-top:6px" },
      t("phone.sy.supply", view.supply))));
  if (view.end) out.append(syEnd(view, ctx));
  if (secret.next_is_reveal && !view.end) out.append(el("div", { class: "warn", "data-warning": "reveal" }, t("phone.sy.next_reveal")));
  const intents = legal.intents || [];
  if (intents.includes("sy.place_x")) {
    out.append(el("section", {}, el("h2", {}, t("phone.sy.start")),
      el("button", { class: "primary", disabled: busy, "data-action": "draw", onclick: () => send({ kind: "sy.draw_start" }) }, t("phone.sy.draw_x")),
      el("p", { class: "muted" }, t("phone.sy.or_enter_card")),
      el("div", { class: "row" }, (legal.x_cards || []).map((s) => el("button", {
        class: "dest", disabled: busy, "data-place": s, onclick: () => send({ kind: "sy.place_x", station: s }) }, String(s))))));
  }
  if (intents.includes("sy.x_move")) {
    const x = legal.x;
    const sec = el("section", { "data-section": "move" }, el("h2", {}, t("phone.sy.your_move")));
    if (intents.includes("sy.x_double")) {
      sec.append(el("div", { class: "row", style: "margin-bottom:8px" },
        el("button", { class: ui.double ? "" : "sel", "data-mode": "single", onclick: () => { ui.double = false; ui.pick = ui.first = null; rerender(); } }, t("phone.sy.single")),
        el("button", { class: ui.double ? "sel" : "", "data-mode": "double", onclick: () => { ui.double = true; ui.pick = ui.first = null; rerender(); } }, t("phone.sy.double_move"))));
    }
    if (!ui.double) {
      sec.append(...destButtons(x.single, ui.pick, (p) => { ui.pick = p; rerender(); }, ctx, busy));
      if (ui.pick) {
        sec.append(el("div", { class: "row", style: "margin-top:10px" },
          el("button", { class: "primary", disabled: busy, "data-action": "confirm",
            onclick: () => send({ kind: "sy.x_move", ticket: ui.pick.ticket, station: ui.pick.station }) },
            t("phone.sy.go", { ticket: t("phone.sy.ticket." + ui.pick.ticket), station: ui.pick.station })),
          el("button", { onclick: () => { ui.pick = null; rerender(); } }, t("phone.cancel"))));
      }
    } else if (!ui.first) {
      sec.append(el("p", { class: "muted" }, t("phone.sy.first_step")));
      const firsts = {};
      for (const d of x.double) (firsts[d.ticket] = firsts[d.ticket] || []).push(d.station);
      sec.append(...destButtons(firsts, null, (p) => { ui.first = p; ui.pick = null; rerender(); }, ctx, busy));
    } else {
      const entry = x.double.find((d) => d.ticket === ui.first.ticket && d.station === ui.first.station);
      sec.append(el("p", {}, t("phone.sy.first_was", { ticket: t("phone.sy.ticket." + ui.first.ticket), station: ui.first.station }),
        view.reveal_fields.includes(view.next_field) ? el("b", {}, " " + t("phone.sy.first_reveals")) : ""));
      sec.append(el("p", { class: "muted" }, t("phone.sy.second_step")));
      sec.append(...destButtons(entry ? entry.then : {}, ui.pick, (p) => { ui.pick = p; rerender(); }, ctx, busy));
      const row = el("div", { class: "row", style: "margin-top:10px" });
      if (ui.pick) {
        row.append(el("button", { class: "primary", disabled: busy, "data-action": "confirm",
          onclick: () => send({ kind: "sy.x_double", first: ui.first, second: ui.pick }) },
          t("phone.sy.go_double", { s1: ui.first.station, s2: ui.pick.station })));
      }
      row.append(el("button", { onclick: () => { ui.first = ui.pick = null; rerender(); } }, t("phone.cancel")));
      sec.append(row);
    }
    out.append(sec);
  } else if (!view.end && view.phase !== "start") {
    out.append(el("section", {}, el("p", { class: "muted" }, t("phone.sy.detectives_moving"))));
  }
  if (view.tracker && view.tracker.on) {
    out.append(el("section", { "data-section": "tracker" }, el("h2", {}, t("phone.sy.detectives_know")),
      el("p", {}, t("phone.sy.candidates", { n: view.tracker.candidates.length })),
      el("div", { class: "muted" }, view.tracker.candidates.join(", "))));
  }
  out.append(syLog(view, secret.route, ctx));
  out.append(syFigures(view, ctx));
  return out;
}

function syDetective(state, ctx) {
  const { el, t, send, ui, busy, rerender } = ctx;
  const view = state.view, legal = state.legal || { intents: [] };
  const out = el("div", {});
  const shown = view.mrx.station;
  out.append(el("section", {},
    el("div", { class: "spread" },
      el("div", {}, el("div", { class: "muted" }, t("phone.sy.mrx_last_seen")),
        el("div", { class: "big", "data-mrx-shown": shown || "" }, shown ? String(shown) : "?")),
      el("div", { style: "text-align:right" }, t("phone.sy.round", { round: view.round, rounds: view.rounds })))));
  if (view.end) out.append(syEnd(view, ctx));
  const intents = legal.intents || [];
  if (intents.includes("sy.draw_start") && !state.view.figures.some((f) => f.station)) {
    out.append(el("section", {}, el("button", { class: "primary", disabled: busy, "data-action": "draw",
      onclick: () => send({ kind: "sy.draw_start" }) }, t("phone.sy.draw_start"))));
  }
  if (intents.includes("sy.move")) {
    const sec = el("section", { "data-section": "move" }, el("h2", {}, t("phone.sy.detective_moves")));
    const figs = Object.keys(legal.moves);
    sec.append(el("div", { class: "row" }, figs.map((f) => el("button", {
      class: ui.figure === f ? "sel" : "", "data-select": f, disabled: busy,
      onclick: () => { ui.figure = f; ui.pick = null; rerender(); } }, f))));
    if (ui.figure && legal.moves[ui.figure]) {
      sec.append(...destButtons(legal.moves[ui.figure], ui.pick, (p) => { ui.pick = p; rerender(); }, ctx, busy));
      if (ui.pick) {
        sec.append(el("div", { class: "row", style: "margin-top:10px" },
          el("button", { class: "primary", disabled: busy, "data-action": "confirm",
            onclick: () => send({ kind: "sy.move", figure: ui.figure, ticket: ui.pick.ticket, station: ui.pick.station }) },
            t("phone.sy.move_to", { figure: ui.figure, station: ui.pick.station })),
          el("button", { onclick: () => { ui.pick = null; rerender(); } }, t("phone.cancel"))));
      }
    }
    out.append(sec);
  } else if (!view.end && view.turn === "mrx") {
    out.append(el("section", {}, el("p", { class: "muted" }, t("phone.sy.mrx_moving"))));
  }
  if (view.tracker && view.tracker.on) {
    out.append(el("section", { "data-section": "tracker" }, el("h2", {}, t("phone.sy.tracker")),
      el("p", {}, t("phone.sy.candidates", { n: view.tracker.candidates.length })),
      el("div", { class: "muted" }, view.tracker.candidates.join(", "))));
  }
  out.append(syLog(view, null, ctx));
  out.append(syFigures(view, ctx));
  return out;
}

RENDERERS.scotland_yard = (state, ctx) => (state.view.secret ? syMrx(state, ctx) : syDetective(state, ctx));

/* GAME RENDERERS */

C.connect();
