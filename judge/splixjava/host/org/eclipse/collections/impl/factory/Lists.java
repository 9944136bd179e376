package org.eclipse.collections.impl.factory;

import java.util.Arrays;

import org.eclipse.collections.api.list.ImmutableList;
import org.eclipse.collections.api.list.MutableList;
import org.eclipse.collections.impl.list.mutable.FastList;

/** Lists.mutable.of(...), Lists.immutable.of(...). */
public final class Lists {
    private Lists() {}

    public static final Mutable mutable = new Mutable();
    public static final Immutable immutable = new Immutable();

    public static final class Mutable {
        private Mutable() {}

        public <T> MutableList<T> empty() { return new FastList<>(); }

        @SafeVarargs
        public final <T> MutableList<T> of(T... items) { return new FastList<>(Arrays.asList(items)); }

        @SafeVarargs
        public final <T> MutableList<T> with(T... items) { return of(items); }

        public <T> MutableList<T> ofAll(Iterable<? extends T> items) {
            FastList<T> out = new FastList<>();
            for (T t : items) out.add(t);
            return out;
        }

        public <T> MutableList<T> withAll(Iterable<? extends T> items) { return ofAll(items); }
    }

    public static final class Immutable {
        private Immutable() {}

        public <T> ImmutableList<T> empty() { return new FastList<>(); }

        @SafeVarargs
        public final <T> ImmutableList<T> of(T... items) { return new FastList<>(Arrays.asList(items)); }

        @SafeVarargs
        public final <T> ImmutableList<T> with(T... items) { return of(items); }

        public <T> ImmutableList<T> ofAll(Iterable<? extends T> items) {
            FastList<T> out = new FastList<>();
            for (T t : items) out.add(t);
            return out;
        }

        public <T> ImmutableList<T> withAll(Iterable<? extends T> items) { return ofAll(items); }
    }
}
