package org.eclipse.collections.impl.set.mutable;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.set.ImmutableSet;
import org.eclipse.collections.api.set.MutableSet;

/** The one set class (in insertion order): mutable, also handed out as immutable sets. */
public class UnifiedSet<T> extends LinkedHashSet<T> implements MutableSet<T>, ImmutableSet<T> {
    public UnifiedSet() {}

    public UnifiedSet(Collection<? extends T> c) { super(c); }

    @Override
    public UnifiedSet<T> select(Predicate<? super T> p) {
        UnifiedSet<T> out = new UnifiedSet<>();
        for (T t : this) if (p.test(t)) out.add(t);
        return out;
    }

    @Override
    public UnifiedSet<T> reject(Predicate<? super T> p) { return select(p.negate()); }

    @Override
    public <R> UnifiedSet<R> collect(Function<? super T, ? extends R> f) {
        UnifiedSet<R> out = new UnifiedSet<>();
        for (T t : this) out.add(f.apply(t));
        return out;
    }

    @Override
    public UnifiedSet<T> with(T t) {
        add(t);
        return this;
    }

    @Override
    public UnifiedSet<T> newWith(T t) {
        UnifiedSet<T> out = new UnifiedSet<>(this);
        out.add(t);
        return out;
    }

    @Override
    public UnifiedSet<T> newWithout(T t) {
        UnifiedSet<T> out = new UnifiedSet<>(this);
        out.remove(t);
        return out;
    }

    @Override
    public UnifiedSet<T> toImmutable() { return new UnifiedSet<>(this); }

    @Override
    public Set<T> castToSet() { return this; }

    @Override
    public boolean isEmpty() { return super.isEmpty(); }

    @Override
    public boolean contains(Object o) { return super.contains(o); }
}
