# A contest's folder, for the judge's tests: the file the contest's runner
# starts each player with (bin/player_server.rb) marks it. The judge puts
# lib/ beside it on the load path, loads lib/battleship/util.rb before the
# player, and shows the whole folder to the player, as the runner does.
