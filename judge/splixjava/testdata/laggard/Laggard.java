import com.jatkin.splixkoth.ppcg.game.Direction;
import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.HiddenPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlySplixPoint;
import com.nmerrill.kothcomm.game.maps.Point2D;
import com.nmerrill.kothcomm.game.maps.graphmaps.bounds.point2D.SquareRegion;
import javafx.util.Pair;
import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.impl.factory.Lists;

import java.util.Comparator;

/**
 * Draws thin loops as the contest's players did, counting its steps out
 * from the trail the way the contest's controller draws it: the cell under
 * the head becomes trail only when the head leaves it, so the steps out
 * are the trail's cells plus one. It refuses to play on if the cell under
 * its head is ever its trail. It picks the way with the most room with
 * JavaFX's Pair.
 */
public class Laggard extends SplixPlayer {
    private static final int REACH = 3;

    private Direction out = Direction.North;
    private Direction last = Direction.North;
    private boolean wasHome = true;
    private int loops = 0;

    @Override
    protected Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board) {
        Point2D me = getSelfPosition(board);
        HiddenPlayer self = getThisHidden();
        MutableMap<Point2D, ReadOnlySplixPoint> view = board.getView();
        ReadOnlySplixPoint here = view.get(me);
        if (here.getClaimer().equals(self)) {
            throw new IllegalStateException("the cell under my head is my trail: the trail does not lag");
        }
        boolean home = here.getOwner().equals(self);
        int steps = view.count(p -> p.getClaimer().equals(self)) + (home ? 0 : 1);

        Direction move;
        if (home && !wasHome) {
            loops++;
            out = roomiest(board.getBounds(), me);
        }
        if (home && loops >= 2) {
            // Enough: walk about on its own land, where nothing kills it.
            move = last;
            Direction d = last.leftTurn();
            for (int i = 0; i < 4; i++, d = d.rightTurn()) {
                ReadOnlySplixPoint next = view.get(me.move(d.vector.getX(), d.vector.getY()));
                if (next != null && next.getOwner().equals(self)) {
                    move = d;
                    break;
                }
            }
        } else if (home) {
            move = out;
        } else if (steps < REACH) {
            move = out;
        } else if (steps < REACH + 2) {
            move = out.leftTurn();
        } else {
            move = out.leftTurn().leftTurn();
        }
        wasHome = home;
        last = move;
        return move;
    }

    /** The way with the most room ahead and to its left, by Pairs of (way, room). */
    private static Direction roomiest(SquareRegion b, Point2D p) {
        return Lists.mutable.of(
                new Pair<>(Direction.North, Math.min(b.getTop() - p.getY(), p.getX() - b.getLeft())),
                new Pair<>(Direction.West, Math.min(p.getX() - b.getLeft(), p.getY() - b.getBottom())),
                new Pair<>(Direction.South, Math.min(p.getY() - b.getBottom(), b.getRight() - p.getX())),
                new Pair<>(Direction.East, Math.min(b.getRight() - p.getX(), b.getTop() - p.getY()))
        ).max(Comparator.comparingInt(Pair::getValue)).getKey();
    }
}
