/* Scotland Yard on the phone page: Mister X's secret screen and the detectives' screen.
 * The game's constants (tickets, log fields) come from its facts (ctx.facts), never from here. */

function chip(el, t, ticket, short) {
  return el("span", { class: "chip t-" + ticket }, t((short ? "phone.sy.short." : "phone.sy.ticket.") + ticket));
}

/* "Detective 1", "Bobby 2" for the figures D1, B2. */
function figureName(t, figure) {
  const m = /^([DB])(\d+)$/.exec(figure || "");
  return m ? t("sy.figure." + m[1], { n: Number(m[2]) }) : String(figure || "");
}

/* A detective by the name typed for its seat, as the table and the voice say it; else "Detective 1"
 * (a bobby, moved by every detective, is always "Bobby 1"). */
function personName(view, t, figure) {
  const owners = (view.seats || []).filter((s) => (s.figures || []).includes(figure));
  const name = /^D/.test(figure || "") && owners.length === 1 ? owners[0].name : "";
  return name || figureName(t, figure);
}

function syLog(view, secretRoute, { el, t, facts }) {
  const fields = [];
  const byField = {};
  for (const f of view.log) byField[f.field] = f;
  const mine = {};
  for (const f of secretRoute || []) mine[f.field] = f;
  const reveals = new Set(view.reveal_fields);
  for (let n = 1; n <= facts.log_fields; n++) {
    const f = byField[n];
    const station = mine[n] ? mine[n].station : f && f.station;
    fields.push(el("div", { class: reveals.has(n) ? "reveal" : "", "data-field": n },
      el("div", { class: "muted" }, String(n)),
      f ? chip(el, t, f.ticket, true) : "",  // a sixth of the screen: the short word
      station ? el("div", {}, el("b", {}, String(station))) : ""));
  }
  return el("section", {}, el("h2", {}, t("phone.sy.log")), el("div", { class: "log" }, fields));
}

function syFigures(view, { el, t }) {
  const rows = view.figures.map((f) => {
    const seat = view.seats.find((s) => (s.figures || []).includes(f.figure) && !f.bobby);
    const tk = seat ? seat.tickets : null;
    return el("tr", { "data-figure": f.figure },
      el("td", {}, el("b", {}, figureName(t, f.figure)),
        seat && seat.name ? el("div", { class: "muted", style: "font-size:13px" }, seat.name) : ""),
      el("td", {}, f.station ? String(f.station) : "–"),
      el("td", { class: "muted" }, tk ? `${tk.taxi}/${tk.bus}/${tk.underground}` : t("phone.sy.free_ride")),
      el("td", {}, f.moved ? "✓" : ""));
  });
  return el("section", {}, el("h2", {}, t("phone.sy.figures")),
    el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.sy.station")),
      el("th", {}, t("phone.sy.tickets_short")), el("th", {}, "")), rows));
}

/* Mister X's last reveal, kept until his next one; announced the same way however it came (a single
 * move, or either step of a double move) while the detectives of that round move. */
function syReveal(view, { el, t }) {
  const r = view.last_reveal;
  if (!r || !r.now || view.end) return null;
  return el("div", { class: "warn big-warn", "data-reveal-now": r.field }, t("sy.reveal_now", { station: r.station, field: r.field }));
}

function syEnd(view, { el, t }) {
  const e = view.end;
  return el("section", { "data-end": e.reason },
    el("div", { class: "big" }, t("phone.sy.winner." + (e.winner || "nobody"))),
    el("p", {}, t("phone.sy.end." + e.reason, { figure: personName(view, t, e.figure), station: e.station || "" })));
}

/* The table plays detectives: its last move, for whoever stands nearest to carry out on the board,
 * and Done once the pawn stands there (anyone's next move confirms it too). Every phone shows it. */
function syInstruction(state, { el, t, send, busy }) {
  const ins = state.view.instruction;
  if (!ins) return null;
  const words = t("sy.instruction." + (ins.bobby ? "bobby" : "detective"),
    { n: ins.figure.slice(1), by: t("sy.by." + ins.ticket), station: ins.station });
  const done = ((state.legal || {}).intents || []).includes("sy.confirm");
  return el("section", { "data-instruction": ins.figure },
    el("div", { class: "muted" }, t("phone.sy.table_says")),
    el("div", { class: "big", style: "font-size:22px" }, words),
    done ? el("button", { class: "primary", style: "margin-top:8px", disabled: busy, "data-action": "table-done",
      onclick: () => send({ kind: "sy.confirm", figure: ins.figure }) }, t("phone.sy.confirm")) : "");
}

