# A random Connect Four bot in Python: each turn it asks the board's size
# and how many discs each column holds, and drops a disc into a random
# column that is not full. print() needs no flush: the judge makes Python
# send every line at once. Run it as: python3 examples/connect4/random_bot.py
import os, random
random.seed(int(os.environ.get("JUDGE_SEED", "1")))
while True:
    try:
        print("Params")
        width, height, k = map(int, input().split())
        print("Heights")
        heights = list(map(int, input().split()))
    except EOFError:
        break
    print(f"DropDisc {random.choice([x for x in range(width) if heights[x] < height])}")
    print("#END")
