/* Companion phone page: one seat's private screen. No build step, no network but the Pi.
 *
 * Protocol (docs/protocol.md): hello {token, device} -> welcome | error; then the server pushes
 * {type:"state", ...snapshot} after every change; we send {type:"intent", id, seq, intent} and get
 * {type:"ack", id, seq} or {type:"refused", id, code, params, text}. An action is shown as done only
 * after its ack.
 *
 * This file is the shell (connection, texts, undo). Each game's screens are one ES module,
 * /static/games/<game>.js (the server finds it through the registry of games), exporting
 * render(state, ctx) and optionally `styles` (its CSS). The shell loads it, with the game's facts
 * (/static/games/<game>.json: the constants its screens need, ctx.facts), the first time a state of
 * that game arrives; ctx.seat is the phone's own seat. A game without a module is shown by the
 * fallback below (its view as text).
 */
import { el } from "./kit.js";
import { language as languageOf, render as fill } from "./texts.js";

const fallback = { render: (state, { el }) =>
  el("div", {}, el("section", {}, el("div", { class: "pre", text: JSON.stringify(state.view, null, 1) }))) };

// Errors after which the page connects again by itself (docs/protocol.md); every other one is final.
const RETRYABLE = new Set(["link.busy", "hello.timeout"]);
// Final errors after which the same link may work again (its game is opened again): a button tries.
const REOPENABLE = new Set(["link.not_open", "link.game_switched", "link.game_closed"]);
// The few texts needed before the texts are loaded, built into the page by the Pi in its language.
const BOOT = (() => {
  try { return JSON.parse(document.getElementById("boot").textContent || "{}"); } catch (e) { return {}; }
})();

