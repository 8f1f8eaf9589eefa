"""Nights played for the site's and export's tests: ladder files run with a fixture bot
package importable, as ``kotarena league run`` plays them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena import plugins
from kotarena.cli import cli


def play_nights(db: str, ladders: Iterable[tuple[Path, int]], package: Path, module: str) -> None:
    """Play each ladder file's ``nights`` into ``db`` (``--workers 0``: in this process),
    the fixture package in ``package`` importable here and in the sandbox; after, its
    module ``module`` is forgotten and every sandboxed instance closed.

    A night seals the bot registry through KOTARENA_TRUST (see the top conftest's
    ``_plugins_as_found``, which a session fixture comes before): it is put back afterwards.
    """
    sealed = os.environ.pop("KOTARENA_TRUST", None)
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(package))
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(package), os.environ.get("PYTHONPATH")])))
        plugins.reset()
        try:
            for path, nights in ladders:
                for _ in range(nights):
                    result = CliRunner().invoke(cli, ["league", "run", str(path), "--workers", "0", "-q", "--fresh",
                                                      "--db", db])
                    assert result.exit_code == 0, result.output
        finally:
            os.environ.pop("KOTARENA_TRUST", None)
            if sealed is not None:
                os.environ["KOTARENA_TRUST"] = sealed
            sys.modules.pop(module, None)
            from kotarena.sandbox.instance import close_servers

            close_servers()
    plugins.reset()
