# One game of the Ruby Battleship contest between two players, in this one
# process, without the judge: ruby contest_game.rb FIRST.rb SECOND.rb.
# BenchmarkContest's baseline. It plays the rules of the contest's runner
# as docs/protocol/battleship.md gives them: a fleet of 5, 4, 3, 3 and 2
# on a board of 10 by 10, the first player fires first, turns alternate,
# whoever sinks every ship wins, an invalid fleet or move loses; like the
# judge, it stops a player at 100 shots. Each player is loaded once, with
# lib/ beside it on the load path, gets a new instance and a working
# directory of its own, fresh and empty. It prints the winner's file.

require "fileutils"
require "tmpdir"

SIZE = 10
FLEET = [2, 3, 3, 4, 5].freeze
MAX_SHOTS = 100

# load_player loads file and returns its player's class: the one defined
# in the file whose name ends in Player.
def load_player(file)
  path = File.expand_path(file)
  $LOAD_PATH.unshift(File.join(File.dirname(path), "lib"))
  before = ObjectSpace.each_object(Class).to_a
  load path
  (ObjectSpace.each_object(Class).to_a - before).find do |c|
    c.name.to_s =~ /Player\z/ && File.expand_path(Object.const_source_location(c.name)[0]) == path
  end or abort "#{file}: no player"
end

# fleet is the cells of each ship of positions, or nil for an invalid
# fleet.
def fleet(positions)
  ships = positions.map do |x, y, length, direction|
    return nil unless %i[across down].include?(direction)
    dx, dy = direction == :across ? [1, 0] : [0, 1]
    (0...length).map { |i| [x + i * dx, y + i * dy] }
  end
  cells = ships.flatten(1)
  return nil unless ships.map(&:size).sort == FLEET
  return nil unless cells.all? { |c| c.all? { |v| (0...SIZE).include?(v) } } && cells.uniq.size == cells.size
  ships
rescue ArgumentError, NoMethodError, TypeError
  nil
end

Seat = Struct.new(:file, :player, :dir, :ships, :state, :shots)

seats = ARGV.first(2).map do |file|
  abort "usage: ruby contest_game.rb FIRST.rb SECOND.rb" if file.nil?
  Seat.new(file, load_player(file).new, Dir.mktmpdir("game-"))
end
abort "usage: ruby contest_game.rb FIRST.rb SECOND.rb" if seats.size != 2
at_exit { seats.each { |s| FileUtils.rm_rf(s.dir) } }

seats.each do |s|
  s.ships = fleet(Dir.chdir(s.dir) { s.player.new_game })
  s.state = Array.new(SIZE) { Array.new(SIZE, :unknown) }
  s.shots = 0
end
bad = seats.reject(&:ships)
unless bad.empty?
  puts bad.size == 2 ? "nobody" : (seats - bad)[0].file
  exit
end

turn = 0
loop do
  me, them = seats[turn % 2], seats[(turn + 1) % 2]
  turn += 1
  remaining = them.ships.reject { |ship| ship.all? { |x, y| me.state[y][x] == :hit } }.map(&:size).sort.reverse
  move = Dir.chdir(me.dir) { me.player.take_turn(me.state.map(&:dup), remaining) }.dup
  unless move.is_a?(Enumerable) && move.all? { |v| (0...SIZE).include?(v) }
    puts them.file
    break
  end
  me.shots += 1
  if move.is_a?(Array) && move.size == 2 && move.all?(Integer)
    x, y = move
    me.state[y][x] = them.ships.any? { |ship| ship.include?([x, y]) } ? :hit : :miss
  end
  if them.ships.all? { |ship| ship.all? { |x, y| me.state[y][x] == :hit } }
    puts me.file
    break
  end
  next if seats.any? { |s| s.shots < MAX_SHOTS }
  hits = seats.map { |s| s.state.flatten.count(:hit) }
  puts hits[0] == hits[1] ? "nobody" : seats[hits.index(hits.max)].file
  break
end
