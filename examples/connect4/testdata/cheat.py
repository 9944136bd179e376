# A Connect Four bot that breaks one rule, chosen by its argument:
#   column0   always drops into column 0, even when it is full
#   offboard  drops into the column just right of the board
#   nomove    ends its turns without a DropDisc
import sys

mode = sys.argv[1]
while True:
    try:
        print("Params")
        width, height, k = map(int, input().split())
    except EOFError:
        break
    if mode == "column0":
        print("DropDisc 0")
    elif mode == "offboard":
        print(f"DropDisc {width}")
    print("#END")
