# Sends its move, flushed, but forgets the #END that ends the turn, and
# waits for the next turn's input.
import sys

sys.stdout.write("PlaceSymbol 1 1\n")
sys.stdout.flush()
sys.stdin.readline()
