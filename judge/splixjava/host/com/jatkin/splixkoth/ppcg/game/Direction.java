package com.jatkin.splixkoth.ppcg.game;

import com.nmerrill.kothcomm.game.maps.Point2D;

/** A move: East is x+1, North y+1, West x-1, South y-1. Turning left goes East, North, West, South. */
public enum Direction {
    East(new Point2D(1, 0), "E"),
    North(new Point2D(0, 1), "N"),
    West(new Point2D(-1, 0), "W"),
    South(new Point2D(0, -1), "S");

    /** The step this direction makes. */
    public final Point2D vector;
    final String letter;

    Direction(Point2D vector, String letter) {
        this.vector = vector;
        this.letter = letter;
    }

    public Direction leftTurn() { return values()[(ordinal() + 1) % 4]; }

    public Direction rightTurn() { return values()[(ordinal() + 3) % 4]; }

    /** The same as rightTurn(), under the name the contest's text gives it. */
    public Direction RightTurn() { return rightTurn(); }

    /** The opposite direction. */
    public Direction reverse() { return values()[(ordinal() + 2) % 4]; }

    /** The direction of a protocol letter (N, E, S, W), or null. */
    static Direction ofLetter(String s) {
        for (Direction d : values()) {
            if (d.letter.equals(s)) return d;
        }
        return null;
    }
}
