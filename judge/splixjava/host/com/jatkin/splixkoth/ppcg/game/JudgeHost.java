package com.jatkin.splixkoth.ppcg.game;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import com.jatkin.splixkoth.ppcg.game.readonly.Link;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;

/**
 * Runs a SplixPlayer as a judge bot: java JudgeHost PLAYER_CLASS. Each turn
 * it calls makeMove, answering the player's questions with the judge's
 * queries, and sends the move. What the player prints goes to stderr, so
 * that it cannot break the protocol. An exception in the player ends the
 * bot (the judge says crash, with the stack trace).
 */
public final class JudgeHost {
    private JudgeHost() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java " + JudgeHost.class.getName() + " PLAYER_CLASS");
            System.exit(2);
        }
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

        Class<?> c = Class.forName(args[0]);
        if (!SplixPlayer.class.isAssignableFrom(c)) {
            System.err.println(args[0] + " does not extend SplixPlayer");
            System.exit(2);
        }
        Constructor<?> k = c.getDeclaredConstructor();
        k.setAccessible(true);
        SplixPlayer player = (SplixPlayer) k.newInstance();
        String seed = System.getenv("JUDGE_SEED");
        if (seed != null) {
            try {
                player.setRandom(new Random(Long.parseUnsignedLong(seed.trim())));
            } catch (NumberFormatException e) {
                // keep the unseeded generator
            }
        }

        Link link = new Link(in, protocol);
        ReadOnlyGame game = new ReadOnlyGame(link);
        ReadOnlyBoard board = new ReadOnlyBoard(link);
        try {
            link.start(player);
            while (true) {
                link.newTurn();
                Direction d = player.makeMove(game, board);
                link.endTurn(d == null ? null : d.letter);
            }
        } catch (Link.GameOver over) {
            System.exit(0);
        }
    }
}
