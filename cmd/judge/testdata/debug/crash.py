# A Connect Four bot that drops into column 0 and crashes once the board
# holds four discs: at its third turn, the fifth of the game.
import sys

while True:
    print("CurrentTurn")
    turn = int(input())
    print("Board")
    board = [input() for _ in range(6)]
    discs = sum(row.count("X") + row.count("O") for row in board)
    print(f"turn {turn}: {discs} discs", file=sys.stderr)
    share = 12 // (discs - 4)
    print("DropDisc", share % 7)
    print("#END")
