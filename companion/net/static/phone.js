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
  let mySeat = null;         // the seat id from the welcome ("@table" for the table link)
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
        mySeat = msg.seat;
        if (msg.lang !== lang || !Object.keys(texts).length) await loadTexts(msg.lang);
        setStatus("connected");
        notice(null);
        render();  // a state may have arrived while the texts were loading
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
      }, t(mySeat === "@table" ? "phone.undo_table" : "phone.undo"))));
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

/* A number with − and + buttons (zone counts, segment parts, counters); `set(n)` gets the new value. */
function stepper(el, value, min, max, busy, set) {
  return [
    el("button", { class: "step", disabled: busy || value <= min, "data-step": "-", onclick: () => set(value - 1) }, "−"),
    el("b", { class: "step-n" }, String(value)),
    el("button", { class: "step", disabled: busy || value >= max, "data-step": "+", onclick: () => set(value + 1) }, "+"),
  ];
}

/* Mykerinos -------------------------------------------------------------------------------- */
/* Everything is public; a seat's view adds `me` and its own `choices` (= its legal list). The
 * table link (no `me`) shows the same board and may act for the seat whose turn it is, set up the
 * game and enter zone counts. Nothing here computes rules: options come from `legal` only. */
const MYK_PATRONS = ["lady_violet", "lord_lemon", "sir_brown", "mrs_blackmore", "colonel_tangerine"];

function mykChip(el, t, colour) {
  return el("span", { class: "chip myk-c myk-" + colour, "data-colour": colour }, t("myk.colour." + colour));
}

function mykRoomName(t, id) {
  let m = /^(\d+):(\d+)$/.exec(id);
  if (m) return t("phone.myk.room_wing", { wing: m[1], value: m[2] });
  m = /^(\d+)-(\d+):(\d+)$/.exec(id);
  if (m) return t("phone.myk.room_between", { a: m[1], b: m[2], value: m[3] });
  return id;
}

function mykPatron(t, patron) {
  return patron ? t("myk.patron." + patron) : t("phone.myk.blank");
}

/* The museum: wings 1..5 side by side, 5-rooms above 3-rooms, 2-rooms between neighbouring wings.
 * `pick` (optional): {rooms: [legal room ids], chosen, onpick} turns those rooms into buttons. */
function mykMuseum(view, pick, { el, t }) {
  const grid = el("div", { class: "myk-museum" });
  const legal = new Set(pick ? pick.rooms : []);
  const room = (id, value, col, row, label) => {
    const who = view.museum[id];
    const attrs = { class: "myk-room" + (who ? " myk-" + who : "") + (legal.has(id) ? " legal" : ""),
      style: `grid-column:${col} / span 2;grid-row:${row}`, "data-room": id };
    const body = [el("b", {}, String(value)), label ? el("small", {}, label) : null];
    if (legal.has(id)) {
      attrs.class += pick.chosen === id ? " sel" : "";
      attrs.onclick = () => pick.onpick(id);
      attrs.disabled = pick.busy;
      return el("button", attrs, body);
    }
    if (who) attrs.title = t("myk.colour." + who);
    return el("div", attrs, body);
  };
  const shown = new Set();
  for (let w = 1; w <= 5; w++) {
    const patron = view.wings[w - 1];
    grid.append(el("div", { class: "myk-wing" + (patron ? " p-" + patron : ""), style: `grid-column:${2 * w - 1} / span 2;grid-row:1`,
      "data-wing": w }, el("small", {}, String(w)), " ", patron ? t("phone.myk.short." + patron) : "?"));
    grid.append(room(`${w}:5`, 5, 2 * w - 1, 2), room(`${w}:3`, 3, 2 * w - 1, 3));
    shown.add(`${w}:5`).add(`${w}:3`);
  }
  for (let w = 1; w <= 4; w++) {
    grid.append(room(`${w}-${w + 1}:2`, 2, 2 * w, 4, `${w}–${w + 1}`));
    shown.add(`${w}-${w + 1}:2`);
  }
  // Rooms of other layouts (e.g. ring5's 5-1:2) go on a row of their own.
  const extra = [...new Set([...Object.keys(view.museum), ...legal])].filter((id) => !shown.has(id));
  if (view.layout === "ring5" && !extra.includes("5-1:2")) extra.push("5-1:2");
  extra.forEach((id, i) => grid.append(room(id, id.split(":")[1] || "", 1 + 2 * (i % 5), 5 + Math.floor(i / 5),
    id.split(":")[0].replace("-", "–"))));
  return grid;
}

function mykTurnLine(view, me, { el, t }) {
  if (view.phase === "setup") return el("p", { class: "muted", "data-wait": "setup" }, t("phone.myk.wait_setup"));
  if (view.phase === "over") return null;
  if (view.phase === "excavation" && view.turn) {
    const s = view.turn.seat;
    const key = s === me ? (view.turn.step === "neutral" ? "phone.myk.your_neutral" : "phone.myk.your_turn") : "phone.myk.turn_of";
    return el("p", { class: s === me ? "myk-yours" : "", "data-turn": s }, s === me ? "" : mykChip(el, t, s), " ",
      t(key), view.turn.final ? el("b", {}, " " + t("phone.myk.final_action")) : "");
  }
  const sv = view.survey;
  if (view.phase === "survey" && sv) {
    const w = sv.waiting;
    const head = t("phone.myk.zone", { zone: sv.zone, of: sv.of });
    if (w.for === "counts") return el("p", { "data-turn": "table" }, el("b", {}, head), " · ", t("phone.myk.wait_counts"));
    const who = w.seat === me ? t("phone.myk.you") : mykChip(el, t, w.seat);
    const what = w.for === "neutral_pick" ? t("phone.myk.picks_neutral") : t("phone.myk.chooses", { rank: w.rank });
    return el("p", { class: w.seat === me ? "myk-yours" : "", "data-turn": w.seat }, el("b", {}, head), " · ", who, " ", what);
  }
  return null;
}

