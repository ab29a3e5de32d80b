"""The caching header fields read strictly: Cache-Control's directives (RFC 9111 section 5.2),
HTTP dates held to IMF-fixdate, entity tags; and a hostile value refused in bounded work."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from th_ext.net._caching import (
    DELTA_SECONDS_CAP,
    MAX_FIELD_CHARS,
    MalformedHeaderError,
    entity_tag,
    format_http_date,
    parse_cache_control,
    parse_http_date,
    read_http_date,
)


@pytest.mark.parametrize(
    ("text", "directives"),
    [
        ("public, max-age=3600", (("public", None), ("max-age", "3600"))),
        ("Max-Age=60", (("max-age", "60"),)),
        ('max-age="60"', (("max-age", "60"),)),
        (",, public ,\t,", (("public", None),)),
        ('no-cache="Set-Cookie, X-A"', (("no-cache", "Set-Cookie, X-A"),)),
        ('ext="a \\"quoted\\" word"', (("ext", 'a "quoted" word'),)),
        ("community=UCI", (("community", "UCI"),)),
    ],
)
def test_a_well_formed_value_is_read_directive_by_directive(
    text: str, directives: tuple[tuple[str, str | None], ...]
) -> None:
    assert parse_cache_control(text).directives == directives


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("max-age=-1", "max-age=-1 is not a number of seconds (digits only, 0 or more)"),
        ("max-age=1h", "max-age=1h is not a number of seconds (digits only, 0 or more)"),
        ("max-age", "max-age has no number of seconds"),
        ("max-age=", "max-age= has no value a directive may take"),
        ("max-age=60, max-age=60", "max-age is given more than once"),
        ("public, MAX-AGE=1, max-age=2", "max-age is given more than once"),
        ("no-store=1", "no-store takes no value"),
        ("max-age = 60", "'=' at character 9, after max-age, where a comma should be"),
        ("public; max-age=60", "';' at character 7, after public, where a comma should be"),
        ("@public", "'@' at character 1 starts no directive"),
        ('x="never ends', "x= has a quoted value that never ends"),
        ('x="a\x01b"', "x= holds '\\x01' in its quoted value"),
        ("", "it holds no directive"),
        (" , ", "it holds no directive"),
    ],
)
def test_a_malformed_value_is_refused_with_where_it_breaks(text: str, reason: str) -> None:
    with pytest.raises(MalformedHeaderError) as refused:
        parse_cache_control(text)
    assert str(refused.value) == reason


def test_a_value_over_the_cap_is_refused_before_it_is_parsed() -> None:
    hostile = "public, " * (100 * 1024 // 8)  # 100 KB of a repeated directive
    with pytest.raises(MalformedHeaderError) as refused:
        parse_cache_control(hostile)
    assert (
        str(refused.value)
        == f"it is 102400 characters long, over the {MAX_FIELD_CHARS} th-ext reads"
    )
    # just under the cap, the same repetition is read to its second directive and no further
    with pytest.raises(MalformedHeaderError, match="public is given more than once"):
        parse_cache_control(hostile[: MAX_FIELD_CHARS - 8])


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("max-age=0", 0),
        ("max-age=0000086400", 86400),
        ("max-age=2147483647", 2147483647),
        ("max-age=2147483649", DELTA_SECONDS_CAP),
        ("max-age=" + "9" * 5000, DELTA_SECONDS_CAP),  # more digits than int() reads
    ],
)
def test_seconds_are_capped_at_2_to_the_31(text: str, seconds: int) -> None:
    assert parse_cache_control(text).seconds("max-age") == seconds


@pytest.mark.parametrize(
    ("text", "forbids"),
    [
        ("no-store", "no-store"),
        ("public, no-cache", "no-cache"),
        ("max-age=0", "max-age=0"),
        ("max-age=00", "max-age=0"),
        ('no-cache="Set-Cookie", max-age=60', None),  # only the named field
        ("public, max-age=60", None),
        ("private", None),
    ],
)
def test_what_forbids_reusing_the_response(text: str, forbids: str | None) -> None:
    assert parse_cache_control(text).forbids_caching() == forbids


def test_an_imf_fixdate_is_read_and_written_back_the_same() -> None:
    when = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT")
    assert when == datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)
    assert format_http_date(when) == "Sun, 06 Nov 1994 08:49:37 GMT"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0", "it is not an HTTP date"),
        ("yesterday", "it is not an HTTP date"),
        ("Sun, 31 Feb 1994 08:49:37 GMT", "it is not an HTTP date"),
        ("Sun, 06 Nov 1994 08:49:37 +0200", "it is not in GMT, as an HTTP date must be"),
        ("Sunday, 06-Nov-94 08:49:37 GMT", "it is not in the IMF-fixdate form"),
        ("Sun Nov  6 08:49:37 1994", "it is not in the IMF-fixdate form"),
        ("Sun, 06 Nov 1994 08:49:37 -0000", "it is not in the IMF-fixdate form"),
        ("Mon, 06 Nov 1994 08:49:37 GMT", "its day of the week is Mon, but 06 Nov 1994 is a Sun"),
        ("Sun, 06 Nov 2094 08:49:37 GMT", "its day of the week is Sun, but 06 Nov 2094 is a Sat"),
        ("sun, 06 Nov 1994 08:49:37 GMT", "it is not in the IMF-fixdate form"),  # its case
        ("x" * 100_000, "it is 100000 characters long: no HTTP date is"),
    ],
)
def test_a_date_not_in_imf_fixdate_is_refused(text: str, reason: str) -> None:
    with pytest.raises(MalformedHeaderError) as refused:
        parse_http_date(text)
    assert str(refused.value).startswith(reason)


def test_a_condition_s_date_is_read_in_every_form_a_recipient_accepts() -> None:
    expected = datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)
    for text in (
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ):
        assert read_http_date(text) == expected
    assert read_http_date("not a date") is None
    assert read_http_date("x" * 100_000) is None


@pytest.mark.parametrize("text", ['"v1"', 'W/"v1"', '""', '"sha-256:ab+/="', ' "v1" '])
def test_an_entity_tag_is_one_quoted_opaque_tag(text: str) -> None:
    assert entity_tag(text) == text.strip()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('"v\x01"', "it holds a control character"),
        ('"v1\x7f"', "it holds a control character"),
        ("v1", 'it is not a quoted entity tag such as "v1" or W/"v1"'),
        ('w/"v1"', 'it is not a quoted entity tag such as "v1" or W/"v1"'),
        ('"', 'it is not a quoted entity tag such as "v1" or W/"v1"'),
        ('"a b"', "it holds a character an entity tag may not (a space or a quote)"),
        ('"a", "b"', "it holds a character an entity tag may not (a space or a quote)"),
        ('"' + "a" * 100_000 + '"', "it is 100002 characters long, over the 8192 th-ext reads"),
    ],
)
def test_a_malformed_entity_tag_is_refused(text: str, reason: str) -> None:
    with pytest.raises(MalformedHeaderError) as refused:
        entity_tag(text)
    assert str(refused.value) == reason
