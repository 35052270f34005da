/* Companion host page: run the table from a phone, tablet or laptop (no touchscreen needed).
 *
 * Protocol (companion/net/host.py, docs/host.md): hello {token} -> welcome | error; the server pushes
 * {type:"host", games, current, settings, setup, languages} after every change; we send
 * {type:"do", id, op, args} and get {type:"done", id, result} or {type:"refused", id, code, text}.
 * A seat's QR code is shown one at a time, on request, and hidden as soon as a phone holds the seat.
 */
import { el } from "./kit.js";
import { language as languageOf, render as fill } from "./texts.js";

const token = decodeURIComponent((location.pathname.split("/h/")[1] || "").split("/")[0]);
const TABS = ["game", "new", "saved", "history", "settings"];
const H = {
  state: null,       // the latest {type:"host", ...}
  tab: "game",
  showing: null,     // {seat, url, code, qr} of the one seat whose code is shown
  chosen: null,      // the box chosen on the New game tab
  form: {},          // the setup being filled in, by key
  title: "",
  history: null,     // the plays, once asked for
  bgstats: {},       // game_id -> {link, qr} of plays whose BG Stats code is shown
  busy: false,
};
let texts = {};
let rules = languageOf({});  // the loaded language's plural rule and digit grouping
let ws = null;
let fatal = false;
let nextId = 1;
let retry = 0;
const waiting = new Map();

/* -- words ------------------------------------------------------------------------------------ */
function t(code, params) {
  let probe = code;
  while (probe) {
    if (Object.prototype.hasOwnProperty.call(texts, probe)) {
      try { return fill(texts[probe], params || {}, rules); } catch (e) { return texts[probe]; }
    }
    const cut = probe.lastIndexOf(".");
    probe = cut > 0 ? probe.slice(0, cut) : "";
  }
  return code;
}

async function loadTexts(lang) {
  try {
    const r = await fetch("/texts/" + lang + ".json", { cache: "no-store" });
    if (r.ok) { texts = await r.json(); rules = languageOf(texts); document.documentElement.lang = lang; }
  } catch (e) { /* keep the old texts */ }
}

let noticeTimer = null;
function notice(text, info) {
  const n = document.getElementById("notice");
  clearTimeout(noticeTimer);
  n.hidden = !text;
  n.className = info ? "info" : "";
  n.textContent = text || "";
  if (text && info) noticeTimer = setTimeout(() => notice(null), 3000);
}

function setStatus(kind) {
  const s = document.getElementById("status");
  s.className = "status " + kind;
  s.dataset.state = kind;
  s.textContent = t("phone." + kind);
}

/* -- the connection ----------------------------------------------------------------------------- */
function connect() {
  if (fatal || (ws && ws.readyState <= WebSocket.OPEN)) return;
  setStatus(retry ? "reconnecting" : "connecting");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/host/ws");
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token }));
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    ws = null;
    for (const [, w] of waiting) w.reject(null);
    waiting.clear();
    if (fatal) { setStatus("closed"); return; }
    setStatus("reconnecting");
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 500 * 2 ** (retry - 1));
  };
}

async function receive(msg) {
  if (msg.type === "welcome") {
    retry = 0;
    await loadTexts(msg.lang);
    setStatus("connected");
  } else if (msg.type === "error") {
    fatal = true;
    notice(msg.text || msg.code);
    document.getElementById("main").replaceChildren();
  } else if (msg.type === "host") {
    const language = H.state ? H.state.lang : null;
    H.state = msg;
    if (language && language !== msg.lang) await loadTexts(msg.lang);
    const current = msg.current;
    if (H.showing && (!current || !current.seats.some((s) => s.seat === H.showing.seat && !s.claimed))) {
      H.showing = null;  // the phone has joined (or the game changed): the code disappears
    }
    render(H.tab !== "new");
  } else if (msg.type === "done" || msg.type === "refused") {
    const w = waiting.get(msg.id);
    if (msg.type === "refused") notice(msg.text || msg.code);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.type === "done") w.resolve(msg.result); else w.reject(msg);
  }
}

function call(op, args) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(null);
  const id = nextId++;
  ws.send(JSON.stringify({ type: "do", id, op, args: args || {} }));
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

