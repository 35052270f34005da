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
const RETRYABLE = new Set(["link.busy", "hello.timeout"]);  // the server's refusals that pass by themselves
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
let inbox = Promise.resolve();  // the messages being handled, in the order they came
const waiting = new Map();
const games = {};  // rules -> {host, facts} once its phone module (games/<rules>.js) and facts are loaded

/* A game's setup fields, choice names and settings come from its own phone module (its `host`
 * export) and its facts, found through the registry like the seat page's screens. */
function gameParts(rules) {
  if (!games[rules]) {
    games[rules] = { host: {}, facts: {}, ready: Promise.all([
      import("./games/" + rules + ".js").then((m) => m.host || {}, () => ({})),
      fetch("/static/games/" + rules + ".json", { cache: "no-store" }).then((r) => (r.ok ? r.json() : {}), () => ({})),
    ]).then(([host, facts]) => { games[rules].host = host; games[rules].facts = facts; }) };
  }
  return games[rules];
}

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
let noticeWords = null;  // the page's own notice as a text of the catalogue, to say it again in another language
function notice(text, info) {
  const n = document.getElementById("notice");
  clearTimeout(noticeTimer);
  noticeWords = null;
  n.hidden = !text;
  n.className = info ? "info" : "";
  n.textContent = text || "";
  if (text && info) noticeTimer = setTimeout(() => notice(null), 3000);
}

function say(code, params, info) {  // a notice in the page's words: said again if the language changes
  notice(t(code, params), info);
  noticeWords = { code, params };
}

/* The language changed: the status pill and a notice of the page's own say it in the new one
 * (the rest of the page is drawn again). */
function reword() {
  const s = document.getElementById("status");
  if (s.dataset.state) s.textContent = t("phone." + s.dataset.state);
  const n = document.getElementById("notice");
  if (noticeWords && !n.hidden) n.textContent = t(noticeWords.code, noticeWords.params);
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
  // One message at a time, in order: the first state waits until the welcome's texts are loaded, so a
  // French table's page is French from its first picture (not English until the next change).
  ws.onmessage = (ev) => { const msg = JSON.parse(ev.data); inbox = inbox.then(() => receive(msg), () => receive(msg)); };
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
    render(H.tab !== "new");  // a state shown before (a reconnect) gets the words of this language
  } else if (msg.type === "error") {
    fatal = !RETRYABLE.has(msg.code);  // busy or slow: the page tries again by itself
    notice(msg.text || msg.code);
    document.getElementById("main").replaceChildren();
  } else if (msg.type === "host") {
    const language = H.state ? H.state.lang : null;
    H.state = msg;
    for (const p of msg.preferences || []) if (p.choices) gameParts(p.game);  // their choices' names, early
    if (language && language !== msg.lang) { await loadTexts(msg.lang); reword(); }
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
  say("host.busy", {}, true);
  try {
    const result = await call(op, args);
    say("host.done", {}, true);
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
/* A saved game's heading: its title, after its game's name unless the title already starts with it
   ("Scotland Yard 28.11. 20:15", not "Scotland Yard · Scotland Yard 28.11. 20:15"); as
   companion/app/history.py heading(). */
function heading(game, title) {
  if (!title) return game;
  return title.toLowerCase().startsWith(String(game).toLowerCase()) ? title : game + " · " + title;
}

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
    const old = main.querySelector("[data-warnings]"), now = warnings();
    if (old) old.replaceWith(now); else if (now) main.prepend(now);
    return;  // a setup being typed is never redrawn under the fingers
  }
  const screens = { game: gameScreen, new: newScreen, saved: savedScreen, history: historyScreen, settings: settingsScreen };
  main.replaceChildren(warnings(), nav, screens[H.tab]());
}

