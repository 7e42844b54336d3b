"""A bot that tries to break out of its sandbox, for the hostile suite.

Usage: ``python escape_bot.py ATTACK`` with ``ARENA_ENDPOINT`` and ``ARENA_TOKEN`` set, and the
attack's targets in ``ATTACK_*`` variables (its manifest's ``env``): ``ATTACK_REFEREE`` (the referee's
pid), ``ATTACK_RIVAL`` (a rival bot's pid), ``ATTACK_DB`` (the results database), ``ATTACK_PORT`` (a
listening TCP port on 127.0.0.1), ``ATTACK_RIVAL_FILE`` (a file of a rival bot), ``ATTACK_MARKER``,
``ATTACK_HOSTNAME`` (the machine's host name), ``ATTACK_IPC_KEY`` (the key of a System V shared
memory segment the referee made; the bot makes one of its own at that key plus one) and
``ATTACK_CONFIG`` (the tournament's config file).
It speaks the wire directly (raw ZeroMQ and msgpack). At its first ``act`` it runs the attack and
puts what came of it in the reply's ``info`` (``{"outcome": ...}``, a list of strings, each starting
"blocked" or "ESCAPED"); otherwise it answers with the first legal action.

Attacks: tokens, memory, database, stop, network, write, daemon, affinity, forkbomb, memory-split,
disk, files, jail (see each function).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import signal
import socket
import sys
import time

import msgpack
import zmq


def _env(name: str) -> str:
    return os.environ.get(name, "")


def _try(what: str, attempt: object) -> str:
    """Run ``attempt`` (a callable); "ESCAPED: what" if it got through, else "blocked: ..."."""
    try:
        got = attempt()  # type: ignore[operator]
    except OSError as exc:
        return f"blocked: {what}: {exc.strerror or exc}"
    return f"ESCAPED: {what}: {got}"


def tokens() -> list[str]:
    """Look for another process's ARENA_TOKEN through /proc (rival's pid and any pid visible)."""
    mine = _env("ARENA_TOKEN").encode()
    found = []
    pids = {int(p) for p in os.listdir("/proc") if p.isdigit()} | {int(_env("ATTACK_RIVAL"))}
    for pid in sorted(pids):
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                for item in file.read().split(b"\0"):
                    if item.startswith(b"ARENA_TOKEN=") and item.split(b"=", 1)[1] != mine:
                        found.append(pid)
        except OSError:
            continue
    if found:
        return [f"ESCAPED: read a rival's token from /proc/{found[0]}/environ"]
    return [f"blocked: no other token among the {len(pids)} pids tried"]


def memory() -> list[str]:
    """Read the referee's memory through /proc/<pid>/mem."""
    pid = int(_env("ATTACK_REFEREE"))

    def read() -> str:
        with open(f"/proc/{pid}/maps") as maps:
            start = int(maps.readline().split("-")[0], 16)
        with open(f"/proc/{pid}/mem", "rb") as mem:
            mem.seek(start)
            return f"{len(mem.read(64))} bytes"

    return [_try("read the referee's memory", read)]


def database() -> list[str]:
    """Find the results database: by its path, and through ancestors' command lines."""
    path = _env("ATTACK_DB")

    def read() -> str:
        with open(path, "rb") as file:
            return f"{len(file.read(100))} bytes read"

    def write() -> str:
        with open(path, "r+b") as file:
            file.write(b"x")
            return "wrote it"

    seen = []
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                if path.encode() in file.read():
                    seen.append(pid)
        except OSError:
            continue
    found = f"ESCAPED: the path is on /proc/{seen[0]}/cmdline" if seen else "blocked: no command line names it"
    return [_try("read it", read), _try("write it", write), found]


def stop() -> list[str]:
    """SIGSTOP the referee and a rival (only these: run unconfined as root, a broader attack would
    stop the machine)."""
    return [_try(f"stop pid {pid}", lambda pid=pid: os.kill(pid, signal.SIGSTOP) or "stopped")
            for pid in (int(_env("ATTACK_REFEREE")), int(_env("ATTACK_RIVAL")))]


def network() -> list[str]:
    """Join the referee's network namespace, and reach a service on 127.0.0.1."""
    libc = ctypes.CDLL(None, use_errno=True)
    pid = int(_env("ATTACK_REFEREE"))

    def join() -> str:
        fd = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
        if libc.setns(fd, 0) != 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return "joined"

    def reach() -> str:
        socket.create_connection(("127.0.0.1", int(_env("ATTACK_PORT"))), timeout=1).close()
        return "connected"

    def unshare() -> str:
        if libc.unshare(0x10000000 | 0x40000000) != 0:  # CLONE_NEWUSER | CLONE_NEWNET
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return "made a user namespace"

    return [_try("setns into the referee's network", join), _try("reach 127.0.0.1", reach),
            _try("make a user namespace", unshare)]


