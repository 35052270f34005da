/* Victorian Masterminds on the phone page (one seat, or the table link). */
import { stepper } from "../kit.js";

/* A seat sees the public summary plus `me` (its own tally), `pile` (top agent; the whole pile with 5
 * codex) and `placed` (its own agents in the stacks). The table link sees every public tally, the
 * cities and the log, and may act where the table may (start, answers during a resolution). Options
 * come only from `legal.actions`; the game's constants (cities, agents, buildings, counters, unlock
 * values) from its facts (ctx.facts). */

function vmAgent(el, t, agent) {
  return el("span", { class: "vm-agent a-" + (agent || "unknown"), "data-agent": agent || "" },
    agent ? t("vm.agent." + agent) : t("phone.vm.unknown_agent"));
}

/* A player by colour in words ("Blue", "Bleu"); a colour the table typed in, as typed; never the seat id. */
let boxColours = [];  // the box's colours (the game's facts; set by render)

function vmColourName(t, colour) {
  return boxColours.includes(colour) ? t("vm.colour." + colour) : String(colour);
}

function vmSeatName(t, view, seat) {
  const players = view.players || (view.me ? [view.me] : []);
  const p = players.find((x) => x.seat === seat);
  return p ? (p.name || vmColourName(t, p.colour)) : seat;  // the name entered at setup, else the colour
}

/* Why the Secret Service level last changed: a Gunner's or a scientists' capture, or the table. */
function vmLevelWhy(view, { el, t }) {
  const c = view.level_change;
  if (!c) return null;
  const why = t("vm.level_why." + c.why, { seat: c.seat ? vmSeatName(t, view, c.seat) : "",
    city: c.city ? t("vm.city." + c.city) : "", building: c.building ? t("vm.building." + c.building) : "" });
  return el("p", { class: "vm-small vm-level-why", "data-level-why": c.why }, t("vm.level_change", { from: c.from, to: c.to, why }));
}

function vmSeatChip(el, t, view, seat) {
  const players = view.players || (view.me ? [view.me] : []);
  const p = players.find((x) => x.seat === seat);
  const colour = p ? String(p.colour).toLowerCase().replace(/[^a-z]/g, "") : "";
  const label = view.seat === seat ? t("phone.vm.you") : vmSeatName(t, view, seat);
  return el("span", { class: "chip vm-seat vm-" + colour, "data-seat": seat }, label);
}

