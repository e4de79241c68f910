package dev.omcp.core.tools.observability;

import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import java.util.List;
import java.util.Optional;

/**
 * {@code enrich_ips}: who an address belongs to, from the offline CIDR dataset
 * ({@code OMCP_IP_ENRICH_FILE}) by longest-prefix match for an address of any scope, with the
 * optional RDAP fallback ({@code OMCP_IP_ENRICH_RDAP}) for public addresses the dataset does not
 * cover ({@link IpEnricher}). Every address is answered in input order; one that is not an address is
 * reported as invalid without failing the others.
 */
public final class EnrichIpsTool extends ObservabilityTool {
    static final String NAME = "enrich_ips";
    /** Long enough for any IPv6 spelling with a zone; anything longer is not an address. */
    static final int MAX_ADDRESS_CHARS = 64;

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Enrich IP addresses",
            "Tells who the IP addresses found in logs or traces belong to. Each address gets its scope (public, private, "
                    + "shared, loopback, link-local, multicast, documentation or reserved) and is looked up, whatever its scope, in "
                    + "the operator's offline dataset (longest prefix wins), which names the owning network and its attributes "
                    + "(organisation, ASN, country...). A public address the dataset does not cover is asked of the RDAP registries "
                    + "when the operator enabled them; an address of any other scope the dataset does not cover is not_found (the "
                    + "registries hold only public space). Up to "
                    + IpEnricher.MAX_ADDRESSES + " IPv4 or IPv6 addresses per call; each is answered in input order as found, "
                    + "not_found, invalid or unavailable (a registry error worth retrying). A NAT64 (64:ff9b::/96 or the "
                    + "operator's own NAT64 prefix), IPv4-mapped "
                    + "(::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), 6to4 (2002::/16) or Teredo (2001::/32, its client) "
                    + "address is answered for the IPv4 address it stands for, named in ipv4. Use it on client addresses "
                    + "(from an alert, a ticket, or log lines when the operator has turned redaction off: query_logs replaces "
                    + "addresses with [REDACTED:ipv4] by default) to tell an attack or a single noisy customer from real traffic. "
                    + "Next: query_logs or query_traces of the service that saw the address, to see what its requests did.",
            Schemas.object()
                    .required("addresses", Jsonp.object().add("type", "array")
                            .add("items", Jsonp.object().add("type", "string").add("minLength", 1).add("maxLength", MAX_ADDRESS_CHARS))
                            .add("minItems", 1).add("maxItems", IpEnricher.MAX_ADDRESSES)
                            .add("description", "IPv4 or IPv6 addresses, for example [\"203.0.113.7\", \"2001:db8::17\"].").build())
                    .build(),
            Optional.of(Schemas.output(Jsonp.object()
                    .add("results", Jsonp.object().add("type", "array").add("description", "One per address, in input order.")
                            .add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("input", OutputFields.typed("string", "The address as sent."))
                                    .add("status", Jsonp.object().add("type", "string")
                                            .add("enum", Jsonp.array().add("found").add("not_found").add("invalid").add("unavailable")))
                                    .add("address", OutputFields.typed("string", "The address in canonical form."))
                                    .add("embedding", OutputFields.typed("string", "When the IPv6 address carries an IPv4 one: "
                                            + "nat64 (64:ff9b::/96 or the operator's NAT64 prefix, named in nat64Prefix), "
                                            + "nat64-local-use (64:ff9b:1::/48 outside the operator's prefixes, whose IPv4 address "
                                            + "cannot be told), ipv4-mapped (::ffff:0:0/96), ipv4-translated (::ffff:0:0:0/96, SIIT), "
                                            + "6to4 (2002::/16), teredo (2001::/32) or ipv4-compatible (::/96, deprecated: not "
                                            + "looked up as its IPv4 address)."))
                                    .add("ipv4", OutputFields.typed("string", "The IPv4 address the IPv6 address stands for (for "
                                            + "teredo, the client's public address); scope, network and attributes are about it."))
                                    .add("nat64Prefix", OutputFields.typed("string", "nat64: the NAT64 prefix the address "
                                            + "lies under, 64:ff9b::/96 or one the operator configured (RFC 6052 places the IPv4 "
                                            + "bits after it by its length)."))
                                    .add("teredoServer", OutputFields.typed("string", "teredo: the IPv4 address of the Teredo "
                                            + "server that gave the client its address; not looked up."))
                                    .add("teredoClientPort", OutputFields.typed("integer", "teredo: the client's public UDP "
                                            + "port as its NAT maps it, decoded from bits 80-95 (stored inverted); with ipv4, the "
                                            + "endpoint the client's traffic came from.").add("minimum", 0).add("maximum", 65535))
                                    .add("scope", OutputFields.typed("string", "public, private, shared, loopback, link-local, "
                                            + "multicast, documentation or reserved."))
                                    .add("network", OutputFields.typed("string", "found: the network (CIDR) that holds the address."))
                                    .add("attributes", OutputFields.map("found: what the dataset or registry says of the network "
                                            + "(org, asn, country...; dataset columns as the operator named them).", "string"))
                                    .add("source", OutputFields.typed("string", "found: dataset or rdap."))
                                    .add("note", OutputFields.typed("string", "not_found: why nothing was found."))
                                    .add("reason", OutputFields.typed("string", "invalid: why the input is not an address; "
                                            + "unavailable: what the registry lookup ran into."))
                                    .add("transient", OutputFields.typed("boolean", "unavailable: whether retrying later may help.")))
                            .add("required", Jsonp.array().add("input").add("status"))))
                    .add("summary", Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                            .add("found", Jsonp.object().add("type", "integer"))
                            .add("notFound", Jsonp.object().add("type", "integer"))
                            .add("invalid", Jsonp.object().add("type", "integer"))
                            .add("unavailable", Jsonp.object().add("type", "integer"))))
                    .add("partial", Jsonp.object().add("type", "boolean").add("description", "Some registry lookup failed or "
                            + "did not answer within the call's deadline: those addresses are unavailable, the rest is complete."))
                    .add("note", Jsonp.object().add("type", "string")
                            .add("description", "What the answer cannot show, for example that no IP data is configured.")),
                    List.of("results", "summary", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public EnrichIpsTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        List<String> addresses = args.strings("addresses");
        if (addresses.isEmpty()) {
            throw new InvalidArgumentException("addresses must list at least one IP address");
        }
        if (addresses.size() > IpEnricher.MAX_ADDRESSES) {
            throw new InvalidArgumentException("at most " + IpEnricher.MAX_ADDRESSES + " addresses per call, got " + addresses.size()
                    + "; split the list into several calls");
        }
        return ToolResult.structured(toolkit.ipEnricher().enrich(addresses, toolkit.deadline()).toJson());
    }
}
