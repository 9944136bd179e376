# Writes a line longer than 64 KiB.
print("x" * 70000)
input()
