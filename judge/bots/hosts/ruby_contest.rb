# The host of a Ruby Battleship contest player:
# ruby --disable-gems ruby_contest.rb [--contest DIR] PLAYER.rb (or ...
# --check PLAYER.rb: load it and say whether it is a player, without
# playing). DIR is the contest's folder, the one holding its runner
# (bin/player_server.rb): its lib/ is on the load path, as the runner puts
# it, and the libraries the runner loads before the player are loaded.
#
# It loads the player's class (the class defined in the file whose name
# ends in Player, with name, new_game and take_turn), with the lib/ directory
# beside the file on the load path, and plays it over the judge's
# Battleship protocol:
#   new_game's [x, y, length, :across|:down] arrays become ships as the
#   contest's runner reads them (Board#expand_positions), sent as
#   PlaceShip x1,y1-x2,y2 lines;
#   each turn, Board and ShipsRemaining become take_turn's state (rows of
#   :unknown, :hit, :miss) and ships_remaining, and its answer is judged as
#   the contest's runner judges it (Board#try): two Integers are a cell
#   (Shoot x y), other numbers inside the board a wasted shot (Shoot with
#   the numbers as decimals), anything else no shot at all.
# The player runs in a directory of its own, fresh and empty, in the
# sandbox's temporary directory. Its own output goes to standard error.
# An exception ends the program with its class, message and the player's
# own lines of the backtrace on standard error, and a non-zero exit: the
# judge's crash.

# Ruby starts without RubyGems (--disable-gems), which costs most of a
# start: the standard library is on the load path without it. A require
# that finds nothing there (a library that is a gem since Ruby 3.1, such
# as matrix or prime) loads RubyGems and is tried again, and so does a
# call of gem (RubyGems' own methods replace these ones as it loads).
# Ruby's own load path, before the player's folders join it.
RUBY_LOAD_PATH = $LOAD_PATH.dup

unless defined?(Gem)
  module Kernel
    alias_method :require_without_gems, :require
    private :require_without_gems

    def require(path)
      require_without_gems(path)
    rescue LoadError
      raise if defined?(::Gem)
      require_without_gems("rubygems")
      require(path)
    end
    private :require

    def gem(*args)
      require_without_gems("rubygems")
      gem(*args)
    end
    private :gem
  end
end

PROTO = STDOUT.dup
PROTO.sync = true
STDOUT.reopen(STDERR)
$stdout = STDERR

# The judge shows the last 5 lines of stderr: the message and 3 frames.
BACKTRACE_LINES = 3

USAGE = "usage: ruby #{$0} [--contest DIR] [--check] PLAYER.rb"
check = false
contest = nil
args = ARGV.dup
while args[0].to_s.start_with?("--")
  case args.shift
  when "--check" then check = true
  when "--contest" then contest = args.shift or abort USAGE
  else abort USAGE
  end
end
file = args[0]
abort USAGE if file.nil? || args.size != 1
PATH = File.expand_path(file)
HOME = File.dirname(PATH) + "/"
CONTEST = contest && File.expand_path(contest)

# The working directory: fresh, empty and the player's own, in the
# sandbox's private temporary directory (TMPDIR: a tmpfs of the bot's tmp
# size at the isolated levels, a directory the sandbox removes at level
# basic). Made and removed here rather than with tmpdir and fileutils,
# whose loading costs as much CPU time as Ruby's start.
base = ENV["TMPDIR"].to_s
base = "/tmp" unless !base.empty? && File.directory?(base)
WORK = loop do
  dir = File.join(base, "game-#{Process.pid}-#{rand(1 << 40).to_s(36)}")
  begin
    Dir.mkdir(dir, 0o700)
    break dir
  rescue Errno::EEXIST
    next
  end
end
Dir.chdir(WORK)

# remove deletes path and what it holds, as far as it can; links are not
# followed.
def remove(path)
  if File.lstat(path).directory?
    Dir.children(path).each { |c| remove(File.join(path, c)) }
    Dir.rmdir(path)
  else
    File.unlink(path)
  end
rescue SystemCallError
  nil
end

def finish(code)
  STDERR.flush
  Dir.chdir("/")
  remove(WORK)
  exit! code
end

# message is the exception's own message: Ruby 3 adds a code snippet
# (error_highlight) after a blank line, which is not the player's
# message. A SyntaxError keeps its lines that name a place (file:line:).
def message(e)
  lines = e.message.to_s.lines.map(&:chomp)
  if e.is_a?(SyntaxError)
    placed = lines.select { |l| l =~ /:\d+: / }
    lines = placed unless placed.empty?
  else
    blank = lines.index { |l| l.strip.empty? }
    lines = lines[0, blank] if blank
  end
  lines.first(4).map { |l| clip(l.sub(HOME, "")) }.join(" / ")
