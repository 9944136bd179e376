package com.jatkin.splixkoth.ppcg.game.readonly;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

import com.jatkin.splixkoth.ppcg.game.SplixPlayer;

/**
 * The host's connection to the judge: it asks the queries of the judge's
 * Splix protocol and keeps their answers for the rest of the turn (they do
 * not change during a turn). Not part of the contest's API.
 */
public final class Link {
    /** Thrown when the judge closes the bot's input: the game is over. An Error, so that a player's catch (Exception e) does not take it. */
    public static final class GameOver extends Error {
        GameOver() { super("the game is over", null, false, false); }
    }

    private static SplixPlayer self;
    private static int selfSeat = -2;

    private final BufferedReader in;
    private final PrintStream out;
    int size, turns, players, seat;

    // This turn's answers, null until asked.
    private Integer turnsLeft;
    private int[] position; // x, y
    private char[][] owners, trails; // [y][x]
    private int[][] heads; // per seat: x, y or null

    public Link(BufferedReader in, PrintStream out) {
        this.in = in;
        this.out = out;
    }

    /** Learns the game's parameters and the player's seat. */
    public void start(SplixPlayer p) {
        String[] f = ask("Params").trim().split("\\s+");
        size = Integer.parseInt(f[0]);
        turns = Integer.parseInt(f[1]);
        players = Integer.parseInt(f[2]);
        seat = Integer.parseInt(ask("MySeat").trim());
        self = p;
        selfSeat = seat;
    }

    /** Starts a turn: forgets the last one's answers and asks TurnsLeft, which ends the host when the game is over. */
    public void newTurn() {
        turnsLeft = null;
        position = null;
        owners = trails = null;
        heads = null;
        turnsLeft();
    }

    /** Sends the move and ends the turn. */
    public void endTurn(String move) {
        if (move != null) out.print("Move " + move + "\n");
        out.print("#END\n");
        out.flush();
    }

    /** The seat of a player: its own for the host's player, -1 for none, -2 for any other. */
    static int seatOf(SplixPlayer p) {
        if (p == null) return -1;
        return p == self ? selfSeat : -2;
    }

    String ask(String query) {
        out.print(query + "\n");
        out.flush();
        return readLine();
    }

    private String readLine() {
        try {
            String s = in.readLine();
            if (s == null) throw new GameOver();
            return s;
        } catch (IOException e) {
            throw new GameOver();
        }
    }

    private String[] askLines(String query, int n) {
        out.print(query + "\n");
        out.flush();
        String[] lines = new String[n];
        for (int i = 0; i < n; i++) lines[i] = readLine();
        return lines;
    }

    int turnsLeft() {
        if (turnsLeft == null) turnsLeft = Integer.parseInt(ask("TurnsLeft").trim());
        return turnsLeft;
    }

    int[] position() {
        if (position == null) {
            String[] f = ask("Position").trim().split("\\s+");
            position = new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])};
        }
        return position;
    }

    /** The grid of an answer drawn northern row first, indexed [y][x]. */
    private char[][] grid(String query) {
        String[] lines = askLines(query, size);
        char[][] g = new char[size][];
        for (int r = 0; r < size; r++) g[size - 1 - r] = lines[r].toCharArray();
        return g;
    }

    char[][] owners() {
        if (owners == null) owners = grid("Board");
        return owners;
    }

    char[][] trails() {
        if (trails == null) trails = grid("Trails");
        return trails;
    }

    /** The heads the judge shows this player: its own and those within its view. */
    int[][] heads() {
        if (heads == null) {
            heads = new int[players][];
            for (String line : askLines("Players", players)) {
                String[] f = line.trim().split("\\s+");
                int s = Integer.parseInt(f[0]), x = Integer.parseInt(f[2]), y = Integer.parseInt(f[3]);
                if (f[1].equals("alive") && x >= 0 && s >= 0 && s < players) heads[s] = new int[] {x, y};
            }
        }
        return heads;
    }

    static int seatOf(char c) { return c >= '0' && c <= '9' ? c - '0' : -1; }
}
