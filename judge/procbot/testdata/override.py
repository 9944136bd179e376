# On each turn sends several PlaceSymbol commands: a valid one, then an
# invalid one (a taken cell), then another valid one, then an invalid one
# (off the board). The last VALID one must bind: the last empty cell.
while True:
    try:
        print("Board")
        rows = [input().split() for _ in range(3)]
    except EOFError:
        break
    empty = [(x, y) for y in range(3) for x in range(3) if rows[y][x] == "-"]
    taken = [(x, y) for y in range(3) for x in range(3) if rows[y][x] != "-"]
    print("PlaceSymbol %d %d" % empty[0])
    if taken:
        print("PlaceSymbol %d %d" % taken[0])
    print("PlaceSymbol %d %d" % empty[-1])
    print("PlaceSymbol 7 7")
    print("#END")
