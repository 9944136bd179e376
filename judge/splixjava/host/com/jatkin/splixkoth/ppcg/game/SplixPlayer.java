package com.jatkin.splixkoth.ppcg.game;

import java.util.Random;

import com.jatkin.splixkoth.ppcg.game.readonly.HiddenPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;
import com.nmerrill.kothcomm.game.maps.Point2D;

/** A Splix player: the judge's host calls makeMove once a turn. */
public abstract class SplixPlayer {
    private final String name;
    private Random random = new Random();

    protected SplixPlayer() { name = getClass().getSimpleName(); }

    /** A player named otherwise than by its class (a Clojure player, by its namespace). */
    protected SplixPlayer(String name) { this.name = name; }

    /** This turn's move; null goes straight on. */
    protected abstract Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board);

    /** This player as cells' owners and claimers name it. */
    protected final HiddenPlayer getThisHidden() { return new HiddenPlayer(this); }

    /** board.getPosition(this). */
    protected final Point2D getSelfPosition(ReadOnlyBoard board) { return board.getPosition(this); }

    /** The player's name: its class's simple name, a Clojure player's namespace. */
    public final String getName() { return name; }

    /** A generator seeded from the judge's seed for this seat: the same match seed replays the same game. */
    public final Random getRandom() { return random; }

    public void setRandom(Random random) { this.random = random; }

    @Override
    public String toString() { return getName(); }
}
