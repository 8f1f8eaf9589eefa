"""The bot store: a stranger's bot is installed by kotarena into a directory of its own,
from wheels only, never into the environment kotarena runs in; what cannot be stored is
refused in one line. Every package here is made by the test (no package index)."""

from __future__ import annotations

import importlib.util
import json
import textwrap
from importlib import metadata

import pytest
from bot_packages import bot_project, bot_wheel, library_wheel
from click.testing import CliRunner

from kotarena import plugins
from kotarena.cli import cli
from kotarena.sandbox.botinstall import install, uninstall
from kotarena.sandbox.botstore import InstallError, store_dir, stored
from kotarena.sandbox.catalogue import read_catalogue
from kotarena.testing import missing


@pytest.fixture
def store(tmp_path, monkeypatch, sandbox):
    """An empty bot store and catalogue cache of the test's own."""
    monkeypatch.setenv("KOTARENA_BOT_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    plugins.reset()
    yield tmp_path / "store"
    plugins.reset()


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def stored_names() -> list[tuple[str, str]]:
    return [(bot.name, bot.version) for bot in stored()]


def test_a_wheel_is_installed_in_a_directory_of_its_own_and_not_in_this_environment(store, tmp_path):
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-smash", "0.2", bot="smash")
    result = run("bots", "install", str(wheel), "--no-index")
    assert result.exit_code == 0, result.output
    directory = store / "kotarena-smash-0.2"
    assert f"Installed kotarena-smash 0.2 in {directory}: bots smash" in result.output
    assert (directory / "kotarena_smash.py").is_file()
    with pytest.raises(metadata.PackageNotFoundError):
        metadata.distribution("kotarena-smash")
    assert importlib.util.find_spec("kotarena_smash") is None
    [bot] = [b for b in read_catalogue()["bots"] if b["name"] == "smash"]
    assert (bot["package"], bot["version"], bot["path"]) == ("kotarena-smash", "0.2", [str(directory)])


def test_its_missing_requirements_come_along_as_wheels_and_the_environments_do_not(store, tmp_path):
    wheels = tmp_path / "wheels"
    library_wheel(wheels, "kotarena-store-helper", "1.5")
    bot = bot_wheel(wheels, "kotarena-needy", bot="needy", requires=("kotarena-store-helper>=1", "click>=8",
                                                                      "kotarena>=0.0.1", "pywin32; sys_platform == 'win32'"))
    done = install(str(bot), find_links=[str(wheels)], no_index=True)
    assert done.dependencies == ["kotarena-store-helper==1.5"]
    directory = done.bot.directory
    assert (directory / "kotarena_store_helper.py").is_file()
    installed = {dist.metadata["Name"] for dist in metadata.distributions(path=[str(directory)])}
    assert installed == {"kotarena-needy", "kotarena-store-helper"}  # not click, not kotarena


def test_a_bot_that_needs_another_kotarena_is_refused_in_one_line(store, tmp_path):
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-future", bot="future", requires=("kotarena>=99",))
    result = run("bots", "install", str(wheel), "--no-index")
    assert result.exit_code == 1
    from kotarena import __version__

    assert result.output.strip().splitlines()[-1] == \
        f"Error: kotarena-future 0.1 needs kotarena>=99; this is kotarena {__version__}"
    assert stored_names() == []


def test_a_requirement_with_no_wheel_is_refused_and_nothing_is_left(store, tmp_path):
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-lonely", bot="lonely", requires=("kotarena-nowhere-to-be-found",))
    with pytest.raises(InstallError, match="pip install failed"):
        install(str(wheel), find_links=[str(tmp_path / "wheels")], no_index=True)
    assert stored_names() == []
    assert [entry.name for entry in store.iterdir()] == []


def test_a_newer_version_replaces_the_older_and_says_ratings_are_kept(store, tmp_path):
    install(str(bot_wheel(tmp_path / "old", "kotarena-smash", "0.1", bot="smash")), no_index=True)
    result = run("bots", "install", str(bot_wheel(tmp_path / "new", "kotarena-smash", "0.2", bot="smash")), "--no-index")
    assert result.exit_code == 0, result.output
    assert "Replaced kotarena-smash 0.1 (ratings are kept by entrant label" in result.output
    assert stored_names() == [("kotarena-smash", "0.2")]
    assert not (store / "kotarena-smash-0.1").exists() and not (store / "kotarena-smash-0.1.json").exists()


def test_a_stored_package_that_registers_anything_but_bots_is_refused(store, tmp_path):
    extra = "from kotarena.hookspecs import hookimpl as _h\n\n@_h\ndef register_games(register):\n    pass\n"
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-gamer", bot="gamer", extra=extra)
    with pytest.raises(InstallError, match="may only register bots; it implements register_games"):
        install(str(wheel), no_index=True)
    assert stored_names() == []


def test_a_package_that_registers_no_bot_is_refused(store, tmp_path):
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-empty", module="from kotarena.hookspecs import hookimpl\n")
    with pytest.raises(InstallError, match="registers no bot"):
        install(str(wheel), no_index=True)


def test_a_package_that_cannot_be_imported_in_the_sandbox_is_refused_with_its_error(store, tmp_path):
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-broken", module="import numpy_of_the_future\n")
    with pytest.raises(InstallError) as refused:
        install(str(wheel), no_index=True)
    assert "ModuleNotFoundError: No module named 'numpy_of_the_future'" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_kotarena_itself_and_a_package_of_this_environment_are_never_stored(store, tmp_path):
    with pytest.raises(InstallError, match="kotarena itself is never installed in the bot store"):
        install(str(bot_wheel(tmp_path / "a", "kotarena", bot="x")), no_index=True)
    with pytest.raises(InstallError, match="installed in this environment"):
        install(str(bot_wheel(tmp_path / "b", "pluggy", bot="x")), no_index=True)


def test_a_requirement_is_installed_from_a_wheel_of_the_index(store, tmp_path):
    wheels = tmp_path / "wheels"
    bot_wheel(wheels, "kotarena-indexed", "1.2", bot="indexed")
    done = install("kotarena-indexed>=1", find_links=[str(wheels)], no_index=True)
    assert (done.bot.name, done.bot.version, done.bots) == ("kotarena-indexed", "1.2", ["indexed"])
    assert json.loads((store / "kotarena-indexed-1.2.json").read_text())["source"] == "kotarena-indexed>=1"


def test_what_is_neither_a_package_nor_a_requirement_is_refused(store, tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    result = run("bots", "install", str(tmp_path / "notes.txt"))
    assert result.exit_code == 1
    assert "is neither a wheel (.whl), an sdist (.tar.gz, .zip) nor a project directory" in result.output


def test_bots_list_shows_each_stored_package_its_bots_and_where(store, tmp_path):
    assert "is empty" in run("bots", "list").output
    install(str(bot_wheel(tmp_path / "wheels", "kotarena-smash", "0.2", bot="smash")), no_index=True)
    listed = json.loads(run("bots", "list", "--json").output)
    assert listed["store"] == str(store)
    assert [(p["package"], p["version"], p["bots"], p["directory"]) for p in listed["packages"]] == [
        ("kotarena-smash", "0.2", ["smash"], str(store / "kotarena-smash-0.2"))]
    assert "kotarena-smash" in run("bots", "list").output


def test_uninstall_by_package_or_by_bot_name(store, tmp_path):
    install(str(bot_wheel(tmp_path / "a", "kotarena-smash", bot="smash")), no_index=True)
    install(str(bot_wheel(tmp_path / "b", "kotarena-crush", bot="crusher")), no_index=True)
    result = run("bots", "uninstall", "kotarena_smash")
    assert result.exit_code == 0 and "Removed kotarena-smash 0.1" in result.output
    assert [bot.name for bot in uninstall("crusher")] == ["kotarena-crush"]
    assert stored_names() == []
    result = run("bots", "uninstall", "crusher")
    assert result.exit_code == 1 and "no bot or package 'crusher' in the bot store" in result.output


def test_the_store_is_where_kotarena_bot_store_says(store):
    assert store_dir() == store


def _can_build_wheels() -> bool:
    return importlib.util.find_spec("wheel") is not None or \
        importlib.util.find_spec("setuptools.command.bdist_wheel") is not None


def test_a_project_directory_is_built_in_the_sandbox(store, tmp_path, monkeypatch):
    if not _can_build_wheels():
        missing("this environment's setuptools cannot build wheels (no 'wheel', setuptools < 70.1)")
    marker = tmp_path / "build-code-ran-here"
    monkeypatch.setenv("REFEREE_SECRET", "hunter2")
    # Its setup.py tries to write here and to read this process's environment, and says
    # how it went in the version it builds: 0.1 when both failed.
    build_code = (f"import os\ntry:\n    open({str(marker)!r}, 'w')\n    WROTE = True\nexcept OSError:\n"
                  "    WROTE = False\nSAW = 'REFEREE_SECRET' in os.environ\n")
    project = bot_project(tmp_path / "src", "kotarena-built", bot="built", setup_extra=build_code,
                          version="'0.1' if not (WROTE or SAW) else '6.6'")
    done = install(str(project), no_index=True)
    assert (done.bot.name, done.bot.version, done.bots) == ("kotarena-built", "0.1", ["built"])
    assert not marker.exists()


def test_a_project_whose_build_backend_is_not_installed_is_refused(store, tmp_path):
    project = bot_project(tmp_path / "src", "kotarena-exotic", bot="exotic", backend="no_such_backend.build")
    result = run("bots", "install", str(project))
    assert result.exit_code == 1
    assert "its build backend 'no_such_backend.build' is not installed here: build the wheel yourself" in result.output
    assert stored_names() == []


def test_an_sdist_is_unpacked_and_built_in_the_sandbox_too(store, tmp_path):
    import tarfile

    if not _can_build_wheels():
        missing("this environment's setuptools cannot build wheels (no 'wheel', setuptools < 70.1)")
    project = bot_project(tmp_path / "src", "kotarena-packed", bot="packed")
    sdist = tmp_path / "kotarena_packed-0.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        archive.add(project, arcname="kotarena_packed-0.1")
    done = install(str(sdist))
    assert (done.bot.name, done.bot.version, done.bots) == ("kotarena-packed", "0.1", ["packed"])


def test_an_sdist_that_leads_outside_its_directory_is_refused(store, tmp_path):
    import io
    import tarfile

    sdist = tmp_path / "kotarena_sly-0.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        data = b"import os\n"
        member = tarfile.TarInfo("../../escaped.py")
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    with pytest.raises(InstallError, match="kotarena_sly-0.1.tar.gz: cannot be unpacked"):
        install(str(sdist))
    assert stored_names() == []


def test_without_the_sandbox_a_stored_bot_is_neither_checked_nor_read(store, tmp_path, monkeypatch):
    from kotarena.sandbox import jail

    install(str(bot_wheel(tmp_path / "a", "kotarena-smash", bot="smash")), no_index=True)
    wheel = bot_wheel(tmp_path / "b", "kotarena-crush", bot="crusher")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cold-cache"))
    monkeypatch.setattr(jail, "sandbox_problem", lambda: "bubblewrap is not installed")
    with pytest.raises(InstallError, match="kotarena-crush cannot be checked without the sandbox"):
        install(str(wheel), no_index=True)
    found = read_catalogue()
    assert "smash" not in {bot["name"] for bot in found["bots"]}
    assert [e["message"] for e in found["errors"] if e["package"] == "kotarena-smash"] == [
        "its bots could not be read: no sandbox here (bubblewrap is not installed)"]


def _wheel_claiming(directory, name: str, version: str):
    """A wheel whose file and ``.dist-info`` are ``kotarena_claim-0.1`` but whose
    METADATA says ``name`` and ``version``: what pip installs is named from the latter."""
    import base64
    import hashlib
    import zipfile

    from bot_packages import bot_source

    info = "kotarena_claim-0.1.dist-info"
    contents = {"kotarena_claim.py": bot_source("claim"),
                f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
                f"{info}/entry_points.txt": "[kotarena]\nclaim = kotarena_claim\n"}
    record = [f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()},"
              f"{len(text.encode())}" for path, text in contents.items()]
    contents[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / "kotarena_claim-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in contents.items():
            archive.writestr(path, text)
    return wheel


@pytest.mark.parametrize(("name", "version"), [
    ("kotarena-claim", "0.1/../../../../../../../../{outside}"),
    ("../../../../../../../../{outside}/x", "0.1"),
])
def test_a_name_or_version_with_path_characters_is_refused_before_anything_is_written(store, tmp_path, name, version):
    # The store's directory is named from the wheel's metadata: a version (or name) with
    # '/' and '..' had pip write the wheel's files where it said, the operator's
    # site-packages (a .pth: code in every process) as well as anywhere else.
    outside = tmp_path / "outside"
    wheel = _wheel_claiming(tmp_path / "wheels", name.format(outside=str(outside).lstrip("/")),
                            version.format(outside=str(outside).lstrip("/")))
    with pytest.raises(InstallError, match="is not a valid"):
        install(str(wheel), no_index=True)
    assert not outside.exists()
    assert stored_names() == []
    assert [entry.name for entry in store.iterdir()] == []


#: The start of a hostile project's setup.py: the process of the sandboxed builder that
#: runs it (whose standard output is the build's answer to the referee).
FIND_BUILDER = textwrap.dedent('''\
    import os


    def find_builder():
        pid = os.getppid()
        while pid > 1:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"kotarena.sandbox.wheelbuild" in f.read():
                    return pid
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        return pid
''')


def test_what_a_failed_build_says_reaches_the_terminal_without_control_characters(store, tmp_path):
    # A project's build code can write what the referee reads back as the build's
    # answer (the builder's standard output is its to open, in /proc): the refusal
    # quotes it, with no terminal escapes.
    project = tmp_path / "src"
    project.mkdir()
    (project / "setup.py").write_text(FIND_BUILDER + textwrap.dedent('''\
        import json, os
        pid = find_builder()
        with open(f"/proc/{pid}/fd/1", "w") as out:
            out.write(json.dumps({"error": "\\x1b]0;pwned\\x07\\x1b[2Jgone\\u202e"}) + "\\n")
        os._exit(1)
    '''))
    result = run("bots", "install", str(project))
    assert result.exit_code == 1
    assert "gone" in result.output
    assert not any(char in result.output for char in "\x1b\x07\u202e")


def test_a_build_that_floods_its_answer_is_refused_without_holding_it_all(store, tmp_path, monkeypatch):
    # What the builder sends back was read whole into the referee's memory: a build
    # writing without end (through the builder's /proc/PID/fd/1) had all of it.
    from kotarena.sandbox import wheelbuild

    monkeypatch.setattr(wheelbuild, "MAX_ANSWER_BYTES", 1 << 20)
    project = tmp_path / "src"
    project.mkdir()
    (project / "setup.py").write_text(FIND_BUILDER + textwrap.dedent('''\
        import os
        pid = find_builder()
        with open(f"/proc/{pid}/fd/1", "wb") as out, open(f"/proc/{pid}/fd/2", "wb") as err:
            for _ in range(8):
                out.write(b"x" * (1 << 20))
                err.write(b"y" * (1 << 20))
        os._exit(1)
    '''))
    with pytest.raises(InstallError, match="sent more than 1 MiB"):
        install(str(project))


def _marking_project(directory, marker):
    """A project whose setup.py, wherever it runs, writes ``marker``."""
    directory.mkdir(parents=True)
    (directory / "setup.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n"
                                        "from setuptools import setup\nsetup(name='kotarena-evil-dep', version='1.0')\n")
    return directory


def test_a_requirement_that_points_at_a_source_is_refused_and_never_built_here(store, tmp_path):
    # 'NAME @ URL' in Requires-Dist (a directory, an sdist on any server): pip built it
    # to read its metadata, --only-binary or not, running its setup.py in the
    # operator's process, with the operator's rights, outside the sandbox.
    marker = tmp_path / "setup-ran"
    project = _marking_project(tmp_path / "evil", marker)
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-needs-url", bot="needsurl",
                      requires=(f"kotarena-evil-dep @ file://{project}",))
    with pytest.raises(InstallError, match="names a URL"):
        install(str(wheel), no_index=True)
    assert not marker.exists()
    assert stored_names() == []


def test_a_wheel_whose_metadata_unpacks_to_gigabytes_is_refused_unread(store, tmp_path, monkeypatch):
    # METADATA is read into the operator's process: a zip bomb there (a few kB packed)
    # was unpacked whole.
    import zipfile

    from kotarena.sandbox import botinstall

    monkeypatch.setattr(botinstall, "MAX_METADATA_BYTES", 1 << 20)
    wheel = tmp_path / "kotarena_bomb-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("kotarena_bomb-0.1.dist-info/METADATA",
                         "Metadata-Version: 2.1\nName: kotarena-bomb\nVersion: 0.1\nDescription: " + "a" * (8 << 20))
    with pytest.raises(InstallError, match="METADATA of more than 1 MiB"):
        install(str(wheel), no_index=True)


def test_a_version_is_stored_in_its_normal_form_and_listed(store, tmp_path):
    from kotarena.sandbox.botstore import entry_name

    assert entry_name("Kotarena_Smash", "1.0-1") == "kotarena-smash-1.0.post1"
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-dashed", "1.0-1", bot="dashed")
    result = run("bots", "install", str(wheel), "--no-index")
    assert result.exit_code == 0, result.output
    assert [name for name, _ in stored_names()] == ["kotarena-dashed"]
    assert (store / "kotarena-dashed-1.0.post1").is_dir()
