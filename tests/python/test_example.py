"""test_example.py — examples/python_quickstart.py runs to its end (its
P^T A P check included) and, where matplotlib is installed, draws a PNG."""

import importlib.util
import subprocess
import sys

from conftest import ROOT


def test_quickstart_runs(tmp_path):
    png = tmp_path / "levels.png"
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "python_quickstart.py"), str(png)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "every level equals P^T A P off the diagonal" in r.stdout
    if importlib.util.find_spec("matplotlib"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
