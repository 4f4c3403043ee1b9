"""Floe's command line: ``floe games | options | serve | play | replay | score | simulate | bench | …``.

Every game comes from the registry (``floe.core.registry``); nothing here names one. Bad input (an unknown
game, option or bot, a malformed pile, a corrupt record) ends with a one-line message on stderr and exit
code 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from floe.core.errors import FloeError
from floe.core.i18n import FLOE

# The most finished tables `floe bench startup` stores (10,000 is the figure the issue asks for).
MAX_STARTUP_TABLES = 100_000
# `floe bench lab`: its default number of random games per measurement (seconds each on two cores), and a
# bound on a mistyped number.
LAB_BENCH_GAMES = 2_000
MAX_LAB_BENCH_GAMES = 10_000_000
# Bounds on the other benchmarks' numbers: far above any useful run, below a mistyped one.
MAX_BENCH_GAMES = 1_000_000
MAX_BENCH_ITERATIONS = 10_000_000
MAX_BENCH_POSITIONS = 100_000
MAX_BENCH_TABLES = 100_000
MAX_BENCH_SECONDS = 86_400

if TYPE_CHECKING:
    from floe.lab.where import Backend
    from floe.server.settings import Settings

app = typer.Typer(
    help="Floe: a digital table for tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True)


def fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    # Escaped: a message may hold brackets (floe[ray]) that Rich would take for markup.
    label = FLOE.gettext("error:")  # in the language in force (a command's --lang)
    err.print(f"[bold red]{escape(label)}[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _check_games(games: int) -> None:
    """Refuse a number of games out of bounds before any work (``MAX_RUN_GAMES``)."""
    from floe.lab.backends import MAX_RUN_GAMES

    if not 0 < games <= MAX_RUN_GAMES:
        fail(f"--games must be 1 to {MAX_RUN_GAMES:,}, not {games:,}")


def _options(pairs: list[str] | None, preset: str | None, game: str) -> dict[str, object]:
    """The ``--option key=value`` pairs (and ``--preset``) of ``game``; a ``file`` option's value is a path
    whose text is read here."""
    from floe.core.i18n import L_
    from floe.core.options import read_file_options
    from floe.core.registry import entry

    options: dict[str, object] = {}
    if preset:
        options["preset"] = preset
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq:
            fail(str(L_("option %(pair)s must look like key=value", pair=repr(pair))))
        options[key.strip()] = value.strip()
    try:
        return read_file_options(entry(game).options, options)
    except FloeError as exc:
        fail(str(exc))
        raise


OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule flag as key=value (repeatable; see floe options GAME)."),
]
# Shortcuts for --option preset=... and --option powers=...: hidden from the help, which every game shares,
# since only some games have these options (``floe options GAME`` shows them where they exist); a game
# without the option refuses it as it refuses --option preset=... (an unknown option).
PresetOpt = Annotated[str | None, typer.Option(hidden=True)]
PowersOpt = Annotated[str | None, typer.Option(hidden=True)]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        help="Worker processes (default 1); with --ray, the local Ray instance's CPUs (default: all)."
    ),
]
RayOpt = Annotated[
    bool,
    typer.Option("--ray", help="Run the games on a local Ray instance started for the run (extra ray)."),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option(help="Run the games on the Ray cluster at this address (host:port; see docs/scaling.md)."),
]
BatchOpt = Annotated[int | None, typer.Option(help="On Ray: games per Ray task (default 32).")]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", help="Continue the --out file, playing only its missing games.")
]
GameArg = Annotated[
    str | None, typer.Argument(help="The game (floe games lists them; default: the first listed).")
]
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang", help="Language of the game's texts: en, de, it, pl (default: LC_ALL, LC_MESSAGES, LANG)."
    ),
]


def _language(lang: str | None) -> str:
    """The language a user command prints in: ``--lang``, else the environment's (``floe.core.i18n``)."""
    from floe.core import i18n

    if lang is None:
        return i18n.from_environment(os.environ)
    found = i18n.language(lang)
    if found is None:
        fail(f"unknown language {lang[:16]!r}; known: {', '.join(i18n.LANGUAGES)}")
    return found or i18n.SOURCE


