package com.jatkin.splixkoth.ppcg.game.readonly;

import com.jatkin.splixkoth.ppcg.game.SplixPlayer;

/**
 * A player as others see it: equal to another HiddenPlayer of the same
 * player. new HiddenPlayer(null) is no one (an empty cell's owner).
 */
public final class HiddenPlayer {
    private final int seat; // -1: no one

    public HiddenPlayer(SplixPlayer player) { this.seat = Link.seatOf(player); }

    HiddenPlayer(int seat) { this.seat = seat; }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof HiddenPlayer)) return false;
        return ((HiddenPlayer) o).seat == seat && seat != -2;
    }

    @Override
    public int hashCode() { return seat + 1; }

    @Override
    public String toString() { return seat < 0 ? "no one" : "seat " + seat; }
}
