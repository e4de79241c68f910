package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What the sources that list services answer, every tool's way to them ({@code list_services}, the services
 * {@code detect_anomalies} and a post-mortem judge, name suggestions, traced-service recognition), without the names a
 * plugin reports only because the gateway's own anomaly series ({@link AnomalySeries}) carry them.
 *
 * <p>On the gateway's remote-write receiver those series name every service any tenant's calls judged, in the
 * {@code service} label a Prometheus reader lists services from. The builtin Prometheus connector leaves such names out
 * itself; a plugin need not know about them. So for a plugin source that also discovers metrics, a listed name whose only
 * metrics there are the gateway's series is left out: it names a judgement, not a service of the backend, and a name the
 * gateway judged came from a source the judging caller reaches, which lists it. A plugin that cannot discover metrics
 * gives the core nothing to tell them apart by; writing-a-connector.md asks it to leave them out itself.
 *
 * <p>Each listed name is checked with a discovery of its own: a discovery of every metric cannot tell that the gateway's
 * series are absent, since the SDK does not say whether a plugin cut its answer below the limit asked. What it costs: a
 * discovery per listed name, a few at once, within the source's time; the verdicts are kept a few minutes per connector
 * instance ({@link ListedNameVerdicts}), listings at once share the checks running ({@link ListedNameChecks}), and at most
 * {@link #CHECKS_PER_LISTING} names are checked anew in one listing. A caller that shows only some names (a filter) has
 * only those checked, so its names are reached first. Names beyond the checks are left out, and the source is reported
 * alongside its answer with the kind {@code unchecked} (nothing failed or ran late), saying how many and that calling
 * again checks the next ones. A discovery that fails fails the source's listing: a name that may be another tenant's
 * judgement is never shown unchecked.
 *
 * <p>A listing's warnings ({@link ServiceListing#warnings()}: what the source left out of its answer) come with it, and a
 * tool that shows them writes them as {@code backendWarnings} ({@link #warned}).
 */
final class ServiceListings {
    /**
     * The most names of one source checked in one listing: a thousand light discoveries, eight at once, fit in the default
     * ten seconds a source has unless its backend takes over 80 ms each; the names a call does not reach wait for the next.
     */
    static final int CHECKS_PER_LISTING = 1000;

    private ServiceListings() {}

    /**
     * The listings of {@code listing} within {@code overall}, as the sources answered them but for such names. Only the
     * names {@code asked} takes are checked, and only they are answered from a checked listing; other listings come whole.
     */
    static Gathered<ServiceListing> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing,
            Duration overall, Predicate<String> asked) {
        if (listing.stream().allMatch(Bound::builtin)) {
            // the usual case, on list_services' hot path: builtin connectors keep their own rule, nothing to look up
            return Gathered.from(toolkit, listing, ServiceListingCapability::serviceListing, overall);
        }
        List<Bound<MetricDiscoveryCapability>> discovering = toolkit.sources().with(MetricDiscoveryCapability.class, principal);
        List<Bound<Checked>> checked = new ArrayList<>();
        for (Bound<ServiceListingCapability> b : listing) {
            // the same connector instance: a source replaced meanwhile is not checked by its successor
            Optional<MetricDiscoveryCapability> discovery = b.builtin() ? Optional.empty() : discovering.stream()
                    .filter(d -> d.connector() == b.connector()).map(Bound::capability).findFirst();
            checked.add(b.carrying(new Checked(b.capability(), b.connector(), discovery, toolkit.listedNameVerdicts(), asked)));
        }
        Gathered<Listed> gathered = Gathered.from(toolkit, checked, Checked::services, overall);
        List<Gathered.Answer<ServiceListing>> answers = new ArrayList<>();
        List<Gathered.Failure> failures = new ArrayList<>(gathered.failures());
        for (Gathered.Answer<Listed> a : gathered.answers()) {
            answers.add(new Gathered.Answer<>(a.source(), a.type(), new ServiceListing(a.value().shown(), a.value().warnings())));
            if (a.value().leftOut() > 0) {
                failures.add(new Gathered.Failure(a.source(), FailureKind.UNCHECKED, a.value().leftOutMessage(), Optional.empty()));
            }
        }
        return Gathered.assembled(answers, failures);
    }

    /** As {@link #of(Toolkit, Principal, List, Duration, Predicate)} for every name. */
    static Gathered<ServiceListing> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing,
            Duration overall) {
        return of(toolkit, principal, listing, overall, name -> true);
    }

    /** As {@link #of(Toolkit, Principal, List, Duration, Predicate)} for every name, within the tools' whole deadline. */
    static Gathered<ServiceListing> of(Toolkit toolkit, Principal principal, List<Bound<ServiceListingCapability>> listing) {
        return of(toolkit, principal, listing, toolkit.deadline());
    }

    /**
     * What the sources that answered said their listings left out, per source, for a tool's {@code backendWarnings}: a
     * listing that looks complete may lack services, and the agent must be able to tell. Cleaned and bounded there
     * ({@link WarnedSources#add}), as a plugin's listing is backend text it did not vouch for.
     */
    static WarnedSources warned(Toolkit toolkit, Gathered<ServiceListing> gathered) {
        WarnedSources warned = WarnedSources.of(toolkit);
        gathered.answers().forEach(a -> warned.add(a.source(), a.value().warnings()));
        return warned;
    }

    /** The sources whose listings warned ({@link #warned}), once each, in the order they answered. */
    static List<String> warnedSources(Gathered<ServiceListing> gathered) {
        return gathered.answers().stream().filter(a -> !a.value().warnings().isEmpty()).map(a -> a.source()).distinct().toList();
    }

    /**
     * Whether every source answered its whole listing: none failed, none had names left out unchecked, and none warned
     * that it left something out. Only then does a name no listing holds say that no source knows it.
     */
    static boolean whole(Gathered<ServiceListing> gathered) {
        return !gathered.partial() && gathered.answers().stream().allMatch(a -> a.value().warnings().isEmpty());
    }

    /**
     * What a source listed that may be shown, and how many of its names were left out because no check reached them.
     *
     * @param askedNames how many distinct names the source listed that the caller asked about
     * @param narrowed whether the caller asked about only some of the names listed
     * @param warnings what the source said its listing left out
     */
    private record Listed(List<ServiceInfo> shown, int leftOut, int askedNames, boolean narrowed, List<String> warnings) {
        String leftOutMessage() {
            String why = leftOut + " of the " + askedNames + " names it listed" + (narrowed ? " that this call asked about" : "")
                    + " were left out unchecked: the gateway checks each name a plugin lists against its own anomaly series, which"
                    + " name the services every tenant's calls judged, and checks at most " + CHECKS_PER_LISTING + " new names"
                    + " per call.";
            if (askedNames > ListedNameVerdicts.NAMES_PER_CONNECTOR) {
                // each call's checks push the oldest verdicts out: calling again never shows every name
                return why + " The source lists more names than the gateway keeps verdicts for ("
                        + ListedNameVerdicts.NAMES_PER_CONNECTOR + "), so calling again checks other names but no call shows"
                        + " them all: name a service you know directly (query_metrics, detect_anomalies with service), which asks"
                        + " the source without this check.";
            }
            return why + " Checked names are remembered for " + ListedNameVerdicts.KEPT.toMinutes() + " minutes, so call again"
                    + " within " + ListedNameVerdicts.KEPT.toMinutes() + " minutes to check the next ones.";
        }
    }

    /** A source's listing, checked against its metric discovery when it has one the core checks. */
    private record Checked(ServiceListingCapability listing, Connector connector, Optional<MetricDiscoveryCapability> discovery,
            ListedNameVerdicts verdicts, Predicate<String> asked) {
        Listed services() throws ConnectorException {
            ServiceListing answered = listing.serviceListing();
            List<ServiceInfo> listed = answered.services();
            if (discovery.isEmpty() || listed.isEmpty()) {
                return new Listed(listed, 0, 0, false, answered.warnings());
            }
            List<ServiceInfo> askedAbout = listed.stream().filter(s -> asked.test(s.name())).toList();
            // in the listing's order (by name, as sources sort them), so successive calls reach the same next names
            List<String> names = askedAbout.stream().map(ServiceInfo::name).distinct().toList();
            ListedNameChecks.Found found = ListedNameChecks.of(verdicts, connector, discovery.get(), names, CHECKS_PER_LISTING);
            List<ServiceInfo> shown = askedAbout.stream().filter(s -> Boolean.FALSE.equals(found.verdicts().get(s.name()))).toList();
            // what the listing said it lacks, then how many names the checks hid on a discovery that said the same
            List<String> warnings = new ArrayList<>(answered.warnings());
            warnings.addAll(found.warnings());
            return new Listed(shown, found.leftOut(), names.size(), askedAbout.size() < listed.size(), warnings);
        }
    }
}
