"""Scale a vector.

The docstring spans lines, so a token crosses a line end.
"""
import numpy as np


def scale(v, factor):
    # -- excerpt
    out = np.asarray(v, dtype=float) * factor  # every entry
    return out
    # -- end excerpt


x = scale([1, 2], 0.5)
print(f"x = {x}")
print("label = 'twenty\tpercent'")
