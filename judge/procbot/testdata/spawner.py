# Starts a child that would sleep for a long time, tells the test its pid
# through the file named by PIDFILE, then plays randomly.
import os, random, subprocess
child = subprocess.Popen(["sleep", "1000"])
with open(os.environ["PIDFILE"], "w") as f:
    f.write(str(child.pid))
while True:
    try:
        print("Board")
        rows = [input().split() for _ in range(3)]
    except EOFError:
        break
    empty = [(x, y) for y in range(3) for x in range(3) if rows[y][x] == "-"]
    print("PlaceSymbol %d %d" % random.choice(empty))
    print("#END")
