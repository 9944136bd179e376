# Answers its queries, places a symbol, but never ends its turn.
import time
print("Params")
input()
print("PlaceSymbol 0 0")
time.sleep(60)
