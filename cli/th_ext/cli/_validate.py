"""``th-ext validate``: check agent cards from files, standard input or URLs, as one batch
(``th_ext.batch.check_cards``); and ``th-ext sign``, ``th-ext keys new`` and ``keys jwks``."""

import functools
import sys
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from th_ext import Deadline
from th_ext.catalog import family_schemas
from th_ext.cli._boundary import add_command, command_group
from th_ext.cli._options import (
    CARD_CHECK,
    DEFAULT_GIVE_UP,
    DEFAULT_JOBS,
    DEFAULT_PER_ORIGIN,
    KEY_ALGORITHMS,
    DbOption,
    ExitZeroOption,
    FetchKeysOption,
    FetchSchemasOption,
    FleetOptions,
    FromOption,
    HeaderOption,
    HeaderOriginOption,
    IgnoreOption,
    JobsOption,
    JunitFileOption,
    KeysOption,
    MaxBytesOption,
    OriginFailuresOption,
    OutputOption,
    PasswordFileOption,
    PerOriginOption,
    QuietOption,
    RateOption,
    RequireSignatureOption,
    ResumeOption,
    RetriesOption,
    SchemasOption,
    SelectOption,
    StatisticsOption,
    code_selection,
    complete_extension,
    emptying_options,
    final_exit_code,
    format_option,
    given_format,
    is_stdout,
    note_withheld,
    refuse_writing_over,
    source_limits,
    timeout_option,
    verdict_options,
)
from th_ext.cli._terminal import ExitCode, fail, write
from th_ext.problems import CODES, Selection, counted, os_reason
from th_ext.sources import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, SourceLimits, read_bounded
from th_ext.validate import ValidateOptions, read_schema_override

if TYPE_CHECKING:
    from th_ext.problems import Problem
    from th_ext.signatures import SignatureOptions

__all__ = [
    "card_check",
    "keys_app",
    "sign_command",
    "signature_options",
    "validate_command",
]


