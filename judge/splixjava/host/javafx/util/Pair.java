package javafx.util;

import java.io.Serializable;
import java.util.Objects;

/**
 * JavaFX's Pair, which contest players used and today's JDKs no longer
 * ship: a key and a value, equal when both are.
 */
public class Pair<K, V> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final K key;
    private final V value;

    public Pair(K key, V value) {
        this.key = key;
        this.value = value;
    }

    public K getKey() { return key; }

    public V getValue() { return value; }

    @Override
    public String toString() { return key + "=" + value; }

    @Override
    public int hashCode() { return Objects.hashCode(key) * 13 + Objects.hashCode(value); }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Pair)) return false;
        Pair<?, ?> p = (Pair<?, ?>) o;
        return Objects.equals(key, p.key) && Objects.equals(value, p.value);
    }
}