async function act(op, args, done) {
  if (H.busy) return null;
  H.busy = true;
  notice(t("host.busy"), true);
  try {
    const result = await call(op, args);
    notice(t("host.done"), true);
    if (done) done(result);
    return result;
  } catch (e) {
    return null;
  } finally {
    H.busy = false;
    render(H.tab !== "new");
  }
}

/* -- the page ----------------------------------------------------------------------------------- */
function go(tab) {
  H.tab = TABS.includes(tab) ? tab : "game";
  if (location.hash !== "#" + H.tab) history.replaceState(null, "", "#" + H.tab);
  if (H.tab === "history") loadHistory();
  render(true);
}

function render(all) {
  if (!H.state) return;
  document.getElementById("title").textContent = t("host.title");
  const nav = el("nav", { class: "tabs" }, TABS.map((tab) => el("button", {
    class: tab === H.tab ? "sel" : "", "data-tab": tab, onclick: () => go(tab),
  }, t("host.tab." + tab))));
  const main = document.getElementById("main");
  if (!all && main.querySelector("[data-screen=new]")) {
    main.querySelector("nav.tabs").replaceWith(nav);
    return;  // a setup being typed is never redrawn under the fingers
  }
  const screens = { game: gameScreen, new: newScreen, saved: savedScreen, history: historyScreen, settings: settingsScreen };
  main.replaceChildren(nav, screens[H.tab]());
}

function seatState(s) {
  if (s.connected) return el("span", { class: "ok" }, t("host.seat.connected"));
  if (s.claimed) return el("span", { class: "ok" }, t("host.seat.joined"));
  return el("span", { class: "muted" }, t("host.seat.free"));
}

function gameScreen() {
  const current = H.state.current;
  const box = el("div", { "data-screen": "game" });
  if (!current) {
    box.append(el("section", {}, el("p", { "data-no-game": true }, t("host.no_game")),
      el("div", { class: "row" },
        el("button", { class: "primary", "data-go": "new", onclick: () => go("new") }, t("host.tab.new")),
        H.state.games.length ? el("button", { "data-go": "saved", onclick: () => go("saved") }, t("host.tab.saved")) : null)));
    return box;
  }
  box.append(el("section", {},
    el("h2", {}, current.game),
    el("div", { class: "big-title" }, current.title),
    current.over ? null : el("p", { "data-game-status": true }, current.status)));
  if (current.over && current.result) box.append(resultSection(current.result, true));
  const seats = el("section", {}, el("h2", {}, t("host.seats")));
  for (const s of current.seats) {
    const shown = H.showing && H.showing.seat === s.seat;
    seats.append(el("div", { class: "seat" + (shown ? " shown" : ""), "data-seat": s.seat },
      el("div", {}, el("b", {}, s.label), el("br"), seatState(s)),
      s.claimed
        ? el("button", { class: "danger", "data-release": s.seat, disabled: H.busy, onclick: () => release(s) }, t("host.release"))
        : shown
          ? el("button", { "data-hide": s.seat, onclick: () => { H.showing = null; render(true); } }, t("host.hide"))
          : el("button", { class: "primary", "data-show": s.seat, disabled: H.busy, onclick: () => show(s.seat) }, t("host.show"))));
    if (shown) seats.append(codeBox(s));  // right under its seat, so nobody scrolls past another's
  }
  box.append(seats);
  box.append(el("section", {}, el("button", { "data-close-game": true, disabled: H.busy, onclick: closeGame }, t("host.close_game"))));
  return box;
}

function codeBox(seat) {
  return el("div", { class: "qr-box seat-code", "data-showing": seat.seat },
    el("p", { class: "qr-caption" }, t("host.scan", { seat: seat.label })),
    el("img", { src: H.showing.qr, alt: "QR", "data-qr": seat.seat }),
    el("p", { class: "qr-url" }, H.showing.url),
    el("p", {}, t("host.or_code", { address: location.host + "/" })),
    el("div", { class: "room-code", "data-code": seat.seat }, H.showing.code),
    el("p", { class: "qr-note" }, t("host.code_note")));
}

