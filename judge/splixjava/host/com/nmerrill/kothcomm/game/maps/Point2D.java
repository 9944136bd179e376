package com.nmerrill.kothcomm.game.maps;

/** A cell of the board: x is the column (east is +1), y the row (north is +1). Immutable. */
public final class Point2D implements Comparable<Point2D> {
    private final int x;
    private final int y;

    public Point2D(int x, int y) {
        this.x = x;
        this.y = y;
    }

    public int getX() { return x; }

    public int getY() { return y; }

    /** The point moved by (dx, dy). */
    public Point2D move(int dx, int dy) { return new Point2D(x + dx, y + dy); }

    public Point2D moveX(int dx) { return move(dx, 0); }

    public Point2D moveY(int dy) { return move(0, dy); }

    /** x brought into 0..maxX-1. */
    public Point2D wrapX(int maxX) { return new Point2D(Math.floorMod(x, maxX), y); }

    /** y brought into 0..maxY-1. */
    public Point2D wrapY(int maxY) { return new Point2D(x, Math.floorMod(y, maxY)); }

    /** The number of moves from here to other: |dx| + |dy|. */
    public int cartesianDistance(Point2D other) { return Math.abs(other.x - x) + Math.abs(other.y - y); }

    /** max(|dx|, |dy|). */
    public int mooreDistance(Point2D other) { return Math.max(Math.abs(other.x - x), Math.abs(other.y - y)); }

    /** The straight-line distance to other. */
    public double diagonalDistance(Point2D other) { return Math.hypot(other.x - x, other.y - y); }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Point2D)) return false;
        Point2D p = (Point2D) o;
        return p.x == x && p.y == y;
    }

    @Override
    public int hashCode() { return x * 31 + y; }

    /** Row by row from the south, then by column. */
    @Override
    public int compareTo(Point2D o) { return y != o.y ? Integer.compare(y, o.y) : Integer.compare(x, o.x); }

    @Override
    public String toString() { return "(" + x + ", " + y + ")"; }
}
