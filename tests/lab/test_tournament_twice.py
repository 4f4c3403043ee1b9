"""``floe tournament`` as the README shows it (no ``--out``), run twice in the same folder: both runs work,
the folder stays as it was, and each run's results file is in the user's cache, named in the output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from floe.lab.resultsdir import cache_dir

# The README's command, smaller: bots that decide in microseconds, one deal.
COMMAND = [
    "tournament",
    "arctic",
    "--players",
    "2",
    "--bots",
    "random,baseline",
    "--games",
    "2",
    "--seed",
    "1",
]


def run(cwd: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "floe", *COMMAND, *extra],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_readme_command_runs_twice_and_leaves_the_folder_alone(tmp_path: Path) -> None:
    here, cache = tmp_path / "here", tmp_path / "cache"
    here.mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    named: list[Path] = []
    for _ in range(2):
        done = run(here, env)
        assert done.returncode == 0, done.stderr
        found = re.search(
            r"results: (\S+\.jsonl) \(2 games played; to continue an interrupted run: --out", done.stdout
        )
        assert found, done.stdout
        named.append(Path(found.group(1)))
    assert list(here.iterdir()) == [], "nothing is written in the folder the command runs in"
    assert named[0] != named[1], "each run has its own file"
    folder = cache_dir({"XDG_CACHE_HOME": str(cache)}) / "tournaments"
    assert sorted(folder.iterdir()) == sorted(named)
    assert all(len(path.read_text().splitlines()) == 3 for path in named)  # the header and 2 games
    # The file a run named can be continued, as the output says (here: extended by one deal).
    more = run(here, env, "--out", str(named[0]), "--resume", "--games", "4")
    assert more.returncode == 0, more.stderr
    assert "2 games played, 2 from before" in more.stdout, more.stdout


def test_resume_needs_the_file_named_by_out(tmp_path: Path) -> None:
    done = run(tmp_path, {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}, "--resume")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["error: --resume continues the results file named by --out"]


def test_the_cache_folder_follows_xdg(tmp_path: Path) -> None:
    assert cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "floe"
    assert cache_dir({"XDG_CACHE_HOME": "relative/path"}) == Path.home() / ".cache" / "floe"
    assert cache_dir({}) == Path.home() / ".cache" / "floe"
