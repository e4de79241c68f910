package dev.omcp.core.info;

import dev.omcp.core.mcp.handlers.LifecycleMethods;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.core.policy.RolePolicy;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.info.ConformancePosture;
import dev.omcp.ports.info.GatewayDescription;
import dev.omcp.ports.info.GatewayInfo;
import dev.omcp.ports.info.Governance;
import dev.omcp.ports.info.Identity;
import dev.omcp.ports.info.VerifiedSuite;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/** Answers the public discovery endpoints from what the gateway was really built with. */
public final class GatewayDescriptionService implements GatewayDescription {
    private final String name;
    private final String version;
    private final Supplier<Governance> governance;
    private final List<String> transports;
    private final Set<String> methods;
    private final AccessPolicy accessPolicy;
    private final List<VerifiedSuite> verifiedBy;

    public GatewayDescriptionService(
            String name, String version, Supplier<Governance> governance, List<String> transports, Set<String> methods) {
        this(name, version, governance, transports, methods, RolePolicy.builtin(), List.of());
    }

    /**
     * @param accessPolicy the policy whose permissions {@code /api/me} lists
     * @param verifiedBy the conformance suites the embedder states this build passed
     */
    public GatewayDescriptionService(String name, String version, Supplier<Governance> governance, List<String> transports,
            Set<String> methods, AccessPolicy accessPolicy, List<VerifiedSuite> verifiedBy) {
        this.accessPolicy = accessPolicy;
        this.verifiedBy = List.copyOf(verifiedBy);
        this.name = name;
        this.version = version;
        this.governance = governance;
        this.transports = List.copyOf(transports);
        this.methods = new TreeSet<>(methods);
    }

    @Override
    public GatewayInfo info() {
        return new GatewayInfo(name, version, ProtocolRevision.wireNames(), governance.get());
    }

    @Override
    public ConformancePosture conformance() {
        return new ConformancePosture(
                ProtocolRevision.wireNames(),
                ProtocolRevision.LATEST.wireName(),
                transports,
                List.copyOf(methods),
                List.copyOf(new TreeSet<>(LifecycleMethods.serverCapabilities().keySet())),
                verifiedBy);
    }

    @Override
    public Identity describe(Principal principal) {
        List<String> permissions = new ArrayList<>();
        for (Permission permission : accessPolicy.permissionsOf(principal)) {
            permissions.add(permission.toString());
        }
        return new Identity(
                principal.id(),
                principal.name(),
                principal.sessionId().orElse(null),
                principal.authKind().name().toLowerCase(Locale.ROOT),
                principal.tenant(),
                List.copyOf(new TreeSet<>(principal.roles())),
                permissions);
    }
}
