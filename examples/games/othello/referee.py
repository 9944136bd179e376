#!/usr/bin/env python3
"""The referee of Othello (Reversi) for the judge, in Python 3 with the
standard library only: a process referee speaking the referee protocol,
version 1 (docs/games.md), one JSON object a line on stdin and stdout.

go/ holds the same rules in Go (a process or referee.wasm); the two give
the same answer, byte for byte, to every request.
"""
import json
import re
import sys

EMPTY, BLACK, WHITE = ".", "B", "W"  # black is seat 0 and moves first
DIRS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
NUMBER = re.compile(r"^[+-]?[0-9]+$")


def disc(seat):
    return BLACK if seat == 0 else WHITE


def colour(seat):
    return "black" if seat == 0 else "white"


def plural(n, one):
    return "1 " + one if n == 1 else "%d %ss" % (n, one)


def whole(word):
    """The whole number word writes, or None (as Go's strconv.Atoi)."""
    if not NUMBER.match(word):
        return None
    v = int(word)
    return v if -(2**63) <= v < 2**63 else None


class State:
    """One game of Othello: the board, row-major, the top row first."""

    def __init__(self, n):
        self.n = n
        self.cells = [EMPTY] * (n * n)
        self.turn = 1
        self.to_move = 0
        self.last = (-1, -1)  # the cell of the last Place
        self.last_by = 0
        self.over = False
        self.winner = -1
        self.reason = ""
        h = n // 2
        self.set(h - 1, h - 1, WHITE)
        self.set(h, h, WHITE)
        self.set(h, h - 1, BLACK)
        self.set(h - 1, h, BLACK)

    def at(self, x, y):
        return self.cells[y * self.n + x]

    def set(self, x, y, c):
        self.cells[y * self.n + x] = c

    def on(self, x, y):
        return 0 <= x < self.n and 0 <= y < self.n

    def runs(self, seat, x, y):
        """The directions and lengths of the runs seat's disc on (x, y)
        would turn over."""
        me = disc(seat)
        out = []
        for dx, dy in DIRS:
            run, cx, cy = 0, x + dx, y + dy
            while self.on(cx, cy) and self.at(cx, cy) not in (EMPTY, me):
                run, cx, cy = run + 1, cx + dx, cy + dy
            if run > 0 and self.on(cx, cy) and self.at(cx, cy) == me:
                out.append((dx, dy, run))
        return out

    def flips(self, seat, x, y):
        if not self.on(x, y) or self.at(x, y) != EMPTY:
            return 0
        return sum(r for _, _, r in self.runs(seat, x, y))

    def legal(self, seat):
        """Seat's legal cells, row by row from the top, each from the left."""
        return [(x, y) for y in range(self.n) for x in range(self.n) if self.flips(seat, x, y) > 0]

    def place(self, seat, x, y):
        me = disc(seat)
        for dx, dy, run in self.runs(seat, x, y):
            for i in range(1, run + 1):
                self.set(x + i * dx, y + i * dy, me)
        self.set(x, y, me)
        self.last, self.last_by = (x, y), seat

    def count(self):
        return [self.cells.count(BLACK), self.cells.count(WHITE)]

    def check(self, seat, line):
        """(move, known, why): the canonical command, whether the verb is a
        command, and why it cannot be played now ("" when it can)."""
        f = line.split()
        if not f:
            return "", False, "an empty line"
        if f[0] == "Pass":
            if len(f) != 1:
                return "", True, "Pass takes no arguments"
            if self.legal(seat):
                return "", True, "a Place is legal: Pass only when none is"
            return "Pass", True, ""
        if f[0] == "Place":
            if len(f) != 3:
                return "", True, "want Place x y, got %d words after Place" % (len(f) - 1)
            x, y = whole(f[1]), whole(f[2])
            if x is None or y is None:
                return "", True, "x and y must be whole numbers"
            if not self.on(x, y):
                return "", True, "(%d,%d) is off the %dx%d board" % (x, y, self.n, self.n)
            if self.at(x, y) != EMPTY:
                return "", True, "(%d,%d) is taken" % (x, y)
            if self.flips(seat, x, y) == 0:
                return "", True, "(%d,%d) turns over no disc" % (x, y)
            return "Place %d %d" % (x, y), True, ""
        return "", False, '"%s" is not a command (commands: Place, Pass)' % f[0]

    def play(self, seat, move):
        """Applies seat's move; returns why it cannot, or ""."""
        if self.over:
            return "the game is over"
        if seat != self.to_move:
            return "seat %d moved, but seat %d is to move" % (seat, self.to_move)
        if len(move) != 1:
            return "want one command, got %d" % len(move)
        canon, _, why = self.check(seat, move[0])
        if why:
            return move[0] + ": " + why
        if canon != "Pass":
            _, x, y = canon.split()
            self.place(seat, int(x), int(y))
        self.turn += 1
        nxt = 1 - seat
        if not self.legal(nxt) and not self.legal(seat):
            self.finish()
            return ""
        self.to_move = nxt
        return ""

    def finish(self):
        b, w = self.count()
        self.over = True
        if b > w:
            self.winner, self.reason = 0, "black has more discs, %d to %d" % (b, w)
        elif w > b:
            self.winner, self.reason = 1, "white has more discs, %d to %d" % (w, b)
        else:
            self.winner, self.reason = -1, "equal discs, %d each" % b

    def forfeit(self, seat):
        if not self.over:
            self.over, self.winner, self.reason = True, 1 - seat, colour(seat) + " forfeited"

    def rows(self):
        return ["".join(self.cells[y * self.n:(y + 1) * self.n]) for y in range(self.n)]

    def query(self, seat, line):
        """The answer to seat's query, or None when line is not a query."""
        f = line.split()
        if not f:
            return None
        v = f[0]
        if v == "Board":
            return "\n".join(self.rows())
        if v == "Color":
            return disc(seat)
        if v == "Legal":
            cells = self.legal(seat)
            return " ".join([str(len(cells))] + ["%d %d" % c for c in cells])
        if v == "Discs":
            c = self.count()
            return "%d %d" % (c[seat], c[1 - seat])
        if v == "Size":
            return str(self.n)
        if v == "CurrentTurn":
            return str(self.turn)
        if v == "LastMove":
            if self.last[0] < 0 or self.last_by == seat:
                return "-1 -1"
            return "%d %d" % self.last
        return None

    def render(self):
        b, w = self.count()
        text = "".join(r + "\n" for r in self.rows()) + "black %d, white %d" % (b, w)
        if not self.over:
            text += "; %s to move" % colour(self.to_move)
        return text + "\n"


