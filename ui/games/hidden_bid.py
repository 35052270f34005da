"""Hidden Bid on the touchscreen: the prize on offer, who still has to bid (never how much), the
points, the last prize's bids once revealed; before that, the draw of the prizes. Bids are secret:
they are placed on the phones."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.textinput import TextInput

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, obj, seq_of, strs, txt
from ui.widgets import Btn, Lbl, vbox


class TableView(base.TableView):
    game = "hidden_bid"

    def build(self) -> None:
        view = self.view
        box = vbox(spacing=dp(8))
        if obj(self.legal).get("draw"):
            box.add_widget(Btn(self.t("ui.hb.draw"), lambda: self.send({"kind": "hb.draw"}), tid="hb.draw"))
        elif view.get("prize") is not None:
            box.add_widget(
                Lbl(
                    self.t("ui.hb.prize", round=num(view.get("round")), value=num(view.get("prize"))),
                    size=theme.FONT_TITLE,
                    bold=True,
                    tid="hb.prize",
                )
            )
            waiting = [self.seat_label(txt(s)) for s in seq_of(view.get("acting"))]
            box.add_widget(Lbl(self.t("ui.hb.waiting", players=", ".join(waiting)), tid="hb.waiting"))
        for seat, points in zip(strs(view.get("seats")), seq_of(view.get("points")), strict=False):
            line = self.t("ui.hb.points", name=self.seat_label(seat), points=num(points))
            box.add_widget(Lbl(line, tid=f"hb.{seat}"))
        self.add_widget(box)

    def seat_label(self, seat: str) -> str:
        seats, names = strs(self.view.get("seats")), strs(self.view.get("names"))
        return names[seats.index(seat)] if seat in seats and seats.index(seat) < len(names) else seat

    def status(self, msg: JSONObject) -> str:
        waiting = [self.seat_label(txt(s)) for s in seq_of(self.view.get("acting"))]
        return self.t("ui.hb.waiting", players=", ".join(waiting))

    def over(self, msg: JSONObject) -> bool:
        return bool(obj(msg.get("view")).get("over"))


class SetupForm(base.SetupForm):
    game = "hidden_bid"

    def build(self) -> None:
        self.names = TextInput(text="Ann, Bob", multiline=False, size_hint_y=None, height=dp(44))
        self.add_widget(self.row(self.t("hb.setup_key.players"), self.names))

    def setup(self) -> JSONObject:
        return {"players": [n.strip() for n in self.names.text.split(",") if n.strip()]}

    def problem(self) -> str:
        return "" if 2 <= len(strs(self.setup()["players"])) <= 4 else self.t("hb.setup.players")
