# Writes bytes that are not text.
import os
os.write(1, b"Place\xff\xfeSymbol 1 1\n")
input()
