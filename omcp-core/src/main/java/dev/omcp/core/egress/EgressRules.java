package dev.omcp.core.egress;

import dev.omcp.core.embeddedipv4.EmbeddedIpv4;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The egress rules of spec 5.9. Refusal reasons name the kind of address and the setting that
 * would change the answer (for an IPv6 address that carries an IPv4 one also the form and the IPv4
 * address it leads to, and the prefix for NAT64); they never repeat the URL.
 */
public final class EgressRules implements EgressPolicy {
    private static final int MAX_URL_LENGTH = 2048;
    /** Names of metadata services that must be refused even before they resolve. */
    private static final Set<String> METADATA_NAMES = Set.of(
            "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
            "metadata.azure.internal", "metadata.tencentyun.com");

    private final boolean allowPrivate;
    private final Nat64Prefixes nat64Prefixes;

    /**
     * @param allowPrivate {@code OMCP_ALLOW_PRIVATE_BACKENDS}: allow private and loopback addresses
     */
    public EgressRules(boolean allowPrivate) {
        this(allowPrivate, Nat64Prefixes.none());
    }

    /**
     * @param allowPrivate {@code OMCP_ALLOW_PRIVATE_BACKENDS}: allow private and loopback addresses
     * @param nat64Prefixes {@code OMCP_NAT64_PREFIXES}: an address under one is judged by the IPv4 address it leads to
     */
    public EgressRules(boolean allowPrivate, Nat64Prefixes nat64Prefixes) {
        this.allowPrivate = allowPrivate;
        this.nat64Prefixes = Objects.requireNonNull(nat64Prefixes, "nat64Prefixes");
    }

    @Override
    public boolean privateBackendsAllowed() {
        return allowPrivate;
    }

    @Override
    public EgressVerdict checkUrl(String url) {
        if (url.length() > MAX_URL_LENGTH) {
            return EgressVerdict.refuse("the URL is longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return EgressVerdict.refuse("the URL is malformed: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return EgressVerdict.refuse(scheme.isEmpty()
                    ? "the URL has no scheme; use http:// or https://"
                    : "the scheme '" + scheme + "' is not allowed; use http:// or https://");
        }
        if (uri.getRawUserInfo() != null) {
            return EgressVerdict.refuse("the URL carries credentials; put them in the source's auth settings instead");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            // java.net.URI leaves the host empty for forms like 127.1 or under_score names; HTTP
            // clients cannot use those, but an address spelled that way is still named as such.
            String authorityHost = authorityHost(uri.getRawAuthority());
            if (!authorityHost.isEmpty()) {
                EgressVerdict asHost = checkHost(authorityHost);
                if (!asHost.allowed()) {
                    return asHost;
                }
                if (AddressLiterals.parse(authorityHost).isPresent()) {
                    return EgressVerdict.refuse("write the IP address in dotted form a.b.c.d");
                }
            }
            return EgressVerdict.refuse("the URL has no valid host name (letters, digits, '-' and '.', or an IP address)");
        }
        return checkHost(host);
    }

    @Override
    public EgressVerdict checkHost(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        String bare = lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
        if (METADATA_NAMES.contains(bare)) {
            return EgressVerdict.refuse("the host is a cloud-metadata service, which is never allowed");
        }
        Optional<byte[]> literal = AddressLiterals.parse(lower);
        if (literal.isPresent()) {
            return checkAddress(literal.get());
        }
        if (AddressLiterals.looksNumeric(bare) || bare.contains(":")) {
            return EgressVerdict.refuse("the host looks like an IP address but is not a valid one");
        }
        return EgressVerdict.allow();
    }

    private static String authorityHost(String authority) {
        if (authority == null) {
            return "";
        }
        String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
        if (hostPort.startsWith("[")) {
            int end = hostPort.indexOf(']');
            return end < 0 ? "" : hostPort.substring(0, end + 1);
        }
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 ? hostPort : hostPort.substring(0, colon);
    }

    @Override
    public Optional<byte[]> literalAddress(String host) {
        return AddressLiterals.parse(host);
    }

    @Override
    public EgressVerdict checkAddress(byte[] address) {
        AddressClassifier.Classified classified = AddressClassifier.classified(address, nat64Prefixes);
        AddressClass kind = classified.kind();
        String what = "the backend address is " + kind.description() + classified.ipv6Block().map(b -> " (" + b + ")").orElse("")
                + howCarried(classified.carried());
        return switch (kind.rule()) {
            case ALLOWED -> EgressVerdict.allow();
            case OPT_IN -> allowPrivate
                    ? EgressVerdict.allow()
                    : EgressVerdict.refuse(what + "; set OMCP_ALLOW_PRIVATE_BACKENDS=true to allow private and loopback backends");
            case NEVER -> EgressVerdict.refuse(what + ", which is never allowed"
                    + (kind == AddressClass.METADATA ? ", not even with OMCP_ALLOW_PRIVATE_BACKENDS" : ""));
        };
    }

    /**
     * Why an IPv6 address that carries an IPv4 one is judged as it is: an operator who wrote an IPv6 URL, or whose
     * (DNS64) resolver answered one, sees only an address that looks public, and often not even that when the URL holds
     * a name. Every form names the IPv4 address it leads to (no secret, at most some 100 characters; this text is for
     * the operator: a tool call's agent reads a fixed text instead, see {@code FanOut}); NAT64 also names the prefix.
     */
    private static String howCarried(Optional<EmbeddedIpv4> carried) {
        if (carried.isEmpty()) {
            return "";
        }
        EmbeddedIpv4 embedded = carried.get();
        return switch (embedded.form()) {
            case NAT64 -> ": the IPv6 address leads through the NAT64 prefix " + embedded.nat64Prefix().orElseThrow()
                    + " to the IPv4 address " + ipv4(embedded);
            case NAT64_LOCAL_USE -> ": the IPv6 address lies in the local-use NAT64 block 64:ff9b:1::/48 under none of "
                    + "OMCP_NAT64_PREFIXES (list the translators' prefix there), so where it leads is unknown";
            case SIX_TO_FOUR -> ": the IPv6 address is a 6to4 address (2002::/16) of the IPv4 address " + ipv4(embedded);
            case TEREDO -> ": the IPv6 address is a Teredo address (2001::/32) whose client is the IPv4 address " + ipv4(embedded);
            case IPV4_MAPPED -> ": the IPv6 address is an IPv4-mapped address (::ffff:0:0/96) of the IPv4 address " + ipv4(embedded);
            case IPV4_TRANSLATED -> ": the IPv6 address is an IPv4-translated address (::ffff:0:0:0/96) of the IPv4 address "
                    + ipv4(embedded);
            case IPV4_COMPATIBLE -> ": the IPv6 address is an IPv4-compatible address (::/96) of the IPv4 address " + ipv4(embedded);
        };
    }

    private static String ipv4(EmbeddedIpv4 embedded) {
        return dotted(embedded.ipv4Bytes().orElseThrow());
    }

    private static String dotted(byte[] ipv4) {
        return (ipv4[0] & 0xFF) + "." + (ipv4[1] & 0xFF) + "." + (ipv4[2] & 0xFF) + "." + (ipv4[3] & 0xFF);
    }

    /** {@code privateBackendsAllowed=false nat64Prefixes=[2001:db8:64::/96]}: both settings that change a verdict. */
    @Override
    public String describe() {
        return "privateBackendsAllowed=" + allowPrivate + " nat64Prefixes=" + nat64Prefixes;
    }
}
