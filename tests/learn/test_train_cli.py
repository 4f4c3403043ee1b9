"""``floe train`` through the command line: bad input is one line, before anything is made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from floe.cli import app


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--games", "0"], "--games must be from 1"),
        (["--iterations", "0"], "--iterations must be from 1"),
        (["--hidden", "12,x"], "--hidden must be widths"),
        (["--hidden", "0"], "--hidden: 1 to 8 layers"),
        (["--mix", "2"], "noise and mix in [0, 1]"),
        (["--reference", "nobot"], "unknown bot 'nobot'"),
        (["--players", "9"], "for 2 to 4 players"),
        (["--workers", "0"], "--workers must be positive"),
    ],
)
def test_bad_input_is_one_line_and_makes_nothing(tmp_path: Path, args: list[str], said: str) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "arktia", "--out", str(out), *args])
    assert result.exit_code != 0
    assert said in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_resume_needs_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "arktia", "--resume"])
    assert result.exit_code != 0 and "--resume continues the run named by --out" in result.stderr
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "file").write_text("x")
    result = CliRunner().invoke(app, ["train", "arktia", "--out", str(tmp_path / "other"), "--resume"])
    assert result.exit_code != 0 and "holds no training run to resume" in result.stderr


def test_without_the_extra_train_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a)
    )
    result = CliRunner().invoke(app, ["train", "arktia", "--out", str(tmp_path / "run")])
    assert result.exit_code != 0 and "uv sync --extra train" in result.stderr
    assert not (tmp_path / "run").exists()
