"""The command line speaks the designer's words: every argument has help,
and long commands report progress off a terminal."""

import argparse
from pathlib import Path

from gamelab.cli.commands import build_parser


def _subcommands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_every_argument_of_every_command_has_help():
    missing = [
        f"{name} {a.option_strings or a.dest}"
        for name, p in _subcommands().items()
        for a in p._actions
        if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()
    ]
    assert missing == []
    assert "GOAL.yaml" in _subcommands()["tune"].format_help() and "--trials" in _subcommands()["tune"].format_help()


def test_progress_off_a_terminal_is_a_line_every_few_seconds(capsys, monkeypatch):
    from gamelab.sim import executors

    clock = iter([0.0, 1.0, 2.0, 6.0, 7.0, 12.5])
    bar = executors.LineProgress(10, "trial", "tune")
    monkeypatch.setattr(bar, "clock", lambda: next(clock))
    bar.start = bar.last = 0.0
    bar.set_postfix_str("best miss so far 0.02")
    for _ in range(6):
        bar.update(1)
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "tune: 4 of 10 trials after 6 s, best miss so far 0.02",
        "tune: 6 of 10 trials after 12 s, best miss so far 0.02",
    ]
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert isinstance(executors.progress_bar(total=3, unit="game", progress=True), executors.LineProgress)
    assert not isinstance(executors.progress_bar(total=3, unit="game", progress=None), executors.LineProgress)


def test_a_long_command_prints_progress_lines_into_a_log(capsys, monkeypatch, tmp_path):
    from gamelab.cli import commands as cli
    from gamelab.sim import executors

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    monkeypatch.setattr(executors, "LINE_EVERY", 0.0)  # every update: the test need not wait 5 s
    monkeypatch.setattr(executors, "LINES_OFF_TERMINAL", False)
    assert cli.main(["simulate", "toy", "--games", "3000", "--lineup", "strong", "weak"]) == 0
    err = capsys.readouterr().err
    assert "gamelab simulate toy: " in err and " of 3,000 games after " in err, err  # which command, in a shared log


def test_tune_test_and_sensitivity_read_as_sentences_in_the_games_words(capsys, tmp_path, monkeypatch):
    import yaml
    from words import raw_words

    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    lineup = ["--lineup", "strong", "weak"]
    goal = tmp_path / "goal.yaml"
    goal.write_text(
        yaml.safe_dump(
            {
                "game": "toy",
                "players": 2,
                "lineup": ["strong", "weak"],
                "free": {"bonus_scale": [0, 3]},
                "targets": [{"metric": "win_rate[agent=strong]", "at_most": 0.58}],
                "trials": 16,
                "games": 1000,
                "seed": 3,
            }
        )
    )
    runs = ["--runs-dir", str(tmp_path / "runs"), "--out", str(tmp_path / "out")]
    assert cli.main(["tune", str(goal), *runs]) == 0
    tune_out = capsys.readouterr().out
    first = tune_out.splitlines()[1]
    assert first.startswith("Proposal 1, bonus scale 1 → ") and "meets the target: a sequential test" in first
    assert cli.main(["test", "toy", "agent_spread < 0.1", *lineup]) == 0
    test_out = capsys.readouterr().out
    assert test_out.startswith("No: the agent spread is ") and test_out.count("\n") == 1
    assert cli.main(["sensitivity", "toy", *lineup, "--games", "1000", "--metric", "agent_spread"]) == 0
    sens_out = capsys.readouterr().out
    assert sens_out.startswith("To lower the agent spread (now ")
    for out in (tune_out, test_out, sens_out):
        shown = "\n".join(line for line in out.splitlines() if not line.startswith("wrote "))
        assert raw_words(shown, "toy") == [], shown


def test_skill_trace_reads_as_sentences_in_the_games_words(capsys, tmp_path, monkeypatch):
    """``gamelab skill --trace``: the answer first (the metric by its label, in
    points), whether each level beats the one below, then the tables; no raw
    identifier of the declarations."""
    from words import raw_words

    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    args = ["skill", "strand", "--players", "4", "--trace", "style_spread", "--games", "12", "--top", "best@1"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].startswith("The style spread is ") and " points at the " in lines[1]
    assert lines[2].startswith("Each rung beats the one below") and "search, 1 play-out per option" in lines[2]
    assert "styles by restricted play" in out
    assert "style spread (points)" in out
    assert raw_words(out, "strand") == [], out


