"""The appliance's subcommands of ``companion``: ``status``, ``hotspot`` and its part of ``doctor``
(``--bundle FILE``, and the system facts alone when the configuration cannot be read)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.appliance import hotspot, status


def add_commands(subparsers: Any, addresses: Any = None, running: Any = None) -> None:
    """``addresses(config)``: the phones' address and every address of this machine, for the bundle;
    ``running(data_dir, language)``: what the running app says of itself, for ``companion status``."""
    status.add_commands(subparsers, running)
    hotspot.add_commands(subparsers)
    doctor = subparsers.choices.get("doctor")
    if doctor is not None:  # the hardware's doctor (hardware/cli.py), with the appliance's additions
        doctor.add_argument(
            "--bundle",
            metavar="FILE",
            help="write one text file for whoever helps you: versions, config without secrets, journal, facts",
        )
        hardware_doctor = doctor.get_default("func")
        doctor.set_defaults(
            func=lambda args, config: cmd_doctor(args, config, hardware_doctor, addresses), without_config=True
        )


def cmd_doctor(args: argparse.Namespace, config: Any, hardware_doctor: Any, addresses: Any = None) -> int:
    if getattr(args, "bundle", None):
        from companion.appliance import bundle

        network = addresses(config) if addresses is not None else (None, [])
        where = bundle.write(config, args.bundle, network)
        if where != "-":
            print(f"wrote {where}")
        return 0
    if getattr(config, "unreadable", ""):
        # The hardware needs the [hardware] section: only the system's facts, and why.
        from pathlib import Path

        from companion.appliance import doctor

        print(f"Hardware: not shown: {config.unreadable}")
        print(doctor.format_report(doctor.report(Path(config.data_dir))))
        return 0
    result: int = hardware_doctor(args, config)
    return result
