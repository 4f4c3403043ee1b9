# Sourced by ./floe and ./floe-test: install uv if missing, then the locked environment in .venv.
# Usage: bootstrap_env [uv sync options: --no-dev for ./floe, --all-extras for the tests]
set -euo pipefail
export UV_PYTHON_DOWNLOADS=never

bootstrap_env() {
    local here
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    if ! python3 -m uv --version >/dev/null 2>&1; then
        echo "floe: installing uv (first run only)..." >&2
        python3 -m pip install --quiet --disable-pip-version-check uv >&2
    fi
    # --inexact keeps packages another command installed (the dev tools for the tests, say).
    (cd "$here" && python3 -m uv sync --frozen --inexact --quiet "$@" >&2)
}
