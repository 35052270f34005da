"""The players' panel: a row per player (name chip, score, projected exhibition, supply and how many
cards of each patron they hold; each row redrawn only when its player changes), the pass track and
the general supply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.core.jsonvalue import JSON
from ui import theme
from ui.games.base import num, obj, seq_of, strs, txt
from ui.games.mykerinos.look import CARD_WIDTH, MYK_COLOUR, PATRON_COLOUR, PATRON_INITIAL, PATRON_TEXT
from ui.parts import Part
from ui.widgets import Chip, Lbl, Panel, chip_part, hbox, text_part

if TYPE_CHECKING:
    from ui.games.mykerinos.screen import Screen


def panel(tv: Screen) -> Part:
    v = tv.view
    players = obj(v.get("players"))
    turn = txt(obj(v.get("turn")).get("seat"))
    seats = [txt(s) for s in seq_of(v.get("seats"))]
    four = len(seats) > 3  # four rows, the pass track and the supply fit the panel only a little closer
    rows = [player_part(tv, seat, players.get(seat), seat == turn, four) for seat in seats]
    return Part(
        "players",
        box,
        four,
        children=[
            Part("head", head, tv),
            *rows,
            pass_track(tv, v.get("pass_track")),
            general_supply(tv, v.get("general")),
            Part("rest", Widget),
        ],
    )


def box(four: bool) -> Widget:
    return Panel(
        orientation="vertical", size_hint_x=None, width=dp(372), padding=dp(6), spacing=dp(2) if four else dp(3)
    )


def head(tv: Screen) -> Widget:
    return hbox(
        Lbl("", size_hint_x=None, width=dp(76)),
        *(
            Lbl(
                tv.t(f"ui.myk.head.{k}"),
                size=dp(14),
                colour=theme.MUTED,
                halign="center",
                size_hint_x=None,
                width=w,
                one_line=True,
            )
            for k, w in (("score", dp(40)), ("projection", dp(48)), ("supply", dp(60)))
        ),
        hbox(  # each patron's column: its initial on its colour
            *(
                Chip(
                    PATRON_INITIAL[patron],
                    PATRON_COLOUR[patron],
                    PATRON_TEXT.get(patron, theme.TEXT),
                    size=dp(12),
                    bold=True,
                    width=CARD_WIDTH,
                )
                for patron in strs(tv.facts.get("patrons"))
            ),
            spacing=dp(2),
        ),
        size_hint_y=None,
        height=dp(18),
    )


def player_part(tv: Screen, seat: str, player: JSON, turn: bool, four: bool) -> Part:
    """A player's score, projection, supply and cards (bright: ready to play); each made again
    only when it changes."""
    p = obj(player)
    supply = str(num(p.get("supply")))
    if "neutral_supply" in p:
        supply += f"+{num(p.get('neutral_supply'))}"
    cards = obj(p.get("cards"))
    ready = obj(p.get("ready"))
    patrons = strs(tv.facts.get("patrons"))
    held = tuple((num(cards.get(patron)), bool(num(ready.get(patron)))) for patron in patrons)
    return Part(
        f"seat.{seat}",
        row,
        four,
        children=[
            chip(tv, seat, turn),
            number("score", str(num(p.get("score"))), f"myk.score.{seat}"),
            number("projection", str(num(p.get("projection"))), f"myk.projection.{seat}"),
            text_part(
                "supply",
                supply,
                halign="center",
                size_hint_x=None,
                width=dp(60),
                one_line=True,
                tid=f"myk.supply.{seat}",
            ),
            Part("cards", player_cards, tv, seat, held, bool(num(p.get("blank")))),
        ],
    )


def row(four: bool) -> Widget:
    return hbox(size_hint_y=None, height=dp(27) if four else dp(30))


def chip(tv: Screen, seat: str, turn: bool) -> Part:
    """The player's name on their colour, in bold while it is their turn (changed in place)."""
    return chip_part(
        "who",
        tv.colour_name(seat),
        MYK_COLOUR.get(seat, theme.ACCENT),
        text_colour=theme.on_player_colour(seat),
        size=theme.FONT_SMALL,
        width=dp(76),
        bold=turn,
        one_line=True,
    )


def number(name: str, value: str, tid: str) -> Part:
    """The score (large) or the projected exhibition, given a new value in place."""
    if name == "score":
        return text_part(
            name, value, bold=True, size=theme.FONT_BIG, halign="center", size_hint_x=None, width=dp(40), tid=tid
        )
    return text_part(name, value, halign="center", colour=theme.ACCENT, size_hint_x=None, width=dp(48), tid=tid)


def player_cards(tv: Screen, seat: str, held: tuple[tuple[int, bool], ...], blank: bool) -> Widget:
    """How many cards of each patron a player holds, as large numbers under the patrons' initials
    (bright: ready to play this season; grey: played; "·": none)."""
    chips = hbox(spacing=dp(2))
    for patron, (count, ready) in zip(strs(tv.facts.get("patrons")), held, strict=True):
        chips.add_widget(
            Lbl(
                str(count) if count else "\u00b7",
                size=theme.FONT_BIG if count else theme.FONT,
                bold=ready,
                halign="center",
                colour=theme.TEXT if ready else theme.MUTED,
                size_hint_x=None,
                width=CARD_WIDTH,
                tid=f"myk.cards.{seat}.{patron}",
            )
        )
    if blank:  # the blank card: a room of value 5
        chips.add_widget(Lbl("+5", size=theme.FONT_SMALL, colour=theme.MUTED, one_line=True))
    return chips


def pass_track(tv: Screen, pass_track_: JSON) -> Part:
    track = [seq_of(t) for t in seq_of(pass_track_)]
    passed = ", ".join(f"{num(t[1])}. {tv.colour_name(txt(t[0]))}" for t in track if len(t) >= 2)
    return text_part(
        "pass_track",
        tv.t("ui.myk.pass_track", track=passed or "–"),
        size=theme.FONT_SMALL,
        fit=dp(11),  # four players' names: smaller before it is shortened
        size_hint_y=None,
        height=dp(20),
        tid="myk.pass_track",
    )


def general_supply(tv: Screen, general_: JSON) -> Part:
    general = obj(general_)
    # each colour by its shape (the players' rows above say whose it is): four colours fit one line
    gen = ", ".join(f"{theme.player_mark(c) or tv.colour_name(c)}\u00a0{num(general.get(c))}" for c in general)
    return text_part(
        "general",
        tv.t("ui.myk.general", supply=gen),
        size=theme.FONT_SMALL,
        colour=theme.MUTED,
        one_line=True,
        size_hint_y=None,
        height=dp(20),
    )
