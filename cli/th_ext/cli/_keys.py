"""``th-ext keys new`` and ``th-ext keys jwks``: a signing key, and the JWKS that publishes it.

The work is ``th_ext.signatures``' (``write_new_key``, ``public_jwk``, ``jwks``); this module
declares the options and says what was written. ``th_ext.signatures`` (about 20 ms of import)
is imported when a keys command runs, as ``sign`` does, never on another command's start-up.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from th_ext.cli._boundary import add_command, group_callback
from th_ext.cli._terminal import write

__all__ = [
    "KEY_ALGORITHMS",
    "PASSWORD_VARIABLE",
    "PasswordFileOption",
    "keys_app",
    "keys_jwks",
    "keys_new",
]

KEY_ALGORITHMS = (
    "ES256",
    "ES384",
    "ES512",
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "EdDSA",
)
"""``th_ext.signatures.ALGORITHMS``, for the help and completion (a test keeps them equal)."""
PASSWORD_VARIABLE = "TH_EXT_KEY_PASSWORD"
"""``th_ext.signatures.PASSWORD_VARIABLE`` (a test keeps them equal)."""

KEYS_HELP = "Make a signing key, and the JWKS that publishes its public key."

keys_app = typer.Typer(
    help=KEYS_HELP,
    short_help=KEYS_HELP,
    no_args_is_help=True,
    add_completion=False,
)

PasswordFileOption = Annotated[
    Path | None,
    typer.Option(
        "--password-file",
        metavar="FILE",
        help=f"The password of an encrypted PEM key: this file's first line (or set "
        f"{PASSWORD_VARIABLE}).",
        show_default=False,
    ),
]


def _keys() -> None:
    """Make a signing key, and the JWKS that publishes its public key."""


def _complete_alg(incomplete: str) -> list[str]:
    return [alg for alg in KEY_ALGORITHMS if alg.lower().startswith(incomplete.lower())]


def keys_new(
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            metavar="KEY.pem",
            help="The new key's file: created readable by you alone (mode 0600), never "
            "over an existing file.",
            show_default=False,
            dir_okay=False,
        ),
    ],
    alg: Annotated[
        str,
        typer.Option(
            "--alg",
            metavar="ALG",
            help=f"The algorithm the key signs with: {', '.join(KEY_ALGORITHMS)}.",
            autocompletion=_complete_alg,
        ),
    ] = "ES256",
) -> None:
    """Make a private key to sign agent cards with (a PKCS #8 PEM file, mode 0600)."""
    from th_ext.signatures import ALGORITHMS, NEW_KEY_TYPES, KeysError, write_new_key

    if alg not in NEW_KEY_TYPES:
        raise KeysError(f"--alg {alg}: th-ext makes keys for {', '.join(ALGORITHMS)}")
    write_new_key(output, alg)
    write(
        f"wrote {output}: a new {alg} private key ({NEW_KEY_TYPES[alg]}), readable by you "
        "alone; keep it secret"
    )


def keys_jwks(
    keys: Annotated[
        list[Path],
        typer.Argument(
            metavar="KEY.pem...",
            help="Private or public keys (PEM, or JWK); only their public parts are written.",
            show_default=False,
        ),
    ],
    kid: Annotated[
        list[str],
        typer.Option(
            "--kid",
            metavar="KID",
            help="The key's id, as th-ext sign --kid gives it: once per key, in order.",
            show_default=False,
        ),
    ],
    alg: Annotated[
        list[str] | None,
        typer.Option(
            "--alg",
            metavar="ALG",
            help="The algorithm each key signs with (default: the key's own, ES256 for P-256, "
            "RS256 for RSA); once for every key, or once per key.",
            show_default=False,
            autocompletion=_complete_alg,
        ),
    ] = None,
    password_file: PasswordFileOption = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="Write the JWKS here (default: standard output).",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Print the JWKS of keys' public parts, to publish where --keys and --fetch-keys read it."""
    from th_ext.signatures import (
        KeysError,
        check_kid,
        jwks,
        key_password,
        public_jwk,
        read_key_file,
    )

    if len(kid) != len(keys):
        raise KeysError(
            f"{len(keys)} key(s) and {len(kid)} --kid: give one --kid per key, in order"
        )
    for one in kid:
        check_kid(one)
    algs = list(alg or [])
    if len(algs) not in (0, 1, len(keys)):
        raise KeysError(f"{len(keys)} key(s) and {len(algs)} --alg: give one, or one per key")
    password = key_password(password_file)
    public = [
        public_jwk(
            read_key_file(path),
            kid=key_id,
            alg=(algs[index] if len(algs) > 1 else next(iter(algs), None)),
            source=str(path),
            password=password,
        )
        for index, (path, key_id) in enumerate(zip(keys, kid, strict=True))
    ]
    document = jwks(public)
    if output is None:
        sys.stdout.buffer.write(document)
        sys.stdout.flush()
        return
    try:
        output.write_bytes(document)
    except OSError as exc:
        if not output.parent.is_dir():
            raise KeysError(f"-o {output}: the folder {output.parent} does not exist") from None
        raise KeysError(f"-o {output}: {(exc.strerror or str(exc)).lower()}") from None
    listed = ", ".join(f"{k['kid']!r} {k['alg']}" for k in public)
    write(f"wrote {output}: a JWKS of {len(public)} public key(s) ({listed})")


group_callback(keys_app, _keys)
add_command(keys_app, "new", keys_new)
add_command(keys_app, "jwks", keys_jwks)
