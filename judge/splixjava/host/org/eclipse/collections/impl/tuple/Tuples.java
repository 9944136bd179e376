package org.eclipse.collections.impl.tuple;

import java.util.Objects;

import org.eclipse.collections.api.tuple.Pair;

/** Makes pairs. */
public final class Tuples {
    private Tuples() {}

    public static <T1, T2> Pair<T1, T2> pair(T1 one, T2 two) { return new PairImpl<>(one, two); }

    private static final class PairImpl<T1, T2> implements Pair<T1, T2> {
        private final T1 one;
        private final T2 two;

        PairImpl(T1 one, T2 two) {
            this.one = one;
            this.two = two;
        }

        public T1 getOne() { return one; }

        public T2 getTwo() { return two; }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Pair)) return false;
            Pair<?, ?> p = (Pair<?, ?>) o;
            return Objects.equals(one, p.getOne()) && Objects.equals(two, p.getTwo());
        }

        @Override
        public int hashCode() { return Objects.hashCode(one) * 31 + Objects.hashCode(two); }

        @Override
        public String toString() { return one + ":" + two; }
    }
}
