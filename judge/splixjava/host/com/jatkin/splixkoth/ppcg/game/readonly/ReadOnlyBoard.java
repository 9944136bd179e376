package com.jatkin.splixkoth.ppcg.game.readonly;

import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.nmerrill.kothcomm.game.maps.Point2D;
import com.nmerrill.kothcomm.game.maps.graphmaps.bounds.point2D.SquareRegion;
import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.impl.map.mutable.UnifiedMap;

/**
 * The board as the player sees it this turn. getGlobal() asks the judge
 * for Board and Trails, getView() for them and for Players; the answers
 * are kept for the rest of the turn. Every call returns a new map.
 */
public final class ReadOnlyBoard {
    /** How far the view reaches each way from the head: the judge's View is 21×21. */
    public static final int VIEW_RADIUS = 10;

    private final Link link;

    /**
     * The square the view covers this turn, as in the contest's
     * controller: 10 cells each way from the head, not cut to the board.
     * Its centre is the head (Clojure players, which have no
     * getSelfPosition, find themselves there).
     */
    public final SquareRegion viewingArea;

    /** This turn's board: made by the host each turn. */
    public ReadOnlyBoard(Link link) {
        this.link = link;
        int[] p = link.position();
        viewingArea = new SquareRegion(new Point2D(p[0] - VIEW_RADIUS, p[1] - VIEW_RADIUS), new Point2D(p[0] + VIEW_RADIUS, p[1] + VIEW_RADIUS));
    }

    /** The whole board: every cell's owner and trail; no heads. */
    public MutableMap<Point2D, ReadOnlySplixPoint> getGlobal() {
        char[][] o = link.owners(), t = link.trails();
        int n = link.size;
        UnifiedMap<Point2D, ReadOnlySplixPoint> m = new UnifiedMap<>(n * n * 4 / 3 + 1);
        for (int y = 0; y < n; y++) {
            for (int x = 0; x < n; x++) {
                m.put(new Point2D(x, y), new ReadOnlySplixPoint(Link.seatOf(o[y][x]), Link.seatOf(t[y][x]), -1));
            }
        }
        return m;
    }

    /** The cells within 10 of the head each way (on the board), with the heads on them. */
    public MutableMap<Point2D, ReadOnlySplixPoint> getView() {
        char[][] o = link.owners(), t = link.trails();
        int[] me = link.position();
        int[][] heads = link.heads();
        int n = link.size;
        UnifiedMap<Point2D, ReadOnlySplixPoint> m = new UnifiedMap<>();
        for (int y = Math.max(0, me[1] - VIEW_RADIUS); y <= Math.min(n - 1, me[1] + VIEW_RADIUS); y++) {
            for (int x = Math.max(0, me[0] - VIEW_RADIUS); x <= Math.min(n - 1, me[0] + VIEW_RADIUS); x++) {
                int on = -1;
                for (int s = 0; s < heads.length; s++) {
                    if (heads[s] != null && heads[s][0] == x && heads[s][1] == y) on = s;
                }
                m.put(new Point2D(x, y), new ReadOnlySplixPoint(Link.seatOf(o[y][x]), Link.seatOf(t[y][x]), on));
            }
        }
        return m;
    }

    /** The board: (0,0) to (size-1,size-1). */
    public SquareRegion getBounds() { return new SquareRegion(link.size); }

    /** Where the player's head is: for the player itself (board.getPosition(this)); null for any other. */
    public Point2D getPosition(SplixPlayer me) {
        if (Link.seatOf(me) != link.seat) return null;
        int[] p = link.position();
        return new Point2D(p[0], p[1]);
    }
}
