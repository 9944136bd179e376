# A class named just Player that keeps its state in files where it runs,
# as contest players did: the directory must be fresh, empty and
# writable, and its own folder readable.
class Player
  def name
    "Writer"
  end

  def new_game
    left = Dir.children(".")
    raise "the working directory holds #{left.inspect}" unless left.empty?
    raise "its own folder cannot be read" unless File.read(__FILE__).include?("class Player")
    File.write("debug.log", "new game\n")
    File.write("state2", "0")
    # 2 MiB, counted against the bot's tmp size.
    File.write("scratch", "x" * (2 << 20))
    File.delete("scratch")
    [[0, 9, 5, :across], [5, 9, 4, :across], [0, 8, 3, :across], [3, 8, 3, :across], [6, 8, 2, :across]]
  end

  def take_turn(state, ships_remaining)
    n = File.read("state2").to_i
    File.write("state2", (n + 1).to_s)
    File.open("debug.log", "a") { |f| f.puts "shot #{n}" }
    [n % 10, n / 10]
  end
end
