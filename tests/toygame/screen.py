"""The test game on the touchscreen: the total, whose turn it is, and one button per amount the game's
facts list (the table adds for the seat whose turn it is); before that, the draw of the secrets."""

from __future__ import annotations

from kivy.metrics import dp

from companion.core.jsonvalue import JSONObject
from ui import theme
from ui.games import base
from ui.games.base import num, seq_of, txt
from ui.widgets import Btn, Lbl, hbox, vbox


class TableView(base.TableView):
    game = "toy"

    def build(self) -> None:
        view = self.view
        turn = txt(view.get("turn"))
        box = vbox(
            Lbl(str(num(view.get("total"))), size=theme.FONT_TITLE, bold=True, tid="toy.total"),
            Lbl(self.t("toy.screen.turn", seat=turn, target=num(view.get("target"))), colour=theme.MUTED),
            spacing=dp(8),
        )
        if not view.get("drawn"):
            box.add_widget(Btn(self.t("toy.screen.draw"), lambda: self.send({"kind": "toy.draw"}), tid="toy.draw"))
        else:
            amounts = [num(n) for n in seq_of(self.facts.get("amounts"))]
            box.add_widget(
                hbox(
                    *[
                        Btn(
                            self.t("toy.screen.add", n=n, seat=turn),
                            (lambda n=n: self.send({"kind": "toy.add", "seat": turn, "amount": n})),
                            tid=f"toy.add.{n}",
                        )
                        for n in amounts
                    ],
                    spacing=dp(8),
                )
            )
        self.add_widget(box)

    def status(self, msg: JSONObject) -> str:
        return self.t("toy.screen.turn", seat=txt(self.view.get("turn")), target=num(self.view.get("target")))


class SetupForm(base.SetupForm):
    def build(self) -> None:
        self.add_widget(Lbl(self.t("ui.new.no_setup"), wrap=True))

    def setup(self) -> JSONObject:
        return {}
