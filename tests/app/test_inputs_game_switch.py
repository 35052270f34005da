"""A button pressed while the table switches game (issue 12, item 2): the press is read in the
game that was open, names that game, and is refused when its turn comes in the next one — the
next game is untouched and the box says why (a notice with the refusal's code)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_bindings import VM, VM_SETUP, Buttons, Rig, run, vm_after_placing


def test_a_button_press_queued_behind_a_game_switch_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def scenario(rig: Rig) -> None:
        await vm_after_placing(rig)
        buttons = Buttons(rig)
        notices: list[str] = []
        rig.router.listen(lambda m: notices.append(str(m.get("code"))) if m.get("type") == "notice" else None)
        try:
            first = rig.table.current.header.id  # type: ignore[union-attr]
            switch = asyncio.create_task(rig.table.new_game(VM, VM_SETUP, "Next"))
            await asyncio.sleep(0)  # the switch is queued first
            await buttons.tap("next")  # "end the turn" in the game the box still shows
            second = await switch
            assert second != first
            assert rig.submitted()[-1] == ("vm.end_turn", "table", "refused", "table.other_game")
            assert "table.other_game" in notices
            assert rig.table.current.header.id == second and rig.table.seq == 0  # type: ignore[union-attr]
        finally:
            buttons.close()

    run(tmp_path, scenario)
