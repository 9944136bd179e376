chunks = []
while True:
    chunks.append(bytearray(16 << 20))
