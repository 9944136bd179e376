package com.nmerrill.kothcomm.game.maps.graphmaps.bounds.point2D;

import com.nmerrill.kothcomm.game.maps.Point2D;

/**
 * A rectangle of cells from (left, bottom) to (right, top), both corners
 * included. As in the contest's library, getWidth() and getHeight() are
 * right - left and top - bottom (one less than the number of cells).
 */
public final class SquareRegion {
    private final int left, right, top, bottom;

    public SquareRegion(Point2D origin, Point2D opposite) {
        left = Math.min(origin.getX(), opposite.getX());
        right = Math.max(origin.getX(), opposite.getX());
        bottom = Math.min(origin.getY(), opposite.getY());
        top = Math.max(origin.getY(), opposite.getY());
    }

    /** The region of a size×size board: (0,0) to (size-1,size-1). */
    public SquareRegion(int size) { this(new Point2D(0, 0), new Point2D(size - 1, size - 1)); }

    public int getLeft() { return left; }

    public int getRight() { return right; }

    public int getTop() { return top; }

    public int getBottom() { return bottom; }

    public int getWidth() { return right - left; }

    public int getHeight() { return top - bottom; }

    public boolean outOfBounds(Point2D p) {
        return p.getX() < left || p.getX() > right || p.getY() < bottom || p.getY() > top;
    }

    public boolean inBounds(Point2D p) { return !outOfBounds(p); }

    /** The point wrapped into the region on both axes. */
    public Point2D wrap(Point2D p) {
        int w = right - left + 1, h = top - bottom + 1;
        return new Point2D(Math.floorMod(p.getX() - left, w) + left, Math.floorMod(p.getY() - bottom, h) + bottom);
    }

    /** The top-left corner. */
    public Point2D startingPoint() { return new Point2D(left, top); }

    @Override
    public String toString() { return "[" + left + ".." + right + "]x[" + bottom + ".." + top + "]"; }
}