def write() -> list[str]:
    """Write a rival's file, its own program, the system, and the rival's folder through /proc."""
    targets = [_env("ATTACK_RIVAL_FILE"), os.path.abspath(__file__), "/usr/planted",
               "/etc/planted", "/planted", f"/proc/{_env('ATTACK_RIVAL')}/cwd/planted"]

    def plant(path: str) -> str:
        with open(path, "a") as file:
            file.write("planted")
        return "written"

    return [_try(f"write {path}", lambda path=path: plant(path)) for path in targets]


def daemon() -> list[str]:
    """Leave a grandchild in a session of its own, to outlive the match (double fork)."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.environ["ATTACK_DAEMON"] = _env("ATTACK_MARKER")
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)"])
        os._exit(0)
    os.wait()
    return ["started: a daemon in a session of its own"]


def affinity() -> list[str]:
    """Widen its processors to every processor of the machine."""
    wanted = set(range(os.cpu_count() or 1))
    try:
        os.sched_setaffinity(0, wanted)
    except OSError:
        pass
    got = os.sched_getaffinity(0)
    verdict = "ESCAPED" if got == wanted and len(wanted) > 1 else "blocked"
    return [f"{verdict}: runs on {sorted(got)}"]


def forkbomb() -> list[str]:
    """Start as many processes as it can (up to 1000)."""
    children = []
    try:
        for _ in range(1000):
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            children.append(pid)
    except OSError:
        pass
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return [f"started {len(children)}"]


def memory_split() -> list[str]:
    """Hold 3 x 150 MiB in three children (each under the per-process address-space limit)."""
    children = []
    for _ in range(3):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                hoard = bytearray(150 << 20)
                for i in range(0, len(hoard), 4096):
                    hoard[i] = 1
                os.write(write, b"1")
            except MemoryError:
                os.write(write, b"0")
            time.sleep(60)
            os._exit(0)
        os.close(write)
        children.append((pid, read))
    held = 0
    for pid, read in children:
        held += os.read(read, 1) == b"1"
    time.sleep(0.3)  # for the out-of-memory killer
    alive = 0
    for pid, _ in children:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                alive += stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            pass
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return [f"held {held} x 150 MiB, {alive} children alive at once"]


def disk() -> list[str]:
    """Fill its folder, /tmp and /dev/shm until refused."""
    outcomes = []
    for folder in ("/tmp", "/dev/shm", os.getcwd()):
        written = 0
        try:
            with open(os.path.join(folder, "fill"), "wb") as file:
                chunk = b"x" * (1 << 20)
                while written < (2 << 30):
                    file.write(chunk)
                    file.flush()
                    written += len(chunk)
        except OSError as exc:
            outcomes.append(f"{folder}: {written >> 20} MiB, then {exc.strerror}")
            continue
        outcomes.append(f"{folder}: ESCAPED: 2 GiB")
    return outcomes


#: All of ``/etc`` a jailed bot may see (with network or without).
ETC_SHOWN = {"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "ssl",
             "ca-certificates", "nsswitch.conf", "mime.types", "resolv.conf", "hosts", "gai.conf",
             "services", "protocols"}
#: What a config's folder holds that a bot must never see: configs, databases, remote-seat keys.
SECRET_SUFFIXES = (".toml", ".db", ".db-wal", ".db-shm", ".remote", ".env")


def _own_files() -> set[str]:
    """The files its command names (the only files of its folder it should see)."""
    return {os.path.abspath(arg) for arg in sys.argv if os.path.isfile(arg)}


def _files_in(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if os.path.isfile(os.path.join(folder, n))]


def files() -> list[str]:
    """Look for the config, the database and neighbours: every file in its working folder (at
    any depth), in the folder of its own script, and in every folder above them; then open the
    config and the database by their paths."""
    own = _own_files()
    folders: set[str] = set()
    for start in (os.getcwd(), *(os.path.dirname(f) for f in own)):
        folder = start
        while True:
            folders.add(folder)
            if folder == "/":
                break
            folder = os.path.dirname(folder)
    for root, _, _ in os.walk(os.getcwd()):
        folders.add(root)
    seen = sorted(f for folder in folders for f in _files_in(folder) if f not in own)
    secrets = [f for f in seen if f.endswith(SECRET_SUFFIXES)]
    outcomes = [f"ESCAPED: sees {f}" for f in secrets]
    others = [f for f in seen if f not in secrets]
    if others:
        outcomes.append(f"ESCAPED: sees {len(others)} neighbours: {', '.join(others[:5])}")
    if not seen:
        outcomes.append(f"blocked: no file but its own in {len(folders)} folders")

    def read(path: str) -> str:
        with open(path, "rb") as file:
            return f"{len(file.read(100))} bytes read"

    for name in ("ATTACK_CONFIG", "ATTACK_DB"):
        if _env(name):
            outcomes.append(_try(f"open {_env(name)}", lambda path=_env(name): read(path)))
    return outcomes


def _libc_call(name: str, *args: object) -> int:
    """Call ``name`` of the C library; ``OSError`` with its errno if it returns -1."""
    libc = ctypes.CDLL(None, use_errno=True)
    result = int(getattr(libc, name)(*args))
    if result == -1:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result


def _status() -> dict[str, str]:
    with open("/proc/self/status") as status:
        return dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)


def _verdict(held: bool, what: str, got: object) -> str:
    return f"{'blocked' if held else 'ESCAPED'}: {what}: {got}"


def jail() -> list[str]:
    """Every promise of the jail, observed from inside: groups, capabilities, host name, control
    group, IPC, socket folder, environment, processes, network, identity, private folders."""
    status = _status()
    caps = {k: status[k] for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    groups = os.getgroups()
    with open("/proc/self/cgroup") as cgroup:
        paths = sorted({line.rstrip("\n").split(":", 2)[2] for line in cgroup})
    with open("/proc/self/uid_map") as uid_map:
        mapping = uid_map.read().split()
    with open("/proc/net/dev") as net:
        interfaces = sorted(line.split(":")[0].strip() for line in net.readlines()[2:])
    pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    allowed = {"PATH", "HOME", "TMPDIR", "LANG", "PWD"}
    leaked = sorted(n for n in os.environ if n not in allowed and not n.startswith(("ARENA_", "ATTACK_")))
    etc = sorted(set(os.listdir("/etc")) - ETC_SHOWN)
    host_key = int(_env("ATTACK_IPC_KEY"))
    socket_path = _env("ARENA_ENDPOINT").removeprefix("ipc://")
    socket_dir = os.path.dirname(socket_path)
    outcomes = [
        _verdict(set(groups) <= {os.getgid()}, "supplementary groups", groups),
        _verdict(set(caps.values()) == {"0000000000000000"}, "capabilities", caps),
        _verdict(status.get("NoNewPrivs") == "1", "no_new_privs", status.get("NoNewPrivs")),
        _verdict(socket.gethostname() != _env("ATTACK_HOSTNAME"), "host name", socket.gethostname()),
        _try("set the host name", lambda: _libc_call("sethostname", b"pwned", 5)),
        _verdict(paths == ["/"], "control group paths", paths),
        _verdict(os.getuid() == os.getgid() == 1000 and len(mapping) == 3, "identity inside",
                 (os.getuid(), os.getgid(), mapping)),
        _verdict(interfaces == ["lo"], "network interfaces", interfaces),
        _try("reach 127.0.0.1", lambda: socket.create_connection(
            ("127.0.0.1", int(_env("ATTACK_PORT"))), timeout=1).close()),
        _verdict(pids == [1, os.getpid()], "processes", pids),
        _verdict(not leaked, "environment beyond its own", leaked),
        _try("see the referee's shared memory", lambda: _libc_call("shmget", host_key, 0, 0)),
        "made: shared memory " + str(_libc_call("shmget", host_key + 1, 4096, 0o1600)),
        _try("create a file in its socket folder", lambda: open(os.path.join(socket_dir, "planted"), "x").close()),
        _try("replace its socket", lambda: os.rename(socket_path, socket_path + ".moved")),
        _verdict(os.listdir(os.path.dirname(socket_dir)) == [os.path.basename(socket_dir)],
                 "the hub's other sockets", os.listdir(os.path.dirname(socket_dir))),
        _verdict(not os.path.exists(_env("ATTACK_RIVAL_FILE")), "the rival's folder in /tmp",
                 _env("ATTACK_RIVAL_FILE")),
        _try("write its working folder", lambda: open("planted", "x").close()),
        _verdict(not etc, "the rest of /etc", etc),
        _verdict(importlib.util.find_spec("arena") is None, "the referee's code",
                 importlib.util.find_spec("arena")),
    ]
    return outcomes


ATTACKS = {"tokens": tokens, "memory": memory, "database": database, "stop": stop,
           "network": network, "write": write, "daemon": daemon, "affinity": affinity,
           "forkbomb": forkbomb, "memory-split": memory_split, "disk": disk, "files": files,
           "jail": jail}


def main() -> None:
    attack = ATTACKS[sys.argv[1]]
    context = zmq.Context()
    sock = context.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(os.environ["ARENA_ENDPOINT"])
    sock.send(msgpack.packb({"type": "hello", "protocol": 1, "name": sys.argv[1], "version": "0",
                             "token": os.environ["ARENA_TOKEN"]}))
    outcome: list[str] | None = None
    while True:
        message = msgpack.unpackb(sock.recv())
        kind = message["type"]
        if kind == "bye":
            return
        if kind == "ping":
            sock.send(msgpack.packb({"type": "pong", "seq": message["seq"]}))
        if kind != "act":
            continue
        reply = {"type": "action", "seq": message["seq"], "action": message["legal"][0]}
        if outcome is None:
            outcome = attack()
            reply["info"] = {"outcome": outcome}
        sock.send(msgpack.packb(reply))


if __name__ == "__main__":
    main()
