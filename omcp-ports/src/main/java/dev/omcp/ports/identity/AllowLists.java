package dev.omcp.ports.identity;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a caller is limited to besides its tenant: the tools it may see and call, and the sources its tool calls may
 * use ({@code OMCP_KEY_TOOLS}, {@code OMCP_KEY_SOURCES} for an API key). An empty list means no limit; a present one
 * names everything allowed (an empty set allows nothing). A list only narrows: a tool outside it is absent from
 * {@code tools/list} and unknown to {@code tools/call}, and a source outside it is, to the caller, a source that does
 * not exist, on top of what the caller's tenant sees.
 *
 * @param tools the tool names the caller may see and call; empty when every tool
 * @param sources the source names the caller's tool calls may use; empty when every source its tenant sees
 */
public record AllowLists(Optional<Set<String>> tools, Optional<Set<String>> sources) {
    private static final AllowLists NONE = new AllowLists(Optional.empty(), Optional.empty());

    /**
     * @throws IllegalArgumentException when a name is blank: it could never match, and a list that quietly allows
     *     less than was written is a mistake to catch where it is made
     */
    public AllowLists {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(sources, "sources");
        tools = tools.map(names -> copy(names, "tool"));
        sources = sources.map(names -> copy(names, "source"));
    }

    /** No limit: every tool, and every source the caller's tenant sees. */
    public static AllowLists none() {
        return NONE;
    }

    /** These lists with the tools limited to {@code names}. */
    public AllowLists withTools(Collection<String> names) {
        return new AllowLists(Optional.of(Set.copyOf(Objects.requireNonNull(names, "names"))), sources);
    }

    /** These lists with the sources limited to {@code names}. */
    public AllowLists withSources(Collection<String> names) {
        return new AllowLists(tools, Optional.of(Set.copyOf(Objects.requireNonNull(names, "names"))));
    }

    /** Whether the tool named {@code name} is allowed. */
    public boolean permitsTool(String name) {
        return tools.isEmpty() || tools.get().contains(name);
    }

    /** Whether the source named {@code name} is allowed. */
    public boolean permitsSource(String name) {
        return sources.isEmpty() || sources.get().contains(name);
    }

    /** Whether there is no limit at all. */
    public boolean isNone() {
        return tools.isEmpty() && sources.isEmpty();
    }

    /** Sorted, so a principal prints the same way each time. */
    private static Set<String> copy(Set<String> names, String kind) {
        Set<String> sorted = new TreeSet<>();
        for (String name : names) {
            Objects.requireNonNull(name, () -> "a " + kind + " name of an allow-list is null");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a " + kind + " name of an allow-list is blank; name each " + kind + " allowed");
            }
            sorted.add(name);
        }
        return Collections.unmodifiableSet(sorted);
    }
}
