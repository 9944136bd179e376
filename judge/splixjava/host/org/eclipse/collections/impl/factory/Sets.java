package org.eclipse.collections.impl.factory;

import java.util.Arrays;

import org.eclipse.collections.api.set.ImmutableSet;
import org.eclipse.collections.api.set.MutableSet;
import org.eclipse.collections.impl.set.mutable.UnifiedSet;

/** Sets.mutable.of(...), Sets.immutable.of(...). */
public final class Sets {
    private Sets() {}

    public static final Mutable mutable = new Mutable();
    public static final Immutable immutable = new Immutable();

    public static final class Mutable {
        private Mutable() {}

        public <T> MutableSet<T> empty() { return new UnifiedSet<>(); }

        @SafeVarargs
        public final <T> MutableSet<T> of(T... items) { return new UnifiedSet<>(Arrays.asList(items)); }

        @SafeVarargs
        public final <T> MutableSet<T> with(T... items) { return of(items); }

        public <T> MutableSet<T> ofAll(Iterable<? extends T> items) {
            UnifiedSet<T> out = new UnifiedSet<>();
            for (T t : items) out.add(t);
            return out;
        }

        public <T> MutableSet<T> withAll(Iterable<? extends T> items) { return ofAll(items); }
    }

    public static final class Immutable {
        private Immutable() {}

        public <T> ImmutableSet<T> empty() { return new UnifiedSet<>(); }

        @SafeVarargs
        public final <T> ImmutableSet<T> of(T... items) { return new UnifiedSet<>(Arrays.asList(items)); }

        @SafeVarargs
        public final <T> ImmutableSet<T> with(T... items) { return of(items); }

        public <T> ImmutableSet<T> ofAll(Iterable<? extends T> items) {
            UnifiedSet<T> out = new UnifiedSet<>();
            for (T t : items) out.add(t);
            return out;
        }

        public <T> ImmutableSet<T> withAll(Iterable<? extends T> items) { return ofAll(items); }
    }
}
