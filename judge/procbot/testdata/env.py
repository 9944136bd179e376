# Writes its whole environment to stderr, then plays randomly.
import os, random, sys
for k in sorted(os.environ):
    sys.stderr.write(f"{k}={os.environ[k]}\n")
while True:
    try:
        print("Board")
        rows = [input().split() for _ in range(3)]
    except EOFError:
        break
    empty = [(x, y) for y in range(3) for x in range(3) if rows[y][x] == "-"]
    print("PlaceSymbol %d %d" % random.choice(empty))
    print("#END")