class Referee:
    def __init__(self):
        self.s = None
        self.move = None  # the last valid command of the turn, canonical
        self.last_bad = ""  # the last refused command, and why

    def status(self):
        s = self.s
        st = {"turn": s.turn, "movers": [], "over": False, "winner": -1, "scores": [], "reason": "", "notes": []}
        if not s.over:
            st["movers"] = [s.to_move]
            return st
        st["over"], st["winner"], st["reason"] = True, s.winner, s.reason
        st["scores"] = {0: [1, 0], 1: [0, 1]}.get(s.winner, [0.5, 0.5])
        return st

    def handle(self, line):
        try:
            q = json.loads(line)
        except ValueError as e:
            return {"error": "bad request: %s" % e}
        if not isinstance(q, dict):
            return {"error": "bad request: not an object"}
        op = q.get("op", "")
        if op == "hello":
            # turn-orders: the commands start with each turn, as orders
            # would start them; reuse: new starts a game afresh
            # (docs/games.md).
            return {"protocol": 1, "features": ["turn-orders", "reuse"]}
        if op == "new":
            n = q.get("params", {}).get("size", 8)
            if not isinstance(n, int) or n < 4 or n > 16 or n % 2 != 0:
                return {"refused": "size must be even, 4..16, got %s" % n}
            self.s, self.move, self.last_bad = State(n), None, ""
            return {"seats": 2, "status": self.status()}
        if self.s is None:
            return {"error": "%s before new" % op}
        seat = q.get("seat", 0)
        if op in ("query", "orders", "command", "commit", "forfeit", "moves") and seat not in (0, 1):
            return {"error": "no seat %s" % seat}
        return self.turn_op(op, q, seat)

    def turn_op(self, op, q, seat):
        s = self.s
        if op == "query":
            a = s.query(seat, q.get("line", ""))
            return {"not_query": True} if a is None else {"answer": a}
        if op == "orders":
            self.move, self.last_bad = None, ""
            return {}
        if op == "command":
            return self.command(seat, q.get("line", ""))
        if op == "commit":
            if self.move is not None:
                return {"move": self.move}
            if self.last_bad:
                return {"invalid": "no valid Place or Pass before #END (last one was %s)" % self.last_bad}
            return {"invalid": "no Place or Pass before #END"}
        if op == "apply":
            moves = q.get("moves", [])
            if len(moves) != 1:
                return {"error": "want the move of one seat, got %d" % len(moves)}
            why = s.play(moves[0].get("seat", -1), moves[0].get("move", []))
            self.move, self.last_bad = None, ""  # a new turn: turn-orders
            return {"error": "apply: " + why} if why else {"status": self.status()}
        if op == "forfeit":
            s.forfeit(seat)
            self.move, self.last_bad = None, ""
            return {"status": self.status()}
        if op == "moves":
            if s.over or seat != s.to_move:
                return {"moves": []}
            return {"moves": [["Place %d %d" % c] for c in s.legal(seat)] or [["Pass"]]}
        if op == "render":
            return {"text": s.render()}
        if op == "view":
            return self.view()
        if op == "explain":
            return self.explain()
        return {"error": "unknown op %s" % op}

    def command(self, seat, line):
        s = self.s
        move, known, why = s.check(seat, line)
        if not known:
            return {"unknown": why}
        if s.over:
            why = "the game is over"
        elif seat != s.to_move:
            why = "it is not your turn"
        if why:
            self.last_bad = line + ": " + why
            return {"invalid": why}
        self.move = [move]
        return {}

    def view(self):
        s = self.s
        b, w = s.count()
        v = {
            "grids": [{"name": "board", "rows": s.rows()}],
            "marks": [],
            "seats": ["black: " + plural(b, "disc"), "white: " + plural(w, "disc")],
            "numbers": {"discs": [b, w]},
        }
        if s.last[0] >= 0:
            v["marks"].append({"g": 0, "x": s.last[0], "y": s.last[1], "seat": s.last_by, "kind": "last"})
        return v

    def explain(self):
        s = self.s
        if s.over:
            return {"notes": []}
        cells = s.legal(s.to_move)
        text = colour(s.to_move) + " has " + plural(len(cells), "legal move")
        for x, y in cells:
            if x in (0, s.n - 1) and y in (0, s.n - 1):
                text += ", a corner among them (%d,%d)" % (x, y)
                break
        return {"notes": [{"seat": s.to_move, "kind": "mobility", "text": text}]}


def main():
    r = Referee()
    for line in sys.stdin:
        out = json.dumps(r.handle(line), separators=(",", ":"), ensure_ascii=False)
        sys.stdout.write(out + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