function mykSurvey(view, { el, t }) {
  const sv = view.survey;
  if (!sv) return null;
  const counts = sv.counts ? Object.entries(sv.counts).map(([c, n]) => el("span", { class: "myk-count" }, mykChip(el, t, c), " ×" + n)) : [];
  return el("section", { "data-section": "survey" },
    el("h2", {}, t("phone.myk.zone", { zone: sv.zone, of: sv.of })),
    sv.counts ? el("div", { class: "row" }, counts.length ? counts : el("span", { class: "muted" }, t("phone.myk.empty_zone"))) : null,
    sv.ranking.length ? el("div", { class: "row", style: "margin-top:8px" }, el("span", { class: "muted" }, t("phone.myk.ranking")),
      sv.ranking.map((c, i) => el("span", {}, `${i + 1}.`, mykChip(el, t, c)))) : null,
    el("div", { class: "muted", style: "margin-top:6px" }, t("phone.myk.parcels_left", { n: sv.parcels })));
}

/* One pending choice: ui.myk = {kind, ...intent fields}; the confirm button sends it. */
function mykChoices(view, options, ctx, forSeat) {
  const { el, t, send, ui, busy, rerender } = ctx;
  const pick = ui.myk || null;
  const choose = (p) => { ui.myk = p; rerender(); };
  const sel = (match) => (pick && Object.entries(match).every(([k, v]) => k === "room" || k === "points" || pick[k] === v) ? " sel" : "");
  const sec = el("section", { "data-section": "choices" },
    el("h2", {}, forSeat ? t("phone.myk.act_for", { colour: t("myk.colour." + forSeat) }) : t("phone.myk.your_choice")));
  const btn = (label, p, attrs) => el("button", Object.assign({ class: "wide" + sel(p), disabled: busy, onclick: () => choose(p) }, attrs || {}), label);
  for (const o of options) {
    const seat = o.seat;
    if (o.kind === "myk.excavate") {
      sec.append(el("div", { class: "myk-group" }, o.options.map(([action, patron]) => btn(
        patron ? t("phone.myk.with_patron", { patron: mykPatron(t, patron), action: t("phone.myk.action." + action) }) : t("phone.myk.excavate." + action),
        { kind: "myk.excavate", seat, action, patron }, { "data-choice": "excavate", "data-action": action, "data-patron": patron || "" }))));
    } else if (o.kind === "myk.sir_brown") {
      sec.append(el("div", { class: "myk-group" }, btn(t("phone.myk.sir_brown"), { kind: "myk.sir_brown", seat, room: null },
        { "data-choice": "sir_brown" })));
    } else if (o.kind === "myk.pass") {
      sec.append(el("div", { class: "myk-group" }, btn(t("phone.myk.pass"), { kind: "myk.pass", seat }, { "data-choice": "pass" })));
    } else if (o.kind === "myk.neutral") {
      sec.append(el("p", { class: "muted" }, t("phone.myk.neutral_hint")),
        el("div", { class: "row" }, o.actions.map((a) => btn(t("phone.myk.neutral." + a), { kind: "myk.neutral", seat, action: a },
          { "data-choice": "neutral", "data-action": a }))));
    } else if (o.kind === "myk.take_parcel") {
      sec.append(el("div", { class: "myk-group" }, el("div", { class: "muted" }, t("phone.myk.take_parcel")),
        el("div", { class: "myk-patrons" }, o.patrons.map((p) => el("button", {
          class: "p-" + p + (pick && pick.kind === "myk.take_parcel" && pick.patron === p ? " sel" : ""), disabled: busy,
          "data-choice": "parcel", "data-patron": p,
          onclick: () => choose({ kind: "myk.take_parcel", seat, patron: p, points: null }) }, mykPatron(t, p))),
        o.blank ? el("button", { class: sel({ kind: "myk.take_parcel", patron: null }).trim(), disabled: busy, "data-choice": "parcel", "data-patron": "blank",
          onclick: () => choose({ kind: "myk.take_parcel", seat, patron: null, points: o.blank_points }) },
          t("phone.myk.blank_card", { points: o.blank_points })) : null)));
      if (pick && pick.kind === "myk.take_parcel" && pick.patron) {
        sec.append(el("div", { class: "myk-group" }, el("div", { class: "muted" }, t("phone.myk.points_on", { patron: mykPatron(t, pick.patron) })),
          el("div", { class: "row" }, o.points.map((n) => el("button", {
            class: "dest" + (pick.points === n ? " sel" : ""), disabled: busy, "data-points": n,
            onclick: () => choose(Object.assign({}, pick, { points: n })) }, String(n))))));
      }
    } else if (o.kind === "myk.museum") {
      sec.append(el("div", { class: "myk-group" }, btn(t("phone.myk.museum"), { kind: "myk.museum", seat, room: null }, { "data-choice": "museum" })));
    } else if (o.kind === "myk.decline") {
      sec.append(el("div", { class: "myk-group" }, btn(t("phone.myk.decline"), { kind: "myk.decline", seat }, { "data-choice": "decline" })));
    } else if (o.kind === "myk.neutral_pick") {
      sec.append(el("p", { class: "muted" }, t("phone.myk.neutral_pick_hint")),
        btn(t("phone.myk.neutral_pick"), { kind: "myk.neutral_pick", seat }, { "data-choice": "neutral_pick" }));
    }
  }
  if (pick && "room" in pick) {
    const o = options.find((x) => x.kind === pick.kind);
    if (o) {
      sec.append(el("p", { class: "muted" }, t("phone.myk.pick_room")),
        mykMuseum(view, { rooms: o.rooms, chosen: pick.room, busy, onpick: (r) => choose(Object.assign({}, pick, { room: r })) }, ctx));
    }
  }
  const ready = pick && !(("room" in pick && !pick.room) || ("points" in pick && pick.points === null));
  if (pick) {
    const label = mykSummary(pick, t);
    sec.append(el("div", { class: "row", style: "margin-top:10px" },
      ready ? el("button", { class: "primary", disabled: busy, "data-action": "confirm", onclick: () => send(pick) }, label) : null,
      el("button", { onclick: () => choose(null), "data-action": "cancel" }, t("phone.cancel"))));
  }
  return sec;
}

