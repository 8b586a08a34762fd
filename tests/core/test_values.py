"""Reading values exactly (casino_audit.core.values): no float is a number, amounts and rates as a person
writes them, values quoted whole up to a bound. Written where mutation testing (tools/mutate.py) showed the
suite did not bite: each names the fact a mutant broke without any test failing."""

from decimal import Decimal
from fractions import Fraction

import pytest

from casino_audit.core import values
from casino_audit.games import roulette


@pytest.mark.parametrize("number", [0.5, 85.0, float("nan"), 1 + 0j])
def test_a_float_is_never_read_as_a_number(number):
    assert values.to_decimal(number) is None


def test_a_value_is_quoted_whole_up_to_80_characters_and_cut_after():
    assert values.show("x" * 80) == repr("x" * 80)
    assert values.show("x" * 81) == repr("x" * 80) + "... (1 more characters)"
    assert values.show("é" * 1080) == repr("é" * 80) + "... (1,000 more characters)"
    assert str(values.OutOfRange("9" * 80)) == "9" * 80
    assert repr(values.OutOfRange("9" * 81)) == "9" * 80 + "..."
    assert repr(values.OutOfRange("1E+400")) == "1E+400"


def test_leading_zeros_do_not_count_as_digits_of_an_amount():
    assert values.bounded_decimal("0" * 70 + "5") == 5  # a long text, one digit
    assert values.bounded_decimal("1." + "0" * 59 + "1") is None  # 61 digits
    assert values.bounded_decimal("1." + "0" * 58 + "1") == Decimal("1." + "0" * 58 + "1")  # 60 digits


@pytest.mark.parametrize("text", ["NaN", "-NaN", "sNaN", "Infinity", "-Infinity", "inf"])
def test_nan_and_the_infinities_are_no_numbers_as_text_or_as_decimals(text):
    assert values.bounded_decimal(text) is None
    assert values.to_decimal(text) is None and values.to_decimal(Decimal(text)) is None
    assert values.log_number(text) == values.OutOfRange(text)


def test_out_of_range_numbers_are_equal_by_their_text():
    big = values.OutOfRange("1E+400")
    assert big == values.OutOfRange("1E+400") and big != values.OutOfRange("1E+401") and big != "1E+400"
    assert hash(big) == hash(values.OutOfRange("1E+400")) and len({big, values.OutOfRange("1E+400")}) == 1


def test_a_quotient_is_about_only_when_it_is_rounded_whatever_the_flags_before():
    import decimal
    assert values.show_quotient(Fraction(1, 4)) == "0.25" and values.show_quotient(Fraction(400)) == "400"
    assert values.show_quotient(Fraction(1, 3)) == "about 0.3333333333333333333333333333"
    with decimal.localcontext() as context:
        context.flags[decimal.Inexact] = True  # an earlier inexact operation in this thread
        context.prec = 5
        assert values.show_quotient(Fraction(1, 4)) == "0.25"
        assert values.show_quotient(Fraction(10 ** 27 + 1, 10 ** 27)) == "1.000000000000000000000000001"


@pytest.mark.parametrize("text, read", [("1E+30", True), ("9.9E+30", True), ("1E+31", False),
                                        ("1E-30", True), ("1E-31", False), ("-1E+30", True)])
def test_an_amount_is_a_number_of_at_most_30_places_either_side_of_the_point(text, read):
    assert (values.bounded_decimal(text) == Decimal(text)) is read


@pytest.mark.parametrize("text", ["85", "0.85", " 85 ", "85 percent", "%85"])
def test_a_rate_without_its_percent_sign_is_not_read(text):
    assert values.to_decimal(text, "percent") is None  # ambiguous: 85 % or 0.85 %
    assert values.to_decimal(Decimal("85"), "percent") is None and values.to_decimal(85, "percent") is None
    assert values.to_decimal(text + " %" if text.strip().isdigit() else "85 %", "percent") == 85


def test_a_percent_and_the_booleans_are_shown_as_a_person_reads_them():
    assert values.show(Decimal("85.5"), "percent") == "85.5 %" and values.show(Decimal("85.5")) == "85.5"
    assert (values.show(False), values.show(True), values.show(None)) == ("false", "true", "null")
