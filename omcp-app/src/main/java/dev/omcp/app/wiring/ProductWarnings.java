package dev.omcp.app.wiring;

import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.Variables;
import dev.omcp.ports.products.Product;
import dev.omcp.sdk.text.LogField;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the start says about the Products: a key's Product ({@code OMCP_KEY_PRODUCTS}) that does not exist yet, and a
 * Product's tool that no registered tool has. Warnings, not a refused start: Products are created through the API
 * while the gateway runs, and a plugin that registers a tool may be missing for a while. Neither is a hole: a key's
 * missing Product gives it no tools, and a Product's missing tool is one it cannot serve.
 */
final class ProductWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(ProductWarnings.class);
    /** As {@code OMCP_API_KEYS} refuses shorter tokens, a shorter key name cannot be one written in the name's place. */
    private static final int MIN_TOKEN_LENGTH = 16;

    private ProductWarnings() {}

    static void warn(Settings.Agent agent, List<Product> products, Set<String> tools) {
        lines(agent, products, tools).forEach(LOG::warn);
    }

    /** One event per line: per key each listed Product that does not exist, then per Product each unregistered tool. */
    static List<String> lines(Settings.Agent agent, List<Product> products, Set<String> tools) {
        Set<String> ids = products.stream().map(Product::id).collect(Collectors.toSet());
        List<String> tokens = agent.apiKeys().stream().map(Settings.ApiKeyEntry::token).toList();
        List<String> lines = new ArrayList<>();
        for (Settings.ApiKeyEntry key : agent.apiKeys()) {
            String name = key.name().length() < MIN_TOKEN_LENGTH ? "\"" + LogField.of(key.name()) + "\""
                    : "\"(not shown: it may be a token)\"";
            for (String id : key.allowLists().products().orElse(Set.of())) {
                if (ids.contains(id)) {
                    continue;
                }
                // an id is shown unless a key's token was pasted into the list by mistake
                String shown = tokens.stream().anyMatch(id::contains) ? "(not shown: it holds a key's token)" : id;
                lines.add("event=key-product-unknown variable=" + Variables.KEY_PRODUCTS.name() + " key=" + name + " product=\""
                        + shown + "\" effect=\"no Product of that id exists now, so the key has no tools by it; it gets them once"
                        + " the Product is created (PUT /api/products/<id>)\" fix=\"check the id against GET /api/products, or"
                        + " remove it from the key's list\"");
            }
        }
        for (Product product : products) {
            product.tools().stream().filter(tool -> !tools.contains(tool)).forEach(tool -> lines.add(
                    "event=product-tool-unknown product=" + product.id() + " tool=\"" + LogField.of(tool) + "\" effect=\"no tool of"
                            + " that name is registered now, so the Product's endpoint does not serve it\" fix=\"install the"
                            + " plugin that registers it, or remove it from the Product\""));
        }
        return List.copyOf(lines);
    }
}
