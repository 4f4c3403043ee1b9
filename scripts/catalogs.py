"""The gettext catalogs' upkeep (docs/languages.md): extract the message ids and update every language's .po,
or check that every language is complete.

    .venv/bin/python scripts/catalogs.py update          # after changing texts: new ids appear untranslated
    .venv/bin/python scripts/catalogs.py check           # what tests/core/test_catalogs.py checks
"""

from __future__ import annotations

import sys

from floe.core.catalogs import check, domains, update


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("update", "check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems = 0
    for domain in domains():
        if argv[0] == "update":
            for path in update(domain):
                print(f"wrote {path}")
        else:
            found = check(domain)
            problems += len(found)
            for line in found:
                print(line)
            print(f"{domain.name}: {'complete' if not found else f'{len(found)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
