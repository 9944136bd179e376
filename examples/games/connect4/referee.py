"""Connect Four as a plugin game's referee, in Python, run as a program.

The same rules, answers and reasons as referee.go (the judge's built-in
connect4, docs/protocol/connect4.md), speaking the referee protocol
(docs/games.md) on stdin and stdout. To use it instead of referee.wasm, put
in game.toml's [referee]:

    command = ["python3", "referee.py"]
"""
import json
import re
import sys

WHOLE = re.compile(r"[+-]?[0-9]+\Z")
INT64 = 1 << 63


def atoi(s):
    """s as Go's strconv.Atoi reads it, or None."""
    if not WHOLE.match(s):
        return None
    n = int(s)
    return n if -INT64 <= n < INT64 else None


def goquote(s):
    """s quoted as Go's %q quotes printable text."""
    return json.dumps(s, ensure_ascii=False)


def symbol(seat):
    return "X" if seat == 0 else "O"


DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Game:
    def __init__(self, w, h, k):
        self.w, self.h, self.k = w, h, k
        self.cells = ["-"] * (w * h)  # the top row first
        self.filled = [0] * w
        self.turn, self.placed = 1, 0
        self.last = [-1, -1]
        self.orders = [["", ""], ["", ""]]  # the binding move, the last refused one
        self.over, self.winner, self.reason = False, -1, ""

    def to_move(self):
        return (self.turn - 1) % 2

    def status(self):
        movers, scores = [], []
        if self.over:
            scores = {0: [1, 0], 1: [0, 1]}.get(self.winner, [0.5, 0.5])
        else:
            movers = [self.to_move()]
        st = {"turn": self.turn, "movers": movers, "over": self.over, "winner": self.winner,
              "scores": scores, "reason": self.reason, "notes": []}
        if not self.over:
            # answers: the queries every bot asks every turn, answered
            # ahead: the judge asks them no more this turn (Params, fixed
            # in game.toml, no more this game: it is answered at each
            # seat's first turn).
            st["answers"] = {q: self.query(0, [q]) for q in ("Heights", "Params") if q == "Heights" or self.turn <= 2}
        return st

    def at(self, x, y):
        """The cell at column x, row y counted from the bottom."""
        return self.cells[(self.h - 1 - y) * self.w + x]

    def board(self):
        w = self.w
        return "\n".join(" ".join(self.cells[y * w:(y + 1) * w]) for y in range(self.h))

    def query(self, seat, f):
        if not f:
            return None
        q = f[0]
        if q == "CurrentTurn":
            return str(self.turn)
        if q == "Params":
            return "%d %d %d" % (self.w, self.h, self.k)
        if q == "MySymbol":
            return symbol(seat)
        if q == "MySeat":
            return str(seat)
        if q == "LastMove":
            return str(self.last[1 - seat])
        if q == "Board":
            return self.board()
        if q in ("SymbolAt", "CellAt"):
            xy = parse_xy(f[1:])
            if xy is None or not (0 <= xy[0] < self.w and 0 <= xy[1] < self.h):
                return "!"
            return self.at(*xy)
        if q == "Heights":
            return " ".join(map(str, self.filled))
        return None

    def command(self, seat, f):
        if not f or f[0] != "DropDisc":
            return {"unknown": "not a command of connect4"}
        col, err = self.check(f[1:])
        if err:
            self.orders[seat][1] = " ".join(f) + ": " + err
            return {"invalid": err}
        self.orders[seat][0] = "DropDisc %d" % col
        return {"move": [self.orders[seat][0]]}  # command-moves

    def check(self, args):
        """The column of DropDisc args, or why it cannot be played now."""
        if len(args) != 1:
            return 0, "want 1 number (a column), got %d words" % len(args)
        col = atoi(args[0])
        if col is None:
            return 0, "column %s is not a whole number" % goquote(args[0])
        if not 0 <= col < self.w:
            return 0, "column %d is off the board (columns 0..%d)" % (col, self.w - 1)
        if self.filled[col] == self.h:
            return 0, "column %d is full" % col
        return col, ""

    def commit(self, seat):
        move, last_err = self.orders[seat]
        if move:
            return {"move": [move]}
        if last_err:
            return {"invalid": "no valid DropDisc before #END (last one was %s)" % last_err}
        return {"invalid": "no DropDisc before #END"}

    def apply(self, moves):
        if self.over:
            return "game is over"
        seat = self.to_move()
        if len(moves) != 1 or moves[0]["seat"] != seat or len(moves[0]["move"]) != 1:
            return "want one move of seat %d" % seat
        f = moves[0]["move"][0].split()
        if not f or f[0] != "DropDisc":
            return "move %s is not DropDisc" % goquote(moves[0]["move"][0])
        col, err = self.check(f[1:])
        if err:
            return err
        self.drop(col)
        return ""

    def drop(self, col):
        seat = self.to_move()
        y = self.h - 1 - self.filled[col]  # the row from the top
        self.cells[y * self.w + col] = symbol(seat)
        self.filled[col] += 1
        self.placed += 1
        self.last[seat] = col
        self.turn += 1
        if self.line_through(col, y):
            self.finish(seat, "%s made %d in a row" % (symbol(seat), self.k))
        elif self.placed == self.w * self.h:
            self.finish(-1, "the board is full")

    def line_through(self, x, y):
        """Whether the disc at (x, y), y from the top, is in a line of k."""
        w, h, cells = self.w, self.h, self.cells
        c = cells[y * w + x]
        for dx, dy in DIRS:
            run = 1
            for sign in (1, -1):
                i = 1
                while run < self.k:
                    xx, yy = x + sign * i * dx, y + sign * i * dy
                    if not (0 <= xx < w and 0 <= yy < h) or cells[yy * w + xx] != c:
                        break
                    run += 1
                    i += 1
            if run >= self.k:
                return True
        return False

    def finish(self, winner, reason):
        self.over, self.winner, self.reason = True, winner, reason

    def render(self):
        pad = len(str(self.h - 1))
        out = ["%*d  %s\n" % (pad, self.h - 1 - i, row) for i, row in enumerate(self.board().split("\n"))]
        out.append(" " * (pad + 2) + " ".join("0123456789"[x % 10] for x in range(self.w)) + "\n")
        return "".join(out)

    def view(self):
        w = self.w
        rows = ["".join(self.cells[y * w:(y + 1) * w]) for y in range(self.h)]
        marks = []
        if self.turn > 1:
            seat = (self.turn - 2) % 2
            col = self.last[seat]
            if col >= 0 and self.filled[col] > 0:
                marks.append({"g": 0, "x": col, "y": self.h - self.filled[col], "seat": seat, "kind": "last"})
        discs = [self.cells.count(symbol(s)) for s in (0, 1)]
        seats = ["%s, %d discs dropped" % (symbol(s), discs[s]) for s in (0, 1)]
        return {"grids": [{"name": "board", "rows": rows}], "marks": marks, "seats": seats,
                "numbers": {"discs": discs}}

    def explain(self):
        """After a move that leaves the opponent a winning drop, says so."""
        if self.over or self.placed == 0:
            return []
        them = self.to_move()
        me = 1 - them
        cols = []
        for c in range(self.w):
            if self.filled[c] == self.h:
                continue
            y = self.h - 1 - self.filled[c]
            self.cells[y * self.w + c] = symbol(them)
            if self.line_through(c, y):
                cols.append(c)
            self.cells[y * self.w + c] = "-"
        if not cols:
            return []
        mine = self.last[me]
        if len(cols) == 1 and cols[0] == mine:
            text = "seat %d's disc in column %d let seat %d win on top of it" % (me, mine, them)
        else:
            where = "column %d" % cols[0]
            if len(cols) > 1:
                where = "columns " + ", ".join(map(str, cols))
            text = "seat %d did not block seat %d's threat: a disc of seat %d in %s makes %d in a row" % (
                me, them, them, where, self.k)
        return [{"seat": me, "kind": "threat", "text": text}]


