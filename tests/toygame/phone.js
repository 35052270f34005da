/* The test game on the phone page: the total, whose turn it is, the seat's secret, and one button per
 * amount the game's facts list (ctx.facts.amounts) while it is this seat's turn. */

export function render(state, { el, t, send, busy, facts }) {
  const view = state.view;
  const mine = view.turn === view.me;
  return el("div", { class: "toy" },
    el("section", {},
      el("div", { class: "big", "data-total": view.total }, String(view.total)),
      el("p", { class: "muted" }, t("toy.screen.turn", { seat: view.turn, target: view.target })),
      view.secret !== undefined ? el("p", { "data-secret": view.secret }, t("toy.screen.secret", { n: view.secret })) : null),
    mine && view.drawn ? el("section", { class: "row" }, facts.amounts.map((n) => el("button", {
      class: "toy-add", disabled: busy, "data-add": n, onclick: () => send({ kind: "toy.add", seat: view.turn, amount: n }),
    }, "+" + n))) : null);
}

export const styles = `
.toy-add { min-width:72px; font-weight:700; }
`;