function mykSummary(p, t) {
  switch (p.kind) {
    case "myk.excavate": return p.patron ? t("phone.myk.with_patron", { patron: mykPatron(t, p.patron), action: t("phone.myk.action." + p.action) })
      : t("phone.myk.excavate." + p.action);
    case "myk.sir_brown": return p.room ? t("phone.myk.confirm_sir_brown", { room: mykRoomName(t, p.room) }) : t("phone.myk.pick_room");
    case "myk.museum": return p.room ? t("phone.myk.confirm_museum", { room: mykRoomName(t, p.room) }) : t("phone.myk.pick_room");
    case "myk.take_parcel": return p.points === null ? t("phone.myk.pick_points")
      : t("phone.myk.confirm_parcel", { patron: mykPatron(t, p.patron), points: p.points });
    case "myk.neutral": return t("phone.myk.neutral." + p.action);
    case "myk.pass": return t("phone.myk.confirm_pass");
    case "myk.decline": return t("phone.myk.decline");
    case "myk.neutral_pick": return t("phone.myk.neutral_pick");
    case "myk.zone_counts": return t("phone.myk.confirm_counts");
    default: return t("phone.confirm");
  }
}

/* Table only: setup draws and zone counts (the intents only the table may send). */
function mykTableTools(view, legal, ctx) {
  const { el, t, send, ui, busy, rerender } = ctx;
  const out = [];
  const has = (k) => legal.find((o) => o.kind === k);
  if (has("myk.draw_start_player") || has("myk.draw_patrons")) {
    out.push(el("section", { "data-section": "setup" }, el("h2", {}, t("myk.phase.setup")),
      has("myk.draw_start_player") ? el("button", { class: "wide", disabled: busy, "data-action": "draw_start_player",
        onclick: () => send({ kind: "myk.draw_start_player" }) }, t("phone.myk.draw_start_player")) : null,
      has("myk.draw_patrons") ? el("button", { class: "wide", disabled: busy, "data-action": "draw_patrons",
        onclick: () => send({ kind: "myk.draw_patrons" }) }, t("phone.myk.draw_patrons")) : null));
  }
  const zc = has("myk.zone_counts");
  if (zc) {
    const key = "zone" + zc.zone + ":" + view.season;
    if (!ui.counts || ui.counts.key !== key) {
      ui.counts = { key, n: {} };
      for (const [c, m] of Object.entries(zc.max)) ui.counts.n[c] = zc.last ? m : 0;
    }
    const n = ui.counts.n;
    const rows = Object.entries(zc.max).map(([c, m]) => el("div", { class: "stepper", "data-count": c },
      mykChip(el, t, c), stepper(el, n[c], 0, m, busy, (v) => { n[c] = v; rerender(); }),
      el("span", { class: "muted" }, t("phone.myk.of_board", { n: m }))));
    out.push(el("section", { "data-section": "counts" }, el("h2", {}, t("phone.myk.count_zone", { zone: zc.zone })), rows,
      el("button", { class: "primary wide", style: "margin-top:10px", disabled: busy, "data-action": "counts",
        onclick: () => send({ kind: "myk.zone_counts", counts: Object.entries(n).filter(([, v]) => v > 0) }) }, t("phone.myk.confirm_counts"))));
  }
  return out;
}

function mykPlayers(view, me, { el, t }) {
  const track = {};
  for (const [c, space] of view.pass_track) track[c] = space;
  const rows = view.seats.map((s) => {
    const p = view.players[s];
    const cards = Object.values(p.cards).reduce((a, b) => a + b, 0) + p.blank;
    return el("tr", { "data-player": s, class: s === me ? "me" : "" },
      el("td", { class: "myk-who" }, mykChip(el, t, s), view.start_player === s ? el("span", { class: "myk-star" }, "★") : null),
      el("td", {}, el("b", {}, String(p.score))),
      el("td", {}, String(p.projection)),
      el("td", {}, String(p.supply) + (p.neutral_supply !== undefined ? "+" + p.neutral_supply : "")),
      el("td", {}, String(cards)),
      el("td", {}, track[s] ? String(track[s]) : "–"));
  });
  return el("section", { "data-section": "players" }, el("h2", {}, t("phone.myk.players")),
    el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.myk.score_short")), el("th", {}, t("phone.myk.proj_short")),
      el("th", {}, t("phone.myk.supply_short")), el("th", {}, t("phone.myk.cards_short")), el("th", {}, t("phone.myk.pass_short"))), rows),
    el("div", { class: "muted myk-legend" }, t("phone.myk.legend")),
    el("div", { class: "row", style: "margin-top:8px" }, el("span", { class: "muted" }, t("phone.myk.general")),
      Object.entries(view.general).map(([c, n]) => el("span", { "data-general": c }, mykChip(el, t, c), " " + n))),
    view.neutral ? el("div", { class: "muted", style: "margin-top:4px" }, t("phone.myk.neutral_is", { colour: t("myk.colour." + view.neutral) })) : null,
    view.pass_track.length ? el("div", { class: "row", style: "margin-top:8px", "data-section": "pass_track" },
      el("span", { class: "muted" }, t("phone.myk.pass_track")),
      view.pass_track.map(([c, space]) => el("span", {}, space + ".", mykChip(el, t, c)))) : null);
}

