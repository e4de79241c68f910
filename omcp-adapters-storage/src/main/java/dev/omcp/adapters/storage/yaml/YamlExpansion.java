package dev.omcp.adapters.storage.yaml;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;

/**
 * How large a loaded YAML document is once every alias is expanded, as the code that walks it sees
 * it.
 *
 * <p>SnakeYAML bounds aliases of mappings and sequences ({@code maxAliasesForCollections}), not
 * aliases of scalars: {@code [&a "<400 KB>", *a, *a, ...]} is a 1 MB file whose 150,000 aliases
 * all name one string, and whatever copies each value it reads (the {@code ${VAR}} substitution of
 * the sources file does) needs 60 GB, ending the gateway with an {@code OutOfMemoryError} at start.
 * Reading files with anchors stays possible; only what they expand to is bounded. Self-referencing
 * collections (which SnakeYAML builds for {@code &a [*a]}) end the walk at the bound too.
 */
public final class YamlExpansion {
    private YamlExpansion() {}

    /**
     * Whether {@code loaded} (what SnakeYAML's safe constructor returned: maps, lists, strings,
     * numbers, booleans, dates, byte arrays, null), with every alias expanded, holds at most
     * {@code maxUnits} units: one per value, key and list item, plus one per character of every
     * string and per byte of every binary value. The walk stops as soon as the bound is passed.
     */
    public static boolean within(Object loaded, long maxUnits) {
        // a value is counted when it is pushed, so what waits on the stack never exceeds the bound either
        long units = 1;
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(loaded == null ? "" : loaded);
        while (!pending.isEmpty() && units <= maxUnits) {
            Object value = pending.pop();
            if (value instanceof CharSequence text) {
                units += text.length();
            } else if (value instanceof byte[] bytes) {
                units += bytes.length;
            } else if (value instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    units += 2;
                    if (units > maxUnits) {
                        return false;
                    }
                    pending.push(e.getKey() == null ? "" : e.getKey());
                    pending.push(e.getValue() == null ? "" : e.getValue());
                }
            } else if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    if (++units > maxUnits) {
                        return false;
                    }
                    pending.push(item == null ? "" : item);
                }
            }
        }
        return units <= maxUnits;
    }
}
