"""The command line says what the web app and the docs say: the same kinds, pages and limits,
refused the same way; every option explained; a bad game or library an argument error."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, SEEDS
from kb.asking import EXAMPLES, KINDS, MAX_LIMIT, RESULTS
from kb.vocabulary import kinds_text
from web.app import create_app
from web.cli.main import main, parser

KINDS_SAID = (
    "rulebook, glossary, current-rulings, faq, comprehensive-rules (current-rulings-update, ruling, rulings, "
    "dated-rulings mean current-rulings; question means faq)"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_parse_refuses_an_unknown_game_or_a_missing_library(capsys: pytest.CaptureFixture[str]) -> None:
    document = str(SEEDS / "stccg" / "quick-start-rules.txt")
    assert run(capsys, "parse", document, "--kind", "rulebook", "--game", "nope", "--library", str(SEEDS)) == (
        2, "", f"rulings: error: --game nope: {SEEDS} has no titles/nope.txt; its games: stccg (or pass --library "
        "DIR or set RULINGS_LIBRARY to a folder holding library.toml)\n",
    )  # fmt: skip
    for command in (["parse", document, "--kind", "rulebook"], ["build", "--kb", "/nonexistent/kb"], ["add", document,
                    "--kind", "rulebook", "--date", "2001-01-01", "--kb", "/nonexistent/kb"]):  # fmt: skip
        assert run(capsys, *command, "--library", "/nonexistent") == (
            2, "", "rulings: error: --library /nonexistent: no such folder; pass --library DIR or set "
            "RULINGS_LIBRARY to a folder holding library.toml\n",
        )  # fmt: skip


def test_one_list_of_kinds_in_help_errors_and_the_search_page(
    bundled_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kinds_text() == KINDS_SAID and KINDS == (
        "rulebook",
        "glossary",
        "current-rulings",
        "faq",
        "comprehensive-rules",
    )
    for command in ("search", "diff"):
        helped = parser()._subparsers._group_actions[0].choices[command].format_help()  # type: ignore[union-attr]
        assert "".join(KINDS_SAID.split()) in "".join(helped.split()), command  # argparse wraps at hyphens
    status, _, err = run(capsys, "search", "ship", "--kb", str(bundled_root), "--kind", "bogus")
    assert (status, err) == (2, f"rulings: error: unknown kind 'bogus'; the kinds are {KINDS_SAID}\n")
    page = create_app({"KB": str(bundled_root), "TESTING": True}).test_client().get("/?q=ship&kind=bogus")
    assert page.status_code == 400 and "unknown kind &#39;bogus&#39;; the kinds are" in page.text
    # the other words are kinds too, as documented: dated-rulings finds what current-rulings finds
    assert run(capsys, "search", "ship", "--kb", str(bundled_root), "--kind", "dated-rulings") == run(
        capsys, "search", "ship", "--kb", str(bundled_root), "--kind", "current-rulings"
    )


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--page", "11"], f"--page 11: the pages of 20 results are 1 to 10 ({RESULTS} results at most), not 11"),
        (["--page", "0"], f"--page 0: the pages of 20 results are 1 to 10 ({RESULTS} results at most), not 0"),
        (
            ["--page", "999999999"],
            "--page 999999999: the pages of 20 results are 1 to 10 (200 results at most), not 999999999",
        ),
        (
            ["--limit", "100", "--page", "3"],
            "--page 3: the pages of 100 results are 1 to 2 (200 results at most), not 3",
        ),
        (["--limit", "0"], f"--limit 0: results a page are 1 to {MAX_LIMIT}, not 0"),
        (["--limit", "101"], f"--limit 101: results a page are 1 to {MAX_LIMIT}, not 101"),
    ],
)
def test_pages_and_limits_are_the_web_apps(
    bundled_root: Path, capsys: pytest.CaptureFixture[str], options: list[str], said: str
) -> None:
    assert run(capsys, "search", "ship", "--kb", str(bundled_root), *options) == (2, "", f"rulings: error: {said}\n")
    web = create_app({"KB": str(bundled_root), "TESTING": True}).test_client()
    asked = dict(zip(options[::2], options[1::2], strict=True))
    query = "&".join(f"{k.strip('-')}={v}" for k, v in asked.items())
    assert web.get(f"/?q=ship&{query}").status_code == 400


def test_the_last_page_is_answered(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "search", "ship", "--kb", str(bundled_root), "--page", "2")
    assert status == 0 and out.splitlines()[0].startswith("19 results 21-39 for 'ship' as of ")  # STCCG's 39


def test_an_empty_search_says_what_to_search(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for empty in ("", "   "):
        assert run(capsys, "search", empty, "--kb", str(bundled_root)) == (
            2, "", "rulings: error: nothing to search for; try conundrum target | damaged ship | card:\"Cha'Joh\" "
            "(e.g. rulings search 'conundrum target'; 'rulings search -h' for the syntax)\n",
        )  # fmt: skip
    page = create_app({"KB": str(bundled_root), "TESTING": True}).test_client().get("/")
    assert all(
        f">{example.replace(chr(34), '&#34;').replace(chr(39), '&#39;')}</a>" in page.text for example in EXAMPLES
    )


def test_every_option_of_every_command_has_help() -> None:
    unexplained = [
        f"{name} {action.option_strings or action.dest}"
        for name, command in parser()._subparsers._group_actions[0].choices.items()  # type: ignore[union-attr]
        for action in command._actions
        if not action.help
    ]
    assert unexplained == []


def test_one_line_is_a_line(bundled_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "search", "tholian ship", "--kb", str(bundled_root), "--limit", "1", "--game", "any")
    assert status == 0
    assert (
        out.splitlines()[-1] == "    Source: Star Trek: Conflict in the Neutral Zone Rulebook (1), 2023-01-01, line 217"
    )
    status, out, _ = run(capsys, "show", "Conundrum", "--kb", str(bundled_root), "--as-of", "2001-01-01")
    assert "    Source: Current Rulings Update (11/27/00), 2000-11-27, lines 79-83\n" in out


def test_the_docs_name_the_kinds_the_command_line_takes() -> None:
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    assert " ".join(KINDS_SAID.split()) in " ".join(search.split())
