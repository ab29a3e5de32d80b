"""Demo agents on 127.0.0.1 for a test session: each variant started on first use, all
stopped together at the end.

A demo agent takes a fifth of a second to stop (uvicorn looks for the stop request ten times a
second, then waits a tenth of a second for open connections); a session starts a dozen
variants, so they are stopped at the same time rather than one after another.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from th_ext.demo import DemoServer, DemoVariant

__all__ = ["DemoAgents"]


class DemoAgents:
    """Started demo agents by variant; call the object for one, ``stop_all`` at the end."""

    def __init__(self) -> None:
        self._started: dict[DemoVariant, DemoServer] = {}

    def __call__(self, variant: DemoVariant = DemoVariant.CORRECT) -> DemoServer:
        if variant not in self._started:
            server = DemoServer(variant)
            server.start()
            self._started[variant] = server
        return self._started[variant]

    def stop_all(self) -> None:
        servers = list(self._started.values())
        self._started.clear()
        if servers:
            with ThreadPoolExecutor(max_workers=len(servers)) as pool:
                list(pool.map(DemoServer.stop, servers))
