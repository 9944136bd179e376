package bots.survey;

import com.jatkin.splixkoth.ppcg.game.Direction;
import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.HiddenPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlySplixPoint;
import com.nmerrill.kothcomm.game.maps.Point2D;
import com.nmerrill.kothcomm.game.maps.graphmaps.bounds.point2D.SquareRegion;
import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.api.set.ImmutableSet;
import org.eclipse.collections.impl.factory.Lists;
import org.eclipse.collections.impl.factory.Sets;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Goes out of its land for a few steps, turns, and comes home by the
 * shortest way that avoids its own trail; runs home early when another
 * head is in view or the game is about to end.
 */
public class Surveyor extends SplixPlayer {
    private Direction heading = Direction.North;
    private int out = 0;
    private int reach = 4;

    @Override
    protected Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board) {
        Point2D me = getSelfPosition(board);
        if (!me.equals(board.getPosition(this))) throw new IllegalStateException("two positions");
        SquareRegion bounds = board.getBounds();
        MutableMap<Point2D, ReadOnlySplixPoint> global = board.getGlobal();
        MutableMap<Point2D, ReadOnlySplixPoint> view = board.getView();
        HiddenPlayer self = getThisHidden();
        HiddenPlayer nobody = new HiddenPlayer(null);

        boolean home = global.get(me).getOwner().equals(self);
        int trail = global.count(p -> p.getClaimer().equals(self));
        boolean enemyNear = view.select((pt, p) -> !p.getWhosOnSpot().equals(nobody) && !p.getWhosOnSpot().equals(self)).notEmpty();
        ImmutableSet<Direction> safe = Sets.immutable.of(Direction.values()).select(d -> {
            Point2D next = me.move(d.vector.getX(), d.vector.getY());
            return bounds.inBounds(next) && global.containsKey(next) && !global.get(next).getClaimer().equals(self);
        });
        if (safe.isEmpty()) return heading;

        // A trail of someone else's next to us: step on it, it dies.
        MutableMap<Point2D, ReadOnlySplixPoint> prey = global.select((pt, p) ->
                !p.getClaimer().equals(self) && !p.getClaimer().equals(nobody) && pt.cartesianDistance(me) == 1);
        for (Point2D target : prey.keysView()) {
            for (Direction d : safe) {
                if (me.moveX(d.vector.getX()).moveY(d.vector.getY()).equals(target)) return heading = d;
            }
        }
        if (game.getRemainingIterations() % 50 == 0) report(global, self);

        if (home) {
            out = 0;
            reach = 3 + getRandom().nextInt(5);
            // Leave towards the direction with the most cells not ours in reach.
            Direction best = safe.maxBy(d -> {
                int n = 0;
                for (int i = 1; i <= reach; i++) {
                    Point2D p = me.move(d.vector.getX() * i, d.vector.getY() * i);
                    if (bounds.outOfBounds(p)) return n - 100;
                    if (!global.get(p).getOwner().equals(self)) n++;
                }
                return n;
            });
            heading = best;
            return heading;
        }

        out++;
        if (enemyNear || out >= reach * 2 || trail >= reach * 3 || game.getRemainingIterations() < 2 * trail + 4) {
            Direction back = homeward(me, global, bounds, self);
            if (back != null) return heading = back;
        }
        if (out % reach == 0) {
            Direction turn = getRandom().nextBoolean() ? heading.leftTurn() : heading.rightTurn();
            if (safe.contains(turn)) heading = turn;
        }
        if (!safe.contains(heading)) heading = Lists.mutable.of(Direction.values()).detect(safe::contains);
        return heading;
    }

    /** Writes what it owns to stderr (the judge keeps it in the replay). */
    private void report(MutableMap<Point2D, ReadOnlySplixPoint> global, HiddenPlayer self) {
        int[] land = {0};
        global.forEach((pt, p) -> {
            if (p.getOwner().equals(self)) land[0]++;
        });
        int trails = 0;
        for (Map.Entry<Point2D, ReadOnlySplixPoint> e : global.entrySet()) {
            if (!e.getValue().getClaimer().equals(new HiddenPlayer(null))) trails++;
        }
        int owners = global.collect(ReadOnlySplixPoint::getOwner).toSet().size();
        Point2D corner = global.keySet().stream().max(Point2D::compareTo).orElse(null);
        System.out.println(getName() + ": land " + land[0] + ", trail cells " + trails + ", owners " + owners + ", corner " + corner);
    }

    /** The first step of a shortest way home that does not cross our trail. */
    private Direction homeward(Point2D from, MutableMap<Point2D, ReadOnlySplixPoint> global, SquareRegion bounds, HiddenPlayer self) {
        Map<Point2D, Direction> first = new HashMap<>();
        ArrayDeque<Point2D> queue = new ArrayDeque<>();
        queue.add(from);
        first.put(from, null);
        while (!queue.isEmpty()) {
            Point2D p = queue.poll();
            for (Direction d : Direction.values()) {
                Point2D q = p.move(d.vector.getX(), d.vector.getY());
                if (bounds.outOfBounds(q) || first.containsKey(q) || global.get(q).getClaimer().equals(self)) continue;
                Direction step = first.get(p) == null ? d : first.get(p);
                if (global.get(q).getOwner().equals(self)) return step;
                first.put(q, step);
                queue.add(q);
            }
        }
        return null;
    }
}
