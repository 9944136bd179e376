import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random gomoku / tic-tac-toe bot in Java.
 *
 * System.out flushes at every println, so each line reaches the judge at
 * once. (A bot that wraps System.out in a BufferedWriter must call flush()
 * before it waits for an answer.)
 *
 * Each turn: ask the board's size, ask the whole board, put a symbol on a
 * random empty cell, end the turn.
 */
public class RandomBot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String seed = System.getenv("JUDGE_SEED");
        Random random = new Random(seed == null ? 1 : Long.parseUnsignedLong(seed));
        while (true) {
            System.out.println("Params");
            String params = in.readLine();
            if (params == null) {
                return; // the game is over: stdin was closed
            }
            int n = Integer.parseInt(params.split(" ")[0]);
            System.out.println("Board");
            List<int[]> empty = new ArrayList<>();
            for (int y = 0; y < n; y++) {
                String row = in.readLine();
                if (row == null) {
                    return;
                }
                String[] cells = row.split(" ");
                for (int x = 0; x < n; x++) {
                    if (cells[x].equals("-")) {
                        empty.add(new int[] {x, y});
                    }
                }
            }
            int[] cell = empty.get(random.nextInt(empty.size()));
            System.out.println("PlaceSymbol " + cell[0] + " " + cell[1]);
            System.out.println("#END");
        }
    }
}
