from helper import scale

print("s =", scale())
