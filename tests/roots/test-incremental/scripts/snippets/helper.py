"""A local module the first snippet imports from the snippet folder."""

from math import sqrt


def scale() -> float:
    return sqrt(0.5)
