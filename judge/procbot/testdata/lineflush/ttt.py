import sys

# sys.stdin.readline, unlike input(), does not flush stdout first.
while True:
    print("Board")
    rows = [sys.stdin.readline().split() for _ in range(3)]
    if not all(rows):
        break
    x, y = next((x, y) for y in range(3) for x in range(3) if rows[y][x] == "-")
    print("PlaceSymbol", x, y)
    print("#END")
