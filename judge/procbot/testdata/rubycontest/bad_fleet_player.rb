class BadFleetPlayer
  def name; "Overlapper"; end

  def new_game
    [[0, 0, 5, :across], [2, 0, 4, :down], [0, 2, 3, :across], [0, 3, 3, :across], [0, 4, 2, :across]]
  end

  def take_turn(state, ships_remaining)
    [0, 0]
  end
end
