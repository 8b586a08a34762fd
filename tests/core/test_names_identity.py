"""Names are compared by what a person sees: a name that looks like another is that name (the confusable skeleton
of UTS #39 over Unicode's confusables.txt, shipped in the package), and a name that says nothing (empty, spaces, an
invisible, format or lone combining character) is no one, refused where it is written."""

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_audit.core.display import CONFUSABLES, _prototypes, nameless, same_name, skeleton
from helpers.game_logs import BJ_PARAMS, FRENCH, RED, blackjack_log
from helpers.game_logs import roulette_coup, run_log

# --- the skeleton: UTS #39, section 4, over the data as Unicode publishes it ------------------------------------
def test_the_confusables_data_is_unicodes_whole_file():
    text = Path(CONFUSABLES).read_text("utf-8-sig")
    assert "# Unicode Security Mechanisms for UTS #39" in text and "# Version: 17.0.0" in text
    total = int(text.rsplit("# total: ", 1)[1].split()[0])
    entries = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert total == len(entries) == len(_prototypes()) == 6565
    # the skeleton's ASCII path (no NFD) rests on this: every ASCII source's prototype is in NFD already
    assert all(unicodedata.normalize("NFD", text) == text for code, text in _prototypes().items() if code < 0x80)


@pytest.mark.parametrize("source, prototype", [
    ("\u0430", "a"),       # 0430 ; 0061 ; MA  # ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A
    ("\u0421", "C"),       # 0421 ; 0043 ; MA  # ( С → C ) CYRILLIC CAPITAL LETTER ES → LATIN CAPITAL LETTER C
    ("\uff23", "C"),       # FF23 ; 0043 ; MA  # ( Ｃ → C ) FULLWIDTH LATIN CAPITAL LETTER C
    ("1", "l"), ("I", "l"), ("\u0399", "l"), ("\u2160", "l"),  # DIGIT ONE, LATIN I, GREEK IOTA, ROMAN ONE → l
    ("0", "O"),            # 0030 ; 004F ; MA  # ( 0 → O ) DIGIT ZERO → LATIN CAPITAL LETTER O
    ("m", "rn"),           # 006D ; 0072 006E ; MA  # ( m → rn )
])
def test_the_skeleton_maps_each_character_to_its_prototype(source, prototype):
    assert skeleton(source) == prototype


def test_the_skeleton_is_nfd_then_prototypes_then_nfd_without_default_ignorables():
    # the standard's own example of a mixed-script spoof: "paypal" with two Cyrillic а
    assert skeleton("p\u0430yp\u0430l") == skeleton("paypal") == "paypal"
    assert skeleton("\u0421-10") == skeleton("C-10") == "C-lO"
    assert skeleton("C-1\u200b0") == skeleton("C-10")  # a zero-width space is default-ignorable: removed
    assert skeleton("Jos\u00e9") == skeleton("Jose\u0301") == unicodedata.normalize("NFD", "Jos\u00e9")
    assert skeleton("A") != skeleton("a")  # the skeleton keeps case, as the standard does


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12))
@settings(max_examples=300, deadline=None)
def test_the_skeleton_is_in_nfd_and_a_name_compared_is_compared_as_itself(text):
    assert unicodedata.is_normalized("NFD", skeleton(text))
    assert same_name(same_name(text)) == same_name(same_name(same_name(text)))


# --- same_name: a homoglyph, a case, a compatibility form are the same name -------------------------------------
HOMOGLYPHS = {char: text for char, text in ((chr(code), prototype) for code, prototype in _prototypes().items())
              if text.isascii() and text.isalnum() and len(text) == 1 and char.isalnum()}