function mykCards(p, view, { el, t }) {
  const rows = MYK_PATRONS.map((patron) => {
    const held = p.cards[patron] || 0, ready = p.ready[patron] || 0;
    const wing = view.wings.indexOf(patron) + 1;
    return el("tr", { "data-card": patron, class: held ? "" : "muted" },
      el("td", {}, el("span", { class: "myk-dot p-" + patron }), mykPatron(t, patron)),
      el("td", { class: "muted" }, wing ? t("phone.myk.wing", { n: wing }) : ""),
      el("td", {}, el("b", {}, "×" + held)),
      el("td", { class: "muted" }, held ? (view.season >= 2 ? t("phone.myk.ready_n", { n: ready }) : t("phone.myk.from_season2")) : ""));
  });
  if (p.blank) rows.push(el("tr", { "data-card": "blank" }, el("td", {}, t("phone.myk.blank")), el("td", {}, ""), el("td", {}, el("b", {}, "×" + p.blank)), el("td", {}, "")));
  return el("section", { "data-section": "cards" }, el("h2", {}, t("phone.myk.my_cards")), el("table", {}, rows));
}

function mykEnd(view, me, { el, t }) {
  const r = view.result;
  const won = r.winners.includes(me);
  return el("section", { "data-end": "over" },
    el("div", { class: "big" }, me ? t(won ? "phone.myk.you_win" : "phone.myk.game_over") : t("phone.myk.game_over")),
    el("div", { class: "row", style: "margin-top:6px" }, el("span", {}, t("phone.myk.winners")), r.winners.map((c) => mykChip(el, t, c))),
    el("table", { style: "margin-top:8px" }, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.myk.exhibition")), el("th", {}, t("phone.myk.total"))),
      r.order.map((s) => el("tr", { "data-final": s }, el("td", {}, mykChip(el, t, s)), el("td", {}, String(r.exhibition[s])),
        el("td", {}, el("b", {}, String(view.players[s].score)))))));
}

RENDERERS.mykerinos = (state, ctx) => {
  const { el, t } = ctx;
  const view = state.view;
  const me = view.me || null;
  const legal = Array.isArray(state.legal) ? state.legal : [];
  const out = el("div", { class: "myk" });
  const p = me ? view.players[me] : null;
  const stat = (n, label, attr) => el("div", Object.assign({ class: "stat" }, attr), el("b", {}, String(n)), el("small", {}, label));
  out.append(el("section", {},
    el("div", { class: "row" }, me ? mykChip(el, t, me) : null,
      el("span", { class: "muted" }, view.season ? t("phone.myk.season", { season: view.season }) + " · " : "", t("myk.phase." + view.phase))),
    p ? el("div", { class: "stats" },
      stat(p.score, t("phone.myk.points"), { "data-score": p.score }),
      stat(p.projection, t("phone.myk.projection"), { "data-projection": p.projection }),
      stat(p.supply, t("phone.myk.your_supply"), { "data-supply": p.supply })) : null,
    p ? el("div", { class: "muted myk-supply" }, t("phone.myk.general_mine", { n: view.general[me] }),
      p.neutral_supply !== undefined ? " · " + t("phone.myk.neutral_supply", { n: p.neutral_supply }) : "") : null,
    mykTurnLine(view, me, ctx)));
  if (view.result) out.append(mykEnd(view, me, ctx));
  if (ctx.ui.seq !== state.seq) { ctx.ui.myk = null; ctx.ui.seq = state.seq; }  // a choice is made against one state only
  const seatOptions = legal.filter((o) => o.seat);
  if (!me) out.append(...mykTableTools(view, legal, ctx));
  if (seatOptions.length) out.append(mykChoices(view, seatOptions, ctx, me ? null : seatOptions[0].seat));
  if (view.survey) out.append(mykSurvey(view, ctx));
  if (p) out.append(mykCards(p, view, ctx));
  if (!(ctx.ui.myk && "room" in ctx.ui.myk)) {
    out.append(el("section", { "data-section": "museum" }, el("h2", {}, t("phone.myk.museum_title")), mykMuseum(view, null, ctx)));
  }
  out.append(mykPlayers(view, me, ctx));
  return out;
};

/* Victorian Masterminds ---------------------------------------------------------------------- */
/* A seat sees the public summary plus `me` (its own tally), `pile` (top agent; the whole pile with 5
 * codex) and `placed` (its own agents in the stacks). The table link sees every public tally, the
 * cities and the log, and may act where the table may (start, answers during a resolution). Options
 * come only from `legal.actions`. */
const VM_CITIES = ["london", "moscow", "washington", "paris", "rome"];
const VM_AGENTS = ["number_two", "henchman", "saboteur", "gunner", "engineer"];
const VM_COUNTERS = ["firepower", "codex", "scientists", "chaos_tokens", "bolts", "copper"];
const VM_UNLOCKS = ["none", "lab_cell", "codex", "bonus_power"];

function vmAgent(el, t, agent) {
  return el("span", { class: "vm-agent a-" + (agent || "unknown"), "data-agent": agent || "" },
    agent ? t("vm.agent." + agent) : t("phone.vm.unknown_agent"));
}

function vmSeatChip(el, t, view, seat) {
  const players = view.players || (view.me ? [view.me] : []);
  const p = players.find((x) => x.seat === seat);
  const colour = p ? String(p.colour).toLowerCase().replace(/[^a-z]/g, "") : "";
  const label = view.seat === seat ? t("phone.vm.you") : (p && p.machine_name ? `${seat} · ${p.machine_name}` : seat);
  return el("span", { class: "chip vm-seat vm-" + colour, "data-seat": seat }, label);
}

function vmDetail(t, detail) {
  return String(detail).split(":").map((w) => (VM_AGENTS.includes(w) ? t("vm.agent." + w)
    : ["factory", "furnace", "university", "monument"].includes(w) ? t("vm.building." + w)
      : t("phone.vm.word." + w) === "phone.vm.word." + w ? w : t("phone.vm.word." + w))).join(" – ");
}