function vmDetail(t, facts, detail) {
  return String(detail).split(":").map((w) => (facts.agents.includes(w) ? t("vm.agent." + w)
    : facts.buildings.includes(w) ? t("vm.building." + w)
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
    : forSeat ? t("phone.vm.table_for", { seat: vmSeatName(t, view, forSeat) }) : t("phone.vm.table_actions")));
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
        // every agent of the box in its order: each keeps its place, one lying face up unavailable there
        el("div", { class: "row" }, (ctx.facts.agents || o.agents).map((a) => {
          const b = opt(vmAgent(el, t, a), { kind: "vm.reveal", agent: a },
            { class: "vm-pick", "data-agent": a }, is("vm.reveal", { agent: a }));
          if (!o.agents.includes(a)) b.disabled = true;
          return b;
        }))));
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
    } else if (o.kind === "vm.choose_order") {
      sec.append(el("div", { class: "vm-group", "data-choice": "order" }, el("div", { class: "muted" }, t("vm.waiting.order")),
        el("div", { class: "row" }, o.options.map((f) => opt(t("phone.vm.order." + f), { kind: "vm.choose_order", first: f },
          { "data-first": f }, is("vm.choose_order", { first: f }))))));
    } else if (o.kind === "vm.take_loot") {
      // after a Gunner's capture taken first; or at any point of an Engineer's power that began before the loot
      const during = view.resolution && view.resolution.waiting && view.resolution.waiting.kind === "engineer";
      sec.append(el("div", { class: "vm-group", "data-choice": "take_loot" },
        during ? null : el("div", { class: "muted" }, t("vm.waiting.take_loot")),
        opt(t(during ? "phone.vm.take_loot_now" : "phone.vm.take_loot", { city: t("vm.city." + view.resolution.city) }),
          { kind: "vm.take_loot" }, { class: "wide", "data-take-loot": "" }, is("vm.take_loot"))));
    } else if (o.kind === "vm.reidentify") {
      // the discs of the stack lie face up: the table names one again (one not resolved yet)
      const group = el("div", { class: "vm-group", "data-choice": "reidentify" }, el("div", { class: "muted" }, t("phone.vm.reidentify_hint")),
        el("div", { class: "row" }, o.agents.map((a) => opt([vmSeatChip(el, t, view, a.seat), " ", vmAgent(el, t, a.agent)],
          { kind: "vm.reidentify", index: a.index, agent: null }, { class: "vm-pick", "data-reidentify": a.index }, is("vm.reidentify", { index: a.index })))));
      if (is("vm.reidentify")) {
        const current = o.agents.find((a) => a.index === pick.index);
        group.append(el("div", { class: "muted", style: "margin-top:8px" }, t("phone.vm.reidentify_as")),
          el("div", { class: "row" }, o.names.filter((n) => !current || n !== current.agent).map((n) => opt(vmAgent(el, t, n),
            Object.assign({}, pick, { agent: n }), { class: "vm-pick", "data-name": n }, pick.agent === n))));
      }
      sec.append(group);
    } else if (o.kind === "vm.place_under") {
      // the steam mole: the owner's next agent goes under an agent lying alone in a city
      const agents = o.agents ? o.agents : [null];
      const group = el("div", { class: "vm-group", "data-choice": "place_under" }, el("div", { class: "muted" }, t("phone.vm.under_hint")),
        el("div", { class: "row" }, agents.map((a) => opt(a ? vmAgent(el, t, a) : t("phone.vm.unidentified"),
          { kind: "vm.place_under", seat, agent: a, city: is("vm.place_under") ? pick.city : null },
          { class: "vm-pick", "data-agent": a || "" }, is("vm.place_under", { agent: a })))));
      if (is("vm.place_under")) group.append(el("div", { class: "muted", style: "margin-top:8px" }, t("phone.vm.under_where")), cityButtons(o.cities, pick));
      sec.append(group);
    }
  }
  if (pick) {
    const ready = ["vm.place", "vm.force_resolve", "vm.place_under"].includes(pick.kind) ? !!pick.city
      : pick.kind === "vm.capture" ? !!pick.building : pick.kind === "vm.henchman" ? pick.reward !== 0
        : pick.kind === "vm.reidentify" ? !!pick.agent : true;
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
    case "vm.choose_order": return t("phone.vm.order." + p.first);
    case "vm.take_loot": return t("phone.vm.take_loot_confirm");
    case "vm.reidentify": return p.agent ? t("phone.vm.confirm_reidentify", { n: p.index + 1, agent: t("vm.agent." + p.agent) })
      : t("phone.vm.reidentify_as");
    case "vm.place_under": return p.city ? (p.agent ? t("phone.vm.confirm_under", { agent: t("vm.agent." + p.agent), city })
      : t("phone.vm.confirm_under_unnamed", { city })) : t("phone.vm.which_city");
    default: return t("phone.confirm");
  }
}

/* While its Engineer waits, the owner adjusts its own counters (one tap = one confirmed correction). */
function vmAdjusters(view, actions, { el, t, send, busy, facts }) {
  const adj = actions.find((a) => a.kind === "vm.adjust" && a.seat);
  if (!adj || !view.me) return null;
  return el("div", { "data-section": "adjust" }, adj.counters.filter((c) => facts.player_counters.includes(c)).map((c) =>
    el("div", { class: "stepper", "data-counter": c }, el("span", {}, t("phone.vm.counter." + c)),
      stepper(el, view.me[c], -Infinity, Infinity, busy, (v) => send({ kind: "vm.adjust", counter: c, delta: v - view.me[c], seat: adj.seat, value: null })))));
}

