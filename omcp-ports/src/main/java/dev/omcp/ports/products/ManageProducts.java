package dev.omcp.ports.products;

import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Driving port: the management API's Products ({@code /api/products}). Implemented by the core. Permissions
 * ({@code products:read}, {@code products:write}, {@code products:delete}) are checked by the caller before these
 * methods run; {@code seesStaging} is the caller's answer to whether this principal is an administrator.
 *
 * <p>Tenant scoping, as for sources: a caller with a tenant sees the Products bound to no tenant and those bound to
 * its own, and may write and delete only the latter; a caller without a tenant sees and writes every Product. A
 * Product the caller may not see is, to it, one that does not exist.
 */
public interface ManageProducts {

    /** The Products {@code caller} may see, by id; {@code staging} ones only when {@code seesStaging}. */
    List<Product> list(Principal caller, boolean seesStaging);

    /** One Product {@code caller} may see. */
    Optional<Product> find(Principal caller, String id, boolean seesStaging);

    /**
     * Creates or replaces the Product of {@code product.id()}. Refused ({@link ProductOutcome.Invalid}) when it lists a
     * tool no registered tool has (a Product promising a tool it cannot serve is a broken contract), or when its tenant
     * is not one the caller may write.
     */
    ProductOutcome put(Principal caller, Product product, boolean seesStaging);

    /** Deletes the Product {@code id}. */
    ProductOutcome delete(Principal caller, String id, boolean seesStaging);

    /** Where the Products are kept, for operators and for the API's answers. */
    String storage();
}
