package org.eclipse.collections.api;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

import org.eclipse.collections.api.list.MutableList;
import org.eclipse.collections.api.set.MutableSet;
import org.eclipse.collections.impl.list.mutable.FastList;
import org.eclipse.collections.impl.set.mutable.UnifiedSet;

/**
 * The part of Eclipse Collections' RichIterable that Splix players use,
 * over the Java collections. The functional arguments are java.util.function's.
 */
public interface RichIterable<T> extends Iterable<T> {
    int size();

    default boolean isEmpty() { return !iterator().hasNext(); }

    default boolean notEmpty() { return !isEmpty(); }

    RichIterable<T> select(Predicate<? super T> p);

    RichIterable<T> reject(Predicate<? super T> p);

    <R> RichIterable<R> collect(Function<? super T, ? extends R> f);

    default <R> MutableList<R> flatCollect(Function<? super T, ? extends Iterable<R>> f) {
        FastList<R> out = new FastList<>();
        for (T t : this) for (R r : f.apply(t)) out.add(r);
        return out;
    }

    default boolean contains(Object o) {
        for (T t : this) if (o == null ? t == null : o.equals(t)) return true;
        return false;
    }

    default T detect(Predicate<? super T> p) {
        for (T t : this) if (p.test(t)) return t;
        return null;
    }

    default Optional<T> detectOptional(Predicate<? super T> p) { return Optional.ofNullable(detect(p)); }

    default T detectIfNone(Predicate<? super T> p, java.util.function.Supplier<? extends T> none) {
        for (T t : this) if (p.test(t)) return t;
        return none.get();
    }

    default int count(Predicate<? super T> p) {
        int n = 0;
        for (T t : this) if (p.test(t)) n++;
        return n;
    }

    default boolean anySatisfy(Predicate<? super T> p) {
        for (T t : this) if (p.test(t)) return true;
        return false;
    }

    default boolean allSatisfy(Predicate<? super T> p) { return !anySatisfy(p.negate()); }

    default boolean noneSatisfy(Predicate<? super T> p) { return !anySatisfy(p); }

    default T min(Comparator<? super T> c) {
        Iterator<T> it = iterator();
        if (!it.hasNext()) throw new NoSuchElementException("min of an empty collection");
        T best = it.next();
        while (it.hasNext()) {
            T t = it.next();
            if (c.compare(t, best) < 0) best = t;
        }
        return best;
    }

    default T max(Comparator<? super T> c) { return min(c.reversed()); }

    @SuppressWarnings("unchecked")
    default T min() { return min((a, b) -> ((Comparable<Object>) a).compareTo(b)); }

    @SuppressWarnings("unchecked")
    default T max() { return max((a, b) -> ((Comparable<Object>) a).compareTo(b)); }

    default <V extends Comparable<? super V>> T minBy(Function<? super T, ? extends V> f) {
        return min((a, b) -> f.apply(a).compareTo(f.apply(b)));
    }

    default <V extends Comparable<? super V>> T maxBy(Function<? super T, ? extends V> f) {
        return max((a, b) -> f.apply(a).compareTo(f.apply(b)));
    }

    default long sumOfInt(ToIntFunction<? super T> f) {
        long s = 0;
        for (T t : this) s += f.applyAsInt(t);
        return s;
    }

    default long sumOfLong(ToLongFunction<? super T> f) {
        long s = 0;
        for (T t : this) s += f.applyAsLong(t);
        return s;
    }

    default double sumOfDouble(ToDoubleFunction<? super T> f) {
        double s = 0;
        for (T t : this) s += f.applyAsDouble(t);
        return s;
    }

    default T getFirst() {
        Iterator<T> it = iterator();
        return it.hasNext() ? it.next() : null;
    }

    default T getAny() { return getFirst(); }

    default T getLast() {
        T last = null;
        for (T t : this) last = t;
        return last;
    }

    /** The one element; an IllegalStateException when there is not exactly one. */
    default T getOnly() {
        Iterator<T> it = iterator();
        if (!it.hasNext()) throw new IllegalStateException("getOnly: the collection is empty");
        T t = it.next();
        if (it.hasNext()) throw new IllegalStateException("getOnly: the collection has " + size() + " elements");
        return t;
    }

    default void each(Consumer<? super T> c) { for (T t : this) c.accept(t); }

    default MutableList<T> toList() {
        FastList<T> out = new FastList<>();
        for (T t : this) out.add(t);
        return out;
    }

    default MutableList<T> toSortedList(Comparator<? super T> c) {
        MutableList<T> out = toList();
        out.sort(c);
        return out;
    }

    @SuppressWarnings("unchecked")
    default MutableList<T> toSortedList() { return toSortedList((a, b) -> ((Comparable<Object>) a).compareTo(b)); }

    default MutableSet<T> toSet() {
        UnifiedSet<T> out = new UnifiedSet<>();
        for (T t : this) out.add(t);
        return out;
    }

    default String makeString(String separator) {
        StringBuilder b = new StringBuilder();
        for (T t : this) {
            if (b.length() > 0) b.append(separator);
            b.append(t);
        }
        return b.toString();
    }

    default String makeString() { return makeString(", "); }
}
