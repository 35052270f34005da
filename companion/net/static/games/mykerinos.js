/* Mykerinos on the phone page (one seat, or the table link). */
import { stepper } from "../kit.js";

/* Everything is public; a seat's view adds `me` and its own `choices` (= its legal list). The
 * table link (no `me`) shows the same board and may act for the seat whose turn it is, set up the
 * game and enter zone counts. Nothing here computes rules: options come from `legal` only. */

let mykNames = {};  // the players' names entered at setup, by colour (set by render)

/* A player's chip: the name entered at setup, else the colour in words; the style puts the colour's
 * shape in front (as on the touchscreen, ui/theme.py: PLAYER_MARK). */
function mykChip(el, t, colour) {
  // A typed name as typed (as the table shows it); "blue" in a sentence is "Blue" on its own chip.
  const word = mykNames[colour] || (c => c.charAt(0).toUpperCase() + c.slice(1))(t("myk.colour." + colour));
  return el("span", { class: "chip myk-c myk-" + colour, "data-colour": colour }, word);
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
    const head = [t("phone.myk.zone", { zone: sv.zone, of: sv.of }), " ", mykWhere(t, sv)];
    if (w.for === "counts") return el("p", { "data-turn": "table" }, el("b", {}, head), " · ", t("phone.myk.wait_counts"));
    const who = w.seat === me ? t("phone.myk.you") : mykChip(el, t, w.seat);
    const mine = w.seat === me;  // "You choose", "Om chooses": the verb agrees with who
    const what = w.for === "neutral_pick"
      ? t(mine ? "phone.myk.you_pick_neutral" : "phone.myk.picks_neutral")
      : t(mine ? "phone.myk.you_choose" : "phone.myk.chooses", { rank: w.rank });
    return el("p", { class: w.seat === me ? "myk-yours" : "", "data-turn": w.seat }, el("b", {}, head), " · ", who, " ", what);
  }
  return null;
}

/* Where the zone lies on the table: two per row, the first row under the board, left then right. */
function mykWhere(t, sv) {
  return t("phone.myk.where", { row: sv.row, side: t("phone.myk.side." + sv.side) });
}

/* "red 2, green 1": counts in words (nobody: a word of its own). */
function mykCounts(t, counts) {
  const parts = Object.entries(counts || {}).map(([c, n]) => t("myk.colour." + c) + " " + n);
  return parts.length ? parts.join(", ") : t("myk.last_zone.nobody");
}

/* The last zone: what the books leave there, the earlier zones as counted, and what a lower count missed. */
function mykLastZone(sv, { el, t }) {
  const last = sv.last;
  if (!last) return null;
  const earlier = last.earlier.map((z) => t("myk.last_zone.zone", { zone: z.zone, counts: mykCounts(t, z.counts) })).join(" · ");
  if (!sv.counts) {
    return el("div", { class: "warn", "data-last-zone": "confirm" },
      el("div", {}, t("myk.last_zone.expected", { counts: mykCounts(t, last.expected) })),
      earlier ? el("div", { class: "vm-small", style: "margin-top:4px;font-weight:400" }, t("myk.last_zone.earlier", { zones: earlier })) : null);
  }
  if (!Object.keys(last.missed).length) return null;
  return el("div", { class: "warn", "data-last-zone": "missed" },
    t("myk.last_zone.missed", { counts: mykCounts(t, last.missed), zones: earlier || "–" }));
}

