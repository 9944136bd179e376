# A referee that misbehaves at turn 3, as its seed says (the modes of
# testdata/hostile/main.go, the same numbers). Until then it plays a game
# of ten turns: the query Turn answers the turn; Go is the only move. It
# takes new again (the feature reuse); the query Games answers how many
# games it has started. Seed 10 plays well and exits once the game is over.
import json
import os
import sys

mode, turn, news = 0, 1, 0
sink = []


def say(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


def status():
    if turn > 10:
        return {"turn": 11, "movers": [], "over": True, "winner": -1, "scores": [0.5, 0.5], "reason": "ten turns", "notes": []}
    return {"turn": turn, "movers": [(turn - 1) % 2], "over": False, "winner": -1, "scores": [], "reason": "", "notes": []}


def misbehave():
    if mode == 1:
        while True:
            pass
    elif mode == 2:
        while True:
            sink.append(bytearray(1 << 20))
    elif mode == 3:
        say(json.dumps({"answer": "x" * (8 << 20)}))
    elif mode == 4:
        say("hello, judge")
    elif mode == 5:
        print("hostile: giving up at turn 3", file=sys.stderr, flush=True)
        os._exit(3)
    elif mode == 6:
        say(json.dumps({"error": "the referee lost its way"}))
    elif mode == 8:
        say(json.dumps({"answer": "3"}))
        say(json.dumps({"answer": "4"}))
    elif mode == 9:
        sys.stdin.readline()  # the next request, which never comes


for line in sys.stdin:
    r = json.loads(line)
    op = r.get("op")
    if turn == 3 and op == "query":
        misbehave()
    if op == "hello":
        say(json.dumps({"protocol": 1, "features": ["reuse"]}))
    elif op == "new":
        mode, turn, news = r["seed"], 1, news + 1
        say(json.dumps({"seats": 2, "status": status()}))
    elif op == "query":
        answers = {"Turn": str(turn), "Games": str(news)}
        say(json.dumps({"answer": answers[r["line"]]} if r["line"] in answers else {"not_query": True}))
    elif op in ("orders", "command"):
        say(json.dumps({"unknown": "not a command"} if op == "command" and not r["line"].startswith("Go") else {}))
    elif op == "commit":
        say(json.dumps({"move": ["Go"]}))
    elif op in ("apply", "forfeit"):
        if mode == 7 and turn == 3:
            say(json.dumps({"status": {"turn": 4, "movers": [7], "over": False, "winner": -1, "scores": [], "reason": "", "notes": []}}))
            continue
        turn = 11 if op == "forfeit" else turn + 1
        say(json.dumps({"status": status()}))
        if mode == 10 and turn > 10:
            os._exit(0)  # after the game's last answer: while kept
    else:
        say(json.dumps({"error": "unknown op " + str(op)}))
