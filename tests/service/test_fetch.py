"""The guarded URL fetcher: what it refuses before sending anything, and the limits it keeps when it does fetch."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from ont_platform.errors import InputError
from ont_platform.service.fetch import (
    AddressPolicy,
    Fetcher,
    FetchFailed,
    URLRefused,
    redact,
    system_resolver,
)
from ont_platform.service.settings import FetchLimits, ServiceSettings
from tests.service.conftest import LOOPBACK_ONLY, Site


def never_resolve(host: str, port: int) -> list[str]:
    raise AssertionError(f"the resolver should not be asked about {host}")


def fixed(*addresses: str):
    def resolve(host: str, port: int) -> list[str]:
        return list(addresses)

    return resolve


class NoTransport(httpx.BaseTransport):
    """Fails the test if anything is sent."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"nothing should have been sent, but {request.url} was")


def refusing_fetcher(resolver=never_resolve, **policy: object) -> Fetcher:
    return Fetcher(AddressPolicy(**policy), resolver=resolver, transport=NoTransport())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.0.0.1:8000/admin",
        "http://10.0.0.5/",
        "http://10.255.1.1:8080/x",
        "http://172.16.3.4/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::1]:9000/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://[2002:7f00:1::]/",  # 6to4 around 127.0.0.1
        "http://[64:ff9b::a00:1]/",  # NAT64 around 10.0.0.1
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://100.64.0.1/",
    ],
)
def test_non_public_addresses_are_refused_before_anything_is_sent(url: str) -> None:
    with pytest.raises(URLRefused) as info:
        refusing_fetcher().fetch(url)
    assert "refused" in str(info.value)
    assert isinstance(info.value, InputError)


@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "127.1", "017700000001"])
def test_odd_spellings_of_loopback_resolve_to_loopback_and_are_refused(host: str) -> None:
    # The system resolver reads these forms as 127.0.0.1 (inet_aton); the check applies to what it returns.
    with pytest.raises(URLRefused, match="loopback"):
        refusing_fetcher(resolver=system_resolver).fetch(f"http://{host}/")


def test_a_hostname_resolving_to_a_private_address_is_refused() -> None:
    with pytest.raises(URLRefused, match="10.1.2.3 is a private address"):
        refusing_fetcher(resolver=fixed("10.1.2.3")).fetch("https://intranet.example.com/wiki")


def test_a_hostname_with_one_private_address_among_public_ones_is_refused() -> None:
    with pytest.raises(URLRefused, match="169.254.169.254"):
        refusing_fetcher(resolver=fixed("93.184.216.34", "169.254.169.254")).fetch("http://mixed.example.com/")


def test_the_resolver_is_monkeypatchable(monkeypatch: pytest.MonkeyPatch) -> None:
    from ont_platform.service import fetch

    monkeypatch.setattr(fetch, "system_resolver", fixed("::1"))
    with pytest.raises(URLRefused, match="::1 is a loopback address"):
        Fetcher(transport=NoTransport()).fetch("http://localhost.example/")


@pytest.mark.parametrize(
    "url, why",
    [
        ("ftp://example.com/file", "only http and https"),
        ("file:///etc/passwd", "only http and https"),
        ("gopher://example.com/", "only http and https"),
        ("http://user:secret@example.com/", "user name or password"),
        ("", "empty"),
        ("   ", "empty"),
        ("http:///nohost", "no host"),
        ("http://exa mple.com/", "not a valid URL"),
        ("https://example.com/" + "a" * 3000, "longer than"),
    ],
)
def test_urls_that_are_never_fetched(url: str, why: str) -> None:
    with pytest.raises(URLRefused, match=why):
        refusing_fetcher().fetch(url)


def test_errors_never_echo_credentials_or_query_strings() -> None:
    with pytest.raises(URLRefused) as info:
        refusing_fetcher(resolver=fixed("10.0.0.1")).fetch("https://api.example.com/data?token=s3cr3t#frag")
    assert "s3cr3t" not in str(info.value)
    assert "frag" not in str(info.value)
    assert redact("https://u:p@example.com:8443/a?key=1") == "https://example.com:8443/a?…"


def test_an_unresolvable_host_is_reported_as_such() -> None:
    def fail(host: str, port: int) -> list[str]:
        raise OSError("Name or service not known")

    with pytest.raises(FetchFailed) as info:
        refusing_fetcher(resolver=fail).fetch("http://no-such-host.example/")
    assert info.value.code == "unresolvable"


def test_the_connection_goes_to_the_checked_address_with_the_original_host() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, html="<p>안녕하세요</p>")

    fetcher = Fetcher(resolver=fixed("93.184.216.34"), transport=httpx.MockTransport(handler))
    page = fetcher.fetch("https://news.example.com/a?x=1")
    assert page.body == "<p>안녕하세요</p>".encode()
    (request,) = seen
    assert request.url.host == "93.184.216.34"  # pinned: no second lookup can change it
    assert request.headers["host"] == "news.example.com"  # the site still sees its own name
    assert request.extensions["sni_hostname"] == "news.example.com"  # and TLS checks that name
    assert page.url == "https://news.example.com/a?x=1"


def test_each_redirect_hop_is_resolved_and_checked_again() -> None:
    def resolve(host: str, port: int) -> list[str]:
        return {"public.example.com": ["93.184.216.34"], "internal.example.com": ["10.9.8.7"]}[host]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "http://internal.example.com/secret"})

    fetcher = Fetcher(resolver=resolve, transport=httpx.MockTransport(handler))
    with pytest.raises(URLRefused, match="10.9.8.7 is a private address"):
        fetcher.fetch("http://public.example.com/")


