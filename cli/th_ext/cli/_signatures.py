"""Signed cards on the command line: ``validate``'s keys options, and ``th-ext sign``.

The work is the library's (``th_ext.signatures``); this module turns options into its
``SignatureOptions`` and a card check for ``validate`` and ``conform``, and writes what
``sign`` makes. ``th_ext.signatures`` is imported only when a keys option is given, so an
unsigned run never loads it.
"""

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from th_ext import Deadline
from th_ext.cli._terminal import ExitCode, fail
from th_ext.sources import DEFAULT_MAX_BYTES, SourceLimits, read_bounded

if TYPE_CHECKING:
    from th_ext.problems import Problem
    from th_ext.signatures import SignatureOptions

__all__ = [
    "FetchKeysOption",
    "KeysOption",
    "RequireSignatureOption",
    "card_check",
    "sign_command",
    "signature_options",
]

KeysOption = Annotated[
    list[str] | None,
    typer.Option(
        "--keys",
        metavar="PATH|URL",
        help="Verify the card's signatures (A2A 1.0 section 8.4) with the keys of this JWKS "
        "(repeatable). Read under the card's limits, with no header sent.",
        show_default=False,
    ),
]
FetchKeysOption = Annotated[
    bool,
    typer.Option(
        "--fetch-keys",
        help="Also read a signature's jku when it is on the card's own origin (same scheme, "
        "host and port; https, or http on a loopback address). Any other jku is never "
        "contacted.",
        show_default=True,
    ),
]
RequireSignatureOption = Annotated[
    bool,
    typer.Option(
        "--require-signature",
        help="Fail when the card has no signature that verifies over section 8.4.1's form.",
        show_default=True,
    ),
]


def signature_options(
    keys: list[str] | None, fetch_keys: bool, require: bool, limits: SourceLimits
) -> "SignatureOptions | None":
    """The run's signature options, with every ``--keys`` read now (a keys source that gives
    no JWKS ends the command with one line, exit 2); ``None`` when no option asks for it."""
    if not keys and not fetch_keys and not require:
        return None
    # Imported only when a keys option is given: an unsigned run's start-up never pays for it.
    from th_ext.signatures import SignatureOptions, read_keys

    key_sets = tuple(read_keys(source, limits) for source in keys or ())
    return SignatureOptions(key_sets, fetch_keys, require, None, limits)


def card_check(
    options: "SignatureOptions | None", card_url: str | None, started: float
) -> tuple[Callable[[dict[str, Any]], list["Problem"]], ...]:
    """The card check of one source read from ``card_url`` (``None``: a file or stdin), whose
    check began at ``started`` (``time.monotonic()``): its ``jku`` reads end within the
    source's ``--timeout``, with a tenth of it left for the rest of the check."""
    if options is None:
        return ()
    from th_ext.signatures import check_signatures  # a keys option was given (see above)

    ends = Deadline(started + options.limits.timeout * 0.9, "--timeout")
    for_source = replace(options, card_url=card_url, deadline=ends)
    return (lambda card: check_signatures(card, for_source),)


def sign_command(  # noqa: PLR0917 (typer maps parameters to options)
    card: Annotated[
        Path,
        typer.Argument(metavar="CARD", help="The agent card file to sign.", show_default=False),
    ],
    key: Annotated[
        Path,
        typer.Option(
            "--key",
            metavar="PEM_OR_JWK",
            help="The private key: a PEM file or a JWK (EC P-256/384/521, RSA, Ed25519, Ed448).",
            show_default=False,
        ),
    ],
    kid: Annotated[
        str,
        typer.Option("--kid", metavar="KID", help="The key's id in its JWKS.", show_default=False),
    ],
    jku: Annotated[
        str | None,
        typer.Option(
            "--jku",
            metavar="URL",
            help="Where the JWKS holding the key is served.",
            show_default=False,
        ),
    ] = None,
    alg: Annotated[
        str | None,
        typer.Option(
            "--alg",
            metavar="ALG",
            help="The algorithm (default: the key's own, ES256 for a P-256 key).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="Write the signed card here (default: standard output).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Append a signature over A2A 1.0 section 8.4.1's canonical form to an agent card."""
    from th_ext.signatures import KeysError, sign_card  # only sign needs it

    data = _read(card, "CARD")
    key_text = _read(key, "--key")
    try:
        signed = sign_card(data, key_text, kid=kid, jku=jku, alg=alg)
    except KeysError as exc:
        fail(str(exc), ExitCode.UNUSABLE)
    except (ValueError, UnicodeDecodeError) as exc:
        fail(f"{card}: not a JSON card ({str(exc).splitlines()[0]})", ExitCode.UNUSABLE)
    if output is None:
        sys.stdout.buffer.write(signed.data)
        sys.stdout.flush()
    else:
        try:
            output.write_bytes(signed.data)
        except OSError as exc:
            fail(f"-o {output}: {exc.strerror or exc}", ExitCode.UNUSABLE)
    sys.stderr.write(f"signed with {signed.alg}, kid {kid!r}, over section 8.4.1's form\n")
    if signed.sdk_rejects:
        sys.stderr.write(f"warning: {signed.sdk_rejects}\n")


def _read(path: Path, what: str) -> bytes:
    try:
        with path.open("rb") as handle:
            data = read_bounded(handle, DEFAULT_MAX_BYTES)
    except OSError as exc:
        fail(f"{what} {path}: {(exc.strerror or str(exc)).lower()}", ExitCode.UNUSABLE)
    if data is None:
        fail(f"{what} {path}: larger than {DEFAULT_MAX_BYTES} bytes", ExitCode.UNUSABLE)
    return data
