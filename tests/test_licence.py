"""Both packages are Apache-2.0, as kOps, cluster-api and Config Connector are: the licence text
at the root, the same text shipped beside the generated package (written by ``generate``, so a
vendored copy of ``generated/`` carries it), and both packages' metadata naming it."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_the_root_licence_is_apache_2_and_the_generated_package_ships_the_same_text() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert (ROOT / "templates" / "package" / "LICENSE").read_text() == text
    assert (ROOT / "generated" / "LICENSE").read_text() == text


def test_both_packages_declare_the_licence_and_their_readme() -> None:
    for folder in (ROOT, ROOT / "generated"):
        project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
        assert (project["license"], project["license-files"], project["readme"]) == ("Apache-2.0", ["LICENSE"], "README.md")
        assert (folder / "README.md").is_file() and (folder / "LICENSE").is_file()