function resultSection(result, live) {
  const players = el("table", { class: "result" }, result.players.map((p) => el("tr", { class: p.winner ? "winner" : "" },
    el("td", {}, p.label, p.role ? el("small", { class: "muted" }, " · " + p.role) : null),
    el("td", {}, p.score === null ? "" : t("host.points", { score: p.score })),
    el("td", {}, p.winner ? "★ " + t("host.winner") : ""))));
  const out = el("section", { "data-result": result.game_id },
    el("h2", {}, t("host.result")),
    el("p", { "data-how": true }, result.how),
    players);
  if (result.bgstats) out.append(bgstatsBox(result.bgstats, live));
  return out;
}

function bgstatsBox(bg, live) {
  return el("div", { class: "qr-box bgstats", "data-bgstats": live ? "current" : "history" },
    el("p", { class: "qr-caption" }, t("host.bgstats")),
    el("img", { src: bg.qr, alt: "BG Stats QR", "data-bgstats-qr": true }),
    el("p", {}, el("a", { href: bg.link, rel: "noreferrer", "data-bgstats-link": true }, t("host.bgstats_open"))),
    el("p", { class: "qr-note" }, t("host.bgstats_note")));
}

async function show(seat) {
  const shown = await act("show_seat", { seat });
  if (shown) { H.showing = shown; render(true); }
}

function release(s) {
  if (!confirm(t("host.release_confirm", { seat: s.label }))) return;
  if (H.showing && H.showing.seat === s.seat) H.showing = null;
  act("release_seat", { seat: s.seat });
}

function closeGame() {
  if (!confirm(t("host.close_confirm"))) return;
  H.showing = null;
  act("close_game", {});
}

/* -- a new game --------------------------------------------------------------------------------- */
const COLOURS = { victorian_masterminds: ["red", "blue", "green", "yellow"], mykerinos: ["blue", "red", "green", "white"] };

function setupOf(rules) {
  return H.state.setup.find((s) => s.rules === rules);
}

function choose(rules) {
  H.chosen = rules;
  const setup = setupOf(rules);
  H.form = {};
  for (const k of setup.keys) {
    if (k.key in setup.defaults) H.form[k.key] = setup.defaults[k.key];
  }
  if (rules === "scotland_yard") H.form.detectives = ["", ""];
  if (rules === "mykerinos") H.form.seats = [];
  if (rules === "victorian_masterminds") {
    H.form.players = [{ colour: "red", machine: 1, machine_name: "" }, { colour: "blue", machine: 2, machine_name: "" }];
  }
  H.title = "";
  render(true);
}

function newScreen() {
  const box = el("div", { "data-screen": "new" });
  box.append(el("section", {}, el("h2", {}, t("host.choose_game")), el("div", { class: "row" },
    H.state.setup.map((s) => el("button", { class: s.rules === H.chosen ? "sel" : "", "data-choose": s.rules, onclick: () => choose(s.rules) }, s.name)))));
  if (!H.chosen) return box;
  const setup = setupOf(H.chosen);
  const main = el("section", { class: "setup", "data-setup": H.chosen });
  const more = el("details", {}, el("summary", {}, t("host.more")));
  for (const k of setup.keys) {
    const field = setupField(H.chosen, k);
    if (field) (k.required || ["texts", "flag", "int", "choice", "text"].includes(k.kind) ? main : more).append(field);
  }
  main.append(el("label", { class: "field" }, el("span", {}, t("host.title_label")),
    el("input", { value: H.title, maxlength: 80, "data-title": true, oninput: (e) => { H.title = e.target.value; } })));
  if (more.children.length > 1) main.append(more);
  main.append(el("button", { class: "primary wide-button", "data-start": true, disabled: H.busy, onclick: start }, t("host.start")));
  box.append(main);
  return box;
}

function field(label, k, ...controls) {
  return el("div", { class: "field", "data-key": k.key },
    el("span", {}, label, k.required ? el("small", { class: "muted" }, " · " + t("host.required")) : null), ...controls);
}

function rerenderForm() {
  const section = document.querySelector("[data-screen=new]");
  if (section) section.replaceWith(newScreen());
}

