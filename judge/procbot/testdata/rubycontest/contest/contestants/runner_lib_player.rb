# A player that uses what the contest's runner gives it: the runner's
# lib/ on the load path, a folder of the contest reached from its own,
# Forwardable and Battleship::Util loaded before it.
require "battleship/board"
$:.unshift File.expand_path("../../data", __FILE__)
require "sample_fleets"

class RunnerLibPlayer
  extend Forwardable
  def_delegators :@shots, :size

  def name
    "Runner Lib"
  end

  def new_game
    raise "no util" unless Battleship::Util::PLAYER_METHODS.size == 3
    raise "fleet" unless Battleship::SAMPLE_FLEETS[0].map { |s| s[2] }.sort.reverse == Battleship::Board::FLEET
    @shots = []
    Battleship::SAMPLE_FLEETS[0]
  end

  def take_turn(state, ships_remaining)
    n = size
    @shots << n
    [n % 10, n / 10]
  end
end
