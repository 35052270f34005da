"""The Pi appliance: what runs around the app when it is a service on a Raspberry Pi.

- :mod:`.notify`: the systemd notification protocol (``READY=1``, ``STATUS=``, ``WATCHDOG=1``);
- :mod:`.logs`: one logging set-up for ``run`` and ``serve`` (journal priorities, no Kivy log files);
- :mod:`.facts`: what the machine says about itself (disk, overlay file systems, under-voltage, display,
  GPIO, serial ports);
- :mod:`.display`: waiting for the display at boot, before Kivy opens its window;
- :mod:`.health`: the Pi's warnings for the start screen and the host page;
- :mod:`.status`, :mod:`.hotspot`: the ``companion status`` and ``companion hotspot`` commands;
- :mod:`.access`: what those and ``doctor`` do for a user who may not read the configuration;
- :mod:`.bundle`: ``companion doctor --bundle FILE``;
- :mod:`.configfile`: the few edits the installer and ``hotspot`` make to the configuration file;
- :mod:`.version`: ``companion --version``.

Standard library only; nothing here imports Kivy at module level.
"""
