"""The few edits the installer and ``companion hotspot`` make to the configuration file.

The file is the user's: comments, order and every other line stay as they are. A key is replaced
where it stands in its ``[section]``, added right under the section's header when missing, and the
section is appended when the file has none. The result is parsed again and must hold exactly the
new values, else nothing is written. Writing keeps the file's mode and owner (the installed file is
``0640 root:companion``: it holds the hotspot password).

    python -m companion.appliance.configfile FILE table.data_dir=/var/lib/companion [--if-empty]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from companion.core.errors import CompanionError
from companion.files import write_atomic


class ConfigFileError(CompanionError):
    default_code = "appliance.configfile"


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")
_ARRAY_HEADER = re.compile(r"^\s*\[\[")


def toml_string(value: str) -> str:
    """A TOML basic string."""
    out = []
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _section_span(lines: list[str], section: str) -> tuple[int, int] | None:
    """(header index, end index) of ``[section]``; None when the file has no such table."""
    start = None
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        is_header = m is not None or _ARRAY_HEADER.match(line) is not None
        if start is not None and is_header:
            return start, i
        if m is not None and m.group(1) == section:
            start = i
    return None if start is None else (start, len(lines))


def set_values(text: str, section: str, values: Mapping[str, str]) -> str:
    """``text`` with ``[section] key = "value"`` for every item of ``values``."""
    lines = text.splitlines()
    span = _section_span(lines, section)
    if span is None:
        block = ["", f"[{section}]", *(f"{k} = {toml_string(v)}" for k, v in values.items())]
        lines = [*lines, *block] if lines else block[1:]
    else:
        start, end = span
        missing = dict(values)
        for i in range(start + 1, end):
            m = re.match(r"^(\s*)([A-Za-z0-9_-]+)\s*=", lines[i])
            if m and m.group(2) in missing:
                key = m.group(2)
                comment = _trailing_comment(lines[i][m.end() :])
                lines[i] = f"{m.group(1)}{key} = {toml_string(missing.pop(key))}{comment}"
        lines[start + 1 : start + 1] = [f"{k} = {toml_string(v)}" for k, v in missing.items()]
    result = "\n".join(lines) + "\n"
    try:
        parsed = tomllib.loads(result)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError("appliance.configfile.syntax", f"the edited file is not TOML: {exc}") from None
    table = parsed.get(section, {})
    for key, value in values.items():
        if not isinstance(table, dict) or table.get(key) != value:
            raise ConfigFileError("appliance.configfile.edit", f"could not set [{section}] {key}", key=key)
    return result


def _trailing_comment(rest: str) -> str:
    """A ``# comment`` after a simple value (string, number, boolean) on the same line."""
    m = re.match(r'^\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[^#"\']*?)\s*(#.*)?$', rest)
    return f"  {m.group(2)}" if m and m.group(2) else ""


def get_value(path: Path, section: str, key: str) -> object:
    with path.open("rb") as fh:
        table = tomllib.load(fh).get(section, {})
    return table.get(key) if isinstance(table, dict) else None


def write_keeping_mode(path: Path, text: str) -> None:
    """Replace ``path`` atomically (written, flushed, renamed, the folder flushed), keeping its mode
    and owner (new files: 0640)."""
    try:
        st = os.stat(path)
        mode, owner = st.st_mode & 0o7777, (st.st_uid, st.st_gid)
    except FileNotFoundError:
        mode, owner = 0o640, None
    write_atomic(path, text, mode=mode, owner=owner)  # a power cut leaves the old file or the new one


def update(path: Path, section: str, values: Mapping[str, str], if_empty: bool = False) -> bool:
    """Set ``values`` in ``[section]`` of the file at ``path``; returns whether the file changed."""
    text = path.read_text("utf-8") if path.exists() else ""
    if if_empty and text:
        current = tomllib.loads(text).get(section, {})
        values = {k: v for k, v in values.items() if not (isinstance(current, dict) and current.get(k))}
    if not values:
        return False
    new = set_values(text, section, values)
    if new == text:
        return False
    write_keeping_mode(path, new)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.appliance.configfile")
    parser.add_argument("file", type=Path)
    parser.add_argument("assignments", nargs="+", metavar="section.key=value")
    parser.add_argument("--if-empty", action="store_true", help="only set keys that are missing or empty")
    args = parser.parse_args(argv)
    by_section: dict[str, dict[str, str]] = {}
    for item in args.assignments:
        name, sep, value = item.partition("=")
        section, dot, key = name.rpartition(".")
        if not sep or not dot:
            parser.error(f"not section.key=value: {item}")
        by_section.setdefault(section, {})[key] = value
    try:
        changed = False
        for section, values in by_section.items():
            changed |= update(args.file, section, values, if_empty=args.if_empty)
    except (CompanionError, OSError, tomllib.TOMLDecodeError) as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    print(f"{args.file}: {'updated' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
