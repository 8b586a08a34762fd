"""Which files a run checks: the paths given walked (directories in name order, links and hidden files left
out), each file listed as checked or skipped with the reason; config files and the files a waiver or a baseline
sets aside are not filings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from casino_audit.core import findings as F
from casino_audit.core.display import shown_path
from casino_audit.core.findings import Finding, Severity
from casino_audit.core.results import FileRecord
from casino_audit.read.loader import load_file
from casino_audit.read.parsers import WALKED_EXTENSIONS
from casino_audit.run.config import is_config_name


class UsageError(Exception):
    """A path given that names no file: the command's usage, not a finding."""


def is_config_file(path: str) -> bool:
    """A file named like a config file is one only if it reads as one: a single mapping with no `kind:`. A filing
    named `machine-7.casino-audit.yaml` is a filing."""
    loaded = load_file(path)
    return (not loaded.findings and len(loaded.documents) == 1 and isinstance(loaded.documents[0].data, dict)
            and "kind" not in loaded.documents[0].data)


def _skipped(path: str, reason: str) -> FileRecord:
    return FileRecord(path, "skipped", reason=reason)


def _inside(path: str, root: str) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def walk(root: str, to_check: list[str], records: list[FileRecord], problems: list[Finding],
         aside: dict[str, str] | None = None) -> None:
    """Walk a directory without recursion (a tree 1,200 levels deep is still walked), in sorted order.
    Hidden entries are left out; links are followed only to files inside the tree; a directory that cannot be
    read is a finding, never a silent gap."""
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as error:
            reason = f"cannot read the directory: {error.strerror or error}"
            records.append(FileRecord(directory, "unreadable", reason=reason))
            problems.append(Finding(F.LOAD_UNREADABLE, Severity.ERROR, reason + "; the files in it were not checked",
                                    directory))
            continue
        subdirectories = []
        for entry in entries:
            full = entry.name if directory == os.curdir else entry.path  # `x.yaml`, not `./x.yaml`
            if entry.name.startswith("."):  # .git and friends: listed, so an inspector knows they are there
                records.append(_skipped(full, "hidden (its name starts with a dot; name it to check it)"))
                continue
            try:
                is_link, is_dir = entry.is_symlink(), entry.is_dir()
            except OSError as error:
                records.append(FileRecord(full, "unreadable", reason=str(error.strerror or error)))
                problems.append(Finding(F.LOAD_UNREADABLE, Severity.ERROR, f"cannot read: {error.strerror or error}",
                                        full))
                continue
            if is_dir:
                if is_link:  # a linked directory could lead anywhere, or round in a circle: say so, do not follow
                    records.append(_skipped(full, "a link to a directory, not followed (name it to check it)"))
                else:
                    subdirectories.append(full)
            elif is_config_name(entry.name) and is_config_file(full):
                records.append(_skipped(full, "a casino-audit config file, not a filing"))
            elif aside and os.path.realpath(full) in aside:
                records.append(_skipped(full, aside[os.path.realpath(full)]))
            elif not entry.name.lower().endswith(WALKED_EXTENSIONS):
                records.append(_skipped(full, "not a YAML or JSON file (name it to check it)"))
            elif is_link and not _inside(full, root):
                records.append(_skipped(full, "a link to a file outside the directory, not followed "
                                              "(name it to check it)"))
            else:
                to_check.append(full)
        stack.extend(reversed(subdirectories))


def discover(paths: Iterable[str], aside: dict[str, str] | None = None, stdin: str | None = None) \
        -> tuple[list[str], list[FileRecord], list[Finding]]:
    """Files to check; the paths met in walked directories that are not filings (skipped) or cannot be read; and
    the findings on those. A file named on the command line is read whatever its extension, unless it is a
    casino-audit config file. `aside`: real paths of the run's own files (the baseline) -> why they are not
    filings. `-` is standard input, checked under the name `stdin` (`-`, or --stdin-filename's), once."""
    to_check: list[str] = []
    records: list[FileRecord] = []
    problems: list[Finding] = []
    if stdin not in (None, "-") and stdin in paths:  # one name, two files: which one a finding is about is ambiguous
        raise UsageError(f"{stdin} is both a path given and standard input's name (--stdin-filename); name "
                         "standard input otherwise")
    for raw in paths:
        raw = shown_path(raw) if raw != "-" else raw
        path = Path(raw)
        if raw == "-":
            if stdin is None or stdin in to_check:
                raise UsageError("- (standard input) can be read only once" if stdin is not None else
                                 "- names standard input, which this run does not read")
            to_check.append(stdin)
        elif path.is_dir():
            walk(raw, to_check, records, problems, aside)
        elif aside and os.path.realpath(raw) in aside:
            records.append(_skipped(raw, aside[os.path.realpath(raw)]))
        elif is_config_name(path.name) and is_config_file(raw):  # pre-commit and globs pass config files along
            records.append(_skipped(raw, "a casino-audit config file, not a filing"))
        elif path.exists() or path.is_symlink():
            to_check.append(raw)
        else:
            raise UsageError(f"no such file or directory: {raw}")
    return to_check, records, problems
