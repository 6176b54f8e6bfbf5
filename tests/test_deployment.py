"""The deployment files and the example configuration say what the code does."""
from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import msgspec
import yaml

from pbem.cli import build_parser
from pbem.config import Config, load

ROOT = Path(__file__).resolve().parent.parent


def test_the_example_config_is_valid_and_documents_every_key():
    config = load(ROOT / "config.example.yaml")
    assert config.gm.address == "gm@example.test"
    data = yaml.safe_load((ROOT / "config.example.yaml").read_text())
    for info in msgspec.structs.fields(Config):
        section = info.name
        if section == "config_dir":
            continue
        assert section in data, f"{section} missing from config.example.yaml"
        if isinstance(info.type, type) and issubclass(info.type, msgspec.Struct):
            sub = [field.name for field in msgspec.structs.fields(info.type)]
            assert set(sub) == set(data[section]), f"{section}: {set(sub) ^ set(data[section])}"


def test_the_systemd_unit_runs_the_daemon():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "contrib" / "pbem.service")
    argv = shlex.split(unit["Service"]["ExecStart"])
    assert argv[0].endswith("/pbem") and argv[1:] == ["run"]
    assert unit["Service"]["KillSignal"] == "SIGTERM" and unit["Service"]["Restart"] == "on-failure"
    build_parser().parse_args(argv[1:])


def test_the_cron_line_and_the_pipes_call_real_commands():
    cron = [ln for ln in (ROOT / "contrib" / "crontab").read_text().splitlines() if ln and not ln.startswith("#")]
    assert len(cron) == 2 and cron[0].split()[:5] == ["*/5", "*", "*", "*", "*"]
    assert cron[1].split()[:5] == ["17", "3", "*", "*", "*"]  # the nightly copy of the store
    for line, words in zip(cron, (["process"], ["backup", "--force", "/srv/pbem/backups/pbem.sqlite3"])):
        assert ". /srv/pbem/secrets.env" in line and "PBEM_CONFIG=/srv/pbem/pbem.yaml" in line
        argv = shlex.split(line.split("/srv/pbem/.venv/bin/pbem ", 1)[1].split(">>", 1)[0])
        assert argv == words
        build_parser().parse_args(argv)
    for name in ("forward", "procmailrc"):
        text = (ROOT / "contrib" / name).read_text()
        line = next(ln for ln in text.splitlines() if "pbem" in ln and not ln.startswith("#"))
        shell = shlex.split(line.strip().strip('"').lstrip("|").strip())
        assert shell[:2] == ["/bin/sh", "-c"]
        script = shell[2]
        assert script.startswith("set -a; . /srv/pbem/secrets.env; exec ")
        argv = shlex.split(script.split("exec ", 1)[1])
        assert argv[-1] == "deliver"
        build_parser().parse_args(argv[1:])


def test_the_admin_guides_provider_settings_parse(tmp_path, monkeypatch):
    """The admin's guide's snippet for a provider account is a working configuration."""
    import re
    from pbem.config import load
    readme = (ROOT / "docs" / "admin.md").read_text()
    block = re.search(r"\*\*With a provider account.*?```yaml\n(.*?)```", readme, re.S).group(1)
    for name in ("PBEM_IMAP_PASSWORD", "PBEM_SMTP_PASSWORD", "PBEM_GM_SECRET"):
        monkeypatch.setenv(name, "s3cret-" + name)
        assert "${" + name + "}" in block or name == "PBEM_GM_SECRET"
    (tmp_path / "pbem.yaml").write_text(block)
    config = load(tmp_path / "pbem.yaml")
    assert config.transport == "imap" and config.imap.password == "s3cret-PBEM_IMAP_PASSWORD"
    assert config.smtp.password == "s3cret-PBEM_SMTP_PASSWORD"
    for name in ("PBEM_IMAP_PASSWORD", "PBEM_SMTP_PASSWORD"):
        assert name in (ROOT / "contrib" / "pbem.service").read_text()
        assert name in (ROOT / "config.example.yaml").read_text()


def test_every_package_of_pbem_is_installed():
    """`pip install .` ships only the packages pyproject.toml lists: a new one left out works
    in the checkout and fails once installed."""
    import tomllib
    root = Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "pbem").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)
