#!/usr/bin/env python3
"""Checks that Ferry builds where its users are (run by `make test`): outside the platform layer
(Sources/FerrySystem), no Swift file names the platform's C library (Glibc, Darwin, Musl), loops
on EINTR, or calls a function that exists on Linux alone. The layer itself gives each such call
a branch for Apple's systems. Exits 1 naming each file, line and call."""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYER = os.path.join("Sources", "FerrySystem")
FOLDERS = ["Sources", "Tools", "Plugins"]

# Linux-only calls and names: Darwin lacks them, or has a function of the same name that does
# something else (sendfile sends to sockets only there).
LINUX_ONLY = ["sendfile", "copy_file_range", "splice", "fallocate", "posix_fadvise", "mallopt", "malloc_trim",
              "memfd_create", "epoll_create", "epoll_ctl", "epoll_wait", "inotify_init", "inotify_add_watch",
              "pipe2", "accept4", "dup3", "statx", "renameat2", "sched_getaffinity", "prctl", "syncfs",
              "__errno_location", "O_DIRECT", "O_TMPFILE", "O_PATH"]
RULES = [
    (re.compile(r"^\s*(@_exported\s+)?import\s+(Glibc|Darwin|Musl)\b"), "imports the platform's C library (import FerrySystem)"),
    (re.compile(r"canImport\((Glibc|Darwin|Musl)\)"), "branches on the platform's C library (belongs in FerrySystem)"),
    (re.compile(r"\b(Glibc|Darwin|Musl)\."), "calls the platform's C library by module name"),
    (re.compile(r"\bEINTR\b"), "retries on EINTR by hand (SystemCall.read / writeAll do)"),
    (re.compile(r'"/proc/'), "reads /proc, which only Linux has"),
    (re.compile(r"\b(" + "|".join(LINUX_ONLY) + r")\b"), "calls a Linux-only function"),
]


def code(line):
    """The line without its comment and string literals' contents (keeps "/proc/" visible)."""
    line = re.sub(r"//.*", "", line)
    return re.sub(r'"(?!/proc/)(?:[^"\\]|\\.)*"', '""', line)


def main():
    problems = []
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            relative = os.path.relpath(directory, ROOT)
            if relative == LAYER or relative.startswith(LAYER + os.sep):
                continue
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                for number, line in enumerate(open(path, encoding="utf-8"), 1):
                    text = code(line)
                    for pattern, why in RULES:
                        match = pattern.search(text)
                        if match:
                            problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {match.group(0).strip()}: {why}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check_platform: {len(problems)} platform-specific call(s) outside Sources/FerrySystem", file=sys.stderr)
        return 1
    print("check_platform: no platform-specific call outside Sources/FerrySystem")
    return 0


if __name__ == "__main__":
    sys.exit(main())
