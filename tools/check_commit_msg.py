#!/usr/bin/env python3
"""The project's commit message convention, as a `commit-msg` hook (.pre-commit-config.yaml; CONTRIBUTING.md).

    area: summary in the present tense, at most 72 characters

    The body, after one blank line: why the change, and what it does.

The area is one word naming the part of the project changed (`meters`, `replay/baccarat`, `docs`, `tests`,
`house`): letters, digits and `-_./`, no space. Git's own subjects (a merge, a revert, `fixup!`, `squash!`,
`amend!`) pass as they are. Lines git strips before committing (comments, everything under the scissors line of
`git commit -v`) are not read. Usage: check_commit_msg.py FILE (the message file git hands to the hook); exit 0
when the message keeps the convention, 1 with each problem on standard error otherwise.
"""

from __future__ import annotations

import re
import sys

MAX_SUBJECT = 72
SUBJECT = re.compile(r"(?P<area>[A-Za-z0-9][A-Za-z0-9_./-]*): (?P<summary>\S.*)")
GIT_SUBJECTS = ("Merge ", "Revert ", "fixup! ", "squash! ", "amend! ")
SCISSORS = "# ------------------------ >8 ------------------------"


def message_lines(text: str) -> list[str]:
    """The message as git commits it: comment lines and the scissors part dropped, trailing blank lines too."""
    lines = []
    for line in text.splitlines():
        if line.startswith(SCISSORS):
            break
        if not line.startswith("#"):
            lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def problems(text: str) -> list[str]:
    """What breaks the convention in a commit message; [] when nothing does."""
    lines = message_lines(text)
    if not lines:
        return ["the message is empty"]
    subject = lines[0]
    if subject.startswith(GIT_SUBJECTS):
        return []
    found = []
    if len(subject) > MAX_SUBJECT:
        found.append(f"the subject is {len(subject)} characters long, over {MAX_SUBJECT}: keep the detail for the "
                     f"body")
    if not SUBJECT.fullmatch(subject):
        found.append(f"the subject {subject!r} is not `area: summary` (one word naming the part changed, a colon, "
                     f"a space, the summary)")
    if len(lines) < 2:
        found.append("there is no body: after a blank line, say why the change and what it does")
    elif lines[1]:
        found.append("the second line is not blank: one blank line separates the subject from the body")
    elif not any(line.strip() for line in lines[2:]):
        found.append("there is no body: after a blank line, say why the change and what it does")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: check_commit_msg.py COMMIT_MESSAGE_FILE", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8", errors="replace") as file:
        found = problems(file.read())
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    if found:
        print("the convention: `area: summary` (at most 72 characters), a blank line, then the body (CONTRIBUTING.md)",
              file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
