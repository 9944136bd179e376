# A Connect Four bot that says on stderr what it thinks, then drops into
# a column that is not on the board: an illegal move.
import sys

print("Heights")
input()
print("thinking about column 9", file=sys.stderr)
print("DropDisc 9")
print("#END")
