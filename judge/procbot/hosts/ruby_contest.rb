# The host of a Ruby Battleship contest player: ruby ruby_contest.rb PLAYER.rb
#
# It loads the player's class (the class whose name ends in Player, with
# new_game and take_turn), with the lib/ directory beside the file on the
# load path, and plays it over the judge's Battleship protocol:
#   new_game's [x, y, length, :across|:down] arrays become PlaceShip lines;
#   each turn, Board and ShipsRemaining become take_turn's state (rows of
#   :unknown, :hit, :miss) and ships_remaining, and its [x, y] is the Shoot.
# The player's own output goes to standard error. An exception ends the
# program with its message and the first lines of its backtrace on
# standard error, and a non-zero exit: the judge's crash.

PROTO = STDOUT.dup
PROTO.sync = true
STDOUT.reopen(STDERR)
$stdout = STDERR

# The judge shows the last 5 lines of stderr: the message and 3 frames.
BACKTRACE_LINES = 3

def fail_with(what, e)
  STDERR.puts "#{what}: #{e.class}: #{e.message}"
  frames = (e.backtrace || []).reject { |l| l.start_with?(__FILE__ + ":") }
  frames.first(BACKTRACE_LINES).each { |l| STDERR.puts "  #{l}" }
  STDERR.flush
  exit! 1
end

def ask(query, lines = 1)
  PROTO.puts query
  Array.new(lines) do
    line = STDIN.gets
    exit! 0 if line.nil? # the game is over
    line.chomp
  end
end

file = ARGV[0]
abort "usage: ruby #{$0} PLAYER.rb" if file.nil?
path = File.expand_path(file)
$LOAD_PATH.unshift(File.join(File.dirname(path), "lib"))

before = ObjectSpace.each_object(Class).to_a
begin
  load path
rescue Exception => e
  fail_with("loading #{File.basename(path)}", e)
end
found = (ObjectSpace.each_object(Class).to_a - before).select do |c|
  c.name.to_s.end_with?("Player") &&
    c.method_defined?(:new_game) && c.method_defined?(:take_turn)
end
mine = found.select do |c|
  loc = Object.const_source_location(c.name) rescue nil
  loc && File.expand_path(loc[0]) == path
end
found = mine unless mine.empty?
if found.size != 1
  STDERR.puts "#{File.basename(path)}: #{found.empty? ? 'no' : found.size} classes named ...Player with new_game and take_turn" \
    "#{found.empty? ? '' : ' (' + found.map(&:name).sort.join(', ') + ')'}: a file holds exactly one player"
  exit! 1
end

begin
  player = found[0].new
rescue Exception => e
  fail_with("#{found[0].name}.new", e)
end

loop do
  phase = ask("Phase")[0]
  if phase == "place"
    begin
      fleet = player.new_game
    rescue Exception => e
      fail_with("new_game", e)
    end
    # What is not a ship is not sent: the judge then finds the fleet
    # short, and the bot's status is illegal, as the contest has it.
    Array(fleet).each do |ship|
      x, y, length, orientation = Array(ship)
      PROTO.puts "PlaceShip #{x} #{y} #{length} #{orientation}".gsub(/[\r\n]/, " ")
    end
  else
    height = ask("Params")[0].split[1].to_i
    cells = { "-" => :unknown, "o" => :miss, "x" => :hit }
    state = ask("Board", height).map { |row| row.split.map { |c| cells.fetch(c, :unknown) } }
    remaining = ask("ShipsRemaining")[0].split.map(&:to_i)
    begin
      shot = player.take_turn(state, remaining)
    rescue Exception => e
      fail_with("take_turn", e)
    end
    if shot.is_a?(Array) && shot.size == 2 && shot.all? { |v| v.is_a?(Integer) }
      PROTO.puts "Shoot #{shot[0]} #{shot[1]}"
    else
      STDERR.puts "take_turn returned #{shot.inspect[0, 200]}, not [x, y]"
    end
  end
  PROTO.puts "#END"
end
