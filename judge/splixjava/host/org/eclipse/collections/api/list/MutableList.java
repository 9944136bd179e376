package org.eclipse.collections.api.list;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.RichIterable;

/** A java.util.List with Eclipse Collections' methods. */
public interface MutableList<T> extends List<T>, RichIterable<T> {
    @Override
    MutableList<T> select(Predicate<? super T> p);

    @Override
    MutableList<T> reject(Predicate<? super T> p);

    @Override
    <R> MutableList<R> collect(Function<? super T, ? extends R> f);

    @Override
    int size();

    @Override
    boolean isEmpty();

    @Override
    boolean contains(Object o);

    @Override
    default T getFirst() { return isEmpty() ? null : get(0); }

    @Override
    default T getLast() { return isEmpty() ? null : get(size() - 1); }

    MutableList<T> with(T t);

    default MutableList<T> sortThis(Comparator<? super T> c) {
        sort(c);
        return this;
    }

    ImmutableList<T> toImmutable();
}