class ReportFormat(StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"
    github = "github"
    sarif = "sarif"


SourcesArgument = Annotated[
    list[str] | None,
    typer.Argument(
        help="The agent cards to check, each a file, - for standard input, or an http(s) URL. "
        "A URL not ending in .json is the agent's base URL (the card is read at "
        "/.well-known/agent-card.json). Several (or --from) are checked --jobs at a time.",
        metavar="SOURCE...",
        show_default=False,
    ),
]


def validate_command(  # noqa: PLR0917 (typer maps parameters to options)
    ctx: typer.Context,
    sources: SourcesArgument = None,
    output_format: Annotated[ReportFormat, format_option(ReportFormat)] = ReportFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    extension: Annotated[
        list[str] | None,
        typer.Option(
            "--extension",
            "-e",
            metavar="URI|KEY",
            autocompletion=complete_extension,
            help="Require this extension (URI, or a bundled key such as commands/v1); "
            "repeatable. By default the card must declare at least one th-ext extension.",
            show_default=False,
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            "--schema",
            metavar="PATH|URL",
            help="Check the extension's params against this schema instead of the bundled one "
            "(read under the same limits).",
            show_default=False,
        ),
    ] = None,
    junit_file: JunitFileOption = None,
    schemas: SchemasOption = None,
    fetch_schemas: FetchSchemasOption = False,
    header: HeaderOption = None,
    header_origin: HeaderOriginOption = None,
    timeout: Annotated[float, timeout_option(CARD_CHECK)] = DEFAULT_TIMEOUT,
    max_bytes: MaxBytesOption = DEFAULT_MAX_BYTES,
    keys: KeysOption = None,
    fetch_keys: FetchKeysOption = False,
    require_signature: RequireSignatureOption = False,
    from_file: FromOption = None,
    jobs: JobsOption = DEFAULT_JOBS,
    per_origin: PerOriginOption = DEFAULT_PER_ORIGIN,
    rate: RateOption = None,
    origin_failures: OriginFailuresOption = DEFAULT_GIVE_UP,
    retries: RetriesOption = 0,
    output: OutputOption = None,
    resume: ResumeOption = None,
    quiet: QuietOption = False,
    statistics: StatisticsOption = False,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    exit_zero: ExitZeroOption = False,
    db: DbOption = None,
) -> None:
    """Check agent cards against A2A 1.0 and the extension schemas th-ext publishes."""
    refuse_writing_over(
        [("--resume" if resume else "-o", resume or output), ("--junit-file", junit_file)],
        [
            *(("the source", source) for source in sources or []),
            ("--from", from_file),
            ("--db", db),
            ("--schema", schema),
            *(("--keys", one) for one in keys or []),
        ],
    )
    selection = code_selection(select, ignore)
    if not any(selection.counts(code) for code in CODES):
        fail(f"{emptying_options(select, ignore, [])} leaves no problem code to count")
    limits = source_limits(header, timeout, max_bytes, header_origin, retries)
    signatures = signature_options(keys, fetch_keys, require_signature, limits)
    options_for, notices = _options_for(
        strict,
        tuple(extension or ()),
        schema,
        schemas,
        fetch_schemas,
        limits,
        signatures,
        selection,
    )
    verdict = verdict_options(
        strict=strict,
        extension=extension,
        schema=schema,
        schemas=schemas,
        fetch_schemas=fetch_schemas,
        header=header,
        timeout=timeout,
        max_bytes=max_bytes,
        keys=keys,
        fetch_keys=fetch_keys,
        require_signature=require_signature,
        select=select,
        ignore=ignore,
    )
    fleet = FleetOptions(
        from_file,
        jobs,
        per_origin,
        output,
        resume,
        quiet,
        db,
        verdict,
        statistics,
        rate=rate,
        give_up=origin_failures,
    )
    # The batch (asyncio, httpx: about 100 ms of imports, measured with -X importtime) loads
    # only for a command that checks cards, not for every start of th-ext.
    from th_ext.batch import check_cards
    from th_ext.cli._fleet import Tally, run_fleet

    start = functools.partial(check_cards, options=options_for, limits=limits, notices=notices)
    given = given_format(ctx, output_format.value)
    tally = Tally("card", "valid", "invalid")
    code = run_fleet("validate", sources or [], fleet, given, start, tally, junit_file=junit_file)
    raise typer.Exit(final_exit_code(code, exit_zero))


def _options_for(  # noqa: PLR0917 (the run's settings, each from its own option)
    strict: bool,
    extensions: tuple[str, ...],
    schema_source: str | None,
    schemas_dir: Path | None,
    fetch_schemas: bool,
    limits: SourceLimits,
    signatures: "SignatureOptions | None",
    selection: Selection,
) -> "tuple[Callable[[str | None, float], ValidateOptions], list[Problem]]":
    """The library's options of a source read from a card URL (``None``: a file or standard
    input) whose check began at a ``time.monotonic()`` moment, with the ``--schema`` and the
    family's schemas read once for the run; and the notices of the family's schemas."""
    override = None
    if schema_source is not None:
        override = read_schema_override(schema_source, limits)
        note_withheld(
            [f"--schema: {n.message}" for n in override.notices if n.code == "header-withheld"]
        )
    family: tuple[Any, ...] = ()
    notices: list[Problem] = []
    if schemas_dir is not None or fetch_schemas:
        family, notices = family_schemas(schemas_dir, fetch_schemas, limits, ("card params",))

    def options_for(card_url: str | None, started: float) -> ValidateOptions:
        return ValidateOptions(
            strict=strict,
            extensions=extensions,
            schema=override,
            family=family,
            card_checks=card_check(signatures, card_url, started),
            selection=selection,
        )

    return options_for, notices


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
            help="Where the JWKS holding the key is served: an absolute http(s) URL.",
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
    password_file: PasswordFileOption = None,
) -> None:
    """Append a signature over A2A 1.0 section 8.4.1's canonical form to an agent card."""
    from th_ext.signatures import (  # only sign needs it
        KeysError,
        UnsignableCardError,
        key_password,
        read_key_file,
        sign_card,
    )

    refuse_writing_over([("-o", output)], [("--key", key), ("--password-file", password_file)])
    data = _read(card, "CARD")
    try:
        key_text = read_key_file(key, "--key")
        password = key_password(password_file)
        signed = sign_card(
            data, key_text, kid=kid, jku=jku, alg=alg, password=password, key_name=f"--key {key}"
        )
    except KeysError as exc:
        fail(str(exc), ExitCode.UNUSABLE)
    except UnsignableCardError as exc:
        fail(f"{card}: {exc}", ExitCode.UNUSABLE)
    except (ValueError, UnicodeDecodeError) as exc:
        fail(f"{card}: not a JSON card ({str(exc).splitlines()[0]})", ExitCode.UNUSABLE)
    if output is None or is_stdout(output):
        sys.stdout.buffer.write(signed.data)
        sys.stdout.flush()
    else:
        try:
            output.write_bytes(signed.data)
        except OSError as exc:
            fail(f"-o {output}: {os_reason(exc)}", ExitCode.UNUSABLE)
    sys.stderr.write(f"signed with {signed.alg}, kid {kid!r}, over section 8.4.1's form\n")
    if signed.sdk_rejects:
        sys.stderr.write(f"warning: {signed.sdk_rejects}\n")


