package dev.omcp.core.ipenrich;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.embeddedipv4.Nat64Prefix;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.core.redaction.RedactionCategory;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Answers {@code enrich_ips}: each address is validated, classified ({@link IpScope}), looked up
 * by longest-prefix match in the offline dataset, and, when the dataset does not cover a public
 * address and the RDAP fallback is configured, asked of the registries. Thread-safe.
 */
public final class IpEnricher {
    /** The most addresses one call may ask about (issue 4). */
    public static final int MAX_ADDRESSES = 1000;

    /**
     * Why a placeholder of redaction is no address. An agent copies it from query_logs, where addresses are
     * hidden by default; parsed, its colon made it a broken IPv6 address, a reason that explains nothing.
     */
    static final String REDACTED_INPUT = "not an IP address: the placeholder redaction leaves where it hid an address, which is not "
            + "in the answer; ask for an address from an alert, a ticket, or log lines an operator reads with redaction off";

    private final IpDataset dataset;
    private final boolean datasetConfigured;
    private final Optional<RdapFallback> rdap;
    private final Nat64Prefixes nat64Prefixes;

    /**
     * @param dataset the offline dataset; empty when {@code OMCP_IP_ENRICH_FILE} is unset or unreadable
     * @param rdap the registry fallback when {@code OMCP_IP_ENRICH_RDAP} names an RDAP service
     */
    public IpEnricher(Optional<IpDataset> dataset, Optional<RdapFallback> rdap) {
        this(dataset, rdap, Nat64Prefixes.none());
    }

    /**
     * @param dataset the offline dataset; empty when {@code OMCP_IP_ENRICH_FILE} is unset or unreadable
     * @param rdap the registry fallback when {@code OMCP_IP_ENRICH_RDAP} names an RDAP service
     * @param nat64Prefixes {@code OMCP_NAT64_PREFIXES}: an address under one is answered for the IPv4 address it carries,
     *     as the egress rules judge it
     */
    public IpEnricher(Optional<IpDataset> dataset, Optional<RdapFallback> rdap, Nat64Prefixes nat64Prefixes) {
        this.dataset = dataset.orElse(IpDataset.empty());
        this.datasetConfigured = dataset.isPresent();
        this.rdap = Objects.requireNonNull(rdap, "rdap");
        this.nat64Prefixes = Objects.requireNonNull(nat64Prefixes, "nat64Prefixes");
    }

    /** The answer of one call. */
    public record Result(List<IpEnrichment> results, Optional<String> note) {
        public Result {
            results = List.copyOf(results);
            Objects.requireNonNull(note, "note");
        }

        /**
         * JSON for {@code enrich_ips}: {@code results[]} in input order, {@code summary}
         * {@code {found, notFound, invalid, unavailable}}, {@code partial} (some registry lookup
         * failed, as in the other tools that ask remote services), and {@code note} when there is one.
         */
        public JsonObject toJson() {
            JsonArrayBuilder a = Jsonp.provider().createArrayBuilder();
            int found = 0;
            int notFound = 0;
            int invalid = 0;
            int unavailable = 0;
            for (IpEnrichment e : results) {
                a.add(e.toJson());
                switch (e) {
                    case IpEnrichment.Found f -> found++;
                    case IpEnrichment.NotFound n -> notFound++;
                    case IpEnrichment.Invalid i -> invalid++;
                    case IpEnrichment.Unavailable u -> unavailable++;
                }
            }
            JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("results", a).add("summary", Jsonp.provider().createObjectBuilder()
                    .add("found", found).add("notFound", notFound).add("invalid", invalid).add("unavailable", unavailable))
                    .add("partial", unavailable > 0);
            note.ifPresent(n -> b.add("note", n));
            return b.build();
        }
    }

    /**
     * Enriches up to {@value #MAX_ADDRESSES} addresses, answering each in input order; registry
     * lookups wait at most the RDAP fallback's own deadline.
     *
     * @throws IllegalArgumentException when more addresses are given, saying to split the list
     */
    public Result enrich(List<String> inputs) {
        return enrich(inputs, Optional.empty());
    }

    /**
     * Like {@link #enrich(List)}, with registry lookups waiting at most {@code callDeadline} (the tool
     * call's deadline) when that is shorter than the fallback's own.
     */
    public Result enrich(List<String> inputs, Duration callDeadline) {
        return enrich(inputs, Optional.of(callDeadline));
    }

