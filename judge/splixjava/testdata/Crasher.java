import com.jatkin.splixkoth.ppcg.game.Direction;
import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;

/** Prints to stdout (which must not reach the judge), then fails on its third turn. */
public class Crasher extends SplixPlayer {
    private int turn;

    @Override
    protected Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board) {
        System.out.println("turn " + turn + ", " + game.getRemainingIterations() + " left");
        if (++turn == 3) throw new IllegalStateException("out of ideas");
        return Direction.North.leftTurn().rightTurn();
    }
}
