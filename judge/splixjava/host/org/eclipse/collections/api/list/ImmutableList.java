package org.eclipse.collections.api.list;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.RichIterable;

/** A list not to be changed. */
public interface ImmutableList<T> extends RichIterable<T> {
    T get(int index);

    @Override
    ImmutableList<T> select(Predicate<? super T> p);

    @Override
    ImmutableList<T> reject(Predicate<? super T> p);

    @Override
    <R> ImmutableList<R> collect(Function<? super T, ? extends R> f);

    ImmutableList<T> newWith(T t);

    List<T> castToList();
}
