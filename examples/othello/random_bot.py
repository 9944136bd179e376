# A random Othello bot in Python: each turn it asks for its legal moves
# ("Legal" answers their number, then x y of each) and places a disc on one
# of them at random, or passes when there is none. print() needs no flush:
# the judge makes Python send every line at once.
# Run it as: python3 examples/othello/random_bot.py
import os, random
random.seed(int(os.environ.get("JUDGE_SEED", "1")))
while True:
    try:
        print("Legal")
        words = list(map(int, input().split()))
    except EOFError:
        break  # the game is over
    n, cells = words[0], words[1:]
    if n == 0:
        print("Pass")
    else:
        i = random.randrange(n)
        print(f"Place {cells[2 * i]} {cells[2 * i + 1]}")
    print("#END")