function vmTurnLine(view, ctx) {
  const { el, t } = ctx;
  const me = view.seat;
  const lines = [];
  if (view.phase === "setup") return el("p", { class: "muted", "data-wait": "setup" }, t("phone.vm.wait_start"));
  if (view.final_round.triggered && view.phase !== "ended") {
    lines.push(el("div", { class: "warn", "data-final": view.final_round.turns_left === null ? "" : view.final_round.turns_left },
      view.final_round.turns_left === null ? t("phone.vm.final_triggered") : t("phone.vm.final_left", { n: view.final_round.turns_left })));
  }
  if (view.phase === "turn" && view.active) {
    const mine = view.active === me;
    const key = mine ? (view.turn_phase === "after" ? "phone.vm.your_after" : "phone.vm.your_turn") : "phone.vm.is_playing";
    lines.push(el("p", { class: mine ? "vm-yours" : "", "data-turn": view.active }, mine ? "" : vmSeatChip(el, t, view, view.active), " ",
      t(key), view.extra_turn ? el("b", {}, " " + t("phone.vm.extra_turn_now")) : ""));
  }
  const res = view.resolution;
  if (res && res.waiting) {
    const w = res.waiting;
    const mine = w.by.includes(me) || (!me && w.by.includes("table"));
    lines.push(el("p", { class: mine ? "vm-yours" : "", "data-waiting": w.kind },
      t("phone.vm.resolving", { city: t("vm.city." + res.city) }), " · ",
      mine ? t("vm.waiting." + w.kind) : [vmSeatChip(el, t, view, w.seat), " ", t("phone.vm.waiting_for." + w.kind)]));
  }
  return lines;
}

/* One choice at a time: ui.vm = {kind, ...intent fields}; confirm sends it once complete. */
function vmChoices(view, actions, ctx) {
  const { el, t, send, ui, busy, rerender } = ctx;
  let pick = ui.vm || null;
  const choose = (p) => { ui.vm = p; rerender(); };
  const is = (kind, extra) => !!pick && pick.kind === kind && Object.entries(extra || {}).every(([k, v]) => pick[k] === v);
  const opt = (label, p, attrs, on) => el("button", Object.assign({}, attrs, {
    class: ((attrs && attrs.class) || "") + (on ? " sel" : ""), disabled: busy, onclick: () => choose(p) }), label);
  const forSeat = actions.map((a) => a.seat).find((x) => x);
  const sec = el("section", { "data-section": "actions" }, el("h2", {}, view.seat ? t("phone.vm.your_actions")
    : forSeat ? t("phone.vm.table_for", { seat: forSeat }) : t("phone.vm.table_actions")));
  const mineIn = (c) => (view.placed || []).filter((x) => x.city === c);
  const cityButtons = (cities, p) => el("div", { class: "vm-cities" }, cities.map((c) => opt([
    el("b", {}, t("vm.city." + c)),
    el("small", {}, t("phone.vm.height", { n: view.stacks[c] }),
      mineIn(c).length ? " · " + t("phone.vm.yours_at", { pos: mineIn(c).map((x) => "#" + x.position).join(", ") }) : ""),
  ], Object.assign({}, p, { city: c }), { class: "vm-city", "data-city": c }, pick && pick.city === c)));
  for (const o of actions) {
    const seat = o.seat;
    if (o.kind === "vm.start") {
      sec.append(opt(t("phone.vm.start"), { kind: "vm.start" }, { class: "wide", "data-choice": "start" }, is("vm.start")));
    } else if (o.kind === "vm.place") {
      const group = el("div", { class: "vm-group", "data-choice": "place" }, el("div", { class: "muted" }, t("phone.vm.which_agent")));
      const agents = [];
      if (o.from_pile && o.agents) for (const a of o.agents) agents.push({ agent: a, recycle: false });
      if (o.from_pile && !o.agents && o.unidentified) agents.push({ agent: null, recycle: false });
      for (const a of o.recycle) agents.push({ agent: a, recycle: true });
      if (agents.length === 1 && !is("vm.place")) {  // only the top agent: already chosen, pick the city
        pick = ui.vm = { kind: "vm.place", seat, city: null, agent: agents[0].agent, recycle: agents[0].recycle };
      }
      group.append(el("div", { class: "row" }, agents.map((a) => opt(
        a.recycle ? [t("phone.vm.recycle"), " ", vmAgent(el, t, a.agent)] : (a.agent ? vmAgent(el, t, a.agent) : t("phone.vm.unidentified")),
        { kind: "vm.place", seat, city: pick && pick.kind === "vm.place" ? pick.city : null, agent: a.agent, recycle: a.recycle },
        { class: "vm-pick", "data-agent": a.agent || "", "data-recycle": a.recycle ? "1" : "" },
        is("vm.place", { agent: a.agent, recycle: a.recycle })))));
      if (is("vm.place")) group.append(el("div", { class: "muted", style: "margin-top:8px" }, t("phone.vm.which_city")), cityButtons(o.cities, pick));
      sec.append(group);
    } else if (o.kind === "vm.force_resolve") {
      sec.append(el("div", { class: "vm-group", "data-choice": "force_resolve" }, el("p", { class: "muted" }, t("phone.vm.force_hint")),
        cityButtons(o.cities, { kind: "vm.force_resolve", seat })));
    } else if (o.kind === "vm.extra_turn") {
      sec.append(opt(t("phone.vm.extra_turn"), { kind: "vm.extra_turn", seat }, { class: "wide", "data-choice": "extra_turn" }, is("vm.extra_turn")));
    } else if (o.kind === "vm.capture") {
      const on = is("vm.capture");
      sec.append(opt(t("phone.vm.capture"), { kind: "vm.capture", seat, city: null, building: null }, { class: "wide", "data-choice": "capture" }, on));
      if (on) sec.append(vmBuildings(o.buildings, pick, choose, ctx));
    } else if (o.kind === "vm.end_turn") {
      sec.append(opt(t("phone.vm.end_turn"), { kind: "vm.end_turn", seat }, { class: "wide", "data-choice": "end_turn" }, is("vm.end_turn")));
    } else if (o.kind === "vm.reveal") {
      sec.append(el("div", { class: "vm-group", "data-choice": "reveal" }, el("div", { class: "muted" }, t("vm.waiting.reveal")),
        el("div", { class: "row" }, o.agents.map((a) => opt(vmAgent(el, t, a), { kind: "vm.reveal", agent: a },
          { class: "vm-pick", "data-agent": a }, is("vm.reveal", { agent: a }))))));
    } else if (o.kind === "vm.choose_building") {
      const city = view.resolution ? view.resolution.city : "";
      sec.append(el("div", { class: "vm-group", "data-choice": "choose_building" }, el("div", { class: "muted" }, t("vm.waiting.gunner")),
        el("div", { class: "row" }, o.buildings.map((b) => opt(b ? t("vm.building." + b) : t("phone.vm.no_building"),
          { kind: "vm.choose_building", building: b, city }, { "data-building": b || "none" }, is("vm.choose_building", { building: b }))))));
    } else if (o.kind === "vm.henchman") {
      sec.append(el("div", { class: "vm-group", "data-choice": "henchman" }, el("div", { class: "muted" }, t("vm.waiting.henchman")),
        el("div", { class: "row" },
          opt(t("phone.vm.met"), { kind: "vm.henchman", met: true, reward: o.reward_needed ? 0 : null }, { "data-met": "1" }, is("vm.henchman", { met: true })),
          opt(t("phone.vm.not_met"), { kind: "vm.henchman", met: false, reward: null }, { "data-met": "0" }, is("vm.henchman", { met: false }))),
        is("vm.henchman", { met: true }) && o.reward_needed ? el("div", { class: "row", style: "margin-top:8px" },
          el("span", { class: "muted" }, t("phone.vm.reward")), [2, 3, 4].map((n) => opt(String(n), Object.assign({}, pick, { reward: n }),
            { class: "dest", "data-reward": n }, pick.reward === n))) : null));
    } else if (o.kind === "vm.engineer_done") {
      sec.append(el("div", { class: "vm-group", "data-choice": "engineer" }, el("div", { class: "muted" }, t("vm.waiting.engineer")),
        vmAdjusters(view, actions, ctx),
        opt(t("phone.vm.engineer_done"), { kind: "vm.engineer_done" }, { class: "wide", "data-choice": "engineer_done" }, is("vm.engineer_done"))));
    }
  }
  if (pick) {
    const ready = ["vm.place", "vm.force_resolve"].includes(pick.kind) ? !!pick.city
      : pick.kind === "vm.capture" ? !!pick.building : pick.kind === "vm.henchman" ? pick.reward !== 0 : true;
    sec.append(el("div", { class: "row", style: "margin-top:10px" },
      ready ? el("button", { class: "primary", disabled: busy, "data-action": "confirm", onclick: () => {
        const intent = Object.assign({}, pick);
        if (intent.kind === "vm.choose_building") delete intent.city;
        send(intent);
      } }, vmSummary(pick, t)) : null,
      el("button", { "data-action": "cancel", onclick: () => choose(null) }, t("phone.cancel"))));
  }
  return sec;
}

