"""Hatchling build hook: generates the protobuf modules (generate_proto.py)
before the wheel is assembled, so wheels carry them and the repository
never does."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ProtoBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        sys.path.insert(0, self.root)
        try:
            import generate_proto
        finally:
            sys.path.pop(0)
        for path in generate_proto.generate():
            relative = Path(path).relative_to(Path(self.root) / "src")
            build_data["force_include"][str(path)] = str(relative)
