package com.jatkin.splixkoth.ppcg.game.readonly;

/** One cell: who owns it, whose trail is on it and, in getView(), whose head. */
public final class ReadOnlySplixPoint {
    private final int owner, claimer, onSpot;

    ReadOnlySplixPoint(int owner, int claimer, int onSpot) {
        this.owner = owner;
        this.claimer = claimer;
        this.onSpot = onSpot;
    }

    /** The owner of the land; new HiddenPlayer(null) when no one owns it. */
    public HiddenPlayer getOwner() { return new HiddenPlayer(owner); }

    /** Whose trail is on the cell; new HiddenPlayer(null) when none. */
    public HiddenPlayer getClaimer() { return new HiddenPlayer(claimer); }

    /** Whose head is on the cell (getView only); new HiddenPlayer(null) when none. */
    public HiddenPlayer getWhosOnSpot() { return new HiddenPlayer(onSpot); }

    /** Older names of getOwner and getClaimer. */
    public HiddenPlayer getTypeOfOwner() { return getOwner(); }

    public HiddenPlayer getTypeOfClaimer() { return getClaimer(); }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ReadOnlySplixPoint)) return false;
        ReadOnlySplixPoint p = (ReadOnlySplixPoint) o;
        return p.owner == owner && p.claimer == claimer && p.onSpot == onSpot;
    }

    @Override
    public int hashCode() { return (owner * 7 + claimer) * 7 + onSpot; }

    @Override
    public String toString() { return "owner " + getOwner() + ", trail " + getClaimer() + ", head " + getWhosOnSpot(); }
}