function vmBuildings(pairs, pick, choose, { el, t, busy }) {
  const byCity = {};
  for (const [c, b] of pairs) (byCity[c] = byCity[c] || []).push(b);
  return el("div", { class: "vm-group" }, Object.entries(byCity).map(([c, bs]) => el("div", { class: "vm-bcity" },
    el("b", {}, t("vm.city." + c)), el("div", { class: "row" }, bs.map((b) => el("button", {
      class: "vm-b" + (pick.city === c && pick.building === b ? " sel" : ""), disabled: busy, "data-city": c, "data-building": b,
      onclick: () => choose(Object.assign({}, pick, { city: c, building: b })) }, t("vm.building." + b)))))));
}

function vmSummary(p, t) {
  const city = p.city ? t("vm.city." + p.city) : "";
  switch (p.kind) {
    case "vm.start": return t("phone.vm.start");
    case "vm.place":
      if (!p.city) return t("phone.vm.which_city");
      return p.recycle ? t("phone.vm.confirm_recycle", { agent: t("vm.agent." + p.agent), city })
        : p.agent ? t("phone.vm.confirm_place", { agent: t("vm.agent." + p.agent), city }) : t("phone.vm.confirm_unnamed", { city });
    case "vm.force_resolve": return p.city ? t("phone.vm.confirm_force", { city }) : t("phone.vm.which_city");
    case "vm.extra_turn": return t("phone.vm.extra_turn");
    case "vm.end_turn": return t("phone.vm.end_turn");
    case "vm.capture": return p.building ? t("phone.vm.confirm_capture", { building: t("vm.building." + p.building), city }) : t("phone.vm.which_building");
    case "vm.reveal": return t("phone.vm.confirm_reveal", { agent: t("vm.agent." + p.agent) });
    case "vm.choose_building": return p.building ? t("phone.vm.confirm_building", { building: t("vm.building." + p.building), city })
      : t("phone.vm.no_building");
    case "vm.henchman": return p.met ? (p.reward === 0 ? t("phone.vm.reward") : t("phone.vm.met")) : t("phone.vm.not_met");
    case "vm.engineer_done": return t("phone.vm.engineer_done");
    default: return t("phone.confirm");
  }
}

