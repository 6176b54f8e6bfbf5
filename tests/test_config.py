import os
from datetime import timedelta
from pathlib import Path
from textwrap import dedent

import pytest

from pbem.config import Config, ConfigError, find_path, load, local_defaults


def write(folder: Path, text: str, name: str = "pbem.yaml") -> Path:
    path = folder / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def problems_of(folder: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as err:
        load(write(folder, text))
    assert str(err.value) == "\n".join(err.value.problems)
    return err.value.problems


def test_minimal_file_gets_every_default(tmp_path):
    config = load(write(tmp_path, "gm: {address: gm@example.test}\n"))
    assert isinstance(config, Config)
    assert config.gm.address == "gm@example.test"
    assert config.gm.name == "Golf GM"
    assert config.gm.admins == [] and config.gm.secret is None
    assert config.transport == "local"
    assert config.config_dir == tmp_path
    assert config.store == tmp_path / "pbem.sqlite3"
    assert config.local.maildir == tmp_path / "mail"
    assert (config.imap.host, config.imap.port, config.imap.security) == ("127.0.0.1", 993, "ssl")
    assert (config.imap.mailbox, config.imap.processed_mailbox) == ("INBOX", "pbem-processed")
    assert config.imap.idle is True and config.imap.cafile is None
    assert config.imap.poll_seconds == 60
    assert (config.smtp.host, config.smtp.port, config.smtp.security) == ("127.0.0.1", 465, "ssl")
    assert config.smtp.timeout == 30 and config.smtp.cafile is None
    assert (config.games.deadline, config.games.nmr, config.games.reminder_before) == (
        "72h", "autoplay", "12h")
    assert config.games.deadline_delta == timedelta(hours=72)
    assert config.games.reminder_times == (timedelta(hours=12),) and config.games.takeover_after == 0


def test_full_file(tmp_path):
    config = load(write(tmp_path, """\
        gm: {address: judge@golf.test, name: The Judge, admins: [boss@golf.test], secret: judge-s3cret-0123}
        store: /var/lib/pbem/db.sqlite3
        transport: IMAP
        local: {maildir: /srv/mail}
        imap: {host: mail.golf.test, port: 143, security: none, username: judge, password: 12345,
               mailbox: Golf, processed_mailbox: Done, idle: no, poll_seconds: 2.5}
        smtp: {host: smtp.golf.test, port: "587", security: STARTTLS, timeout: 5}
        games: {deadline: 2d, nmr: forfeit, reminder_before: 6h}
        """))
    assert config.gm.name == "The Judge" and config.gm.admins == ["boss@golf.test"]
    assert config.gm.secret == "judge-s3cret-0123"
    assert config.store == Path("/var/lib/pbem/db.sqlite3")
    assert config.local.maildir == Path("/srv/mail")
    assert config.transport == "imap"
    assert config.imap.password == "12345"
    assert config.imap.idle is False and config.imap.poll_seconds == 2.5
    assert config.smtp.port == 587 and config.smtp.security == "starttls"
    assert config.games.deadline_delta == timedelta(days=2)
    assert config.games.nmr == "forfeit"


def test_relative_paths_follow_the_config_folder_not_the_cwd(tmp_path, monkeypatch):
    (tmp_path / "etc").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = load(write(tmp_path / "etc", """\
        gm: {address: gm@example.test}
        store: data/games.sqlite3
        local: {maildir: ../mailroot}
        imap: {cafile: certs/ca.pem}
        smtp: {cafile: ./smtp-ca.pem}
        """))
    assert config.config_dir == tmp_path / "etc"
    assert config.store == tmp_path / "etc" / "data" / "games.sqlite3"
    assert config.local.maildir == tmp_path / "mailroot"
    assert config.imap.cafile == tmp_path / "etc" / "certs" / "ca.pem"
    assert config.smtp.cafile == tmp_path / "etc" / "smtp-ca.pem"


def test_a_relative_config_path_still_gives_absolute_paths(tmp_path, monkeypatch):
    write(tmp_path, "gm: {address: gm@example.test}\n")
    monkeypatch.chdir(tmp_path)
    config = load(Path("pbem.yaml"))
    assert config.config_dir == tmp_path
    assert config.store == tmp_path / "pbem.sqlite3"


def test_environment_variables_are_substituted(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_PW", "hunter2-hunter2")
    monkeypatch.setenv("MY_PORT", "2525")
    monkeypatch.setenv("MY_DOMAIN", "golf.test")
    config = load(write(tmp_path, """\
        gm: {address: "gm@${MY_DOMAIN}", secret: "pre-${MY_PW}-post"}
        smtp: {password: "${MY_PW}", port: "${MY_PORT}", username: "$MY_PW"}
        """))
    assert config.gm.address == "gm@golf.test"
    assert config.gm.secret == "pre-hunter2-hunter2-post"
    assert config.smtp.password == "hunter2-hunter2"
    assert config.smtp.port == 2525
    assert config.smtp.username == "$MY_PW"  # only the ${NAME} form is replaced


def test_unset_environment_variable_is_a_problem(tmp_path, monkeypatch):
    monkeypatch.delenv("MY_PW", raising=False)
    monkeypatch.delenv("MY_PORT", raising=False)
    problems = problems_of(tmp_path, """\
        gm: {address: gm@example.test}
        smtp: {password: "${MY_PW}", port: "${MY_PORT}"}
        """)
    assert problems == ["smtp.password: environment variable MY_PW is not set",
                        "smtp.port: environment variable MY_PORT is not set"]


@pytest.mark.parametrize("text, line", [
    ("smtp: {port: abc}", 'smtp.port: expected an integer, got "abc"'),
    ("smtp: {port: 1.5}", "smtp.port: expected an integer, got 1.5"),
    ("smtp: {port: 0}", "smtp.port: expected a number at least 1, got 0"),
    ("imap: {port: 70000}", "imap.port: expected a number at most 65535, got 70000"),
    ("transport: pop", 'transport: expected one of local, imap, got "pop"'),
    ("imap: {security: tls}", 'imap.security: expected one of ssl, starttls, none, got "tls"'),
    ("smtp: {security: TLS}", 'smtp.security: expected one of ssl, starttls, none, got "TLS"'),
    ("games: {nmr: skip}", 'games.nmr: expected one of autoplay, wait, forfeit, robot, got "skip"'),
    ("imap: {bogus: 1}", "imap.bogus: unknown key"),
    ("colour: blue", "colour: unknown key"),
    ("config_dir: elsewhere", "config_dir: unknown key"),
    ("games: {deadline: soon}", 'games.deadline: expected a duration like 48h, 3d or 90m, got "soon"'),
    ("games: {reminder_before: 0h}",
     'games.reminder_before: expected a duration like 48h, 3d or 90m, or off, got "0h"'),
    ("imap: {idle: maybe}", 'imap.idle: expected true or false, got "maybe"'),
    ("imap: {poll_seconds: fast}", 'imap.poll_seconds: expected a number, got "fast"'),
    ("imap: {poll_seconds: 0}", "imap.poll_seconds: expected a number above 0, got 0"),
    ("smtp: {timeout: [1]}", "smtp.timeout: expected a number, got a list"),
    ("imap: {host: [a, b]}", "imap.host: expected text, got a list"),
    ("store: [a]", "store: expected a file path, got a list"),
    ("imap: {cafile: 5}", "imap.cafile: expected a file path, got 5"),
    ("smtp: 5", "smtp: expected a mapping of keys, got 5"),
    ("gm: {address: gm@example.test, admins: boss}", 'gm.admins: expected a list, got "boss"'),
])
def test_problem_lines(tmp_path, text, line):
    if "gm:" not in text:
        text = "gm: {address: gm@example.test}\n" + text
    assert problems_of(tmp_path, text + "\n") == [line]


@pytest.mark.parametrize("text, line", [
    ("store: x", "gm.address: required"),
    ("gm:", "gm.address: required"),
    ("gm: {name: GM}", "gm.address: required"),
    ("gm: {address: nobody}", 'gm.address: expected an email address like gm@example.test, got "nobody"'),
    ("gm: {address: a b@c.d}", 'gm.address: expected an email address like gm@example.test, got "a b@c.d"'),
    ("gm: {address: gm@example.test, admins: [ok@x.test, oops]}",
     'gm.admins[1]: expected an email address like gm@example.test, got "oops"'),
])
def test_gm_problem_lines(tmp_path, text, line):
    assert problems_of(tmp_path, text + "\n") == [line]


@pytest.mark.parametrize("secret, length", [("s3", 2), ("gm-secret-1", 11), ("0123456789abcde", 15),
                                            ('""', 0), ('"                 "', 0), ("123456789", 9)])
def test_a_gm_secret_shorter_than_16_characters_is_refused_without_showing_it(tmp_path, secret, length):
    """A short GM password opens every game to whoever guesses it (issue 18)."""
    problems = problems_of(tmp_path, f"gm: {{address: gm@example.test, admins: [boss@x.test], secret: {secret}}}\n")
    assert problems == [f"gm.secret: expected a password of at least 16 characters, got {length} "
                        f"character{'' if length == 1 else 's'} (leave gm.secret out for no GM commands by mail)"]
    assert secret.strip('"').strip() == "" or secret.strip('"') not in problems[0]


def test_a_gm_secret_of_16_characters_or_none_is_taken(tmp_path):
    assert load(write(tmp_path, "gm: {address: gm@example.test, secret: 0123456789abcdef}\n")).gm.secret \
        == "0123456789abcdef"
    assert load(write(tmp_path, "gm: {address: gm@example.test, secret: null}\n")).gm.secret is None


def test_every_problem_is_reported(tmp_path):
    problems = problems_of(tmp_path, """\
        store: ./x
        transport: pop
        imap: {bogus: 1, port: abc}
        smtp: {port: abc}
        games: {deadline: soon}
        """)
    assert sorted(problems) == sorted([
        "gm.address: required",
        'transport: expected one of local, imap, got "pop"',
        "imap.bogus: unknown key",
        'imap.port: expected an integer, got "abc"',
        'smtp.port: expected an integer, got "abc"',
        'games.deadline: expected a duration like 48h, 3d or 90m, got "soon"',
    ])


def test_imap_transport_needs_both_hosts(tmp_path):
    problems = problems_of(tmp_path, """\
        gm: {address: gm@example.test}
        transport: imap
        imap: {host: ""}
        smtp: {host: "  "}
        """)
    assert problems == ["imap.host: required when transport is imap",
                        "smtp.host: required when transport is imap"]
    config = load(write(tmp_path, "gm: {address: gm@example.test}\ntransport: imap\n"))
    assert config.imap.host and config.smtp.host  # the defaults count


def test_empty_hosts_are_fine_for_local_transport(tmp_path):
    assert load(write(tmp_path, "gm: {address: gm@x.test}\nimap: {host: ''}\n")).imap.host == ""


@pytest.mark.parametrize("text, kind", [("- a\n- b\n", "a list"), ("just words\n", '"just words"'),
                                        ("42\n", "42")])
def test_top_level_must_be_a_mapping(tmp_path, text, kind):
    problems = problems_of(tmp_path, text)
    assert len(problems) == 1
    assert problems[0].startswith("top level: expected a mapping")
    assert problems[0].endswith(f"got {kind}")


def test_empty_file_says_what_is_missing(tmp_path):
    assert problems_of(tmp_path, "") == ["gm.address: required"]


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError) as err:
        load(tmp_path / "absent.yaml")
    assert err.value.problems == [f"{tmp_path / 'absent.yaml'}: config file not found"]


def test_unreadable_file(tmp_path):
    with pytest.raises(ConfigError) as err:
        load(tmp_path)  # a folder cannot be read as a file
    assert len(err.value.problems) == 1
    assert err.value.problems[0].startswith(f"{tmp_path}: cannot read config file")


def test_not_utf8(tmp_path):
    path = tmp_path / "pbem.yaml"
    path.write_bytes(b"gm: {address: \xff\xfe}\n")
    with pytest.raises(ConfigError) as err:
        load(path)
    assert err.value.problems == [f"{path}: config file is not UTF-8 text"]


def test_yaml_syntax_error_names_file_line_and_column(tmp_path):
    path = write(tmp_path, "gm:\n  address: gm@example.test\nsmtp: {port: 25\n  bad: [\n")
    with pytest.raises(ConfigError) as err:
        load(path)
    assert len(err.value.problems) == 1
    line = err.value.problems[0]
    assert line.startswith(f"{path}: YAML syntax error at line 4, column ")
    assert "Traceback" not in line


def test_find_path(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CONFIG", str(tmp_path / "env.yaml"))
    assert find_path("given.yaml") == Path("given.yaml")
    assert find_path(None) == tmp_path / "env.yaml"
    monkeypatch.delenv("PBEM_CONFIG")
    monkeypatch.chdir(tmp_path)
    assert find_path(None) == tmp_path / "pbem.yaml"
    assert find_path(None).parent == Path(os.getcwd())


def test_local_defaults(tmp_path):
    config = local_defaults(tmp_path)
    assert config.transport == "local"
    assert config.gm.address == "gm@example.test"
    assert config.config_dir == tmp_path
    assert config.store == tmp_path / "pbem.sqlite3"
    assert config.local.maildir == tmp_path / "mail"
    assert local_defaults(tmp_path, gm_address="judge@golf.test").gm.address == "judge@golf.test"
