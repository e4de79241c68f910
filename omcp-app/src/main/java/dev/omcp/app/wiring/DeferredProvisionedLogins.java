package dev.omcp.app.wiring;

import dev.omcp.ports.auth.ProvisionedLogins;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The login services are built before the SCIM directory (which writes to their session blocklist),
 * so they consult this, and the directory is put behind it once built. Until then, and for good
 * when SCIM is not mounted, it is {@link ProvisionedLogins#none()}; the gateway serves no request
 * before the assembly ends.
 */
final class DeferredProvisionedLogins implements ProvisionedLogins {
    private volatile ProvisionedLogins target = ProvisionedLogins.none();

    void set(ProvisionedLogins provisioned) {
        this.target = Objects.requireNonNull(provisioned, "provisioned");
    }

    @Override
    public Optional<String> refusal(Collection<String> names) {
        return target.refusal(names);
    }

    @Override
    public List<String> groupRoles(Collection<String> names) {
        return target.groupRoles(names);
    }
}
