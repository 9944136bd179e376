# Written for the contest's Ruby 2, where uniq, slices and the like of a
# subclass of Array returned the subclass: it calls its own method on
# what they return.
class Cells < Array
  def unshot(state)
    select { |x, y| state[y][x] == :unknown }
  end
end

class SubclassPlayer
  def name
    "Subclass"
  end

  def new_game
    [[0, 0, 5, :across], [0, 1, 4, :across], [0, 2, 3, :across], [0, 3, 3, :across], [0, 4, 2, :across]]
  end

  def take_turn(state, ships_remaining)
    all = Cells.new
    (0...10).each { |y| (0...10).each { |x| all << [x, y] << [x, y] } }
    cells = all.uniq.take(150).drop(0)[0, 150].flatten(0)[0..]
    cells = (cells * 1).take_while { true }.drop_while { false }
    cells.unshot(state).first
  end
end
