# A test of the player beside it: it mentions FloatyPlayer, new_game and
# take_turn, but defines no player of its own.
require_relative "floaty_player"

p FloatyPlayer.new.new_game
p FloatyPlayer.new.take_turn([], [5, 4, 3, 3, 2])
