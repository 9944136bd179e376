# A Battleship bot that breaks one rule, chosen by its argument, on the
# standard 10×10 fleet 5 4 3 3 2:
#   overlap   two ships share a cell
#   offboard  a ship leaves the board
#   missing   the ship of length 2 is not placed
#   badshot   a legal fleet, then a shot off the board
import sys

# botsarena's example fleet.
FLEET = ["3,3-3,7", "2,1-2,4", "0,1-0,3", "7,3-7,1", "8,8-7,8"]
mode = sys.argv[1]
while True:
    try:
        print("Phase")
        phase = input().strip()
    except EOFError:
        break
    if phase == "place":
        fleet = list(FLEET)
        if mode == "overlap":
            fleet[3] = "1,2-3,2"
        elif mode == "offboard":
            fleet[4] = "9,8-10,8"
        elif mode == "missing":
            fleet.pop()
        for ship in fleet:
            print("PlaceShip " + ship)
    else:
        print("Shoot 10 0" if mode == "badshot" else "Shoot 0 0")
    print("#END")
