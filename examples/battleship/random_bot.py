# A random Battleship bot in Python: on turn 1 it places every ship at a
# random free place; then it shoots random cells it has not shot yet (the
# "-" cells of Board). print() needs no flush: the judge makes Python send
# every line at once. Run it as: python3 examples/battleship/random_bot.py
import os, random
random.seed(int(os.environ.get("JUDGE_SEED", "1")))
while True:
    try:
        print("Phase")
        phase = input().strip()
        print("Params")
        w, h, *count = map(int, input().split())
        if phase == "place":
            taken = set()
            for length in range(6, 0, -1):
                for _ in range(count[length - 1]):
                    while True:
                        dx, dy = random.choice([(1, 0), (0, 1)])
                        x, y = random.randrange(w), random.randrange(h)
                        cells = [(x + dx * i, y + dy * i) for i in range(length)]
                        if all(cx < w and cy < h and (cx, cy) not in taken for cx, cy in cells):
                            break
                    taken.update(cells)
                    (x1, y1), (x2, y2) = cells[0], cells[-1]
                    print(f"PlaceShip {x1},{y1}-{x2},{y2}")
        else:
            print("Board")
            board = [input().split() for _ in range(h)]
            x, y = random.choice([(x, y) for y in range(h) for x in range(w) if board[y][x] == "-"])
            print(f"Shoot {x} {y}")
    except EOFError:
        break
    print("#END")
