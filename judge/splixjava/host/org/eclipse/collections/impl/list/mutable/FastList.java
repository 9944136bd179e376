package org.eclipse.collections.impl.list.mutable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.LazyIterable;
import org.eclipse.collections.api.list.ImmutableList;
import org.eclipse.collections.api.list.MutableList;

/** The one list class: mutable, also handed out as immutable lists and lazy views. */
public class FastList<T> extends ArrayList<T> implements MutableList<T>, ImmutableList<T>, LazyIterable<T> {
    public FastList() {}

    public FastList(Collection<? extends T> c) { super(c); }

    @Override
    public FastList<T> select(Predicate<? super T> p) {
        FastList<T> out = new FastList<>();
        for (T t : this) if (p.test(t)) out.add(t);
        return out;
    }

    @Override
    public FastList<T> reject(Predicate<? super T> p) { return select(p.negate()); }

    @Override
    public <R> FastList<R> collect(Function<? super T, ? extends R> f) {
        FastList<R> out = new FastList<>();
        for (T t : this) out.add(f.apply(t));
        return out;
    }

    @Override
    public FastList<T> with(T t) {
        add(t);
        return this;
    }

    @Override
    public FastList<T> newWith(T t) {
        FastList<T> out = new FastList<>(this);
        out.add(t);
        return out;
    }

    @Override
    public FastList<T> toImmutable() { return new FastList<>(this); }

    @Override
    public List<T> castToList() { return this; }

    @Override
    public boolean isEmpty() { return super.isEmpty(); }

    @Override
    public boolean contains(Object o) { return super.contains(o); }

    @Override
    public T getFirst() { return isEmpty() ? null : get(0); }

    @Override
    public T getLast() { return isEmpty() ? null : get(size() - 1); }
}
