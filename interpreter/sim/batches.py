"""Chunks of seeds with a bounded window in flight, results put back in order.

The part every backend shares: seeds are cut into chunks, at most a window of
chunks is out at once, chunks come back in any order, and results are handed
on in seed order as soon as every earlier chunk is back. A caller that stops
reading stops sending; the memory held is the window, however many games.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator


class BackendProblem(Exception):
    """A backend cannot run as asked (not installed, cluster unreachable); one line for people."""


def chunk_size(games: int, workers: int) -> int:
    """Seeds per chunk: small enough that progress moves and work spreads, at most 16."""
    return max(1, min(16, games // max(1, workers * 8)))


def chunked(jobs: Iterable, size: int) -> Iterator[list]:
    it = iter(jobs)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def ordered(chunks: Iterator[list], submit: Callable, next_done: Callable, window: int,
            progress: Callable | None) -> Iterator:
    """Results of chunks in their order, with at most ``window`` chunks out at once.

    ``submit(index, chunk)`` sends a chunk out; ``next_done()`` blocks until some
    chunk comes back and returns ``(index, results)``. Chunks come back in any
    order; a finished chunk waits only while an earlier one is still out.
    """
    back: dict[int, list] = {}
    head = sent = 0
    more = True
    while True:
        while more and sent - head < window:
            chunk = next(chunks, None)
            if chunk is None:
                more = False
                break
            submit(sent, chunk)
            sent += 1
        if head == sent:
            return
        while head not in back:
            index, results = next_done()
            back[index] = results
            if progress:
                for _ in results:
                    progress()
        yield from back.pop(head)
        head += 1
