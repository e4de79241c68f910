package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.query.ServiceInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Service names for {@code completion/complete}: what {@code list_services} would list for the same
 * caller, narrowed to the typed text. Names that start with it come first, then names that contain
 * it elsewhere ({@code pay} finds {@code payments} before {@code shop/payments-db}), each group in
 * name order. Sources that fail or time out only leave their names out: a suggestion list is a
 * convenience, and the tool call that follows reports the failure properly. For the same reason
 * the sources get at most {@link #DEADLINE} (less when the tools' own deadline is shorter): a client
 * asks while someone types, and a hung backend must not hold the suggestion list for the tools'
 * whole deadline.
 */
public final class ServiceNameSuggestions {
    /** The longest a suggestion list waits for the sources. */
    static final Duration DEADLINE = Duration.ofSeconds(2);

    private final Toolkit toolkit;

    public ServiceNameSuggestions(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    /** The caller's service names matching {@code typed} (case-insensitive), best matches first. */
    public List<String> matching(String typed, Principal principal) {
        List<Bound<ServiceListingCapability>> bound = toolkit.sources().with(ServiceListingCapability.class, principal);
        Duration overall = toolkit.deadline().compareTo(DEADLINE) < 0 ? toolkit.deadline() : DEADLINE;
        Gathered<List<ServiceInfo>> gathered = Gathered.from(toolkit, bound, ServiceListingCapability::listServices, overall);
        String needle = typed.strip().toLowerCase(Locale.ROOT);
        TreeSet<String> starting = new TreeSet<>();
        TreeSet<String> containing = new TreeSet<>();
        for (Gathered.Answer<List<ServiceInfo>> answer : gathered.answers()) {
            for (ServiceInfo service : answer.value()) {
                String name = service.name().toLowerCase(Locale.ROOT);
                if (name.startsWith(needle)) {
                    starting.add(service.name());
                } else if (name.contains(needle)) {
                    containing.add(service.name());
                }
            }
        }
        containing.removeAll(starting);
        List<String> names = new ArrayList<>(starting);
        names.addAll(containing);
        return names;
    }
}
