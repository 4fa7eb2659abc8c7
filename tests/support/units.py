"""Reading deploy/'s systemd units as systemd would, to start them in a test.

Only what the units use: ``[Service]`` keys (repeated ``Environment=`` lines
add up), ``EnvironmentFile=`` overriding ``Environment=``, the specifiers
``%i``, ``%H`` and ``%%``, and ``ExecStart=`` expansion: ``${NAME}`` is one
word, ``$NAME`` as a whole word splits on white space (systemd.service(5),
"Command lines"; systemd.exec(5), "Environment").
"""

from __future__ import annotations

import re
import shlex
import socket
from dataclasses import dataclass, field
from pathlib import Path

INSTALL_DIR = "/opt/floor"
VENV_BIN = "/opt/floor/.venv/bin"


@dataclass
class Unit:
    path: Path
    sections: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def values(self, section: str, key: str) -> list[str]:
        return [value for name, value in self.sections.get(section, []) if name == key]

    def value(self, section: str, key: str) -> str | None:
        found = self.values(section, key)
        return found[-1] if found else None


def read_unit(path: Path) -> Unit:
    """The unit's sections, as (key, value) pairs in order."""
    unit = Unit(path)
    section = ""
    pending = ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            unit.sections.setdefault(section, [])
            continue
        key, _sep, value = line.partition("=")
        unit.sections.setdefault(section, []).append((key.strip(), value.strip()))
    return unit


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=value lines (systemd.exec(5), EnvironmentFile=): comments skipped."""
    env: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        key, _sep, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        env[key.strip()] = value
    return env


def specifiers(text: str, instance: str) -> str:
    """%i (the instance), %H (the host name), %% (a percent sign)."""
    swaps = {"i": instance, "I": instance, "H": socket.gethostname(), "%": "%"}
    return re.sub(r"%(.)", lambda m: swaps.get(m.group(1), m.group(0)), text)


def relocated(text: str, root: Path, venv_bin: Path) -> str:
    """The install paths swapped for the checkout's and its virtualenv's."""
    return text.replace(VENV_BIN, str(venv_bin)).replace(INSTALL_DIR, str(root))


def unit_env(unit: Unit, env_file: Path, instance: str = "") -> dict[str, str]:
    """Environment= (in order), then the environment file, which overrides it."""
    env: dict[str, str] = {}
    for line in unit.values("Service", "Environment"):
        for assignment in shlex.split(specifiers(line, instance)):
            key, _sep, value = assignment.partition("=")
            env[key] = value
    env.update(read_env_file(env_file))
    return env


def exec_start(
    unit: Unit, env: dict[str, str], root: Path, venv_bin: Path, instance: str = ""
) -> list[str]:
    """ExecStart= as the argument vector systemd would run."""
    line = unit.value("Service", "ExecStart")
    assert line, f"{unit.path.name} has no ExecStart="
    words: list[str] = []
    for word in shlex.split(relocated(specifiers(line, instance), root, venv_bin)):
        whole = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", word)
        if whole:
            words.extend(env.get(whole.group(1), "").split())
            continue
        words.append(
            re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env.get(m.group(1), ""), word)
        )
    return words
