import com.jatkin.splixkoth.ppcg.game.Direction;
import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.HiddenPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;
import com.nmerrill.kothcomm.game.maps.Point2D;
import com.nmerrill.kothcomm.game.maps.graphmaps.bounds.point2D.SquareRegion;
import org.eclipse.collections.api.list.ImmutableList;
import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.api.set.ImmutableSet;
import org.eclipse.collections.impl.factory.Lists;
import org.eclipse.collections.impl.factory.Maps;
import org.eclipse.collections.impl.factory.Sets;
import org.eclipse.collections.impl.tuple.Tuples;

import java.util.Comparator;

/** Checks the host's API types by themselves; prints "ok" or the first failure. */
public class ApiCheck extends SplixPlayer {
    @Override
    protected Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board) { return null; }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL " + what);
            System.exit(1);
        }
    }

    public static void main(String[] args) {
        check(Direction.East.leftTurn() == Direction.North, "East left is North");
        check(Direction.North.leftTurn() == Direction.West && Direction.South.leftTurn() == Direction.East, "left turns");
        check(Direction.East.rightTurn() == Direction.South && Direction.North.RightTurn() == Direction.East, "right turns");
        check(Direction.values().length == 4 && Direction.values()[0] == Direction.East, "values");
        check(Direction.North.vector.equals(new Point2D(0, 1)) && Direction.West.vector.getX() == -1, "vectors");

        Point2D p = new Point2D(3, 4);
        check(p.move(1, -1).equals(new Point2D(4, 3)) && p.moveX(2).getX() == 5 && p.moveY(-4).getY() == 0, "moves");
        check(p.cartesianDistance(new Point2D(0, 0)) == 7 && p.mooreDistance(new Point2D(0, 0)) == 4, "distances");
        check(new Point2D(-1, 5).wrapX(10).getX() == 9 && new Point2D(1, 12).wrapY(10).getY() == 2, "wraps");
        check(p.hashCode() == new Point2D(3, 4).hashCode() && p.compareTo(new Point2D(0, 5)) < 0, "hash, order");

        SquareRegion r = new SquareRegion(10);
        check(r.getLeft() == 0 && r.getRight() == 9 && r.getTop() == 9 && r.getBottom() == 0 && r.getWidth() == 9, "region");
        check(r.inBounds(new Point2D(9, 0)) && r.outOfBounds(new Point2D(10, 0)) && r.outOfBounds(new Point2D(0, -1)), "bounds");

        ApiCheck me = new ApiCheck();
        check(new HiddenPlayer(null).equals(new HiddenPlayer(null)), "no one equals no one");
        check(!me.getThisHidden().equals(new HiddenPlayer(null)), "a player is not no one");
        check(me.getName().equals("ApiCheck"), "name");

        MutableMap<Point2D, Integer> m = Maps.mutable.empty();
        for (int x = 0; x < 3; x++) for (int y = 0; y < 3; y++) m.put(new Point2D(x, y), x + y);
        check(m.select((k, v) -> v >= 3).size() == 3 && m.reject((k, v) -> v >= 3).size() == 6, "select, reject");
        check(m.count(v -> v == 2) == 3 && m.anySatisfy(v -> v == 4) && m.allSatisfy(v -> v < 5), "count, satisfy");
        check(m.keysView().min(Comparator.comparingInt(k -> k.cartesianDistance(new Point2D(2, 2)))).equals(new Point2D(2, 2)), "keysView min");
        check(m.collect(v -> v * 10).contains(40) && m.collectValues((k, v) -> k.getX()).get(new Point2D(2, 0)) == 2, "collect");
        check(m.collect((k, v) -> Tuples.pair(v, k)).size() == 5, "collect pairs");
        int[] sum = {0};
        m.forEach((k, v) -> sum[0] += v);
        m.forEachValue(v -> sum[0] += v);
        check(sum[0] == 36 && m.containsKey(new Point2D(1, 1)) && m.keySet().size() == 9 && m.entrySet().size() == 9, "map basics");
        check(m.detect((k, v) -> v == 4).getOne().equals(new Point2D(2, 2)), "detect");
        check(m.keysView().select(k -> k.getX() == 0).collect(Point2D::getY).toSet().size() == 3, "keysView chain");

        ImmutableSet<Direction> s = Sets.immutable.of(Direction.values()).select(d -> d.vector.getX() == 0);
        check(s.size() == 2 && s.contains(Direction.North) && s.select(d -> d == Direction.South).getOnly() == Direction.South, "sets");
        ImmutableList<Direction> l = Lists.immutable.of(Direction.values()).reject(d -> d == Direction.East);
        check(l.size() == 3 && l.get(0) == Direction.North && Lists.mutable.of(1, 2, 3).maxBy(i -> -i) == 1, "lists");
        check(Lists.mutable.of(3, 1, 2).sortThis(Comparator.naturalOrder()).getFirst() == 1, "sortThis");
        System.out.println("ok");
    }
}
