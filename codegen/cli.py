"""The ``tasklayer`` command: ``schemas pin|list``, ``annotations``, ``generate``, ``drift``.

Bad input ends with the file, the place in it and the reason on stderr and exit status 2,
never a traceback. Global flags (``--schemas``, ``-v``, ``-q``) go before or after the
subcommand. Paths not given default to the checkout that contains the current directory.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from codegen.checkout import find_root
from codegen.errors import TasklayerError
from codegen.providers import NAMES

DESCRIPTION = "Generate the tasks package (generated/) from pinned cloud API schemas."
EXIT_BAD_INPUT = 2
EXIT_CLOSED_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE


class _Parser(argparse.ArgumentParser):
    """argparse with did-you-mean for mistyped subcommands, choices and options. It keeps its
    own list of the actions it was given (its parents' too) and of its subcommand sets:
    argparse holds them only in private attributes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # before argparse's own __init__, which adds -h through add_argument
        self.given: list[argparse.Action] = [
            a for p in kwargs.get("parents", ()) if isinstance(p, _Parser) for a in p.given
        ]
        self.subcommand_sets: list[argparse.Action] = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.given.append(action)
        return action

    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        self.given.append(action)
        self.subcommand_sets.append(action)
        return action

    def subparsers(self) -> list[tuple[str, _Parser]]:
        """(name, parser) of each subcommand directly below this one."""
        return [
            (name, parser)
            for action in self.subcommand_sets
            for name, parser in dict(action.choices or {}).items()
            if isinstance(parser, _Parser)
        ]

    def error(self, message: str) -> NoReturn:
        close = self._guesses(message)
        if close:
            message += f"\n  did you mean: {', '.join(close)}"
        super().error(message)

    def _guesses(self, message: str) -> list[str]:
        from codegen.names import suggestions

        if "invalid choice: " in message:
            typed = message.split("invalid choice: ", 1)[1].split("'")[1]
            choices = [c for a in self.given if a.choices for c in a.choices]
            started = [c for c in choices if typed and c.startswith(typed)]  # `gen` for generate
            nested = [
                path for name, path in subcommands(self) if name == typed
            ]  # `pin` for schemas pin
            return list(dict.fromkeys([*started, *suggestions(typed, choices), *nested]))[:3]
        if message.startswith("unrecognized arguments: "):
            options = [
                o for parser in _all_parsers(self) for a in parser.given for o in a.option_strings
            ]
            words = [
                word.split("=", 1)[0]
                for word in message.split(": ", 1)[1].split()
                if word.startswith("--")
            ]
            return list(dict.fromkeys(o for word in words for o in suggestions(word, options, n=1)))
        return []


def _all_parsers(parser: _Parser) -> list[_Parser]:
    """``parser`` and every subcommand's parser below it."""
    return [parser, *(q for _, p in parser.subparsers() for q in _all_parsers(p))]


def subcommands(parser: _Parser, prefix: str = "") -> list[tuple[str, str]]:
    """(name, full command) of every subcommand at any depth: ``("pin", "schemas pin")``."""
    out: list[tuple[str, str]] = []
    for name, sub in parser.subparsers():
        out += [(name, f"{prefix}{name}"), *subcommands(sub, f"{prefix}{name} ")]
    return out


def _global_flags(top: bool) -> _Parser:
    """Flags every subcommand accepts too; below the top level they default to SUPPRESS so a
    flag given before the subcommand is not overwritten by the subcommand's default."""
    parent = _Parser(add_help=False)
    default = (lambda value: value) if top else (lambda value: argparse.SUPPRESS)
    parent.add_argument(
        "--schemas",
        type=Path,
        default=default(None),
        help="pinned schemas folder (default: schemas/ of the checkout around the current "
        "directory)",
    )
    parent.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=default(0),
        help="say more (names of files, services)",
    )
    parent.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=default(False),
        help="print only errors and results",
    )
    return parent


