from math import sqrt

print("s =", sqrt(2.0))
