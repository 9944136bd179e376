package org.eclipse.collections.impl.factory;

import org.eclipse.collections.api.map.MutableMap;
import org.eclipse.collections.impl.map.mutable.UnifiedMap;

/** Maps.mutable.empty(), Maps.mutable.of(k, v, ...). */
public final class Maps {
    private Maps() {}

    public static final Mutable mutable = new Mutable();

    public static final class Mutable {
        private Mutable() {}

        public <K, V> MutableMap<K, V> empty() { return new UnifiedMap<>(); }

        public <K, V> MutableMap<K, V> of() { return new UnifiedMap<>(); }

        public <K, V> MutableMap<K, V> of(K k1, V v1) { return new UnifiedMap<K, V>().withKeyValue(k1, v1); }

        public <K, V> MutableMap<K, V> of(K k1, V v1, K k2, V v2) { return of(k1, v1).withKeyValue(k2, v2); }

        public <K, V> MutableMap<K, V> of(K k1, V v1, K k2, V v2, K k3, V v3) {
            return of(k1, v1, k2, v2).withKeyValue(k3, v3);
        }
    }
}