/* While its Engineer waits, the owner adjusts its own counters (one tap = one confirmed correction). */
function vmAdjusters(view, actions, { el, t, send, busy }) {
  const adj = actions.find((a) => a.kind === "vm.adjust" && a.seat);
  if (!adj || !view.me) return null;
  return el("div", { "data-section": "adjust" }, adj.counters.filter((c) => VM_COUNTERS.includes(c)).map((c) =>
    el("div", { class: "stepper", "data-counter": c }, el("span", {}, t("phone.vm.counter." + c)),
      stepper(el, view.me[c], -Infinity, Infinity, busy, (v) => send({ kind: "vm.adjust", counter: c, delta: v - view.me[c], seat: adj.seat, value: null })))));
}

/* Recording a built machine segment: chaos points, what it unlocks, the parts it used. */
function vmSegment(view, action, ctx) {
  const { el, t, send, ui, busy, rerender } = ctx;
  const seat = action.seats[0];
  const me = view.me;
  if (!ui.seg) {
    return el("section", { "data-section": "segment" }, el("button", { class: "wide", disabled: busy, "data-action": "segment",
      onclick: () => { ui.seg = { chaos: 0, unlock: "none", bolts: 0, copper: 0 }; rerender(); } }, t("phone.vm.record_segment")));
  }
  const g = ui.seg;
  const set = (k) => (v) => { g[k] = v; rerender(); };
  return el("section", { "data-section": "segment" }, el("h2", {}, t("phone.vm.segment_title")),
    el("div", { class: "stepper", "data-field": "chaos" }, el("span", {}, t("phone.vm.seg_chaos")), stepper(el, g.chaos, 0, 20, busy, set("chaos"))),
    el("div", { class: "stepper", "data-field": "bolts" }, el("span", {}, t("phone.vm.counter.bolts")), stepper(el, g.bolts, 0, me.bolts, busy, set("bolts"))),
    el("div", { class: "stepper", "data-field": "copper" }, el("span", {}, t("phone.vm.counter.copper")), stepper(el, g.copper, 0, me.copper, busy, set("copper"))),
    el("div", { class: "muted", style: "margin:6px 0" }, t("phone.vm.seg_unlock")),
    el("div", { class: "row" }, VM_UNLOCKS.map((u) => el("button", { class: g.unlock === u ? "sel" : "", disabled: busy, "data-unlock": u,
      onclick: () => set("unlock")(u) }, t("phone.vm.unlock." + u)))),
    el("div", { class: "row", style: "margin-top:10px" },
      el("button", { class: "primary", disabled: busy, "data-action": "confirm-segment", onclick: () => {
        send({ kind: "vm.record_segment", seat, chaos: g.chaos, unlock: g.unlock, bolts: g.bolts, copper: g.copper, label: "" });
      } }, t("phone.vm.confirm_segment", { chaos: g.chaos })),
      el("button", { onclick: () => { ui.seg = null; rerender(); } }, t("phone.cancel"))));
}

function vmPile(view, { el, t }) {
  const pile = view.pile, me = view.me;
  const sec = el("section", { "data-section": "pile" }, el("h2", {}, t("phone.vm.pile", { n: pile.size })));
  if (pile.agents && pile.agents.length) {
    sec.append(el("div", { class: "muted" }, t("phone.vm.whole_pile")),
      el("ol", { class: "vm-pilelist", "data-pile": pile.agents.join(",") }, pile.agents.map((a) => el("li", {}, vmAgent(el, t, a)))));
  } else if (pile.top) {
    sec.append(el("div", { class: "spread" }, el("span", { class: "muted" }, t("phone.vm.top")),
      el("span", { class: "vm-top", "data-top": pile.top }, vmAgent(el, t, pile.top))));
  } else if (pile.size) {
    sec.append(el("p", { class: "muted", "data-top": "" }, t("phone.vm.not_exact")));
  } else {
    sec.append(el("p", { class: "muted", "data-top": "" }, t("phone.vm.pile_empty")));
  }
  sec.append(el("div", { class: "row", style: "margin-top:8px", "data-discard": me.discard.join(",") },
    el("span", { class: "muted" }, t("phone.vm.discard")), me.discard.length ? me.discard.map((a) => vmAgent(el, t, a)) : "–"));
  return sec;
}

function vmStacks(view, { el, t }) {
  const rows = VM_CITIES.map((c) => {
    const mine = (view.placed || []).filter((x) => x.city === c).sort((a, b) => a.position - b.position);
    const city = view.cities ? view.cities[c] : null;
    return el("tr", { "data-stack": c },
      el("td", {}, el("b", {}, t("vm.city." + c))),
      el("td", { class: "vm-dots", "data-height": view.stacks[c] }, "●".repeat(view.stacks[c]) || "–"),
      view.seat ? el("td", {}, mine.map((x) => el("div", { "data-mine": x.position }, "#" + x.position + " ", vmAgent(el, t, x.agent))))
        : el("td", { class: "muted vm-small" }, city.standing.map((b) => t("phone.vm.bshort." + b)).join(" "),
          city.mission ? el("div", {}, t("phone.vm.mission", { reward: city.mission.reward === null ? "?" : city.mission.reward })) : null));
  });
  return el("section", { "data-section": "stacks" }, el("h2", {}, t("phone.vm.stacks")),
    el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.vm.height_short")),
      el("th", {}, view.seat ? t("phone.vm.my_agents") : t("phone.vm.standing"))), rows),
    el("div", { class: "muted vm-small", style: "margin-top:4px" }, view.seat ? t("phone.vm.position_hint") : t("phone.vm.bshort_legend")));
}