function destButtons(options, chosen, pick, { el, t, facts }, busy) {
  const groups = [];
  for (const ticket of facts.tickets) {
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
  const revealed = syReveal(view, ctx);
  if (revealed) out.append(revealed);
  const told = syInstruction(state, ctx);
  if (told) out.append(told);
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
  if (view.tracker && view.tracker.on && view.tracker.candidates && !view.end) {
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
  const last = view.last_reveal;  // his last reveal stays until the next one
  const was = view.end ? view.mrx.station : null;  // the game is over: where he really was, as the table says
  const seen = was
    ? el("div", {}, el("div", { class: "muted" }, t("phone.sy.mrx_was")),
      el("div", { class: "big", "data-mrx-was": was }, String(was)))
    : el("div", {}, el("div", { class: "muted" }, t("phone.sy.mrx_last_seen")),
      el("div", { class: "big", "data-mrx-shown": last ? last.station : "" }, last ? String(last.station) : "?"),
      last ? el("div", { class: "muted", "data-mrx-seen-move": last.field },
        t("phone.sy.seen_move", { field: last.field }) + (last.here ? " · " + t("phone.sy.there_now") : "")) : "");
  out.append(el("section", {},
    el("div", { class: "spread" }, seen,
      el("div", { style: "text-align:right" }, t("phone.sy.round", { round: view.round, rounds: view.rounds })))));
  if (view.end) out.append(syEnd(view, ctx));
  const revealed = syReveal(view, ctx);
  if (revealed) out.append(revealed);
  const told = syInstruction(state, ctx);
  if (told) out.append(told);
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
      onclick: () => { ui.figure = f; ui.pick = null; rerender(); } }, figureName(t, f)))));
    if (ui.figure && legal.moves[ui.figure]) {
      sec.append(...destButtons(legal.moves[ui.figure], ui.pick, (p) => { ui.pick = p; rerender(); }, ctx, busy));
      if (ui.pick) {
        sec.append(el("div", { class: "row", style: "margin-top:10px" },
          el("button", { class: "primary", disabled: busy, "data-action": "confirm",
            onclick: () => send({ kind: "sy.move", figure: ui.figure, ticket: ui.pick.ticket, station: ui.pick.station }) },
            t("phone.sy.move_to", { figure: figureName(t, ui.figure), station: ui.pick.station })),
          el("button", { onclick: () => { ui.pick = null; rerender(); } }, t("phone.cancel"))));
      }
    }
    out.append(sec);
  } else if (!view.end && view.turn === "mrx") {
    out.append(el("section", {}, el("p", { class: "muted", "data-mrx-turn": true },
      t(view.mrx.ai ? "phone.sy.mrx_thinking" : "phone.sy.mrx_moving"))));
  }
  if (view.tracker && view.tracker.on && view.tracker.candidates && !view.end) {
    out.append(el("section", { "data-section": "tracker" }, el("h2", {}, t("phone.sy.tracker")),
      el("p", {}, t("phone.sy.candidates", { n: view.tracker.candidates.length })),
      el("div", { class: "muted" }, view.tracker.candidates.join(", "))));
  }
  out.append(syLog(view, null, ctx));
  out.append(syFigures(view, ctx));
  return out;
}

export const render = (state, ctx) => (state.view.secret ? syMrx(state, ctx) : syDetective(state, ctx));

/* Whether a half-done choice on this phone still stands after someone else's move (the shell keeps
 * it then, and clears it with a word otherwise): the picked figure may still move, and the picked
 * destination (or a double move's first step) is still offered with its ticket. */
export function keep(ui, state) {
  const legal = state.legal || {};
  const offered = (options, pick) => !pick || ((options || {})[pick.ticket] || []).includes(pick.station);
  if (state.view.secret) {
    const x = legal.x;
    if (!x) return !ui.pick && !ui.first;
    if (!ui.double) return offered(x.single, ui.pick);
    if (!ui.first) return !ui.pick;
    const entry = x.double.find((d) => d.ticket === ui.first.ticket && d.station === ui.first.station);
    return !!entry && offered(entry.then, ui.pick);
  }
  const moves = legal.moves || {};
  if (!ui.figure) return !ui.pick;
  return !!moves[ui.figure] && offered(moves[ui.figure], ui.pick);
}

/* The seats the table may play on the host page, with their labels: each detective seat (by the
 * name typed for it, else "Detective n") and the bobbies. */
function tableWords(form, t) {
  return [...(form.detectives || []).map((name, i) => ["d" + (i + 1),
    name || t("sy.setup_key.detectives.item", { n: i + 1 })]), ["bobbies", t("host.sy.bobbies")]];
}

