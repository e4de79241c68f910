package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Service names offered to a caller: for {@code completion/complete} ({@link #matching}) and for the
 * "did you mean" of a note about an unknown name ({@link #closest}). Both start from what
 * {@code list_services} would list for the same caller. Completion narrows it to the typed text. Names that start with it come first, then names that contain
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
        String needle = typed.strip().toLowerCase(Locale.ROOT);
        TreeSet<String> starting = new TreeSet<>();
        TreeSet<String> containing = new TreeSet<>();
        for (String known : known(principal)) {
            String name = known.toLowerCase(Locale.ROOT);
            if (name.startsWith(needle)) {
                starting.add(known);
            } else if (name.contains(needle)) {
                containing.add(known);
            }
        }
        containing.removeAll(starting);
        List<String> names = new ArrayList<>(starting);
        names.addAll(containing);
        return names;
    }

    /**
     * The one known name an unknown {@code asked} most likely meant, for a "did you mean" in a note:
     * the part after the last {@code /} when that is a known name ({@code shop/payments}, as a log
     * stream's {@code job} label spells it, for {@code payments}), else a name equal but for case,
     * else the only name within two edits (a typo such as {@code paymnets}). Empty when there is no
     * such name or several are equally close: a wrong guess would send an agent the wrong way.
     */
    public List<String> closest(String asked, Principal principal) {
        return closest(asked, known(principal));
    }

    private static List<String> closest(String asked, Set<String> names) {
        if (names.contains(asked)) {
            return List.of();
        }
        int slash = asked.lastIndexOf('/');
        if (slash >= 0 && names.contains(asked.substring(slash + 1))) {
            return List.of(asked.substring(slash + 1));
        }
        return NearestName.of(asked, names);
    }

    /**
     * {@code "No source lists a service named 'paymnets'. Did you mean 'payments'?"} for a tool that
     * answers for any name (a post-mortem, the anomaly history) and would otherwise report "nothing
     * found" for a typo as if the service were quiet. Empty when a source lists the name (or, for
     * {@code namespace/name}, the name), and when no source listed anything or one could not say (it
     * failed, its listing was cut or it warned that it left names out, see {@link ServiceListings#whole}): then
     * nobody can tell, and "no source lists it" would send the agent away from a real service.
     */
    public Optional<String> unknownName(String asked, Principal principal) {
        Gathered<ServiceListing> gathered = listings(principal);
        if (!ServiceListings.whole(gathered)) {
            return Optional.empty();
        }
        return unknownName(asked, names(gathered));
    }

    /**
     * As {@link #unknownName(String, Principal)}, among {@code names} the sources just listed, every one of them whole
     * (none failed or was cut: the caller checked).
     */
    static Optional<String> unknownName(String asked, Set<String> names) {
        if (names.isEmpty() || lists(names, asked)) {
            return Optional.empty();
        }
        return Optional.of("No source lists a service named '" + asked + "'; list_services shows the names."
                + NearestName.didYouMean(NearestName.of(asked, names)));
    }

    /**
     * Whether {@code names}, as sources list them, hold {@code asked}: the name itself or, for
     * {@code namespace/name}, the name, which the sources resolve within the namespace.
     */
    static boolean lists(Set<String> names, String asked) {
        int slash = asked.lastIndexOf('/');
        return names.contains(asked) || (slash >= 0 && names.contains(asked.substring(slash + 1)));
    }

    /** {@code " Did you mean 'payments'?"}, or nothing: appended to a note that says a name is unknown. */
    public String didYouMean(String asked, Principal principal) {
        return NearestName.didYouMean(closest(asked, principal));
    }

    /**
     * For a note that says the sources of one {@code signal} (a capability) do not know {@code asked}: when other sources
     * list exactly that name, a sentence saying which ({@code " 'kubelet' is listed by prometheus,
     * which holds other signals of it: ..."}), so "call list_services" does not send an agent in a
     * loop; otherwise the did-you-mean sentence.
     */
    public String elsewhereOrDidYouMean(String asked, Principal principal, Class<?> signal) {
        Gathered<ServiceListing> gathered = listings(principal);
        // the sources of the signal were just asked: one of them listing the name says nothing about other signals
        Set<String> asking = new TreeSet<>(toolkit.sources().with(signal, principal).stream().map(Bound::source).toList());
        List<String> listing = gathered.answers().stream().filter(a -> !asking.contains(a.source()))
                .filter(a -> a.value().services().stream().anyMatch(s -> s.name().equals(asked))).map(Gathered.Answer::source).sorted()
                .toList();
        if (!listing.isEmpty()) {
            List<String> tools = new ArrayList<>();
            if (serves(MetricsCapability.class, listing, principal)) {
                tools.add("query_metrics or get_service_health for its metrics");
            }
            if (serves(LogsCapability.class, listing, principal)) {
                tools.add("query_logs for its logs");
            }
            if (serves(TracesCapability.class, listing, principal)) {
                tools.add("query_traces for its traces");
            }
            return " '" + asked + "' is listed by " + String.join(", ", listing) + (tools.isEmpty() ? "."
                    : ", which " + (listing.size() == 1 ? "holds" : "hold") + " other signals of it: use " + String.join(", ", tools) + ".");
        }
        return NearestName.didYouMean(closest(asked, names(gathered)));
    }

    /** Whether any of {@code sources} can answer {@code capability}. */
    private boolean serves(Class<?> capability, List<String> sources, Principal principal) {
        return toolkit.sources().with(capability, principal).stream().map(Bound::source).anyMatch(sources::contains);
    }

    private Set<String> known(Principal principal) {
        return names(listings(principal));
    }

    private Gathered<ServiceListing> listings(Principal principal) {
        List<Bound<ServiceListingCapability>> bound = toolkit.sources().with(ServiceListingCapability.class, principal);
        Duration overall = toolkit.deadline().compareTo(DEADLINE) < 0 ? toolkit.deadline() : DEADLINE;
        return ServiceListings.of(toolkit, principal, bound, overall);
    }

    private static Set<String> names(Gathered<ServiceListing> gathered) {
        Set<String> names = new TreeSet<>();
        for (Gathered.Answer<ServiceListing> answer : gathered.answers()) {
            answer.value().services().forEach(service -> names.add(service.name()));
        }
        return names;
    }
}