function setupField(rules, k) {
  const special = SPECIAL[rules + "." + k.key];
  if (special) return special(k);
  const value = H.form[k.key];
  if (k.kind === "flag") {  // the box and its words on one line: the whole line toggles it
    return el("label", { class: "field toggle-field", "data-key": k.key }, el("span", {}, k.label), el("input", {
      type: "checkbox", checked: !!value, "data-input": k.key, onchange: (e) => { H.form[k.key] = e.target.checked; },
    }));
  }
  if (k.kind === "choice") {
    const options = [el("option", { value: "" }, "–"), ...k.choices.map((c) => el("option", { value: c, selected: value === c }, choiceName(rules, k.key, c)))];
    return field(k.label, k, el("select", { "data-input": k.key, onchange: (e) => {
      if (e.target.value) H.form[k.key] = e.target.value; else delete H.form[k.key];
    } }, options));
  }
  if (k.kind === "int") {
    return field(k.label, k, el("input", { type: "number", inputmode: "numeric", value: value ?? "", "data-input": k.key,
      oninput: (e) => { if (e.target.value === "") delete H.form[k.key]; else H.form[k.key] = Number(e.target.value); } }));
  }
  if (k.kind === "texts") return namesField(k, value || []);
  if (k.kind === "json") {
    return field(k.label, k, el("textarea", { rows: 3, placeholder: k.example, "data-input": k.key,
      oninput: (e) => { H.form[k.key + "#json"] = e.target.value; } }, H.form[k.key + "#json"] || ""));
  }
  return field(k.label, k, el("input", { value: value || "", maxlength: 40, "data-input": k.key,
    oninput: (e) => { if (e.target.value) H.form[k.key] = e.target.value; else delete H.form[k.key]; } }));
}

function choiceName(rules, key, c) {
  if (rules === "mykerinos" && key === "neutral") return t("myk.colour." + c);
  if (rules === "mykerinos" && key === "layout") return t("host.layout." + c);
  if (rules === "victorian_masterminds" && key === "gunner_rule") return t("host.gunner." + (c === ">" ? "gt" : "ge"));
  return c;
}

/* Names, one a line (Scotland Yard's detective players). */
function namesField(k, names) {
  const rows = names.map((name, i) => el("div", { class: "row name-row" },
    el("input", { value: name, maxlength: 40, placeholder: t("host.detective", { n: i + 1 }), "data-name": i,
      oninput: (e) => { H.form[k.key][i] = e.target.value; } }),
    names.length > 1 ? el("button", { "data-remove": i, onclick: () => { H.form[k.key].splice(i, 1); rerenderForm(); } }, "−") : null));
  return field(k.label, k, ...rows, names.length < 5
    ? el("button", { "data-add": k.key, onclick: () => { H.form[k.key].push(""); rerenderForm(); } }, "+ " + t("host.add")) : null);
}

/* Setup keys that need more than a generic field: colours in seating order, the players' machines,
 * the start level remembered per player count, the first player among the players entered. */
