package org.eclipse.collections.api.map;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.eclipse.collections.api.LazyIterable;
import org.eclipse.collections.api.RichIterable;
import org.eclipse.collections.api.list.MutableList;
import org.eclipse.collections.api.tuple.Pair;

/**
 * A java.util.Map with the Eclipse Collections methods Splix players use.
 * As a RichIterable it holds the map's values (count, anySatisfy, detect,
 * min... look at the values); select and reject with two arguments keep
 * the entries whose key and value pass.
 */
public interface MutableMap<K, V> extends Map<K, V>, RichIterable<V> {
    MutableMap<K, V> select(BiPredicate<? super K, ? super V> p);

    MutableMap<K, V> reject(BiPredicate<? super K, ? super V> p);

    /** The values that pass. */
    @Override
    MutableList<V> select(Predicate<? super V> p);

    @Override
    MutableList<V> reject(Predicate<? super V> p);

    /** f of every value. */
    @Override
    <R> MutableList<R> collect(Function<? super V, ? extends R> f);

    /** A map of the pairs f makes of every entry. */
    <K2, V2> MutableMap<K2, V2> collect(BiFunction<? super K, ? super V, Pair<K2, V2>> f);

    /** The same keys, with f of each entry as value. */
    <R> MutableMap<K, R> collectValues(BiFunction<? super K, ? super V, ? extends R> f);

    /** The first entry that passes, or null. */
    Pair<K, V> detect(BiPredicate<? super K, ? super V> p);

    LazyIterable<K> keysView();

    RichIterable<V> valuesView();

    RichIterable<Pair<K, V>> keyValuesView();

    default void forEachKey(Consumer<? super K> c) { keySet().forEach(c); }

    default void forEachValue(Consumer<? super V> c) { values().forEach(c); }

    default void forEachKeyValue(BiConsumer<? super K, ? super V> c) { forEach(c); }

    default V getIfAbsent(K key, Supplier<? extends V> f) {
        V v = get(key);
        return v != null || containsKey(key) ? v : f.get();
    }

    default V getIfAbsentValue(K key, V value) {
        V v = get(key);
        return v != null || containsKey(key) ? v : value;
    }

    default V getIfAbsentPut(K key, Supplier<? extends V> f) {
        V v = get(key);
        if (v == null && !containsKey(key)) {
            v = f.get();
            put(key, v);
        }
        return v;
    }

    MutableMap<K, V> withKeyValue(K key, V value);

    @Override
    int size();

    @Override
    boolean isEmpty();

    /** Whether o is one of the values. */
    @Override
    default boolean contains(Object o) { return containsValue(o); }
}
