require "ann/aim"
require "ann/base_player"

# A player whose file is not named *_player.rb, with its code in lib/
# beside it: a class there also ends in Player, and is not a player of
# its own.
class AnnPlayer < BasePlayer
  def name
    "Ann"
  end

  def new_game
    [[0, 0, 5, :down], [2, 0, 4, :down], [4, 0, 3, :down], [6, 0, 3, :down], [8, 0, 2, :down]]
  end

  def take_turn(state, ships_remaining)
    Ann.next_unknown(state)
  end
end
