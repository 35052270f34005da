"""What the table's speaker says in Victorian Masterminds, from two public table views only.

- A stack's result, once the whole stack is resolved: what each of its agents did, first placed
  first ("Red's Gunner captures the Factory"); every agent of a resolved stack lies face up.
- The Secret Service level when it changes (it rises by one with every building stolen).
- The final round, when it begins; the end of the game and its winner, with the points.
"""

from __future__ import annotations

from companion.core.jsonvalue import JSONObject
from companion.core.summary import Line, items, listed, num, obj, t, txt
from companion.games.victorian_masterminds.summary import seat_name


def _did(agent: JSONObject) -> JSONObject:
    """What one resolved agent did, in words."""
    building, mission = txt(agent.get("building")), agent.get("mission")
    if building:
        return t("vm.say.outcome.captured", building=t(f"vm.say.building.{building}"))
    if isinstance(mission, int) and not isinstance(mission, bool):
        return t("vm.say.outcome.mission", reward=mission)
    outcome = txt(agent.get("outcome")) or "cancelled"  # a resolved agent without an outcome was sabotaged
    return t(f"vm.say.outcome.{outcome}")


def stack_result(view: JSONObject, stack: JSONObject) -> list[Line]:
    lines = [Line("vm.say.stack", {"city": t(f"vm.city.{txt(stack.get('city'))}")})]
    for agent in map(obj, items(stack.get("agents"))):
        name = txt(agent.get("agent"))
        lines.append(
            Line(
                "vm.say.agent",
                {
                    "player": seat_name(view, txt(agent.get("seat"))),
                    "agent": t(f"vm.agent.{name}") if name else t("vm.sum.unknown"),
                    "outcome": _did(agent),
                },
            )
        )
    return lines


def announcements(before: JSONObject, after: JSONObject) -> tuple[Line, ...]:
    lines: list[Line] = []
    stack = obj(after.get("last_stack"))
    if stack and after.get("last_stack") != before.get("last_stack"):
        lines += stack_result(after, stack)
    level, was = num(after.get("level")), num(before.get("level"))
    if level != was and "level" in before:
        lines.append(Line("vm.say.level_up" if level > was else "vm.say.level_down", {"level": level}))
    if obj(after.get("final_round")).get("triggered") and not obj(before.get("final_round")).get("triggered"):
        lines.append(Line("vm.say.final_round"))
    result = obj(after.get("result"))
    if result and not before.get("result"):
        winners = [txt(w) for w in items(result.get("winners"))]
        points = {
            txt(p.get("seat")): num(obj(p.get("score")).get("total")) for p in map(obj, items(after.get("players")))
        }
        lines.append(Line("vm.say.over"))
        if winners:
            lines.append(
                Line(
                    "vm.say.winner",
                    {
                        "players": listed([seat_name(after, w) for w in winners], "vm.say.and"),
                        "count": len(winners),
                        "points": max(points.get(w, 0) for w in winners),
                    },
                )
            )
    return tuple(lines)
