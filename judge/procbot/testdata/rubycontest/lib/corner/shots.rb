module Corner
  # Cells not shot yet, as [x, y], from a state of rows.
  def self.unknown_cells(state)
    cells = []
    state.each_with_index do |row, y|
      row.each_with_index { |c, x| cells << [x, y] if c == :unknown }
    end
    cells
  end
end
