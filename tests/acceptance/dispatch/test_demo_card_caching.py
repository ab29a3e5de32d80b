"""The demo agent serves its card as A2A 1.0 section 8.6.1 asks, over real loopback requests:
``Cache-Control`` with a max-age, an ``ETag`` and a ``Last-Modified``, and a 304 with no body
to a condition the card meets (``If-None-Match``, or ``If-Modified-Since`` alone)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import httpx
import pytest

from th_ext.demo import DemoServer, DemoVariant
from th_ext.net._caching import (
    entity_tag,
    format_http_date,
    parse_cache_control,
    parse_http_date,
)

from .conftest import Result

Agent = Callable[[DemoVariant], DemoServer]


def get(url: str, **headers: str) -> httpx.Response:
    with httpx.Client(trust_env=False) as client:
        return client.get(url, headers={k.replace("_", "-"): v for k, v in headers.items()})


def test_the_card_says_how_long_it_may_be_kept_and_carries_both_validators(
    demo_agent: Agent,
) -> None:
    answer = get(demo_agent(DemoVariant.CORRECT).card_url)
    assert answer.status_code == 200
    cache_control = parse_cache_control(answer.headers["cache-control"])
    assert cache_control.seconds("max-age") == 300 and cache_control.forbids_caching() is None
    assert entity_tag(answer.headers["etag"])
    parse_http_date(answer.headers["last-modified"])  # an IMF-fixdate


def test_if_none_match_with_the_card_s_tag_is_answered_304_without_a_body(
    demo_agent: Agent,
) -> None:
    url = demo_agent(DemoVariant.CORRECT).card_url
    first = get(url)
    again = get(url, If_None_Match=first.headers["etag"])
    assert again.status_code == 304
    assert again.content == b""
    assert "content-type" not in again.headers and "content-length" not in again.headers
    for field in ("etag", "cache-control", "last-modified"):
        assert again.headers[field] == first.headers[field]
    assert get(url, If_None_Match='"another card"').status_code == 200
    assert get(url, If_None_Match="*").status_code == 304


def test_if_modified_since_is_answered_by_the_card_s_last_modified(demo_agent: Agent) -> None:
    url = demo_agent(DemoVariant.CORRECT).card_url
    first = get(url)
    modified = parse_http_date(first.headers["last-modified"])
    unchanged = get(url, If_Modified_Since=first.headers["last-modified"])
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert unchanged.headers["etag"] == first.headers["etag"]
    later = format_http_date(modified + timedelta(days=1))
    assert get(url, If_Modified_Since=later).status_code == 304
    earlier = format_http_date(modified - timedelta(seconds=1))
    changed = get(url, If_Modified_Since=earlier)
    assert changed.status_code == 200 and changed.json()["name"] == "th-ext demo agent"
    # an obsolete date form is read too; a value that is no date is ignored
    obsolete = (modified + timedelta(days=1)).strftime("%A, %d-%b-%y %H:%M:%S GMT")
    assert get(url, If_Modified_Since=obsolete).status_code == 304
    assert get(url, If_Modified_Since="yesterday").status_code == 200


def test_if_none_match_wins_over_if_modified_since(demo_agent: Agent) -> None:
    url = demo_agent(DemoVariant.CORRECT).card_url
    first = get(url)
    both = get(
        url, If_None_Match='"another card"', If_Modified_Since=first.headers["last-modified"]
    )
    assert both.status_code == 200 and both.content == first.content


@pytest.mark.parametrize("path", ["/a2a", "/rest/tasks/none"])
def test_no_other_path_gets_the_card_s_validators(demo_agent: Agent, path: str) -> None:
    answer = get(demo_agent(DemoVariant.CORRECT).base_url + path)
    assert "last-modified" not in answer.headers


def test_validate_says_nothing_of_caching_on_the_demo_card(
    demo_agent: Agent, th_ext: Callable[..., Result]
) -> None:
    result = th_ext("validate", demo_agent(DemoVariant.CORRECT).base_url, "--strict", "-f", "json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["problems"] == []