def build_parser() -> _Parser:
    import codegen

    flags = _global_flags(top=False)
    parser = _Parser(prog="tasklayer", description=DESCRIPTION, parents=[_global_flags(top=True)])
    parser.add_argument("--version", action="version", version=f"tasklayer {codegen.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    schemas = _command(
        sub,
        "schemas",
        "manage pinned schemas (schemas/manifest.json records each file's sha256)",
        flags,
    )
    schemas_sub = schemas.add_subparsers(
        dest="schemas_command", required=True, parser_class=_Parser
    )
    pin = _command(
        schemas_sub,
        "pin",
        "copy the newest API version of services from the SDK into schemas/",
        flags,
    )
    pin.add_argument("provider", choices=list(NAMES), help="whose SDK to copy from")
    pin.add_argument(
        "services",
        nargs="*",
        help="botocore service names; GCP API names, optionally with a version "
        "(dns.v1); default with --check: every pinned one",
    )
    pin.add_argument(
        "--check",
        action="store_true",
        help="write nothing; say which pins the SDK has newer versions of",
    )
    pin.add_argument(
        "--from",
        dest="sdk_data",
        type=Path,
        help="aws: a botocore data folder (or an unpacked botocore wheel) instead of the "
        "installed one",
    )
    _command(
        schemas_sub, "list", "pinned services and versions vs what the installed SDKs have", flags
    )

    ann = _command(
        sub,
        "annotations",
        "print what the annotator decided: each resource's identity, "
        "operations and field classes",
        flags,
    )
    ann.add_argument(
        "--provider", choices=list(NAMES), default="aws", help="whose pinned schemas (default: aws)"
    )
    ann.add_argument(
        "--service",
        action="append",
        help="service to annotate (repeatable; default: every pinned one)",
    )
    ann.add_argument(
        "--json",
        action="store_true",
        help="JSON: one object for one --service, else one array of per-service objects",
    )
    ann.add_argument(
        "--all",
        action="store_true",
        help="every service of the installed SDK (every discovery document for gcp)",
    )
    ann.add_argument(
        "--detail",
        action="store_true",
        help="add references, names, types and provenance to the JSON",
    )
    ann.add_argument(
        "--resource",
        action="append",
        metavar="NAME",
        help="only this resource of the services (repeatable: Vpc, Subnet)",
    )

    gen = _command(sub, "generate", "render the pinned services' tasks into generated/", flags)
    gen.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when generated/ is stale"
    )
    gen.add_argument(
        "--diff",
        action="store_true",
        help="write nothing; print a unified diff of what would change (exit 1 as --check)",
    )
    gen.add_argument(
        "--service",
        action="append",
        help="write only this service's files (repeatable: ec2, gcp/compute)",
    )
    gen.add_argument(
        "--force", action="store_true", help="remove files in the output that no generate wrote"
    )
    gen.add_argument(
        "--allow-drop", action="store_true", help="allow a run to remove a service or the runtime"
    )
    gen.add_argument(
        "--output", type=Path, help="where to write (default: generated/ of the checkout)"
    )
    gen.add_argument(
        "--templates", type=Path, help="templates folder (default: templates/ of the checkout)"
    )
    gen.add_argument(
        "--cache-dir",
        type=Path,
        help="cache folder (default: $TASKLAYER_CACHE_DIR or .tasklayer-cache/)",
    )
    gen.add_argument(
        "--no-cache", action="store_true", help="render everything; read and write no cache"
    )

    drift = _command(
        sub,
        "drift",
        "what changed for consumers between two sets of pins (a CHANGELOG entry)",
        flags,
    )
    drift.add_argument(
        "--base",
        default="HEAD",
        help="the previous pins: a git revision of this checkout (default HEAD) or a schemas "
        "folder",
    )
    drift.add_argument("--json", action="store_true", help="the report as one JSON object")
    drift.add_argument(
        "--service", action="append", help="only these services (default: every pinned one)"
    )
    drift.add_argument(
        "--bump",
        action="store_true",
        help="record the suggested version in schemas/manifest.json; the next generate writes it",
    )
    return parser


def _command(
    sub: Any, name: str, summary: str, flags: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    """A subcommand whose own --help opens with the line the list of subcommands shows."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=summary, parents=[flags]
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at exit
        return code
    except TasklayerError as err:
        print(f"tasklayer: {err.level}: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader (``| head``) has gone: stop quietly, and keep Python's exit-time flush
        # from raising again on the dead pipe.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_PIPE


def _dispatch(args: argparse.Namespace) -> int:
    from codegen.console import Console

    console = Console(-1 if args.quiet else args.verbose)
    if args.command == "schemas":
        from codegen.commands import schemas

        args.schemas = schemas_dir(args)
        return schemas.run(args, console)
    if args.command == "annotations":
        from codegen.commands import annotations

        if not args.all:
            args.schemas = schemas_dir(args)
        return annotations.run(args, console)
    if args.command == "drift":
        from codegen.commands import drift

        args.schemas = schemas_dir(args)
        return drift.run(args, console, repo_root(args))
    from codegen.commands import generate

    args.schemas = schemas_dir(args)
    root = repo_root(args)
    args.templates = args.templates or root / "templates"
    args.output = args.output or root / "generated"
    return generate.run(args, console, root)


def repo_root(args: argparse.Namespace) -> Path:
    """The folder holding ``--schemas`` (after :func:`schemas_dir` resolved it)."""
    return Path(args.schemas).resolve().parent


def schemas_dir(args: argparse.Namespace) -> Path:
    """``--schemas`` as given, else the checkout's. Never a fresh ``schemas/`` in whatever
    folder the command happens to run in."""
    if args.schemas is not None:
        return Path(args.schemas)
    root = find_root(Path.cwd())
    if root is None:
        raise TasklayerError(
            f"not inside a tasklayer checkout: no folder at or above {Path.cwd()} holds schemas/ "
            "and templates/",
            notes=["run it from the repository (any subdirectory will do), or pass --schemas DIR"],
        )
    return root / "schemas"


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
