"""Where a full build's time goes: one `rulings build` of a library under cProfile, on the CPU clock.

Run: ``.venv/bin/python bench/profile_build.py LIBRARY KB [--share 0.03]``. It builds ``LIBRARY``
(a folder with its ``library.toml``, e.g. a stress library of `bench/generate.py`) into ``KB``
and prints the CPU and wall seconds, then each function whose cumulative time is over
``--share`` of the build, largest first (cumulative seconds, own seconds, where it is).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.ingest.pipeline import build  # noqa: E402


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("library", type=Path)
    options.add_argument("kb", type=Path)
    options.add_argument("--share", type=float, default=0.03, help="print functions over this share (default 0.03)")
    arguments = options.parse_args()
    profile = cProfile.Profile(time.process_time)
    cpu, wall = time.process_time(), time.perf_counter()
    profile.enable()
    build(arguments.library, arguments.kb)
    profile.disable()
    print(f"build: {time.process_time() - cpu:.1f} s CPU (profiled), {time.perf_counter() - wall:.1f} s wall")
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = max(cumulative for _, _, _, cumulative, _ in stats.values())
    for (path, line, name), (_, _, own, cumulative, _) in sorted(stats.items(), key=lambda item: -item[1][3]):
        if cumulative / total > arguments.share:
            where = path.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
            print(f"{cumulative / total:5.0%} {cumulative:8.2f} s  own {own:7.2f} s  {where}:{line}:{name}")


if __name__ == "__main__":
    main()