function warnings() {  // the Pi's own: saved games in RAM, a weak power supply, throttling
  const list = H.state.warnings || [];
  if (!list.length) return "";
  return el("section", { class: "pi-warnings", "data-warnings": true }, list.map((w) => el("p", {}, w)));
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
  const named = heading(current.game, current.title) === current.title;  // the title says the game's name already
  box.append(el("section", {},
    named ? null : el("h2", {}, current.game),
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
  box.append(el("section", { class: "row" },
    current.can_end ? el("button", { class: "danger", "data-end-game": true, disabled: H.busy, onclick: endGame }, t("host.end_game")) : null,
    el("button", { "data-close-game": true, disabled: H.busy, onclick: closeGame }, t("host.close_game"))));
  return box;
}

function endGame() {  // the table ends the game now: nobody wins, and every screen shows the end
  if (!confirm(t("host.end_confirm"))) return;
  act("end_game", { seq: H.state.current.seq });
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
    el("td", {}, p.label, p.role && p.role !== p.label ? el("small", { class: "muted" }, " · " + p.role) : null),
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
function setupOf(rules) {
  return H.state.setup.find((s) => s.rules === rules);
}

async function choose(rules) {
  const parts = gameParts(rules);
  await parts.ready;
  H.chosen = rules;
  const setup = setupOf(rules);
  H.form = {};
  for (const k of setup.keys) {  // a copy: the form is changed in place, the defaults stay for next time
    if (k.key in setup.defaults) H.form[k.key] = JSON.parse(JSON.stringify(setup.defaults[k.key]));
  }
  if (parts.host.start) parts.host.start(H.form, hostContext(rules));
  H.title = "";
  render(true);
}

/* What a game's `host` hooks get: the form being filled in and the page's helpers. */
function hostContext(rules) {
  return {
    t, el, field, form: H.form, facts: gameParts(rules).facts, settings: H.state.settings, call,
    plain: (k) => setupFieldPlain(rules, k), rerender: rerenderForm,
  };
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
    if (field) (k.required || k.remembered || ["texts", "flag", "int", "choice", "text"].includes(k.kind) ? main : more).append(field);
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
  const fields = gameParts(rules).host.fields || {};
  if (fields[k.key] && !plainOnly.has(k.key)) return fields[k.key](k, hostContext(rules));
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
  const host = gameParts(rules).host;
  return host.choiceName ? host.choiceName(key, c, t) : c;
}

/* Names, one a line (Scotland Yard's detective players); each line's hint is the game's
 * "<setup key's code>.item" text (e.g. "Detective {n}"). */
function namesField(k, names) {
  const rows = names.map((name, i) => el("div", { class: "row name-row" },
    el("input", { value: name, maxlength: 40, placeholder: t(k.code + ".item", { n: i + 1 }), "data-name": i,
      oninput: (e) => { H.form[k.key][i] = e.target.value; } }),
    names.length > 1 ? el("button", { "data-remove": i, onclick: () => { H.form[k.key].splice(i, 1); rerenderForm(); } }, "−") : null));
  return field(k.label, k, ...rows, names.length < 5
    ? el("button", { "data-add": k.key, onclick: () => { H.form[k.key].push(""); rerenderForm(); } }, "+ " + t("host.add")) : null);
}

/* A game's own field for a setup key may still want the generic one (e.g. shown only sometimes). */
const plainOnly = new Set();
function setupFieldPlain(rules, k) {
  plainOnly.add(k.key);
  try { return setupField(rules, k); } finally { plainOnly.delete(k.key); }
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
  const host = gameParts(rules).host;
  if (host.value) host.value(H.form, setup);
  return setup;
}

async function start() {
  const rules = H.chosen;
  const setup = setupValue(rules);
  if (!setup) return;
  await act("new_game", { rules, setup, title: H.title }, (result) => {
    say("host.started", { game: setupOf(rules).name }, true);
    const host = gameParts(rules).host;
    if (host.started) host.started(setup, hostContext(rules));
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

async function loadHistory(page) {
  const wanted = page === undefined ? (H.history ? H.history.page : 0) : page;
  try { H.history = await call("history", { page: wanted }); } catch (e) { return; }
  if (H.tab === "history") render(true);
}

/* Every finished game, a page at a time (the latest first). */
function historyPager() {
  const { page, per_page: per, total } = H.history;
  if (total <= per) return null;
  const last = Math.ceil(total / per) - 1;
  return el("div", { class: "row", "data-history-pages": true },
    el("button", { "data-history-page": "newer", disabled: page <= 0, onclick: () => loadHistory(page - 1) }, t("host.history_newer")),
    el("span", { class: "muted", "data-history-at": page }, t("host.history_page", { page: page + 1, pages: last + 1, total })),
    el("button", { "data-history-page": "older", disabled: page >= last, onclick: () => loadHistory(page + 1) }, t("host.history_older")));
}

function historyScreen() {
  const box = el("div", { "data-screen": "history" });
  if (H.history === null) return box;
  if (!H.history.plays.length) box.append(el("section", {}, el("p", { class: "muted" }, t("host.history_none"))));
  const pager = historyPager();
  if (pager) box.append(pager);
  for (const play of H.history.plays) {
    const people = play.players.map((p) => p.label + (p.score === null ? "" : " " + p.score) + (p.winner ? " ★" : "")).join(", ");
    const shown = H.bgstats[play.game_id];
    box.append(el("section", { "data-play": play.game_id },
      el("h2", {}, heading(play.game, play.title)),
      el("p", {}, t("host.history_line", { when: play.when, minutes: play.minutes, how: play.how })),
      el("p", {}, people),
      shown ? bgstatsBox(shown, false) : el("button", { "data-play-bgstats": play.game_id, onclick: async () => {
        try { H.bgstats[play.game_id] = (await call("bgstats", { game_id: play.game_id })).bgstats; } catch (e) { return; }
        render(true);
      } }, "BG Stats")));
  }
  if (pager) box.append(historyPager());
  return box;
}

function settingsScreen() {
  const s = H.state.settings;
  const set = (key, value) => act("setting", { key, value });
  const box = el("section", { "data-screen": "settings" });
  box.append(el("label", { class: "field" }, el("span", {}, t("host.language")), el("select", {
    "data-setting": "language", onchange: (e) => set("language", e.target.value),
  }, H.state.languages.map((l) => el("option", { value: l.code, selected: l.code === H.state.lang }, l.name)))));
  for (const p of H.state.preferences) {  // every game's, from its package (companion/app/preferences.py)
    const key = p.key;
    const flag = Array.isArray(p.choices) && p.choices.length === 2 && p.choices[0] === false && p.choices[1] === true;
    let control;
    if (flag) {
      control = el("input", { type: "checkbox", checked: !!s[key], "data-setting": key, onchange: (e) => set(key, e.target.checked) });
    } else if (!p.choices) {
      control = el("input", { type: "number", min: p.low, max: p.high, value: s[key] ?? "", "data-setting": key,
        onchange: (e) => { if (e.target.value !== "") set(key, Number(e.target.value)); } });
    } else {
      const parts = gameParts(p.game);
      if (!parts.host.choiceName) parts.ready.then(() => { if (H.tab === "settings") render(true); });
      control = el("select", { "data-setting": key, onchange: (e) => set(key, e.target.value) },
        p.choices.map((c) => el("option", { value: c, selected: s[key] === c }, choiceName(p.game, p.setup_key, c))));
    }
    box.append(el("label", { class: "field" + (flag ? " toggle-field" : "") }, el("span", {}, t("host.setting." + key, p)), control));
  }
  return box;
}

window.addEventListener("hashchange", () => go(location.hash.slice(1)));
document.addEventListener("visibilitychange", () => { if (!document.hidden) { retry = 0; connect(); } });
H.tab = TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : "game";
window.HOST = H;
loadTexts("en").then(connect);
