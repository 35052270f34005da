"""The Kivy touchscreen app (``companion run``).

- ``app.py``: ``main(config)`` — one asyncio loop for the table, the phone server, the box's
  hardware and Kivy (``App.async_run``); full screen on a Pi, 800×480 window elsewhere.
- ``controller.py``: everything the screens do, without Kivy (intents, games, preferences, phones).
- ``shell.py``: the App — the one subscription to the table's public view, navigation, toasts.
- ``pages.py``, ``seatscreen.py``, ``gamescreen.py``: start, new game, saved games, settings,
  diagnostics, phones (QR codes), the table and end screens.
- ``games/<game>.py``: each game's table screen, end summary and setup form.
- ``widgets/`` (the widget kit, a module per kind of widget), ``theme.py``: building blocks;
  ``hardware_panel.py``: the simulated box.
- ``control.py``: the test control socket (only with ``COMPANION_UI_CONTROL``).
- ``messages/<lang>.json``: every word on screen, one file per language.
"""
