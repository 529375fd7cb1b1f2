"""The Voter area codes and their states, read from the Java table
(bench/voter/procedures/org/partita/bench/voter/AreaCodes.java) so that there
is one list, as the C++ build does (bench/voter/cpp/gen_area_codes.cmake).
"""

from __future__ import annotations

import re
from pathlib import Path

JAVA_FILE = Path(__file__).resolve().parents[1] / "procedures/org/partita/bench/voter/AreaCodes.java"


def load(path: Path = JAVA_FILE) -> tuple[list[int], list[str]]:
    """(codes, states) from ``path``. Raises ValueError when either array is
    missing or empty, or their lengths differ."""
    text = path.read_text(encoding="utf-8")
    codes_match = re.search(r"int\[\] CODES = \{([^}]*)\}", text)
    states_match = re.search(r"String\[\] STATES = \{([^}]*)\}", text)
    if not codes_match or not states_match:
        raise ValueError(f"{path}: no 'int[] CODES = {{...}}' or 'String[] STATES = {{...}}' array")
    codes = [int(c) for c in re.findall(r"[0-9]+", codes_match.group(1))]
    states = re.findall(r'"([A-Z][A-Z])"', states_match.group(1))
    if not codes or len(codes) != len(states):
        raise ValueError(f"{path}: {len(codes)} codes but {len(states)} states")
    return codes, states


CODES, STATES = load()
