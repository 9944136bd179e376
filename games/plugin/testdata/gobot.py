# A bot for the hostile referees' game: each turn it asks the turn and
# plays Go.
while True:
    print("Turn", flush=True)
    try:
        input()
    except EOFError:
        break
    print("Go")
    print("#END", flush=True)
