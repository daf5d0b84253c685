"""Simulated games on Ray: this machine's cores, or a cluster's.

Ray workers on other machines do not have the user's rule files, so the text
of every file the ruleset's load read (and of each mod) goes through Ray's
object store once; each worker writes it into a private temporary folder,
loads the ruleset from there once, deletes the folder and plays chunk after
chunk of seeds. Text goes in and plain fields come back: no game object or
compiled code is ever pickled. Before anything is shipped, the files are
hashed the way the loader hashes them, so a worker is known to load exactly
the ruleset this machine loaded; a place inside a worker's folder that shows
up in a result (an error's file name) is put back to the name it has here,
so a result is the same, byte for byte, as the local backend's.

Without an address a private Ray instance is started for the run and shut
down after it (a new one, always: never a cluster named by ``RAY_ADDRESS`` or
left behind in Ray's temporary folder); with ``auto`` or ``HOST:PORT`` the
run joins a running cluster, after checking that something answers there,
so a stale address is refused in seconds rather than waited on.
Ray's own logging is kept off the terminal where Ray allows it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import re
import shutil
import socket
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from .batches import BackendProblem, chunk_size, chunked, ordered

MISSING = "Ray is not installed: pip install 'rulebook-games[ray]'"


def rule_files(path: str, mods: list[str]) -> dict:
    """Everything a worker needs to load the ruleset: each file's text by its place."""
    from ..load.assemble import display_path, hash_text
    from ..load.ruleset import load_ruleset
    rs = load_ruleset(path, mods)
    root = Path(rs.root)
    files, hasher = [], hashlib.sha256()
    for shown in rs.files:
        name = Path(os.path.relpath(os.path.abspath(shown), root)).as_posix()
        data = Path(shown).read_bytes()
        files.append((name, data))
        hasher.update(name.encode() + b"\0" + hash_text(data.decode("utf-8-sig")) + b"\0")
    shipped_mods = []
    for shown in rs.mods:
        data = Path(shown).read_bytes()
        shipped_mods.append((shown, data))
        hasher.update(b"mod\0" + hash_text(data.decode("utf-8-sig")) + b"\0")
    if hasher.hexdigest() != rs.content_hash:
        raise BackendProblem(f"{display_path(root)}: the rule files cannot be sent to Ray "
                             "workers as they are (a file is reached through a link, or "
                             "changed while loading); copy the ruleset without links and "
                             "try again")
    from ..version import __version__
    return {"root": display_path(root), "files": files, "mods": shipped_mods,
            "content_hash": rs.content_hash, "version": __version__}


def _safe_name(name: str) -> PurePosixPath:
    place = PurePosixPath(name)
    if place.is_absolute() or ".." in place.parts or not place.parts:
        raise ValueError(f"a shipped rule file has a place outside its folder: {name!r}")
    return place


class RuleWorker:
    """One Ray actor: the ruleset loaded once from shipped text, then chunk after chunk.

    A worker that cannot play (another Rulebook version, a load that fails)
    says why through :meth:`problem` instead of dying, so the run can say it.
    """

    def __init__(self, bundle: dict, init: Callable, play: Callable):
        from ..version import __version__
        self.play, self.places, self.why = play, [], None
        where = socket.gethostname()
        if bundle["version"] != __version__:
            self.why = (f"the machine {where} has Rulebook {__version__}, this one "
                        f"{bundle['version']}; install the same version on every machine")
            return
        folder = tempfile.mkdtemp(prefix="rulebook-")  # readable by this user only
        try:
            rules = os.path.join(folder, "rules")
            for name, data in bundle["files"]:
                self._write(os.path.join(rules, *_safe_name(name).parts), data)
            mods = []
            self.places = [(rules, bundle["root"])]
            for i, (shown, data) in enumerate(bundle["mods"]):
                target = os.path.join(folder, "mods", str(i), os.path.basename(shown))
                self._write(target, data)
                mods.append(target)
                self.places.insert(0, (target, shown))
            init(rules, mods)
        except Exception as exc:  # reported by the run, in one line
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            self.why = f"the ruleset did not load on the machine {where}: {first}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)  # loaded: the files are not read again

    @staticmethod
    def _write(target: str, data: bytes) -> None:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)

    def problem(self) -> str | None:
        return self.why

    def play_chunk(self, chunk: list) -> list[dict]:
        return [self._plain(self.play(job)) for job in chunk]

    def _plain(self, result) -> dict:
        fields = dataclasses.asdict(result) if dataclasses.is_dataclass(result) else dict(result)
        for key, value in fields.items():
            if isinstance(value, str):
                for here, there in self.places:
                    value = value.replace(here, there)
                fields[key] = value
        return fields


def _answers(address: str) -> bool:
    """Whether something listens at HOST:PORT (Ray itself would retry for minutes)."""
    found = re.fullmatch(r"\[?([^\[\]]+?)\]?:(\d+)", address)
    if not found:
        return True  # auto, or a form Ray reads itself
    try:
        socket.create_connection((found[1], int(found[2])), timeout=5).close()
    except OSError:
        return False
    return True


