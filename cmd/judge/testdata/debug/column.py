# A Connect Four bot that drops every disc into the column given as its
# argument (or the first one not full), asking for the board each turn.
import sys

col = int(sys.argv[1])
while True:
    print("Heights")
    heights = [int(h) for h in input().split()]
    c = col if heights[col] < 6 else heights.index(min(heights))
    print("DropDisc", c)
    print("#END")
