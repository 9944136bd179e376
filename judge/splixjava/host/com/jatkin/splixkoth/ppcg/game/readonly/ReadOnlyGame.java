package com.jatkin.splixkoth.ppcg.game.readonly;

/** The game: how many turns are left. */
public final class ReadOnlyGame {
    private final Link link;

    public ReadOnlyGame(Link link) { this.link = link; }

    /** The turns still to play, this one included (the judge's TurnsLeft). */
    public int getRemainingIterations() { return link.turnsLeft(); }
}