const SPECIAL = {
  "mykerinos.seats": (k) => {
    const order = H.form.seats || [];
    const buttons = COLOURS.mykerinos.map((c) => {
      const at = order.indexOf(c);
      return el("button", { class: "myk-" + c + (at >= 0 ? " sel" : ""), "data-colour": c, onclick: () => {
        const i = H.form.seats.indexOf(c);
        if (i >= 0) H.form.seats.splice(i, 1); else H.form.seats.push(c);
        if (H.form.seats.length !== 2) delete H.form.neutral;
        rerenderForm();
      } }, (at >= 0 ? at + 1 + ". " : "") + t("myk.colour." + c));
    });
    return field(k.label, k, el("div", { class: "row" }, buttons));
  },
  "mykerinos.neutral": (k) => ((H.form.seats || []).length === 2 ? setupFieldPlain("mykerinos", k) : null),
  "victorian_masterminds.players": (k) => {
    const players = H.form.players;
    const rows = players.map((p, i) => el("div", { class: "vm-setup-row", "data-player": i },
      el("b", {}, t("host.player", { n: i + 1 })),
      el("label", {}, t("host.colour"), el("select", { "data-colour": i, onchange: (e) => { p.colour = e.target.value; } },
        COLOURS.victorian_masterminds.map((c) => el("option", { value: c, selected: p.colour === c }, t("vm.colour." + c))))),
      el("label", {}, t("host.machine"), el("select", { "data-machine": i, onchange: (e) => { p.machine = Number(e.target.value); } },
        [1, 2, 3, 4, 5, 6].map((m) => el("option", { value: m, selected: p.machine === m }, String(m))))),
      el("label", {}, t("host.machine_name"), el("input", { value: p.machine_name, maxlength: 40, "data-machine-name": i,
        oninput: (e) => { p.machine_name = e.target.value; } })),
      el("label", {}, t("host.lab_cells"), el("select", { "data-lab-cells": i, onchange: (e) => { p.lab_cells = Number(e.target.value); } },
        [1, 2, 3, 4].map((n) => el("option", { value: n, selected: (p.lab_cells || 2) === n }, String(n))))),
      players.length > 2 ? el("button", { "data-remove": i, onclick: () => { players.splice(i, 1); levelFor(); rerenderForm(); } }, t("host.remove")) : null));
    const add = players.length < 4 ? el("button", { "data-add": "players", onclick: () => {
      const used = new Set(players.map((p) => p.colour));
      const machines = new Set(players.map((p) => p.machine));
      players.push({ colour: COLOURS.victorian_masterminds.find((c) => !used.has(c)) || "red",
        machine: [1, 2, 3, 4, 5, 6].find((m) => !machines.has(m)) || 1, machine_name: "" });
      levelFor();
      rerenderForm();
    } }, "+ " + t("host.add")) : null;
    return field(t("host.players"), k, ...rows, add);
  },
  "victorian_masterminds.secret_service_start": (k) => {
    levelFor();
    return el("div", {}, setupFieldPlain("victorian_masterminds", k), el("p", { class: "muted small" }, t("host.level_note")));
  },
  "victorian_masterminds.first_player": (k) => field(k.label, k, el("select", { "data-input": k.key, onchange: (e) => {
    if (e.target.value) H.form.first_player = e.target.value; else delete H.form.first_player;
  } }, [el("option", { value: "" }, "–"), ...H.form.players.map((p, i) => el("option", {
    value: "p" + (i + 1), selected: H.form.first_player === "p" + (i + 1) }, t("host.player", { n: i + 1 }) + " · " + t("vm.colour." + p.colour)))])),
};

function setupFieldPlain(rules, k) {
  const special = SPECIAL[rules + "." + k.key];
  delete SPECIAL[rules + "." + k.key];
  try { return setupField(rules, k); } finally { SPECIAL[rules + "." + k.key] = special; }
}

/* The Secret Service start level the table entered last time for this many players. */
function levelFor() {
  const known = H.state.settings["vm.start_level." + H.form.players.length];
  if (typeof known === "number") H.form.secret_service_start = known;
  else delete H.form.secret_service_start;
}

function setupValue(rules) {
  const setup = {};
  for (const k of setupOf(rules).keys) {
    const raw = H.form[k.key + "#json"];
    if (k.kind === "json" && raw !== undefined && raw.trim()) {
      try { setup[k.key] = JSON.parse(raw); } catch (e) { notice(k.key + ": JSON"); return null; }
    } else if (k.key in H.form) {
      setup[k.key] = H.form[k.key];
    }
  }
  if (rules === "victorian_masterminds") {
    setup.players = H.form.players.map((p, i) => {
      const out = { seat: "p" + (i + 1), colour: p.colour, machine: p.machine };
      if (p.machine_name) out.machine_name = p.machine_name;
      if (p.lab_cells && p.lab_cells !== 2) out.lab_cells = p.lab_cells;
      return out;
    });
  }
  return setup;
}

async function start() {
  const rules = H.chosen;
  const setup = setupValue(rules);
  if (!setup) return;
  await act("new_game", { rules, setup, title: H.title }, (result) => {
    notice(t("host.started", { id: result.game_id }), true);
    if (rules === "victorian_masterminds" && typeof setup.secret_service_start === "number") {
      call("setting", { key: "vm.start_level." + setup.players.length, value: setup.secret_service_start }).catch(() => null);
    }
    H.chosen = null;
    H.showing = null;
    go("game");
  });
}

