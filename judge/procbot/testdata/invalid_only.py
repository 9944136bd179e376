# Tries to place its symbol off the board.
print("PlaceSymbol 5 5")
print("#END")
input()
