print("x = 0.5")
print("x = 0.5")
