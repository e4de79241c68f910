package dev.omcp.ports.products;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where a Product stands (spec 3.6): served to agents, or still being prepared. */
public enum ProductStatus {
    /** Served at {@code /mcp/v/<id>} and listed to every reader of Products. */
    PUBLISHED,
    /** Not served: {@code /mcp/v/<id>} answers 404, and only administrators see it in the management API. */
    STAGING;

    /** The name as files and the API write it: {@code published} or {@code staging}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status named {@code text} exactly ({@link #wireName()}); empty for anything else. */
    public static Optional<ProductStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(status -> status.wireName().equals(text)).findFirst();
    }
}
