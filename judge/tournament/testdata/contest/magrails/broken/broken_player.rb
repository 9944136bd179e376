# Does not parse: new_game's list is never closed.
class BrokenPlayer
  def name
    "Broken"
  end

  def new_game
    [[0, 0, 5, :across], [0, 1, 4, :across]
  end

  def take_turn(state, ships_remaining)
    [0, 0]
  end
end
