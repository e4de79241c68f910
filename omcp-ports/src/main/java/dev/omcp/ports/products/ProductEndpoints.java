package dev.omcp.ports.products;

import dev.omcp.ports.identity.Principal;
import java.util.Optional;

/**
 * Driving port: the agent endpoint of a Product, {@code /mcp/v/<id>} (spec 4.1). Implemented by the core; the
 * transport asks it once per request, after authentication and the rate limit, and hands the endpoint the principal it
 * answers.
 */
public interface ProductEndpoints {

    /**
     * {@code caller} as the endpoint of Product {@code id} serves it: limited to that Product
     * ({@link dev.omcp.ports.identity.AllowLists#products()}), so it sees and may call only that Product's tools (and,
     * still, only those its own lists allow). Empty, alike for each, when there is no such Product, when it is
     * {@code staging}, when it is bound to another tenant than the caller's, or when the caller's own Product list
     * ({@code OMCP_KEY_PRODUCTS}) leaves it out: the endpoint then answers 404 and says nothing of which.
     */
    Optional<Principal> serve(Principal caller, String id);
}
