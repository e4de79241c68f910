package dev.omcp.ports.identity;

import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a caller is limited to besides its tenant: the tools it may see and call, the sources its tool calls may
 * use, and the Products whose tools it may use ({@code OMCP_KEY_TOOLS}, {@code OMCP_KEY_SOURCES},
 * {@code OMCP_KEY_PRODUCTS} for an API key; a request at {@code /mcp/v/<product>} is limited to that one Product). An
 * empty list means no limit; a present one names everything allowed (an empty set allows nothing). A list only
 * narrows: a tool outside it is absent from {@code tools/list} and unknown to {@code tools/call}, and a source outside
 * it is, to the caller, a source that does not exist, on top of what the caller's tenant sees. A present Product list
 * limits the tools to those of the listed Products the caller may be served (the gateway resolves it at each call, so
 * an edited Product takes effect at once).
 *
 * @param tools the tool names the caller may see and call; empty when every tool
 * @param sources the source names the caller's tool calls may use; empty when every source its tenant sees
 * @param products the Product ids whose tools the caller may use; empty when no Product limits it
 */
public record AllowLists(Optional<Set<String>> tools, Optional<Set<String>> sources, Optional<Set<String>> products) {
    private static final AllowLists NONE = new AllowLists(Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * @throws IllegalArgumentException when a name is blank: it could never match, and a list that quietly allows
     *     less than was written is a mistake to catch where it is made
     */
    public AllowLists {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(products, "products");
        tools = tools.map(names -> copy(names, "tool"));
        sources = sources.map(names -> copy(names, "source"));
        products = products.map(names -> copy(names, "product"));
    }

    /** Lists of tools and sources, limited by no Product. */
    public AllowLists(Optional<Set<String>> tools, Optional<Set<String>> sources) {
        this(tools, sources, Optional.empty());
    }

    /** No limit: every tool, and every source the caller's tenant sees. */
    public static AllowLists none() {
        return NONE;
    }

    /** These lists with the tools limited to {@code names}. */
    public AllowLists withTools(Collection<String> names) {
        return new AllowLists(Optional.of(Set.copyOf(Objects.requireNonNull(names, "names"))), sources, products);
    }

    /** These lists with the sources limited to {@code names}. */
    public AllowLists withSources(Collection<String> names) {
        return new AllowLists(tools, Optional.of(Set.copyOf(Objects.requireNonNull(names, "names"))), products);
    }

    /** These lists with the Products limited to {@code ids}. */
    public AllowLists withProducts(Collection<String> ids) {
        return new AllowLists(tools, sources, Optional.of(Set.copyOf(Objects.requireNonNull(ids, "ids"))));
    }

    /** Whether the tool named {@code name} is allowed. */
    public boolean permitsTool(String name) {
        return tools.isEmpty() || tools.get().contains(name);
    }

    /** Whether the source named {@code name} is allowed. */
    public boolean permitsSource(String name) {
        return sources.isEmpty() || sources.get().contains(name);
    }

    /** Whether the Product {@code id} is allowed. */
    public boolean permitsProduct(String id) {
        return products.isEmpty() || products.get().contains(id);
    }

    /** Whether there is no limit at all. */
    public boolean isNone() {
        return tools.isEmpty() && sources.isEmpty() && products.isEmpty();
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
