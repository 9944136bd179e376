package org.eclipse.collections.api.set;

import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.RichIterable;

/** A java.util.Set with Eclipse Collections' methods. */
public interface MutableSet<T> extends Set<T>, RichIterable<T> {
    @Override
    MutableSet<T> select(Predicate<? super T> p);

    @Override
    MutableSet<T> reject(Predicate<? super T> p);

    @Override
    <R> MutableSet<R> collect(Function<? super T, ? extends R> f);

    @Override
    int size();

    @Override
    boolean isEmpty();

    @Override
    boolean contains(Object o);

    MutableSet<T> with(T t);

    ImmutableSet<T> toImmutable();
}