/* -- saved games, history, settings ----------------------------------------------------------------- */
function savedScreen() {
  const box = el("section", { "data-screen": "saved" });
  const names = Object.fromEntries(H.state.setup.map((s) => [s.rules, s.name]));
  if (!H.state.games.length) box.append(el("p", { class: "muted" }, t("host.saved_none")));
  for (const g of H.state.games) {
    box.append(el("div", { class: "seat", "data-game": g.id },
      el("div", {}, el("b", {}, g.title + (g.current ? " •" : "")), el("br"),
        el("small", { class: "muted" }, [names[g.rules] || g.rules, t("host.status." + g.status), g.updated].join(" · "))),
      el("div", { class: "row" },
        g.current ? null : el("button", { class: "primary", "data-open": g.id, disabled: H.busy,
          onclick: () => act("open_game", { id: g.id }, () => go("game")) }, t("host.open")),
        el("button", { class: "danger", "data-delete": g.id, disabled: H.busy, onclick: () => {
          if (confirm(t("host.delete_confirm", { title: g.title }))) act("delete_game", { id: g.id });
        } }, t("host.delete")))));
  }
  return box;
}

async function loadHistory() {
  try { H.history = await call("history", {}); } catch (e) { return; }
  if (H.tab === "history") render(true);
}

function historyScreen() {
  const box = el("div", { "data-screen": "history" });
  if (H.history === null) return box;
  if (!H.history.length) box.append(el("section", {}, el("p", { class: "muted" }, t("host.history_none"))));
  for (const play of H.history) {
    const people = play.players.map((p) => p.label + (p.score === null ? "" : " " + p.score) + (p.winner ? " ★" : "")).join(", ");
    const shown = H.bgstats[play.game_id];
    box.append(el("section", { "data-play": play.game_id },
      el("h2", {}, play.game + " · " + play.title),
      el("p", {}, t("host.history_line", { when: play.when, minutes: play.minutes, how: play.how })),
      el("p", {}, people),
      shown ? bgstatsBox(shown, false) : el("button", { "data-play-bgstats": play.game_id, onclick: async () => {
        try { H.bgstats[play.game_id] = (await call("bgstats", { game_id: play.game_id })).bgstats; } catch (e) { return; }
        render(true);
      } }, "BG Stats")));
  }
  return box;
}

const SETTINGS = [
  ["sy.tracker", "flag"], ["sy.bobbies_keep_game_alive", "flag"], ["vm.gunner_rule", [">=", ">"]],
  ["vm.capture_city_loot", "flag"], ["vm.start_level.2", "level"], ["vm.start_level.3", "level"],
  ["vm.start_level.4", "level"], ["myk.layout", ["line4", "ring5"]],
];

function settingsScreen() {
  const s = H.state.settings;
  const set = (key, value) => act("setting", { key, value });
  const box = el("section", { "data-screen": "settings" });
  box.append(el("label", { class: "field" }, el("span", {}, t("host.language")), el("select", {
    "data-setting": "language", onchange: (e) => set("language", e.target.value),
  }, H.state.languages.map((l) => el("option", { value: l.code, selected: l.code === H.state.lang }, l.name)))));
  for (const [key, kind] of SETTINGS) {
    const label = key.startsWith("vm.start_level.") ? t("host.setting.vm.start_level", { players: key.slice(-1) }) : t("host.setting." + key);
    let control;
    if (kind === "flag") {
      control = el("input", { type: "checkbox", checked: !!s[key], "data-setting": key, onchange: (e) => set(key, e.target.checked) });
    } else if (kind === "level") {
      control = el("input", { type: "number", min: 0, max: 11, value: s[key] ?? "", "data-setting": key,
        onchange: (e) => { if (e.target.value !== "") set(key, Number(e.target.value)); } });
    } else {
      const game = key.startsWith("myk.") ? "mykerinos" : "victorian_masterminds";
      const name = key === "myk.layout" ? "layout" : "gunner_rule";
      control = el("select", { "data-setting": key, onchange: (e) => set(key, e.target.value) },
        kind.map((c) => el("option", { value: c, selected: s[key] === c }, choiceName(game, name, c))));
    }
    box.append(el("label", { class: "field" + (kind === "flag" ? " toggle-field" : "") }, el("span", {}, label), control));
  }
  return box;
}

window.addEventListener("hashchange", () => go(location.hash.slice(1)));
document.addEventListener("visibilitychange", () => { if (!document.hidden) { retry = 0; connect(); } });
H.tab = TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : "game";
window.HOST = H;
loadTexts("en").then(connect);
