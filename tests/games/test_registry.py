"""The registry of games (casino_audit/games/registry.py) is the one list every other list of games is read or
written from."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from casino_audit.documents import game_enums
from casino_audit.games import registry
from casino_audit.law.rulesets import builtin_names, load_builtin

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("file_name", sorted(game_enums.FILES))
def test_shipped_schemas_game_lists_are_the_registrys(file_name):
    shipped = (game_enums.SCHEMAS_DIR / file_name).read_text("utf-8")
    assert shipped == game_enums.generated(file_name), "run: python -m casino_audit.documents.game_enums"


def test_every_game_a_ruleset_holds_is_a_registered_game():
    for name in builtin_names():
        ruleset = load_builtin(name)
        games = set(ruleset.play) | {game for rule in ruleset.rules for game in rule.games or ()}
        assert games <= set(registry.names()), f"{name} names a game the registry does not list"


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda game: game.name)
def test_each_replayed_game_has_its_familys_modules(game):
    from casino_audit.replay import families
    from casino_audit.samples.log import family_module

    replay, sample = families.module(game.family), family_module(game.name)
    if game.family is None:
        assert replay is sample is game.engine is None
        return
    assert game.family in registry.FAMILIES
    assert game.name in replay.GAMES and game.name in sample.GAMES
    assert game.engine.__name__.startswith("casino_audit.games.")
    from casino_audit.edge import engine_for

    assert callable(engine_for(game.family))


def test_names_are_unique_and_every_family_has_a_game():
    assert len(set(registry.names())) == len(registry.GAMES)
    assert all(registry.games_of(family) for family in registry.FAMILIES)
    assert registry.family_of("trente_et_quarante") is None and registry.family_of("no_such_game") is None


def test_the_documents_page_lists_the_registrys_table_games():
    page = (ROOT / "docs" / "reference" / "documents.md").read_text("utf-8")
    found = re.search(r"its `game` \(([^)]*)\)", page)
    assert found and re.split(r",\s+", found[1]) == list(registry.names())


def test_importing_the_registry_imports_no_family():
    # A run over punto banco logs never imports the blackjack engine; the registry itself imports none.
    code = ("import sys; import casino_audit.games.registry as r; "
            "print(sorted(m for m in sys.modules if m.startswith('casino_audit.') and m not in "
            "('casino_audit.games', 'casino_audit.games.registry')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_game_names_its_familys_modules_lazily():
    game = registry.BY_NAME["punto_banco"]
    from casino_audit.games import baccarat
    from casino_audit.replay import baccarat as replay_baccarat, families

    assert game.engine is baccarat and families.for_game(game.name) is replay_baccarat
