package dev.omcp.core.products;

import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.identity.Principal;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A caller limited to Products ({@code OMCP_KEY_PRODUCTS}, or a request at {@code /mcp/v/<id>}) sees and may call
 * only the tools of those Products: absent from {@code tools/list}, unknown to {@code tools/call}, the same path a
 * key's own tool list takes. Resolved at each call, so a Product edited or deleted through the API changes what its
 * callers see at once.
 */
public final class ProductToolVisibility implements ToolVisibility {
    private final ProductCatalog catalog;

    public ProductToolVisibility(ProductCatalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    @Override
    public boolean isVisible(Principal principal, String toolName) {
        Optional<Set<String>> tools = catalog.toolsOfProducts(principal);
        return tools.isEmpty() || tools.get().contains(toolName);
    }

    @Override
    public boolean seesEverything(Principal principal) {
        return principal.allowLists().products().isEmpty();
    }
}
