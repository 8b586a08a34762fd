"""A shuffler or shuffling shoe a table configuration shows but says is not used leaves no hand rule of the deal
switched off in silence (MC stud's hand shuffle and cut, PT blackjack's shoe cards, PT bacará's decks): a feature
shown counts as present unless the filing says otherwise. Each was a breaching filing that exited 0."""

from __future__ import annotations

from helpers.filer import report_of, ids, example


def test_mc_stud_shuffler_not_used_but_deals_skips_hand_shuffle_and_cut(tmp_path):
    """BYPASS (exit 0). MC-STUD-SHUFFLE and MC-STUD-CUT-CARD are switched off by `when: /shuffler/deals differs
    true`, i.e. by `deals: true` alone, even when the same filing says the shuffler is NOT used (`used: false`).
    The AM 2003-281 waives the hand shuffle and the cuts only "s'il est fait usage d'un mélangeur distributeur";
    a table whose shuffler-dealer is not used is shuffled and cut by hand. The README says a feature counts as
    used "unless it says `used: false`" - here it does say so, yet the waiver still applies. A Monaco stud table
    that declares no shuffles, no cuts and no cut card passes."""
    text = example("mc/table-stud-poker-shuffler.yaml").replace(
        "shuffler: {used: true, deals: true}", "shuffler: {used: false, deals: true}")
    assert "used: false, deals: true" in text
    (tmp_path / "stud.yaml").write_text(text, "utf-8")
    done, report = report_of("stud.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert {"MC-STUD-SHUFFLE", "MC-STUD-CUT-CARD"} <= ids(report)


def test_pt_blackjack_shuffling_shoe_not_used_skips_shoe_cards(tmp_path):
    """BYPASS (exit 0). Same hole in Portugal: PT-BJ-SHOE (two special cards) and PT-BJ-WARNING-CARD (50th card
    from the end) apply `when /shuffler/deals differs true`; n.º 52 waives them only where the automatic
    shuffling shoe is used. `shuffler: {used: false, deals: true}` - the shoe is declared not used - and a table
    with no special cards and no warning card passes (with `shuffler: {used: false}` alone it fails, 2 errors)."""
    (tmp_path / "bj.yaml").write_text("""\
kind: table
jurisdiction: PT
game: blackjack
filing: {casino: Casino Estoril, date: "2026-11-02", reference: IGJ-BJ-015}
table: {number: BJ5, seats: 7, shape: semicircular}
cards: {decks: 6, cards_per_deck: 52, player_cut: false}
shuffler: {used: false, deals: true}
shoe: {used: true}
chips: {media: [chips]}
stakes: {minimum_eur: 10, maximum_eur: 300}
payouts: {blackjack: 1.5, jogada_ganha: 1, seguro: 2, premio_especial: 3}
insurance: {maximum_fraction_of_bet: 0.5}
""", "utf-8")
    done, report = report_of("bj.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert {"PT-BJ-SHOE", "PT-BJ-WARNING-CARD"} <= ids(report)


def test_pt_bacara_double_six_decks_with_unused_shuffling_shoe(tmp_path):
    """BYPASS (exit 0). PT-BAC-DECKS-DOUBLE (a double table uses eight decks) applies `when /shuffler/deals differs
    true`, and PT-BAC-DECKS-SHOE (six decks) `when deals equals true`, neither looking at `used`. A double Macau
    table that says its shuffling shoe is not used (`used: false, deals: true`) may play with six decks and
    passes; the law's six-deck exception (n.º 5, b) is for tables that use the shuffling shoe."""
    text = example("pt/table-bacara-macau-double.yaml").replace(
        "shuffler: {used: true, deals: true}", "shuffler: {used: false, deals: true}")
    assert "used: false, deals: true" in text and "decks: 6" in text
    (tmp_path / "macau.yaml").write_text(text, "utf-8")
    done, report = report_of("macau.yaml", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, report["summary"], sorted(ids(report)))
    assert "PT-BAC-DECKS-DOUBLE" in ids(report)
