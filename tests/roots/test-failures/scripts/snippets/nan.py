print("x =", float("nan"))