def _read(path: Path, what: str) -> bytes:
    try:
        with path.open("rb") as handle:
            data = read_bounded(handle, DEFAULT_MAX_BYTES)
    except OSError as exc:
        fail(f"{what} {path}: {os_reason(exc)}", ExitCode.UNUSABLE)
    if data is None:
        fail(f"{what} {path}: larger than {DEFAULT_MAX_BYTES} bytes", ExitCode.UNUSABLE)
    return data


# --- th-ext keys: a signing key, and the JWKS that publishes it ---


def _keys() -> None:
    """Make a signing key, and the JWKS that publishes its public key."""


keys_app = command_group(_keys)


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
    from th_ext.signatures import ALGORITHMS, NEW_KEY_TYPES, KeysError, pem_alg, write_new_key

    if is_stdout(output):
        fail("-o -: a private key is written only to a file of mode 0600, never to standard output")
    if alg not in NEW_KEY_TYPES:
        raise KeysError(f"--alg {alg}: th-ext makes keys for {', '.join(ALGORITHMS)}")
    write_new_key(output, alg)
    write(
        f"wrote {output}: a new {alg} private key ({NEW_KEY_TYPES[alg]}), readable by you "
        "alone; keep it secret"
    )
    if pem_alg(alg) != alg:
        write(f"a PEM does not record the algorithm: give --alg {alg} to keys jwks and sign too")


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
            f"{counted(len(keys), 'key')} and {len(kid)} --kid: give one --kid per key, in order"
        )
    for one in kid:
        check_kid(one)
    algs = list(alg or [])
    if len(algs) not in (0, 1, len(keys)):
        raise KeysError(
            f"{counted(len(keys), 'key')} and {len(algs)} --alg: give one, or one per key"
        )
    refuse_writing_over(
        [("-o", output)],
        [*(("the key", path) for path in keys), ("--password-file", password_file)],
    )
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
    if output is None or is_stdout(output):
        sys.stdout.buffer.write(document)
        sys.stdout.flush()
        return
    try:
        output.write_bytes(document)
    except OSError as exc:
        if not output.parent.is_dir():
            raise KeysError(f"-o {output}: the folder {output.parent} does not exist") from None
        raise KeysError(f"-o {output}: {os_reason(exc)}") from None
    listed = ", ".join(f"{k['kid']!r} {k['alg']}" for k in public)
    write(f"wrote {output}: a JWKS of {counted(len(public), 'public key')} ({listed})")


add_command(keys_app, "new", keys_new)
add_command(keys_app, "jwks", keys_jwks)
