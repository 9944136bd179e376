# Fleets kept in the contest's folder, beside its lib/.
module Battleship
  SAMPLE_FLEETS = [
    [[0, 9, 5, :across], [5, 9, 4, :across], [0, 8, 3, :across], [3, 8, 3, :across], [6, 8, 2, :across]]
  ].freeze
end