def _backend(workers: int | None, ray: bool, ray_address: str | None, batch: int | None) -> Backend:
    """Where a lab command's games run, from ``--workers``, ``--ray``, ``--ray-address`` and ``--batch``."""
    import os

    from floe.lab.where import DEFAULT_BATCH, MAX_WORKERS, Backend

    if workers is not None and workers <= 0:
        fail("--workers must be positive")
    on_ray = ray or ray_address is not None
    if ray_address is not None and workers is not None:
        fail("--workers sets a local run's processes or Ray CPUs; a cluster (--ray-address) has its own")
    if batch is not None and not on_ray:
        fail("--batch goes with --ray or --ray-address")
    if workers is None:
        workers = min(os.cpu_count() or 1, MAX_WORKERS) if on_ray else 1
    try:
        return Backend(
            workers, ray=ray, ray_address=ray_address, batch=DEFAULT_BATCH if batch is None else batch
        )
    except FloeError as exc:
        fail(str(exc))
        raise


def _game(name: str | None) -> str:
    """``name``, or the default game; a one-line error if no game is installed."""
    from floe.core.registry import default_game

    if name is not None:
        return name
    try:
        return default_game()
    except FloeError as exc:
        fail(str(exc))
        raise


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the games Floe has (every installed game package)."""
    from floe.core.registry import entries

    found = entries()
    if as_json:
        print(json.dumps([e.info() for e in found]))
        return
    out = Console()
    for e in found:
        notice = f" [yellow]({e.notice})[/]" if e.notice else ""
        out.print(
            f"[bold]{e.name}[/]  {e.title}, {e.min_players}–{e.max_players} players: {e.summary}{notice}",
            highlight=False,
        )


@app.command()
def options(
    game: Annotated[str, typer.Argument(help="The game.")],
    markdown: Annotated[bool, typer.Option("--markdown", help="Print a Markdown table.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    bot: Annotated[
        str | None, typer.Option("--bot", help="List this bot's parameters (name:key=value) instead.")
    ] = None,
) -> None:
    """List a game's options (--option key=value): values, default, what each does, which rule it follows;
    with --bot NAME, that bot's parameters in this game."""
    from floe.bots.registry import bot_parameters
    from floe.core.registry import entry

    try:
        schema = entry(game).options if bot is None else bot_parameters(bot.strip().lower(), game)
    except FloeError as exc:
        fail(str(exc))
        return
    if as_json:
        print(json.dumps([o.to_dict() for o in schema.options]))
    elif markdown:
        print(schema.markdown(), end="")
    else:
        from rich.padding import Padding
        from rich.text import Text

        # One block per option: its name and the values (what a person types) are never cut; a long line
        # wraps at a space or folds, and the description wraps under it, at any terminal width.
        out = Console()
        title = f"{game} options" if bot is None else f"{bot} parameters in {game}"
        out.print(Text(title, style="bold"))
        if not schema.options:
            out.print(Text("none"))
        for o in schema.options:
            values = o.values_words().replace("`", "")
            head = Text.assemble((o.name, "bold cyan"), "  ", values)
            head.append(f"  · default {o.default_words().replace('`', '')}")
            if o.source:
                head.append(f"  · follows {o.source_words()}", style="dim")
            out.print(head, overflow="fold")
            out.print(Padding(Text(o.help), (0, 0, 0, 4)))


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default 8000).")] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Directory of the embedded SQLite database (default floe-data)."),
    ] = None,
    db: Annotated[
        str | None, typer.Option(help="A postgresql:// URL to store tables in PostgreSQL instead of SQLite.")
    ] = None,
    bot_workers: Annotated[
        int | None, typer.Option(help="Worker processes for bot decisions (default 2).")
    ] = None,
    bot_time_cap: Annotated[
        float | None,
        typer.Option(help="Seconds one bot decision may take, whatever the bot's parameters (default 10)."),
    ] = None,
    away_after: Annotated[
        float | None,
        typer.Option(
            help="Seconds a disconnected person may hold up their turn before a bot plays (default 60)."
        ),
    ] = None,
    setting: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Any server setting as name=value (repeatable), e.g. --set create_per_minute=30; "
            "FLOE_<NAME> environment variables set them too. See docs/security.md.",
        ),
    ] = None,
) -> None:
    """Serve the web table: lobby, tables in the browser, bots, replays (open the printed URL)."""
    import uvicorn

    from floe.server.app import create_app
    from floe.server.store import database_url

    settings = _server_settings(
        setting,
        host=host,
        port=port,
        data_dir=data_dir,
        db=db,
        bot_workers=bot_workers,
        bot_time_cap=bot_time_cap,
        away_after=away_after,
    )

    from sqlalchemy.exc import SQLAlchemyError

    from floe.server.listen import Announcing, PortTaken, bind, bounded_h11, max_connections
    from floe.server.store import Store, StoreBusy

    host, port = settings.host, settings.port
    # Bound first: a port in use is said in one line before the database is opened or a worker started.
    try:
        sock = bind(host, port)
    except PortTaken:
        fail(f"port {port} is taken on {host} (another program listens there): choose another with --port")
        raise
    except OSError as exc:
        fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
        raise
    try:
        store = Store(database_url(settings.db, settings.data_dir))
        store.claim(settings.data_dir, settings.claim_wait)
    except (ValueError, OSError, StoreBusy) as exc:
        sock.close()
        fail(str(exc))
    except SQLAlchemyError as exc:
        sock.close()
        fail(f"cannot open the database: {str(exc.orig if hasattr(exc, 'orig') else exc).splitlines()[0]}")
    settings.store = store
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    storage = "PostgreSQL" if settings.db else f"SQLite in {settings.data_dir}"

    def announce() -> None:  # once the tables are loaded and the socket accepts connections
        err.print(
            f"Floe web table on [bold]http://{shown}:{port}/[/] (tables stored in {storage})",
            highlight=False,
            soft_wrap=True,
        )

    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        # h11 bounds the request line and headers (httptools takes them whatever their size); floe's
        # subclass of it also bounds how long a head may take and the sockets per address and in all.
        http=bounded_h11(
            settings.http_head_timeout, settings.http_connections_per_client, max_connections(settings)
        ),
        timeout_keep_alive=settings.http_keep_alive,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        ws_max_size=settings.ws_max_bytes,
        ws_per_message_deflate=False,
        # The client address (the per-client limits) comes from X-Forwarded-For only when proxies are
        # named: otherwise any local client could claim to be anyone.
        proxy_headers=settings.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    Announcing(config, announce).run(sockets=[sock])


