#!/usr/bin/env bash
# Mutation testing (mutmut 3), by hand and never in CI: how many small bugs planted in a module its tests catch.
#
#   scripts/mutation.sh MODULE…            e.g. scripts/mutation.sh lab/simulate.py games/arctic/scoring.py
#   scripts/mutation.sh --list             the modules that have a test selection, and their tests
#   MUTATION_JOBS=2 scripts/mutation.sh …  mutants run in parallel (default 1: one core)
#
# MODULE is a path under src/floe (src/floe/… works too). Each module has its own working directory
# .mutation/<module>/ (git-ignored) with its own mutmut state, and runs only the fast tests mapped to it below:
# for each mutant mutmut runs just those of them that call the mutated function. Every run starts afresh.
# At the end it prints, per module, killed/total and the mutants not killed, whose diffs it writes to
# .mutation/<module>/survivors.diff. How to read them, and the scores: docs/testing.md.
set -euo pipefail
# The whole script is one block, read to its end before it runs: bash reads a script as it goes, so an edit
# to this file during a run (a selection changed for the next one) would otherwise change the rest of it.
{
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mutmut_version=3.8.1
# Arktia's C move generator would answer for rules.python_main_actions, the Python the mutants are planted
# in: the mutants' tests run the rules in Python (the C one is checked against that reference by its tests).
export FLOE_NATIVE=0

# The fast tests that exercise each module (paths relative to the repository). Keep each selection to a
# few seconds: mutmut runs, per mutant, the tests of this list that reached the mutated function.
declare -A tests_of=(
    [lab/simulate.py]="tests/lab/test_simulate.py tests/lab/test_simulate_cli.py"
    [games/arctic/scoring.py]="tests/games/arctic/test_scoring.py tests/games/arctic/test_rules_endgame.py
        tests/games/arctic/test_arctic_doctests.py tests/games/test_golden_oracles.py"
    [games/arktia/scoring.py]="tests/games/arktia/test_arktia_end.py tests/games/arktia/test_arktia_towers.py
        tests/games/arktia/test_arktia_doctests.py tests/games/test_golden_oracles.py"
    [games/arche/scoring.py]="tests/games/arche/test_arche_scoring.py tests/games/arche/test_arche_doctests.py
        tests/games/test_golden_oracles.py"
    [games/arktia/view.py]="tests/games/arktia/test_arktia_view.py tests/games/arktia/test_arktia_vector.py
        tests/games/arktia/test_arktia_records.py
        tests/games/arktia/test_arktia_doctests.py"
    [bots/ismcts.py]="tests/bots/test_ismcts_search.py tests/bots/test_search_bots.py tests/bots/test_bot_bounds.py"
    # The rules: their own tests, the golden games, and the perft positions that take about a second.
    [games/arktia/rules.py]="tests/games/arktia/test_arktia_end.py tests/games/arktia/test_arktia_melting.py
        tests/games/arktia/test_arktia_notation.py tests/games/arktia/test_arktia_removal.py
        tests/games/arktia/test_arktia_setup.py tests/games/arktia/test_arktia_towers.py
        tests/games/arktia/test_arktia_golden.py tests/games/arktia/test_arktia_doctests.py
        tests/games/arktia/test_arktia_rules_facts.py tests/games/arktia/test_arktia_bitsets.py
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[start-2p]
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[start-3p]
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[opening-4p]
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[mid-3p-neutrals]
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[mid-4p]
        tests/games/arktia/test_arktia_perft.py::test_perft_counts[late-2p-melting]
        tests/games/arktia/test_arktia_perft.py::test_perft_agrees_with_validated_play
        tests/games/arktia/test_arktia_kit.py::test_kit_full[2-default]"
    [games/arche/rules.py]="tests/games/arche/test_arche_abilities.py tests/games/arche/test_arche_cabins.py
        tests/games/arche/test_arche_rain.py tests/games/arche/test_arche_turn.py
        tests/games/arche/test_arche_scoring.py tests/games/arche/test_arche_golden.py
        tests/games/arche/test_arche_doctests.py tests/games/arche/test_arche_rules_facts.py
        tests/games/arche/test_arche_perft.py::test_perft_counts[start-3p]
        tests/games/arche/test_arche_perft.py::test_perft_counts[mid-4p]
        tests/games/arche/test_arche_perft.py::test_perft_counts[late-3p]
        tests/games/arche/test_arche_perft.py::test_perft_counts[endgame-4p]
        tests/games/arche/test_arche_perft.py::test_perft_agrees_with_validated_play"
    [games/arctic/rules.py]="tests/games/arctic/test_rules_setup.py tests/games/arctic/test_rules_placement.py
        tests/games/arctic/test_rules_movement.py tests/games/arctic/test_rules_drawing.py
        tests/games/arctic/test_rules_powers.py tests/games/arctic/test_rules_endgame.py
        tests/games/arctic/test_golden.py tests/games/arctic/test_arctic_doctests.py
        tests/games/arctic/test_notation.py
        tests/games/arctic/test_perft.py::test_perft_counts[mid-3p]
        tests/games/arctic/test_perft.py::test_perft_counts[mid-4p-powers]
        tests/games/arctic/test_perft.py::test_perft_counts[mid-2p-variants]
        tests/games/arctic/test_perft.py::test_perft_counts[late-3p]
        tests/games/arctic/test_rules_penalty_zone.py tests/games/arctic/test_moose_stop_choice.py
        tests/games/arctic/test_observation_safety.py tests/games/arctic/test_records.py
        tests/games/arctic/test_codec.py tests/games/arctic/test_decode.py"
    # The server tests run a real server in a subprocess, where mutmut cannot see which test calls what:
    # only in-process tests count.
    [server/tables.py]="tests/server/test_tables.py"
    [server/manager.py]="tests/server/test_lobby.py tests/server/test_bot_race.py tests/server/test_seed_hook.py"
)

usage() {
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

if (($# == 0)); then
    usage
fi
if [[ "$1" == "--list" ]]; then
    for module in $(printf '%s\n' "${!tests_of[@]}" | sort); do
        printf '%-28s %s\n' "$module" "$(echo ${tests_of[$module]})"
    done
    exit 0
fi

modules=()
for arg in "$@"; do
    module="${arg#src/floe/}"
    if [[ -z "${tests_of[$module]+x}" ]]; then
        echo "mutation.sh: no test selection for '$arg' (see --list; add it to tests_of in $0)" >&2
        exit 2
    fi
    modules+=("$module")
done
# One run per module at a time: a second one would rebuild this module's working directory under the first,
# whose `mutmut show` then fails at the end (the mutants are gone). Each lock is held until the script exits.
mkdir -p "$here/.mutation"
for module in "${modules[@]}"; do
    slug="${module//\//-}"
    exec {lock}>"$here/.mutation/${slug%.py}.lock"
    if ! flock --nonblock "$lock"; then
        echo "mutation.sh: $module is being measured by another run (.mutation/${slug%.py}.lock); wait for it" >&2
        exit 2
    fi
done

source "$here/scripts/bootstrap.sh"
bootstrap_env --all-extras
# mutmut is installed here, not locked with the dev tools: it is a tool for this command only, and
# bootstrap_env's --inexact keeps it in the environment. The lock file's versions constrain it, so it never
# moves a package the project locked.
if [[ "$("$here/.venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mutmut"))' 2>/dev/null)" \
    != "$mutmut_version" ]]; then
    echo "mutation.sh: installing mutmut $mutmut_version into .venv" >&2
    constraints="$(mktemp)"
    (cd "$here" && python3 -m uv export --frozen --no-hashes --all-extras --no-emit-project --quiet) \
        >"$constraints"
    python3 -m uv pip install --quiet --python "$here/.venv/bin/python" --constraint "$constraints" \
        "mutmut==$mutmut_version" >&2
    rm -f "$constraints"
fi

summary=()
for module in "${modules[@]}"; do
    slug="${module//\//-}"
    slug="${slug%.py}"
    work="$here/.mutation/$slug"
    rm -rf "$work"
    mkdir -p "$work"
    ln -s "$here/src" "$work/src"
    ln -s "$here/tests" "$work/tests"
    # Made before Python starts: a PYTHONPATH folder missing at start-up is never looked at again.
    mkdir -p "$work/mutants/src"
    # The golden and perft tests load the generator scripts from the repository's scripts/ folder, which mutmut
    # does not copy (tests/games/scripts.py finds it next to tests/).
    ln -s "$here/scripts" "$work/mutants/scripts"
    # Hypothesis without shrinking (a failing example is enough to kill a mutant; shrinking it only costs
    # time) and derandomized, so that two runs on the same code give the same score.
    cat >"$work/mutants/conftest.py" <<'EOF'
from hypothesis import Phase, settings

settings.register_profile(
    "mutation", derandomize=True, database=None, deadline=None, phases=(Phase.explicit, Phase.generate)
)
settings.load_profile("mutation")
EOF
    # The project's pyproject.toml (for pytest's settings) with this module's mutmut settings after it.
    {
        cat "$here/pyproject.toml"
        echo
        echo "[tool.mutmut]"
        echo 'source_paths = ["src"]'
        echo "only_mutate = [\"src/floe/$module\"]"
        printf 'pytest_add_cli_args_test_selection = ['
        sep=""
        for test in ${tests_of[$module]}; do
            printf '%s"%s"' "$sep" "$test"
            sep=", "
        done
        echo "]"
        # A mutant that loops for ever is stopped after this many times its tests' CPU time (twice, plus a
        # second; mutmut's default, 15, lets one endless search run for twenty minutes).
        echo "timeout_multiplier = 3.0"
        # No xdist, no cache files in the tree; hypothesis keeps its examples database out of the tree too.
        echo 'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider"]'
    } >"$work/pyproject.toml"

    echo "== $module: mutants tested against" ${tests_of[$module]} >&2
    # Subprocesses the tests start (the CLI, servers) import the mutated copy too, not the editable install.
    (cd "$work" && PYTHONPATH="$work/mutants/src" "$here/.venv/bin/mutmut" run \
        --max-children "${MUTATION_JOBS:-1}") >"$work/run.log" 2>&1 || {
        tail -40 "$work/run.log" >&2
        echo "mutation.sh: mutmut failed for $module (log: $work/run.log)" >&2
        exit 1
    }
    (cd "$work" && "$here/.venv/bin/mutmut" results --all true) >"$work/results.txt"
    # A mutant that makes the tests run past their time limit (an endless loop) counts as caught.
    killed=$(grep -c ': \(killed\|timeout\)$' "$work/results.txt" || true)
    timeouts=$(grep -c ': timeout$' "$work/results.txt" || true)
    total=$(grep -c ': ' "$work/results.txt" || true)
    others=$(grep -v ': \(killed\|timeout\)$' "$work/results.txt" || true)
    summary+=("$(printf '%-28s %4s killed of %4s (%s by timeout)' "$module" "$killed" "$total" "$timeouts")")
    echo "== $module: $killed killed of $total ($timeouts by timeout)" >&2
    if [[ -n "$others" ]]; then
        echo "$others" >&2
        # Every mutant not killed, as a diff, for judging which are equivalent (mutmut's errors, if any, on
        # the terminal rather than in the file).
        for name in $(echo "$others" | sed 's/^ *//; s/: .*//'); do
            (cd "$work" && "$here/.venv/bin/mutmut" show "$name")
            echo
        done >"$work/survivors.diff"
        echo "   (their diffs: .mutation/$slug/survivors.diff)" >&2
    fi
done

echo
printf '%s\n' "${summary[@]}"
exit
}
