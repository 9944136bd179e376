# Tries what a cheating bot would try, reports each attempt on stderr,
# then plays randomly. SECRET names a file of the judge's; PORT a TCP port
# on the loopback interface where the test listens.
import os, random, socket, sys

def attempt(what, f):
    try:
        f()
        sys.stderr.write(f"{what}: allowed\n")
    except Exception as e:
        sys.stderr.write(f"{what}: denied ({type(e).__name__})\n")

attempt("read secret", lambda: open(os.environ["SECRET"]).read())
attempt("list judge dir", lambda: os.listdir(os.path.dirname(os.environ["SECRET"])))
attempt("connect loopback", lambda: socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), timeout=1))
attempt("write own dir", lambda: open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "x"), "w").write("x"))
attempt("write tmp", lambda: open("/tmp/snoop", "w").write("x"))
attempt("kill parent", lambda: os.kill(os.getppid(), 9))

while True:
    try:
        print("Board")
        rows = [input().split() for _ in range(3)]
    except EOFError:
        break
    empty = [(x, y) for y in range(3) for x in range(3) if rows[y][x] == "-"]
    print("PlaceSymbol %d %d" % random.choice(empty))
    print("#END")
