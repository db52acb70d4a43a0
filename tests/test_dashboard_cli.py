"""``unanimity dashboard``: the command line it runs, and a clear error for a bad path."""

from __future__ import annotations

import argparse

from streamlit import config

from metrics.cli import main
from metrics.commands import dashboard


def test_streamlit_command_runs_the_app_headless_with_the_path(tmp_path):
    args = argparse.Namespace(path=str(tmp_path), port=8765, address="localhost")
    cmd = dashboard.streamlit_command(args)
    assert cmd[1:4] == ["-m", "dashboard.serve", "run"]
    assert cmd[4] == str(dashboard.app_path()) and dashboard.app_path().is_file()
    assert cmd[cmd.index("--server.headless") + 1] == "true"
    assert cmd[cmd.index("--server.port") + 1] == "8765"
    assert cmd[-2:] == ["--", str(tmp_path.resolve())]


def test_no_path_opens_the_bundled_campaign():
    args = argparse.Namespace(path=None, port=8501, address="localhost")
    assert "--" not in dashboard.streamlit_command(args)


def test_missing_path_is_a_one_line_error(capsys):
    assert main(["dashboard", "/no/such/campaign"]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder" in err and "Traceback" not in err


def test_every_option_is_one_streamlit_knows():
    """A misspelt option would stop the server at its start: each ``--section.name`` of the
    command is one of Streamlit's configuration options (and the run's garbage collection is
    off, docs/dashboard-in-use.md "Cold open")."""
    args = argparse.Namespace(path=None, port=8501, address="localhost")
    cmd = dashboard.streamlit_command(args)
    options = [c[2:] for c in cmd if c.startswith("--") and "." in c]
    known = config.get_config_options()
    assert options and [o for o in options if o not in known] == []
    assert cmd[cmd.index("--runner.postScriptGC") + 1] == "false"