end

# clip shortens a long line in its middle: Ruby 3's NoMethodError shows
# the whole receiver (a board of 100 cells), and its class at the end.
def clip(line, max = 300)
  return line if line.size <= max
  line[0, max - 80] + " … " + line[-60..]
end

def fail_with(what, e)
  # A NameError's suggestions ("Did you mean?"), which RubyGems would
  # have loaded at the start, are made when its message is read.
  begin
    require "did_you_mean"
  rescue LoadError
    nil
  end
  STDERR.puts "#{what}: #{e.class}: #{message(e)}"
  frames = (e.backtrace || []).reject { |l| l.start_with?(__FILE__ + ":") }
  own = frames.select { |l| l.start_with?(HOME) }
  lines = e.is_a?(LoadError) && e.path ? BACKTRACE_LINES - 1 : BACKTRACE_LINES
  (own.empty? ? frames : own).first(lines).each { |l| STDERR.puts "  #{l.sub(HOME, '')}" }
  STDERR.puts "  #{searched(e.path)}" if e.is_a?(LoadError) && e.path
  finish(1)
end

# searched says where a require of name looked, in the player's words:
# the folders the player and the contest put on the load path (each said
# when it is not there), the contest's folder or that there was none,
# then Ruby's own libraries.
def searched(name)
  if name.start_with?("/")
    shown = name.start_with?(HOME) ? name.sub(HOME, "") : name
    return "#{shown}#{File.extname(name).empty? ? '.rb' : ''}: no such file"
  end
  own = ($LOAD_PATH - RUBY_LOAD_PATH).map do |d|
    d = d.to_s
    shown = d.start_with?(HOME) ? d.sub(HOME, "") + "/" : d + "/"
    File.directory?(d) ? shown : "#{shown} (not there)"
  end
  contest = if CONTEST
    "the contest's folder #{CONTEST}/ (its lib/ on the path)"
  else
    "no contest folder (none above the player holds bin/player_server.rb, whose lib/ the contest's runner puts on the path)"
  end
  "require '#{name}' looked in: #{(own + ["Ruby's own libraries"]).join(', ')}; #{contest}"
end

def ask(query, lines = 1)
  PROTO.puts query
  Array.new(lines) do
    line = STDIN.gets
    finish(0) if line.nil? # the game is over
    line.chomp
  end
end

# As bin/player_server.rb: the contest's lib/ first, the libraries it
# loads before the player, then the player's lib/ before the contest's.
if CONTEST
  $LOAD_PATH.unshift(File.join(CONTEST, "lib"))
  %w[drb forwardable battleship/util].each do |lib|
    require lib
  rescue LoadError
    nil
  end
end
$LOAD_PATH.unshift(File.join(File.dirname(PATH), "lib"))

before = ObjectSpace.each_object(Class).to_a
begin
  load PATH
rescue Exception => e
  fail_with("loading #{File.basename(PATH)}", e)
end
# The contest ran on Ruby 2, where these methods of a subclass of Array
# returned an instance of the subclass; Ruby 3 returns an Array. The
# subclasses the player defines get Ruby 2's behaviour back (plain Arrays
# are left alone).
module Ruby2ArraySubclass
  %i[drop drop_while flatten take take_while uniq].each do |m|
    define_method(m) do |*args, &blk|
      r = super(*args, &blk)
      r.instance_of?(Array) ? self.class.allocate.replace(r) : r
    end
  end
  %i[[] slice].each do |m|
    define_method(m) do |*args|
      r = super(*args)
      part = args.size == 2 || args[0].is_a?(Range) ||
        (defined?(Enumerator::ArithmeticSequence) && args[0].is_a?(Enumerator::ArithmeticSequence))
      part && r.instance_of?(Array) ? self.class.allocate.replace(r) : r
    end
  end
  define_method(:*) do |arg|
    r = super(arg)
    arg.is_a?(Integer) && r.instance_of?(Array) ? self.class.allocate.replace(r) : r
  end
end
if RUBY_VERSION >= "3"
  (ObjectSpace.each_object(Class).to_a - before).each do |c|
    c.prepend(Ruby2ArraySubclass) if c < Array
  end
end

# The contest's runner takes the classes named /Player$/ (Player itself
# too) with the methods name, new_game and take_turn; a file holds one
# player. Classes a file only requires (a helper's, a test's subject) are
# not its player.
found = (ObjectSpace.each_object(Class).to_a - before).select do |c|
  c.name.to_s =~ /Player\z/ && %i[name new_game take_turn].all? { |m| c.method_defined?(m) }
