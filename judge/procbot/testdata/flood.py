# Sends the same command forever: far more output than one turn may have.
import sys
while True:
    sys.stdout.write("PlaceSymbol 0 0\n" * 1000)