def _server_settings(pairs: list[str] | None, **options: object) -> Settings:
    """The server's settings: defaults, then FLOE_ environment variables, then ``--set name=value``
    pairs, then the named options given; a bad value ends with a one-line error."""
    from pydantic import ValidationError

    from floe.server.settings import Settings

    given: dict[str, object] = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in Settings.model_fields or name == "store":
            fail(f"--set takes name=value with a server setting's name, not {pair!r} (see docs/security.md)")
        given[name] = value.strip()
    given.update({k: v for k, v in options.items() if v is not None})
    try:
        settings = Settings(**given)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        fail(f"setting {where}: {first.get('msg', 'invalid')}")
        raise  # unreachable: fail exits
    if settings.bot_workers <= 0 or settings.away_after <= 0 or not 0 < settings.bot_time_cap <= 3600:
        fail("--bot-workers and --away-after must be positive, --bot-time-cap from 0 to 3600 seconds")
    return settings


@app.command()
def play(
    game: GameArg = None,
    players: Annotated[int, typer.Option(help="Number of players.")] = 3,
    seat: Annotated[int, typer.Option(help="Your seat, 1-based.")] = 1,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bots for the other seats, comma-separated (default: the game's default opponent)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffle (random if omitted).")] = None,
    preset: PresetOpt = None,
    powers: PowersOpt = None,
    option: OptionList = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record here at the end.")] = None,
    lang: LangOpt = None,
) -> None:
    """Play a game in the terminal against bots."""
    from floe.core.i18n import using
    from floe.play.terminal import run_terminal_game

    game = _game(game)
    # Its errors too are written in the language chosen (each is a lazy message: floe.core.i18n.Msg).
    with using(_language(lang)):
        options = _options(option, preset, game)
        if powers:
            options["powers"] = powers
        try:
            run_terminal_game(
                game, players=players, seat=seat - 1, bots=bots, seed=seed, options=options, save=save
            )
        except FloeError as exc:
            fail(str(exc))


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    seat: Annotated[int | None, typer.Option(help="Show the table as this seat saw it (1-based).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    lang: LangOpt = None,
) -> None:
    """Check a record by replaying it, then print the final table and scores."""
    from floe.core.i18n import using
    from floe.core.record import Record
    from floe.play.views import print_final

    try:
        rec = Record.load(record)
        state = rec.replay()
        if not as_json:
            with using(_language(lang)):
                print_final(state, None if seat is None else seat - 1, rec)
            return
    except FloeError as exc:
        fail(str(exc))
        return
    data: dict[str, object] = {"game": rec.game, "actions": len(rec.actions), "over": state.is_terminal()}
    if state.is_terminal():
        data["scores"] = state.scores()
        data["ranking"] = state.ranking()
        data["breakdowns"] = state.score_breakdowns()
    print(json.dumps(data))


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
)
def score(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="The game; its own options follow (floe score GAME --help).")],
) -> None:
    """Score a position of a physical game (a helper at the table), (floe score GAME --help)."""
    from floe.core.entry import resolve
    from floe.core.registry import entries, entry

    if game in ("--help", "-h"):  # its own help (the game's options, --help included, go to the game)
        typer.echo(ctx.get_help())
        raise typer.Exit()

    try:
        found = entry(game)
    except FloeError as exc:
        fail(str(exc))
        return
    if found.score is None:
        helpers = ", ".join(e.name for e in entries() if e.score) or "none"
        fail(f"{found.name} has no score helper; games with one: {helpers}")
        return
    command = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    command.command()(resolve(found.score))
    cli = typer.main.get_command(command)
    try:
        with cli.make_context(f"floe score {found.name}", list(ctx.args)) as inner:
            cli.invoke(inner)
    except (FloeError, ValueError) as exc:
        fail(str(exc))
    except typer.TyperException as exc:  # a usage error of the game's own options
        fail(getattr(exc, "format_message", exc.__str__)())


