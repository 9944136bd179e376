loop do
  puts "Board"
  rows = Array.new(3) { $stdin.gets }
  break if rows.include?(nil)
  cells = rows.map(&:split)
  x, y = (0...9).map { |i| [i % 3, i / 3] }.find { |x, y| cells[y][x] == "-" }
  puts "PlaceSymbol #{x} #{y}"
  puts "#END"
end