function vmResolution(view, { el, t }) {
  const r = view.resolution;
  if (!r) return null;
  return el("section", { "data-section": "resolution" },
    el("h2", {}, t("phone.vm.resolution", { city: t("vm.city." + r.city) }), " · ", t("phone.vm.reason." + r.reason)),
    el("ol", { class: "vm-res" }, r.agents.map((a, i) => el("li", { class: (a.done ? "done" : "") + (i === r.index ? " now" : ""),
      "data-index": i }, vmSeatChip(el, t, view, a.seat), " ", vmAgent(el, t, a.agent),
      a.cancelled ? el("span", { class: "muted" }, " " + t("phone.vm.sabotaged")) : null, a.done ? " ✓" : ""))));
}

function vmTally(p, { el, t }, big) {
  const stat = (k, n, sub) => el("div", { class: "vm-stat", "data-tally": k }, el("b", {}, String(n)), el("small", {}, t("phone.vm.counter." + k)),
    sub ? el("small", { class: "muted" }, sub) : null);
  const chaos = p.segments.reduce((a, g) => a + g.chaos, 0);
  const grid = el("div", { class: "vm-stats" },
    stat("firepower", p.firepower),
    stat("scientists", p.scientists, t("phone.vm.of_cells", { n: p.lab_cells })),
    stat("codex", p.codex, p.codex_value === 2 ? t("phone.vm.worth2") : (p.codex_power ? t("phone.vm.sees_pile") : null)),
    stat("segments", p.segments.length, t("phone.vm.chaos_n", { n: chaos })),
    stat("buildings", p.buildings.length),
    stat("missions", p.missions.length),
    stat("chaos_tokens", p.chaos_tokens),
    stat("bolts", p.bolts),
    stat("copper", p.copper));
  const sc = p.score;
  return [grid, big ? el("div", { class: "muted vm-small", style: "margin-top:6px", "data-score-parts": "" },
    t("phone.vm.score_parts", sc)) : null,
  big && p.buildings.length ? el("div", { class: "muted vm-small" }, p.buildings.map(([c, b]) => t("vm.building." + b) + " (" + t("vm.city." + c) + ")").join(", ")) : null];
}

function vmPlayers(view, ctx) {
  const { el, t } = ctx;
  return el("section", { "data-section": "players" }, el("h2", {}, t("phone.vm.players")),
    view.players.map((p) => el("div", { class: "vm-player" + (p.seat === view.active ? " active" : ""), "data-player": p.seat },
      el("div", { class: "spread" }, vmSeatChip(el, t, view, p.seat),
        el("span", {}, el("b", { class: "vm-total" }, String(p.score.total)), " ", t("phone.vm.points"))),
      el("div", { class: "vm-line" }, t("phone.vm.line", { fire: p.firepower, sci: p.scientists, codex: p.codex, bld: p.buildings.length,
        mis: p.missions.length, seg: p.segments.length, tok: p.chaos_tokens, pile: p.pile_size })))));
}

function vmLog(view, { el, t }) {
  if (!view.log || !view.log.length) return null;
  return el("section", { "data-section": "log" }, el("h2", {}, t("phone.vm.log")),
    view.log.slice().reverse().map((l) => el("div", { class: "vm-log" }, t(l.what, {
      seat: l.seat || "", city: l.city ? t("vm.city." + l.city) : "", detail: vmDetail(t, l.detail) }))));
}

function vmEnd(view, { el, t }) {
  const r = view.result;
  const me = view.seat;
  return el("section", { "data-end": "ended" },
    el("div", { class: "big" }, me ? (r.winners.includes(me) ? t("phone.vm.you_win") : t("phone.vm.your_place", { n: r.places[me] })) : t("phone.vm.game_over")),
    el("div", { class: "row", style: "margin-top:6px" }, t("phone.vm.winners"), r.winners.map((s) => vmSeatChip(el, t, view, s))));
}

RENDERERS.victorian_masterminds = (state, ctx) => {
  const { el, t, ui } = ctx;
  const view = state.view;
  const actions = (state.legal && state.legal.actions) || [];
  const out = el("div", { class: "vm" });
  const me = view.me;
  const big = (k, n, label) => el("div", { class: "stat", [`data-${k}`]: n }, el("b", {}, String(n)), el("small", {}, label));
  out.append(el("section", {},
    me ? el("div", { class: "row" }, el("span", { class: "chip vm-seat vm-" + String(me.colour).toLowerCase().replace(/[^a-z]/g, "") },
      me.colour), el("span", { class: "muted" },
      t("phone.vm.machine", { n: me.machine, name: me.machine_name || "" }))) : null,
    el("div", { class: "stats" },
      big("level", view.level, t("phone.vm.level")),
      me ? big("firepower", me.firepower, t("phone.vm.counter.firepower")) : big("supply", view.scientist_supply, t("phone.vm.box_scientists")),
      me ? big("total", me.score.total, t("phone.vm.points")) : big("deck", view.mission_deck, t("phone.vm.mission_deck"))),
    vmTurnLine(view, ctx)));
  if (view.result) out.append(vmEnd(view, ctx));
  const flow = actions.filter((a) => !["vm.adjust", "vm.record_segment", "vm.remove_segment", "vm.set_mission"].includes(a.kind));
  if (ui.seq !== state.seq) { ui.vm = null; ui.seq = state.seq; }  // a choice is made against one state only
  if (flow.length) out.append(vmChoices(view, flow.concat(actions.filter((a) => a.kind === "vm.adjust")), ctx));
  if (view.resolution) out.append(vmResolution(view, ctx));
  if (me) out.append(vmPile(view, ctx));
  out.append(vmStacks(view, ctx));
  if (me) out.append(el("section", { "data-section": "tally" }, el("h2", {}, t("phone.vm.my_tally")), vmTally(me, ctx, true)));
  if (view.players) out.append(vmPlayers(view, ctx));
  const seg = me && actions.find((a) => a.kind === "vm.record_segment");
  if (seg && !view.result) out.append(vmSegment(view, seg, ctx));
  if (view.log) out.append(vmLog(view, ctx));
  return out;
};

C.connect();