@app.command()
def simulate(
    game: GameArg = None,
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    bots: Annotated[
        str, typer.Option(help="Bots, comma-separated (fewer than seats: the last one fills the rest).")
    ] = "random",
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    preset: PresetOpt = None,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    batch: BatchOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Keep the games in this results file, one JSON line per game (docs/lab.md)."),
    ] = None,
    resume: ResumeOpt = False,
) -> None:
    """Play many bot games with seats rotated; print each bot's wins, mean score and mean rank."""
    from floe.lab.simulate import run_simulation

    _check_games(games)
    backend = _backend(workers, ray, ray_address, batch)
    try:
        game = _game(game)
        options = _options(option, preset, game)
        run_simulation(game, players, games, bots, seed, options, as_json, backend, out, resume)
    except FloeError as exc:
        fail(str(exc))


# --- floe bench: one sub-command per thing measured ------------------------------------------------------

bench_app = typer.Typer(
    help="Measure the engine, its searches, the lab, the learning adapters or the web table; print figures "
    "(JSON with --json; the fields: docs/performance.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(bench_app, name="bench")

BenchGameArg = Annotated[
    str | None, typer.Argument(help="The game (floe games lists them; default: the first listed).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
SeedOpt = Annotated[int, typer.Option(help="Seed.")]
IterationsOpt = Annotated[int, typer.Option(help="Iterations per search.")]


def _bench_players(game: str, players: int | None, fewest: bool = False) -> int:
    """``players``, or the game's most (``fewest``: its fewest); a one-line error if the game is unknown or
    cannot seat them."""
    from floe.core.registry import entry

    try:
        spec = entry(game)
    except FloeError as exc:
        fail(str(exc))
        raise
    if players is None:
        return spec.min_players if fewest else spec.max_players
    if not spec.min_players <= players <= spec.max_players:
        fail(f"--players must be {spec.min_players} to {spec.max_players} for {game}, not {players}")
    return players


def _within(name: str, value: int | float, low: int | float, high: int | float) -> None:
    """A one-line error unless ``low <= value <= high``: every number is bounded before any work."""
    if not low <= value <= high:
        fail(f"{name} must be {low:,} to {high:,}, not {value:,}")


@bench_app.command("engine")
def bench_engine(
    game: BenchGameArg = None,
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's most).")] = None,
    games: Annotated[int, typer.Option(help="How many random games.")] = 200,
    seed: SeedOpt = 0,
    iterations: IterationsOpt = 1000,
    as_json: JsonOpt = False,
) -> None:
    """The engine's speed in random play: decisions/s, games/s, the mean µs of clone, apply and legal
    actions; for a game with the mcts bot, UCT's iterations/s at its fewest and most players too."""
    from floe.bench.engine import print_figures, run_engine

    game = _game(game)
    count = _bench_players(game, players)
    _within("--games", games, 1, MAX_BENCH_GAMES)
    _within("--iterations", iterations, 1, MAX_BENCH_ITERATIONS)
    try:
        print_figures(run_engine(game, count, games, seed, iterations), as_json)
    except FloeError as exc:
        fail(str(exc))


@bench_app.command("search")
def bench_search(
    game: BenchGameArg = None,
    bot: Annotated[
        str, typer.Option(help="The search: ismcts, or mcts (games of perfect information).")
    ] = "ismcts",
    players: Annotated[
        list[int] | None,
        typer.Option(help="Number of players (repeatable; default: the game's fewest and most)."),
    ] = None,
    positions: Annotated[int, typer.Option(help="Positions searched per number of players.")] = 10,
    iterations: IterationsOpt = 1000,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """A search bot's iterations per second on one core, on positions from seeded games
    (iterations_per_sec_<N>p for each number of players)."""
    from floe.bench.engine import SEARCHES, bench_search, has_mcts, player_range, print_figures

    game = _game(game)
    counts = sorted({_bench_players(game, n) for n in players}) if players else list(player_range(game))
    if bot not in SEARCHES:
        fail(f"--bot must be one of {', '.join(SEARCHES)}, not {bot[:40]!r}")
    if bot == "mcts" and not has_mcts(game):
        fail(f"--bot mcts needs a game with the mcts bot (perfect information); {game} has none")
    _within("--positions", positions, 1, MAX_BENCH_POSITIONS)
    _within("--iterations", iterations, 1, MAX_BENCH_ITERATIONS)
    try:
        print_figures(bench_search(game, bot, iterations, positions, seed, counts), as_json)
    except FloeError as exc:
        fail(str(exc))


@bench_app.command("lab")
def bench_lab(
    game: BenchGameArg = None,
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's most).")] = None,
    games: Annotated[int, typer.Option(help="Random games per measurement.")] = LAB_BENCH_GAMES,
    workers: Annotated[
        int | None, typer.Option(help="Local processes, and the local Ray instance's CPUs (default: all).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="The bots, one per seat or fewer (the last fills the seats left).")
    ] = "random",
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """The lab's games/s on local processes and on local Ray (extra ray), by Ray batch size."""
    from floe.lab.where import MAX_WORKERS, RAY_INSTALL, ray_installed

    game = _game(game)
    count = _bench_players(game, players)
    _within("--games", games, 1, MAX_LAB_BENCH_GAMES)
    if workers is not None:
        _within("--workers", workers, 1, MAX_WORKERS)
    if not ray_installed():
        fail(RAY_INSTALL)
    from floe.bench.lab import run_bench_lab

    try:
        run_bench_lab(
            game, count, games, workers or min(os.cpu_count() or 1, MAX_WORKERS), seed, as_json, bots
        )
    except FloeError as exc:
        fail(str(exc))


@bench_app.command("rl")
def bench_rl(
    game: BenchGameArg = None,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the game's fewest).")
    ] = None,
    games: Annotated[int, typer.Option(help="Random games per pass.")] = 50,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """The learning adapters (PettingZoo, Gymnasium, OpenSpiel) against the raw engine (extra rl)."""
    game = _game(game)
    count = _bench_players(game, players, fewest=True)
    _within("--games", games, 1, MAX_BENCH_GAMES)
    try:
        from floe.rl.bench import run_bench_rl
    except ImportError as exc:
        fail(f"floe bench rl needs the optional extra rl (uv sync --extra rl): {exc}")
        return
    try:
        run_bench_rl(count, games, seed, as_json, game)
    except (FloeError, ImportError) as exc:
        fail(str(exc))


@bench_app.command("server")
def bench_server(
    tables: Annotated[int, typer.Option(help="Concurrent tables.")] = 100,
    players: Annotated[
        int, typer.Option(help="Players per table (of the server's first game; a bot and persons).")
    ] = 2,
    think_ms: Annotated[
        float, typer.Option(help="Mean pause of a client before it moves (0: as fast as possible).")
    ] = 200.0,
    seconds: Annotated[float, typer.Option(help="Stop after this long if games go on.")] = 120.0,
    client_procs: Annotated[int, typer.Option(help="Client processes the tables are shared among.")] = 1,
    db: Annotated[str | None, typer.Option(help="A postgresql:// URL instead of SQLite.")] = None,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """The web table's moves/s and move-to-acknowledgement latency, many tables played by WebSocket
    clients."""
    _within("--tables", tables, 1, MAX_BENCH_TABLES)
    _within("--client-procs", client_procs, 1, MAX_BENCH_TABLES)
    _within("--think-ms", think_ms, 0, MAX_BENCH_SECONDS * 1000)
    _within("--seconds", seconds, 0.001, MAX_BENCH_SECONDS)
    _bench_players(_game(None), players)
    from rich.progress import Progress

    from floe.bench.engine import print_figures
    from floe.bench.server import run_server_bench

    # The progress goes to stderr and disappears at the end: stdout stays the figures (or one JSON).
    with Progress(transient=True, console=Console(stderr=True)) as progress:
        figures = run_server_bench(
            tables,
            players,
            seed,
            think_ms=think_ms,
            seconds=seconds,
            db=db,
            client_procs=client_procs,
            progress=progress,
        )
    print_figures(figures, as_json)


@bench_app.command("abuse")
def bench_abuse(
    attack: Annotated[list[str] | None, typer.Option(help="Run only this attack (repeatable).")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Small attack sizes (a test).")] = False,
    think_ms: Annotated[
        float, typer.Option(help="Mean pause of the normal tables' person before a move.")
    ] = 500.0,
    seconds: Annotated[
        float | None,
        typer.Option(help="The least each attack's window lasts (default 20, --quick 3)."),
    ] = None,
    seed: SeedOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """A normal person-vs-bot table's service while each attack of the hostile-client reports runs."""
    from floe.bench.abuse import run_abuse_bench, text_report
    from floe.bench.attacks import ATTACKS

    unknown = [a for a in attack or [] if a not in ATTACKS]
    if unknown:
        fail(f"unknown attack {unknown[0][:40]!r}; attacks: {', '.join(ATTACKS)}")
    _within("--think-ms", think_ms, 0, MAX_BENCH_SECONDS * 1000)
    if seconds is not None:
        _within("--seconds", seconds, 0.001, MAX_BENCH_SECONDS)
    figures = run_abuse_bench(attack, quick=quick, think_ms=think_ms, hold=seconds, seed=seed)
    print(json.dumps(figures) if as_json else text_report(figures))


@bench_app.command("startup")
def bench_startup(
    tables: Annotated[int, typer.Option(help="Finished tables stored before the server starts.")] = 10_000,
    replay_all: Annotated[
        bool,
        typer.Option(
            "--replay-all", help="Also time replaying every stored table (what a start cost before)."
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed.")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """How long the server takes to start with many finished tables stored."""
    _within("--tables", tables, 1, MAX_STARTUP_TABLES)
    from floe.bench.engine import print_figures
    from floe.bench.startup import run_startup_bench

    print_figures(run_startup_bench(tables, seed=seed, replay=replay_all), as_json)


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="The game.")],
    bots: Annotated[
        str,
        typer.Option(
            help="Bots, comma-separated, e.g. ismcts:it=500,c=0.7,baseline; fewer than seats: the last "
            "one fills the rest."
        ),
    ],
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    games: Annotated[
        int, typer.Option(help="Total games, rounded up to whole deals (one game per seating).")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal d uses seed + d.")] = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    batch: BatchOpt = None,
    preset: PresetOpt = None,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the per-bot summary as JSON.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Results file, one JSON line per game, to keep or --resume (default: a new file per run "
            "in the user's cache, ~/.cache/floe/tournaments/; the output names it)."
        ),
    ] = None,
    resume: ResumeOpt = False,
    plot: Annotated[Path | None, typer.Option(help="Draw each bot's score distribution to this PNG.")] = None,
) -> None:
    """Duplicate-format tournament: every deal played once per seating; win rates, Elo, head-to-head."""
    from floe.lab.tournament import run_tournament_command

    _check_games(games)
    backend = _backend(workers, ray, ray_address, batch)
    words = ["floe", "tournament"]
    words += _run_words(game, players, bots, games, seed, workers, ray, ray_address, batch, preset, option)
    words += ["--json"] if as_json else []
    words += ["--plot", str(plot)] if plot is not None else []
    try:
        run_tournament_command(
            game,
            players,
            bots,
            games,
            seed,
            backend,
            _options(option, preset, game),
            as_json=as_json,
            out=out,
            resume=resume,
            plot=plot,
            command=" ".join(shlex.quote(w) for w in words),
        )
    except FloeError as exc:
        fail(str(exc))


def _run_words(
    game: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    workers: int | None,
    ray: bool,
    ray_address: str | None,
    batch: int | None,
    preset: str | None,
    option: list[str] | None,
) -> list[str]:
    """The settings of a lab run (``floe tournament``, ``floe balance``) as command-line words, every one
    spelled out: what the results file, the report and a resume hint repeat."""
    words = [game, "--players", str(players), "--bots", bots, "--games", str(games), "--seed", str(seed)]
    words += ["--workers", str(workers)] if workers is not None else []
    words += ["--ray"] if ray else []
    words += ["--ray-address", ray_address] if ray_address is not None else []
    words += ["--batch", str(batch)] if batch is not None else []
    pairs = ([f"preset={preset}"] if preset else []) + (option or [])
    return words + [w for pair in pairs for w in ("--option", pair)]


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="The game (floe games lists them).")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 2,
    out: Annotated[
        Path | None,
        typer.Option(
            help="The run's folder, to keep or --resume (default: ~/.cache/floe/train/<game>-<N>p-seed<S>)."
        ),
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the run in --out.")] = False,
    iterations: Annotated[int, typer.Option(help="Train until the run has this many iterations.")] = 10,
    games: Annotated[int, typer.Option(help="Self-play games per iteration.")] = 24,
    search: Annotated[int, typer.Option(help="Search iterations per self-play decision.")] = 48,
    steps: Annotated[int, typer.Option(help="Gradient steps per iteration.")] = 300,
    mix: Annotated[
        float, typer.Option(help="Weight of the game's own evaluation in the search's values (0 to 1).")
    ] = 0.5,
    depth: Annotated[
        int, typer.Option(help="Rollout decisions (the game's rollout policy) before a leaf's value.")
    ] = 4,
    eval_games: Annotated[
        int, typer.Option(help="Games per evaluation match (rounded up to whole seatings; 0: none).")
    ] = 16,
    hidden: Annotated[str, typer.Option(help="Hidden layer widths, comma-separated.")] = "128,128",
    reference: Annotated[
        str | None, typer.Option(help="The bot measured against (default: the game's away_bot).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run (network, self-play, evaluation).")] = 0,
    imitate: Annotated[
        str | None,
        typer.Option(
            help="Bootstrap: first train the network to imitate this bot (e.g. baseline, ismcts:it=300)."
        ),
    ] = None,
    imitate_games: Annotated[
        int, typer.Option(help="Games of the imitated bot against itself (1 to 1,000,000).")
    ] = 1000,
    imitate_keep: Annotated[
        int, typer.Option(help="Positions kept per imitation game (a random sample).")
    ] = 16,
    imitate_steps: Annotated[
        int, typer.Option(help="The most gradient steps of the imitating network (it stops early).")
    ] = 20_000,
    imitate_window: Annotated[
        str,
        typer.Option(
            help="What of the imitation examples every iteration trains on too: none, values (their "
            "results) or all."
        ),
    ] = "values",
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    preset: PresetOpt = None,
    option: OptionList = None,
) -> None:
    """Train a learned bot by expert iteration: self-play by the network-guided search, then training
    (needs the extra train: JAX and optax), after a bootstrap that imitates a bot (--imitate). The model
    plays as net, ismcts:net=... or mcts:net=..."""
    from floe.lab.resultsdir import cache_dir
    from floe.learn.train import TrainConfig, run_training

    backend = _backend(workers, ray, ray_address, None)
    try:
        widths = tuple(int(w) for w in hidden.split(",") if w.strip())
    except ValueError:
        fail("--hidden must be widths like 128,128")
        return
    config = TrainConfig(
        game=game,
        players=players,
        options=_options(option, preset, game),
        seed=seed,
        hidden=widths,
        games=games,
        search=search,
        steps=steps,
        mix=mix,
        depth=depth,
        eval_games=eval_games,
        reference=reference or "",
        imitate=imitate or "",
        imitate_games=imitate_games,
        imitate_keep=imitate_keep,
        imitate_steps=imitate_steps,
        imitate_window=imitate_window,
    )
    folder = out if out is not None else cache_dir() / "train" / f"{game}-{players}p-seed{seed}"
    if resume and out is None:
        fail("--resume continues the run named by --out")
    if reference:
        from floe.bots.registry import make_bot
        from floe.core.registry import make_game

        try:
            make_bot(reference, make_game(game, players, config.options), 0, 0)
        except FloeError as exc:
            fail(str(exc))
    console = Console(stderr=True)
    console.print(f"run: {folder}", highlight=False, soft_wrap=True)
    try:
        record = run_training(config, folder, iterations, backend, resume=resume, console=console)
    except OSError as exc:
        fail(f"cannot use {exc.filename or folder}: {exc.strerror or exc}")
        return
    except FloeError as exc:
        fail(str(exc))
        return
    console.print(
        f"best model: {folder / 'best.npz'} "
        f"({sum(1 for it in record['iterations'] if it['iteration'] > 0)} iterations); report: "
        f"{folder / 'report.png'}; play it: FLOE_MODELS={folder / 'models'} floe play {game} --bots net",
        highlight=False,
        soft_wrap=True,
    )


@app.command()
def balance(
    game: Annotated[str | None, typer.Argument(help="The game (not with --from: the file names it).")] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Bots, comma-separated (fewer than seats: the last one fills the rest)."),
    ] = None,
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    games: Annotated[
        int,
        typer.Option(help="Games per variant, rounded up to whole deals (one game per distinct seating)."),
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal d uses seed + d.")] = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    batch: BatchOpt = None,
    preset: PresetOpt = None,
    option: OptionList = None,
    compare_option: Annotated[
        list[str] | None,
        typer.Option(
            "--compare-option",
            help="Play the same deals again with this rule (key=value, repeatable); report the differences.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON document.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Results file, one JSON line per game with its facts, to keep, --resume or --from (default: "
            "a new file per run in the user's cache, ~/.cache/floe/balance/)."
        ),
    ] = None,
    resume: ResumeOpt = False,
    report: Annotated[
        Path | None, typer.Option(help="Write a self-contained HTML report (plots, command, versions).")
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from", help="Report an existing results file's whole deals without playing."),
    ] = None,
) -> None:
    """Balance analysis: win rate and score by seat and by the game's own facts (those its balance hook
    reports), each with a 95% interval and a significance flag after Holm–Bonferroni correction."""
    from floe.lab.balance.command import report_from_file, run_balance_command

    if from_file is None:
        _check_games(games)
    # The command as it takes effect (every setting spelled out), for the results file and the report.
    words = ["floe", "balance"]
    if from_file is not None:
        words += ["--from", str(from_file)]
    else:
        words += _run_words(
            str(game), players, str(bots), games, seed, workers, ray, ray_address, batch, preset, option
        )
        words += [w for pair in compare_option or [] for w in ("--compare-option", pair)]
        words += ["--out", str(out)] if out is not None else []
        words += ["--resume"] if resume else []
    words += ["--json"] if as_json else []
    words += ["--report", str(report)] if report is not None else []
    command = " ".join(shlex.quote(w) for w in words)
    try:
        if from_file is not None:
            if (
                game is not None
                or bots is not None
                or resume
                or out is not None
                or compare_option
                or (workers is not None or ray or ray_address is not None or batch is not None)
            ):
                fail("--from reads the file and plays nothing: give it with --json and --report only")
            report_from_file(from_file, command=command, as_json=as_json, report=report)
            return
        if game is None or bots is None:
            fail("name the game and --bots (or read a results file back with --from)")
            return
        compare = None
        if compare_option:
            compare = _options(compare_option, None, game)
        run_balance_command(
            game,
            players,
            bots,
            games,
            seed,
            _backend(workers, ray, ray_address, batch),
            _options(option, preset, game),
            compare=compare,
            command=command,
            as_json=as_json,
            out=out,
            resume=resume,
            report=report,
        )
    except FloeError as exc:
        fail(str(exc))


def main() -> None:
    """Entry point: run the app, turning any Floe error that escapes into a one-line message."""
    try:
        app()
    except FloeError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
