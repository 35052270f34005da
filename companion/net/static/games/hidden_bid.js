/* Hidden Bid on the phone: the seat's own coins and, while it still has to bid, one button per
 * amount it can afford (its bid stays secret until everyone has bid). */

export function render(state, { el, t, send, busy, seat }) {
  const view = state.view;
  const bid = (state.legal || {}).bid;
  const amounts = bid ? Array.from({ length: bid.max + 1 }, (_, i) => i) : [];
  return el("div", { class: "hb" },
    el("section", {},
      el("p", { "data-coins": view.coins }, t("phone.hb.coins", { coins: view.coins })),
      view.prize !== null && view.prize !== undefined ? el("p", { class: "big" }, t("ui.hb.prize", { round: view.round, value: view.prize })) : null,
      view.my_bid !== null && view.my_bid !== undefined ? el("p", { "data-placed": view.my_bid }, t("phone.hb.placed", { amount: view.my_bid })) : null),
    bid ? el("section", { class: "row hb-bids" }, amounts.map((n) => el("button", {
      disabled: busy, "data-bid": n, onclick: () => send({ kind: "hb.bid", seat, amount: n }),
    }, t("phone.hb.bid", { amount: n })))) : null);
}

export const styles = `
.hb-bids { flex-wrap: wrap; }
.hb-bids button { min-width: 64px; }
`;
