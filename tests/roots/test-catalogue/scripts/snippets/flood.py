print("x = 0.5")
while True:  # gigabytes, if nothing stopped it
    print("0123456789" * 100)