end
found = found.select do |c|
  loc = Object.const_source_location(c.name) rescue nil
  loc && File.expand_path(loc[0]) == PATH
end
if found.size != 1
  STDERR.puts "#{File.basename(PATH)}: #{found.empty? ? 'no' : found.size} classes named ...Player with name, new_game and take_turn" \
    "#{found.empty? ? '' : ' (' + found.map(&:name).sort.join(', ') + ')'}: a file holds exactly one player"
  finish(1)
end

begin
  player = found[0].new
rescue Exception => e
  fail_with("#{found[0].name}.new", e)
end
if check
  STDERR.puts found[0].name
  finish(0)
end

# Board#expand_positions and #expand_position of the contest's runner: the
# cells of each ship, or no ship at all when a position cannot be read.
def expand_positions(positions)
  return [] unless positions.is_a?(Enumerable)
  positions.map { |p| expand_position(*p) }
rescue ArgumentError, NoMethodError
  []
end

# unreadable says why the runner reads no fleet in what new_game
# returned, or nil when it reads one.
def unreadable(positions)
  return "not an Enumerable" unless positions.is_a?(Enumerable)
  positions.each do |p|
    expand_position(*p)
  rescue ArgumentError, NoMethodError
    return "#{p.inspect[0, 80]} is not [x, y, length, :across or :down]"
  end
  nil
rescue ArgumentError, NoMethodError => e
  e.message.lines.first.to_s.chomp
end

def expand_position(x, y, length, direction)
  raise ArgumentError unless [:across, :down].include?(direction)
  dx, dy = direction == :across ? [1, 0] : [0, 1]
  (0 ... length).map { |i| [x + i * dx, y + i * dy] }
end

# number is a number of a wasted shot as the judge reads it: a decimal.
# A negative zero is inside the board for the runner (0 <= -0.0): it is
# written 0.0, which the judge reads as inside too.
def number(v)
  return "#{v}.0" if v.is_a?(Integer)
  f = v.to_f
  f.zero? ? "0.0" : f.to_s
end

loop do
  phase = ask("Phase")[0]
  if phase == "place"
    begin
      fleet = player.new_game
      ships = expand_positions(fleet)
      why = unreadable(fleet) if ships.empty?
    rescue Exception => e
      fail_with("new_game", e)
    end
    if why
      # No ship is sent, and the fleet is illegal, as for the runner;
      # NoFleet says why, for the judge's reason.
      PROTO.puts "NoFleet new_game returned #{fleet.inspect.gsub(/\s+/, ' ')[0, 120]}: #{why}"
    end
    # Each ship goes by its end cells; an empty one is not sent, and the
    # judge finds the fleet short. Cells that are not two Integers (a
    # Float position) no shot could hit: the judge refuses them. Lengths,
    # overlaps and the board's edges are the judge's to check.
    ships.each do |cells|
      next if cells.empty?
      ends = [cells.first, cells.last].map { |c| c.map { |v| v.is_a?(Integer) ? v.to_s : number(v) }.join(",") }
      PROTO.puts "PlaceShip #{ends.join('-')}"
    end
  else
    width, height = ask("Params")[0].split.map(&:to_i)
    cells = { "-" => :unknown, "o" => :miss, "x" => :hit }
    state = ask("Board", height).map { |row| row.split.map { |c| cells.fetch(c, :unknown) } }
    remaining = ask("ShipsRemaining")[0].split.map(&:to_i)
    begin
      shot = player.take_turn(state, remaining)
      # Game#tick and Board#try: the answer (a copy where it can be
      # copied) is a move when it is Enumerable and each of its elements
      # is in 0...size; it hits a ship only as [Integer, Integer].
      move = begin
        shot.dup
      rescue TypeError
        shot
      end
      size = [width, height].min
      valid = move.is_a?(Enumerable) && move.all? { |e| (0...size).include?(e) }
      elements = valid ? move.to_a : nil
    rescue Exception => e
      fail_with("take_turn", e)
    end
    if move.is_a?(Array) && move.size == 2 && move.all? { |v| v.is_a?(Integer) }
      PROTO.puts "Shoot #{move[0]} #{move[1]}"
    elsif valid
      PROTO.puts (["Shoot"] + elements.map { |v| number(v) }).join(" ")
    else
      STDERR.puts "take_turn returned #{shot.inspect[0, 200]}: not a move (an Enumerable of numbers from 0 to #{size - 1})"
    end
  end
  PROTO.puts "#END"
end
