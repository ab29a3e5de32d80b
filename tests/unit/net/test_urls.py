"""The one check of a URL before any request (``url_problem``) and a URL as a message shows it
(``shown_url``)."""

from __future__ import annotations

import pytest

from th_ext.net import MAX_URL_LENGTH, shown_url, url_problem


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("https://agent.example/a2a", ""),
        ("http://[::1]:8080/a2a", ""),
        ("http://[::1/a2a", "not a URL (Invalid IPv6 URL)"),
        ("http://127.0.0.1:65536/", "the port is not a number from 0 to 65535"),
        ("http://127.0.0.1:x/", "the port is not a number from 0 to 65535"),
        ("https:///card.json", "the URL names no host"),
        ("http://exa mple.com/", "the host has white space in it"),
        ("http://exa%20mple.com/", "the host has '%' in it, which no host name holds"),
        ("http://a.example%2F@b.example/", ""),  # "%" in the user name, not the host
        ("http://exa|mple.com/", "the host has '|' in it, which no host name holds"),
        ("http://[fe80::1%25eth0]:8080/", ""),  # an IPv6 address with its zone
        ("http://a.example/" + "a" * (MAX_URL_LENGTH - 17), ""),
        (
            "http://a.example/" + "a" * (MAX_URL_LENGTH - 16),
            "the URL is longer than 65,536 characters (65,537)",
        ),
    ],
)
def test_url_problem_says_why_no_request_can_go_to_a_url(url: str, problem: str) -> None:
    assert url_problem(url) == problem


def test_a_long_url_is_cut_and_a_url_s_credentials_are_never_shown() -> None:
    assert shown_url("https://agent.example/a2a") == "https://agent.example/a2a"
    assert shown_url("https://me:secret@agent.example/a2a") == "https://***@agent.example/a2a"
    long = "https://agent.example/" + "a" * 500
    assert shown_url(long) == long[:119] + "…"
    assert shown_url(long, 40) == long[:39] + "…"
