# Writes a message to stderr and exits with code 3 during its first turn.
import sys
print("Params")
input()
sys.stderr.write("giving up: no idea how to play\n")
sys.exit(3)
