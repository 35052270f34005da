"""From a logged action back to the intent that wrote it (for re-checking imported games).

An action starts with the event its intent asked for (or the scientists it paid first); the
companion then runs the game forward by itself (reshuffles, loot, abilities that need nobody, the
end of a turn, the final round), which the re-check compares. The table may act for every seat.
"""

from __future__ import annotations

from companion.core.audience import TABLE, Audience
from companion.core.codec import KindCodec
from companion.core.events import Event, Intent
from companion.core.summary import Line
from companion.games.victorian_masterminds.events import (
    INTENT_CLASSES,
    Adjust,
    AgentPlaced,
    AgentReidentified,
    AgentResolved,
    AgentRevealed,
    AnswerHenchman,
    BuildingCaptured,
    Capture,
    ChooseBuilding,
    ChooseOrder,
    Corrected,
    EndTurn,
    EngineerDone,
    ExtraTurn,
    ForceResolve,
    LootTaken,
    MissionSet,
    MissionTaken,
    OrderChosen,
    Place,
    PlaceUnder,
    RecordSegment,
    Reidentify,
    RemoveSegment,
    Reveal,
    ScientistsSpent,
    SegmentRecorded,
    SegmentRemoved,
    SetMission,
    StackFlipped,
    Start,
    Started,
    TakeLoot,
    TurnEnded,
)
from companion.games.victorian_masterminds.model import VMState
from companion.games.victorian_masterminds.summary import SUMMARY, seat_word

INTENTS: KindCodec[Intent] = KindCodec(INTENT_CLASSES)


def recorded_intents(state: VMState, events: tuple[Event, ...]) -> list[tuple[Intent, Audience]]:
    first = events[0]
    second = events[1] if len(events) > 1 else None
    if isinstance(first, Started):
        return [(Start(), TABLE)]
    if isinstance(first, AgentPlaced) and first.by_table:  # for a seat whose phone keeps its pile
        if first.under:
            return [(PlaceUnder(first.seat, first.city, first.agent, books=True), TABLE)]
        return [(Place(first.seat, first.city, first.agent, books=True), TABLE)]
    if isinstance(first, AgentPlaced) and first.under:  # an Engineer's steam mole
        named_under = (PlaceUnder(first.seat, first.city, first.agent), TABLE)
        if first.agent is None:
            return [named_under]
        return [
            named_under,
            (PlaceUnder(first.seat, first.city), Audience.of_seat(first.seat)),
            (PlaceUnder(first.seat, first.city, first.agent, force=True), TABLE),
        ]
    if isinstance(first, AgentPlaced):
        named = (Place(first.seat, first.city, first.agent), TABLE)
        if first.agent is None:
            return [named]
        # A phone places its top agent without naming it; the table (or a tag) names it, and confirms
        # one the books held face down elsewhere (as every table entry was taken before it asked).
        return [
            named,
            (Place(first.seat, first.city), Audience.of_seat(first.seat)),
            (Place(first.seat, first.city, first.agent, force=True), TABLE),
        ]
    if isinstance(first, AgentReidentified):
        return [(Reidentify(first.index, first.agent), TABLE)]
    if isinstance(first, OrderChosen):
        return [(ChooseOrder(first.first), TABLE)]
    if isinstance(first, LootTaken):
        # a loot that starts an action waited for its owner: taken on its own (after a Gunner's
        # capture, or during an Engineer's power), or at the end of an ability taken first
        return [(TakeLoot(), TABLE), (EngineerDone(), TABLE), (ChooseBuilding(None), TABLE)]
    if isinstance(first, ScientistsSpent):
        if first.purpose == "recycle" and isinstance(second, AgentPlaced):
            return [(Place(second.seat, second.city, second.agent, recycle=True), TABLE)]
        if first.purpose == "extra_turn":
            return [(ExtraTurn(first.seat), TABLE)]
        if first.purpose == "capture" and isinstance(second, BuildingCaptured):
            return [(Capture(second.seat, second.city, second.building), TABLE)]
        return []
    if isinstance(first, StackFlipped) and first.reason == "forced":
        return [(ForceResolve(state.active_seat, first.city), TABLE)]
    if isinstance(first, TurnEnded) and not first.auto:
        return [(EndTurn(first.seat), TABLE)]
    if isinstance(first, AgentRevealed):
        return [(Reveal(first.agent), TABLE)]
    if isinstance(first, BuildingCaptured) and first.via == "gunner":
        return [(ChooseBuilding(first.building), TABLE)]
    if isinstance(first, MissionTaken):
        return [(AnswerHenchman(True, first.reward, first.label), TABLE)]
    if isinstance(first, AgentResolved):
        answers: dict[str, Intent] = {
            "declined": ChooseBuilding(None),
            "mission_not_met": AnswerHenchman(False),
            "engineer": EngineerDone(),
        }
        answer = answers.get(first.outcome)
        return [] if answer is None else [(answer, TABLE)]
    if isinstance(first, Corrected):
        value = first.value if first.counter == "codex" else None
        by = Audience.of_seat(first.by) if first.by else TABLE  # an Engineer's owner, or the table
        return [(Adjust(first.counter, first.delta, first.seat, value), by)]
    if isinstance(first, SegmentRecorded):
        segment = RecordSegment(first.seat, first.chaos, first.unlock, first.bolts, first.copper, first.label)
        return [(segment, TABLE)]
    if isinstance(first, SegmentRemoved):
        return [(RemoveSegment(first.seat, first.index), TABLE)]
    if isinstance(first, MissionSet):
        return [(SetMission(first.city, first.reward, first.label), TABLE)]
    return []  # loot, flips of full stacks, resolutions, the end: the game writes them by itself


def describe_action(state: VMState, events: tuple[Event, ...], audience: Audience) -> Line:
    """The action in the summary's words for the intent that wrote it (public words: they name
    no hidden agent, card or pile)."""
    found = recorded_intents(state, events)
    if not found:
        return Line("vm.action")
    intent, _actor = found[0]
    encoded = INTENTS.encode(intent)
    assert isinstance(encoded, dict)
    line = SUMMARY.did(encoded)
    seat = line.params.get("seat")
    if isinstance(seat, str):  # the player as the table names them ("Ann placed …", "Red placed …", never "p1 …")
        player = next((p for p in state.players if p.seat == seat), None)
        words = seat_word(seat, player.colour if player else "")
        line = Line(line.code, {**line.params, "seat": player.name if player and player.name else words}, line.indent)
    return line
