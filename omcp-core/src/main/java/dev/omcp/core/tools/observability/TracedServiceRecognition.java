package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Whether the traces sources know a service none of them returned a trace of: a name no traces
 * source knows (a typo, a namespace the topology does not resolve, a name only other backends use)
 * is a different answer from a service that was quiet in the window. Judged from the service lists
 * of the traces sources that answered; when one of them cannot list services, or its list failed
 * or is incomplete, nothing is claimed (the caller may still say what the topology said of a namespaced name).
 */
final class TracedServiceRecognition {
    /** At most this many listed names go into a note; list_services has them all. */
    static final int NAMES_IN_NOTE = 20;

    /** What the service lists say. */
    sealed interface Verdict {
        /** {@code sources} list the service. */
        record Known(List<String> sources) implements Verdict {}

        /** No source that answered lists it; {@code listed} is what they do list. */
        record Unknown(List<String> sources, SortedSet<String> listed) implements Verdict {}

        /** Some source that answered cannot say. */
        record Unchecked() implements Verdict {}
    }

    private TracedServiceRecognition() {}

    /**
     * Asks the service lists of the traces sources in {@code answered} about {@code name}.
     *
     * @param answered the traces sources that answered the search, in order
     */
    static Verdict check(Toolkit toolkit, Principal principal, List<String> answered, TracedServiceName name) {
        List<Bound<ServiceListingCapability>> listing = toolkit.sources().with(ServiceListingCapability.class, principal,
                Optional.of(Set.copyOf(answered)));
        Gathered<ServiceListing> lists = ServiceListings.of(toolkit, principal, listing);
        // a failure alongside an answer, or a warning: names were left out of that list, so its silence says nothing
        if (lists.answers().size() < answered.size() || !ServiceListings.whole(lists)) {
            return new Verdict.Unchecked();
        }
        List<String> knowing = new ArrayList<>();
        SortedSet<String> listed = new TreeSet<>();
        for (Gathered.Answer<ServiceListing> answer : lists.answers()) {
            List<ServiceInfo> services = answer.value().services();
            services.forEach(s -> listed.add(s.name()));
            if (services.stream().anyMatch(s -> s.name().equals(name.traced()) || s.name().equals(name.asked()))) {
                knowing.add(answer.source());
            }
        }
        return knowing.isEmpty() ? new Verdict.Unknown(List.copyOf(answered), listed) : new Verdict.Known(knowing);
    }

    /**
     * The note for an empty answer, or empty when the verdict says nothing new.
     *
     * @param window the window as the caller wrote it
     * @param filter the caller's backend filter: with one, the service is known but no trace matched it
     */
    static Optional<String> note(Verdict verdict, TracedServiceName name, String window, boolean errorsOnly, Optional<String> filter) {
        return switch (verdict) {
            case Verdict.Known k -> Optional.of(String.join(", ", k.sources()) + (k.sources().size() == 1 ? " knows " : " know ")
                    + name.traced() + name.resolvedFrom().map(id -> " (" + id + " in the topology)").orElse("") + ", but "
                    + (k.sources().size() == 1 ? "has" : "have") + " no " + (errorsOnly ? "error " : "") + "traces of it in the last "
                    + window + filter.map(f -> " that match the filter '" + f + "'; try the call without it to see whether the "
                            + "filter or the window is too narrow").orElse("") + ".");
            case Verdict.Unknown u -> Optional.of("None of the traces sources that answered (" + String.join(", ", u.sources())
                    + ") knows a service named " + name.asked() + name.resolvedFrom().map(id -> " (asked as " + name.traced()
                            + ", the name of " + id + " in the topology)").orElse("")
                    + "; they list " + listed(u.listed()) + "."
                    + name.whyAsGiven().map(why -> " " + why).orElse("")
                    + " list_services shows the names every source knows."
                    // a namespace/name the topology lacks: its namespace/name spelled alike is what resolves here
                    + NearestName.didYouMean(name.suggested().isEmpty() ? NearestName.of(name.asked(), u.listed()) : name.suggested()));
            case Verdict.Unchecked x -> Optional.empty();
        };
    }

    private static String listed(SortedSet<String> names) {
        if (names.isEmpty()) {
            return "no services";
        }
        List<String> shown = names.stream().limit(NAMES_IN_NOTE).toList();
        return String.join(", ", shown) + (names.size() > shown.size() ? " and " + (names.size() - shown.size()) + " more" : "");
    }
}
