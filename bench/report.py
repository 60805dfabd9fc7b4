"""What every benchmark prints about the machine it ran on: the CPU, the load while it ran, section headings."""

from __future__ import annotations

import os
from pathlib import Path


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""


def heading(text: str) -> None:
    print(f"\n== {text} ({load()})", flush=True)


def cpu() -> str:
    """``<model name>, <n> CPUs`` (the CPUs this process may use)."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model}, {cpus} CPUs"
