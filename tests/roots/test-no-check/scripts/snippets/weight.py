print("w =", 0.5)
