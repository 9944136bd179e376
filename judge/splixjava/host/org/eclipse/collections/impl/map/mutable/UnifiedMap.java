package org.eclipse.collections.impl.map.mutable;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.collections.api.RichIterable;
import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.api.tuple.Pair;
import org.eclipse.collections.impl.list.mutable.FastList;
import org.eclipse.collections.impl.tuple.Tuples;

/** The one map class, in insertion order. */
public class UnifiedMap<K, V> extends LinkedHashMap<K, V> implements MutableMap<K, V> {
    public UnifiedMap() {}

    public UnifiedMap(int capacity) { super(capacity); }

    public UnifiedMap(Map<? extends K, ? extends V> m) { super(m); }

    @Override
    public UnifiedMap<K, V> select(BiPredicate<? super K, ? super V> p) {
        UnifiedMap<K, V> out = new UnifiedMap<>();
        forEach((k, v) -> {
            if (p.test(k, v)) out.put(k, v);
        });
        return out;
    }

    @Override
    public UnifiedMap<K, V> reject(BiPredicate<? super K, ? super V> p) { return select(p.negate()); }

    @Override
    public FastList<V> select(Predicate<? super V> p) { return new FastList<>(values()).select(p); }

    @Override
    public FastList<V> reject(Predicate<? super V> p) { return new FastList<>(values()).reject(p); }

    @Override
    public <R> FastList<R> collect(Function<? super V, ? extends R> f) { return new FastList<>(values()).collect(f); }

    @Override
    public <K2, V2> UnifiedMap<K2, V2> collect(BiFunction<? super K, ? super V, Pair<K2, V2>> f) {
        UnifiedMap<K2, V2> out = new UnifiedMap<>();
        forEach((k, v) -> {
            Pair<K2, V2> p = f.apply(k, v);
            out.put(p.getOne(), p.getTwo());
        });
        return out;
    }

    @Override
    public <R> UnifiedMap<K, R> collectValues(BiFunction<? super K, ? super V, ? extends R> f) {
        UnifiedMap<K, R> out = new UnifiedMap<>();
        forEach((k, v) -> out.put(k, f.apply(k, v)));
        return out;
    }

    @Override
    public Pair<K, V> detect(BiPredicate<? super K, ? super V> p) {
        for (Map.Entry<K, V> e : entrySet()) {
            if (p.test(e.getKey(), e.getValue())) return Tuples.pair(e.getKey(), e.getValue());
        }
        return null;
    }

    @Override
    public FastList<K> keysView() { return new FastList<>(keySet()); }

    @Override
    public FastList<V> valuesView() { return new FastList<>(values()); }

    @Override
    public RichIterable<Pair<K, V>> keyValuesView() {
        FastList<Pair<K, V>> out = new FastList<>();
        forEach((k, v) -> out.add(Tuples.pair(k, v)));
        return out;
    }

    @Override
    public UnifiedMap<K, V> withKeyValue(K key, V value) {
        put(key, value);
        return this;
    }

    @Override
    public Iterator<V> iterator() { return values().iterator(); }

    @Override
    public boolean isEmpty() { return super.isEmpty(); }

    @Override
    public boolean contains(Object o) { return containsValue(o); }
}