    private Result enrich(List<String> inputs, Optional<Duration> callDeadline) {
        if (inputs.size() > MAX_ADDRESSES) {
            throw new IllegalArgumentException("enrich_ips takes at most " + MAX_ADDRESSES + " addresses per call, got " + inputs.size()
                    + "; split the list into several calls");
        }
        IpEnrichment[] out = new IpEnrichment[inputs.size()];
        List<Integer> askRegistry = new ArrayList<>();
        List<IpAddress> registryAddresses = new ArrayList<>();
        List<Optional<Ipv4Embedding>> registryEmbeddings = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            String input = inputs.get(i) == null ? "" : inputs.get(i);
            IpAddress address;
            if (redactionPlaceholder(input)) {
                out[i] = new IpEnrichment.Invalid(input, REDACTED_INPUT);
                continue;
            }
            int slash = input.indexOf('/');
            try {
                if (slash >= 0) {
                    // only what starts with an address is a network; "example.com/24" is told what is wrong with its start
                    IpAddress start = IpAddress.parseOrError(input.substring(0, slash));
                    out[i] = new IpEnrichment.Invalid(input, "a network (CIDR) is not an address: ask for one address in it, for example "
                            + start);
                    continue;
                }
                address = IpAddress.parseOrError(input);
            } catch (IllegalArgumentException e) {
                out[i] = new IpEnrichment.Invalid(input, e.getMessage());
                continue;
            }
            Optional<Ipv4Embedding> embedding = Ipv4Embedding.of(input, address, nat64Prefixes);
            // an IPv6 address that stands for an IPv4 one (NAT64, IPv4-mapped or -translated, 6to4, Teredo) is answered for
            // that IPv4 address
            address = embedding.isPresent() ? embedding.get().lookedUp(address) : address;
            IpScope scope = IpScope.of(address);
            Optional<IpDataset.Match> match = dataset.lookup(address);
            if (match.isPresent()) {
                IpDataset.Match m = match.get();
                out[i] = new IpEnrichment.Found(input, address, scope, m.network().toString(), m.attributes(), "dataset", embedding);
            } else if (scope != IpScope.PUBLIC) {
                out[i] = new IpEnrichment.NotFound(input, address, scope, notPublic(scope, address, embedding), embedding);
            } else if (rdap.isPresent()) {
                askRegistry.add(i);
                registryAddresses.add(address);
                registryEmbeddings.add(embedding);
            } else {
                out[i] = new IpEnrichment.NotFound(input, address, scope,
                        datasetConfigured ? "not in the offline dataset" : "no offline dataset configured", embedding);
            }
        }
        if (!askRegistry.isEmpty()) {
            RdapFallback registries = rdap.orElseThrow();
            Map<IpAddress, RegistrationAnswer> answers = callDeadline.isPresent()
                    ? registries.lookupAll(registryAddresses, callDeadline.get())
                    : registries.lookupAll(registryAddresses);
            for (int k = 0; k < askRegistry.size(); k++) {
                int i = askRegistry.get(k);
                IpAddress address = registryAddresses.get(k);
                String input = inputs.get(i);
                Optional<Ipv4Embedding> embedding = registryEmbeddings.get(k);
                out[i] = switch (answers.get(address)) {
                    case RegistrationAnswer.Found f ->
                            new IpEnrichment.Found(input, address, IpScope.PUBLIC, f.network(), f.attributes(), "rdap", embedding);
                    case RegistrationAnswer.NotFound n -> new IpEnrichment.NotFound(input, address, IpScope.PUBLIC,
                            "not in the offline dataset and not registered according to RDAP", embedding);
                    case RegistrationAnswer.Failed f -> new IpEnrichment.Unavailable(input, address, IpScope.PUBLIC, f.reason(),
                            f.transientFailure(), embedding);
                };
            }
        }
        Optional<String> note = Optional.empty();
        if (!datasetConfigured && rdap.isEmpty()) {
            note = Optional.of("no IP data is configured: set OMCP_IP_ENRICH_FILE to an offline CSV dataset and/or OMCP_IP_ENRICH_RDAP"
                    + " to an RDAP service (for example https://rdap.org) to ask the registries; only address scopes are reported");
        } else if (rdap.isEmpty()) {
            long uncovered = List.of(out).stream().filter(e -> e instanceof IpEnrichment.NotFound n && n.scope() == IpScope.PUBLIC).count();
            if (uncovered > 0) {
                note = Optional.of(uncovered + (uncovered == 1 ? " public address is" : " public addresses are") + " not in the "
                        + "offline dataset and the registries were not asked: set OMCP_IP_ENRICH_RDAP to an RDAP service (for "
                        + "example https://rdap.org) to look such addresses up there");
            }
        }
        return new Result(List.of(out), note);
    }

    /** Why an address that is not public has no registration, naming the IPv4 address an embedding stands for. */
    private static String notPublic(IpScope scope, IpAddress address, Optional<Ipv4Embedding> embedding) {
        String unregistered = scope.wireName() + " address: not registered in public registries";
        if (embedding.isEmpty()) {
            return unregistered;
        }
        String ofNonPublic = address + ", a " + unregistered;
        return switch (embedding.get().kind()) {
            case NAT64 -> embedding.get().nat64Prefix().filter(p -> !p.equals(Nat64Prefix.WELL_KNOWN))
                    .map(operators -> "NAT64 address (the operator's prefix " + operators + ") of " + ofNonPublic)
                    .orElse("NAT64 address of " + address + ", a " + scope.wireName() + " address, which RFC 6052 forbids in the "
                            + "well-known prefix 64:ff9b::/96: not registered in public registries");
            case SIX_TO_FOUR -> "6to4 address of the site at " + ofNonPublic
                    + " (RFC 3056 builds a 6to4 prefix only from a globally unique IPv4 address)";
            case TEREDO -> "Teredo address of a client whose public IPv4 address reads " + ofNonPublic + " (RFC 4380: a Teredo server "
                    + "writes there the public address it saw the client come from)";
            case NAT64_LOCAL_USE -> "local-use NAT64 address (64:ff9b:1::/48, RFC 8215): where it carries the IPv4 address depends on "
                    + "the prefix length the network's operator chose, which the address does not tell; ask for the IPv4 address itself "
                    + "(from the NAT64 gateway's logs) to look it up";
            case IPV4_COMPATIBLE -> "deprecated IPv4-compatible address (::/96, RFC 4291 section 2.5.5.1), which no transition "
                    + "mechanism uses any more: not looked up as the IPv4 address in its last 32 bits; if a log means that address, "
                    + "ask for it in IPv4 form";
            case IPV4_TRANSLATED -> "IPv4-translated address (SIIT, RFC 2765) of " + ofNonPublic;
            case IPV4_MAPPED -> unregistered;
        };
    }

    private static boolean redactionPlaceholder(String input) {
        return Arrays.stream(RedactionCategory.values()).anyMatch(c -> input.contains(c.replacement()));
    }
}