/* On the host page (host.js): a new game starts with two detective players to name; Mister X is
 * a player (named, on his phone) or played by the table at one of the levels in the game's facts;
 * so may detective seats and the bobbies be (detectives_ai, table_detectives). */
export const host = {
  start(form) { if (!Array.isArray(form.detectives) || !form.detectives.length) form.detectives = ["", ""]; },  // else: the last game's
  fields: {
    mister_x_ai(k, { el, t, field, form, facts, rerender }) {
      const pick = (level) => {
        // the table never plays both sides (as on the touchscreen): his level ends the table's detectives
        if (level) { form.mister_x_ai = level; delete form.mister_x; delete form.detectives_ai; } else delete form.mister_x_ai;
        rerender();
      };
      const buttons = [
        el("button", { class: form.mister_x_ai ? "" : "sel", "data-mrx": "player", onclick: () => pick(null) }, t("host.sy.x_player")),
        ...(facts.ai_levels || []).map((level) => el("button", { class: form.mister_x_ai === level ? "sel" : "",
          "data-mrx": level, onclick: () => pick(level) }, t("host.sy.x_table", { level: t("sy.ai." + level) }))),
      ];
      return field(t("host.sy.mister_x"), k, el("div", { class: "row" }, buttons),
        el("p", { class: "muted", "data-mrx-note": true }, t(form.mister_x_ai ? "host.sy.x_table_note" : "host.sy.x_player_note")));
    },
    mister_x: (k, { form, plain }) => (form.mister_x_ai ? null : plain(k)),  // his name, when a player is him
    detectives_ai(k, { el, t, field, form, facts, rerender }) {
      if (form.mister_x_ai) return null;  // offered while a player is Mister X
      const pick = (level) => {
        if (level) form.detectives_ai = level; else delete form.detectives_ai;
        rerender();
      };
      return field(t("host.sy.detectives"), k, el("div", { class: "row" },
        el("button", { class: form.detectives_ai ? "" : "sel", "data-detectives": "players", onclick: () => pick(null) }, t("host.sy.d_players")),
        ...(facts.ai_levels || []).map((level) => el("button", { class: form.detectives_ai === level ? "sel" : "",
          "data-detectives": level, onclick: () => pick(level) }, t("host.sy.x_table", { level: t("sy.ai." + level) })))));
    },
    /* With a level for the table's detectives: which seats it plays (each detective seat, the
     * bobbies), a button each. The form keeps the seats people play instead, so that a seat added
     * later is the table's too, as every seat is to start with (see value). */
    table_detectives(k, { el, t, field, form, rerender }) {
      if (!form.detectives_ai) return null;
      const people = new Set(form["table_detectives#people"] || []);
      const words = tableWords(form, t);
      const toggle = (w) => {
        if (people.has(w)) people.delete(w);
        else if (words.filter(([x]) => !people.has(x)).length > 1) people.add(w);  // the table keeps one at least
        else return;
        form["table_detectives#people"] = [...people];
        rerender();
      };
      return field(t("host.sy.table_detectives"), k, el("div", { class: "row" }, words.map(([w, label]) =>
        el("button", { class: people.has(w) ? "" : "sel", "data-table-plays": w, onclick: () => toggle(w) }, label))),
        el("p", { class: "muted" }, t("host.sy.table_detectives_note")));
    },
  },
  value(form, setup) {
    delete setup.table_detectives;
    if (!form.detectives_ai) return;
    const people = new Set(form["table_detectives#people"] || []);
    setup.table_detectives = tableWords(form, (code) => code).map(([w]) => w).filter((w) => !people.has(w));
  },
  choiceName(key, c, t) { return key === "mister_x_ai" || key === "detectives_ai" ? t("sy.ai." + c) : c; },
};

/* This game's look (the shell adds it to the page once). */
export const styles = `
:root { --taxi:#e8c547; --bus:#2fb3a3; --underground:#e5534b; --black:#111; }
.t-taxi { background:var(--taxi); } .t-bus { background:var(--bus); } .t-underground { background:var(--underground); color:#fff; }
.t-black { background:var(--black); color:#fff; border:1px solid #666; } .t-double { background:#9b59b6; color:#fff; }
.t-ferry { background:#444; color:#fff; }
.log { display:grid; grid-template-columns:repeat(6, minmax(0, 1fr)); gap:4px; }
.log .chip { display:block; font-size:10px; padding:1px 0; margin:2px 0; border-radius:5px; }
.log div { background:#181b20; border-radius:6px; padding:4px 2px; text-align:center; font-size:13px; min-height:44px; }
.log div.reveal { outline:2px solid var(--accent); }
.big-warn { font-size:20px; font-weight:700; text-align:center; }
`;
