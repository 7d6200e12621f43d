"""setup.py — the build step of the Python package (metadata in
pyproject.toml): `make shared` builds libcoarsen.so (the CUDA backend
inside when nvcc is found; CUDA=0 in the environment for a CPU-only
library, BUILD to pick the build folder) and the library is copied into the
package, which loads it with ctypes. The wheel is platform-specific: it
holds that library, linked against this system's METIS, zlib or ISA-L and
OpenMP runtime."""

import os
import re
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "include", "coarsen.h")) as f:
        return re.search(r'#define COARSEN_VERSION "([^"]+)"', f.read()).group(1)


def make(*args, capture=False):
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, check=True, text=True,
                          stdout=subprocess.PIPE if capture else None).stdout


class BuildPy(build_py):
    """Copies the Python sources, then builds and adds libcoarsen.so."""

    def run(self):
        super().run()
        try:
            make(f"-j{os.cpu_count() or 1}", "shared")
            shlib = make("-s", "print-shlib", capture=True).strip()
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(f"coarsen: building libcoarsen.so failed ({e}); it needs make, a C compiler with "
                             "OpenMP, zlib or ISA-L and METIS: `sh scripts/install-deps.sh` installs them on "
                             "Debian and Ubuntu")
        self.copy_file(os.path.join(ROOT, shlib), os.path.join(self.build_lib, "coarsen", os.path.basename(shlib)))


class BinaryDistribution(Distribution):
    """A wheel for this platform: the package carries a compiled library."""

    def has_ext_modules(self):
        return True


setup(version=version(), cmdclass={"build_py": BuildPy}, distclass=BinaryDistribution,
      options={"build": {"build_base": "build-python"}})