ONLY = "sum_cap,rounds,rain_cards"
PLAYTESTS = Path(__file__).resolve().parent.parent / "data" / "playtests"


def test_cli_answers_and_the_sentences_file_have_no_code_names_nan_reprs_or_mojibake(capsys, tmp_path, monkeypatch):
    """``identities`` (with and without changed rules), ``sensitivity`` at the
    game's headline with steps that cannot be played or change nothing, and
    ``claims --params --rewrite`` (its answer and the Markdown file) pass the
    words check: no snake_case name, NaN, Python repr or mojibake."""
    from words import unreadable

    from gamelab.cli import commands as cli
    from gamelab.rulebook.coverage import seed_path

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    rules = tmp_path / "rules.yaml"
    rules.write_text("sum_cap: 8\n")
    answers = []
    for game, args in (
        ("strand", ["identities", "strand", "--params", str(rules)]),
        ("sbr", ["identities", "sbr"]),
        ("strand", ["sensitivity", "strand", "--players", "4", "--games", "300", "--only", ONLY]),
    ):
        assert cli.main(args) == 0
        answers.append((game, args, capsys.readouterr().out))
    sensitivity = answers[-1][2]
    assert sensitivity.startswith("To lower the style spread (now ")  # STRAND's headline by default
    assert " at 4 players, 95 % interval " in sensitivity.splitlines()[0]
    assert sensitivity.count("Not stepped: ") == 1 and "rain cards (a list of names" in sensitivity
    if seed_path("strand").exists():
        md = tmp_path / "sentences.md"
        assert cli.main(["claims", "strand", "--params", str(rules), "--rewrite", str(md)]) == 0
        answers.append(("strand", ["claims"], capsys.readouterr().out))
        text = md.read_text(encoding="utf-8")
        assert text.startswith("# STRAND") and "Rules changed from the rulebook: sum cap = 8." in text
        answers.append(("strand", ["sentences file"], text))
    grid = tmp_path / "grid.yaml"
    grid.write_text("game: strand\ngrid: {sum_cap: [6, 7]}\nn_games: 200\nseed: 1\nn_players: 4\n")
    for game, args in (  # the ledgers, the claims audit, a run, a sweep: tables in words, no NaN or True/False
        ("sbr", ["replay", str(PLAYTESTS / "sbr_example.json")]),
        ("strand", ["replay", str(PLAYTESTS / "strand_example.json")]),
        ("strand", ["claims", "strand", "--n-games", "300", "--workers", "1"]),
        ("strand", ["simulate", "strand", "--players", "4", "--games", "300"]),  # win tables in words
        ("strand", ["sweep", str(grid), "--runs-dir", str(tmp_path / "runs")]),
    ):
        assert cli.main(args) == 0
        answers.append((game, args, capsys.readouterr().out))
    assert "inside our interval" in answers[-3][2] and "sbr " not in answers[-3][2]  # only the game asked
    assert "Win rate by style, 4 players (95 % Wilson interval)" in answers[-2][2] and " %" in answers[-2][2]
    assert "Win rate by agent, 4 players\nsum cap " in answers[-1][2] and "the style mix, style 1" in answers[-1][2]
    for game, args, out in answers:
        assert unreadable(out, game) == [], (args, unreadable(out, game))
    assert "NaN" not in answers[0][2] and "{" not in answers[0][2].splitlines()[0]


def test_calibrate_and_the_plain_skill_ladder_answer_in_words(capsys, tmp_path, monkeypatch):
    """``gamelab calibrate`` (a couple of trials) and ``gamelab skill`` without a trace pass the words
    check too: no snake_case name, NaN, Python repr or mojibake."""
    from words import unreadable

    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    answers = []
    for game, args in (
        ("strand", ["calibrate", "strand", "--trials", "2", "--games", "200", "--out", str(tmp_path / "p.yaml")]),
        ("sbr", ["skill", "sbr", "--players", "2", "--games", "40"]),
    ):
        assert cli.main(args) == 0
        answers.append((game, args, capsys.readouterr().out))
    for game, args, out in answers:
        assert out.strip() and unreadable(out, game) == [], (args, unreadable(out, game))