def parse_xy(args):
    """x y from "x y" or "x,y", or None."""
    if len(args) == 1:
        if "," not in args[0]:
            return None
        a, b = args[0].split(",", 1)
    elif len(args) == 2:
        a, b = args
    else:
        return None
    x, y = atoi(a), atoi(b)
    return None if x is None or y is None else (x, y)


def serve(game, r):
    """The response to request r, and the game after it."""
    op = r.get("op")
    if op == "hello":
        # turn-orders: every seat's commands start with each turn, as
        # orders would start them; command-moves: a command taken is
        # answered with the move that binds; reuse: new starts a game
        # afresh; answers: statuses answer Heights ahead (docs/games.md).
        return {"protocol": 1, "features": ["turn-orders", "command-moves", "reuse", "answers"]}, game
    if op == "new":
        p = r.get("params") or {}
        w, h, k = p.get("width", 0), p.get("height", 0), p.get("k", 0)
        if k > w and k > h:
            return {"refused": "parameter k = %d is larger than both width = %d and height = %d: nobody could win" % (k, w, h)}, game
        game = Game(w, h, k)
        return {"seats": 2, "status": game.status()}, game
    if game is None:
        return {"error": "no game: the first request must be new"}, game
    seat = r.get("seat", 0)
    if op == "query":
        ans = game.query(seat, r.get("line", "").split())
        return ({"not_query": True} if ans is None else {"answer": ans}), game
    if op == "orders":
        game.orders[seat] = ["", ""]
        return {}, game
    if op == "command":
        return game.command(seat, r.get("line", "").split()), game
    if op == "commit":
        return game.commit(seat), game
    if op == "apply":
        err = game.apply(r.get("moves") or [])
        game.orders = [["", ""], ["", ""]]  # a new turn: turn-orders
        return ({"error": err} if err else {"status": game.status()}), game
    if op == "forfeit":
        if not game.over:
            game.finish(1 - seat, "%s forfeited" % symbol(seat))
        game.orders = [["", ""], ["", ""]]
        return {"status": game.status()}, game
    if op == "moves":
        moves = [] if game.over else [["DropDisc %d" % c] for c in range(game.w) if game.filled[c] < game.h]
        return {"moves": moves}, game
    if op == "render":
        return {"text": game.render()}, game
    if op == "view":
        return game.view(), game
    if op == "explain":
        return {"notes": game.explain()}, game
    return {"error": "unknown op %s" % op}, game


def main():
    game = None
    out = sys.stdout
    for line in sys.stdin:
        try:
            r = json.loads(line)
        except ValueError as e:
            resp = {"error": "bad request: %s" % e}
        else:
            resp, game = serve(game, r)
        out.write(json.dumps(resp, separators=(",", ":"), ensure_ascii=False) + "\n")
        out.flush()


main()
