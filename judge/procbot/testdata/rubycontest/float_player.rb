# Its first shot is [0.0, 0.0], Floats, and its second [-0.0, 0], a
# negative zero (which 0...10 includes): the contest's runner takes each as
# a shot at no ship, a wasted one. Then it fires at every cell in turn.
class FloatPlayer
  def name
    "Floaty"
  end

  def new_game
    @shots = 0
    [[9, 0, 5, :down], [8, 0, 4, :down], [7, 0, 3, :down], [6, 0, 3, :down], [5, 0, 2, :down]]
  end

  def take_turn(state, ships_remaining)
    @shots += 1
    return [0.0, 0.0] if @shots == 1
    return [-0.0, 0] if @shots == 2
    raise "a wasted shot changed the board" if @shots == 3 && state.flatten.uniq != [:unknown]
    n = @shots - 3
    [n % 10, n / 10]
  end
end