@contextmanager
def _stderr_quiet():
    """Ray's C++ side logs its connection retries to the error stream before any setting
    reaches it; while Ray starts or connects that stream goes nowhere (a failure still
    comes back as an exception, and is reported in one line)."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _auto_address() -> tuple[str | None, str]:
    """The cluster ``--address auto`` would join, and where that address comes from.

    Ray reads it from ``RAY_ADDRESS``, else from the file ``ray start`` leaves
    in Ray's temporary folder; that file outlives the cluster it names when
    the cluster is stopped uncleanly, and Ray then waits minutes on a dead
    address. Where this Ray has no such file (another version), None.
    """
    found = os.environ.get("RAY_ADDRESS")
    if found:
        return found, "RAY_ADDRESS"
    import importlib
    for module in ("ray._common.utils", "ray._private.utils"):  # newer Rays, then older
        try:
            where = importlib.import_module(module).get_ray_address_file(None)
        except Exception:  # noqa: BLE001 - a Ray that keeps it elsewhere
            continue
        try:  # without waiting: anyone may put a pipe in a shared temporary folder
            fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (OSError, ValueError):
            return None, ""
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, ""
            text = os.read(fd, 200).decode("utf-8", "replace").strip()
        except OSError:
            return None, ""
        finally:
            os.close(fd)
        return text or None, where
    return None, ""


def _connect(ray, address: str | None) -> bool:
    """Join or start Ray; True when this run started it (and so shuts it down).

    Without an address a new Ray is started here, always: Ray's own default
    would join whatever cluster its temporary folder last named, which may
    have stopped long ago.
    """
    if ray.is_initialized():
        return False
    if address == "auto":
        found, source = _auto_address()
        if found and not _answers(found):
            raise BackendProblem(f"cannot reach the Ray cluster at {found} that --address auto "
                                 f"found (in {source}): nothing answers there; start it "
                                 "again with 'ray start --head', or leave out --address to "
                                 "start Ray on this machine for the run")
    elif address and not _answers(address):
        raise BackendProblem(f"cannot reach a Ray cluster at {address}: nothing answers "
                             "there (is 'ray start --head' running on that machine?)")
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")  # Ray's own C++ logging
    quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        with _stderr_quiet():
            if address:
                ray.init(address=address, **quiet)
            else:
                # Ray starts its workers with a niceness of 15, so that on a busy machine
                # they get a fraction of what the local backend's processes get; a Ray
                # started for this run plays at the same priority (RAY_worker_niceness
                # set by the user still wins)
                os.environ.setdefault("RAY_worker_niceness", "0")
                # "local": a new Ray, never one named by RAY_ADDRESS or Ray's temp folder
                ray.init(address="local", include_dashboard=False, **quiet)
    except Exception as exc:  # noqa: BLE001 - whatever Ray raises, said in one line
        where = f"at {address}" if address else "on this machine"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        hint = (" (is it running, and does this machine have the cluster's token, if it "
                "uses Ray's token authentication?)" if address else "")
        verb = "reach" if address else "start"
        raise BackendProblem(f"cannot {verb} a Ray cluster {where}: {first}{hint}") from None
    return True


def run_on_ray(path: str, mods: list[str], jobs: Iterable, todo: int, init: Callable,
               play: Callable, rebuild: Callable, progress: Callable | None,
               address: str | None) -> Iterator:
    """Play the jobs on Ray actors, one per CPU of the cluster; yield results in job order."""
    try:
        import ray
    except ImportError:
        raise BackendProblem(MISSING) from None
    started = _connect(ray, address)
    actors: list = []
    out: dict = {}  # object ref -> (chunk index, actor)
    try:
        bundle = rule_files(path, mods)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = chunk_size(todo, cpus)
        count = max(1, min(cpus, -(-todo // size)))
        shipped = ray.put(bundle)
        worker = ray.remote(num_cpus=1)(RuleWorker)
        actors = [worker.remote(shipped, init, play) for _ in range(count)]
        for why in ray.get([actor.problem.remote() for actor in actors]):
            if why:
                raise BackendProblem(why)
        busy = {i: 0 for i in range(count)}

        def submit(index, chunk):
            actor = min(busy, key=busy.get)
            busy[actor] += 1
            out[actors[actor].play_chunk.remote(chunk)] = (index, actor)

        def next_done():
            while True:
                done, _ = ray.wait(list(out), num_returns=1, timeout=0.5)
                if done:
                    break
            index, actor = out.pop(done[0])
            busy[actor] -= 1
            try:
                fields = ray.get(done[0])
            except ray.exceptions.RayActorError as exc:
                first = (str(exc).strip().splitlines() or ["it stopped"])[0]
                raise BackendProblem(f"a Ray worker stopped: {first}") from None
            return index, [rebuild(f) for f in fields]

        yield from ordered(chunked(jobs, size), submit, next_done, 2 * count, progress)
    finally:
        for actor in actors:
            ray.kill(actor)  # ends the work still out with it
        if started:
            ray.shutdown()
