package com.jatkin.splixkoth.ppcg.game;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import com.jatkin.splixkoth.ppcg.game.readonly.Link;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;

/**
 * Runs a SplixPlayer as a judge bot: java JudgeHost PLAYER_CLASS, or
 * java JudgeHost clojure:FILE.clj CLOJURE_JAR for a player in Clojure. Each turn
 * it calls makeMove, answering the player's questions with the judge's
 * queries, and sends the move. What the player prints goes to stderr, so
 * that it cannot break the protocol. An exception in the player ends the
 * bot (the judge says crash, with the stack trace).
 */
public final class JudgeHost {
    private JudgeHost() {}

    /** Starts the argument naming a Clojure player's file. */
    private static final String CLOJURE = "clojure:";

    /**
     * Runs the host again in a class loader that also sees Clojure's jar and
     * the player's directory (for its other namespaces): the class path of
     * the command line names only the host's classes.
     */
    private static void runWithClojure(String[] args) throws Exception {
        File player = new File(args[0].substring(CLOJURE.length())).getAbsoluteFile();
        URL[] path = {
            JudgeHost.class.getProtectionDomain().getCodeSource().getLocation(),
            player.getParentFile().toURI().toURL(),
            new File(args[1]).toURI().toURL(),
        };
        URLClassLoader loader = new URLClassLoader(path, ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(JudgeHost.class.getName()).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
    }

    /** The exception a constructor threw, so that the trace shows it first. */
    private static Exception unwrap(InvocationTargetException e) {
        Throwable t = e.getCause();
        if (t instanceof Error) throw (Error) t;
        return t instanceof Exception ? (Exception) t : e;
    }

    public static void main(String[] args) throws Exception {
        boolean clojure = args.length == 2 && args[0].startsWith(CLOJURE);
        if (args.length != 1 && !clojure) {
            System.err.println("usage: java " + JudgeHost.class.getName() + " PLAYER_CLASS | clojure:FILE.clj CLOJURE_JAR");
            System.exit(2);
        }
        if (clojure && JudgeHost.class.getClassLoader() == ClassLoader.getSystemClassLoader()) {
            runWithClojure(args);
            return;
        }
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

        SplixPlayer player;
        if (args[0].startsWith(CLOJURE)) {
            // Compiled only for Clojure players, with Clojure's jar.
            Class<?> c = Class.forName("com.jatkin.splixkoth.ppcg.loaders.ClojurePlayer");
            try {
                player = (SplixPlayer) c.getConstructor(String.class).newInstance(args[0].substring(CLOJURE.length()));
            } catch (InvocationTargetException e) {
                throw unwrap(e);
            }
        } else {
            Class<?> c = Class.forName(args[0]);
            if (!SplixPlayer.class.isAssignableFrom(c)) {
                System.err.println(args[0] + " does not extend SplixPlayer");
                System.exit(2);
            }
            Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            player = (SplixPlayer) k.newInstance();
        }
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
        try {
            link.start(player);
            while (true) {
                link.newTurn();
                Direction d = player.makeMove(game, new ReadOnlyBoard(link));
                link.endTurn(d == null ? null : d.letter);
            }
        } catch (Link.GameOver over) {
            System.exit(0);
        }
    }
}
