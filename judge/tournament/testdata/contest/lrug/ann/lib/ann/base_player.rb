# Code of a player, in its lib/: its name ends in Player and it has the
# methods, yet it is no player of the contest.
class BasePlayer
  def new_game
    raise "BasePlayer is not meant to play"
  end

  def take_turn(state, ships_remaining)
    raise "BasePlayer is not meant to play"
  end
end
