"""`casino-audit sample-log` writes logs that `check` passes (issue 22): every game of the code's registry
(replay.families) under every shipped ruleset that `sample-log` deals it for, through `check`, with no finding at
error or warning. A combination the sample refuses for a parameter the law leaves out is dealt with that
parameter's first value where the ruleset lists its values (`one_of`), as a house would give it to both commands.
Small logs: the point is that every rule passes them, not how long they are."""

from __future__ import annotations

import json
import re

import pytest

from casino_audit.games import registry
from casino_audit.law.rulesets import builtin_names, load_builtin

COUPS = 120


def _combinations():
    return [(name, game) for name in builtin_names() for game in registry.replayed()]


def _sample(cli, path, code: str, game: str, params: list[str]):
    return cli("sample-log", game, "-j", code, "--coups", str(COUPS), "-o", str(path),
               *[arg for value in params for arg in ("--param", value)])


@pytest.mark.parametrize("code, game", _combinations())
def test_every_sample_passes_check(cli, tmp_path, code, game):
    ruleset = load_builtin(code)
    code = ruleset.code
    params: list[str] = []
    for attempt in range(6):
        path = tmp_path / f"sample-{attempt}.jsonl"
        done = _sample(cli, path, code, game, params)
        if done.returncode == 0:
            break
        if "states nothing of" in done.stderr:
            pytest.skip(f"sample-log offers no {game} log under {code}: {done.stderr.strip()}")
        named = [name for name in re.findall(r"[a-z_]+", done.stderr) if name in ruleset.params
                 and not any(p.startswith(name + "=") for p in params)]
        values = [(name, ruleset.params[name].one_of) for name in named]
        if not values or not all(one_of for _, one_of in values):
            pytest.skip(f"sample-log needs a parameter whose values the ruleset does not list: {done.stderr.strip()}")
        params += [f"{name}={one_of[0]}" for name, one_of in values]
    else:
        pytest.fail(f"sample-log {game} -j {code} refused: {done.stderr}")
    checked = cli("check", str(path), "-j", code, "--format", "json",
                  *[arg for value in params for arg in ("--param", value)])
    assert checked.returncode in (0, 1), checked.stderr
    report = json.loads(checked.stdout)
    breaches = [f"{f['rule_id']} {f['severity']} {f.get('line')}: {f['message']}" for f in report["findings"]
                if f["severity"] in ("error", "warning")]
    assert breaches == [], f"sample-log {game} -j {code} {' '.join(params)}"