def test_proxy_variables_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://10.0.0.1:3128")
    monkeypatch.setenv("HTTPS_PROXY", "http://10.0.0.1:3128")
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, html="<p>ok</p>")

    Fetcher(resolver=fixed("93.184.216.34"), transport=httpx.MockTransport(handler)).fetch("http://example.com/")
    assert seen == ["http://93.184.216.34/"]


# -- against a real server on loopback -------------------------------------------------------------------------


def loopback_fetcher(**limits: object) -> Fetcher:
    return Fetcher(AddressPolicy(allowed_networks=LOOPBACK_ONLY), FetchLimits(**limits))  # type: ignore[arg-type]


def test_an_allowed_network_is_fetched(site: Site) -> None:
    page = loopback_fetcher().fetch(site.url("/article"))
    assert "에이크미" in page.body.decode("utf-8")
    assert page.charset == "utf-8"
    assert page.content_type == "text/html"


def test_loopback_is_refused_by_default_even_for_a_running_server(site: Site) -> None:
    before = len(site.requests)
    with pytest.raises(URLRefused, match="loopback"):
        Fetcher().fetch(site.url("/article"))
    assert len(site.requests) == before


@pytest.mark.parametrize(
    "target",
    ["10.0.0.1/", "192.168.0.10:8080/x", "169.254.169.254/latest/meta-data/", "[::1]/", "127.0.0.2/", "localhost.:1/"],
)
def test_a_redirect_to_a_non_public_address_is_refused(site: Site, target: str) -> None:
    # 127.0.0.1 is allowed for the first hop only: the redirect's target is checked again and refused.
    fetcher = Fetcher(
        AddressPolicy(allowed_networks=LOOPBACK_ONLY),
        resolver=lambda host, port: ["127.0.0.9"] if host.startswith("localhost") else [host],
    )
    with pytest.raises(URLRefused, match="refused"):
        fetcher.fetch(site.url(f"/redirect-to/{target}"))
    assert site.requests[-1][0] == f"/redirect-to/{target}"


def test_a_relative_redirect_on_an_allowed_host_is_followed(site: Site) -> None:
    page = loopback_fetcher().fetch(site.url("/redirect-local"))
    assert page.final_url == site.url("/article")
    assert page.redirects == [site.url("/article")]


def test_redirect_loops_stop_at_the_limit(site: Site) -> None:
    with pytest.raises(FetchFailed) as info:
        loopback_fetcher(max_redirects=3).fetch(site.url("/loop"))
    assert info.value.code == "redirects"


def test_bodies_over_the_limit_are_refused(site: Site) -> None:
    with pytest.raises(FetchFailed, match="over the limit") as info:
        loopback_fetcher(max_bytes=50_000).fetch(site.url("/big"))
    assert info.value.code == "too_large"
    with pytest.raises(FetchFailed, match="over the limit"):
        loopback_fetcher(max_bytes=50_000).fetch(site.url("/big-undeclared"))


def test_slow_sites_time_out(site: Site) -> None:
    """The site does not answer until the fetch has given up: only the fetcher's own deadline can end it."""
    site.slow.clear()
    try:
        with pytest.raises(FetchFailed) as info:
            loopback_fetcher(timeout_s=0.4).fetch(site.url("/slow"))
    finally:
        site.slow.set()  # the held request may answer now, to nobody
    assert info.value.code == "timeout"
    assert "took longer than 0.4 s" in str(info.value)


def test_error_statuses_and_non_html_are_refused(site: Site) -> None:
    with pytest.raises(FetchFailed, match="HTTP 404"):
        loopback_fetcher().fetch(site.url("/missing"))
    with pytest.raises(FetchFailed, match="image/png"):
        loopback_fetcher().fetch(site.url("/image"))


# -- settings ------------------------------------------------------------------------------------------------------


def test_settings_parse_networks_and_read_the_environment() -> None:
    settings = ServiceSettings.from_env(
        {
            "ONT_ALLOW_PRIVATE_URLS": "1",
            "ONT_ALLOWED_NETWORKS": "10.0.0.0/8, ::1",
            "ONT_LLM_BASE_URL": "http://127.0.0.1:9/v1",
            "ONT_LLM_MODEL": "m",
            "ONT_LLM_API_KEY": "sk-very-secret",
        }
    )
    assert settings.allow_private_urls
    assert settings.allowed_networks == (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128"))
    assert settings.llm is not None and settings.llm.api_key == "sk-very-secret"
    assert "sk-very-secret" not in repr(settings)
    with pytest.raises(InputError):
        ServiceSettings.networks(["not-a-network"])
    with pytest.raises(InputError):
        ServiceSettings.from_env({"ONT_LLM_BASE_URL": "http://x/v1"})
    with pytest.raises(InputError):
        FetchLimits(max_bytes=0)


def test_allow_private_opens_private_but_not_multicast() -> None:
    policy = AddressPolicy(allow_private=True)
    assert policy.refusal(ipaddress.ip_address("10.0.0.1")) is None
    assert policy.refusal(ipaddress.ip_address("127.0.0.1")) is None
    assert policy.refusal(ipaddress.ip_address("224.0.0.1")) is not None
    assert AddressPolicy().refusal(ipaddress.ip_address("93.184.216.34")) is None
