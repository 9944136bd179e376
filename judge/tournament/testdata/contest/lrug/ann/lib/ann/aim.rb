module Ann
  # The first cell not shot yet, row by row, as [x, y].
  def self.next_unknown(state)
    state.each_with_index do |row, y|
      x = row.index(:unknown)
      return [x, y] if x
    end
    [0, 0]
  end
end
