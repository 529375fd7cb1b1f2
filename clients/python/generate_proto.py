"""Generates the protobuf modules of the ``partita`` package from ``proto/``.

The wire contract lives in the repository's ``proto/client.proto`` and
``proto/errors.proto``; generated code is never committed. This script runs
the protoc bundled in the pinned ``grpcio-tools`` (see ``pyproject.toml``)
and writes ``client_pb2.py``/``.pyi`` and ``errors_pb2.py``/``.pyi`` into
``src/partita/_proto/``. The package build (``hatch_build.py``) and the test
setup (``tests/conftest.py``) call :func:`generate`.

    python generate_proto.py            # from clients/python, or anywhere
    python generate_proto.py --if-stale # only when a .proto is newer
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROTO_FILES = ("client.proto", "errors.proto")
OUT_DIR = HERE / "src" / "partita" / "_proto"


def proto_dir() -> Path:
    """The folder holding the .proto files: ``proto/`` beside this file in an
    sdist, else the repository's ``proto/``."""
    for candidate in (HERE / "proto", HERE.parent.parent / "proto"):
        if all((candidate / name).is_file() for name in PROTO_FILES):
            return candidate
    raise FileNotFoundError(
        f"cannot find {', '.join(PROTO_FILES)} in {HERE / 'proto'} or {HERE.parent.parent / 'proto'}"
    )


def is_current(out_dir: Path = OUT_DIR) -> bool:
    """True when every generated module exists and is newer than its .proto."""
    source = proto_dir()
    for name in PROTO_FILES:
        module = out_dir / (Path(name).stem + "_pb2.py")
        if not module.is_file() or module.stat().st_mtime < (source / name).stat().st_mtime:
            return False
    return True


def generate(out_dir: Path = OUT_DIR) -> list[Path]:
    """Runs protoc on PROTO_FILES into ``out_dir``; returns the files written.

    Raises RuntimeError naming protoc's complaint when it fails, and
    ImportError when grpcio-tools is not installed.
    """
    from grpc_tools import protoc  # the pinned build/test dependency

    source = proto_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"--proto_path={source}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        *[str(source / name) for name in PROTO_FILES],
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {', '.join(PROTO_FILES)} in {source}")
    written = []
    for name in PROTO_FILES:
        stem = Path(name).stem + "_pb2"
        written += [out_dir / (stem + ".py"), out_dir / (stem + ".pyi")]
    return written


if __name__ == "__main__":
    if "--if-stale" in sys.argv[1:] and is_current():
        sys.exit(0)
    for path in generate():
        print(path)
    sys.exit(0)
