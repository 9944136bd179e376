package com.jatkin.splixkoth.ppcg.loaders;

import java.io.File;
import java.util.List;

import clojure.lang.IFn;
import clojure.lang.Indexed;
import clojure.lang.RT;
import clojure.lang.Var;
import com.jatkin.splixkoth.ppcg.game.Direction;
import com.jatkin.splixkoth.ppcg.game.SplixPlayer;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyBoard;
import com.jatkin.splixkoth.ppcg.game.readonly.ReadOnlyGame;

/**
 * A player written in Clojure, loaded as the contest's controller loads
 * one: the file NAME.clj is loaded with load-file, its namespace is NAME
 * with '_' as '-', and each turn its make-move is called with the game,
 * the board and the state it returned last (nil at first), and returns
 * [direction new-state].
 */
public class ClojurePlayer extends SplixPlayer {
    private final IFn makeMove;
    private Object state = null;

    public ClojurePlayer(String path) {
        super(namespace(path));
        RT.var("clojure.core", "load-file").invoke(path);
        Var v = RT.var(getName(), "make-move");
        if (!v.isBound()) {
            throw new IllegalStateException(new File(path).getName() + " defines no make-move in the namespace " + getName()
                    + " (a player's namespace is its file's name with _ as -)");
        }
        makeMove = v;
    }

    /** The player's namespace: its file's name without .clj, '_' as '-'. */
    public static String namespace(String path) {
        String name = new File(path).getName();
        if (name.endsWith(".clj")) name = name.substring(0, name.length() - 4);
        return name.replace('_', '-');
    }

    @Override
    protected Direction makeMove(ReadOnlyGame game, ReadOnlyBoard board) {
        Object ret = makeMove.invoke(game, board, state);
        Object dir;
        if (ret instanceof Indexed) {
            dir = ((Indexed) ret).nth(0);
            state = ((Indexed) ret).nth(1, null);
        } else if (ret instanceof List) {
            List<?> l = (List<?>) ret;
            dir = l.get(0);
            state = l.size() > 1 ? l.get(1) : null;
        } else {
            throw new IllegalStateException(getName() + "/make-move returned " + ret + ": want [direction new-state]");
        }
        if (dir != null && !(dir instanceof Direction)) {
            throw new IllegalStateException(getName() + "/make-move returned the direction " + dir + ": want a Direction (Direction/North, ...)");
        }
        return (Direction) dir;
    }
}