/* Recording a built machine segment: chaos points, what it unlocks, the parts it used. */
function vmSegment(view, action, ctx) {
  const { el, t, send, ui, busy, rerender, facts } = ctx;
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
    el("div", { class: "row" }, facts.unlocks.map((u) => el("button", { class: g.unlock === u ? "sel" : "", disabled: busy, "data-unlock": u,
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

function vmStacks(view, { el, t, facts }) {
  const rows = facts.cities.map((c) => {
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
    el("table", { class: "vm-stacks" }, el("tr", {}, el("th", {}, ""), el("th", {}, t("phone.vm.height_short")),
      el("th", {}, view.seat ? t("phone.vm.my_agents") : t("phone.vm.standing"))), rows),
    el("div", { class: "muted vm-small", style: "margin-top:4px" }, view.seat ? t("phone.vm.position_hint") : t("phone.vm.bshort_legend")));
}

function vmGains(t, gains) {
  return gains.map((g) => t("phone.vm.gain." + g.resource, { n: g.amount })
    + (g.resource === "codex" && g.amount && g.value === 2 ? " " + t("phone.vm.gain.worth2") : "")
    + (g.lost ? " " + t("phone.vm.gain.lost", { n: g.lost }) : "")).join(", ");
}

/* What one agent of a turned-over stack did: its loot, then its ability's outcome and what it gave. */
function vmStep(a, t) {
  const parts = [];
  if (a.ability_first) parts.push(t("phone.vm.step.ability_first"));
  if (a.loot.length) parts.push(t("phone.vm.step.loot", { gains: vmGains(t, a.loot) }));
  // a capture or a mission shows from the moment it happens (the loot may still wait)
  const words = a.building ? t("phone.vm.step.captured", { building: t("vm.building." + a.building) })
    : a.mission ? t("phone.vm.step.mission", { n: a.mission }) : a.outcome ? t("phone.vm.word." + a.outcome) : "";
  if (words) parts.push(words + (a.gains.length && !a.mission ? " (" + vmGains(t, a.gains) + ")" : ""));
  return parts.join(" · ");
}

function vmStack(view, r, { el, t }, current) {
  return el("ol", { class: "vm-res" }, r.agents.map((a, i) => el("li", {
    class: (a.done ? "done" : "") + (current && i === r.index ? " now" : ""), "data-index": i },
  vmSeatChip(el, t, view, a.seat), " ", vmAgent(el, t, a.agent),
  a.cancelled ? el("span", { class: "muted" }, " " + t("phone.vm.sabotaged")) : null, a.done ? " ✓" : "",
  el("div", { class: "vm-small muted", "data-step": i }, vmStep(a, t)))));
}

function vmResolution(view, ctx) {
  const { el, t } = ctx;
  const r = view.resolution;
  if (r) {
    return el("section", { "data-section": "resolution" },
      el("h2", {}, t("phone.vm.resolution", { city: t("vm.city." + r.city) }), " · ", t("phone.vm.reason." + r.reason)),
      vmStack(view, r, ctx, true));
  }
  const last = view.last_stack;
  if (!last) return null;
  return el("section", { "data-section": "last_stack" },
    el("h2", {}, t("phone.vm.last_stack", { city: t("vm.city." + last.city) })), vmStack(view, last, ctx, false));
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

function vmLog(view, { el, t, facts }) {
  if (!view.log || !view.log.length) return null;
  return el("section", { "data-section": "log" }, el("h2", {}, t("phone.vm.log")),
    view.log.slice().reverse().map((l) => el("div", { class: "vm-log" }, t(l.what, {
      seat: l.seat ? vmSeatName(t, view, l.seat) : "", city: l.city ? t("vm.city." + l.city) : "",
      detail: l.what === "vm.log.ended"  // the winners' seats
        ? String(l.detail).split(",").filter(Boolean).map((s) => vmSeatName(t, view, s)).join(", ")
        : vmDetail(t, facts, l.detail) }))));
}

function vmEnd(view, { el, t }) {
  const r = view.result;
  const me = view.seat;
  return el("section", { "data-end": "ended" },
    el("div", { class: "big" }, me ? (r.winners.includes(me) ? t("phone.vm.you_win") : t("phone.vm.your_place", { n: r.places[me] })) : t("phone.vm.game_over")),
    el("div", { class: "row", style: "margin-top:6px" }, t("phone.vm.winners"), r.winners.map((s) => vmSeatChip(el, t, view, s))));
}

export const render = (state, ctx) => {
  boxColours = ctx.facts.colours || [];
  const { el, t, ui } = ctx;
  const view = state.view;
  const actions = (state.legal && state.legal.actions) || [];
  const out = el("div", { class: "vm" });
  const me = view.me;
  const big = (k, n, label) => el("div", { class: "stat", [`data-${k}`]: n }, el("b", {}, String(n)), el("small", {}, label));
  out.append(el("section", {},
    me ? el("div", { class: "row" }, el("span", { class: "chip vm-seat vm-" + String(me.colour).toLowerCase().replace(/[^a-z]/g, "") },
      me.name || vmColourName(t, me.colour)), el("span", { class: "muted" },
      t("phone.vm.machine", { n: me.machine, name: me.machine_name || "" }))) : null,
    el("div", { class: "stats" },
      big("level", view.level, t("phone.vm.level")),
      me ? big("firepower", me.firepower, t("phone.vm.counter.firepower")) : big("supply", view.scientist_supply, t("phone.vm.box_scientists")),
      me ? big("total", me.score.total, t("phone.vm.points")) : big("deck", view.mission_deck, t("phone.vm.mission_deck"))),
    vmLevelWhy(view, ctx),
    vmTurnLine(view, ctx)));
  if (view.told && !view.result) {  // what the table placed for this seat, whose phone keeps its pile
    out.append(el("div", { class: "warn", "data-told": view.told.agent },
      t("phone.vm.told", { agent: t("vm.agent." + view.told.agent), city: t("vm.city." + view.told.city) })));
  }
  if (view.result) out.append(vmEnd(view, ctx));
  const flow = actions.filter((a) => !["vm.adjust", "vm.record_segment", "vm.remove_segment", "vm.set_mission"].includes(a.kind));
  if (ui.seq !== state.seq) { ui.vm = null; ui.seq = state.seq; }  // a choice is made against one state only
  if (flow.length) out.append(vmChoices(view, flow.concat(actions.filter((a) => a.kind === "vm.adjust")), ctx));
  if (view.resolution || view.last_stack) out.append(vmResolution(view, ctx));
  if (me) out.append(vmPile(view, ctx));
  out.append(vmStacks(view, ctx));
  if (me) out.append(el("section", { "data-section": "tally" }, el("h2", {}, t("phone.vm.my_tally")), vmTally(me, ctx, true)));
  if (view.players) out.append(vmPlayers(view, ctx));
  const seg = me && actions.find((a) => a.kind === "vm.record_segment");
  if (seg && !view.result) out.append(vmSegment(view, seg, ctx));
  if (view.log) out.append(vmLog(view, ctx));
  return out;
};

/* On the host page (host.js): the players with colours and machines, the Secret Service start level
 * remembered per player count (the table's preference vm.start_level.<players>), the first player. */
function startLevel({ form, settings }) {
  const known = settings["vm.start_level." + form.players.length];
  if (typeof known === "number") form.secret_service_start = known;
  else delete form.secret_service_start;
}

export const host = {
  start(form, { facts }) {
    if (Array.isArray(form.players) && form.players.length >= 2) {  // who played the last game
      for (const p of form.players) { delete p.seat; p.name = p.name || ""; p.machine_name = p.machine_name || ""; }
      return;
    }
    form.players = [{ colour: facts.colours[0], machine: facts.machines[0], machine_name: "", name: "" },
      { colour: facts.colours[1], machine: facts.machines[1], machine_name: "", name: "" }];
  },
  fields: {
    players(k, ctx) {
      const { el, t, field, form, facts, rerender } = ctx;
      const players = form.players;
      const rows = players.map((p, i) => el("div", { class: "vm-setup-row", "data-player": i },
        el("b", {}, t("host.player", { n: i + 1 })),
        el("label", {}, t("host.name"), el("input", { value: p.name || "", maxlength: 40, "data-player-name": i,
          placeholder: t("host.name_optional"), oninput: (e) => { p.name = e.target.value; } })),
        el("label", {}, t("host.colour"), el("select", { "data-colour": i, onchange: (e) => { p.colour = e.target.value; } },
          facts.colours.map((c) => el("option", { value: c, selected: p.colour === c }, t("vm.colour." + c))))),
        el("label", {}, t("host.machine"), el("select", { "data-machine": i, onchange: (e) => { p.machine = Number(e.target.value); } },
          facts.machines.map((m) => el("option", { value: m, selected: p.machine === m }, String(m))))),
        el("label", {}, t("host.machine_name"), el("input", { value: p.machine_name, maxlength: 40, "data-machine-name": i,
          oninput: (e) => { p.machine_name = e.target.value; } })),
        el("label", {}, t("host.lab_cells"), el("select", { "data-lab-cells": i, onchange: (e) => { p.lab_cells = Number(e.target.value); } },
          facts.lab_cells.map((n) => el("option", { value: n, selected: (p.lab_cells || 2) === n }, String(n))))),
        players.length > 2 ? el("button", { "data-remove": i, onclick: () => { players.splice(i, 1); startLevel(ctx); rerender(); } }, t("host.remove")) : null));
      const add = players.length < facts.colours.length ? el("button", { "data-add": "players", onclick: () => {
        const used = new Set(players.map((p) => p.colour));
        const machines = new Set(players.map((p) => p.machine));
        players.push({ colour: facts.colours.find((c) => !used.has(c)) || facts.colours[0],
          machine: facts.machines.find((m) => !machines.has(m)) || facts.machines[0], machine_name: "", name: "" });
        startLevel(ctx);
        rerender();
      } }, "+ " + t("host.add")) : null;
      return field(t("host.players"), k, ...rows, add);
    },
    secret_service_start(k, ctx) {
      startLevel(ctx);
      return ctx.el("div", {}, ctx.plain(k), ctx.el("p", { class: "muted small" }, ctx.t("host.vm.level_note")));
    },
    first_player: (k, { el, t, field, form }) => field(k.label, k, el("select", { "data-input": k.key, onchange: (e) => {
      if (e.target.value) form.first_player = e.target.value; else delete form.first_player;
    } }, [el("option", { value: "" }, "–"), ...form.players.map((p, i) => el("option", {
      value: "p" + (i + 1), selected: form.first_player === "p" + (i + 1) }, (p.name || t("host.player", { n: i + 1 })) + " · " + t("vm.colour." + p.colour)))])),
  },
  choiceName: (key, c, t) => (key === "gunner_rule" ? t("host.vm.gunner." + (c === ">" ? "gt" : "ge")) : c),
  value(form, setup) {
    setup.players = form.players.map((p, i) => {
      const out = { seat: "p" + (i + 1), colour: p.colour, machine: p.machine };
      if (p.machine_name) out.machine_name = p.machine_name;
      if (p.name && p.name.trim()) out.name = p.name.trim();
      if (p.lab_cells && p.lab_cells !== 2) out.lab_cells = p.lab_cells;
      return out;
    });
  },
  started(setup, { call }) {  // remember the start level for this many players
    if (typeof setup.secret_service_start === "number") {
      call("setting", { key: "vm.start_level." + setup.players.length, value: setup.secret_service_start }).catch(() => null);
    }
  },
};

/* This game's look (the shell adds it to the page once). */
export const styles = `
.vm-seat { background:#555; color:#fff; }
.vm-red { background:#c8413b; color:#fff; } .vm-blue { background:#3b7be0; color:#fff; }
.vm-green { background:#2e9d57; color:#fff; } .vm-yellow { background:#e8c547; color:#111; }
.vm-purple { background:#8e5cc4; color:#fff; } .vm-black { background:#111; color:#fff; border:1px solid #666; }
.vm-white { background:#f2f2f2; color:#111; } .vm-orange { background:#f08a24; color:#111; }
/* each colour with its shape, as on the touchscreen (ui/theme.py: PLAYER_MARK): colour-blind players tell them apart */
.vm-red::before { content:"\\25B2\\00a0"; } .vm-blue::before { content:"\\25CF\\00a0"; }
.vm-green::before { content:"\\25A0\\00a0"; } .vm-yellow::before { content:"\\2605\\00a0"; }
.vm-purple::before { content:"\\2665\\00a0"; } .vm-black::before { content:"\\271A\\00a0"; }
.vm-white::before { content:"\\25C6\\00a0"; } .vm-orange::before { content:"\\2716\\00a0"; }
.vm-agent { display:inline-block; padding:2px 9px; border-radius:8px; font-weight:700; font-size:15px; background:#3a3f47;
            border-left:6px solid var(--ac, #777); color:var(--fg); }
.a-number_two { --ac:#b07cf0; } .a-henchman { --ac:#2fb3a3; } .a-saboteur { --ac:#e5534b; }
.a-gunner { --ac:#f0b429; } .a-engineer { --ac:#6aa7ff; } .a-unknown { --ac:#777; }
.vm-top .vm-agent { font-size:22px; padding:6px 14px; }
.vm-level-why { margin:6px 0 0; color:var(--accent); }
.vm-yours { margin:8px 0 0; font-weight:700; color:var(--accent); }
.vm section > p[data-turn], .vm section > p[data-waiting] { margin:8px 0 0; }
.vm .warn { margin:10px 0 0; }
.vm-group { margin:0 0 10px; }
.vm-group > .muted { margin:0 0 6px; font-size:15px; }
button.vm-pick { padding:6px 8px; background:#2d323a; }
button.vm-pick .vm-agent { background:transparent; }
.vm-cities { display:grid; grid-template-columns:1fr 1fr; gap:8px; }
button.vm-city { display:flex; flex-direction:column; align-items:flex-start; text-align:left; line-height:1.2; }
button.vm-city small { color:var(--muted); font-size:13px; }
.vm-bcity { margin:6px 0; } .vm-bcity > b { display:block; margin-bottom:4px; }
button.vm-b { min-width:0; padding:6px 10px; font-size:15px; }
.vm-stats { display:grid; grid-template-columns:repeat(3, 1fr); gap:6px; }
.vm-stat { background:#181b20; border-radius:8px; padding:4px 6px; text-align:center; display:flex; flex-direction:column; }
.vm-stat b { font-size:22px; line-height:1.1; } .vm-stat small { font-size:12px; color:var(--muted); line-height:1.2; }
.vm-small { font-size:13px; }
.vm-dots { letter-spacing:2px; color:var(--accent); white-space:nowrap; }
.vm-stacks th { font-size:13px; } .vm-stacks td, .vm-stacks th { padding:4px 4px; }  /* "Hauteur" beside "#2 Homme de main" */
.vm td [data-mine] { margin:2px 0; }
.vm-pilelist { margin:6px 0 0; padding-left:26px; } .vm-pilelist li { margin:4px 0; }
.vm-res { margin:0; padding-left:24px; } .vm-res li { margin:5px 0; } .vm-res li.now { font-weight:700; }
.vm-res li.done { opacity:.7; }
.vm-player { padding:6px 0; border-bottom:1px solid var(--line); } .vm-player.active .chip { outline:2px solid var(--accent); }
.vm-total { font-size:20px; } .vm-line { font-size:13px; color:var(--muted); margin-top:2px; }
.vm-log { font-size:14px; padding:3px 0; border-bottom:1px solid #2b2f37; }
.vm [data-mine] { white-space:normal; }
.vm [data-mine] .vm-agent { white-space:nowrap; } .vm td:last-child { overflow-wrap:anywhere; }
.vm td .vm-agent { font-size:13px; padding:2px 6px; }  /* a stack's own agents: the long names fit beside the city */
`;
