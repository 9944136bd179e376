package org.eclipse.collections.api.tuple;

/** Two values. */
public interface Pair<T1, T2> {
    T1 getOne();

    T2 getTwo();
}
