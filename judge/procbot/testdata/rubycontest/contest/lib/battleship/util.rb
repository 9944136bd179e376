# Loaded by the runner before the player.
module Battleship
  module Util
    PLAYER_METHODS = [:name, :new_game, :take_turn].freeze
  end
end
