import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from cart import line_total, total  # noqa: E402


def test_total():
    assert total([(10, 2), (1, 22)]) == 42


class TestCart:
    def test_line_total(self):
        assert line_total(7, 6) == 42


def test_empty():
    assert total([]) == 0
