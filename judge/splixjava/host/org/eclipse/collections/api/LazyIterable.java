package org.eclipse.collections.api;

import java.util.function.Function;
import java.util.function.Predicate;

/** A view of elements (a map's keys). Here it is computed at once. */
public interface LazyIterable<T> extends RichIterable<T> {
    @Override
    LazyIterable<T> select(Predicate<? super T> p);

    @Override
    LazyIterable<T> reject(Predicate<? super T> p);

    @Override
    <R> LazyIterable<R> collect(Function<? super T, ? extends R> f);
}
