print("X =", 0.5)
