import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from shipping import quote  # noqa: E402


def test_light():
    assert quote(499) == 998


def test_edge():
    assert quote(500) == 1000
