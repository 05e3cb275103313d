x = float(input("x? "))
print("x =", x)