function mykSurvey(view, ctx, counting) {
  const { el, t } = ctx;
  const sv = view.survey;
  if (!sv) return null;
  const counts = sv.counts ? Object.entries(sv.counts).map(([c, n]) => el("span", { class: "myk-count" }, mykChip(el, t, c), " ×" + n)) : [];
  return el("section", { "data-section": "survey" },
    el("h2", {}, t("phone.myk.zone", { zone: sv.zone, of: sv.of })),
    el("div", { class: "muted", "data-where": sv.row + sv.side }, mykWhere(t, sv)),
    sv.counts ? el("div", { class: "row" }, counts.length ? counts : el("span", { class: "muted" }, t("phone.myk.empty_zone"))) : null,
    sv.ranking.length ? el("div", { class: "row", style: "margin-top:8px" }, el("span", { class: "muted" }, t("phone.myk.ranking")),
      sv.ranking.map((c, i) => el("span", {}, `${i + 1}.`, mykChip(el, t, c)))) : null,
    el("div", { class: "muted", style: "margin-top:6px" }, t("phone.myk.parcels_left", { n: sv.parcels })),
    counting ? null : mykLastZone(sv, ctx));  // the table's counting shows it beside its steppers
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
        onclick: () => send({ kind: "myk.draw_patrons" }) }, t("phone.myk.draw_patrons")) : null,
      view.start_player ? el("p", { "data-start-player": view.start_player }, t("phone.myk.start_player_is"), " ",
        mykChip(el, t, view.start_player)) : null));
  }
  const zc = has("myk.zone_counts");
  if (zc) {
    const key = "zone" + zc.zone + ":" + view.season;
    if (!ui.counts || ui.counts.key !== key) {
      ui.counts = { key, n: {} };  // the last zone starts from what the books leave there, to confirm
      for (const c of Object.keys(zc.max)) ui.counts.n[c] = zc.expected ? zc.expected[c] || 0 : 0;
    }
    const n = ui.counts.n;
    const rows = Object.entries(zc.max).map(([c, m]) => el("div", { class: "stepper", "data-count": c },
      mykChip(el, t, c), stepper(el, n[c], 0, m, busy, (v) => { n[c] = v; rerender(); }),
      el("span", { class: "muted" }, t("phone.myk.of_board", { n: m }))));
    const where = view.survey ? el("div", { class: "muted" }, mykWhere(t, view.survey)) : null;
    const books = view.survey ? mykLastZone(view.survey, ctx) : null;  // the last zone: the books' count to confirm
    out.push(el("section", { "data-section": "counts" }, el("h2", {}, t("phone.myk.count_zone", { zone: zc.zone })), where, books, rows,
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

function mykCards(p, view, { el, t, facts }) {
  const rows = facts.patrons.map((patron) => {
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

export const render = (state, ctx) => {
  const { el, t } = ctx;
  const view = state.view;
  mykNames = view.names || {};
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
  if (view.survey) out.append(mykSurvey(view, ctx, legal.some((o) => o.kind === "myk.zone_counts")));
  if (p) out.append(mykCards(p, view, ctx));
  if (!(ctx.ui.myk && "room" in ctx.ui.myk)) {
    out.append(el("section", { "data-section": "museum" }, el("h2", {}, t("phone.myk.museum_title")), mykMuseum(view, null, ctx)));
  }
  out.append(mykPlayers(view, me, ctx));
  return out;
};

/* On the host page (host.js): the colours tapped in seating order; the neutral colour only for two. */
export const host = {
  start(form) {  // who played the last game, else nobody yet
    if (!Array.isArray(form.seats)) form.seats = [];
    if (!form.names || typeof form.names !== "object") form.names = {};
  },
  fields: {
    seats(k, { el, t, field, form, facts, rerender }) {
      const order = form.seats || [];
      const buttons = facts.colours.map((c) => {
        const at = order.indexOf(c);
        return el("button", { class: "myk-" + c + (at >= 0 ? " sel" : ""), "data-colour": c, onclick: () => {
          const i = form.seats.indexOf(c);
          if (i >= 0) form.seats.splice(i, 1); else form.seats.push(c);
          if (form.seats.length !== 2) delete form.neutral;
          rerender();
        } }, (at >= 0 ? at + 1 + ". " : "") + t("myk.colour." + c));
      });
      return field(k.label, k, el("div", { class: "row" }, buttons));
    },
    neutral: (k, { form, plain }) => ((form.seats || []).length === 2 ? plain(k) : null),
    names(k, { el, t, field, form }) {  // an optional name for each colour that plays
      if (!(form.seats || []).length) return null;
      return field(k.label, k, ...form.seats.map((c) => el("div", { class: "row name-row" },
        el("span", { style: "min-width:4.5em" }, t("myk.colour." + c)),
        el("input", { value: form.names[c] || "", maxlength: 40, placeholder: t("host.name_optional"), "data-name-of": c,
          oninput: (e) => { form.names[c] = e.target.value; } }))));
    },
  },
  value(form, setup) {  // names only for the colours that play, and only those given
    const names = {};
    for (const c of form.seats || []) if ((form.names[c] || "").trim()) names[c] = form.names[c].trim();
    if (Object.keys(names).length) setup.names = names; else delete setup.names;
  },
  choiceName(key, c, t) {
    if (key === "neutral") return t("myk.colour." + c);
    if (key === "layout") return t("host.myk.layout." + c);
    return c;
  },
};

/* This game's look (the shell adds it to the page once). */
export const styles = `
.myk-c { border:1px solid transparent; }
.myk-blue { background:#3b7be0; color:#fff; } .myk-red { background:#d64541; color:#fff; }
.myk-green { background:#2e9d57; color:#fff; } .myk-white { background:#f2f2f2; color:#111; }
/* each colour with its shape, as on the touchscreen (ui/theme.py: PLAYER_MARK): colour-blind players tell them apart */
.myk-blue::before { content:"\\25CF\\00a0"; } .myk-red::before { content:"\\25B2\\00a0"; }
.myk-green::before { content:"\\25A0\\00a0"; } .myk-white::before { content:"\\25C6\\00a0"; }
.p-lady_violet { --pc:#9b6bd3; } .p-lord_lemon { --pc:#e8d43a; } .p-sir_brown { --pc:#9a6434; }
.p-mrs_blackmore { --pc:#0b0b0b; } .p-colonel_tangerine { --pc:#f08a24; }
.myk-supply { margin-top:8px; font-size:15px; }
.myk-yours { margin:8px 0 0; font-weight:700; color:var(--accent); }
.myk-group { margin:0 0 4px; }
.myk-group > .muted { margin:0 0 6px; font-size:15px; }
.myk-patrons { display:grid; grid-template-columns:1fr 1fr; gap:8px; }
.myk-patrons button { border-left:8px solid var(--pc, #666); text-align:left; padding:8px 10px; line-height:1.2; }
.myk-museum { display:grid; grid-template-columns:repeat(10, 1fr); gap:4px; margin-top:4px; }
.myk-wing { font-size:12px; line-height:1.15; text-align:center; padding:4px 2px; border-radius:6px;
            border-top:5px solid var(--pc, #666); background:#181b20; overflow-wrap:anywhere; }
.myk-room { min-height:44px; min-width:0; padding:2px; border-radius:8px; border:1px dashed var(--line); background:#181b20;
            display:flex; flex-direction:column; align-items:center; justify-content:center; font-size:15px; line-height:1.1; color:var(--fg); }
.myk-room small { font-size:11px; opacity:.8; }
.myk-room.myk-blue, .myk-room.myk-red, .myk-room.myk-green, .myk-room.myk-white { border-style:solid; }
button.myk-room.legal { border:2px solid var(--accent); background:#3a3216; min-height:48px; }
button.myk-room.sel { background:var(--accent); color:#1a1400; outline:none; }
.myk-dot { display:inline-block; width:12px; height:12px; border-radius:6px; margin-right:6px; background:var(--pc);
           border:1px solid #888; vertical-align:-1px; }
.myk table tr.me td { background:#2b2f37; }
.myk-legend { font-size:12px; margin-top:4px; }
.myk-count { margin-right:6px; }
.myk-who { white-space:nowrap; }
.myk-who .chip, .stepper .chip { font-size:13px; padding:1px 7px; }
.myk-star { color:var(--accent); margin-left:3px; }
.myk table { font-size:14px; }
.myk td, .myk th { padding:4px 3px; }
.myk-room.myk-blue { background:#3b7be0; color:#fff; } .myk-room.myk-red { background:#d64541; color:#fff; }
.myk-room.myk-green { background:#2e9d57; color:#fff; } .myk-room.myk-white { background:#f2f2f2; color:#111; }
`;