const C = (() => {
  const token = decodeURIComponent((location.pathname.split("/s/")[1] || "").split("/")[0]);
  const deviceKey = "companion.device." + token;
  const langKey = "companion.lang." + token;  // this seat's own language, when its player chose one
  let languages = [];        // [{code, name}] from the welcome
  let ownLang = false;       // the server says this seat has its own language
  let texts = Object.assign({}, BOOT.texts || {});
  let textsReady = false;    // the whole catalogue is loaded (until then: the built-in texts only)
  let textsWanted = null;    // the language being loaded (tried again until it arrives)
  let textsTimer = null;
  let lang = BOOT.lang || "en";
  let rules = languageOf({});  // the loaded texts' plural rule and digit grouping
  let ws = null;
  let retry = 0;
  let fatal = false;
  let nextId = 1;
  let pending = null;        // {id, label} while an intent waits for the Pi
  let state = null;          // the latest {type:"state", ...}
  let mySeat = null;         // the seat id from the welcome ("@table" for the table link)
  let you = null;            // the welcome's {label: {code, params}, name}: whose phone this is, in words
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
  function notice(text, info, keep) {
    const n = document.getElementById("notice");
    clearTimeout(noticeTimer);
    if (!text) { n.hidden = true; n.textContent = ""; return; }
    n.hidden = false;
    n.className = info ? "info" : "";
    n.textContent = text;
    // "Done." fades away; refusals stay until the next action so nobody misses them.
    if (info && !pending && !keep) noticeTimer = setTimeout(() => notice(null), 3000);
  }

  /* The catalogue of ``language``; tried again (1, 2, 4, 8 s, then every 8 s) until it arrives, so a
     failed download never leaves raw codes on the screen: until then the page says it is loading. */
  async function loadTexts(language, attempt = 0) {
    textsWanted = language;
    clearTimeout(textsTimer);
    let got = null;
    try {
      const r = await fetch("/texts/" + language + ".json", { cache: "no-store" });
      if (r.ok) got = await r.json();
    } catch (e) { /* tried again below */ }
    if (textsWanted !== language) return;  // another language was asked for meanwhile
    if (got && typeof got === "object") {
      texts = Object.assign({}, BOOT.texts || {}, got);
      rules = languageOf(texts);
      lang = language;
      textsReady = true;
      textsWanted = null;
      document.documentElement.lang = language;
      return;
    }
    if (!textsReady) {
      document.getElementById("main").replaceChildren(el("p", { class: "muted", "data-texts": "retry" }, t("phone.texts_retry")));
    }
    textsTimer = setTimeout(async () => {
      await loadTexts(language, attempt + 1);
      if (textsReady && textsWanted === null) { setStatus(document.getElementById("status").dataset.state || "connecting"); footer(); render(); }
    }, 1000 * 2 ** Math.min(attempt, 3));
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
        you = msg.you || null;
        languages = msg.languages || [];
        ownLang = !!msg.own_lang;
        const mine = localStorage.getItem(langKey);
        if (mine && !ownLang && languages.some((l) => l.code === mine)) {
          ws.send(JSON.stringify({ type: "lang", lang: mine }));  // the Pi restarted since: tell it again
        }
        if (msg.lang !== lang || !textsReady) await loadTexts(msg.lang);
        if (fatal) break;  // the link was let go while the texts loaded: its notice stays
        setStatus("connected");
        notice(null);
        footer();
        render();  // a state may have arrived while the texts were loading
        break;
      }
      case "lang":  // the table's language changed, or this seat chose its own: every word again
        ownLang = !!msg.own_lang;
        if (msg.lang !== lang || !textsReady) await loadTexts(msg.lang);
        setStatus(document.getElementById("status").dataset.state || "connected");
        footer();
        render();
        break;
      case "error":
        received++;  // a state still waiting for its game's page is out of date: it must not cover this
        fatal = !RETRYABLE.has(msg.code);  // busy or slow: the page tries again by itself
        notice(msg.text || msg.code);
        state = null;
        document.getElementById("main").replaceChildren(REOPENABLE.has(msg.code)
          ? el("section", {}, el("button", { "data-action": "retry", onclick: () => location.reload() }, t("phone.retry")))
          : "");
        break;
      case "state": {
        const n = ++received;
        await gameModule(msg.game);
        if (n !== received) break;
        const before = state;
        const undoing = pending && pending.label === "undo";
        state = msg;
        if (before && msg.seq !== before.seq && !pending) vanished(before, msg);
        if (before && msg.seq !== before.seq && !undoing) takenBack(before, msg);
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

  /* A game's words (a snapshot's "last": {code, params}); a parameter may be a text of its own
     ({t: code, ...params}) or several joined ({join: [...], sep}). */
  function param(value) {
    if (value && typeof value === "object") {
      if (typeof value.t === "string") {
        const { t: code, ...rest } = value;
        return t(code, params(rest));
      }
      if (Array.isArray(value.join)) return value.join.map(param).join(value.sep || ", ");
    }
    return value;
  }
  function params(given) {
    const out = {};
    for (const [k, v] of Object.entries(given || {})) out[k] = param(v);
    return out;
  }
  function said(line) {
    return line && typeof line.code === "string" ? t(line.code, params(line.params)) : "";
  }

  /* Someone else acted while a choice was under way on this phone (a figure picked, a destination
     waiting for its confirm): a choice the game's module says still stands (``keep``) stays; any
     other goes, and the page says why. */
  function vanished(before, now) {
    const halfDone = Object.entries(ui).some(([k, v]) => k !== "seq" && v !== null && v !== undefined && v !== false);
    if (!halfDone) return;
    const module = loaded[now.game];
    if (module && module.keep && now.game === before.game) {
      try { if (module.keep(ui, now)) return; } catch (e) { /* cleared below */ }
    }
    ui = {};
    const last = now.last;
    const newer = last && before.last ? last.seq > before.last.seq : !!last;
    const what = said(last && last.text).replace(/[.!。]$/, "");  // the text ends its own sentence
    notice(newer && what ? t("phone.vanished", { what }) : t("phone.vanished_undo"), true, true);
  }

  /* An undo made elsewhere (the touchscreen, the table's link): every phone is told what it took
     back, and the phone whose move it was in its own words. */
  function takenBack(before, now) {
    const undone = now.undone;
    if (!undone || (before.undone && before.undone.seq === undone.seq && before.game_id === now.game_id)) return;
    if (undone.by === "phone:" + mySeat) return;  // this phone's own undo: its "Done." says so
    const what = said(undone.text);
    if (!what) return;
    const mine = undone.source === "phone:" + mySeat;
    notice(t(mine ? "phone.undone_yours" : "phone.undone", { what }), true, mine);
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
      const valid = /^[a-z0-9_]+$/.test(game || "");
      const module = valid
        ? import("./games/" + game + ".js").then((m) => (typeof m.render === "function" ? m : fallback), () => fallback)
        : Promise.resolve(fallback);
      const facts = valid
        ? fetch("/static/games/" + game + ".json", { cache: "no-store" }).then((r) => (r.ok ? r.json() : {}), () => ({}))
        : Promise.resolve({});
      loading[game] = Promise.all([module, facts]).then(([m, f]) => {
        if (m.styles) document.head.append(el("style", { "data-game": game, text: m.styles }));
        loaded[game] = { render: m.render, keep: typeof m.keep === "function" ? m.keep : null, facts: f };
      });
    }
    return loading[game];
  }

  /* The language choice under the screen: the table's (the default), or this seat's own. */
  function footer() {
    const foot = document.getElementById("foot");
    if (!foot || !languages.length || !textsReady) return;  // its words come with the texts
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
    if (!textsReady) {  // never a screen of raw codes: it waits for its texts
      document.getElementById("main").replaceChildren(el("p", { class: "muted" }, t(textsWanted ? "phone.texts_retry" : "phone.loading")));
      return;
    }
    const main = document.getElementById("main");
    const game = loaded[state.game] || { render: fallback.render, facts: {} };
    document.getElementById("title").textContent = state.title || t("game." + state.game);
    // Whose phone it is, under the title: "Mister X · Alice", "Détective 1 · Bob", "Bleu".
    const seat = document.getElementById("seat");
    if (seat && you) {
      // A label starts with a capital ("Azul", a colour's name alone); a typed name stays as typed,
      // as the table shows it ("om" is "om" on every screen).
      const label = you.label ? said(you.label) : "";
      seat.textContent = [label.charAt(0).toUpperCase() + label.slice(1), you.name || ""].filter(Boolean).join(" · ");
      seat.dataset.seat = mySeat || "";
    }
    // ctx.seat: this phone's seat ("@table" for the table link), as the welcome named it.
    const screen = game.render(state, { t, el, send, ui, busy: !!pending, rerender: render, facts: game.facts, seat: mySeat });
    if (state.can_undo) {  // named: what it takes back (the game's words for this seat)
      const what = said(state.last && state.last.text);
      screen.append(el("section", {}, el("button", {
        onclick: () => send({ kind: "core.undo" }, "undo"), disabled: !!pending, "data-action": "undo",
      }, what ? t("phone.undo_what", { what }) : t(mySeat === "@table" ? "phone.undo_table" : "phone.undo"))));
    }
    main.replaceChildren(screen);
  }

  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);  // built-in texts

  document.addEventListener("visibilitychange", () => { if (!document.hidden) { retry = 0; connect(); } });
  window.addEventListener("online", () => { retry = 0; connect(); });
  window.addEventListener("pageshow", () => connect());
  return { connect, t, el, get state() { return state; } };
})();

window.C = C;  // the browser tests read C.state
C.connect();
