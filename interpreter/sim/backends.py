"""Where simulated games are played: in this process, on local worker processes, or on Ray.

Every backend takes the same things (the ruleset's folder and mods, a stream
of jobs in seed order, a worker count) and yields each game's summary in seed
order, so the output is the same whichever plays the games. Work goes out in
chunks (a few seeds each) with a bounded window of chunks in flight, and a
result is handed on as soon as every earlier seed's is, so memory stays flat
however many games are played. The progress callback is called once per
finished game, in the order games finish.

The functions that load a ruleset and play one game are passed in (by
reference, never as pickled code), which keeps this module free of any
knowledge of what a game is. Local workers share one load: on Linux the
ruleset is loaded and compiled here, once, and the workers are forked from
this process after it (the 'fork' start method), so each starts playing at
once; elsewhere each worker loads it itself. Stopping early (Ctrl-C, or a
caller that stops reading) cancels the work still out and ends the worker
processes.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator

from .batches import BackendProblem, chunk_size, chunked, ordered

BACKENDS = ("local", "ray")


def run(path: str, mods: list[str], jobs: Iterable, todo: int, workers: int,
        init: Callable, play: Callable, rebuild: Callable, progress: Callable | None = None,
        backend: str = "local", address: str | None = None,
        share: Callable | None = None) -> Iterator:
    """Play ``jobs`` (``todo`` of them) on ``backend``; yield ``play``'s results in job order.

    ``init(path, mods)`` loads the ruleset in a worker; ``share(path, mods)``
    (``init`` when None) loads it in this process before local workers are
    forked from it, compiled whole so that no worker compiles anything;
    ``play(job)`` plays one game there; ``rebuild(fields)`` makes a result
    again from the plain fields a remote worker sends back.
    """
    if todo <= 0:
        return
    if backend == "ray":
        from .ray_backend import run_on_ray
        yield from run_on_ray(path, mods, jobs, todo, init, play, rebuild, progress, address)
        return
    if backend != "local":
        raise BackendProblem(f"unknown backend '{backend}': choose {' or '.join(BACKENDS)}")
    if address is not None:
        raise BackendProblem("--address is for the ray backend (--backend ray)")
    workers = min(workers, os.cpu_count() or 1, todo)
    if workers <= 1:
        init(path, mods)
        for job in jobs:
            result = play(job)
            if progress:
                progress()
            yield result
        return
    yield from _on_processes(path, mods, jobs, todo, workers, init, share or init, play,
                             progress)


def _quiet_init(init: Callable | None, path: str, mods: list[str]) -> None:
    """A worker process leaves Ctrl-C to the main process, which stops it when it wants;
    it loads the ruleset itself unless it was forked with it (``init`` None)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # and ends when the main process ends it, whatever handler it was forked with
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if init is not None:
        init(path, mods)


def forking():
    """The 'fork' start method where workers may be forked from a loaded process (Linux),
    else None. (Elsewhere forking is unsafe or missing, and workers load for themselves.)"""
    if not sys.platform.startswith("linux"):
        return None
    import multiprocessing
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return multiprocessing.get_context("fork")


def play_chunk(play: Callable, chunk: list) -> list:
    return [play(job) for job in chunk]


def _on_processes(path, mods, jobs, todo, workers, init, share, play, progress) -> Iterator:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    context = forking()
    if context is not None:
        share(path, mods)  # loaded and compiled once: the workers are forked with it
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_quiet_init,
                                   initargs=(None, path, mods))
    else:
        pool = ProcessPoolExecutor(workers, initializer=_quiet_init, initargs=(init, path, mods))
    out: dict = {}  # future -> chunk index
    finished = False

    def submit(index, chunk):
        out[pool.submit(play_chunk, play, chunk)] = index

    def next_done():
        while True:
            # wake now and then, so Ctrl-C is seen at once
            done, _ = wait(list(out), timeout=0.5, return_when=FIRST_COMPLETED)
            if done:
                break
        future = min(done, key=out.get)
        index = out.pop(future)
        try:
            return index, future.result()
        except BrokenProcessPool:
            raise BackendProblem("a worker process stopped before finishing its games (out "
                                 "of memory, or ended from outside)") from None

    try:
        yield from ordered(chunked(jobs, chunk_size(todo, workers)), submit, next_done,
                           4 * workers, progress)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)  # stopped early: the work still out is dropped


def _stop(pool) -> None:
    """End a process pool's workers now, whatever they are doing."""
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if stop is not None:
        stop()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # shutdown() forgets its manager thread: take it first
    thread = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():  # it kept on (a handler it was forked with): end it for good
            process.kill()
            process.join()
    # the pool's manager thread closes its wake-up pipe once the workers are gone; let it
    # finish, and keep the exit handler of concurrent.futures from writing to that pipe
    # (Python before 3.12 does, and prints a traceback at exit)
    if thread is not None:
        thread.join(timeout=10)
        from concurrent.futures import process as futures_process
        getattr(futures_process, "_threads_wakeups", {}).pop(thread, None)
