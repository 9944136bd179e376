# name and new_game are attribute readers: the contest's runner finds them
# among the class's instance methods.
class ReaderPlayer
  attr_reader :name, :new_game

  def initialize
    @name = "Reader"
    @new_game = [[0, 0, 5, :down], [1, 0, 4, :down], [2, 0, 3, :down], [3, 0, 3, :down], [4, 0, 2, :down]]
    @n = -1
  end

  def take_turn(state, ships_remaining)
    @n += 1
    [@n / 10, @n % 10]
  end
end
