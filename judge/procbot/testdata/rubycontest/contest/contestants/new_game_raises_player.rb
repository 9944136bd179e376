# new_game raises: the player loses, as the contest's rules say.
class NewGameRaisesPlayer
  def name
    "Raises At Start"
  end

  def new_game
    fleet_from_file
  end

  def take_turn(state, ships_remaining)
    [0, 0]
  end

  private

  def fleet_from_file
    raise IOError, "no fleet file"
  end
end
