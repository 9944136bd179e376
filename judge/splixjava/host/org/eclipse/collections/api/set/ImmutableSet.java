package org.eclipse.collections.api.set;

import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.RichIterable;

/** A set not to be changed. */
public interface ImmutableSet<T> extends RichIterable<T> {
    @Override
    ImmutableSet<T> select(Predicate<? super T> p);

    @Override
    ImmutableSet<T> reject(Predicate<? super T> p);

    @Override
    <R> ImmutableSet<R> collect(Function<? super T, ? extends R> f);

    ImmutableSet<T> newWith(T t);

    ImmutableSet<T> newWithout(T t);

    Set<T> castToSet();
}
