# The contest's own library, which players may require.
module Battleship
  class Board
    FLEET = [5, 4, 3, 3, 2].freeze
  end
end