@given(st.text(alphabet="ACELMOPTXabcdeghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10), st.data())
@settings(max_examples=300, deadline=None)
def test_a_name_with_any_of_its_letters_swapped_for_a_look_alike_is_the_same_name(name, data):
    lookalikes = {}
    for char, text in HOMOGLYPHS.items():
        lookalikes.setdefault(text, []).append(char)
    spoof = "".join(data.draw(st.sampled_from([char, *lookalikes.get(char, [])])) for char in name)
    assert same_name(spoof) == same_name(name)
    assert same_name(name.upper()) == same_name(name.lower()) == same_name(name)


@pytest.mark.parametrize("one, other", [
    ("\u0421-10", "C-10"),                    # Cyrillic Es
    ("\u0412-12", "B-12"), ("\u0432-12", "B-12"),  # Cyrillic Ve, both cases
    ("\u039d-1", "N-1"),                      # Greek Nu
    ("\uff23-\uff11\uff10", "C-10"),          # fullwidth
    ("C-1O", "c-10"), ("Ines", "INES"), ("C-7 ", "c-7"),
    ("Jos\u00e9", "Jose\u0301"),
])
def test_names_a_person_cannot_tell_apart_are_one(one, other):
    assert same_name(one) == same_name(other)


@pytest.mark.parametrize("one, other", [("C-7", "C-8"), ("C-10", "C-100"), ("Jos\u00e9", "Jose"), ("A-1", "B-1")])
def test_names_a_person_tells_apart_stay_two(one, other):
    assert same_name(one) != same_name(other)


@pytest.mark.parametrize("name", ["", " ", "\t", "\u200b", "C-\u200b7", "C-7\u034f", "C-7\ufe0f", "\u2066\u2069",
                                  "\u0301", "C- \u0301", "\ue000", "C-7\u00ad", "\u00a0", "\u3000", "\u3164", "\u2800"])
def test_a_name_that_says_nothing_is_refused(name):
    assert nameless(name)


@pytest.mark.parametrize("name", ["C-7", "Jos\u00e9", "Jose\u0301", "\u0421-10", "\uff23-7", "Ana Lopes"])
def test_a_name_a_reader_can_read_is_a_name(name):
    assert nameless(name) is None


# --- the staff-turn rule under each trick: a spinner at the ball three hours ------------------------------------
def three_hours(alternate: str) -> list[dict]:
    """A coup every 10 minutes from 20:00 to 23:00, the spinner written "C-7" and `alternate` by turns."""
    coups = []
    for i in range(19):
        coup = roulette_coup(i + 1, 1, RED)
        coup["time"] = f"2026-11-02T{20 + i // 6}:{i % 6 * 10:02d}:00"
        coup["staff"] = {"spinner": "C-7" if i % 2 == 0 else alternate}
        coups.append(coup)
    return coups


@pytest.mark.parametrize("trick, alternate, refused", [
    ("homoglyph", "\u0421-7", None),          # Cyrillic Es
    ("homoglyph, Greek", "\u03f9-7", None),   # GREEK CAPITAL LUNATE SIGMA SYMBOL, a C
    ("zero-width only", "\u200b", "LOAD-AMBIGUOUS"),
    ("zero-width inside", "C-\u200b7", "LOAD-AMBIGUOUS"),
    ("grapheme joiner", "C-7\u034f", "LOAD-AMBIGUOUS"),
    ("combining only", "\u0301", "LOAD-AMBIGUOUS"),
    ("empty", "", "SHAPE-INVALID"),
    ("whitespace", "   ", "SHAPE-INVALID"),
    ("format characters only", "\u2066\u2069", "LOAD-AMBIGUOUS"),
    ("fullwidth", "\uff23-\uff17", None),
])
def test_a_spinner_at_the_ball_three_hours_is_found_under_every_trick(cli, tmp_path, trick, alternate, refused):
    code, found = run_log(cli, tmp_path, FRENCH, three_hours(alternate))
    assert code == 1
    assert ("PT-ROUL-LOG-SPINNER", 9, "/staff" if refused else "/staff/spinner") in found, (trick, found)
    if refused:  # said once, where the name is first written (coup 2, line 3), at the field
        assert (refused, 3, "/staff/spinner") in found and [f[0] for f in found].count(refused) == 1, found


def test_a_real_relief_every_coup_is_no_breach(cli, tmp_path):
    assert run_log(cli, tmp_path, FRENCH, three_hours("C-8")) == (0, [])
    # another croupier whose name is written in Cyrillic is another croupier still
    assert run_log(cli, tmp_path, FRENCH, three_hours("\u0421-8")) == (0, [])


# --- sessions and tables ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("written, refused", [("\u0405\u0031", None), ("S\u200b1", "LOAD-AMBIGUOUS"),
                                               (" ", "SHAPE-INVALID")])
def test_a_session_written_otherwise_is_the_same_session(cli, tmp_path, written, refused):
    """LU Art. 33, al. 3: the minimum lowered within session S1, at a coup whose session is written "Ѕ1" (Cyrillic
    Dze), "S1" with a zero-width space or a space: a new session to the log's reader before, and the change
    passed."""
    header, coups = blackjack_log()
    coups[5]["limits"] = {"minimum": 5, "maximum": 1000}
    coups[5]["session"] = written
    code, found = run_log(cli, tmp_path, header, coups, *BJ_PARAMS)
    assert code == 1 and ("LU-BJ-LOG-MINIMUM-UNCHANGED", 7, "/limits/minimum") in found, found
    if refused:
        assert (refused, 7, "/session") in found


@pytest.mark.parametrize("field", ["table", "casino"])
def test_a_header_name_that_says_nothing_is_refused_at_its_field(cli, tmp_path, field):
    header, coups = blackjack_log()
    header[field] = "\u200b"
    code, found = run_log(cli, tmp_path, header, coups, *BJ_PARAMS)
    assert code == 1 and ("LOAD-AMBIGUOUS", 1, f"/{field}") in found, found


@pytest.mark.parametrize("chance", ["r\u043euge", "rouge\u200b", "\uff52ouge", "\u200b"])
def test_a_chance_written_with_a_look_alike_is_no_chance_of_the_game(cli, tmp_path, chance):
    """Chances are matched exactly against the game's names: one written with a look-alike, an invisible or a
    fullwidth letter is a bet on no chance of the game (LOG-CHANCES), and its stake is still held to the table's
    limits, never passed as a chance the limits do not reach."""
    from helpers.game_logs import LU_ENGLISH

    coups = [roulette_coup(1, 1, {"seat": 1, "chance": chance, "stake": 2000, "net": 2000})]
    code, found = run_log(cli, tmp_path, LU_ENGLISH, coups)
    assert code == 1 and ("LU-EROUL-LOG-CHANCES", 2, "/bets/0/chance") in found \
        and ("LU-ROUL-LOG-LIMITS", 2, "/bets/0/stake") in found, found
