# Writes to its stderr in every turn: a line at its start (in its first
# turn), "turn N" in turn N, and in its second turn 300000 bytes more than
# the judge keeps of a turn. It plays the first empty cell.
import sys
sys.stderr.write("starting\n")
moves = 0
while True:
    print("CurrentTurn", flush=True)
    try:
        turn = int(input())
    except EOFError:
        break
    sys.stderr.write(f"turn {turn}\n")
    sys.stderr.flush()
    moves += 1
    if moves == 2:
        sys.stderr.write(("y" * 99 + "\n") * 3000)
        sys.stderr.flush()
    print("Board", flush=True)
    rows = [input().split() for _ in range(3)]
    x, y = next((x, y) for y in range(3) for x in range(3) if rows[y][x] == "-")
    print(f"PlaceSymbol {x} {y}\n#END", flush=True)
